"""Pictures as a person sees them (issue 37, item 6): legible, apart, explained.

Each picture is made through the command line (``cpknight ... --svg/--png``)
and read back from its own SVG coordinates: every font at least
:data:`MIN_FONT_PX` pixels at the picture's natural size, cells at least
:data:`MIN_CELL_PX`, no two texts' boxes overlapping, every number inside the
ring drawn round its cell, every colour drawn with a meaning named in the
legend. Text boxes are measured with DejaVu Sans's advance widths (its
``hmtx`` table, :data:`ADVANCE`, the pictures' first font) and its em box
(0.76 em above the baseline, 0.24 below). PNG output is read from its header
(the standard library) at the requested scale.

Expected numbers come from computations here (a breadth-first search for the
knight's distance, the swap replayed from its start) or cite their source.
"""

from __future__ import annotations

import itertools
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from cpknight.cli import main

NS = "{http://www.w3.org/2000/svg}"

MIN_FONT_PX = 11.0
"""The smallest text a person reads at 100 % zoom, in CSS pixels."""

MIN_CELL_PX = 40.0
"""The smallest cell of an 8x8 picture or a swap frame."""

ADVANCE = dict(
    zip(
        (chr(c) for c in range(32, 127)),
        (
            651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651,
            739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,
            1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577,
            1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235,
            1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690,
            799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298,
            569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803,
            1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
        ),
        strict=True,
    )
)  # fmt: skip
"""DejaVu Sans 2.37, advance widths of space to '~' in 2048ths of an em."""


# ------------------------------------------------------------ reading SVG


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    font: float
    group: str

    def overlaps(self, other: Box) -> bool:
        return (
            self.x0 < other.x1 - 0.01
            and other.x0 < self.x1 - 0.01
            and self.y0 < other.y1 - 0.01
            and other.y0 < self.y1 - 0.01
        )

    def corners(self) -> list[tuple[float, float]]:
        return [(x, y) for x in (self.x0, self.x1) for y in (self.y0, self.y1)]


def offset_of(element: ET.Element) -> tuple[float, float]:
    """The translation an element adds: a nested svg's x, y; a translate()."""
    dx = dy = 0.0
    if element.tag == NS + "svg":
        dx, dy = float(element.get("x", "0")), float(element.get("y", "0"))
    found = re.search(
        r"translate\(\s*([-\d.]+)[ ,]+([-\d.]+)", element.get("transform", "")
    )
    if found:
        dx, dy = dx + float(found.group(1)), dy + float(found.group(2))
    if "scale" in element.get("transform", ""):  # no text in a scaled group
        assert not any(element.iter(NS + "text"))
    return dx, dy


def text_boxes(root: ET.Element) -> list[Box]:
    """Every visible text's box, in the picture's coordinates (halos left out)."""
    out: list[Box] = []

    def walk(
        element: ET.Element, dx: float, dy: float, inherited: dict[str, str], group: str
    ) -> None:
        ox, oy = offset_of(element)
        dx, dy = dx + ox, dy + oy
        attrs = {
            **inherited,
            **{
                k: v
                for k, v in element.attrib.items()
                if k in ("font-size", "text-anchor")
            },
        }
        group = element.get("class", group) if element.tag == NS + "g" else group
        if element.tag == NS + "text" and element.text and group != "halos":
            font = float(attrs["font-size"])
            width = sum(ADVANCE.get(c, 2048) for c in element.text) * font / 2048
            anchor = attrs.get("text-anchor", "start")
            x = dx + float(element.get("x", "0"))
            x0 = (
                x - width / 2
                if anchor == "middle"
                else x - width
                if anchor == "end"
                else x
            )
            shift = element.get("dy", "0")
            em = float(shift[:-2]) if shift.endswith("em") else float(shift) / font
            baseline = dy + float(element.get("y", "0")) + em * font
            out.append(
                Box(
                    x0,
                    baseline - 0.76 * font,
                    x0 + width,
                    baseline + 0.24 * font,
                    element.text,
                    font,
                    group,
                )
            )
        for child in element:
            if child.tag != NS + "title":
                walk(child, dx, dy, attrs, group)

    walk(root, 0.0, 0.0, {"font-size": "16"}, "")
    return out


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in (e.get("class") or "").split()]


