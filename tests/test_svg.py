"""Pictures: every SVG parses, with the expected cells, numbers and path segments.

Tours here are built by hand (the wazir (0,1) snakes through any box; a known
open knight tour of 3x4) or found by the tests' own Warnsdorff search
(``knight_tour_by_search`` in tests/conftest.py), and every one goes through
``make_tour`` (the checker), so the expected counts (one cell per square, one
number per visit, one segment per move) follow from the tour itself.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from cpknight import draw as svg
from cpknight.api import distance_map
from cpknight.board import Board, Cell
from cpknight.checks import make_route, make_tour
from cpknight.draw import canvas, colours
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, Leaper, move_graph
from cpknight.results import Route, Sweep, SweepCell, Tour
from cpknight.status import Effort, Status
from tests.conftest import knight_tour_by_search

NS = "{http://www.w3.org/2000/svg}"
WAZIR = Leaper((0, 1))

# An open knight tour of 3x4 (the example of cpknight.results; the checker
# accepts it).
KNIGHT_3X4 = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2", "d3"]


# ------------------------------------------------------------------ helpers


def knight_tour(board: Board, *, closed: bool) -> Tour:
    """A knight tour by the tests' own search, through the checker."""
    cells = knight_tour_by_search(board, closed=closed, budget=20_000)
    return make_tour(board, KNIGHT, cells, closed=closed, method="test")


def snake(rows: int, cols: int) -> list[Cell]:
    """A boustrophedon: rank 1 left to right, rank 2 right to left, ..."""
    out: list[Cell] = []
    for r in range(rows):
        line = range(cols) if r % 2 == 0 else range(cols - 1, -1, -1)
        out.extend((r, c) for c in line)
    return out


def wazir_cycle(rows: int, cols: int) -> list[Cell]:
    """A closed wazir tour of an even number of rows: up file a, snake back."""
    out: list[Cell] = [(r, 0) for r in range(rows)]
    for r in range(rows - 1, -1, -1):
        line = range(1, cols) if (rows - 1 - r) % 2 == 0 else range(cols - 1, 0, -1)
        out.extend((r, c) for c in line)
    return out


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if e.get("class") == cls]


def segments(d: str) -> int:
    """The number of line segments in a path made of M/m and l commands."""
    count = 0
    for command, args in re.findall(r"([MmLl])([^MmLl]*)", d):
        numbers = re.findall(r"-?\d*\.?\d+", args)
        assert len(numbers) % 2 == 0, d
        pairs = len(numbers) // 2
        count += pairs - 1 if command in "Mm" else pairs
    return count


def hand_tour(board: Board, cells: Sequence[Cell], *, closed: bool) -> Tour:
    return make_tour(board, WAZIR, cells, closed=closed, method="hand")


def knight_3x4() -> Tour:
    """The open knight tour ``KNIGHT_3X4`` of 3x4, through the checker."""
    board = Board.parse("3x4")
    cells = [board.parse_cell(c) for c in KNIGHT_3X4]
    return make_tour(board, KNIGHT, cells, closed=False, method="hand")


# -------------------------------------------------------------------- boards


@pytest.mark.parametrize(
    ("spec", "n_open", "n_blocked"),
    [
        ("8x8", 64, 0),
        ("holed8", 48, 16),  # 8x8 less the central 4x4 (MISSION.md)
        ("heart9", 81 - 30, 30),  # 7 + 3 + 2 + 4 + 6 + 8 blocked (MISSION.md)
        ("cross5", 24, 1),
        ("4x4x4", 64, 0),
        ("1x1", 1, 0),
    ],
)
def test_board_svg_has_one_rect_per_cell(
    spec: str, n_open: int, n_blocked: int
) -> None:
    root = parse(svg.board_svg(Board.parse(spec)))
    assert len(find(root, "rect", "cell")) == n_open
    assert len(find(root, "rect", "blocked")) == n_blocked


