"""Front doors for distances and reachability: maps, single queries, comparisons."""

from __future__ import annotations

from collections.abc import Sequence

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
from cpknight.engines import (
    DistanceInstance,
    solve_with,
)
from cpknight.errors import (
    EngineError,
    InvalidCellError,
)
from cpknight.graph import bfs_levels, component_labels
from cpknight.pieces import KNIGHT, Leaper, PieceLike, move_graph
from cpknight.results import (
    Comparison,
    Distance,
    DistanceMap,
    Outcome,
)
from cpknight.runtime.memory import path_bytes, refuse_over_budget
from cpknight.runtime.progress import ProgressLike, progress_bar
from cpknight.solving import SolveOptions
from cpknight.status import Status

MAP_CELL_BYTES = 16
"""What a distance map holds per cell beside the move graph (its levels and
its array; measured: 2000x2000, 520 MB of graph, 510 MB at the peak)."""

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
        time_limit: seconds for building the graph and the BFS (None: none).

    Returns:
        The distance map (``m[cell]`` is an int, or ``None`` when unreachable).

    Raises:
        InvalidBoardError: a bad board, or the unbounded plane.
        InvalidCellError: the source is not an open cell.
        InvalidPieceError: a bad piece.
        ModelTooBigError: the graph and the map are estimated over the
            memory budget (:mod:`cpknight.runtime.memory`).
        SolveLimitError: the time limit passed.

    Examples:
        >>> m = distance_map("8x8", "a1")
        >>> m["b2"], m[(7, 7)], m.max_distance
        (4, 6, 6)
        >>> distance_map("3x3", "a1")["b2"] is None
        True
    """
    run = solve_options(None, time_limit).start()
    graph, source_cell = graph_and_cell(
        board, piece, source, "a distance map", run=run, cell_bytes=MAP_CELL_BYTES
    )
    levels = bfs_levels(graph, graph.node(source_cell), check=run.check)
    array = graph.node_of.copy()
    open_cells = array >= 0
    array[open_cells] = levels[array[open_cells]]
    array[~open_cells] = DistanceMap.BLOCKED
    array.setflags(write=False)
    return DistanceMap(graph.board, graph.piece, source_cell, array)


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


MAX_COORDINATE = 10**15
"""The largest coordinate a plane distance takes (the solvers count in 64 bits)."""


def _refuse_long_path(instance: DistanceInstance) -> None:
    """Refuse a plane path too long to hold, from the target's digits alone.

    Each move changes a coordinate by at most the piece's largest component,
    so the path has at least ``max |target - source| / largest`` moves.
    """
    reach = max(int(x) for x in instance.piece.vector)
    gap = max(abs(t - s) for s, t in zip(instance.source, instance.target, strict=True))
    far = max(abs(x) for x in (*instance.source, *instance.target))
    if far > MAX_COORDINATE:
        raise InvalidCellError(
            f"a coordinate of {far:,} is past {MAX_COORDINATE:,}: the move counts "
            "are 64-bit integers"
        )
    moves = -(-gap // reach)
    refuse_over_budget(
        path_bytes(moves + 1),
        f"a shortest path of the {instance.piece.label} from "
        f"{_text(instance.source)} to {_text(instance.target)} "
        f"(at least {moves:,} moves)",
        "ask for a nearer target",
    )


def _text(cell: Sequence[int]) -> str:
    return ",".join(str(x) for x in cell)


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
