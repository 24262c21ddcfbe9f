"""Front doors for routes: the shortest knight route through required cells."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from cpknight.api.common import (
    BoardLike,
    listen_to_solve,
    resolve,
    solve_options,
)
from cpknight.board import CellLike
from cpknight.engines import attempt, solve_with
from cpknight.errors import specs
from cpknight.pieces import KNIGHT, PieceLike
from cpknight.results import (
    Outcome,
    Route,
)
from cpknight.routes import ENGINES as ROUTE_METHODS
from cpknight.routes.instance import RouteInstance
from cpknight.runtime.progress import ProgressLike, progress_bar
from cpknight.solving import Run, SolveOptions


def collect(
    board: BoardLike,
    start: CellLike,
    food: Sequence[CellLike],
    *,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
    method: str = "cpsat",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
) -> Route:
    """The snake's meal: the shortest route from ``start`` through every food cell.

    Args:
        board: a finite board.
        start: the first cell.
        food: the cells to visit (repeats ignored); one name such as
            ``'h8'`` is one cell.
        end: the required last cell (``end == start`` asks for a closed route).
        piece: the leaper.
        simple: never use a cell twice (default: a walk, cells may repeat).
        method: ``'cpsat'`` (the circuit models), ``'search'`` (Held-Karp for
            the walk, IDA* for the simple route) or ``'greedy'`` (nearest food
            next, the baseline).
        options: time limit, workers, seed.
        time_limit: seconds, model building included (replaces the
            one in ``options``).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` now and then.

    Returns:
        A checked :class:`~cpknight.results.Route`: ``status`` is
        ``'optimal'`` (proved) or ``'feasible'`` (best found at the limit, with
        a proved lower ``bound``).

    Raises:
        NoPathError: proved impossible (a food cell or the end unreachable, or
            no simple route).
        SolveLimitError: nothing found by the limit.
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input.

    Examples:
        >>> r = collect("8x8", "a1", ["h8", "a8", "h1", "d4"], method="search")
        >>> str(r.status), r.moves
        ('optimal', 15)
        >>> collect("3x3", "a1", ["b2"])
        Traceback (most recent call last):
        ...
        cpknight.errors.NoPathError: food b2 cannot be reached from a1 by the \
knight (1,2) on board 3x3
    """
    engine = ROUTE_METHODS.engine(method)
    with _collect_run(options, time_limit, progress) as run:
        instance = _route_instance(board, start, food, end, piece, simple)
        route: Route = solve_with(engine, instance, run)
    return route


def try_collect(
    board: BoardLike,
    start: CellLike,
    food: Sequence[CellLike],
    *,
    end: CellLike | None = None,
    piece: PieceLike = KNIGHT,
    simple: bool = False,
    method: str = "cpsat",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
) -> Outcome:
    """Like :func:`collect`, but every ending comes back as an outcome.

    "Proved none" and "limit reached" are outcomes (``infeasible``,
    ``unknown``, with the effort and the bound proved so far) instead of
    exceptions; bad input still raises. This is what ``cpknight collect`` runs.

    Examples:
        >>> o = try_collect("3x3", "a1", ["b2"], method="search")
        >>> str(o.status), o.value is None
        ('infeasible', True)
        >>> o = try_collect("8x8", "a1", ["h8", "d4"], method="search")
        >>> str(o.status), o.value.moves == o.bound
        ('optimal', True)
    """
    engine = ROUTE_METHODS.engine(method)
    with _collect_run(options, time_limit, progress) as run:
        instance = _route_instance(board, start, food, end, piece, simple)
        return attempt(engine, instance, run)


@contextmanager
def _collect_run(
    options: SolveOptions | None, time_limit: float | None, progress: ProgressLike
) -> Iterator[Run]:
    """The started run of a collect call, its progress bar shown while it lasts."""
    opts = solve_options(options, time_limit)
    with progress_bar(
        progress, desc="collect", unit="s", total=opts.time_limit
    ) as tick:
        run = opts.start()
        listen_to_solve(run, tick)
        yield run


def _route_instance(
    board: BoardLike,
    start: CellLike,
    food: Sequence[CellLike],
    end: CellLike | None,
    piece: PieceLike,
    simple: bool,
) -> RouteInstance:
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a route")
    return RouteInstance(
        resolved,
        leaper,
        start=resolved.parse_cell(start),
        food=tuple(resolved.parse_cell(f) for f in specs(food, "food")),
        end=None if end is None else resolved.parse_cell(end),
        simple=simple,
    )