def test_board_svg_labels_files_and_ranks() -> None:
    root = parse(svg.board_svg(Board.parse("5x7")))
    labels = [t.text for g in find(root, "g", "coordinates") for t in g]
    assert labels == [*"abcdefg", "1", "2", "3", "4", "5"]


def test_board_svg_3d_draws_layers_side_by_side() -> None:
    root = parse(svg.board_svg(Board.parse("2x3x4")))
    headings = [t.text for g in find(root, "g", "layers") for t in g]
    assert headings == ["layer 0", "layer 1"]
    xs = sorted({float(r.get("x", "0")) for r in find(root, "rect", "cell")})
    ys = sorted({float(r.get("y", "0")) for r in find(root, "rect", "cell")})
    assert (len(xs), len(ys)) == (2 * 4, 3)  # 4 files per layer, 2 layers in a row


def test_board_svg_large_board_is_one_image() -> None:
    board = Board((200, 300), [(5, 5)])
    root = parse(svg.board_svg(board))
    assert not find(root, "rect", "cell")
    (image,) = root.iter(NS + "image")
    assert image.get("href", "").startswith("data:image/png;base64,")
    assert not list(root.iter(NS + "text"))[1:]  # no coordinates past LABEL_LIMIT


def test_png_decodes_to_the_cells() -> None:
    import base64
    import zlib

    board = Board((101, 100), [(0, 0)])  # 10100 cells > CELL_LIMIT
    root = parse(svg.board_svg(board))
    (image,) = root.iter(NS + "image")
    data = base64.b64decode(image.get("href", "").split(",", 1)[1])
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = (
        int.from_bytes(data[16:20], "big"),
        int.from_bytes(data[20:24], "big"),
    )
    assert (width, height) == (100, 101)
    idat = data[data.index(b"IDAT") + 4 : data.index(b"IEND") - 8]
    pixels = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(101, -1)
    # a1 (row 0, col 0) is the bottom-left pixel, blocked: near-black.
    assert tuple(pixels[-1, 1:4]) == colours.BLOCKED
    assert tuple(pixels[-1, 5:8]) == colours.LIGHT  # b1 is a light square


def test_plane_cannot_be_drawn() -> None:
    with pytest.raises(Exception, match="unbounded"):
        svg.board_svg(Board.plane())


# --------------------------------------------------------------------- tours


def test_tour_svg_counts_cells_numbers_and_segments() -> None:
    tour = knight_3x4()
    root = parse(svg.tour_svg(tour))
    assert len(find(root, "rect", "cell")) == 12
    numbers = find(root, "text", "num")
    assert sorted(int(t.text or "") for t in numbers) == list(range(1, 13))
    (path,) = find(root, "path", "tour")
    assert segments(path.get("d", "")) == 11
    assert not find(root, "path", "closing")
    assert len(find(root, "circle", "start")) == len(find(root, "circle", "end")) == 1


def test_tour_svg_numbers_sit_on_their_cells() -> None:
    tour = knight_3x4()
    root = parse(svg.tour_svg(tour))
    cells = {
        (float(r.get("x", "")), float(r.get("y", ""))): r
        for r in find(root, "rect", "cell")
    }
    size = float(next(iter(cells.values())).get("width", ""))
    by_number = {int(t.text or ""): t for t in find(root, "text", "num")}
    # a1 is number 1 and sits in the bottom-left square; d3 (12) the top-right.
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    one, twelve = by_number[1], by_number[12]
    assert float(one.get("x", "")) == pytest.approx(xs[0] + size / 2)
    assert float(one.get("y", "")) == pytest.approx(ys[-1] + size / 2)
    assert float(twelve.get("x", "")) == pytest.approx(xs[-1] + size / 2)
    assert float(twelve.get("y", "")) == pytest.approx(ys[0] + size / 2)


