"""The front door for building a model without solving it: print it or export it.

One function per question returns the frozen bundle its engine's builder
returns (:class:`~cpknight.formulation.Formulation`: ``formulation()`` prints
the model with the instance's own numbers, ``export(path)`` writes it), and
:func:`build_model` picks one by the question's name. The engine modules are
imported on use: callers (the ``formulation`` commands) import none of them.

Examples:
    >>> model = build_model("tour", "3x4", closed=False)
    >>> model.formulation()[:29]
    'Open knight (1,2) tour of 3x4'
    >>> build_model("distance", "8x8", source="a1", target="b2").formulation()[:10]
    'move-count'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from cpknight.api.common import BoardLike, resolve, solve_options
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, PieceLike, move_graph
from cpknight.solving import Run, SolveOptions

if TYPE_CHECKING:
    from cpknight.board import CellLike, Topology
    from cpknight.constraints import TourConstraints
    from cpknight.covering.program import CoverProgram
    from cpknight.distances.flow import FlowModel
    from cpknight.distances.moves import MoveCountModel
    from cpknight.formulation import Formulation
    from cpknight.longest.cpsat import LongestModel
    from cpknight.routes.cpsat import CollectModel
    from cpknight.swaps.cpsat import SwapModel
    from cpknight.tours.cpsat import TourModel

__all__ = [
    "MODEL_QUESTIONS",
    "build_model",
    "collect_model",
    "count_program",
    "cover_model",
    "distance_model",
    "longest_model",
    "swap_model",
    "tour_model",
]

MODEL_QUESTIONS = ("tour", "distance", "collect", "longest", "swap", "cover")
"""The questions :func:`build_model` builds a model of."""


def _run_of(
    run: Run | None, options: SolveOptions | None, time_limit: float | None
) -> Run:
    """The run whose clock bounds building: ``run``, or one started now."""
    return run if run is not None else solve_options(options, time_limit).start()


def tour_model(
    board: BoardLike,
    *,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    constraints: TourConstraints | None = None,
    arcs_only: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: Run | None = None,
) -> TourModel:
    """The CP-SAT circuit model of a tour (not solved).

    Args:
        board: a finite board.
        closed: a closed tour (a circuit of the moves) or an open one.
        start: the fixed first cell, if any.
        end: the fixed last cell (open tours), if any.
        piece: the leaper.
        constraints: side constraints (:func:`~cpknight.tour_constraints`).
        arcs_only: lay out the arcs only: enough to print the model, not to
            export it (on huge boards a second instead of minutes).
        options: the time limit bounds building.
        time_limit: seconds for building (replaces the one in ``options``).
        run: a started run whose clock bounds building (for a caller that
            exports on the same clock); ``options`` and ``time_limit`` then
            go unused.

    Raises:
        InvalidInputError, InvalidBoardError, InvalidCellError: bad input.
        SolveLimitError: the time limit passed while building.

    Examples:
        >>> tour_model("8x8", closed=False, start="a1").form
        'return-arcs'
    """
    from cpknight.tours.cpsat import build_tour_model

    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a tour")
    return build_tour_model(
        move_graph(resolved, leaper),
        closed=closed,
        start=None if start is None else resolved.parse_cell(start),
        end=None if end is None else resolved.parse_cell(end),
        run=_run_of(run, options, time_limit),
        arcs_only=arcs_only,
        constraints=constraints,
    )


def distance_model(
    board: BoardLike,
    source: CellLike,
    target: CellLike,
    *,
    method: Literal["ip", "flow"] = "ip",
    piece: PieceLike = KNIGHT,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: Run | None = None,
) -> MoveCountModel | FlowModel:
    """The integer program of a distance: ``'ip'`` move counts or ``'flow'``.

    Args:
        board: the board (``plane`` for the move counts on the unbounded
            board).
        source: the source cell.
        target: the target cell.
        method: ``'ip'`` (how many times each move is used) or ``'flow'`` (one
            unit of flow over the move arcs).
        piece: the leaper.
        options: the time limit bounds building (the flow model).
        time_limit: seconds for building (replaces the one in ``options``).
        run: a started run whose clock bounds building.

    Raises:
        InvalidInputError: a method other than ``'ip'`` or ``'flow'``.

    Examples:
        >>> model = distance_model("3x3", "a1", "c2", method="flow")
        >>> model.builder_model().num_constraints
        9
    """
    resolved, leaper = resolve(board, piece)
    if method == "flow":
        from cpknight.distances.flow import build_flow_model

        return build_flow_model(
            resolved,
            source,
            target,
            piece=leaper,
            run=_run_of(run, options, time_limit),
        )
    if method == "ip":
        from cpknight.distances.moves import build_move_count_model

        return build_move_count_model(resolved, source, target, piece=leaper)
    raise InvalidInputError(f"expected a distance model 'ip' or 'flow': {method!r}")


def collect_model(
    board: BoardLike,
    start: CellLike,
    food: Sequence[CellLike],
    *,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: Run | None = None,
) -> CollectModel:
    """The CP-SAT model of the snake's meal (a route through the food).

    Examples:
        >>> m = collect_model("8x8", "a1", ["h8", "d4"])
        >>> len(m.arcs) > 0
        True
    """
    from cpknight.routes.cpsat import build_collect_model

    resolved, leaper = resolve(board, piece)
    return build_collect_model(
        resolved,
        start,
        food,
        end=end,
        piece=leaper,
        simple=simple,
        run=_run_of(run, options, time_limit),
    )


def longest_model(
    board: BoardLike,
    *,
    kind: str,
    closed: bool = False,
    piece: PieceLike = KNIGHT,
    crossings: Literal["cliques", "pairwise"] = "cliques",
    cuts: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: Run | None = None,
) -> LongestModel:
    """The CP-SAT model of a longest uncrossed or induced path (or cycle).

    Examples:
        >>> longest_model("5x5", kind="uncrossed", closed=False).sizes()["Booleans"] > 0
        True
    """
    from cpknight.longest.cpsat import build_longest_model

    resolved, leaper = resolve(board, piece)
    return build_longest_model(
        resolved,
        kind=kind,
        closed=closed,
        piece=leaper,
        crossings=crossings,
        cuts=cuts,
        run=_run_of(run, options, time_limit),
    )


def swap_model(
    puzzle: str,
    *,
    horizon: int | None = None,
    piece: PieceLike = KNIGHT,
    topology: Topology | None = None,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: Run | None = None,
) -> SwapModel:
    """The CP-SAT planning model of a swap puzzle at one horizon (not solved).

    Args:
        puzzle: ``'guarini'``, ``'guy3xN'``, or a file or text of two drawings.
        horizon: the number of moves (default: the lower bound, the first
            horizon the engine tries).
        piece: the leaper.
        topology: wrap the puzzle's board.
        options: the time limit that bounds building.
        time_limit: seconds (replaces the one in ``options``).
        run: the run whose clock bounds building.

    Examples:
        >>> swap_model("guarini", horizon=16).sizes()["horizon"]
        16
    """
    from cpknight.api.swaps import swap_instance
    from cpknight.swaps.cpsat import build_swap_model

    instance = swap_instance(puzzle, piece=piece, topology=topology)
    if horizon is not None and horizon < 1:
        raise InvalidInputError(f"expected a horizon of 1 move or more: {horizon}")
    return build_swap_model(
        instance, horizon=horizon, run=_run_of(run, options, time_limit)
    )


def count_program(
    board: BoardLike,
    *,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
) -> str:
    """The frontier program that counts tours, printed with its own numbers.

    The instance is read and checked as :func:`~cpknight.api.count_tours`
    reads it (:func:`~cpknight.api.counting.count_instance`).

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input (an end cell for a closed tour).

    Examples:
        >>> print(count_program("3x4", closed=False).splitlines()[0])
        frontier program: open tours of 3x4 (knight (1,2)), 12 cells
    """
    from cpknight.api.counting import count_instance  # the runner, on use
    from cpknight.frontier.plan import (
        check_narrow,
        frontier_formulation,
        plan_frontier,
    )

    instance = count_instance(board, piece=piece, closed=closed, start=start, end=end)
    check_narrow(instance.board, instance.piece)  # before the graph is built
    plan = plan_frontier(
        instance.graph, closed=closed, start=instance.start, end=instance.end
    )
    return frontier_formulation(instance.graph, plan)


def cover_model(
    board: BoardLike,
    *,
    kind: str = "dominating",
    piece: PieceLike = KNIGHT,
    symmetry: bool = False,
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    run: Run | None = None,
) -> CoverProgram:
    """The 0/1 program of a covering puzzle (CP-SAT and the MIP solvers read it).

    Examples:
        >>> cover_model("8x8", kind="independent-set").sizes()["rows"]
        168
    """
    from cpknight.covering.program import build_cover_program

    resolved, leaper = resolve(board, piece)
    return build_cover_program(
        resolved,
        kind=kind,
        piece=leaper,
        symmetry=symmetry,
        run=_run_of(run, options, time_limit),
    )


def build_model(question: str, board: BoardLike, **kwargs: Any) -> Formulation:
    """The model of ``question`` (a name in :data:`MODEL_QUESTIONS`), not solved.

    The keywords are those of :func:`tour_model`, :func:`distance_model`
    (``source``, ``target``), :func:`collect_model` (``start``, ``food``),
    :func:`longest_model` or :func:`swap_model` (``board`` is the puzzle).

    Raises:
        InvalidInputError: an unknown question.

    Examples:
        >>> build_model("collect", "8x8", start="a1", food=["h8"]).formulation()[:16]
        "The snake's meal"
        >>> build_model("sweep", "8x8")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a question in tour, distance, \
collect, longest, swap, cover: 'sweep'
    """
    if question == "tour":
        return tour_model(board, **kwargs)
    if question == "distance":
        return distance_model(board, **kwargs)
    if question == "collect":
        return collect_model(board, **kwargs)
    if question == "longest":
        return longest_model(board, **kwargs)
    if question == "swap":
        if not isinstance(board, str):
            raise InvalidInputError(f"a swap model takes a puzzle: {board!r}")
        return swap_model(board, **kwargs)
    if question == "cover":
        return cover_model(board, **kwargs)
    raise InvalidInputError(
        f"expected a question in {', '.join(MODEL_QUESTIONS)}: {question!r}"
    )
