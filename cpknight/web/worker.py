"""One engine on one job, in a worker process: the row it answers, and why not.

A run starts one process per engine (:mod:`cpknight.web.runs`); each calls
:func:`work`, which asks the question's front door (``try_tour``,
``complete_tour``,
``compare_distances``, ``try_collect``, ``try_longest``, ``try_count``,
``try_swap``, ``try_cover``) and
sends back one outcome row (:meth:`~cpknight.results.Outcome.as_dict`, the JSON
every command prints). Cancel is Ctrl-C: the server sends SIGINT, the front
door's :func:`~cpknight.solving.interruptible` expires the run's clock, and
the engine stops at its next clock check with what it has, as on a terminal.

Examples:
    >>> from cpknight.web.jobs import read_job
    >>> job = read_job({"question": "tour", "board": "4x4", "methods": "prune"})
    >>> row = solve_row(job, "prune")
    >>> row["status"], row["highlight"]  # the forced cycle a1-c2-d4-b3
    ('infeasible', [[0, 0], [1, 2], [3, 3], [2, 1]])
"""

from __future__ import annotations

import re
import signal
from multiprocessing.connection import Connection
from typing import Any

from cpknight.board import Board, Cell
from cpknight.errors import CpknightError, InvalidInputError
from cpknight.results import Outcome
from cpknight.status import Status
from cpknight.web.jobs import Job

__all__ = [
    "PRELOAD",
    "attacked_cells",
    "highlight_cells",
    "larger_colour",
    "proof_cells",
    "solve_row",
    "work",
]

PRELOAD = [
    "__main__",  # the server's own script, once, not again in every worker
    "cpknight.web.worker",
    "cpknight.api.tours",
    "cpknight.api.distances",
    "cpknight.api.counting",
    "cpknight.api.longest",
    "cpknight.api.routes",
    "cpknight.api.swaps",
    "cpknight.api.covering",
    "cpknight.tours.search",
    "cpknight.tours.cpsat",
]
"""Modules the process that forks the workers loads once, so a run starts warm."""


def work(job: Job, method: str, conn: Connection) -> None:
    """The worker process's body: solve, send one message, close.

    The message is ``{"row": ...}`` or ``{"error": "one line"}`` (an answer
    that failed its checker: a bug, said plainly).
    """
    # the fork server ignores Ctrl-C (RaceManager.context); here it is cancel
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        message: dict[str, Any] = {"row": solve_row(job, method)}
    except KeyboardInterrupt:  # cancelled before the front door took over
        message = {"row": _row(job, method, Status.UNKNOWN, "cancelled")}
    except CpknightError as exc:
        message = {"error": f"{exc} (please report this)"}
    try:
        conn.send(message)
    except (OSError, KeyboardInterrupt):  # the server went away or cancelled
        pass
    finally:
        conn.close()


def solve_row(job: Job, method: str) -> dict[str, Any]:
    """Ask ``method`` the job's question; the outcome row, with cells to highlight.

    A proved "none" carries ``highlight``: the cells its reason names (see
    :func:`highlight_cells`). A refusal is a row (``refused``), not an error.
    """
    try:
        outcome = _ask(job, method)
    except InvalidInputError as exc:
        return _row(job, method, Status.REFUSED, str(exc))
    row = outcome.as_dict()
    if job.question == "swap":  # the page draws the puzzle's own board
        row["board_shape"] = list(job.board.shape)
        row["board_blocked"] = sorted(list(c) for c in job.board.blocked)
    if job.question in ("dominate", "independent") and row.get("cells"):
        row["dominated"] = [list(c) for c in attacked_cells(job, row["cells"])]
    if outcome.interrupted:
        row["reason"] = "cancelled" + (
            f" ({row['reason']})" if row.get("reason") else ""
        )
    if outcome.status is Status.INFEASIBLE and job.question == "complete":
        row["highlight"] = [list(c) for c in proof_cells(job, outcome.reason)]
    elif outcome.status is Status.INFEASIBLE and outcome.reason:
        cells = highlight_cells(job.board, outcome.reason)
        if not cells and "bipartite" in outcome.reason:
            cells = larger_colour(job)
        row["highlight"] = [list(c) for c in cells]
    return row


def proof_cells(job: Job, reason: str | None) -> list[Cell]:
    """The cells a proof that the path cannot be finished is about.

    The certificate's own cells when a certificate gave the proof (a cut
    outlines a whole part, not only the cells its reason names); the knight's
    cell and the cells the reason names when an engine gave it.

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> job = read_job({"question": "complete", "board": "8x8",
        ...                 "path": [[1, 3], [2, 1], [3, 3]]})
        >>> proof_cells(job, None)
        [(0, 0), (1, 3)]
    """
    from cpknight.pieces import move_graph
    from cpknight.tours.completion import completion_certificate

    graph = move_graph(job.board, job.piece)
    proof = completion_certificate(graph, job.path, closed=job.closed, end=job.end)
    if proof is not None:
        return list(proof.cells)
    named = highlight_cells(job.board, reason or "")
    return list(dict.fromkeys([job.path[-1], *named]))


