"""Pictures (SVG): boards, tours, distance heat maps, sweeps, an animated knight.

Every function returns the text of a standalone SVG document (or, for
:func:`tour_html`, a one-file HTML page), built with :mod:`xml.etree.ElementTree`
and nothing outside the standard library but numpy. The same drawings back the
``_repr_svg_`` methods that make boards, tours, distance maps and sweeps draw
themselves in a notebook, and the ``--svg``, ``--animate`` and ``--html`` options
of the command line.

Boards show the top rank at the top and a1 at the bottom left, with file
letters and rank numbers on 2D boards of up to 26 files. 3D (and higher) boards
draw as their 2D layers side by side, each headed by its leading coordinates.

Large boards stay usable: past :data:`LABEL_LIMIT` cells the numbers and
coordinates are dropped; past :data:`CELL_LIMIT` cells the cells are one
embedded image (one pixel per cell) instead of a rectangle each, and a tour is
always one ``<path>``, so a 1000x1000 tour is a few megabytes, not a million
elements.

Examples:
    >>> import xml.etree.ElementTree as ET
    >>> from cpknight.board import Board
    >>> root = ET.fromstring(board_svg(Board.parse("holed8")))
    >>> len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='blocked']"))
    16
"""

from __future__ import annotations

import base64
import html
import itertools
import json
import math
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cpknight.board import FILES, Board, Cell
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    from cpknight.pieces import Leaper
    from cpknight.results import DistanceMap, Sweep, Tour
    from cpknight.status import Effort

__all__ = [
    "ANIMATION_LIMIT",
    "CELL_LIMIT",
    "LABEL_LIMIT",
    "board_svg",
    "boards_svg",
    "check_animation",
    "contrast_ratio",
    "distance_map_svg",
    "route_animation_svg",
    "route_svg",
    "sweep_svg",
    "tour_animation_svg",
    "tour_html",
    "tour_svg",
]

SVG_NS = "http://www.w3.org/2000/svg"

LABEL_LIMIT = 4096
"""Boards with more cells than this are drawn without numbers or coordinates."""

CELL_LIMIT = 10_000
"""Boards with more cells than this draw their cells as one embedded image."""

ANIMATION_LIMIT = 10_000
"""The longest tour (in cells) :func:`tour_animation_svg` and :func:`tour_html` draw."""

MAX_CELL_PX = 48.0
TARGET_PX = 800.0
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

RGB = tuple[int, int, int]

LIGHT: RGB = (240, 217, 181)
DARK: RGB = (181, 136, 99)
BLOCKED: RGB = (50, 50, 50)
UNREACHABLE: RGB = (255, 255, 255)
PATH = "#1d4ed8"
START = "#15803d"
END = "#b91c1c"
SOURCE = "#e11d48"
FOUND_LOW: RGB = (199, 233, 192)
FOUND_HIGH: RGB = (35, 110, 55)
INFEASIBLE: RGB = (229, 170, 170)
UNKNOWN: RGB = (255, 209, 102)
# A light-to-dark sequential scale (yellow, green, blue; ColorBrewer YlGnBu).
HEAT: tuple[RGB, ...] = (
    (255, 255, 217),
    (199, 233, 180),
    (127, 205, 187),
    (65, 182, 196),
    (29, 145, 192),
    (34, 94, 168),
    (12, 44, 132),
)


# ------------------------------------------------------------------ public API


def board_svg(board: Board, *, cell_size: float | None = None) -> str:
    """Draw a board: open cells checkered, blocked cells dark, coordinates labelled.

    Args:
        board: a finite board.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The SVG document.

    Raises:
        InvalidBoardError: the board is the unbounded plane.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> root = ET.fromstring(board_svg(Board.parse("3x4")))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='cell']"))
        12
    """
    _, root = _board_drawing(board, cell_size)
    return _text(root)


def tour_svg(
    tour: Tour, *, cell_size: float | None = None, numbers: bool | None = None
) -> str:
    """Draw a tour: the path, the visit numbers, the start and end marked.

    The path is one ``<path>`` element; the closing move of a closed tour is a
    second, dashed one. On 2D tori and cylinders a move that wraps is drawn as
    two stubs leaving one edge and entering the opposite one. On 3D boards
    (layers side by side) the moves from one layer to another are a third,
    fainter path. The start cell has a green ring, the end cell a red one.

    Args:
        tour: the tour.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).
        numbers: draw the visit numbers (default: on boards of at most
            :data:`LABEL_LIMIT` cells).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.checks import make_tour
        >>> cells = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1",
        ...          "b2", "d3"]
        >>> b = Board.parse("3x4")
        >>> t = make_tour(b, KNIGHT, [b.parse_cell(c) for c in cells],
        ...               closed=False, method="hand")
        >>> root = ET.fromstring(tour_svg(t))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']"))
        12
    """
    lay, root = _chessboard(tour.board, cell_size, _tour_title(tour), numbers=numbers)
    array = np.asarray(tour.array, dtype=np.int64)
    _draw_walk(root, lay, "tour", array, tour.piece, closed=tour.closed)
    _mark_ends(root, lay, array)
    if lay.numbers:
        _draw_numbers(
            root,
            lay,
            array,
            [str(i) for i in range(1, len(array) + 1)],
            ["#111111"] * len(array),
            halo=True,
        )
    return _text(root)


def distance_map_svg(dmap: DistanceMap, *, cell_size: float | None = None) -> str:
    """Draw a distance map as a heat map with the number of moves in each cell.

    Light cells are near the source, dark ones far. The source has a red
    outline; unreachable cells are white with a dash; blocked cells are
    near-black. Each number is black or white, whichever contrasts more with
    its cell (WCAG relative luminance). A legend sits under the board.

    Args:
        dmap: the distance map.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.api import distance_map
        >>> root = ET.fromstring(distance_map_svg(distance_map("3x3", "a1")))
        >>> texts = root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']")
        >>> sorted(t.text for t in texts)
        ['0', '1', '1', '2', '2', '3', '3', '4', '–']
    """
    board = dmap.board
    array = np.asarray(dmap.array)
    mask = board.open_mask
    reach = array >= 0
    top = max(int(array.max()), 0)
    palette = _heat_palette(top)
    colours = np.empty((*board.shape, 3), dtype=np.uint8)
    colours[...] = BLOCKED
    colours[mask & ~reach] = UNREACHABLE
    colours[reach] = palette[array[reach]]
    lay = _layout(board, cell_size, legend=True)
    source = board.cell_name(dmap.source)
    root = _root(
        lay,
        f"{dmap.piece.label} distances on {board.label} from {source}: "
        f"{dmap.n_reachable} of {board.n_open} cells reachable, at most {top} moves",
    )
    _draw_cells(root, lay, colours, "cell")
    _draw_labels(root, lay)
    if lay.numbers:
        cells = np.argwhere(mask)
        values = array[tuple(cells.T)]
        texts = [str(int(v)) if v >= 0 else "–" for v in values]
        fills = [
            _text_colour(tuple(int(x) for x in colours[tuple(c)]))
            if v >= 0
            else "#666666"
            for c, v in zip(cells, values, strict=True)
        ]
        _draw_numbers(root, lay, cells, texts, fills, halo=False)
    _outline(root, lay, dmap.source, SOURCE, "source")
    shown = sorted({round(top * i / 9) for i in range(10)}) if top else [0]
    items = [(_rgb(palette[v]), str(v)) for v in shown]
    if (mask & ~reach).any():
        items.append((UNREACHABLE, "unreachable"))
    if board.blocked:
        items.append((BLOCKED, "blocked"))
    _legend(root, lay, "moves:", items)
    return _text(root)