def assert_legible(root: ET.Element) -> list[Box]:
    """Every text at least MIN_FONT_PX, no two boxes overlapping; the boxes."""
    boxes = text_boxes(root)
    assert boxes
    small = [(b.text, b.font) for b in boxes if b.font < MIN_FONT_PX]
    assert not small, small
    clashes = [
        (a.text, b.text) for a, b in itertools.combinations(boxes, 2) if a.overlaps(b)
    ]
    assert not clashes, clashes
    return boxes


def legend_colours(root: ET.Element) -> dict[str, str]:
    """Each legend swatch's colour and the label that names it."""
    (legend,) = by_class(root, "g", "legend")
    rects = [r for r in legend if r.tag == NS + "rect"]
    texts = [t for t in legend if t.tag == NS + "text" and t.get("class") != "note"]
    out = {}
    for rect in rects:
        x0 = float(rect.get("x", "0"))
        x1 = x0 + float(rect.get("width", "0"))
        # its label: inside the swatch, or the first text right of it
        label = min(
            (t for t in texts if float(t.get("x", "0")) > x0),
            key=lambda t: float(t.get("x", "0")),
        )
        assert float(label.get("x", "0")) <= x1 + 6, rect.attrib
        out[(rect.get("fill") or "").lower()] = label.text or ""
    return out


def cell_of(root: ET.Element, x: float, y: float) -> tuple[float, float, float]:
    """The cell rect under (x, y): its left, top and side."""
    for rect in by_class(root, "rect", "cell"):
        x0, y0 = float(rect.get("x", "0")), float(rect.get("y", "0"))
        side = float(rect.get("width", "0"))
        if x0 <= x < x0 + side and y0 <= y < y0 + side:
            return x0, y0, side
    raise AssertionError(f"no cell under {x}, {y}")


