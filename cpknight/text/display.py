"""How values show themselves: text for ``print()``, HTML tables for notebooks.

The display methods of every value (``__str__``, ``_repr_html_``,
``_repr_svg_``) call these, importing this module inside the method (the
python-chess ``chess.svg`` pattern): the text is the command line's own
(:mod:`cpknight.text.render`, :mod:`cpknight.text.reports`), the pictures are
:mod:`cpknight.draw`'s. Huge values are summarised, as the command line
summarises them: past :data:`~cpknight.text.render.GRID_LIMIT` cells a value
prints a line or two instead of a grid.

Examples:
    >>> from cpknight import compare_distances
    >>> c = compare_distances("8x8", "a1", "b2", methods="bfs,formula")
    >>> print(comparison_str(c).splitlines()[0])
    a1 -> b2 on 8x8, knight (1,2):
    >>> "<table" in comparison_html(c)
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cpknight.board import Board
from cpknight.pieces import Leaper
from cpknight.text.render import (
    GRID_LIMIT,
    STATUS_WORDS,
    comparison_text,
    counts_text,
    distance_map_text,
    distance_table_text,
    effort_text,
    frontier_text,
    longest_line,
    longest_table_text,
    longest_text,
    moves_table_text,
    outcome_line,
    route_line,
    route_text,
    table_text,
    tour_text,
)
from cpknight.text.reports import (
    limit_text,
    pairs_report,
    study_report,
    sweep_report,
    tour_heading,
)

if TYPE_CHECKING:
    from cpknight.counting import ShardedCount
    from cpknight.longest.common import LongestPath
    from cpknight.pieces import MoveGraph
    from cpknight.results import (
        Comparison,
        Distance,
        DistanceMap,
        FrontierStats,
        Outcome,
        Route,
        Sweep,
        Tour,
        TourCount,
    )
    from cpknight.study import PairSweep, Study

__all__ = [
    "PATH_NAMES",
    "board_str",
    "comparison_heading",
    "comparison_html",
    "comparison_str",
    "count_html",
    "count_str",
    "distance_map_str",
    "distance_str",
    "frontier_html",
    "graph_str",
    "html_table",
    "longest_str",
    "outcome_html",
    "outcome_str",
    "pairs_html",
    "pairs_str",
    "route_str",
    "sharded_str",
    "study_html",
    "study_str",
    "swap_table_text",
    "sweep_html",
    "sweep_str",
    "tour_str",
]

PATH_NAMES = 200
"""The most cells a printed path names (a longer one ends with ``...``)."""


def _big(board: Board) -> bool:
    return board.unbounded or board.size > GRID_LIMIT


def _no_grid(board: Board, where: str) -> str:
    return f"(the grid has {board.size:,} cells: {where} gives every cell)"


def _names(board: Board, cells: Sequence[Sequence[int]]) -> str:
    names = board.cell_names(list(cells[:PATH_NAMES]))
    more = len(cells) - PATH_NAMES
    return " ".join(names) + (f" ... ({more:,} more)" if more > 0 else "")


# ------------------------------------------------------------------------ text


def board_str(board: Board) -> str:
    """A board as ``.`` and ``#`` (:meth:`Board.to_ascii`); a line past the grid limit.

    Examples:
        >>> board_str(Board.parse("plane")), board_str(Board.parse("200x200"))
        ('plane (unbounded)', '200x200: 40,000 open cells (to_ascii() draws it)')
    """
    if board.unbounded:
        return f"{board.label} (unbounded)"
    if _big(board):
        return f"{board.label}: {board.n_open:,} open cells (to_ascii() draws it)"
    return board.to_ascii()


def tour_str(tour: Tour) -> str:
    """A tour's grid of visit numbers; a heading alone past the grid limit.

    Examples:
        >>> from cpknight import find_tour
        >>> print(tour_str(find_tour("200x200", method="auto")))
        closed tour of 200x200 (knight (1,2)), 40000 cells, found by ... s
        (the grid has 40,000 cells: tour.order() gives every cell)
    """
    if _big(tour.board):
        return f"{tour_heading(tour)}\n{_no_grid(tour.board, 'tour.order()')}"
    return tour_text(tour)


def distance_map_str(dmap: DistanceMap) -> str:
    """A distance map's grid; a summary line past the grid limit.

    Examples:
        >>> from cpknight import distance_map
        >>> print(distance_map_str(distance_map("200x200", "a1")))
        moves from 0,0 on 200x200 (knight (1,2)): at most 134, 40,000 of 40,000 ...
        (the grid has 40,000 cells: dmap.array gives every cell)
    """
    if not _big(dmap.board):
        return distance_map_text(dmap)
    board = dmap.board
    return (
        f"moves from {board.cell_name(dmap.source)} on {board.label} "
        f"({dmap.piece.label}): at most {dmap.max_distance}, "
        f"{dmap.n_reachable:,} of {board.n_open:,} cells reached\n"
        + _no_grid(board, "dmap.array")
    )


def route_str(route: Route) -> str:
    """A route's grid of first visits; its one line past the grid limit."""
    if _big(route.board):
        return f"{route_line(route)}\npath: {_names(route.board, route.cells)}"
    return route_text(route)


