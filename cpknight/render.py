"""Text output: board diagrams, distance maps, tours and tables.

Grids show the top rank first, like a chessboard diagram, with rank numbers on
the left and file letters underneath on 2D boards of up to 26 files. 3D (and
higher) boards print as their 2D layers one after another, each headed by its
leading coordinates. Pictures (SVG) live in :mod:`cpknight.draw`.

Examples:
    >>> from cpknight.board import Board
    >>> print(grid_text(Board.parse("3x3"), lambda cell: str(sum(cell))))
    3 | 2 3 4
    2 | 1 2 3
    1 | 0 1 2
        a b c
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import FILES, Board, Cell

if TYPE_CHECKING:
    from cpknight.results import DistanceMap, Route, Sweep, Tour

__all__ = [
    "GRID_LIMIT",
    "board_text",
    "distance_map_text",
    "grid_text",
    "route_text",
    "sweep_text",
    "table_text",
    "tour_text",
]

GRID_LIMIT = 10_000
"""Boards with more cells than this print a summary unless a grid is asked for."""

BLOCKED = "#"
UNREACHABLE = "-"
SOURCE = "*"


def grid_text(
    board: Board,
    label: Callable[[Cell], str],
    *,
    coordinates: bool = True,
) -> str:
    """Draw a board with one label per cell, columns aligned, top rank first.

    Args:
        board: the board.
        label: the text of each cell (called for every cell, blocked ones too).
        coordinates: add rank numbers and file letters on 2D boards of up to
            26 files.

    Returns:
        The drawing, lines joined by newlines, no trailing newline.
    """
    board.require_finite("drawing")
    shape = board.shape
    rows, cols = (shape[-2], shape[-1]) if board.dim >= 2 else (1, shape[0])
    lead_shapes = shape[:-2] if board.dim >= 2 else ()
    blocks: list[str] = []
    for lead in itertools.product(*(range(s) for s in lead_shapes)):

        def cell_at(r: int, c: int, lead: tuple[int, ...] = lead) -> Cell:
            return (*lead, r, c) if board.dim >= 2 else (c,)

        texts = [[label(cell_at(r, c)) for c in range(cols)] for r in range(rows)]
        width = max((len(t) for row in texts for t in row), default=1)
        labelled = coordinates and board.dim == 2 and cols <= len(FILES)
        rank_width = len(str(rows))
        lines = []
        for r in reversed(range(rows)):
            line = " ".join(t.rjust(width) for t in texts[r])
            if labelled:
                line = f"{str(r + 1).rjust(rank_width)} | {line}"
            lines.append(line.rstrip())
        if labelled:
            files = " ".join(FILES[c].rjust(width) for c in range(cols))
            lines.append(f"{' ' * rank_width}   {files}".rstrip())
        if lead:
            head = ",".join(str(x) for x in lead)
            lines.insert(0, f"layer {head}:")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def board_text(board: Board) -> str:
    """The board as ``.`` (open) and ``#`` (blocked), readable by ``Board.from_ascii``.

    Examples:
        >>> from cpknight.board import Board
        >>> print(board_text(Board.parse("2x2x2")))
        . .
        . .
        <BLANKLINE>
        . .
        . .
    """
    mask = board.open_mask

    def label(cell: Cell) -> str:
        return "." if mask[cell] else BLOCKED

    text = grid_text(board, label, coordinates=False)
    # Layer headers would not read back; keep layers separated by blank lines.
    return "\n".join(line for line in text.splitlines() if not line.startswith("layer"))


def distance_map_text(dmap: DistanceMap) -> str:
    """The distance map: the moves to each cell, the source and blocks marked.

    ``*`` is the source, ``#`` a blocked cell, ``-`` an unreachable one.

    Examples:
        >>> from cpknight import distance_map
        >>> print(distance_map("3x3", "a1"))
        3 | 2 1 4
        2 | 3 - 1
        1 | * 3 2
            a b c
    """
    mask = dmap.board.open_mask
    array = dmap.array

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return BLOCKED
        if cell == dmap.source:
            return SOURCE
        value = int(array[cell])
        return UNREACHABLE if value < 0 else str(value)

    return grid_text(dmap.board, label)


def tour_text(tour: Tour) -> str:
    """The board with the visit number (from 1) in each cell, ``#`` blocked.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.checks import make_tour
        >>> b = Board.parse("1x1")
        >>> print(make_tour(b, KNIGHT, [(0, 0)], closed=False, method="hand"))
        1 | 1
            a
    """
    order = tour.order()
    mask = tour.board.open_mask

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return BLOCKED
        value = int(order[cell])
        return str(value) if value else "."

    return grid_text(tour.board, label)


SWEEP_MARKS = {"found": "o", "infeasible": "x", "unknown": "?"}
"""The mark of each sweep status: a tour starts here, proved none, not known."""


def sweep_text(sweep: Sweep) -> str:
    """A sweep as a grid of marks, then a legend with the count of each.

    ``o``: a tour starts on this cell; ``x``: proved that none does; ``?``:
    the limit was reached; ``#``: blocked.

    Examples:
        >>> from cpknight import sweep
        >>> print(sweep_text(sweep("3x4", method="prune")))
        3 | o x x o
        2 | o x x o
        1 | o x x o
            a b c d
        o a tour starts here: 6, x proved none: 6, ? unknown: 0 (open tours, prune)
    """
    marks = {item.cell: SWEEP_MARKS.get(item.status, "?") for item in sweep.cells}

    def label(cell: Cell) -> str:
        return marks.get(cell, BLOCKED)

    counts = sweep.counts()
    kind = "closed" if sweep.closed else "open"
    legend = (
        f"o a tour starts here: {counts['found']}, x proved none: "
        f"{counts['infeasible']}, ? unknown: {counts['unknown']} "
        f"({kind} tours, {sweep.method})"
    )
    return grid_text(sweep.board, label) + "\n" + legend


def route_text(route: Route) -> str:
    """The board with the move at which the route first reaches each cell.

    ``0`` is the start; a food cell's number is followed by ``*``; ``.`` a cell
    the route does not use, ``#`` a blocked cell.

    Examples:
        >>> from cpknight import collect
        >>> print(collect("3x3", "a1", ["c1"], method="search"))
        3 |  .  1  .
        2 |  .  .  .
        1 |  0  . 2*
             a  b  c
    """
    first: dict[Cell, int] = {}
    for step, cell in enumerate(route.cells):
        first.setdefault(cell, step)
    food = set(route.food)
    mask = route.board.open_mask

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return BLOCKED
        if cell not in first:
            return "."
        return f"{first[cell]}{'*' if cell in food else ''}"

    return grid_text(route.board, label)


def table_text(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain aligned table: numbers right-aligned, text left-aligned.

    Examples:
        >>> print(table_text(["method", "moves"], [["bfs", 4], ["ip", 4]]))
        method  moves
        ------  -----
        bfs         4
        ip          4
    """
    cells = [[_fmt(v) for v in row] for row in rows]
    widths = [
        max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)
    ]
    # A column of numbers stays right-aligned when some cells are None ("-").
    numeric = [
        any(_is_number(row[i]) for row in rows)
        and all(_is_number(row[i]) or row[i] is None for row in rows)
        for i in range(len(headers))
    ]

    def line(values: Sequence[str], header: bool = False) -> str:
        parts = []
        for i, value in enumerate(values):
            right = numeric[i] and not header
            parts.append(value.rjust(widths[i]) if right else value.ljust(widths[i]))
        return "  ".join(parts).rstrip()

    out = [line(headers, header=True), line(["-" * w for w in widths], header=True)]
    out += [line(row) for row in cells]
    return "\n".join(out)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool
    )


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if value is None:
        return "-"
    return str(value)