def test_closed_tour_draws_the_closing_move() -> None:
    board = Board.parse("4x5")
    tour = hand_tour(board, wazir_cycle(4, 5), closed=True)
    root = parse(svg.tour_svg(tour))
    (path,) = find(root, "path", "tour")
    (closing,) = find(root, "path", "closing")
    assert segments(path.get("d", "")) == 19
    assert segments(closing.get("d", "")) == 1
    assert len(find(root, "text", "num")) == 20


def test_knight_closed_tour_8x8() -> None:
    tour = knight_tour(Board.parse("8x8"), closed=True)
    root = parse(svg.tour_svg(tour))
    (path,) = find(root, "path", "tour")
    assert segments(path.get("d", "")) == 63
    assert len(find(root, "path", "closing")) == 1
    assert len(find(root, "text", "num")) == 64
    # Every relative step is a knight move in drawing units (x file, y rank).
    steps = re.findall(r"-?\d+ -?\d+", path.get("d", "").split("l", 1)[1])
    assert {tuple(sorted(abs(int(v)) for v in s.split())) for s in steps} == {(1, 2)}


def test_cylinder_wrapped_move_is_two_stubs() -> None:
    board = Board.parse("2x3", topology="cylinder")
    cells = [(0, 1), (0, 2), (0, 0), (1, 0), (1, 2), (1, 1)]  # c1->a1, a2->c2 wrap
    tour = hand_tour(board, cells, closed=False)
    d = find(parse(svg.tour_svg(tour)), "path", "tour")[0].get("d", "")
    assert d.count("M") == 3  # the start, and one re-entry per wrapped move
    # 5 moves; each wrapped one drawn as two stubs of half a file each.
    assert segments(d) == 7
    assert "l0.5 0" in d
    assert "l-0.5 0" in d


def test_tour_svg_3d() -> None:
    board = Board.parse("2x2x3")
    cells = [
        (k, r, c) for k in range(2) for r, c in snake(2, 3)[:: 1 if k == 0 else -1]
    ]
    tour = make_tour(board, Leaper((0, 0, 1)), cells, closed=False, method="hand")
    root = parse(svg.tour_svg(tour))
    assert len(find(root, "rect", "cell")) == 12
    assert len(find(root, "text", "num")) == 12
    within = segments(find(root, "path", "tour")[0].get("d", ""))
    (between,) = find(root, "path", "between")
    assert (within, segments(between.get("d", ""))) == (10, 1)  # one layer change


def test_large_tour_is_one_path_without_numbers() -> None:
    board = Board.parse("300x200")
    tour = hand_tour(board, snake(300, 200), closed=False)
    text = svg.tour_svg(tour)
    root = parse(text)
    assert not find(root, "text", "num")
    (path,) = find(root, "path", "tour")
    assert segments(path.get("d", "")) == 300 * 200 - 1
    assert len(list(root.iter())) < 20
    assert len(text) < 12 * 300 * 200  # a few bytes per move


@pytest.mark.slow
def test_million_cell_tour_stays_small() -> None:
    board = Board.parse("1000x1000")
    tour = hand_tour(board, snake(1000, 1000), closed=False)
    text = svg.tour_svg(tour)
    assert len(text) < 8_000_000
    root = parse(text)
    assert len(list(root.iter())) < 20


def test_numbers_can_be_forced() -> None:
    board = Board.parse("2x3")
    tour = hand_tour(board, snake(2, 3), closed=False)
    assert not find(parse(svg.tour_svg(tour, numbers=False)), "text", "num")
    # 10-pixel cells give a 4.6-pixel font, under MIN_FONT_PX: forced, drawn.
    assert not find(parse(svg.tour_svg(tour, cell_size=10)), "text", "num")
    forced = svg.tour_svg(tour, cell_size=10, numbers=True)
    assert len(find(parse(forced), "text", "num")) == 6


def test_bad_cell_size() -> None:
    with pytest.raises(InvalidInputError, match="cell size above 0"):
        svg.board_svg(Board.parse("3x3"), cell_size=0)