def longest_str(path: LongestPath) -> str:
    """A longest path's grid; its one line past the grid limit."""
    if _big(path.board):
        return longest_line(path)
    return longest_text(path)


def distance_str(distance: Distance) -> str:
    """A distance in words, as ``cpknight distance`` prints one method's answer.

    Examples:
        >>> from cpknight import knight_distance
        >>> print(distance_str(knight_distance("8x8", "a1", "b2")))
        a1 -> b2 on 8x8, knight (1,2): 4 moves (bfs)
        path: a1 b3 c5 a4 b2
    """
    board = distance.board
    kind = "" if distance.exact else ", a lower bound"
    lines = [
        f"{board.cell_name(distance.source)} -> {board.cell_name(distance.target)} "
        f"on {board.label}, {distance.piece.label}: {distance.distance} moves "
        f"({distance.method}{kind})"
    ]
    if "bound" in distance.details:
        lines.append(f"move counts: {counts_text(distance.details)}")
    if distance.path is not None:
        lines.append("path: " + _names(board, distance.path))
    return "\n".join(lines)


def _cell_text(board: str, cell: Sequence[int]) -> str:
    """A cell of a comparison's instance (plain data): named where the label reads back.

    Examples:
        >>> _cell_text("8x8", [0, 0]), _cell_text("8x8 torus", [0, 0])
        ('a1', '0,0')
    """
    from cpknight.named_boards import NAMED_BOARDS

    if re.fullmatch(r"\d+x\d+", board) or board in NAMED_BOARDS:
        return Board.parse(board).cell_name(tuple(int(x) for x in cell))
    return ",".join(str(x) for x in cell)


def _ends(board: str, cells: dict[str, Any]) -> str:
    """`` from a1 to c2``: the fixed ends of a tour comparison, if any."""
    out = ""
    for word, key in (("from", "start"), ("to", "end")):
        cell = cells.get(key)
        if cell is not None:
            out += f" {word} {_cell_text(board, cell)}"
    return out


def comparison_heading(comparison: Comparison) -> str:
    """The heading the command line gives a comparison, from its instance.

    Examples:
        >>> from cpknight import compare_tours
        >>> comparison_heading(compare_tours("4x4", methods="prune"))
        'closed tour of 4x4 (knight (1,2)), no limit'
    """
    inst = comparison.instance
    board = str(inst.get("board", "?"))
    piece = Leaper(tuple(inst.get("piece", (1, 2)))).label
    limit = limit_text(inst.get("time_limit"))
    if comparison.question == "distance":
        source = _cell_text(board, inst["source"])
        target = _cell_text(board, inst["target"])
        return f"{source} -> {target} on {board}, {piece}"
    if comparison.question == "longest":
        shape = "cycle" if inst.get("closed") else "path"
        return f"longest {inst.get('kind')} {shape} on {board} ({piece}), {limit}"
    if comparison.question == "swap":
        name = f"{inst['puzzle']} " if inst.get("puzzle") else ""
        return f"swap {name}on {board} ({piece}), {limit}"
    kind = "closed" if inst.get("closed", True) else "open"
    ends = _ends(board, inst)
    return f"{kind} {comparison.question} of {board} ({piece}){ends}, {limit}"


def comparison_str(comparison: Comparison) -> str:
    """A comparison's table, as ``cpknight compare`` (distance, longest) prints it."""
    heading = comparison_heading(comparison)
    if comparison.question == "distance":
        return distance_table_text(comparison, heading)
    if comparison.question == "longest":
        return longest_table_text(comparison, heading)
    if comparison.question == "swap":
        return swap_table_text(comparison, heading)
    return comparison_text(comparison, heading)


def swap_table_text(comparison: Comparison, heading: str) -> str:
    """Several engines on one swap: moves, bound, time, effort (``swap --method``).

    Examples:
        >>> from cpknight.api import compare_swaps
        >>> c = compare_swaps("guarini", methods="bfs")
        >>> print(comparison_str(c).splitlines()[0])
        swap guarini on 3x3 (knight (1,2)), no limit:
    """
    return moves_table_text(
        comparison,
        heading,
        "optimal: proved fewest moves; bound: the fewest there could be;\neffort: "
        "placements reached (bfs), branches and conflicts over every horizon "
        "(cpsat).",
    )