def sweep_svg(sweep: Sweep, *, cell_size: float | None = None) -> str:
    """Draw a sweep: each start cell coloured by status, with the effort it cost.

    Green cells start a tour (darker: more effort), red ones were proved to
    start none, amber ones reached the limit. The number in a cell is the
    effort (moves tried, else CP-SAT branches or conflicts, shortened like
    ``12k``); when the engine counts nothing, the time on found cells, ``×``
    on proved ones and ``?`` on unknown ones. Each number carries a tooltip
    with the status, time, effort and reason.

    Args:
        sweep: the sweep.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.results import Effort, Sweep, SweepCell
        >>> b = Board.parse("1x2")
        >>> s = Sweep(b, KNIGHT, False, "hand", (
        ...     SweepCell((0, 0), "infeasible", 0.01, Effort(attempts=3)),
        ...     SweepCell((0, 1), "unknown", 1.0, Effort(attempts=1500))))
        >>> root = ET.fromstring(sweep_svg(s))
        >>> [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
        ...  if t.get("class") == "num"]
        ['3', '1.5k']
    """
    board = sweep.board
    mask = board.open_mask
    colours = np.empty((*board.shape, 3), dtype=np.uint8)
    colours[...] = BLOCKED
    colours[mask] = (255, 255, 255)
    amounts = [_effort_amount(item.effort) for item in sweep.cells]
    # Found cells shade from light (cheapest) to dark (dearest), on a log scale
    # of the effort, or of the time when the engine counts nothing.
    costs = [
        math.log1p(a if a is not None else item.seconds * 1000)
        for a, item in zip(amounts, sweep.cells, strict=True)
    ]
    found = [
        c for c, item in zip(costs, sweep.cells, strict=True) if item.status == "found"
    ]
    low, high = (min(found), max(found)) if found else (0.0, 0.0)
    labels: list[str] = []
    tips: list[str] = []
    for item, amount, cost in zip(sweep.cells, amounts, costs, strict=True):
        if item.status == "found":
            share = (cost - low) / (high - low) if high > low else 0.5
            colour = _mix(FOUND_LOW, FOUND_HIGH, share)
        elif item.status == "infeasible":
            colour = INFEASIBLE
        else:
            colour = UNKNOWN
        colours[item.cell] = colour
        if amount is not None:
            labels.append(_short(amount))
        elif item.status == "found":
            labels.append(_seconds(item.seconds))
        else:
            labels.append("×" if item.status == "infeasible" else "?")
        detail = ", ".join(f"{k} {v}" for k, v in item.effort.as_dict().items())
        tip = f"{board.cell_name(item.cell)}: {item.status} in {item.seconds:.3f} s"
        tip += f" ({detail})" if detail else ""
        tips.append(tip + (f": {item.reason}" if item.reason else ""))
    lay = _layout(board, cell_size, legend=True)
    kind = "closed" if sweep.closed else "open"
    counts = sweep.counts()
    root = _root(
        lay,
        f"{kind} tours of {board.label} ({sweep.piece.label}) from each start "
        f"by {sweep.method}: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v),
    )
    _draw_cells(root, lay, colours, "cell")
    _draw_labels(root, lay)
    if lay.numbers and sweep.cells:
        cells = np.array([item.cell for item in sweep.cells], dtype=np.int64)
        fills = [_text_colour(_rgb(colours[c])) for c in map(tuple, cells.tolist())]
        texts = _draw_numbers(root, lay, cells, labels, fills, halo=False)
        for text, tip in zip(texts, tips, strict=True):
            ET.SubElement(text, "title").text = tip
    _legend(
        root,
        lay,
        "start:",
        [
            (_mix(FOUND_LOW, FOUND_HIGH, 0.5), f"tour ({counts.get('found', 0)})"),
            (INFEASIBLE, f"none ({counts.get('infeasible', 0)})"),
            (UNKNOWN, f"unknown ({counts.get('unknown', 0)})"),
        ],
    )
    return _text(root)


def tour_animation_svg(
    tour: Tour, *, speed: float = 4.0, cell_size: float | None = None
) -> str:
    """An animated SVG of the knight walking the tour, one step per move.

    Plays in any browser with no script (SMIL ``<animate>``): the knight glides
    from cell to cell, each move's line and the visit number appear as it
    lands, the picture holds for two moves at the end and starts again. A
    closed tour ends with the move back to the start.

    Args:
        tour: the tour, of at most :data:`ANIMATION_LIMIT` cells.
        speed: moves per second.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The SVG document: one ``<g class="step">`` per move, each with one
        ``<animate>``.

    Raises:
        InvalidInputError: a speed that is not positive, or a tour too long to
            animate.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import Leaper
        >>> from cpknight.checks import make_tour
        >>> b = Board.parse("2x3")
        >>> cells = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]
        >>> t = make_tour(b, Leaper((0, 1)), cells, closed=True, method="hand")
        >>> root = ET.fromstring(tour_animation_svg(t, speed=2))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='step']"))
        6
    """
    speed = _check_speed(speed)
    root, steps, knight, positions = _tour_walk(tour, cell_size)
    _animate(steps, knight, positions, speed)
    return _text(root)


def tour_html(tour: Tour, *, speed: float = 4.0, cell_size: float | None = None) -> str:
    """A one-file HTML page: the tour with play, pause, step and reset buttons.

    Self-contained (inline SVG, CSS and script; nothing fetched). Keys: space
    plays or pauses, the arrow keys step, Home resets.

    Args:
        tour: the tour, of at most :data:`ANIMATION_LIMIT` cells.
        speed: moves per second when playing (a slider changes it).
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The HTML page.

    Raises:
        InvalidInputError: a speed that is not positive, or a tour too long to
            animate.

    Examples:
        >>> from cpknight.pieces import Leaper
        >>> from cpknight.checks import make_tour
        >>> t = make_tour(Board.parse("1x3"), Leaper((0, 1)), [(0, 0), (0, 1), (0, 2)],
        ...               closed=False, method="hand")
        >>> page = tour_html(t)
        >>> page.startswith("<!DOCTYPE html>"), page.count('class="step"')
        (True, 2)
    """
    speed = _check_speed(speed)
    root, steps, knight, positions = _tour_walk(tour, cell_size)
    for shown in steps:
        for element in shown:
            element.set("visibility", "hidden")
    knight.set("id", "knight")
    title = root.findtext("title") or "tour"
    svg = _text(root)
    data = json.dumps([[round(x, 2), round(y, 2)] for x, y in positions])
    return _HTML.format(
        title=html.escape(title, quote=False),
        svg=svg,
        positions=data,
        speed=_n(speed),
        moves=len(steps),
        top=max(30, math.ceil(speed * 3)),
    )