# -------------------------------------------------------------- distance maps


def _cell_fills(root: ET.Element) -> dict[tuple[float, float], str]:
    out = {}
    for rect in root.iter(NS + "rect"):
        if rect.get("class") in ("cell", "blocked"):
            size = float(rect.get("width", ""))
            x, y = float(rect.get("x", "")), float(rect.get("y", ""))
            out[(round(x + size / 2, 1), round(y + size / 2, 1))] = rect.get("fill", "")
    return out


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_distance_map_svg_holed8() -> None:
    dmap = distance_map("holed8", "a1")
    root = parse(svg.distance_map_svg(dmap))
    assert len(find(root, "rect", "cell")) == 48
    assert len(find(root, "rect", "blocked")) == 16
    numbers = find(root, "text", "num")
    assert len(numbers) == 48
    # The numbers are the BFS distances (computed by distance_map), cell by cell.
    assert sorted(int(t.text or "") for t in numbers) == sorted(
        int(v) for v in dmap.array[dmap.board.open_mask]
    )
    assert len(find(root, "rect", "source")) == 1


def test_distance_map_numbers_contrast_with_their_cells() -> None:
    for spec, source in [("holed8", "a1"), ("12x12", "f6"), ("30x30", "a1")]:
        root = parse(svg.distance_map_svg(distance_map(spec, source)))
        fills = _cell_fills(root)
        for text in find(root, "text", "num"):
            if text.text == "–":
                continue
            key = (
                round(float(text.get("x", "")), 1),
                round(float(text.get("y", "")), 1),
            )
            ratio = svg.contrast_ratio(_rgb(fills[key]), _rgb(text.get("fill", "")))
            # Black or white on any colour reaches at least 4.58:1 (WCAG AA
            # asks 4.5:1 for normal text).
            assert ratio >= 4.5, (spec, text.text, fills[key])


def test_distance_map_unreachable_is_distinct() -> None:
    # On 3x3 the knight never reaches b2 (the centre has no moves).
    dmap = distance_map("3x3", "a1")
    root = parse(svg.distance_map_svg(dmap))
    fills = _cell_fills(root)
    dashes = [t for t in find(root, "text", "num") if t.text == "–"]
    assert len(dashes) == 1
    key = (
        round(float(dashes[0].get("x", "")), 1),
        round(float(dashes[0].get("y", "")), 1),
    )
    heat = {v for k, v in fills.items() if k != key}
    assert fills[key] not in heat
    assert fills[key] != colours.hex_colour(colours.BLOCKED)


def test_distance_map_large_is_an_image() -> None:
    root = parse(svg.distance_map_svg(distance_map("150x150", "a1")))
    assert not find(root, "text", "num")
    assert len(list(root.iter(NS + "image"))) == 1


def test_heat_palette_runs_light_to_dark() -> None:
    palette = colours.heat_palette(8)
    lum = [colours._luminance(tuple(int(x) for x in c)) for c in palette]
    assert lum == sorted(lum, reverse=True)
    assert len({tuple(c) for c in palette.tolist()}) == 9


# -------------------------------------------------------------------- sweeps


def _sweep(board: Board) -> Sweep:
    # Odd boards: open tours start only on cells whose row + col is even
    # (colour count); the statuses here only exercise the drawing.
    cells = []
    for cell in board.open_cells():
        status = "found" if sum(cell) % 2 == 0 else "infeasible"
        if cell == (0, 1):
            status = "unknown"
        cells.append(
            SweepCell(
                cell, Status(status), 0.5, Effort(attempts=10 ** (cell[1] + 1)), None
            )
        )
    return Sweep(board, KNIGHT, False, "hand", tuple(cells))


