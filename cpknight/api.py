"""The front doors: one function per question, and the method registries.

Every function here validates its input at the boundary (board, piece, cells,
options), then hands plain data to an engine. Boards may be given as
:class:`~cpknight.board.Board` values or as specs (``'8x8'``, ``'holed8'``);
pieces as :class:`~cpknight.pieces.Leaper` values, names or tuples; cells as
names or tuples.

Engines are looked up in :data:`TOUR_METHODS` and :data:`DISTANCE_METHODS` and
imported only when used, so that asking for a distance never loads OR-Tools.

Examples:
    >>> int(knight_distance("8x8", "a1", "h8"))
    6
    >>> len(reachable("3x3", "a1"))
    8
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cpknight.board import Board, Cell, CellLike, Topology
from cpknight.distances import ENGINES as DISTANCE_METHODS
from cpknight.engines import (
    DistanceInstance,
    Engine,
    Registry,
    RouteInstance,
    TourInstance,
    attempt,
    outcome_of,
    outcome_of_error,
    solve_with,
)
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    OutcomeError,
    SolveLimitError,
)
from cpknight.graph import bfs_levels, component_labels
from cpknight.pieces import KNIGHT, Leaper, MoveGraph, PieceLike, as_piece, move_graph
from cpknight.results import (
    Comparison,
    Distance,
    DistanceMap,
    Outcome,
    Route,
    Sweep,
    SweepCell,
    Tour,
    TourCount,
)
from cpknight.routes import ENGINES as ROUTE_METHODS
from cpknight.solving import Run, SolveOptions
from cpknight.status import Status
from cpknight.tours import ENGINES as TOUR_METHODS
from cpknight.tours.auto import choose_tour_method, tiles_suit
from cpknight.tours.certificates import check_tour_possible

__all__ = [
    "DISTANCE_METHODS",
    "ROUTE_METHODS",
    "TOUR_METHODS",
    "BoardLike",
    "choose_tour_method",
    "collect",
    "compare_distances",
    "compare_tours",
    "components",
    "count_tours",
    "distance_map",
    "find_tour",
    "iter_tours",
    "knight_distance",
    "reach_split",
    "reachable",
    "resolve",
    "shortest_path",
    "sweep",
    "try_collect",
    "try_tour",
]

BoardLike = Board | str
"""A :class:`Board` or anything :meth:`Board.parse` reads."""


def resolve(
    board: BoardLike,
    piece: PieceLike = KNIGHT,
    *,
    topology: Topology | None = None,
) -> tuple[Board, Leaper]:
    """Read a board and a piece and check that the piece fits the board.

    Raises:
        InvalidBoardError: a bad board spec.
        InvalidPieceError: a bad piece, or one with more components than the
            board has axes.

    Examples:
        >>> resolve("4x4x4", "1,2,3")[1].label
        '(1,2,3)-leaper'
    """
    if isinstance(board, Board):
        resolved = board if topology is None else board.with_topology(topology)
    else:
        resolved = Board.parse(board, topology=topology or "bounded")
    leaper = as_piece(piece)
    leaper.check_dim(resolved.dim, resolved.label)
    return resolved, leaper


# -------------------------------------------------------------------- distances


def distance_map(
    board: BoardLike, source: CellLike, *, piece: PieceLike = KNIGHT
) -> DistanceMap:
    """The number of moves from ``source`` to every cell, by BFS.

    Args:
        board: a finite board.
        source: the source cell.
        piece: the leaper.

    Returns:
        The distance map (``m[cell]`` is an int, or ``None`` when unreachable).

    Raises:
        InvalidBoardError: a bad board, or the unbounded plane.
        InvalidCellError: the source is not an open cell.
        InvalidPieceError: a bad piece.

    Examples:
        >>> m = distance_map("8x8", "a1")
        >>> m["b2"], m[(7, 7)], m.max_distance
        (4, 6, 6)
        >>> distance_map("3x3", "a1")["b2"] is None
        True
    """
    graph, source_cell = _graph_and_cell(board, piece, source, "a distance map")
    levels = bfs_levels(graph, graph.node(source_cell))
    array = graph.node_of.copy()
    open_cells = array >= 0
    array[open_cells] = levels[array[open_cells]]
    array[~open_cells] = -1
    array.setflags(write=False)
    return DistanceMap(graph.board, graph.piece, source_cell, array)


def knight_distance(
    board: BoardLike,
    source: CellLike,
    target: CellLike,
    *,
    piece: PieceLike = KNIGHT,
    method: str = "bfs",
    options: SolveOptions | None = None,
) -> Distance:
    """The fewest moves from ``source`` to ``target``, by the chosen method.

    Args:
        board: the board (``plane`` for the unbounded board, where the method
            allows it).
        source: the source cell.
        target: the target cell.
        piece: the leaper.
        method: a name in :data:`DISTANCE_METHODS` (``'bfs'`` is the reference).
        options: time limit and solver settings, for the integer programs.

    Returns:
        A :class:`~cpknight.results.Distance`: ``int(d)`` is the number of moves;
        ``d.path`` one shortest path; ``d.exact`` whether it is exact or a bound.

    Raises:
        NoPathError: the target cannot be reached.
        InvalidBoardError, InvalidCellError, InvalidPieceError: bad input.

    Examples:
        >>> d = knight_distance("8x8", "a1", "b2")
        >>> d.distance, d.names()[0], d.names()[-1]
        (4, 'a1', 'b2')
        >>> knight_distance("3x3", "a1", "b2")
        Traceback (most recent call last):
        ...
        cpknight.errors.NoPathError: b2 cannot be reached from a1 by the knight \