def outcome_str(outcome: Outcome) -> str:
    """An outcome: how it ended, then its answer printed (or why there is none).

    Examples:
        >>> from cpknight import try_tour
        >>> print(outcome_str(try_tour("4x4", method="prune")).splitlines()[0])
        tour by prune: proved none in ... s
    """
    word = STATUS_WORDS.get(str(outcome.status), str(outcome.status))
    head = (
        f"{outcome.question} by {outcome.method_label}: {word} in "
        f"{outcome.seconds:.3f} s"
    )
    effort = outcome.effort.as_dict()
    if effort:
        head += f" ({effort_text(effort)})"
    if outcome.value is None:
        return f"{head}\n{outcome_line(outcome)}"
    return f"{head}\n{outcome.value}"


def count_str(count: TourCount) -> str:
    """A count in words, then the frontier program's rows and prefixes.

    Examples:
        >>> from cpknight import count_tours
        >>> print(count_str(count_tours("3x4", closed=False)).splitlines()[0])
        16 directed, 8 undirected tours (complete; frontier, ... s)
    """
    if count.status == "found":
        numbers = f"{count.directed:,} directed, {count.undirected:,} undirected tours"
        why = "complete"
    elif count.counts_so_far:
        numbers = (
            f"at least {count.directed:,} directed, at least "
            f"{count.undirected:,} undirected tours"
        )
        why = "interrupted" if count.interrupted else "stopped at the limit"
    else:
        numbers = "no count"
        why = "interrupted" if count.interrupted else "stopped at the limit"
    lines = [f"{numbers} ({why}; {count.method}, {count.seconds:.3f} s)"]
    if count.note is not None:
        lines.append(count.note)
    if count.frontier is not None:
        lines.append(frontier_text(count.frontier))
        if count.frontier.prefixes:
            rows = [[k, 2 * c, c] for k, c in count.frontier.prefixes]
            lines.append(table_text(["rows", "directed", "undirected"], rows))
    return "\n".join(lines)


def sharded_str(count: ShardedCount) -> str:
    """A sharded count: the sum in words, and how many shards made it."""
    unfinished = f", {count.unfinished} unfinished" if count.unfinished else ""
    return f"{count_str(count.count)}\n{count.shards} shards{unfinished}"


def sweep_str(sweep: Sweep) -> str:
    """A sweep as ``cpknight sweep`` prints it: heading, grid (or counts), why not.

    Examples:
        >>> from cpknight import sweep
        >>> print(sweep_str(sweep("3x4", closed=False, method="prune")))
        open tours of 3x4 (knight (1,2)) from each start cell, by prune:
        3 | o x x o
        ...
    """
    text = sweep_report(sweep, None, not _big(sweep.board))
    return text.replace(
        "use --json for every cell", "sweep.to_dataframe() gives every cell"
    )


def pairs_str(pairs: PairSweep) -> str:
    """A pair sweep as ``cpknight sweep --pairs`` prints it."""
    return pairs_report(pairs, None)


def study_str(study: Study) -> str:
    """A study as ``cpknight study`` prints it: sizes, the summary, wrong answers."""
    return study_report(study, "a suite", study.time_limit)


def graph_str(graph: MoveGraph) -> str:
    """A move graph in one line: cells, edges, degrees.

    Examples:
        >>> from cpknight import move_graph
        >>> graph_str(move_graph("8x8"))
        'move graph of the knight (1,2) on 8x8: 64 cells, 168 edges, degree 2 to 8'
    """
    degree = graph.degree
    low, high = (int(degree.min()), int(degree.max())) if len(degree) else (0, 0)
    return (
        f"move graph of the {graph.piece.label} on {graph.board.label}: "
        f"{graph.n_nodes:,} cells, {graph.n_edges:,} edges, degree {low} to {high}"
    )


# ------------------------------------------------------------------------ HTML


def html_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], caption: str = ""
) -> str:
    """An HTML table, every value escaped; numbers right-aligned.

    Examples:
        >>> html_table(["a"], [[1]], "x<y")[:47]
        '<table><caption>x&lt;y</caption><thead><tr><th>'
        >>> html_table(["a"], [["<b>"]])[-43:]
        '<tr><td>&lt;b&gt;</td></tr></tbody></table>'
    """
    import html  # notebooks' only: not every command's start-up

    def cell(value: object) -> str:
        if isinstance(value, float):
            text = f"{value:.3f}"
        elif value is None:
            text = "-"
        else:
            text = str(value)
        number = isinstance(value, int | float) and not isinstance(value, bool)
        style = ' style="text-align:right"' if number else ""
        return f"<td{style}>{html.escape(text)}</td>"

    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _outcome_row(o: Outcome) -> list[object]:
    value = None if o.value is None else o.value.as_dict()
    answer: object = None
    if value is not None:
        for key in ("distance", "moves", "length", "undirected"):
            if key in value:
                answer = value[key]
                break
    return [
        o.method_label,
        STATUS_WORDS.get(str(o.status), str(o.status)),
        answer,
        o.bound,
        round(o.seconds, 6),
        effort_text(o.effort.as_dict()),
        o.reason,
    ]


