"""--svg, --animate and --html on the command line; files are never clobbered."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpknight.api import distance_map
from cpknight.board import Board
from cpknight.checks import is_tour
from cpknight.cli import main
from cpknight.named_boards import NAMED_BOARDS

NS = "{http://www.w3.org/2000/svg}"

SOLVE = ["--time-limit", "20", "--workers", "1", "--seed", "0"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class") == cls]


def nearest(values: list[float], x: float) -> int:
    i = min(range(len(values)), key=lambda k: abs(values[k] - x))
    assert values[i] == pytest.approx(x, abs=0.02)
    return i


def test_map_svg_holed8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "map.svg"
    code, out, _ = run(capsys, "map", "holed8", "a1", "--svg", str(target))
    assert code == 0
    assert f"wrote {target}" in out
    root = ET.parse(target).getroot()
    numbers = by_class(root, "text", "num")
    # One number per open cell of holed8 (48), equal to the BFS distances.
    dmap = distance_map("holed8", "a1")
    assert sorted(int(t.text or "") for t in numbers) == sorted(
        int(v) for v in dmap.array[dmap.board.open_mask]
    )
    assert len(by_class(root, "rect", "blocked")) == 16


def test_map_svg_refuses_to_overwrite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "map.svg"
    target.write_text("keep me", encoding="utf-8")
    code, _, err = run(capsys, "map", "8x8", "a1", "--svg", str(target))
    assert code == 2
    assert "exists; add --force" in err
    assert target.read_text(encoding="utf-8") == "keep me"
    code, _, _ = run(capsys, "map", "8x8", "a1", "--svg", str(target), "--force")
    assert code == 0
    assert ET.parse(target).getroot().tag == NS + "svg"


def test_map_json_with_svg_keeps_stdout_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import json

    target = tmp_path / "m.svg"
    code, out, _ = run(capsys, "map", "5x5", "c3", "--json", "--svg", str(target))
    assert code == 0
    assert json.loads(out)["source"] == [2, 2]
    assert target.exists()


def test_boards_svg_one_and_all(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = tmp_path / "heart.svg"
    assert run(capsys, "boards", "heart9", "--svg", str(one))[0] == 0
    root = ET.parse(one).getroot()
    board = Board.parse("heart9")
    assert len(by_class(root, "rect", "cell")) == board.n_open
    assert len(by_class(root, "rect", "blocked")) == len(board.blocked)
    every = tmp_path / "boards.svg"
    assert run(capsys, "boards", "--svg", str(every))[0] == 0
    sheet = ET.parse(every).getroot()
    assert len(sheet.findall(NS + "svg")) == len(NAMED_BOARDS)
    assert len(by_class(sheet, "rect", "cell")) == sum(
        named.n_open for named in NAMED_BOARDS.values()
    )


def test_tour_svg_animate_html(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    static, moving, page = tmp_path / "t.svg", tmp_path / "a.svg", tmp_path / "p.html"
    code, out, _ = run(
        capsys,
        "tour",
        "6x6",
        *SOLVE,
        "--svg",
        str(static),
        "--animate",
        str(moving),
        "--html",
        str(page),
        "--speed",
        "8",
    )
    assert code == 0, out
    for path in (static, moving, page):
        assert f"wrote {path}" in out
    root = ET.parse(static).getroot()
    numbers = {int(t.text or ""): t for t in by_class(root, "text", "num")}
    assert sorted(numbers) == list(range(1, 37))
    assert len(by_class(root, "path", "closing")) == 1  # closed by default
    animated = ET.parse(moving).getroot()
    assert len(by_class(animated, "g", "step")) == 36  # 35 moves + the closing one
    (motion,) = animated.iter(NS + "animateTransform")
    assert motion.get("dur") == "4.75s"  # (36 + 2) moves at 8 per second
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text


def test_tour_svg_numbers_make_a_tour(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Read the cells back from the picture: the numbers in visit order, located
    # by their position, must be a tour (checked by the one checker).
    static = tmp_path / "t.svg"
    code, out, _ = run(capsys, "tour", "3x4", "--open", *SOLVE, "--svg", str(static))
    assert code == 0, out
    root = ET.parse(static).getroot()
    rects = by_class(root, "rect", "cell")
    xs = sorted({float(r.get("x", "")) for r in rects})
    ys = sorted({float(r.get("y", "")) for r in rects})
    size = float(rects[0].get("width", ""))
    cells = []
    for text in sorted(by_class(root, "text", "num"), key=lambda t: int(t.text or "")):
        x, y = float(text.get("x", "")), float(text.get("y", ""))
        col = nearest(xs, x - size / 2)
        row = len(ys) - 1 - nearest(ys, y - size / 2)
        cells.append((row, col))
    assert is_tour(Board.parse("3x4"), cells, closed=False)


def test_tour_pictures_checked_before_solving(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "a.svg"
    target.write_text("keep", encoding="utf-8")
    code, out, err = run(capsys, "tour", "6x6", *SOLVE, "--animate", str(target))
    assert code == 2
    assert "exists; add --force" in err
    assert out == ""  # refused before any solving
    code, _, err = run(
        capsys,
        "tour",
        "6x6",
        *SOLVE,
        "--animate",
        str(tmp_path / "b.svg"),
        "--speed",
        "0",
    )
    assert code == 2
    assert "speed above 0" in err
    assert not (tmp_path / "b.svg").exists()
    code, _, err = run(
        capsys, "tour", "120x120", *SOLVE, "--html", str(tmp_path / "c.html")
    )
    assert code == 2
    assert "too long to animate" in err


def test_sweep_svg_option_exists(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["sweep", "--help"])
    assert info.value.code == 0
    assert "--svg FILE" in capsys.readouterr().out


def test_sweep_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "s.svg"
    code, out, _ = run(
        capsys,
        "sweep",
        "3x4",
        "--time-limit",
        "10",
        "--seed",
        "0",
        "--svg",
        str(target),
    )
    assert code == 0, out
    root = ET.parse(target).getroot()
    assert len(by_class(root, "rect", "cell")) == 12
    assert len(by_class(root, "text", "num")) == 12
