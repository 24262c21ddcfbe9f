"""The text of each command's answer: what ``cpknight COMMAND`` prints.

Composed from the grids and tables of :mod:`cpknight.text.render`; the command line
prints what these return and computes nothing itself.

Examples:
    >>> limit_text(10.0)
    'a limit of 10 s each'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from cpknight.board import Board, Cell
from cpknight.results import is_a
from cpknight.text.render import (
    BLOCKED,
    GRID_LIMIT,
    SOURCE,
    UNREACHABLE,
    counts_text,
    distance_table_text,
    effort_text,
    frontier_text,
    grid_text,
    open_cells_text,
    prefixes_text,
    sweep_text,
)

if TYPE_CHECKING:
    from cpknight.pieces import Leaper
    from cpknight.results import (
        Comparison,
        DistanceMap,
        Outcome,
        ScoredTour,
        Sweep,
        Tour,
    )
    from cpknight.study import PairSweep, Study

__all__ = [
    "board_json",
    "boards_report",
    "count_report",
    "distance_report",
    "grid_hint",
    "limit_text",
    "map_report",
    "pairs_report",
    "path_report",
    "reach_report",
    "study_report",
    "summary_text",
    "sweep_report",
    "tour_heading",
    "tour_report",
]


def grid_hint(board: Board, hint: str = "") -> str:
    """The line printed instead of a grid too large to print.

    Examples:
        >>> grid_hint(Board.parse("200x200"))
        '(the grid has 40000 cells; add --grid to print it)'
    """
    return f"(the grid has {board.size} cells; add --grid to print it{hint})"


def _with_wrote(lines: Sequence[str], wrote: Sequence[str]) -> str:
    """The lines, then ``wrote FILE`` for each file written."""
    return "\n".join([*lines, *(f"wrote {name}" for name in wrote)])


def path_report(
    heading: str, grid: str | None, path: str, wrote: Sequence[str] = ()
) -> str:
    """A found path's report: heading, grid (or the hint), the path, files written.

    Examples:
        >>> print(path_report("a tour", None, "path: a1 b3", ["t.svg"]))
        a tour
        path: a1 b3
        wrote t.svg
    """
    lines = [heading, *([grid] if grid is not None else []), path]
    return _with_wrote(lines, wrote)


def tour_heading(tour: Tour, *, picked: bool = False, side: str = "") -> str:
    """The first line of a found tour's report: kind, board, size, engine, time.

    ``picked`` says that ``auto`` chose the engine; ``side`` describes the
    side constraints checked.

    Examples:
        >>> from cpknight import find_tour
        >>> tour_heading(find_tour("5x6", method="cpsat"))[:40]
        'closed tour of 5x6 (knight (1,2)), 30 ce'
    """
    kind = "closed" if tour.closed else "open"
    by = ", picked by auto," if picked else ""
    heading = (
        f"{kind} tour of {tour.board.label} ({tour.piece.label}), {len(tour)} "
        f"cells, found by {tour.method_label}{by} in {tour.seconds:.3f} s"
    )
    if side:
        heading += f"\nside constraints checked: {side}"
    if is_a(tour, "ScoredTour"):
        heading += "\n" + score_text(cast("ScoredTour", tour))
    return heading


def score_text(tour: ScoredTour) -> str:
    """``32 turns, optimal`` or the best found with its proved bound.

    Examples:
        >>> from cpknight import find_tour, tour_constraints
        >>> side = tour_constraints("5x5", minimise="turns")
        >>> score_text(find_tour("5x5", closed=False, constraints=side))
        '20 turns (recounted), optimal: no such tour has fewer'
    """
    what = f"{tour.value} {tour.objective} (recounted)"
    if tour.optimal:
        return f"{what}, optimal: no such tour has fewer"
    if tour.lower is None:
        return f"{what}, the best found (no bound)"
    return f"{what}, the best found; proved: no such tour has fewer than {tour.lower}"


def limit_text(time_limit: float | None, each: str = "each") -> str:
    """``a limit of 10 s each`` (or ``no limit``), for a table's heading.

    Examples:
        >>> limit_text(10.0), limit_text(None)
        ('a limit of 10 s each', 'no limit')
    """
    return "no limit" if time_limit is None else f"a limit of {time_limit:g} s {each}"


def sweep_report(
    sweep: Sweep, time_limit: float | None, grid: bool, wrote: Sequence[str] = ()
) -> str:
    """The text of ``cpknight sweep``: heading, grid, why not, the slowest cell.

    Examples:
        >>> from cpknight import sweep
        >>> print(sweep_report(sweep("3x4", closed=False), None, True))
        open tours of 3x4 (knight (1,2)) from each start cell, by auto:
        ...
    """
    board = sweep.board
    limit = "" if time_limit is None else f", limit {time_limit:g} s per cell"
    kind = "closed" if sweep.closed else "open"
    lines = [
        f"{kind} tours of {board.label} ({sweep.piece.label}) from each start "
        f"cell, by {sweep.method}{limit}:"
    ]
    if grid:
        lines.append(sweep_text(sweep))
    else:
        lines.append(f"(the grid has {board.size} cells; use --json for every cell)")
        lines.append(", ".join(f"{k}: {v}" for k, v in sweep.counts().items()))
    proved = [c for c in sweep.cells if c.status == "infeasible"]
    if proved:
        more = len(proved) - 1
        others = f" (and {more} more cells; --json gives each reason)" if more else ""
        lines.append(
            f"why not {board.cell_name(proved[0].cell)}: {proved[0].reason}{others}"
        )
    total = sum(c.seconds for c in sweep.cells)
    slow = max(sweep.cells, key=lambda c: c.seconds, default=None)
    if slow is not None:
        lines.append(
            f"{total:.3f} s in all; slowest {board.cell_name(slow.cell)} "
            f"({slow.seconds:.3f} s, {effort_text(slow.effort.as_dict())})"
        )
    return _with_wrote(lines, wrote)


def summary_text(summary: dict[str, dict[str, Any]]) -> str:
    """A study's per-engine summary as an aligned table.

    Examples:
        >>> row = {"solved": 2, "proved none": 1, "limit": 0, "refused": 0,
        ...        "wrong": 0, "seconds": 0.5}
        >>> print(summary_text({"cpsat": row}))
        engine  solved  proved none  limit  refused  wrong  seconds
        cpsat        2            1      0        0      0      0.5
    """
    heads = ["engine", "solved", "proved none", "limit", "refused", "wrong", "seconds"]
    lines = [[name, *(str(v[h]) for h in heads[1:])] for name, v in summary.items()]
    widths = [max(len(r[k]) for r in [heads, *lines]) for k in range(len(heads))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest])

    return "\n".join([line(heads), *(line(r) for r in lines)])


def tour_report(
    tour: Tour,
    *,
    picked: bool = False,
    side: str = "",
    grid: bool = True,
    hint: str = "",
    wrote: Sequence[str] = (),
) -> str:
    """The text of ``cpknight tour``: heading, grid and path, files written.

    ``grid=False`` (a board over :data:`GRID_LIMIT` cells) prints a hint
    instead of the grid and the path.

    Examples:
        >>> from cpknight import find_tour
        >>> print(tour_report(find_tour("3x4", closed=False, method="cpsat")))
        open tour of 3x4 (knight (1,2)), 12 cells, found by cpsat in ... s
        3 | ...
        path: ...
    """
    heading = tour_heading(tour, picked=picked, side=side)
    if not grid:
        return path_report(heading, None, grid_hint(tour.board, hint), wrote)
    return path_report(heading, str(tour), "path: " + " ".join(tour.names()), wrote)


def study_report(
    study: Study, where: str, time_limit: float | None, wrote: Sequence[str] = ()
) -> str:
    """The text of ``cpknight study``: sizes, the summary, any wrong answers.

    Examples:
        >>> from cpknight.study import read_suite_text, run_study
        >>> study = run_study(read_suite_text("5x5 --open"), methods="cpsat")
        >>> print(study_report(study, "suite.txt", 10.0))
        study of suite.txt: 1 instances x 1 engines, a limit of 10 s each
        engine  solved ...
        cpsat        1 ...
        wrong: none (every tour checked, every answer agrees)
    """
    lines = [
        f"study of {where}: {len(study.instances)} instances x "
        f"{len(study.engines)} engines, {limit_text(time_limit)}",
        summary_text(study.summary()),
    ]
    wrong = study.wrong()
    lines += [
        f"WRONG: {row['engine']} on '{row['instance']}': {row['wrong']}"
        for row in wrong[:10]
    ]
    if not wrong:
        lines.append("wrong: none (every tour checked, every answer agrees)")
    return _with_wrote(lines, wrote)


def pairs_report(
    pairs: PairSweep, time_limit: float | None, wrote: Sequence[str] = ()
) -> str:
    """The text of ``cpknight sweep --pairs``: the counts, the ends per cell.

    Examples:
        >>> from cpknight.study import sweep_pairs
        >>> print(pairs_report(sweep_pairs("3x4", method="prune"), None))
        open tours of 3x4 (knight (1,2)) between every pair of cells, by prune:
        66 pairs: 7 joined by a tour, 59 by none (... by a certificate ...
        how many cells an open tour from each cell can end on:
        ...
    """
    board = pairs.board
    counts = pairs.counts()
    limit = "" if time_limit is None else f", limit {time_limit:g} s per pair"
    by_search = counts["infeasible"] - pairs.certified
    lines = [
        f"open tours of {board.label} ({pairs.piece.label}) between every pair of "
        f"cells, by {pairs.method}{limit}:",
        f"{len(pairs.pairs)} pairs: {counts['found']} joined by a tour, "
        f"{counts['infeasible']} by none ({pairs.certified} by a certificate "
        f"without solving, {by_search} by search), {counts['unknown']} unknown",
    ]
    if board.size <= GRID_LIMIT:
        ends = pairs.ends_from()
        lines.append("how many cells an open tour from each cell can end on:")
        lines.append(grid_text(board, lambda c: str(ends[c]) if c in ends else "#"))
    return _with_wrote(lines, wrote)


def distance_report(
    comparison: Comparison, heading: str, wrote: Sequence[str] = ()
) -> str:
    """The text of ``cpknight distance``: one method's answer, or the table.

    Then a line for each file written (``wrote``).

    Examples:
        >>> from cpknight import compare_distances
        >>> print(distance_report(compare_distances("8x8", "a1", "h8", methods="bfs"),
        ...                       "a1 -> h8 on 8x8, knight (1,2)"))
        a1 -> h8 on 8x8, knight (1,2): 6 moves
        path: a1 ...
    """
    if len(comparison.rows) != 1:
        return _with_wrote([distance_table_text(comparison, heading)], wrote)
    distance = comparison.rows[0].value
    kind = "" if distance.exact else " (a lower bound)"
    lines = [f"{heading}: {distance.distance} moves{kind}"]
    if "bound" in distance.details:
        lines.append(f"move counts: {counts_text(distance.details)}")
    if distance.path is not None:
        lines.append("path: " + " ".join(distance.names()))
    return _with_wrote(lines, wrote)


def board_json(board: Board) -> dict[str, Any]:
    """A board in JSON (``cpknight boards --json``): name, sides, open cells, drawing.

    Examples:
        >>> board_json(Board.parse("2x3"))["drawing"]
        ['2 | . . .', '1 | . . .', '    a b c']
    """
    return {
        "board": board.label,
        "shape": list(board.shape),
        "topology": board.topology,
        "open": board.n_open,
        "drawing": open_cells_text(board).splitlines(),
    }


def boards_report(
    entries: Sequence[tuple[str, Board]], wrote: Sequence[str] = ()
) -> str:
    """The text of ``cpknight boards``: each heading over its board's drawing.

    Examples:
        >>> print(boards_report([("tiny", Board.parse("2x3"))]))
        tiny
        2 | . . .
        1 | . . .
            a b c
    """
    blocks = [f"{heading}\n{open_cells_text(board)}" for heading, board in entries]
    return _with_wrote(["\n\n".join(blocks)], wrote)


def map_report(dmap: DistanceMap, grid: str | None, wrote: Sequence[str] = ()) -> str:
    """The text of ``cpknight map``: how far the map reaches, then the grid.

    ``grid`` is the grid's text, or the line that says why it is left out.

    Examples:
        >>> from cpknight import distance_map
        >>> print(map_report(distance_map("3x3", "a1"), None))
        knight (1,2) on 3x3 from a1: 8 of 9 cells reachable, at most 4 moves, \
1 unreachable (-)
    """
    board = dmap.board
    unreachable = board.n_open - dmap.n_reachable
    heading = (
        f"{dmap.piece.label} on {board.label} from {board.cell_name(dmap.source)}: "
        f"{dmap.n_reachable} of {board.n_open} cells reachable, "
        f"at most {dmap.max_distance} moves"
        + (f", {unreachable} unreachable (-)" if unreachable else "")
    )
    lines = [heading, *([grid] if grid is not None else [])]
    return _with_wrote(lines, wrote)


def reach_report(
    board: Board,
    piece: Leaper,
    source: Cell,
    reached: Sequence[Cell],
    sizes: Sequence[int],
    *,
    grid: bool = True,
) -> str:
    """The text of ``cpknight reach``: the count, the components, the grid.

    ``grid=False`` (a board over :data:`GRID_LIMIT` cells) prints a hint
    instead of the grid.

    Examples:
        >>> from cpknight.api import reach_split
        >>> from cpknight.pieces import KNIGHT
        >>> board = Board.parse("3x3")
        >>> cells, _, sizes = reach_split(board, (0, 0))
        >>> print(reach_report(board, KNIGHT, (0, 0), cells, sizes))
        knight (1,2) on 3x3 from a1: 8 of 9 cells reachable; 2 components (8, 1)
        3 | + + +
        2 | + - +
        1 | * + +
            a b c
    """
    shown = ", ".join(str(size) for size in sizes[:10])
    more = f", ... ({len(sizes)} in all)" if len(sizes) > 10 else ""
    heading = (
        f"{piece.label} on {board.label} from {board.cell_name(source)}: "
        f"{len(reached)} of {board.n_open} cells reachable; "
        f"{len(sizes)} component{'s' if len(sizes) != 1 else ''} ({shown}{more})"
    )
    if not grid:
        return f"{heading}\n{grid_hint(board)}"
    mask = board.open_mask
    cells = set(reached)

    def label(cell: Cell) -> str:
        if not mask[cell]:
            return BLOCKED
        if cell == source:
            return SOURCE
        return "+" if cell in cells else UNREACHABLE

    return f"{heading}\n{grid_text(board, label)}"


def count_report(
    outcome: Outcome, board: Board, piece: Leaper, *, closed: bool, where: str = ""
) -> str:
    """A count in words: the instance, the numbers, why it stopped, the states.

    ``where`` names the ends and side constraints (``' from a1'``).

    Examples:
        >>> from cpknight.api.counting import try_count
        >>> from cpknight.pieces import KNIGHT
        >>> outcome = try_count("3x4", closed=False)
        >>> print(count_report(outcome, Board.parse("3x4"), KNIGHT, closed=False))
        open tours of 3x4 (knight (1,2)): 16 directed, 8 undirected (complete, ... s)
        frontier: 8 cells wide at most, 12 cells added, peak 26 live states
        ...
    """
    from cpknight.counting import ShardedCount
    from cpknight.results import TourCount
    from cpknight.status import Status

    kind = "closed" if closed else "open"
    head = f"{kind} tours of {board.label} ({piece.label}){where}: "
    why = outcome.reason or "complete"
    value = outcome.value
    if isinstance(value, ShardedCount):
        count = value.count
        least = "" if count.status is Status.FOUND else "at least "
        return (
            f"{head}{least}{count.directed} directed, {least}{count.undirected} "
            f"undirected ({why}; {value.shards} shards, {count.seconds:.3f} s)"
        )
    if not isinstance(value, TourCount):
        return f"{head}no count ({why}, {outcome.seconds:.3f} s)"
    if value.status is Status.FOUND:
        numbers = f"{value.directed} directed, {value.undirected} undirected"
    elif value.counts_so_far:
        numbers = (
            f"at least {value.directed} directed, "
            f"at least {value.undirected} undirected"
        )
    else:
        numbers = "no count"
    text = f"{head}{numbers} ({why}, {value.seconds:.3f} s)"
    stats = value.frontier
    if stats is not None:
        text += "\n" + frontier_text(stats)
    if value.note is not None:
        text += "\n" + value.note
    if stats is not None and stats.prefixes:
        text += "\n" + prefixes_text(board, stats)
    return text
