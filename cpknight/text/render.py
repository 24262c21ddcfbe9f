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
from typing import TYPE_CHECKING, Any

import numpy as np

from cpknight.board import FILES, Board, Cell

if TYPE_CHECKING:
    from cpknight.covering.common import Cover
    from cpknight.longest.common import LongestPath
    from cpknight.results import (
        Comparison,
        DistanceMap,
        FrontierStats,
        Outcome,
        Route,
        Sweep,
        Tour,
    )

__all__ = [
    "GRID_LIMIT",
    "board_text",
    "comparison_text",
    "counts_text",
    "distance_map_text",
    "distance_table_text",
    "effort_text",
    "frontier_text",
    "grid_text",
    "longest_line",
    "longest_table_text",
    "longest_text",
    "moves_table_text",
    "open_cells_text",
    "outcome_line",
    "prefixes_text",
    "route_line",
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
    """The board as ``.`` (open) and ``#`` (blocked): :meth:`Board.to_ascii`.

    Examples:
        >>> from cpknight.board import Board
        >>> print(board_text(Board.parse("2x2x2")))
        . .
        . .
        <BLANKLINE>
        . .
        . .
    """
    return board.to_ascii()


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
        >>> print(sweep_text(sweep("3x4", closed=False, method="prune")))
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


def longest_text(path: LongestPath) -> str:
    """The board with each cell's place on a longest path (from 1), ``.`` unused.

    Examples:
        >>> from cpknight import longest_path
        >>> print(longest_path("3x3", kind="induced", closed=True, method="search"))
        3 | 7 2 5
        2 | 4 . 8
        1 | 1 6 3
            a b c
    """
    place = {cell: i for i, cell in enumerate(path.cells, 1)}
    mask = path.board.open_mask

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return BLOCKED
        return str(place.get(cell, "."))

    return grid_text(path.board, label)


def longest_line(path: LongestPath) -> str:
    """One line: the puzzle, the length, whether proved longest, by what.

    Examples:
        >>> from cpknight import longest_path
        >>> longest_line(longest_path("4x4", kind="uncrossed", closed=False))[:55]
        'longest uncrossed path on 4x4 (knight (1,2)): 5 moves, '
    """
    shape = "cycle" if path.closed else "path"
    if path.optimal:
        verdict = f"{path.moves} moves, proved optimal"
    else:
        verdict = f"{path.moves} moves, best found (at most {path.bound})"
    return (
        f"longest {path.kind} {shape} on {path.board.label} ({path.piece.label}): "
        f"{verdict}; by {path.method} in {path.seconds:.3f} s"
    )


def longest_table_text(comparison: Comparison, heading: str) -> str:
    """Several engines on one longest-path question: length, bound, time, effort.

    Examples:
        >>> from cpknight.api import compare_longest
        >>> c = compare_longest("4x4", kind="induced", methods="search", closed=False)
        >>> print(longest_table_text(c, "induced path").splitlines()[1])
        method  outcome  moves  bound  seconds  effort
    """
    return moves_table_text(
        comparison,
        heading,
        "optimal: proved longest; feasible: best found at the limit, bound the "
        "most it could be;\neffort: moves tried and undone (search), branches "
        "and conflicts (CP-SAT).",
    )


def moves_table_text(comparison: Comparison, heading: str, legend: str) -> str:
    """Several engines on one question whose answer is a number of moves.

    A row an engine (method, outcome, moves, bound, seconds, effort), then the
    reasons of those that gave no answer, then ``legend``.
    """
    rows = [
        [
            o.method,
            str(o.status),
            None if o.value is None else o.value.moves,
            o.bound,
            round(o.seconds, 6),
            effort_text(o.effort.as_dict()),
        ]
        for o in comparison.rows
    ]
    lines = [
        heading + ":",
        table_text(["method", "outcome", "moves", "bound", "seconds", "effort"], rows),
    ]
    lines += [
        f"{o.method}: {o.reason}"
        for o in comparison.rows
        if str(o.status) in ("refused", "infeasible", "unknown")
    ]
    lines.append(legend)
    return "\n".join(lines)


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


# ------------------------------------------------------------------ comparisons

STATUS_WORDS = {"found": "found", "infeasible": "proved none", "unknown": "unknown"}
"""How a comparison table says each status."""


def frontier_text(stats: FrontierStats) -> str:
    """The frontier program's states, row by row: why it is linear in the long side.

    Examples:
        >>> from cpknight.results import FrontierStats
        >>> print(frontier_text(FrontierStats(5, 4, 4, 7, (1, 7, 3, 1), (0, 1),
        ...                                   rows=(2, 2), widths=(1, 2, 5, 4))))
        frontier: 5 cells wide at most, 4 cells added, peak 7 live states
        row  cells  widest  live states at its end
        ---  -----  ------  ----------------------
          1      2       2                       7
          2      2       5                       1
    """
    lines = [
        f"frontier: {stats.width} cells wide at most, {stats.steps} cells added, "
        f"peak {stats.peak} live states"
    ]
    if stats.kernel:
        lines.append(_kernel_line(stats))
    if stats.cut:
        lines.append(_meet_line(stats))
    if stats.stopped is not None:
        lines.append(f"stopped after {stats.done} cells: {stats.stopped}")
    rows: list[list[object]] = []
    at = 0
    for number, cells in enumerate(stats.rows, start=1):
        if at + cells > min(stats.done, len(stats.live)):
            break  # a row the program did not finish (or a half's cut)
        upto = at + cells
        rows.append([number, cells, max(stats.widths[at:upto]), stats.live[upto - 1]])
        at += cells
    if rows:
        lines.append(
            table_text(["row", "cells", "widest", "live states at its end"], rows)
        )
    return "\n".join(lines)


def _kernel_line(stats: FrontierStats) -> str:
    """The kernel, its exact range, the memory and disk it took.

    Examples:
        >>> from cpknight.results import FrontierStats
        >>> stats = FrontierStats(5, 4, 4, 7, (), kernel="dense", exact_bits=123,
        ...                       peak_mb=210.4, disk_mb=3.2, buckets=4)
        >>> print(_kernel_line(stats))  # doctest: +NORMALIZE_WHITESPACE
        kernel dense (counts exact below 2^123), peak memory 210 MB,
        disk 3.2 MB in 4 buckets
    """
    text = f"kernel {stats.kernel}"
    if stats.exact_bits:
        text += f" (counts exact below 2^{stats.exact_bits})"
    text += f", peak memory {stats.peak_mb:,.0f} MB"
    if stats.disk_mb or stats.buckets:
        text += f", disk {stats.disk_mb:,.1f} MB in {stats.buckets} bucket"
        text += "s" if stats.buckets != 1 else ""
    if stats.resumed:
        text += f", resumed after cell {stats.resumed}"
    return text


def _meet_line(stats: FrontierStats) -> str:
    """Where the two halves of a count met in the middle met, and their sizes.

    Examples:
        >>> from cpknight.results import FrontierStats
        >>> stats = FrontierStats(16, 49, 28, 22, (1, 22, 20), cut=28,
        ...                       second=(1, 53, 29), pairs=1483512995)
        >>> print(_meet_line(stats))  # doctest: +NORMALIZE_WHITESPACE
        met in the middle after cell 28: the second half (3 steps, from the
        last cell back) peaked at 53 live states, ending at 29; 1,483,512,995
        pairs of states joined
        >>> from dataclasses import replace
        >>> print(_meet_line(replace(stats, slices=4)))  # doctest: +ELLIPSIS
        met ... pairs of states joined, the first half's read back in 4 slices
    """
    second = stats.second
    text = (
        f"met in the middle after cell {stats.cut}: the second half "
        f"({len(second)} steps, from the last cell back) peaked at "
        f"{max(second, default=0):,} live states"
    )
    if second:
        text += f", ending at {second[-1]:,}"
    if stats.shared:
        text += f" (its first {stats.shared} steps the first half's, run once)"
    text += f"; {stats.pairs:,} pairs of states joined"
    if stats.slices > 1:
        text += f", the first half's read back in {stats.slices} slices"
    return text


def prefixes_text(board: Board, stats: FrontierStats) -> str:
    """The tours of every prefix of a board, a row each (`cpknight count --prefixes`).

    Examples:
        >>> from cpknight.results import FrontierStats
        >>> stats = FrontierStats(8, 12, 12, 34, (), (0, 1), prefixes=((3, 0), (4, 8)))
        >>> print(prefixes_text(Board((4, 3)), stats))
        board  directed  undirected
        -----  --------  ----------
        3x3           0           0
        4x3          16           8
    """
    shape = list(board.shape)
    rows: list[list[object]] = []
    for k, undirected in stats.prefixes:
        shape[stats.axes[0]] = k
        rows.append(["x".join(str(x) for x in shape), 2 * undirected, undirected])
    return table_text(["board", "directed", "undirected"], rows)


def effort_text(effort: dict[str, int]) -> str:
    """Effort for a table cell: ``24 attempts, 0 backtracks`` (``-`` if none).

    Examples:
        >>> effort_text({"attempts": 1200, "backtracks": 3})
        '1,200 attempts, 3 backtracks'
    """
    return ", ".join(f"{v:,} {k}" for k, v in effort.items()) or "-"


def comparison_text(comparison: Comparison, heading: str) -> str:
    """A tour comparison: one row per engine, the fastest answer, the reasons.

    Examples:
        >>> from cpknight import compare_tours
        >>> c = compare_tours("4x4", methods="prune,cpsat")
        >>> print(comparison_text(c, "closed tour of 4x4").splitlines()[1])
        method  outcome      seconds  effort...
    """
    rows = [
        [
            o.method_label,
            STATUS_WORDS.get(str(o.status), str(o.status)),
            round(o.seconds, 6),
            effort_text(o.effort.as_dict()),
            "yes" if o.value is not None else "-",
        ]
        for o in comparison.rows
    ]
    lines = [
        heading + ":",
        table_text(["method", "outcome", "seconds", "effort", "checked"], rows),
    ]
    best = comparison.fastest
    if best is not None:
        lines.append(f"fastest answer: {best.method_label} ({best.seconds:.3f} s)")
    for o in comparison.rows:
        if str(o.status) in ("infeasible", "refused"):
            lines.append(f"{o.method}: {o.reason}")
            if str(o.status) == "infeasible":
                break
    lines.append(
        "found: a tour that passed the checker; proved none: no such tour "
        "exists;\nunknown: stopped at the limit. Effort: moves tried and "
        "undone (search),\nbranches and conflicts (CP-SAT)."
    )
    return "\n".join(lines)


def counts_text(details: dict[str, Any]) -> str:
    """The move-count method's story: first bound, cuts, counts used.

    Examples:
        >>> counts_text({"bound": 2, "cuts": 1, "counts": {"+1,+2": 2}})
        'first bound 2 (before ordering), 1 no-good cut, counts +1,+2 x2'
    """
    cuts = details.get("cuts", 0)
    text = (
        f"first bound {details.get('bound')} (before ordering), "
        f"{cuts} no-good cut{'s' if cuts != 1 else ''}, "
        f"counts {_counts_cell(details.get('counts')) or 'none'}"
    )
    wraps = {a: w for a, w in details.get("wraps", {}).items() if w}
    if wraps:
        text += ", wraps " + ", ".join(f"{a} {w:+d}" for a, w in wraps.items())
    return text


def _counts_cell(counts: Any) -> str | None:
    """Move counts for a table cell: ``+1,+2 x2; -2,-1``."""
    if not isinstance(counts, dict):
        return None
    return "; ".join(
        f"{move} x{count}" if count != 1 else str(move)
        for move, count in counts.items()
    )


def distance_table_text(comparison: Comparison, heading: str) -> str:
    """Several distance methods on one pair: a row each, the IP's story, a path.

    Examples:
        >>> from cpknight import compare_distances
        >>> c = compare_distances("8x8", "a1", "b2", methods="bfs,formula")
        >>> print(distance_table_text(c, "a1 -> b2").splitlines()[-1])
        path: a1 b3 c5 a4 b2
    """
    rows: list[list[object]] = []
    for o in comparison.rows:
        d = o.value
        details: dict[str, Any] = {} if d is None else d.details
        kind = str(o.status) if d is None else ("exact" if d.exact else "bound")
        rows.append(
            [
                o.method,
                None if d is None else d.distance,
                kind,
                None if d is None else round(o.seconds, 6),
                details.get("bound"),
                details.get("cuts"),
                _counts_cell(details.get("counts")),
            ]
        )
    lines = [
        heading + ":",
        table_text(
            ["method", "moves", "kind", "seconds", "bound", "cuts", "counts"], rows
        ),
    ]
    lines += [
        f"{o.method}: {o.reason}" for o in comparison.rows if str(o.status) == "refused"
    ]
    lines += [
        f"{o.method}: {counts_text(o.value.details)}"
        for o in comparison.rows
        if o.value is not None and "bound" in o.value.details
    ]
    exact = next(
        (
            o.value
            for o in comparison.rows
            if o.value is not None and o.value.exact and o.value.path
        ),
        None,
    )
    if exact is not None:
        lines.append("path: " + " ".join(exact.names()))
    return "\n".join(lines)


def outcome_line(outcome: Outcome) -> str:
    """One line for an outcome without an answer: proved none, or the limit.

    Examples:
        >>> from cpknight import try_tour
        >>> outcome_line(try_tour("4x4", method="prune"))[:26]
        'infeasible: the moves forc'
    """
    return f"{outcome.status}: {outcome.reason}"


def route_line(route: Route) -> str:
    """One line for a route: its length, whether proved shortest, by what.

    Examples:
        >>> from cpknight import collect
        >>> route_line(collect("8x8", "a1", ["c2"], method="search"))[:42]
        'route on 8x8 (knight (1,2)) from a1 throug'
    """
    board = route.board
    kind = "simple route" if route.simple else "route"
    if route.optimal:
        verdict = f"{route.moves} moves, proved optimal"
    else:
        verdict = f"{route.moves} moves, not proved optimal (at least {route.bound})"
    return (
        f"{kind} on {board.label} ({route.piece.label}) from "
        f"{board.cell_name(route.start)} through {len(route.food)} food: "
        f"{verdict}; by {route.method} in {route.seconds:.3f} s"
    )


def open_cells_text(board: Board) -> str:
    """The board with coordinates: ``.`` open, ``#`` blocked."""
    mask = board.open_mask
    return grid_text(board, lambda cell: "." if mask[cell] else BLOCKED)


# ---------------------------------------------------------------- covering

KNIGHT_MARK = "N"
ATTACKED = "+"


def cover_text(cover: Cover) -> str:
    """The board with ``N`` on each knight, ``+`` on each attacked cell, ``.`` else.

    Examples:
        >>> from cpknight import independent
        >>> print(independent("5x5", method="search"))  # the only 13 (A030978)
        5 | N + N + N
        4 | + N + N +
        3 | N + N + N
        2 | + N + N +
        1 | N + N + N
            a b c d e
    """
    from cpknight.pieces import move_graph

    graph = move_graph(cover.board, cover.piece)
    knights = set(cover.cells)
    attacked: set[Cell] = set()
    for cell in cover.cells:
        attacked.update(graph.cell(int(u)) for u in graph.neighbors(graph.node(cell)))
    mask = cover.board.open_mask

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return BLOCKED
        if cell in knights:
            return KNIGHT_MARK
        return ATTACKED if cell in attacked else "."

    return grid_text(cover.board, label)


def cover_line(cover: Cover) -> str:
    """One line: the puzzle, the knights, proved or bounded, the count, by what.

    Examples:
        >>> from cpknight import dominate
        >>> cover_line(dominate("4x4", count=True, method="search"))[:58]
        'dominating knights on 4x4 (knight (1,2)): 4, proved optima'
    """
    if cover.optimal:
        verdict = f"{cover.size}, proved optimal"
    else:
        side = "at most" if cover.kind == "independent-set" else "at least"
        verdict = f"{cover.size}, best found ({side} {cover.bound} proved)"
    extra = ""
    classes = " up to symmetry" if cover.symmetry else ""
    if cover.count is not None:
        many = "" if cover.count == 1 else "s"
        extra += f"; {cover.count:,} optimal placement{many}{classes}"
    elif cover.count_at_least is not None:
        many = "" if cover.count_at_least == 1 else "s"
        extra += f"; at least {cover.count_at_least:,} optimal placement{many}{classes}"
    if cover.lp_bound is not None:
        extra += f"; LP relaxation {cover.lp_bound:.3f}"
    return (
        f"{cover.kind} knights on {cover.board.label} ({cover.piece.label}): "
        f"{verdict}{extra}; by {cover.method_label} in {cover.seconds:.3f} s"
    )


def cover_table_text(comparison: Comparison, heading: str) -> str:
    """Several engines on one covering question: size, bound, count, time, effort."""
    rows = []
    for o in comparison.rows:
        value = o.value
        rows.append(
            [
                o.method,
                str(o.status),
                "" if value is None else value.size,
                "" if o.bound is None else o.bound,
                "" if value is None or value.count is None else value.count,
                f"{o.seconds:.3f}",
                effort_text(o.effort.as_dict()),
            ]
        )
    table = table_text(
        ["method", "status", "size", "bound", "count", "seconds", "effort"], rows
    )
    return f"{heading}\n{table}"