_OUTCOME_HEADERS = [
    "method",
    "outcome",
    "answer",
    "bound",
    "seconds",
    "effort",
    "reason",
]


def comparison_html(comparison: Comparison) -> str:
    """A comparison as an HTML table: a row per engine."""
    return html_table(
        _OUTCOME_HEADERS,
        [_outcome_row(o) for o in comparison.rows],
        comparison_heading(comparison),
    )


def outcome_html(outcome: Outcome) -> str:
    """An outcome as a one-row HTML table, with its answer's picture if it has one."""
    table = html_table(_OUTCOME_HEADERS, [_outcome_row(outcome)], outcome.question)
    draw = getattr(outcome.value, "_repr_svg_", None)
    svg = draw() if draw is not None else None
    return table if svg is None else table + _picture(svg)


def frontier_html(stats: FrontierStats) -> str:
    """The frontier program's rows as an HTML table."""
    rows: list[list[object]] = []
    at = 0
    for number, cells in enumerate(stats.rows, start=1):
        if at + cells > stats.done:
            break
        upto = at + cells
        rows.append([number, cells, max(stats.widths[at:upto]), stats.live[upto - 1]])
        at += cells
    caption = (
        f"frontier: {stats.width} cells wide at most, {stats.steps} cells, "
        f"peak {stats.peak:,} live states"
    )
    return html_table(
        ["row", "cells", "widest", "live states at its end"], rows, caption
    )


def count_html(count: TourCount) -> str:
    """A count as HTML: the numbers, then the frontier's rows and prefixes."""
    first = count_str(count).splitlines()[0]
    out = html_table(
        ["directed", "undirected", "status", "method", "seconds"],
        [
            [
                count.directed,
                count.undirected,
                str(count.status),
                count.method,
                round(count.seconds, 6),
            ]
        ],
        first,
    )
    stats = count.frontier
    if stats is not None:
        out += frontier_html(stats)
        if stats.prefixes:
            rows = [[k, 2 * c, c] for k, c in stats.prefixes]
            out += html_table(["rows", "directed", "undirected"], rows, "prefixes")
    return out


def sweep_html(sweep: Sweep) -> str:
    """A sweep's summary as an HTML table, with its picture beside it."""
    from cpknight.draw import sweep_svg

    counts = sweep.counts()
    kind = "closed" if sweep.closed else "open"
    slow = max(sweep.cells, key=lambda c: c.seconds, default=None)
    rows = [[k, v] for k, v in counts.items()]
    rows.append(["seconds in all", round(sum(c.seconds for c in sweep.cells), 6)])
    if slow is not None:
        rows.append([f"slowest ({sweep.board.cell_name(slow.cell)})", slow.seconds])
    caption = (
        f"{kind} tours of {sweep.board.label} ({sweep.piece.label}) from each "
        f"start cell, by {sweep.method}"
    )
    return html_table(["cells", "count"], rows, caption) + _picture(sweep_svg(sweep))


def pairs_html(pairs: PairSweep) -> str:
    """A pair sweep's counts as an HTML table, with its picture."""
    from cpknight.draw.pairs import pairs_svg

    rows: list[list[object]] = [[k, v] for k, v in pairs.counts().items()]
    rows.append(["answered by a certificate", pairs.certified])
    caption = (
        f"open tours of {pairs.board.label} ({pairs.piece.label}) between every "
        f"pair of cells, by {pairs.method}"
    )
    return html_table(["pairs", "count"], rows, caption) + _picture(pairs_svg(pairs))


def study_html(study: Study) -> str:
    """A study's summary as an HTML table, with its performance profile."""
    from cpknight.draw.study import profile_svg

    heads = ["engine", "solved", "proved none", "limit", "refused", "wrong", "seconds"]
    rows = [[name, *(v[h] for h in heads[1:])] for name, v in study.summary().items()]
    caption = (
        f"{len(study.instances)} instances x {len(study.engines)} engines, "
        f"{limit_text(study.time_limit)}"
    )
    out = html_table(heads, rows, caption)
    wrong = study.wrong()
    if wrong:
        out += html_table(
            ["engine", "instance", "wrong"],
            [[r["engine"], r["instance"], r["wrong"]] for r in wrong],
            "WRONG answers",
        )
    return out + _picture(profile_svg(study))


def _picture(svg: str) -> str:
    return f"<div>{svg}</div>"