def assert_numbers_inside_rings(root: ET.Element) -> int:
    """Each number in a ringed cell lies inside the ring's inner edge."""
    boxes = [b for b in text_boxes(root) if b.group == "numbers"]
    checked = 0
    for ring in by_class(root, "circle", "start") + by_class(root, "circle", "end"):
        cx, cy = float(ring.get("cx", "0")), float(ring.get("cy", "0"))
        inner = float(ring.get("r", "0")) - float(ring.get("stroke-width", "0")) / 2
        x0, y0, side = cell_of(root, cx, cy)
        for box in boxes:
            middle = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
            if x0 <= middle[0] < x0 + side and y0 <= middle[1] < y0 + side:
                far = max(math.dist((cx, cy), c) for c in box.corners())
                assert far < inner, (box.text, far, inner)
                checked += 1
    return checked


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def svg_size(root: ET.Element) -> tuple[float, float]:
    return float(root.get("width", "0")), float(root.get("height", "0"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit code and the two streams (argparse's refusals exit 2 too)."""
    try:
        code = main(list(argv))
    except SystemExit as stopped:
        code = int(stopped.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def knight_bfs(rows: int, cols: int, a: tuple[int, int], b: tuple[int, int]) -> int:
    """The knight's distance by a breadth-first search written here."""
    seen = {a: 0}
    todo = deque([a])
    while todo:
        r, c = todo.popleft()
        for dr, dc in itertools.permutations((1, 2)):
            for sr, sc in itertools.product((1, -1), repeat=2):
                nxt = (r + sr * dr, c + sc * dc)
                if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in seen:
                    seen[nxt] = seen[(r, c)] + 1
                    todo.append(nxt)
    return seen[b]


# ------------------------------------------------------------- distance


def test_distance_svg_and_png_number_the_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg, png = tmp_path / "d.svg", tmp_path / "d.png"
    code, out, _ = run(
        capsys,
        "distance",
        "8x8",
        "a1",
        "h8",
        "--svg",
        str(svg),
        "--png",
        str(png),
        "--scale",
        "2",
    )
    assert code == 0
    assert f"wrote {svg}" in out
    assert f"wrote {png}" in out
    root = ET.parse(svg).getroot()
    boxes = assert_legible(root)
    assert float(by_class(root, "rect", "cell")[0].get("width", "0")) >= MIN_CELL_PX
    numbers = [b for b in boxes if b.group == "numbers"]
    expected = knight_bfs(8, 8, (0, 0), (7, 7))
    assert expected == 6
    assert sorted(int(b.text) for b in numbers) == list(range(expected + 1))
    # the numbered cells, in order, are a knight's path from a1 to h8
    cells = []
    for box in sorted(numbers, key=lambda b: int(b.text)):
        x0, y0, side = cell_of(root, (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
        cells.append((round(y0 / side), round(x0 / side)))
    steps = {
        tuple(sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))))
        for a, b in itertools.pairwise(cells)
    }
    assert steps == {(1, 2)}
    assert assert_numbers_inside_rings(root) == 2
    theme = {
        "path": by_class(root, "path", "path")[0],
        "start": by_class(root, "circle", "start")[0],
        "end": by_class(root, "circle", "end")[0],
    }
    named = legend_colours(root)
    path_group = next(g for g in root.iter(NS + "g") if theme["path"] in list(g))
    for colour in (
        path_group.get("stroke"),
        theme["start"].get("stroke"),
        theme["end"].get("stroke"),
    ):
        assert (colour or "").lower() in named
    width, height = svg_size(root)
    assert png_size(png) == (math.ceil(width * 2), math.ceil(height * 2))


def test_distance_on_a_big_board_is_cropped_to_readable_numbers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "d.svg"
    code, _, _ = run(capsys, "distance", "60x60", "10,10", "14,20", "--svg", str(svg))
    assert code == 0
    root = ET.parse(svg).getroot()
    boxes = assert_legible(root)
    assert len(by_class(root, "rect", "cell")) < 60 * 60
    assert any("cropped to the path" in b.text for b in boxes)
    moves = knight_bfs(60, 60, (10, 10), (14, 20))
    assert sorted(int(b.text) for b in boxes if b.group == "numbers") == list(
        range(moves + 1)
    )


def test_distance_on_the_plane_draws_a_window(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "p.svg"
    code, _, _ = run(
        capsys, "distance", "plane", "0,0", "5,3", "--method", "ip", "--svg", str(svg)
    )
    assert code == 0
    root = ET.parse(svg).getroot()
    boxes = assert_legible(root)
    # on the unbounded plane the knight needs 4 moves to (5,3), as on a big board
    assert sorted(int(b.text) for b in boxes if b.group == "numbers") == list(
        range(knight_bfs(20, 20, (5, 5), (10, 8)) + 1)
    )
    assert not by_class(root, "g", "coordinates")


def test_distance_by_the_formula_draws_its_ends_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "f.svg"
    code, _, _ = run(capsys, "distance", "plane", "0,0", "5,3", "--svg", str(svg))
    assert code == 0
    root = ET.parse(svg).getroot()
    boxes = assert_legible(root)
    assert (
        len(by_class(root, "circle", "start"))
        == len(by_class(root, "circle", "end"))
        == 1
    )
    assert any("not a path" in b.text for b in boxes)
    code, _, err = run(
        capsys, "distance", "plane", "0,0", "5,3", "--animate", str(tmp_path / "a.svg")
    )
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "--method ip" in err
    assert not (tmp_path / "a.svg").exists()


def test_distance_animation_numbers_stay_above_the_knight(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "a.svg"
    code, _, _ = run(capsys, "distance", "8x8", "a1", "h8", "--animate", str(page))
    assert code == 0
    root = ET.parse(page).getroot()
    order = [e.get("class") for e in root]
    assert order.index("numbers") > order.index("knight")
    assert len(by_class(root, "g", "step")) == 6
    assert sorted(int(t.text or "") for t in by_class(root, "text", "num")) == list(
        range(7)
    )


def test_a_cell_visited_twice_shows_both_visits_inside_one_split_ring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "r.svg"
    code, _, _ = run(
        capsys,
        "collect",
        "3x3",
        "a1",
        "b3",
        "--end",
        "a1",
        "--method",
        "search",
        "--svg",
        str(svg),
    )
    assert code == 0
    root = ET.parse(svg).getroot()
    boxes = assert_legible(root)
    assert "0,2" in [b.text for b in boxes if b.group == "numbers"]
    start, end = (
        by_class(root, "circle", "start")[0],
        by_class(root, "circle", "end")[0],
    )
    assert (start.get("cx"), start.get("cy")) == (end.get("cx"), end.get("cy"))
    half = math.pi * float(start.get("r", "0"))
    dashes = [float(x) for x in (start.get("stroke-dasharray") or "").split()]
    assert dashes == pytest.approx([half, half], abs=0.01)
    assert float(start.get("stroke-dashoffset", "0")) == pytest.approx(half, abs=0.01)
    assert assert_numbers_inside_rings(root) == 2  # the one cell, for each ring


# -------------------------------------------------------------- covering


def test_dominate_svg_and_png_with_a_legend(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg, png = tmp_path / "k.svg", tmp_path / "k.png"
    code, _, _ = run(capsys, "dominate", "8x8", "--svg", str(svg), "--png", str(png))
    assert code == 0
    root = ET.parse(svg).getroot()
    assert_legible(root)
    assert float(by_class(root, "rect", "cell")[0].get("width", "0")) >= MIN_CELL_PX
    knights = by_class(root, "circle", "knight")
    assert len(knights) == 12  # OEIS A006075(8): 12 knights dominate 8x8
    attacked = by_class(root, "circle", "attacked")
    assert len(knights) + len(attacked) == 64  # every cell held or attacked
    named = legend_colours(root)
    (dots,) = by_class(root, "g", "attacks")
    assert {knights[0].get("fill"), dots.get("fill")} <= set(named)
    assert named[knights[0].get("fill") or ""].startswith("knight")
    assert named[dots.get("fill") or ""].startswith("attacked")
    # a PNG of an 8x8 board keeps the picture's size by default
    assert png_size(png) == tuple(math.ceil(v) for v in svg_size(root))


@pytest.mark.parametrize("command", ["independent", "dominate"])
def test_independent_and_its_leftover_cells_are_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    svg = tmp_path / "i.svg"
    extra = ["--independent"] if command == "dominate" else []
    code, _, _ = run(capsys, command, "5x5", *extra, "--svg", str(svg))
    assert code == 0
    root = ET.parse(svg).getroot()
    assert_legible(root)
    # OEIS A030978(5) = 13 non-attacking knights; A286849(5) = 5 independent
    assert len(by_class(root, "circle", "knight")) == (
        13 if command == "independent" else 5
    )
    assert not by_class(root, "rect", "free")  # a maximal set leaves no cell free


def test_a_cover_with_cells_left_over_names_them() -> None:
    from cpknight import independent
    from cpknight.draw.covering import cover_svg

    cover = independent("4x4", method="search")
    few = replace(cover, cells=cover.cells[:2], size=2)
    root = ET.fromstring(cover_svg(few))
    assert_legible(root)
    free = by_class(root, "rect", "free")
    assert free
    named = legend_colours(root)
    assert named[(free[0].get("stroke") or "").lower()].startswith("neither")


# ----------------------------------------------------------------- swaps


def test_swap_picture_plays_every_move_legibly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    code, out, _ = run(capsys, "swap", "guarini", "--svg", str(svg), "--png", str(png))
    assert code == 0
    (line,) = [x for x in out.splitlines() if x.startswith("moves: ")]
    moves = line.split()[1:]
    assert len(moves) == 16  # Guarini (1512): 16 moves at least
    root = ET.parse(svg).getroot()
    boxes = assert_legible(root)
    frames = [f for f in root if f.get("class") == "frame"]
    assert len(frames) == len(moves) + 1
    captions = [
        b.text for b in boxes if b.group == "" and re.match(r"\d+\. |start", b.text)
    ]
    assert captions[0] == "start"
    assert [c.split(". ")[1].split(":")[0] for c in captions[1:]] == moves

    # replay the moves from the start frame: each frame holds what the replay says
    def knights(frame: ET.Element) -> dict[tuple[float, float], str]:
        out = {}
        for g in by_class(frame, "g", "knight"):
            x, y = offset_of(g)
            out[cell_of(frame, x, y)[:2]] = g.get("data-colour", "")
        return out

    def cell_xy(frame: ET.Element, name: str) -> tuple[float, float]:
        (side,) = {float(r.get("width", "0")) for r in by_class(frame, "rect", "cell")}
        xs = sorted({float(r.get("x", "0")) for r in by_class(frame, "rect", "cell")})
        ys = sorted(
            {float(r.get("y", "0")) for r in by_class(frame, "rect", "cell")},
            reverse=True,
        )
        assert side >= MIN_CELL_PX
        return xs[ord(name[0]) - ord("a")], ys[int(name[1:]) - 1]

    now = knights(frames[0])
    for frame, move in zip(frames[1:], moves, strict=True):
        a, b = (cell_xy(frame, n) for n in move.split("-"))
        now[b] = now.pop(a)
        assert knights(frame) == now
        assert len(by_class(frame, "g", "move")) == 1
    # the goal letters in the corners never touch a knight's disc
    for frame in frames:
        corner = [b for b in text_boxes(frame) if b.group == "goal"]
        discs = []
        for g in by_class(frame, "g", "knight"):
            (disc,) = g.iter(NS + "circle")
            discs.append(
                (
                    offset_of(g),
                    float(disc.get("r", "0"))
                    + float(disc.get("stroke-width", "0")) / 2,
                )
            )
        for box in corner:
            for (cx, cy), radius in discs:
                nearest = (min(max(cx, box.x0), box.x1), min(max(cy, box.y0), box.y1))
                assert math.dist((cx, cy), nearest) > radius, (box.text, cx, cy)
    named = legend_colours(root)
    fills = {
        c.get("fill", "") for c in root.iter(NS + "circle") if c.get("class") is None
    }
    arrows = {g.get("stroke", "") for g in by_class(root, "g", "move")}
    assert fills | arrows <= set(named)
    assert {named[f] for f in fills} == {"W", "B"}
    assert png_size(png) == tuple(math.ceil(v) for v in svg_size(root))


# ----------------------------------------------------------------- scale


@pytest.mark.parametrize("scale", ["0", "-1", "-0.5", "abc", "nan", "inf", ""])
def test_bad_scale_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scale: str
) -> None:
    png = tmp_path / "d.png"
    code, _, err = run(
        capsys, "distance", "8x8", "a1", "h8", "--png", str(png), "--scale", scale
    )
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "--scale" in lines[0]
    assert "Traceback" not in err
    assert not png.exists()


def test_scale_without_a_png_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    svg = tmp_path / "d.svg"
    code, _, err = run(capsys, "dominate", "4x4", "--svg", str(svg), "--scale", "2")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "--png" in err
    assert not svg.exists()


def test_a_scale_past_the_largest_png_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    png = tmp_path / "d.png"
    code, _, err = run(
        capsys, "distance", "8x8", "a1", "h8", "--png", str(png), "--scale", "100"
    )
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "pixels a side" in err
    assert not png.exists()


@pytest.mark.parametrize(
    ("argv", "cell"),
    [
        (["map", "8x8", "a1"], 48.0),  # 48-pixel cells: the picture's own size
        (["map", "30x30", "a1"], 800 / 30),  # 26.7-pixel cells: 1.5x, cells 40 px
        (["map", "100x100", "a1"], 8.0),  # 8-pixel cells: at most 4x
    ],
)
def test_default_scale_brings_small_cells_to_40_pixels(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], cell: float
) -> None:
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"
    code, _, _ = run(capsys, *argv, "--svg", str(svg), "--png", str(png))
    assert code == 0
    root = ET.parse(svg).getroot()
    assert float(by_class(root, "rect", "cell")[0].get("width", "0")) == pytest.approx(
        cell, abs=0.01
    )
    scale = min(4.0, max(1.0, math.ceil(4 * 40 / cell) / 4))
    width, height = svg_size(root)
    assert png_size(png) == (math.ceil(width * scale), math.ceil(height * scale))
    assert png_size(png)[0] * cell / width >= min(40.0, 4 * cell) - 0.5


def test_png_without_the_extra_is_one_line_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # import fails, as uninstalled
    png = tmp_path / "k.png"
    code, out, err = run(capsys, "dominate", "8x8", "--png", str(png))
    assert code == 2
    assert err.strip() == (
        "cpknight: error: PNG pictures need the 'png' extra: "
        "pip install 'cpknight[png]' (resvg-py)"
    )
    assert not out
    assert not png.exists()


@pytest.mark.parametrize("vision", ["deuteranopia", "protanopia", "normal vision"])
def test_the_new_legends_stay_apart_in_colour_blind_eyes(vision: str) -> None:
    """As tests/test_palette.py holds the other legends (its simulation)."""
    from cpknight import dominate, knight_distance
    from cpknight.draw.covering import cover_svg
    from cpknight.draw.values import distance_svg
    from tests.test_palette import MIN_DELTA_E, legends, seen

    cover = dominate("4x4", method="search")
    leftover = replace(cover, cells=cover.cells[:2], size=2)
    for text in (
        distance_svg(knight_distance("8x8", "a1", "h8")),
        cover_svg(cover),
        cover_svg(leftover),
    ):
        ((categories, _),) = legends(text)
        assert len(categories) >= 2
        for a, b in itertools.combinations(categories, 2):
            distance = math.dist(seen(a, vision), seen(b, vision))
            assert distance >= MIN_DELTA_E, (vision, a, b, distance)


@pytest.mark.parametrize(
    "argv",
    [
        ["dominate", "4x4", "--method", "all"],
        ["swap", "guarini", "--method", "all"],
    ],
)
def test_a_table_of_engines_refuses_a_picture(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    svg = tmp_path / "t.svg"
    code, _, err = run(capsys, *argv, "--svg", str(svg))
    assert code == 2
    assert "give one --method" in err
    assert not svg.exists()
