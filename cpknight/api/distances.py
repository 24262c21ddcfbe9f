"""Front doors for distances and reachability: maps, single queries, comparisons."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cpknight.api.common import (
    BoardLike,
    attempt_or_refuse,
    cell_tuples,
    each_engine,
    graph_and_cell,
    listen_to_solve,
    method_names,
    resolve,
    solve_options,
)
from cpknight.board import Board, Cell, CellLike
from cpknight.distances import ENGINES as DISTANCE_METHODS
from cpknight.distances.instance import DistanceInstance
from cpknight.distances.maps import distance_map_json as distance_map_json
from cpknight.distances.quick import (
    MAX_COORDINATE as MAX_COORDINATE,  # its old home: the plane's largest coordinate
)
from cpknight.distances.quick import (
    BoardTable,
    quick_distance,
    quick_table,
    refuse_long_path,
)
from cpknight.engines import solve_with
from cpknight.errors import EngineError
from cpknight.graph import bfs_levels, component_labels
from cpknight.graph.traversal import board_levels, padded_shape
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    PieceLike,
    graph_bytes,
    move_graph,
)
from cpknight.results import (
    Distance,
    Outcome,
)
from cpknight.runtime.memory import refuse_over_budget
from cpknight.runtime.progress import ProgressLike, progress_bar
from cpknight.solving import SolveOptions
from cpknight.status import Status

if TYPE_CHECKING:
    from cpknight.results import Comparison, DistanceMap

MAP_CELL_BYTES = 4
"""What a distance map holds per cell of the padded board at its peak: the
levels (``int32``); the frontier is a thin band beside them. No move graph is
built (:func:`~cpknight.graph.traversal.board_levels`; measured: 2000x2000 in
12 MB over start-up, the estimate 16 MB)."""

MAP_GRAPH_CELL_BYTES = 16
"""What a distance map holds per cell beside the move graph when it searches
the graph (a wrapped board, a leap too long to pad; measured: 2000x2000, 520
MB of graph, 510 MB at the peak)."""


def map_bytes(board: Board, piece: Leaper) -> int:
    """The estimate a distance map is refused against (bytes at its peak)."""
    padded = padded_shape(board, piece)
    if padded is None:
        return graph_bytes(board, piece) + MAP_GRAPH_CELL_BYTES * board.n_open
    return MAP_CELL_BYTES * math.prod(padded)


REACH_CELL_BYTES = 160
"""What reachability holds per cell beside the move graph (the cells as tuples;
measured: 2000x2000, 520 MB of graph, 1,050 MB at the peak)."""


def distance_map(
    board: BoardLike,
    source: CellLike,
    *,
    piece: PieceLike = KNIGHT,
    time_limit: float | None = None,
) -> DistanceMap:
    """The number of moves from ``source`` to every cell, by BFS.

    Args:
        board: a finite board.
        source: the source cell.
        piece: the leaper.
        time_limit: seconds for the BFS (None: none).

    Returns:
        The distance map (``m[cell]`` is an int, or ``None`` when unreachable).

    Raises:
        InvalidBoardError: a bad board, or the unbounded plane.
        InvalidCellError: the source is not an open cell.
        InvalidPieceError: a bad piece.
        ModelTooBigError: the graph and the map are estimated over the
            memory budget (:mod:`cpknight.runtime.memory`).
        SolveLimitError: the time limit passed.

    Notes:
        No move graph is built: the BFS steps over the board padded by the
        piece's longest leap (:func:`~cpknight.graph.traversal.board_levels`),
        a few numpy passes a level: 1000x1000 in about 50 ms.

    Examples:
        >>> m = distance_map("8x8", "a1")
        >>> m["b2"], m[(7, 7)], m.max_distance
        (4, 6, 6)
        >>> distance_map("3x3", "a1")["b2"] is None
        True
    """
    run = solve_options(None, time_limit).start()
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a distance map")
    source_cell = resolved.parse_cell(source)
    refuse_over_budget(
        map_bytes(resolved, leaper),
        f"a distance map of the {leaper.label} on {resolved.label} "
        f"({resolved.n_open:,} cells)",
        "try a smaller board",
    )
    array = board_levels(resolved, leaper, source_cell, check=run.check)
    array.setflags(write=False)
    from cpknight.results.maps import DistanceMap

    return DistanceMap(resolved, leaper, source_cell, array)


def knight_distance(
    board: BoardLike,
    source: CellLike,
    target: CellLike,
    *,
    piece: PieceLike = KNIGHT,
    method: str = "auto",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
) -> Distance:
    """The fewest moves from ``source`` to ``target``, by the chosen method.

    Args:
        board: the board (``plane`` for the unbounded board, where the method
            allows it).
        source: the source cell.
        target: the target cell.
        piece: the leaper.
        method: a name in :data:`DISTANCE_METHODS` (``'bfs'`` is the
            reference), or ``'auto'``: :func:`choose_distance_method`.
        options: time limit and solver settings, for the integer programs.
        time_limit: seconds, model building included (replaces the
            one in ``options``).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` now and then.

    Returns:
        A :class:`~cpknight.results.Distance`: ``int(d)`` is the number of moves;
        ``d.path`` one shortest path; ``d.exact`` whether it is exact or a bound.

    Notes:
        With ``method='auto'`` and no options, time limit or progress, the
        answer is read from the board's kept tables
        (:mod:`cpknight.distances.quick`): on a finite board of up to 65,536
        cells the ``bfs`` method's answer (the same distance and path), from
        the BFS tree toward the target, made and certified on the first query
        toward it; on the plane the knight's closed form. A loop over every
        pair of 8x8 then costs under 2x python-chess's
        ``square_knight_distance`` (``benchmarks/doors.py``).

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
    if method == "auto" and options is None and time_limit is None and not progress:
        # The quick path: the board's kept tables (cpknight.distances.quick),
        # the same answer as the method auto picks, verified when the table
        # toward the target was made.
        answer = quick_distance(board, source, target, piece)
        if answer is not None:
            return answer
    instance = _distance_instance(board, piece, source, target)
    if method == "auto":
        method = choose_distance_method(instance.board, instance.piece)
    engine = DISTANCE_METHODS.engine(method)
    opts = solve_options(options, time_limit)
    with progress_bar(progress, desc=method, unit="s", total=opts.time_limit) as tick:
        run = opts.start()
        listen_to_solve(run, tick)
        result: Distance = solve_with(engine, instance, run)
    return result


def choose_distance_method(board: Board, piece: Leaper) -> str:
    """The distance method ``'auto'`` picks for a board and piece.

    BFS on a finite board; on the plane a method that takes it (BFS cannot):
    the knight's formula in 2D, else the move-count IP.

    Examples:
        >>> from cpknight.pieces import as_piece
        >>> choose_distance_method(Board.parse("8x8"), KNIGHT)
        'bfs'
        >>> choose_distance_method(Board.parse("plane"), KNIGHT)
        'formula'
        >>> choose_distance_method(Board.parse("plane"), as_piece("1,3"))
        'ip'
    """
    if not board.unbounded:
        return "bfs"
    return "formula" if board.dim == 2 and piece.vector == KNIGHT.vector else "ip"


def _distance_instance(
    board: BoardLike, piece: PieceLike, source: CellLike, target: CellLike
) -> DistanceInstance:
    resolved, leaper = resolve(board, piece)
    instance = DistanceInstance(
        resolved,
        leaper,
        source=resolved.parse_cell(source),
        target=resolved.parse_cell(target),
    )
    if resolved.unbounded:
        _refuse_long_path(instance)
    return instance


def _refuse_long_path(instance: DistanceInstance) -> None:
    """Refuse a plane path too long to hold, from the target's digits alone."""
    refuse_long_path(instance.board, instance.piece, instance.source, instance.target)


def compare_distances(
    board: BoardLike,
    source: CellLike,
    target: CellLike,
    *,
    piece: PieceLike = KNIGHT,
    methods: str | Sequence[str] = "all",
    options: SolveOptions | None = None,
    time_limit: float | None = None,
    progress: ProgressLike = None,
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
        time_limit: seconds, model building included (replaces the
            one in ``options``).
        progress: ``True`` for a progress bar (``tqdm.auto``), or a callback
            called with a :class:`~cpknight.runtime.progress.Progress` now and then.

    Returns:
        A :class:`~cpknight.results.Comparison`, one outcome per method.

    Raises:
        EngineError: two methods disagree (exact distances differ, or a lower
            bound exceeds an exact distance): a bug in cpknight.
        InvalidBoardError, InvalidCellError, InvalidPieceError, InvalidInputError:
            bad input.

    Examples:
        >>> c = compare_distances("8x8", "a1", "b2", methods="bfs,formula")
        >>> [(o.method, o.value.distance) for o in c.rows]
        [('bfs', 4), ('formula', 4)]
        >>> compare_distances("plane", "0,0", "3,3", methods="bfs,formula").statuses()
        ['refused', 'found']
    """
    names = method_names(DISTANCE_METHODS, methods)
    instance = _distance_instance(board, piece, source, target)
    opts = solve_options(options, time_limit)
    bar = progress_bar(progress, desc="distance", unit="engines", total=len(names))
    with bar as tick:
        rows = tuple(
            each_engine(
                "distance",
                names,
                opts,
                lambda name, run: attempt_or_refuse(
                    DISTANCE_METHODS.engine(name), instance, run
                ),
                tick,
            )
        )
    _check_agreement(rows)
    from cpknight.results.comparisons import Comparison

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


def _check_agreement(rows: Sequence[Outcome]) -> None:
    """Refuse distance methods that disagree: a bug in cpknight.

    Exact distances must be equal, no bound may exceed an exact distance, and
    no method may find a distance another proved impossible.
    """
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
    quick = quick_table(board, piece)
    if isinstance(quick, BoardTable):
        result = quick.distance(source, target)
    else:
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
    quick = quick_table(board, piece)
    if isinstance(quick, BoardTable):
        cells = quick.reachable(source)
        if cells is not None:
            return cells
    graph, source_cell = graph_and_cell(board, piece, source, "reachability")
    levels = bfs_levels(graph, graph.node(source_cell))
    return frozenset(cell_tuples(graph.cells[levels >= 0]))


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
    cells = cell_tuples(graph.cells[order])
    count = int(labels.max()) + 1 if labels.size else 0
    bounds = labels[order].searchsorted(list(range(count + 1))).tolist()
    return [tuple(cells[bounds[k] : bounds[k + 1]]) for k in range(count)]


def reach_split(
    board: BoardLike,
    source: CellLike,
    *,
    piece: PieceLike = KNIGHT,
    time_limit: float | None = None,
) -> tuple[list[Cell], list[Cell], list[int]]:
    """Reachable and unreachable cells and the component sizes, from one labelling.

    The move graph is symmetric, so the cells reachable from ``source`` are its
    component: one pass of :func:`~cpknight.graph.component_labels`
    answers all three questions.

    Returns:
        The reachable cells and the unreachable open cells (both row-major),
        and the size of every component in the order of its first cell.

    Raises:
        ModelTooBigError: the graph and the cells are estimated over the
            memory budget (:mod:`cpknight.runtime.memory`).
        SolveLimitError: ``time_limit`` (seconds) passed.

    Examples:
        >>> reach, rest, sizes = reach_split("3x3", "a1")
        >>> len(reach), rest, sizes
        (8, [(1, 1)], [8, 1])
    """
    run = solve_options(None, time_limit).start()
    graph, cell = graph_and_cell(
        board, piece, source, "reachability", run=run, cell_bytes=REACH_CELL_BYTES
    )
    labels = component_labels(graph, check=run.check)
    mine = labels == labels[graph.node(cell)]
    sizes = np.bincount(labels).tolist() if labels.size else []
    return cell_tuples(graph.cells[mine]), cell_tuples(graph.cells[~mine]), sizes