FOOD = "#d97706"


def route_svg(
    board: Board,
    cells: Sequence[Sequence[int]],
    *,
    piece: Leaper,
    food: Sequence[Sequence[int]] = (),
    cell_size: float | None = None,
    numbers: bool | None = None,
    title: str | None = None,
) -> str:
    """Draw a route (a walk that may revisit cells): the path, the food, the ends.

    The path is one ``<path>`` element, drawn as in :func:`tour_svg`: moves
    that wrap on 2D tori and cylinders are two stubs, and on 3D boards the
    moves from one layer to another are a second, fainter path. Each cell on
    the route shows the move at which it is first reached (0 = the start);
    food cells have an amber outline, the start a green ring, the last cell a
    red one.

    Args:
        board: the board.
        cells: the route, start first.
        piece: the leaper (to draw wrapping moves).
        food: the cells to outline.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).
        numbers: draw the step numbers (default: on boards of at most
            :data:`LABEL_LIMIT` cells).
        title: the picture's title (default: the route's length).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import KNIGHT
        >>> b = Board.parse("3x3")
        >>> text = route_svg(b, [(0, 0), (2, 1), (0, 0)], piece=KNIGHT,
        ...                  food=[(2, 1)])
        >>> root = ET.fromstring(text)
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> len(root.findall(f".//{ns}text[@class='num']"))  # a1 and b3
        2
        >>> len(root.findall(f".//{ns}rect[@class='food']"))
        1
    """
    array = np.asarray(cells, dtype=np.int64).reshape(-1, board.dim)
    if len(array) == 0:
        raise InvalidInputError("expected a route of at least one cell")
    lay, root = _chessboard(
        board, cell_size, title or _route_title(board, piece, array), numbers=numbers
    )
    _draw_food(root, lay, food)
    _draw_walk(root, lay, "route", array, piece, closed=False)
    _mark_ends(root, lay, array)
    if lay.numbers:
        first: dict[tuple[int, ...], int] = {}
        for step, cell in enumerate(array.tolist()):
            first.setdefault(tuple(cell), step)
        where = np.array(list(first), dtype=np.int64).reshape(-1, board.dim)
        texts = [str(step) for step in first.values()]
        _draw_numbers(root, lay, where, texts, ["#111111"] * len(texts), halo=True)
    return _text(root)


def route_animation_svg(
    board: Board,
    cells: Sequence[Sequence[int]],
    *,
    piece: Leaper,
    food: Sequence[Sequence[int]] = (),
    speed: float = 4.0,
    cell_size: float | None = None,
) -> str:
    """An animated SVG of the knight walking a route, one step per move.

    As :func:`tour_animation_svg`, for a route that may revisit cells: each
    move's line appears as the knight lands (a move that wraps on a 2D torus
    or cylinder as two stubs), the food cells are outlined, and the picture
    holds for two moves at the end and starts again.

    Args:
        board: the board.
        cells: the route, start first, at most :data:`ANIMATION_LIMIT` cells.
        piece: the leaper.
        food: the cells to outline.
        speed: moves per second.
        cell_size: pixels per cell.

    Returns:
        The SVG document: one ``<g class="step">`` per move.

    Raises:
        InvalidInputError: a speed that is not positive, or a route too long.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import KNIGHT
        >>> b = Board.parse("3x3")
        >>> text = route_animation_svg(b, [(0, 0), (2, 1), (0, 0)], piece=KNIGHT)
        >>> root = ET.fromstring(text)
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='step']"))
        2
    """
    speed = _check_speed(speed)
    array = np.asarray(cells, dtype=np.int64).reshape(-1, board.dim)
    if not 0 < len(array) <= ANIMATION_LIMIT:
        raise InvalidInputError(
            f"a route of {len(array)} cells cannot be animated (1 to "
            f"{ANIMATION_LIMIT}); draw it with route_svg (--svg) instead"
        )
    root, steps, knight, centres = _walk_drawing(
        board,
        piece,
        array,
        closed=False,
        title=_route_title(board, piece, array),
        cell_size=cell_size,
        numbered=False,
        food=food,
    )
    _animate(steps, knight, centres, speed)
    return _text(root)


def check_animation(n_cells: int, speed: float = 4.0) -> None:
    """Refuse, before any solving, a tour too long to animate or a bad speed.

    Args:
        n_cells: the number of cells the tour will have.
        speed: moves per second.

    Raises:
        InvalidInputError: more than :data:`ANIMATION_LIMIT` cells, or a speed
            that is not a positive number.

    Examples:
        >>> check_animation(64, 4.0)
        >>> check_animation(64, 0)
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a speed above 0 moves per \
second: 0
    """
    _check_speed(speed)
    if n_cells > ANIMATION_LIMIT:
        raise InvalidInputError(
            f"a tour of {n_cells} cells is too long to animate (at most "
            f"{ANIMATION_LIMIT}); draw it with --svg (tour_svg) instead"
        )