def test_sweep_svg() -> None:
    board = Board.parse("5x5")
    sweep = _sweep(board)
    root = parse(svg.sweep_svg(sweep))
    assert len(find(root, "rect", "cell")) == 25
    numbers = find(root, "text", "num")
    assert len(numbers) == 25
    assert {t.text for t in numbers} == {"10", "100", "1.0k", "10k", "100k"}
    assert all(t.find(NS + "title") is not None for t in numbers)
    fills = _cell_fills(root)
    # found, infeasible and unknown cells have different colours.
    found = fills[
        (round(canvas.make_layout(board, None).left + 24, 1), round(6 + 4.5 * 48, 1))
    ]
    assert found != colours.hex_colour(colours.INFEASIBLE)
    assert colours.hex_colour(colours.INFEASIBLE) in fills.values()
    assert colours.hex_colour(colours.UNKNOWN) in fills.values()
    for text in numbers:
        key = (round(float(text.get("x", "")), 1), round(float(text.get("y", "")), 1))
        assert svg.contrast_ratio(_rgb(fills[key]), _rgb(text.get("fill", ""))) >= 4.5


def test_sweep_without_effort_shows_seconds() -> None:
    board = Board.parse("1x4")
    sweep = Sweep(
        board,
        KNIGHT,
        False,
        "cpsat",
        (
            SweepCell((0, 0), Status.FOUND, 0.25),
            SweepCell((0, 1), Status.FOUND, 2.5),
            SweepCell((0, 2), Status.INFEASIBLE, 0.0001),
            SweepCell((0, 3), Status.UNKNOWN, 10.0),
        ),
    )
    numbers = find(parse(svg.sweep_svg(sweep)), "text", "num")
    assert [t.text for t in numbers] == ["250ms", "2.5s", "×", "?"]


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0"), (999, "999"), (1000, "1.0k"), (15_300, "15k"), (2_500_000, "2.5M")],
)
def test_short_effort(n: int, text: str) -> None:
    assert canvas.short_count(n) == text


# ----------------------------------------------------------------- animation


def test_animation_has_one_step_per_move() -> None:
    tour = knight_tour(Board.parse("6x6"), closed=True)
    root = parse(svg.tour_animation_svg(tour, speed=5))
    steps = find(root, "g", "step")
    assert len(steps) == 36  # 35 moves and the closing move
    times = []
    for step in steps:
        (anim,) = step.iter(NS + "animate")
        assert anim.get("calcMode") == "discrete"
        assert anim.get("repeatCount") == "indefinite"
        times.append(float(anim.get("keyTimes", "").split(";")[1]))
        assert segments(step.find(NS + "path").get("d", "")) == 1  # type: ignore[union-attr]
    assert times == sorted(set(times))
    # 36 moves at 5 per second, holding two moves at the end: 7.6 s a loop.
    (motion,) = root.iter(NS + "animateTransform")
    assert motion.get("dur") == "7.6s"
    values = motion.get("values", "").split(";")
    assert len(values) == 36 + 2
    assert values[0] == values[-2] == values[-1]
    # 36 numbers: 1 shown from the start, 2..36 one per move but the closing one.
    numbers = find(root, "text", "num")
    assert len(numbers) == 36
    assert [len(list(t.iter(NS + "animate"))) for t in numbers] == [0] + [1] * 35
    assert not list(root.iter(NS + "script"))


def test_animation_open_tour_and_speed() -> None:
    tour = knight_3x4()
    root = parse(svg.tour_animation_svg(tour, speed=0.5))
    assert len(find(root, "g", "step")) == 11
    (motion,) = root.iter(NS + "animateTransform")
    assert motion.get("dur") == "26s"  # (11 + 2) moves at 2 s each


@pytest.mark.parametrize("speed", [0, -1, float("nan"), float("inf")])
def test_animation_rejects_bad_speed(speed: float) -> None:
    tour = hand_tour(Board.parse("1x2"), [(0, 0), (0, 1)], closed=False)
    with pytest.raises(InvalidInputError, match="speed above 0"):
        svg.tour_animation_svg(tour, speed=speed)