def attacked_cells(job: Job, knights: list[list[int]]) -> list[Cell]:
    """The open cells the knights attack, not holding one (the page shades them).

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> attacked_cells(read_job({"question": "dominate", "board": "3x3"}), [[0, 0]])
        [(1, 2), (2, 1)]
    """
    from cpknight.pieces import move_graph

    graph = move_graph(job.board, job.piece)
    occupied = {graph.node(tuple(c)) for c in knights}
    hit = {int(v) for u in occupied for v in graph.neighbors(u).tolist()} - occupied
    return sorted(graph.cell(v) for v in hit)


def larger_colour(job: Job) -> list[Cell]:
    """The larger colour class of a bipartite move graph (the colour argument's cells).

    Examples:
        >>> from cpknight.web.jobs import read_job
        >>> len(larger_colour(read_job({"question": "tour", "board": "5x5"})))
        13
    """
    from cpknight.pieces import move_graph
    from cpknight.tours.certificates import two_colouring

    graph = move_graph(job.board, job.piece)
    colours = two_colouring(graph)
    if colours is None:
        return []
    ones = [v for v in range(graph.n_nodes) if colours[v] == 1]
    zeros = [v for v in range(graph.n_nodes) if colours[v] != 1]
    return [graph.cell(v) for v in max(ones, zeros, key=len)]


def _ask(job: Job, method: str) -> Outcome:
    from cpknight import api

    board, piece, limit = job.board, job.piece, job.time_limit
    if job.question in ("dominate", "independent"):
        return api.try_cover(
            board, kind=job.kind, piece=piece, method=method, time_limit=limit
        )
    if job.question == "swap":
        if job.puzzle is None:
            raise InvalidInputError("a swap needs a puzzle")
        return api.try_swap(
            job.puzzle,
            piece=piece,
            topology=board.topology,
            method=method,
            time_limit=limit,
        )
    if job.question == "complete":
        return api.complete_tour(
            board,
            list(job.path),
            piece=piece,
            closed=job.closed,
            end=job.end,
            method=method,
            time_limit=limit,
        )
    if job.question == "tour":
        return api.try_tour(
            board,
            piece=piece,
            closed=job.closed,
            start=job.start,
            end=job.end,
            method=method,
            time_limit=limit,
            constraints=job.constraints,
        )
    if job.question == "distance":
        if job.start is None or job.target is None:
            raise InvalidInputError("a distance needs a source and a target cell")
        comparison = api.compare_distances(
            board,
            job.start,
            job.target,
            piece=piece,
            methods=[method],
            time_limit=limit,
        )
        return comparison.rows[0]
    if job.question == "route":
        if job.start is None:
            raise InvalidInputError("a route needs a start cell")
        return api.try_collect(
            board,
            job.start,
            list(job.food),
            end=job.end,
            piece=piece,
            simple=job.simple,
            method=method,
            time_limit=limit,
        )
    if job.question == "longest":
        return api.try_longest(
            board,
            kind=job.kind,
            closed=job.closed,
            piece=piece,
            method=method,
            time_limit=limit,
        )
    return api.try_count(
        board,
        piece=piece,
        closed=job.closed,
        start=job.start,
        end=job.end,
        method=method,
        time_limit=limit,
    )


def _row(job: Job, method: str, status: Status, reason: str) -> dict[str, Any]:
    return Outcome(job.question, method, status, 0.0, reason=reason).as_dict()


_NAME = re.compile(r"(?<!\w)(?<!\d,)([a-z]\d+|\d+(?:,\d+)+)(?!\w|,\d)")


def highlight_cells(board: Board, reason: str) -> list[Cell]:
    """The cells a reason names (``cell b1 has one move``), in order, once each.

    The certificates name the cells they are about (a cell with too few
    moves, a forced cycle); the page outlines them.

    Examples:
        >>> highlight_cells(Board.parse("8x8"), "cell a1 has one move; see c2, a1")
        [(0, 0), (1, 2)]
        >>> highlight_cells(Board.parse("3x3"), "the graph is disconnected")
        []
    """
    cells: dict[Cell, None] = {}
    for match in _NAME.finditer(reason):
        try:
            cell = board.parse_cell(match.group(1), allow_blocked=True)
        except CpknightError:
            continue
        cells[cell] = None
    return list(cells)