def boards_svg(
    boards: Sequence[Board], *, columns: int = 3, cell_size: float = 20.0
) -> str:
    """Draw several boards on one sheet, in rows, each titled with its label.

    Args:
        boards: the boards (each finite, at most :data:`CELL_LIMIT` cells).
        columns: boards per row.
        cell_size: pixels per cell.

    Returns:
        The SVG document: one nested ``<svg class="board">`` per board.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> boards = [Board.parse(s) for s in ("3x3", "cross5", "2x2x2")]
        >>> root = ET.fromstring(boards_svg(boards, columns=2))
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> len(root.findall(f"{ns}svg[@class='board']"))
        3
    """
    if columns < 1:
        raise InvalidInputError(f"expected at least 1 column: {columns}")
    drawings = [_board_drawing(b, cell_size)[1] for b in boards]
    sizes = [
        (float(d.get("width", "0")), float(d.get("height", "0"))) for d in drawings
    ]
    rows = [
        list(range(i, min(i + columns, len(boards))))
        for i in range(0, len(boards), columns)
    ]
    col_w = [
        max((sizes[row[c]][0] for row in rows if c < len(row)), default=0.0)
        for c in range(min(columns, len(boards)))
    ]
    caption = 18.0
    sheet = ET.Element("svg", {"xmlns": SVG_NS, "font-family": FONT})
    ET.SubElement(sheet, "title").text = f"{len(boards)} boards"
    ET.SubElement(sheet, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    y = 0.0
    for row in rows:
        x = 0.0
        height = max(sizes[i][1] for i in row)
        for c, i in enumerate(row):
            board = boards[i]
            label = ET.SubElement(sheet, "text", {"x": _n(x + 6), "y": _n(y + 13)})
            label.set("font-size", "13")
            label.text = f"{board.label} ({board.n_open} open cells)"
            inner = drawings[i]
            inner.attrib.pop("xmlns", None)
            inner.set("class", "board")
            inner.set("x", _n(x))
            inner.set("y", _n(y + caption))
            sheet.append(inner)
            x += col_w[c] + 12
        y += height + caption + 12
    width = sum(col_w) + 12 * (len(col_w) - 1)
    sheet.set("width", str(math.ceil(width)))
    sheet.set("height", str(math.ceil(y)))
    sheet.set("viewBox", f"0 0 {math.ceil(width)} {math.ceil(y)}")
    return _text(sheet)


def contrast_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    """The WCAG 2 contrast ratio of two sRGB colours (1 to 21).

    Examples:
        >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1)
        21.0
        >>> contrast_ratio((10, 20, 30), (10, 20, 30))
        1.0
    """
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# ------------------------------------------------------------------- layout


@dataclass(frozen=True)
class _Layout:
    """Where each cell goes: panels (2D layers) side by side, pixels per cell."""

    board: Board
    rows: int
    cols: int
    panel_cols: int
    panel_rows: int
    gap: int
    s: float
    left: float
    top: float
    width: float
    height: float
    labels: bool
    numbers: bool
    vector: bool
    legend_y: float

    @property
    def units(self) -> tuple[int, int]:
        """The drawing's width and height in cells, gaps included."""
        w = self.panel_cols * self.cols + (self.panel_cols - 1) * self.gap
        h = self.panel_rows * self.rows + (self.panel_rows - 1) * self.gap
        return w, h

    def unit_xy(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``(n, 2)`` top-left corners in cell units (x right, y down)."""
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, self.board.dim)
        dim = self.board.dim
        if dim == 1:
            return np.stack([cells[:, 0], np.zeros(len(cells), np.int64)], axis=1)
        r, c = cells[:, -2], cells[:, -1]
        if dim == 2:
            return np.stack([c, self.rows - 1 - r], axis=1)
        lead = np.ravel_multi_index(tuple(cells[:, :-2].T), self.board.shape[:-2])
        pc, pr = lead % self.panel_cols, lead // self.panel_cols
        x = pc * (self.cols + self.gap) + c
        y = pr * (self.rows + self.gap) + self.rows - 1 - r
        return np.stack([x, y], axis=1)

    def px(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """``(n, 2)`` pixel centres of cells."""
        units = self.unit_xy(cells).astype(np.float64) + 0.5
        out: npt.NDArray[np.float64] = units * self.s + np.array([self.left, self.top])
        return out

    def panels(self) -> list[tuple[tuple[int, ...], float, float]]:
        """Each 2D layer: its leading coordinates and its top-left pixel."""
        lead_shape = self.board.shape[:-2] if self.board.dim >= 2 else ()
        out = []
        for k, lead in enumerate(itertools.product(*(range(n) for n in lead_shape))):
            pc, pr = k % self.panel_cols, k // self.panel_cols
            x = self.left + pc * (self.cols + self.gap) * self.s
            y = self.top + pr * (self.rows + self.gap) * self.s
            out.append((lead, x, y))
        return out


def _layout(
    board: Board,
    cell_size: float | None,
    *,
    numbers: bool | None = None,
    legend: bool = False,
) -> _Layout:
    board.require_finite("a drawing")
    dim = board.dim
    rows, cols = (board.shape[-2], board.shape[-1]) if dim >= 2 else (1, board.shape[0])
    panel_cols = board.shape[-3] if dim >= 3 else 1
    panel_rows = math.prod(board.shape[:-3]) if dim >= 4 else 1
    size = board.size

    def units(gap: int) -> tuple[int, int]:
        return (
            panel_cols * cols + (panel_cols - 1) * gap,
            panel_rows * rows + (panel_rows - 1) * gap,
        )

    if cell_size is not None and not cell_size > 0:
        raise InvalidInputError(f"expected a cell size above 0 pixels: {cell_size}")
    s = cell_size or min(MAX_CELL_PX, max(1.0, TARGET_PX / max(units(1))))
    gap = max(1, math.ceil(22 / s)) if dim >= 3 else 0
    if cell_size is None and dim >= 3:
        s = min(MAX_CELL_PX, max(1.0, TARGET_PX / max(units(gap))))
        gap = max(1, math.ceil(22 / s))
    labels = dim == 2 and cols <= len(FILES) and size <= LABEL_LIMIT
    show = size <= LABEL_LIMIT if numbers is None else numbers
    label_px = max(10.0, min(14.0, s * 0.32))
    left = (label_px * (len(str(rows)) * 0.7 + 0.8)) if labels else 6.0
    top = 6.0 + (22.0 if dim >= 3 else 0.0)
    w_units, h_units = units(gap)
    bottom = (label_px * 1.6) if labels else 6.0
    legend_y = top + h_units * s + bottom + 4
    height = legend_y + (30.0 if legend else 0.0)
    width = max(left + w_units * s + 6.0, 330.0 if legend else 0.0)
    return _Layout(
        board=board,
        rows=rows,
        cols=cols,
        panel_cols=panel_cols,
        panel_rows=panel_rows,
        gap=gap,
        s=float(s),
        left=float(left),
        top=top,
        width=float(width),
        height=float(height if legend else legend_y - 4),
        labels=labels,
        numbers=bool(show),
        vector=size <= CELL_LIMIT,
        legend_y=legend_y,
    )


# ----------------------------------------------------------------- elements


def _root(lay: _Layout, title: str) -> ET.Element:
    w, h = math.ceil(lay.width), math.ceil(lay.height)
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": str(w),
            "height": str(h),
            "viewBox": f"0 0 {w} {h}",
            "font-family": FONT,
        },
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(
        root, "rect", {"class": "background", "width": "100%", "height": "100%"}
    ).set("fill", "#ffffff")
    return root


def _text(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def _chessboard(
    board: Board, cell_size: float | None, title: str, *, numbers: bool | None = None
) -> tuple[_Layout, ET.Element]:
    """The layout and a drawing of the checkered board with its coordinates."""
    lay = _layout(board, cell_size, numbers=numbers)
    root = _root(lay, title)
    _draw_cells(root, lay, _chess_colours(board), "cell")
    _draw_labels(root, lay)
    return lay, root


def _board_drawing(board: Board, cell_size: float | None) -> tuple[_Layout, ET.Element]:
    """The drawing of :func:`board_svg`."""
    return _chessboard(
        board, cell_size, f"board {board.label}: {board.n_open} open cells"
    )


def _tour_title(tour: Tour) -> str:
    kind = "closed" if tour.closed else "open"
    return f"{kind} tour of {tour.board.label} ({tour.piece.label}), {len(tour)} cells"


def _route_title(board: Board, piece: Leaper, array: npt.NDArray[np.int64]) -> str:
    return f"route of {len(array) - 1} moves on {board.label} ({piece.label})"


def _path_group(root: ET.Element, lay: _Layout) -> ET.Element:
    """A group drawing in cell units, for paths with a non-scaling stroke."""
    return ET.SubElement(
        root,
        "g",
        {
            "transform": f"translate({_n(lay.left)} {_n(lay.top)}) scale({_n(lay.s)})",
            "fill": "none",
            "stroke": PATH,
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
            "stroke-opacity": "0.85",
        },
    )


def _chess_colours(board: Board) -> npt.NDArray[np.uint8]:
    parity = np.indices(board.shape).sum(axis=0) % 2
    colours = np.where(parity[..., None] == 0, DARK, LIGHT).astype(np.uint8)
    colours[~board.open_mask] = BLOCKED
    return colours


def _draw_cells(
    root: ET.Element, lay: _Layout, colours: npt.NDArray[np.uint8], kind: str
) -> None:
    """One rect per cell (class ``kind`` or ``blocked``), or one image if large."""
    board = lay.board
    if lay.vector:
        group = ET.SubElement(
            root, "g", {"class": "cells", "shape-rendering": "crispEdges"}
        )
        mask = board.open_mask
        cells = np.array(list(np.ndindex(*board.shape)), dtype=np.int64).reshape(
            -1, board.dim
        )
        corners = lay.unit_xy(cells) * lay.s + np.array([lay.left, lay.top])
        size = _n(lay.s)
        for cell, (x, y) in zip(cells.tolist(), corners.tolist(), strict=True):
            key = tuple(cell)
            ET.SubElement(
                group,
                "rect",
                {
                    "class": kind if mask[key] else "blocked",
                    "x": _n(x),
                    "y": _n(y),
                    "width": size,
                    "height": size,
                    "fill": _hex(_rgb(colours[key])),
                },
            )
        return
    w_units, h_units = lay.units
    image = np.zeros((h_units, w_units, 4), dtype=np.uint8)
    cells = np.argwhere(np.ones(board.shape, dtype=bool))
    xy = lay.unit_xy(cells)
    image[xy[:, 1], xy[:, 0], :3] = colours.reshape(-1, 3)
    image[xy[:, 1], xy[:, 0], 3] = 255
    ET.SubElement(
        root,
        "image",
        {
            "class": "cells",
            "x": _n(lay.left),
            "y": _n(lay.top),
            "width": _n(w_units * lay.s),
            "height": _n(h_units * lay.s),
            "preserveAspectRatio": "none",
            "style": "image-rendering:pixelated",
            "href": "data:image/png;base64,"
            + base64.b64encode(_png(image)).decode("ascii"),
        },
    )


def _draw_labels(root: ET.Element, lay: _Layout) -> None:
    """File letters and rank numbers (2D), or a heading over each layer (3D+)."""
    font = max(10.0, min(14.0, lay.s * 0.32))
    if lay.board.dim >= 3:
        heading = max(9.0, min(14.0, lay.s * 0.5, (lay.gap * lay.s) * 0.7))
        group = ET.SubElement(
            root, "g", {"class": "layers", "font-size": _n(heading), "fill": "#333333"}
        )
        for lead, x, y in lay.panels():
            label = ET.SubElement(group, "text", {"x": _n(x), "y": _n(y - 5)})
            label.text = "layer " + ",".join(str(i) for i in lead)
        return
    if not lay.labels:
        return
    group = ET.SubElement(
        root,
        "g",
        {
            "class": "coordinates",
            "font-size": _n(font),
            "fill": "#444444",
            "text-anchor": "middle",
        },
    )
    bottom = lay.top + lay.rows * lay.s
    for c in range(lay.cols):
        text = ET.SubElement(
            group,
            "text",
            {"x": _n(lay.left + (c + 0.5) * lay.s), "y": _n(bottom + font * 1.15)},
        )
        text.text = FILES[c]
    for r in range(lay.rows):
        text = ET.SubElement(
            group,
            "text",
            {
                "x": _n(lay.left / 2),
                "y": _n(lay.top + (lay.rows - 1 - r + 0.5) * lay.s),
                "dy": "0.35em",
            },
        )
        text.text = str(r + 1)


def _draw_numbers(
    root: ET.Element,
    lay: _Layout,
    cells: npt.NDArray[np.int64],
    texts: Sequence[str],
    fills: Sequence[str],
    *,
    halo: bool,
) -> list[ET.Element]:
    """One ``<text class="num">`` per cell, centred, sized to its longest text."""
    longest = max((len(t) for t in texts), default=1)
    font = lay.s * {1: 0.46, 2: 0.42, 3: 0.34, 4: 0.27}.get(longest, 1.1 / longest)
    attrs = {
        "class": "numbers",
        "font-size": _n(font),
        "text-anchor": "middle",
    }
    if halo:
        attrs.update(
            {
                "stroke": "#ffffff",
                "stroke-width": _n(max(1.0, font * 0.22)),
                "stroke-linejoin": "round",
                "paint-order": "stroke",
            }
        )
    group = ET.SubElement(root, "g", attrs)
    out = []
    for (x, y), text, fill in zip(lay.px(cells).tolist(), texts, fills, strict=True):
        element = ET.SubElement(
            group,
            "text",
            {"class": "num", "x": _n(x), "y": _n(y), "dy": "0.35em", "fill": fill},
        )
        element.text = text
        out.append(element)
    return out


def _ring(root: ET.Element, lay: _Layout, cell: Cell, colour: str, kind: str) -> None:
    (x, y), *_ = lay.px(np.array([cell])).tolist()
    ET.SubElement(
        root,
        "circle",
        {
            "class": kind,
            "cx": _n(x),
            "cy": _n(y),
            "r": _n(max(3.0, lay.s * 0.4)),
            "fill": "none",
            "stroke": colour,
            "stroke-width": _n(max(1.5, min(3.5, lay.s * 0.08))),
        },
    )


def _mark_ends(root: ET.Element, lay: _Layout, array: npt.NDArray[np.int64]) -> None:
    """A green ring on the first cell, a red one on the last."""
    _ring(root, lay, tuple(int(x) for x in array[0]), START, "start")
    _ring(root, lay, tuple(int(x) for x in array[-1]), END, "end")


def _draw_food(root: ET.Element, lay: _Layout, food: Sequence[Sequence[int]]) -> None:
    for cell in food:
        _outline(root, lay, tuple(int(x) for x in cell), FOOD, "food")


def _outline(
    root: ET.Element, lay: _Layout, cell: Cell, colour: str, kind: str
) -> None:
    (x, y), *_ = lay.px(np.array([cell])).tolist()
    width = max(1.5, min(4.0, lay.s * 0.09))
    half = lay.s / 2 - width / 2
    ET.SubElement(
        root,
        "rect",
        {
            "class": kind,
            "x": _n(x - half),
            "y": _n(y - half),
            "width": _n(2 * half),
            "height": _n(2 * half),
            "fill": "none",
            "stroke": colour,
            "stroke-width": _n(width),
        },
    )


def _legend(
    root: ET.Element, lay: _Layout, heading: str, items: Sequence[tuple[RGB, str]]
) -> None:
    """Swatches in a row under the board; short labels sit inside their swatch."""
    group = ET.SubElement(root, "g", {"class": "legend", "font-size": "11"})
    y = lay.legend_y
    head = ET.SubElement(group, "text", {"x": "6", "y": _n(y + 10), "dy": "0.35em"})
    head.text = heading
    x = 6.0 + 7.0 * len(heading) + 6
    for colour, label in items:
        inside = len(label) <= 3
        width = 22.0 if inside else 16.0
        ET.SubElement(
            group,
            "rect",
            {
                "x": _n(x),
                "y": _n(y + 1),
                "width": _n(width),
                "height": "18",
                "fill": _hex(colour),
                "stroke": "#999999",
                "stroke-width": "0.5",
            },
        )
        if inside:
            text = ET.SubElement(
                group,
                "text",
                {
                    "x": _n(x + width / 2),
                    "y": _n(y + 10),
                    "dy": "0.35em",
                    "text-anchor": "middle",
                    "fill": _text_colour(colour),
                },
            )
            text.text = label
            x += width + 2
        else:
            text = ET.SubElement(
                group, "text", {"x": _n(x + width + 4), "y": _n(y + 10), "dy": "0.35em"}
            )
            text.text = label
            x += width + 10 + 6.5 * len(label)


def _stroke(lay: _Layout) -> float:
    return max(0.2, min(3.0, lay.s * 0.07))


# -------------------------------------------------------------------- paths


def _move_vectors(
    board: Board, piece_vector: Sequence[int], delta: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The move each step made: the raw difference, unwrapped on wrapping axes.

    A step on a torus from the last file to the first is the move ``+1`` (or
    ``+2``), not ``-7``: among the differences equal modulo each wrapping axis,
    pick the first (the raw one first) whose sorted absolute values are the
    piece's vector.
    """
    if not any(board.wrap) or len(delta) == 0:
        return delta
    want = np.array(
        sorted([0] * (board.dim - len(piece_vector)) + [abs(v) for v in piece_vector]),
        dtype=np.int64,
    )
    axes = [i for i, w in enumerate(board.wrap) if w]
    out = delta.copy()
    done = np.zeros(len(delta), dtype=bool)
    for shifts in itertools.product((0, -1, 1), repeat=len(axes)):
        trial = delta.copy()
        for axis, k in zip(axes, shifts, strict=True):
            trial[:, axis] += k * board.shape[axis]
        ok = ~done & np.all(np.sort(np.abs(trial), axis=1) == want, axis=1)
        out[ok] = trial[ok]
        done |= ok
    return out


def _draw_walk(
    root: ET.Element,
    lay: _Layout,
    kind: str,
    array: npt.NDArray[np.int64],
    piece: Leaper,
    *,
    closed: bool,
) -> None:
    """The walk's paths: the moves (class ``kind``), between layers, closing."""
    width = _stroke(lay)
    main, between, closing = _tour_paths(lay, array, piece.vector, closed=closed)
    group = _path_group(root, lay)
    ET.SubElement(
        group,
        "path",
        {
            "class": kind,
            "d": main,
            "stroke-width": _n(width),
            "vector-effect": "non-scaling-stroke",
        },
    )
    if between is not None:
        ET.SubElement(
            group,
            "path",
            {
                "class": "between",
                "d": between,
                "stroke-width": _n(width * 0.6),
                "stroke-opacity": "0.35",
                "vector-effect": "non-scaling-stroke",
            },
        )
    if closing is not None:
        ET.SubElement(
            group,
            "path",
            {
                "class": "closing",
                "d": closing,
                "stroke-width": _n(width),
                "stroke-dasharray": f"{_n(width * 2)} {_n(width * 1.5)}",
                "vector-effect": "non-scaling-stroke",
            },
        )


def _tour_paths(
    lay: _Layout,
    array: npt.NDArray[np.int64],
    vector: Sequence[int],
    *,
    closed: bool,
) -> tuple[str, str | None, str | None]:
    """A walk's paths in cell units: its moves, those between layers, the closing.

    Serves tours and routes alike. On 2D tori and cylinders a move that wraps
    is two stubs; on 3D (and higher) boards the moves from one layer to
    another go in the second path (``None`` if none); the third is the move
    back to the start if ``closed`` (else ``None``).
    """
    units = lay.unit_xy(array)
    head = _move_to(units[0])
    board = lay.board
    moves = _move_vectors(board, vector, array[1:] - array[:-1])
    steps = units[1:] - units[:-1]
    between = None
    if board.dim >= 3 and len(array) > 1:
        # Layers side by side: a move to another layer is drawn in a second,
        # fainter path, so the moves within each layer stay readable.
        across = np.any(array[1:, :-2] != array[:-1, :-2], axis=1).tolist()
        parts: list[str] = []
        hops: list[str] = []
        for i, (dx, dy) in enumerate(steps.tolist()):
            if across[i]:
                (ax, ay), (bx, by) = units[i].tolist(), units[i + 1].tolist()
                hops.append(f"M{ax + 0.5} {ay + 0.5}l{dx} {dy}")
                parts.append(f"M{bx + 0.5} {by + 0.5}")
            else:
                parts.append(f"l{dx} {dy}")
        body = "".join(parts)
        between = "".join(hops) or None
    else:
        body = _segments(lay, units, moves, steps, array[1:] - array[:-1])
    main = head + body
    if not closed:
        return main, between, None
    raw = array[:1] - array[-1:]
    back = _segments(
        lay,
        np.concatenate([units[-1:], units[:1]]),
        _move_vectors(board, vector, raw),
        units[:1] - units[-1:],
        raw,
    )
    return main, between, _move_to(units[-1]) + back


def _move_to(unit: npt.NDArray[np.int64]) -> str:
    """``M x y`` to the centre of the cell whose top-left corner is ``unit``."""
    x, y = unit.astype(np.float64) + 0.5
    return f"M{_n(x)} {_n(y)}"


def _segments(
    lay: _Layout,
    units: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    steps: npt.NDArray[np.int64],
    raw: npt.NDArray[np.int64],
) -> str:
    """Relative path commands: ``l dx dy`` per move; a wrapped move as two stubs."""
    if len(steps) == 0:
        return ""
    wrapped = np.any(moves != raw, axis=1)
    if not wrapped.any() or lay.board.dim != 2:
        return "l" + " ".join(f"{dx} {dy}" for dx, dy in steps.tolist())
    parts: list[str] = []
    pending: list[str] = []
    for i, (dx, dy) in enumerate(steps.tolist()):
        if not wrapped[i]:
            pending.append(f"{dx} {dy}")
            continue
        if pending:
            parts.append("l" + " ".join(pending))
            pending = []
        # The move in drawing units: +x is a file to the right, +y a rank down.
        vx, vy = int(moves[i, 1]), -int(moves[i, 0])
        ax, ay = units[i].tolist()
        bx, by = units[i + 1].tolist()
        t_out = _exit(ax + 0.5, ay + 0.5, vx, vy, lay.cols, lay.rows)
        t_in = _exit(bx + 0.5, by + 0.5, -vx, -vy, lay.cols, lay.rows)
        parts.append(f"l{_n(vx * t_out, 3)} {_n(vy * t_out, 3)}")
        parts.append(
            f"M{_n(bx + 0.5 - vx * t_in, 3)} {_n(by + 0.5 - vy * t_in, 3)}"
            f"l{_n(vx * t_in, 3)} {_n(vy * t_in, 3)}"
        )
    if pending:
        parts.append("l" + " ".join(pending))
    return "".join(parts)


def _exit(x: float, y: float, vx: int, vy: int, width: int, height: int) -> float:
    """How far along (x, y) + t (vx, vy) the segment leaves the board's box."""
    ts = [1.0]
    if vx > 0:
        ts.append((width - x) / vx)
    elif vx < 0:
        ts.append(-x / vx)
    if vy > 0:
        ts.append((height - y) / vy)
    elif vy < 0:
        ts.append(-y / vy)
    return max(0.0, min(ts))


# ---------------------------------------------------------------- animation


def _check_speed(speed: float) -> float:
    if not (isinstance(speed, int | float) and math.isfinite(speed) and speed > 0):
        raise InvalidInputError(f"expected a speed above 0 moves per second: {speed!r}")
    return float(speed)


_Walk = tuple[ET.Element, list[list[ET.Element]], ET.Element, list[tuple[float, float]]]


def _tour_walk(tour: Tour, cell_size: float | None) -> _Walk:
    """:func:`_walk_drawing` of a tour, refused if too long to animate."""
    check_animation(len(tour))
    return _walk_drawing(
        tour.board,
        tour.piece,
        np.asarray(tour.array, dtype=np.int64),
        closed=tour.closed,
        title=_tour_title(tour),
        cell_size=cell_size,
        numbered=True,
    )


def _walk_drawing(
    board: Board,
    piece: Leaper,
    array: npt.NDArray[np.int64],
    *,
    closed: bool,
    title: str,
    cell_size: float | None,
    numbered: bool,
    food: Sequence[Sequence[int]] = (),
) -> _Walk:
    """The board, the elements of each move, the knight, its positions.

    A walk (a tour, or a route that may revisit cells) of the cells ``array``,
    with the move back to the start if ``closed``. ``numbered``: each cell
    shows its visit number (the first from the start, the others as the
    knight lands) and the knight is a badge; otherwise a plain disc. ``food``
    cells are outlined.
    """
    lay, root = _chessboard(board, cell_size, title, numbers=True)
    _draw_food(root, lay, food)
    order = np.concatenate([array, array[:1]]) if closed else array
    centres = [(float(x), float(y)) for x, y in lay.px(order).tolist()]
    n = len(array)
    _ring(root, lay, tuple(int(x) for x in array[0]), START, "start")
    # The lines are in cell units (so a move that wraps on a 2D torus is drawn
    # as two stubs, as in tour_svg); the stroke width is scaled back to pixels.
    lines = ET.SubElement(
        root,
        "g",
        {
            "class": "walk",
            "transform": f"translate({_n(lay.left)} {_n(lay.top)}) scale({_n(lay.s)})",
            "fill": "none",
            "stroke": PATH,
            "stroke-width": _n(_stroke(lay) / lay.s, 4),
            "stroke-linecap": "round",
            "stroke-opacity": "0.85",
        },
    )
    units = lay.unit_xy(order)
    raw = order[1:] - order[:-1]
    moves = _move_vectors(board, piece.vector, raw)
    steps_units = units[1:] - units[:-1]
    numbers = None
    if numbered:
        longest = len(str(n))
        font = lay.s * {1: 0.46, 2: 0.42, 3: 0.34, 4: 0.27}.get(longest, 1.1 / longest)
        numbers = ET.SubElement(
            root,
            "g",
            {
                "class": "numbers",
                "font-size": _n(font),
                "text-anchor": "middle",
                "fill": "#111111",
                "stroke": "#ffffff",
                "stroke-width": _n(max(1.0, font * 0.22)),
                "stroke-linejoin": "round",
                "paint-order": "stroke",
            },
        )
        first = ET.SubElement(
            numbers,
            "text",
            {
                "class": "num",
                "x": _n(centres[0][0]),
                "y": _n(centres[0][1]),
                "dy": "0.35em",
            },
        )
        first.text = "1"
    steps: list[list[ET.Element]] = []
    for i in range(1, len(order)):
        bx, by = centres[i]
        step = ET.SubElement(lines, "g", {"class": "step", "data-step": str(i)})
        ux, uy = units[i - 1].tolist()
        line = _segments(
            lay,
            units[i - 1 : i + 1],
            moves[i - 1 : i],
            steps_units[i - 1 : i],
            raw[i - 1 : i],
        )
        ET.SubElement(step, "path", {"d": f"M{ux + 0.5} {uy + 0.5}{line}"})
        shown = [step]
        if numbers is not None and i < n:
            # The number lands with the move, in a group above every line.
            text = ET.SubElement(
                numbers,
                "text",
                {
                    "class": "num",
                    "data-step": str(i),
                    "x": _n(bx),
                    "y": _n(by),
                    "dy": "0.35em",
                },
            )
            text.text = str(i + 1)
            shown.append(text)
        steps.append(shown)
    return root, steps, _knight(root, lay, centres[0], badge=numbered), centres


def _knight(
    root: ET.Element, lay: _Layout, centre: tuple[float, float], *, badge: bool
) -> ET.Element:
    """The knight: a dark disc on ``centre``; a badge has a white rim and a ♞."""
    knight = ET.SubElement(
        root,
        "g",
        {"class": "knight", "transform": f"translate({_n(centre[0])} {_n(centre[1])})"},
    )
    radius = max(4.0, lay.s * 0.36)
    disc = {"r": _n(radius), "fill": "#111111", "fill-opacity": "0.85"}
    if badge:
        disc.update({"stroke": "#ffffff", "stroke-width": _n(max(1.0, radius * 0.1))})
    ET.SubElement(knight, "circle", disc)
    if badge and radius >= 8:
        glyph = ET.SubElement(
            knight,
            "text",
            {
                "font-size": _n(radius * 1.35),
                "text-anchor": "middle",
                "dy": "0.35em",
                "fill": "#ffffff",
            },
        )
        glyph.text = "♞"
    return knight


def _animate(
    steps: Sequence[Sequence[ET.Element]],
    knight: ET.Element,
    centres: Sequence[tuple[float, float]],
    speed: float,
) -> None:
    """SMIL: step ``i``'s elements appear after ``i`` moves, the knight glides.

    One loop lasts the moves plus two (the picture holds at the end), then
    starts again.
    """
    dt = 1.0 / speed
    n_moves = len(steps)
    total = (n_moves + 2) * dt
    dur = f"{_n(total, 3)}s"
    for i, shown in enumerate(steps, start=1):
        for element in shown:
            ET.SubElement(
                element,
                "animate",
                {
                    "attributeName": "opacity",
                    "values": "0;1",
                    "keyTimes": f"0;{_n(i * dt / total, 6)}",
                    "calcMode": "discrete",
                    "dur": dur,
                    "repeatCount": "indefinite",
                },
            )
            element.set("opacity", "0")
    values = [*centres, centres[-1]]
    times = [i * dt / total for i in range(n_moves + 1)] + [1.0]
    ET.SubElement(
        knight,
        "animateTransform",
        {
            "attributeName": "transform",
            "type": "translate",
            "values": ";".join(f"{_n(x)} {_n(y)}" for x, y in values),
            "keyTimes": ";".join(_n(t, 6) for t in times),
            "dur": dur,
            "repeatCount": "indefinite",
        },
    )


_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; color: #222; }}
h1 {{ font-size: 1.1em; font-weight: normal; }}
.controls {{ margin: 0.5em 0; display: flex; gap: 0.4em; align-items: center;
  flex-wrap: wrap; }}
button {{ font-size: 1em; min-width: 4.5em; }}
#counter {{ margin-left: 0.8em; font-variant-numeric: tabular-nums; }}
#knight {{ transition: transform 0.15s linear; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="controls">
<button id="play" type="button">Play</button>
<button id="back" type="button">&#9664; Step</button>
<button id="step" type="button">Step &#9654;</button>
<button id="reset" type="button">Reset</button>
<label>speed <input id="speed" type="range" min="0.5" max="{top}" step="0.5"
 value="{speed}"></label> <span id="rate"></span>
<span id="counter"></span>
</div>
{svg}
<script>
"use strict";
(function () {{
  const pos = {positions};
  const moves = {moves};
  const steps = [];
  document.querySelectorAll("[data-step]").forEach(function (e) {{
    const i = Number(e.getAttribute("data-step")) - 1;
    (steps[i] = steps[i] || []).push(e);
  }});
  const knight = document.getElementById("knight");
  const counter = document.getElementById("counter");
  const speed = document.getElementById("speed");
  const rate = document.getElementById("rate");
  const play = document.getElementById("play");
  let at = 0;
  let timer = null;
  function show(k) {{
    k = Math.max(0, Math.min(moves, k));
    const lo = Math.min(at, k), hi = Math.max(at, k);
    for (let i = lo; i < hi; i++) {{
      for (const e of steps[i]) {{
        e.setAttribute("visibility", i < k ? "visible" : "hidden");
      }}
    }}
    at = k;
    knight.setAttribute("transform",
      "translate(" + pos[k][0] + " " + pos[k][1] + ")");
    counter.textContent = "move " + at + " of " + moves;
  }}
  function stop() {{
    if (timer !== null) {{ clearTimeout(timer); timer = null; }}
    play.textContent = "Play";
  }}
  function tick() {{
    if (at >= moves) {{ stop(); return; }}
    show(at + 1);
    timer = setTimeout(tick, 1000 / Number(speed.value));
  }}
  function toggle() {{
    if (timer !== null) {{ stop(); return; }}
    if (at >= moves) show(0);
    play.textContent = "Pause";
    tick();
  }}
  function showRate() {{ rate.textContent = speed.value + " moves/s"; }}
  play.addEventListener("click", toggle);
  document.getElementById("step").addEventListener("click",
    function () {{ stop(); show(at + 1); }});
  document.getElementById("back").addEventListener("click",
    function () {{ stop(); show(at - 1); }});
  document.getElementById("reset").addEventListener("click",
    function () {{ stop(); show(0); }});
  speed.addEventListener("input", showRate);
  document.addEventListener("keydown", function (e) {{
    if (e.key === " ") {{ e.preventDefault(); toggle(); }}
    else if (e.key === "ArrowRight") {{ stop(); show(at + 1); }}
    else if (e.key === "ArrowLeft") {{ stop(); show(at - 1); }}
    else if (e.key === "Home") {{ stop(); show(0); }}
  }});
  showRate();
  show(0);
}})();
</script>
</body>
</html>
"""


# ------------------------------------------------------------------ colours


def _luminance(rgb: Sequence[int]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(v)) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _text_colour(rgb: Sequence[int]) -> str:
    """Black or white, whichever contrasts more with ``rgb``."""
    black = contrast_ratio(rgb, (0, 0, 0))
    white = contrast_ratio(rgb, (255, 255, 255))
    return "#000000" if black >= white else "#ffffff"


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    t = min(1.0, max(0.0, t))
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _heat_palette(top: int) -> npt.NDArray[np.uint8]:
    """``top + 1`` colours from light (0 moves) to dark (``top`` moves)."""
    out = np.empty((top + 1, 3), dtype=np.uint8)
    stops = len(HEAT) - 1
    for v in range(top + 1):
        where = stops * v / top if top else 0.0
        i = min(int(where), stops - 1)
        out[v] = _mix(HEAT[i], HEAT[i + 1], where - i)
    return out


def _rgb(values: npt.NDArray[np.uint8]) -> RGB:
    r, g, b = (int(v) for v in values)
    return (r, g, b)


def _hex(rgb: Sequence[int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(int(v) for v in rgb))


# ------------------------------------------------------------------- helpers


def _n(x: float, places: int = 2) -> str:
    """A number for an attribute: few digits, no trailing zeros."""
    text = f"{x:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _short(n: int) -> str:
    """``999``, ``1.5k``, ``12k``, ``3.4M``: an effort that fits a cell."""
    for limit, suffix in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= limit:
            value = n / limit
            return f"{value:.1f}{suffix}" if value < 10 else f"{round(value)}{suffix}"
    return str(n)


def _seconds(s: float) -> str:
    if s < 0.001:
        return "<1ms"
    return f"{s * 1000:.0f}ms" if s < 1 else f"{s:.1f}s" if s < 100 else f"{s:.0f}s"


def _effort_amount(effort: Effort) -> int | None:
    counted = effort.as_dict()
    for key in ("attempts", "branches", "conflicts"):
        if key in counted:
            return int(counted[key])
    return None


def _png(rgba: npt.NDArray[np.uint8]) -> bytes:
    """Encode an ``(h, w, 4)`` RGBA array as PNG (zlib, no filter)."""
    height, width = rgba.shape[:2]
    raw = np.zeros((height, width * 4 + 1), dtype=np.uint8)
    raw[:, 1:] = rgba.reshape(height, width * 4)

    def chunk(tag: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(tag + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + chunk(b"IEND", b"")
    )