def test_animation_refuses_huge_tours() -> None:
    board = Board.parse("101x100")
    tour = hand_tour(board, snake(101, 100), closed=False)
    with pytest.raises(InvalidInputError, match="too long to animate"):
        svg.tour_animation_svg(tour)


def test_html_page_is_self_contained() -> None:
    tour = knight_tour(Board.parse("5x5"), closed=False)
    page = svg.tour_html(tour, speed=3)
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page)
    for marker in ("<link", "@import", "url("):
        assert marker not in page
    for button in ("play", "back", "step", "reset"):
        assert f'id="{button}"' in page
    body = page[page.index("<svg") : page.index("</svg>") + 6]
    root = parse(body)
    steps = find(root, "g", "step")
    assert len(steps) == 24
    assert all(s.get("visibility") == "hidden" for s in steps)
    assert not list(root.iter(NS + "animate"))
    positions = re.search(r"const pos = (\[.*?\]\]);", page)
    assert positions is not None
    assert positions.group(1).count("],") == 24


# ---------------------------------------------------------- notebook reprs


def test_repr_svg_methods() -> None:
    tour = knight_3x4()
    board = tour.board
    for obj in (board, tour, distance_map(board, "a1"), _sweep(Board.parse("3x3"))):
        text = obj._repr_svg_()
        assert text is not None
        assert parse(text).tag == NS + "svg"
    assert Board.plane()._repr_svg_() is None


# -------------------------------------------------- headless browser (optional)


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _png_pixels(data: bytes) -> np.ndarray:
    """Decode an 8-bit RGB or RGBA PNG (all five row filters) to (h, w, 3)."""
    import struct
    import zlib

    pos, idat, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        tag, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            channels = {2: 3, 6: 4}[colour]
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.int64)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(int)
        row = np.zeros(stride, dtype=np.int64)
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 0:
                pred = 0
            elif kind == 1:
                pred = a
            elif kind == 2:
                pred = b
            elif kind == 3:
                pred = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
            row[x] = (line[x] + pred) % 256
        out[y] = prev = row
    return out.reshape(height, width, channels)[:, :, :3]


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed")
def test_chromium_renders_the_tour() -> None:
    tour = knight_tour(Board.parse("5x5"), closed=False)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp, "t.svg")
        page.write_text(svg.tour_svg(tour, cell_size=20), encoding="utf-8")
        shot = Path(tmp, "t.png")
        subprocess.run(
            [
                str(_chromium()),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={tmp}/profile",
                f"--screenshot={shot}",
                "--window-size=150,150",
                page.as_uri(),
            ],
            check=False,
            capture_output=True,
            timeout=60,
        )
        if not shot.exists():
            pytest.skip("chromium did not write a screenshot")
        pixels = _png_pixels(shot.read_bytes()).reshape(-1, 3)
    seen = {tuple(int(v) for v in p) for p in pixels}
    # Both square colours, and the blue path (blue well above red) are on screen.
    assert colours.LIGHT in seen
    assert colours.DARK in seen
    assert int(((pixels[:, 2] - pixels[:, 0]) > 80).sum()) > 50


def test_animation_draws_wrapped_moves_as_stubs() -> None:
    board = Board.parse("2x3", topology="cylinder")
    cells = [(0, 1), (0, 2), (0, 0), (1, 0), (1, 2), (1, 1)]  # c1->a1, a2->c2 wrap
    root = parse(svg.tour_animation_svg(hand_tour(board, cells, closed=False)))
    paths = [s.find(NS + "path") for s in find(root, "g", "step")]
    restarts = [p.get("d", "").count("M") for p in paths if p is not None]
    assert restarts == [1, 2, 1, 2, 1]


# -------------------------------------------------------------------- routes


