"""Pictures fit for a slide (issue 24): readable numbers, legends, options, PNG.

Expected values are computed here from the pictures themselves (font sizes
read from the SVG against the cell sizes read from it) or from the tours,
which go through the checker (``make_tour``).
"""

from __future__ import annotations

import importlib
import itertools
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from cpknight import collect
from cpknight.board import Board, Cell
from cpknight.checks import make_tour
from cpknight.cli import main
from cpknight.draw import (
    MIN_FONT_PX,
    board_svg,
    distance_map_svg,
    route_svg,
    sweep_svg,
    tour_svg,
)
from cpknight.draw.canvas import number_font
from cpknight.draw.export import svg_to_png
from cpknight.draw.pairs import pairs_svg
from cpknight.draw.study import nice_ticks, solved_time_svg
from cpknight.draw.walk import GRADIENT_BELOW_PX
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, Leaper
from cpknight.results import Sweep, SweepCell, Tour
from cpknight.status import Effort, Status
from cpknight.study import read_suite_text, run_study, sweep_pairs

NS = "{http://www.w3.org/2000/svg}"
WAZIR = Leaper((0, 1))


def _png_works() -> bool:
    """Whether resvg-py (the png extra) imports."""
    try:
        importlib.import_module("resvg_py")
    except ImportError:
        return False
    return True


HAS_PNG = _png_works()


def snake_tour(rows: int, cols: int) -> Tour:
    """A wazir's open tour of rows x cols, rank by rank (through the checker)."""
    cells: list[Cell] = []
    for r in range(rows):
        line = range(cols) if r % 2 == 0 else range(cols - 1, -1, -1)
        cells.extend((r, c) for c in line)
    return make_tour(
        Board.parse(f"{rows}x{cols}"), WAZIR, cells, closed=False, method="hand"
    )


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class") == cls]


def cell_px(root: ET.Element) -> float:
    return float(find(root, "rect", "cell")[0].get("width", "0"))


# ------------------------------------------------------------ readable numbers


DIGIT_EM = 0.64
"""The advance of a digit in DejaVu Sans, the pictures' first font (0.636 em)."""


@pytest.mark.parametrize("side", [3, 8, 20, 32, 40, 60])
def test_numbers_are_readable_or_left_out(side: int) -> None:
    """The font read from the SVG is at least MIN_FONT_PX, or there are no numbers.

    The cell size is read from the SVG too, and the font the numbers would
    take there (``number_font``) decides: drawn at that size when it is at
    least MIN_FONT_PX, left out when not; a drawn number fits its cell.
    """
    root = ET.fromstring(tour_svg(snake_tour(side, side)))
    size = cell_px(root)
    digits = len(str(side * side))
    would_be = number_font(size, digits)
    groups = find(root, "g", "numbers")
    if would_be >= MIN_FONT_PX:
        (group,) = groups
        font = float(group.get("font-size", "0"))
        assert font == pytest.approx(would_be)
        assert font * DIGIT_EM * digits <= size  # the widest number fits
        assert len(find(root, "text", "num")) == side * side
    else:
        assert not groups
        assert not find(root, "text", "num")
    if side == 60:  # 13 px cells, 4 digits: 3.6 px, unreadable (issue 24)
        assert would_be < MIN_FONT_PX


def test_forced_numbers_are_drawn_at_any_size() -> None:
    root = ET.fromstring(tour_svg(snake_tour(40, 40), numbers=True))
    assert len(find(root, "text", "num")) == 1600
    assert float(find(root, "g", "numbers")[0].get("font-size", "0")) < MIN_FONT_PX


# ------------------------------------------------------------ legends, notes


def notes(text: str) -> list[str]:
    return [t.text or "" for t in find(ET.fromstring(text), "text", "note")]


def test_sweep_explains_its_numbers() -> None:
    board = Board.parse("1x2")
    sweep = Sweep(
        board,
        KNIGHT,
        False,
        "hand",
        (
            SweepCell((0, 0), Status.FOUND, 0.01, Effort(attempts=3)),
            SweepCell((0, 1), Status.UNKNOWN, 1.0, Effort(attempts=1500)),
        ),
    )
    said = " ".join(notes(sweep_svg(sweep)))
    assert "moves tried (attempts)" in said
    assert "k = 1,000" in said


def test_pairs_explain_the_row_counts() -> None:
    text = pairs_svg(sweep_pairs("3x4", method="prune"))
    (note,) = notes(text)
    assert "last column" in note
    assert "row's start" in note
    ends = sweep_pairs("3x4", method="prune").ends_from()
    counts = [t.text for g in find(ET.fromstring(text), "g", "ends") for t in g]
    assert counts[0] == "ends"
    assert len(counts) == 1 + len(ends)