(1,2) on board 3x3
    """
    engine = DISTANCE_METHODS.engine(method)
    run = (options or SolveOptions()).start()
    result: Distance = solve_with(
        engine, _distance_instance(board, piece, source, target), run
    )
    return result


def _distance_instance(
    board: BoardLike, piece: PieceLike, source: CellLike, target: CellLike
) -> DistanceInstance:
    resolved, leaper = resolve(board, piece)
    return DistanceInstance(
        resolved,
        leaper,
        source=resolved.parse_cell(source),
        target=resolved.parse_cell(target),
    )


def compare_distances(
    board: BoardLike,
    source: CellLike,
    target: CellLike,
    *,
    piece: PieceLike = KNIGHT,
    methods: str | Sequence[str] = "all",
    options: SolveOptions | None = None,
) -> Comparison:
    """Every chosen distance method on one instance, side by side, cross-checked.

    A method that does not take the instance (BFS on the unbounded plane, the
    formula off its boards) is ``refused``; one that runs out of time is
    ``unknown``; the others must agree.

    Args:
        board: the board (``plane`` for the unbounded board).
        source: the source cell.
        target: the target cell.
        piece: the leaper.
        methods: names in :data:`DISTANCE_METHODS` (a list, a comma string,
            or ``'all'``).
        options: time limit (per method), workers, seed.

    Returns:
        A :class:`~cpknight.results.Comparison`, one outcome per method.

    Raises:
        EngineError: two methods disagree (exact distances differ, or a lower
            bound exceeds an exact distance): a bug in cpknight.
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input.

    Examples:
        >>> c = compare_distances("8x8", "a1", "b2", methods="bfs,formula")
        >>> [(o.method, o.value.distance) for o in c.rows]
        [('bfs', 4), ('formula', 4)]
        >>> compare_distances("plane", "0,0", "3,3", methods="bfs,formula").statuses()
        ['refused', 'found']
    """
    names = _method_names(DISTANCE_METHODS, methods)
    instance = _distance_instance(board, piece, source, target)
    opts = options or SolveOptions()
    rows = tuple(
        _attempt_or_refuse(DISTANCE_METHODS.engine(name), instance, opts.start())
        for name in names
    )
    exact = {o.value.distance for o in rows if o.value is not None and o.value.exact}
    bounds = [o.value.distance for o in rows if o.value is not None]
    proved_none = any(o.status is Status.INFEASIBLE for o in rows)
    if (
        len(exact) > 1
        or (exact and max(bounds) > min(exact))
        or (proved_none and bounds)
    ):
        raise EngineError(
            "internal error: distance methods disagree: "
            + ", ".join(f"{o.method} {o.status}" for o in rows)
        )
    return Comparison(
        question="distance",
        instance={
            "board": instance.board.label,
            "piece": list(instance.piece.vector),
            "source": list(instance.source),
            "target": list(instance.target),
            "time_limit": opts.time_limit,
        },
        rows=rows,
    )


def _method_names(registry: Registry, methods: str | Sequence[str]) -> list[str]:
    if isinstance(methods, str):
        return registry.names(methods)
    return registry.names(",".join(methods))


def _attempt_or_refuse(engine: Engine, instance: Any, run: Run) -> Outcome:
    """:func:`attempt`, with an engine refusing the instance as an outcome."""
    try:
        return attempt(engine, instance, run)
    except InvalidInputError as exc:
        return Outcome(
            question=engine.question,
            method=engine.name,
            status=Status.REFUSED,
            seconds=run.elapsed(),
            reason=str(exc),
        )


def shortest_path(
    board: BoardLike,
    source: CellLike,
    target: CellLike,
    *,
    piece: PieceLike = KNIGHT,
) -> tuple[Cell, ...]:
    """One shortest path from ``source`` to ``target`` (both included), by BFS.

    Raises:
        NoPathError: the target cannot be reached.

    Examples:
        >>> shortest_path("8x8", "a1", "c2")
        ((0, 0), (1, 2))
    """
    result = knight_distance(board, source, target, piece=piece, method="bfs")
    assert result.path is not None
    return result.path


def reachable(
    board: BoardLike, source: CellLike, *, piece: PieceLike = KNIGHT
) -> frozenset[Cell]:
    """The cells the piece can reach from ``source`` (``source`` included).

    Examples:
        >>> sorted(reachable("3x3", "b2"))
        [(1, 1)]
        >>> len(reachable("8x8", "a1", piece="ferz"))
        32
    """
    graph, source_cell = _graph_and_cell(board, piece, source, "reachability")
    levels = bfs_levels(graph, graph.node(source_cell))
    return frozenset(_cell_tuples(graph.cells[levels >= 0]))


def components(
    board: BoardLike, *, piece: PieceLike = KNIGHT
) -> list[tuple[Cell, ...]]:
    """The connected components of the move graph, each in row-major order.

    Components are listed in the order of their first cell.

    Examples:
        >>> [len(c) for c in components("3x3")]
        [8, 1]
        >>> len(components("8x8", piece="alfil"))  # 4 parity classes x 2 colours
        8
    """
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("finding components")
    graph = move_graph(resolved, leaper)
    labels = component_labels(graph)
    # One stable sort groups the cells by component, row-major within each.
    order = labels.argsort(kind="stable")
    cells = _cell_tuples(graph.cells[order])
    count = int(labels.max()) + 1 if labels.size else 0
    bounds = labels[order].searchsorted(list(range(count + 1))).tolist()
    return [tuple(cells[bounds[k] : bounds[k + 1]]) for k in range(count)]


def reach_split(
    board: BoardLike, source: CellLike, *, piece: PieceLike = KNIGHT
) -> tuple[list[Cell], list[Cell], list[int]]:
    """Reachable and unreachable cells and the component sizes, from one labelling.

    The move graph is symmetric, so the cells reachable from ``source`` are its
    component: one pass of :func:`~cpknight.graph.component_labels`
    answers all three questions.

    Returns:
        The reachable cells and the unreachable open cells (both row-major),
        and the size of every component in the order of its first cell.

    Examples:
        >>> reach, rest, sizes = reach_split("3x3", "a1")
        >>> len(reach), rest, sizes
        (8, [(1, 1)], [8, 1])
    """
    graph, cell = _graph_and_cell(board, piece, source, "reachability")
    labels = component_labels(graph)
    mine = labels == labels[graph.node(cell)]
    sizes = np.bincount(labels).tolist() if labels.size else []
    return _cell_tuples(graph.cells[mine]), _cell_tuples(graph.cells[~mine]), sizes


def _cell_tuples(cells: npt.NDArray[np.int64]) -> list[Cell]:
    """Rows of an ``(n, d)`` array as tuples of ints (column-wise: fast for 10^6)."""
    return list(zip(*(column.tolist() for column in cells.T), strict=True))


def _graph_and_cell(
    board: BoardLike, piece: PieceLike, source: CellLike, purpose: str
) -> tuple[MoveGraph, Cell]:
    resolved, leaper = resolve(board, piece)
    resolved.require_finite(purpose)
    cell = resolved.parse_cell(source)
    return move_graph(resolved, leaper), cell


# ------------------------------------------------------------------------ tours


def find_tour(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "cpsat",
    options: SolveOptions | None = None,
) -> Tour:
    """Find a tour: every open cell once, closed (a circuit) or open (a path).

    Args:
        board: a finite board.
        piece: the leaper.
        closed: whether the last cell must be one move from the first.
        start: the first cell, if fixed.
        end: the last cell, if fixed (open tours only).
        method: a name in :data:`TOUR_METHODS`, or ``'auto'`` to let
            :func:`choose_tour_method` pick (the tour's ``method`` says which).
        options: time limit, workers, seed.

    Returns:
        A checked :class:`~cpknight.results.Tour`.

    Raises:
        NoTourError: proved that no such tour exists (with the reason).
        SolveLimitError: the time limit was reached without an answer.
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input.
    """
    run = (options or SolveOptions()).start()
    instance = _tour_instance(board, piece, start, end, closed=closed, purpose="a tour")
    tour: Tour = _solve_tour(instance, method, run, picked=[])
    return tour


def _solve_tour(
    instance: TourInstance, method: str, run: Run, *, picked: list[str]
) -> Tour:
    """Solve a tour instance with ``method`` (or what ``auto`` picks).

    The certificates run first for engines that read the move graph; ``auto``
    picks after them. The engine used is appended to ``picked`` (before it
    runs, so that an outcome names it whatever happens).
    """
    auto = method == "auto"
    if not auto:
        TOUR_METHODS.engine(method)  # says which names exist
    elif tiles_suit(instance.board, instance.piece, instance.end):
        method = "tiles"
    if method == "auto" or TOUR_METHODS[method].reads == "graph":
        picked.append(method)
        check_tour_possible(
            instance.graph,
            closed=instance.closed,
            start=instance.start,
            end=instance.end,
        )
        if method == "auto":
            method = choose_tour_method(
                instance.graph,
                closed=instance.closed,
                start=instance.start,
                end=instance.end,
            )
    picked.append(method)
    try:
        tour: Tour = solve_with(TOUR_METHODS.engine(method), instance, run)
        return tour
    except SolveLimitError:
        # greedy giving up proves nothing: with time left, auto searches on.
        if not (auto and method == "greedy") or run.expired():
            raise
    picked.append("prune")
    tour = solve_with(TOUR_METHODS.engine("prune"), instance, run)
    return tour


def _tour_instance(
    board: BoardLike,
    piece: PieceLike,
    start: CellLike | None,
    end: CellLike | None,
    *,
    closed: bool,
    purpose: str,
) -> TourInstance:
    """Read and check a tour instance: the board, the piece and the end cells."""
    resolved, leaper = resolve(board, piece)
    resolved.require_finite(purpose)
    start_cell = None if start is None else resolved.parse_cell(start)
    end_cell = None if end is None else resolved.parse_cell(end)
    if closed and end_cell is not None:
        raise InvalidInputError("a closed tour has no separate end cell; drop 'end'")
    return TourInstance(resolved, leaper, closed=closed, start=start_cell, end=end_cell)


def count_tours(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    options: SolveOptions | None = None,
    progress: Callable[[TourCount], None] | None = None,
) -> TourCount:
    """Count the tours of a board by CP-SAT enumeration.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: count closed tours (circuits) or open ones (paths).
        start: count only the tours from this cell.
        end: count only the tours to this cell (open tours).
        options: the time limit bounds the count (then ``status`` is ``unknown``).
        progress: called with a partial count about once a second.

    Returns:
        A :class:`~cpknight.results.TourCount`: ``directed`` counts each tour
        in both directions, ``undirected`` once (with a fixed start or end an
        open tour has one direction, and the two are equal).

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input.

    Examples:
        >>> c = count_tours("3x4", closed=False)
        >>> str(c.status), c.directed, c.undirected
        ('found', 16, 8)
        >>> count_tours("4x4").directed
        0
    """
    from cpknight.tours.cpsat import count_tours as count_cpsat

    run = (options or SolveOptions()).start()  # building the graph counts
    instance = _tour_instance(
        board, piece, start, end, closed=closed, purpose="counting tours"
    )
    return count_cpsat(instance, run, progress=progress)


# ------------------------------------------------- search: enumerate, compare


def iter_tours(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "prune",
    options: SolveOptions | None = None,
) -> Iterator[Tour]:
    """Every tour of a board, one checked tour at a time, by backtracking search.

    Open tours with no fixed start are listed from every start cell, each
    directed path once; closed tours as sequences from the start (or the first
    cell of lowest degree), each circuit once per direction.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: closed (circuits) or open (paths) tours.
        start: list only the tours from this cell.
        end: list only the tours to this cell (open tours).
        method: ``'prune'`` (fastest), ``'warnsdorff'`` or ``'backtrack'``.
        options: the time limit bounds the whole enumeration.

    Yields:
        Checked tours; each one's ``effort`` is the search's effort so far.

    Raises:
        SolveLimitError: the time limit was reached (tours already yielded stand).
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input, or a method that does not backtrack.

    Examples:
        >>> tours = list(iter_tours("3x4", closed=False, start="a1"))
        >>> len(tours), all(t.start == (0, 0) for t in tours)
        (2, True)
        >>> sum(1 for _ in iter_tours("5x5", closed=False, start="a1"))  # Jelliss
        304
    """
    from cpknight.tours.search import iter_search_tours

    instance = _tour_instance(board, piece, start, end, closed=closed, purpose="a tour")
    yield from iter_search_tours(instance, (options or SolveOptions()).start(), method)


def try_tour(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    method: str = "auto",
    options: SolveOptions | None = None,
) -> Outcome:
    """Ask one engine for a tour and report whatever happened, timed.

    Like :func:`find_tour`, but "proved none" and "limit reached" come back as
    a :class:`~cpknight.results.TourOutcome` (status ``'infeasible'`` or
    ``'unknown'``) with the effort spent, instead of an exception. This is
    what ``cpknight compare`` and ``cpknight sweep`` run. The time does not
    include importing the engine's module (OR-Tools takes most of a second).

    Raises:
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input (these are not outcomes).

    Examples:
        >>> str(try_tour("4x4", method="prune").status)
        'infeasible'
        >>> o = try_tour("5x5", closed=False, start="a1", method="warnsdorff")
        >>> str(o.status), o.tour is not None, o.effort.backtracks
        ('found', True, 0)
    """
    run = (options or SolveOptions()).start()
    instance = _tour_instance(board, piece, start, end, closed=closed, purpose="a tour")
    return _try_tour(instance, method, run)


def _try_tour(instance: TourInstance, method: str, run: Run) -> Outcome:
    picked: list[str] = []
    try:
        tour = _solve_tour(instance, method, run, picked=picked)
    except OutcomeError as exc:
        return outcome_of_error(
            "tour", exc, run, method=picked[-1] if picked else method
        )
    return outcome_of("tour", tour, run, method=tour.method)


def compare_tours(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = True,
    start: CellLike | None = None,
    end: CellLike | None = None,
    methods: str | Sequence[str] = "all",
    options: SolveOptions | None = None,
) -> Comparison:
    """Every chosen tour engine on one instance, side by side, cross-checked.

    Each engine gets its own clock (the time limit is per engine). An engine
    that does not take the instance (tiles off its boards) is ``refused``.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: closed or open tours.
        start: the first cell, if fixed.
        end: the last cell, if fixed (open tours).
        methods: names in :data:`TOUR_METHODS` or ``'auto'`` (a list, a comma
            string, or ``'all'``).
        options: time limit (per engine), workers, seed.

    Returns:
        A :class:`~cpknight.results.Comparison`: one outcome per engine, each
        found tour checked.

    Raises:
        EngineError: one engine found a tour where another proved none (a bug
            in cpknight).
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input.

    Examples:
        >>> c = compare_tours("5x5", closed=False, start="a1",
        ...                   methods="prune,warnsdorff")
        >>> c.statuses(), c.fastest is not None
        (['found', 'found'], True)
        >>> compare_tours("4x4", methods=["prune", "cpsat"]).statuses()
        ['infeasible', 'infeasible']
    """
    names = _method_names(TOUR_METHODS, methods)
    instance = _tour_instance(board, piece, start, end, closed=closed, purpose="a tour")
    opts = options or SolveOptions()
    rows: list[Outcome] = []
    for name in names:
        run = opts.start()
        try:
            rows.append(_try_tour(instance, name, run))
        except InvalidInputError as exc:
            rows.append(
                Outcome("tour", name, Status.REFUSED, run.elapsed(), reason=str(exc))
            )
    statuses = {o.status for o in rows}
    if Status.FOUND in statuses and Status.INFEASIBLE in statuses:
        raise EngineError(
            "internal error: engines disagree on existence: "
            + ", ".join(f"{o.method} {o.status}" for o in rows)
        )
    return Comparison(
        question="tour",
        instance={
            "board": instance.board.label,
            "piece": list(instance.piece.vector),
            "closed": closed,
            "start": None if instance.start is None else list(instance.start),
            "end": None if instance.end is None else list(instance.end),
            "time_limit": opts.time_limit,
        },
        rows=tuple(rows),
    )


def sweep(
    board: BoardLike,
    *,
    piece: PieceLike = KNIGHT,
    closed: bool = False,
    method: str = "auto",
    options: SolveOptions | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Sweep:
    """For every open start cell: does a tour from it exist? With time and effort.

    Args:
        board: a finite board.
        piece: the leaper.
        closed: closed or open tours (open is the interesting question: on a
            closed tour every cell is a start).
        method: a name in :data:`TOUR_METHODS` or ``'auto'`` (picked per cell).
        options: the time limit applies to each cell.
        jobs: worker processes (1 runs in this process).
        progress: called as ``progress(done, total)`` after each cell.

    Returns:
        A :class:`~cpknight.results.Sweep`, one cell per open cell, row-major.

    Raises:
        InvalidBoardError, InvalidPieceError, InvalidInputError: bad input.

    Examples:
        >>> s = sweep("3x4", method="prune")
        >>> s.counts()
        {'found': 6, 'infeasible': 6, 'unknown': 0}
        >>> str(s["a1"].status), str(s["b1"].status)
        ('found', 'infeasible')
    """
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a sweep")
    if method != "auto":
        TOUR_METHODS.engine(method)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InvalidInputError(f"jobs must be a positive int: {jobs!r}")
    opts = options or SolveOptions()
    cells = list(resolved.open_cells())
    tasks = [(resolved, leaper, closed, method, opts, cell) for cell in cells]
    results: list[SweepCell | None] = [None] * len(tasks)
    if jobs == 1 or len(tasks) < 2:
        for i, task in enumerate(tasks):
            results[i] = _sweep_cell(task)
            if progress is not None:
                progress(i + 1, len(tasks))
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # Spawn, not fork: the parent may hold OR-Tools threads.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = {pool.submit(_sweep_cell, t): i for i, t in enumerate(tasks)}
            for done, future in enumerate(as_completed(futures), start=1):
                results[futures[future]] = future.result()
                if progress is not None:
                    progress(done, len(tasks))
    return Sweep(
        board=resolved,
        piece=leaper,
        closed=closed,
        method=method,
        cells=tuple(r for r in results if r is not None),
    )


def _sweep_cell(
    task: tuple[Board, Leaper, bool, str, SolveOptions, Cell],
) -> SweepCell:
    board, piece, closed, method, options, cell = task
    outcome = try_tour(
        board, piece=piece, closed=closed, start=cell, method=method, options=options
    )
    return SweepCell(
        cell=cell,
        status=outcome.status,
        seconds=outcome.seconds,
        effort=outcome.effort,
        reason=outcome.reason,
    )


# ----------------------------------------------------------------------- routes


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
) -> Route:
    """The snake's meal: the shortest route from ``start`` through every food cell.

    Args:
        board: a finite board.
        start: the first cell.
        food: the cells to visit (repeats ignored).
        end: the required last cell (``end == start`` asks for a closed route).
        piece: the leaper.
        simple: never use a cell twice (default: a walk, cells may repeat).
        method: ``'cpsat'`` (the circuit models), ``'search'`` (Held-Karp for
            the walk, IDA* for the simple route) or ``'greedy'`` (nearest food
            next, the baseline).
        options: time limit, workers, seed.

    Returns:
        A checked :class:`~cpknight.results.Route`: ``status`` is
        ``'optimal'`` (proved) or ``'feasible'`` (best found at the limit, with
        a proved lower ``bound``).

    Raises:
        NoPathError: proved impossible (a food cell or the end unreachable, or
            no simple route).
        SolveLimitError: nothing found by the limit.
        InvalidBoardError, InvalidCellError, InvalidPieceError,
        InvalidInputError: bad input.

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
    run = (options or SolveOptions()).start()
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
    run = (options or SolveOptions()).start()
    instance = _route_instance(board, start, food, end, piece, simple)
    return attempt(engine, instance, run)


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
        food=tuple(resolved.parse_cell(f) for f in food),
        end=None if end is None else resolved.parse_cell(end),
        simple=simple,
    )