def pixel_segments(root: ET.Element, d: str) -> list[float]:
    """The pixel length of each line segment of a step's path (M, L and l)."""
    scale = 1.0
    (walk,) = find(root, "g", "walk")
    match = re.search(r"scale\(([-\d.]+)\)", walk.get("transform", ""))
    if match:
        scale = float(match.group(1))
    lengths = []
    x = y = 0.0
    for command, args in re.findall(r"([MLl])([^MLl]*)", d):
        values = [float(v) for v in re.findall(r"-?\d*\.?\d+", args)]
        for vx, vy in zip(values[::2], values[1::2], strict=True):
            if command == "M":
                x, y = vx, vy
                continue
            nx, ny = (vx, vy) if command == "L" else (x + vx, y + vy)
            lengths.append(float(np.hypot(nx - x, ny - y)) * scale)
            x, y = nx, ny
    return lengths


def walk(
    board: Board,
    cells: Sequence[Cell],
    piece: Leaper = KNIGHT,
    food: Sequence[Cell] = (),
) -> Route:
    """A checked route along ``cells`` (a walk: cells may repeat)."""
    graph = move_graph(board, piece)
    return make_route(
        graph,
        [graph.node(c) for c in cells],
        start=cells[0],
        food=food,
        end=None,
        simple=False,
        status="feasible",
        bound=0,
        method="hand",
    )


def test_route_animation_draws_wrapped_moves_as_stubs() -> None:
    board = Board.parse("8x8", topology="torus")
    route = [board.parse_cell(c) for c in ("a1", "h7", "a1")]  # two wrapping moves
    root = parse(svg.route_animation_svg(walk(board, route)))
    cell = float(find(root, "rect", "cell")[0].get("width", "0"))
    span = cell * np.hypot(1, 2)  # a knight move's length in pixels
    paths = [s.find(NS + "path") for s in find(root, "g", "step")]
    assert len(paths) == 2
    for path in paths:
        assert path is not None
        d = path.get("d", "")
        assert d.count("M") == 2  # two stubs, as route_svg draws them
        lengths = pixel_segments(root, d)
        assert len(lengths) == 2
        assert sum(lengths) <= span + 1e-6  # the stubs stop at the board's edges
    still = find(parse(svg.route_svg(walk(board, route))), "path", "route")
    assert still[0].get("d", "").count("M") == 3  # the start, a re-entry per move


def test_route_svg_3d_moves_between_layers_stand_out() -> None:
    board = Board.parse("3x3x3")
    route = [(0, 0, 0), (1, 2, 2), (0, 0, 0)]
    root = parse(svg.route_svg(walk(board, route, Leaper((1, 2, 2)))))
    (main,) = find(root, "path", "route")
    (between,) = find(root, "path", "between")
    assert segments(main.get("d", "")) == 0  # every move changes layer
    assert segments(between.get("d", "")) == 2
    # Issue 24: dashed at full strength (no longer faint), a dot per landing.
    assert between.get("stroke-opacity") == "1"
    assert between.get("stroke-dasharray")
    assert len(find(root, "circle", "landing")) == 2


def test_route_animation_numbers_nothing_and_outlines_food() -> None:
    board = Board.parse("3x3")
    root = parse(
        svg.route_animation_svg(walk(board, [(0, 0), (2, 1), (0, 0)], food=[(2, 1)]))
    )
    assert len(find(root, "g", "step")) == 2
    assert not find(root, "text", "num")
    assert len(find(root, "rect", "food")) == 1
    assert len(find(root, "circle", "start")) == 1


def test_boards_svg_nests_plain_svg_elements() -> None:
    text = svg.boards_svg([Board.parse("3x3"), Board.parse("2x2x2")])
    assert "ns0:" not in text
    root = parse(text)
    inner = root.findall(NS + "svg")
    assert [e.get("class") for e in inner] == ["board", "board"]
    assert inner[0].findtext(NS + "title") == "board 3x3: 9 open cells"
