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

import importlib
from collections.abc import Callable
from typing import Any

from cpknight.board import Board, Cell, CellLike, Topology
from cpknight.distance_bfs import bfs_levels, component_labels
from cpknight.errors import InvalidInputError
from cpknight.pieces import KNIGHT, Leaper, MoveGraph, PieceLike, as_piece, move_graph
from cpknight.results import Distance, DistanceMap, Tour
from cpknight.solving import SolveOptions

__all__ = [
    "DISTANCE_METHODS",
    "TOUR_METHODS",
    "BoardLike",
    "choose_tour_method",
    "components",
    "distance_map",
    "find_tour",
    "knight_distance",
    "reachable",
    "resolve",
    "shortest_path",
]

BoardLike = Board | str
"""A :class:`Board` or anything :meth:`Board.parse` reads."""

DISTANCE_METHODS: dict[str, str] = {
    "bfs": "cpknight.distance_bfs:solve_distance",
}
"""Distance methods: name -> ``module:function``, imported on first use."""

TOUR_METHODS: dict[str, str] = {}
"""Tour engines: name -> ``module:function``, imported on first use.

``find_tour(method="auto")`` picks one of them with :func:`choose_tour_method`.
"""


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


def _load(registry: dict[str, str], kind: str, method: str) -> Callable[..., Any]:
    if method not in registry:
        raise InvalidInputError(
            f"expected a {kind} method in {', '.join(registry)}: {method!r}"
        )
    module, _, name = registry[method].partition(":")
    func: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return func


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
    solve = _load(DISTANCE_METHODS, "distance", method)
    resolved, leaper = resolve(board, piece)
    source_cell = resolved.parse_cell(source)
    target_cell = resolved.parse_cell(target)
    result: Distance = solve(
        resolved, leaper, source_cell, target_cell, options=options or SolveOptions()
    )
    return result


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
    return frozenset(
        tuple(int(x) for x in row) for row in graph.cells[levels >= 0].tolist()
    )


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
    groups: dict[int, list[Cell]] = {}
    for label, cell in zip(labels.tolist(), graph.cells.tolist(), strict=True):
        groups.setdefault(label, []).append(tuple(cell))
    return [tuple(groups[k]) for k in sorted(groups)]


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
    if method != "auto":
        _load(TOUR_METHODS, "tour", method)
    resolved, leaper = resolve(board, piece)
    resolved.require_finite("a tour")
    start_cell = None if start is None else resolved.parse_cell(start)
    end_cell = None if end is None else resolved.parse_cell(end)
    if closed and end_cell is not None:
        raise InvalidInputError("a closed tour has no separate end cell; drop 'end'")
    opts = options or SolveOptions()
    graph = move_graph(resolved, leaper)
    if method == "auto":
        method = choose_tour_method(
            graph, closed=closed, start=start_cell, end=end_cell
        )
    solve = _load(TOUR_METHODS, "tour", method)
    tour: Tour = solve(
        graph,
        closed=closed,
        start=start_cell,
        end=end_cell,
        options=opts,
        deadline=opts.deadline(),
    )
    return tour


def choose_tour_method(
    graph: MoveGraph, *, closed: bool, start: Cell | None, end: Cell | None
) -> str:
    """The tour engine ``method='auto'`` uses for an instance.

    Returns:
        A name in :data:`TOUR_METHODS`.

    Raises:
        InvalidInputError: no tour engine is installed.
    """
    for method in ("cpsat",):
        if method in TOUR_METHODS:
            return method
    if TOUR_METHODS:
        return next(iter(TOUR_METHODS))
    raise InvalidInputError("no tour engine is available")