def test_pairs_drop_unreadable_row_counts_and_their_note() -> None:
    small = pairs_svg(sweep_pairs("3x4", method="prune"), cell_size=7)
    font = float(find(ET.fromstring(small), "g", "ends")[0].get("font-size", "0"))
    assert font < MIN_FONT_PX
    assert not [t for g in find(ET.fromstring(small), "g", "ends") for t in g]
    assert not notes(small)


def test_collect_numbers_every_visit_and_names_the_food() -> None:
    route = collect("3x3", "a1", ["b3"], end="a1", method="search")
    root = ET.fromstring(route_svg(route))
    by_cell: dict[tuple[int, ...], list[int]] = {}
    for step, cell in enumerate(route.cells):
        by_cell.setdefault(tuple(cell), []).append(step)
    shown = sorted(t.text or "" for t in find(root, "text", "num"))
    assert shown == sorted(",".join(map(str, s)) for s in by_cell.values())
    assert any(len(s) > 1 for s in by_cell.values())  # a1 is left and come back to
    labels = [
        t.text or "" for g in find(root, "g", "legend") for t in g.iter(NS + "text")
    ]
    assert any(label.startswith("food (1") for label in labels)


def test_distance_map_explains_its_numbers() -> None:
    from cpknight.api import distance_map

    (note,) = notes(distance_map_svg(distance_map("5x5", "c3")))
    assert "fewest moves from c3" in note


# ------------------------------------------------------------------- ticks


def test_ticks_of_a_30_axis_are_multiples_of_5() -> None:
    assert nice_ticks(0, 30) == list(range(0, 31, 5))


@pytest.mark.parametrize("high", [1, 3, 7, 13, 30, 64, 99, 1000, 12345])
def test_ticks_step_by_one_two_or_five(high: int) -> None:
    ticks = nice_ticks(0, high, integer=True)
    steps = set(np.diff(ticks).tolist())
    assert len(steps) == 1
    (step,) = steps
    mantissa = step / 10 ** int(np.floor(np.log10(step)))
    assert mantissa in (1, 2, 5)
    assert ticks[0] == 0
    assert ticks[-1] >= high
    assert len(ticks) - 1 <= 8


def test_time_plot_counts_are_whole_and_nice() -> None:
    study = run_study(
        read_suite_text("3x4 --open\n4x4 --open\n5x5 --open"), methods="prune"
    )
    root = ET.fromstring(solved_time_svg(study))
    labels = [
        t.text or "" for t in root.iter(NS + "text") if t.get("text-anchor") == "end"
    ]
    assert labels == ["0", "1", "2", "3"]


# ----------------------------------------------------------- drawing options


def test_flipped_puts_a1_at_the_top_right() -> None:
    tour = snake_tour(3, 4)
    plain = ET.fromstring(tour_svg(tour))
    flipped = ET.fromstring(tour_svg(tour, flipped=True))

    def one(root: ET.Element) -> tuple[float, float]:
        (first,) = [t for t in find(root, "text", "num") if t.text == "1"]
        return float(first.get("x", "0")), float(first.get("y", "0"))

    xs = [float(r.get("x", "0")) for r in find(plain, "rect", "cell")]
    ys = [float(r.get("y", "0")) for r in find(plain, "rect", "cell")]
    size = cell_px(plain)
    assert one(plain) == pytest.approx((min(xs) + size / 2, max(ys) + size / 2))
    assert one(flipped) == pytest.approx((max(xs) + size / 2, min(ys) + size / 2))
    files = [t.text for g in find(flipped, "g", "coordinates") for t in g]
    assert files[:4] == ["a", "b", "c", "d"]  # written right to left on screen
    file_x = [
        float(t.get("x", "0")) for g in find(flipped, "g", "coordinates") for t in g
    ][:4]
    assert file_x == sorted(file_x, reverse=True)


def test_crop_draws_only_its_window() -> None:
    tour = snake_tour(20, 20)
    root = ET.fromstring(tour_svg(tour, crop="c3:f5"))
    assert len(find(root, "rect", "cell")) == 4 * 3
    numbers = {int(t.text or "0") for t in find(root, "text", "num")}
    window = {
        i + 1 for i, (r, c) in enumerate(tour.cells) if 2 <= r <= 4 and 2 <= c <= 5
    }
    assert numbers == window
    files = [t.text for g in find(root, "g", "coordinates") for t in g]
    assert files == ["c", "d", "e", "f", "3", "4", "5"]


def test_highlight_arrows_coordinates_and_theme() -> None:
    board = Board.parse("8x8")
    root = ET.fromstring(
        board_svg(
            board,
            highlight=["e4", "d5"],
            arrows=[("g1", "f3")],
            coordinates=False,
            theme="print",
        )
    )
    assert len(find(root, "rect", "highlight")) == 2
    assert len(find(root, "g", "arrow")) == 1
    assert not find(root, "g", "coordinates")
    fills = {r.get("fill") for r in find(root, "rect", "cell")}
    assert fills == {"#ffffff", "#dedede"}  # the print theme's squares


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"theme": "pink"}, "expected a theme"),
        ({"crop": "a1"}, "expected a crop like 'a1:h8'"),
        ({"crop": "a1:i9"}, "not on board"),
        ({"highlight": ["z1"]}, "not on board"),
    ],
)
def test_bad_options_are_one_line_errors(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        board_svg(Board.parse("8x8"), **kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------- huge tours


def test_huge_tour_is_a_gradient_along_the_tour() -> None:
    """A 400x400 tour: cells of 2 px, drawn as one image coloured by order."""
    tour = snake_tour(400, 400)
    text = tour_svg(tour)
    root = ET.fromstring(text)
    assert not find(root, "path", "tour")
    (order,) = find(root, "image", "order")
    assert float(order.get("width", "0")) / 400 < GRADIENT_BELOW_PX
    assert len(text) < 200_000  # the path alone would be about 1.6 MB
    forced = tour_svg(tour, gradient=False)
    assert len(forced) > 5 * len(text)


# ------------------------------------------------------------- 3D tours


def test_3d_moves_between_layers_are_dashed_with_landings() -> None:
    board = Board.parse("2x2x3")
    cells = [(k, r, c) for k in range(2) for r in range(2) for c in range(3)]
    cells = [(k, r, c if r % 2 == 0 else 2 - c) for k, r, c in cells]
    cells = cells[:6] + cells[6:][::-1]
    tour = make_tour(board, WAZIR, cells, closed=False, method="hand")
    root = ET.fromstring(tour_svg(tour))
    (between,) = find(root, "path", "between")
    assert between.get("stroke-dasharray")
    assert between.get("stroke-opacity") == "1"
    across = sum(a[0] != b[0] for a, b in itertools.pairwise(cells))
    assert len(find(root, "circle", "landing")) == across == 1
    assert any("another layer" in n for n in notes(ET.tostring(root, "unicode")))


# --------------------------------------------------------------------- PNG


@pytest.mark.skipif(not HAS_PNG, reason="the png extra (resvg-py) is not installed")
def test_png_export_draws_the_squares() -> None:
    png = svg_to_png(board_svg(Board.parse("2x2"), cell_size=20), scale=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    root = ET.fromstring(board_svg(Board.parse("2x2"), cell_size=20))
    assert (width, height) == (
        int(root.get("width", "0")),
        int(root.get("height", "0")),
    )


@pytest.mark.skipif(not HAS_PNG, reason="the png extra (resvg-py) is not installed")
def test_cli_png_and_drawing_flags(tmp_path: Path) -> None:
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"
    code = main(
        [
            "tour", "5x5", "--open", "--start", "a1", "--method", "warnsdorff",
            "--svg", str(svg), "--png", str(png), "--flip", "--theme", "blue",
            "--highlight", "c3", "--arrow", "a1:b3", "--crop", "a1:c3",
        ]
    )  # fmt: skip
    assert code == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert len(find(root, "rect", "cell")) == 9
    assert len(find(root, "rect", "highlight")) == 1
    assert len(find(root, "g", "arrow")) == 1


def test_cli_refuses_a_bad_crop_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["tour", "8x8", "--svg", str(tmp_path / "t.svg"), "--crop", "a1:z9"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "not on board" in err[0]
    assert not (tmp_path / "t.svg").exists()


def test_png_without_the_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # import fails, as uninstalled
    with pytest.raises(
        InvalidInputError, match=re.escape("pip install 'cpknight[png]'")
    ):
        svg_to_png(board_svg(Board.parse("2x2")))


def test_cli_pairs_refuse_board_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", "3x4", "--pairs", "--flip"]) == 2
    assert "--pairs draws a start x end table" in capsys.readouterr().err


def test_animations_take_the_theme_and_the_flip() -> None:
    from cpknight.draw import tour_animation_svg, tour_html
    from cpknight.draw.palette import THEMES

    tour = snake_tour(2, 3)
    root = ET.fromstring(tour_animation_svg(tour, theme="print", flipped=True))
    (walk,) = find(root, "g", "walk")
    assert walk.get("stroke") == THEMES["print"].path
    ranks = [t.text for g in find(root, "g", "coordinates") for t in g][3:]
    ys = [float(t.get("y", "0")) for g in find(root, "g", "coordinates") for t in g][3:]
    assert ranks == ["1", "2"]
    assert ys[0] < ys[1]  # rank 1 above rank 2
    assert THEMES["print"].path in tour_html(tour, theme="print")
