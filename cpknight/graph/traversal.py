"""Traversals every engine may reuse: BFS levels and paths, components.

Each BFS level is a handful of numpy operations over the whole frontier (gather
the neighbours through the move table, keep the unseen ones), never a Python loop
per cell: the 1000x1000 knight distance map takes a fraction of a second. The
reference distance method (:mod:`cpknight.distances.bfs`), the certificates, the
route engines and the front doors all read these.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph(Board.parse("3x3"), "knight")
    >>> bfs_levels(g, g.node((0, 0))).reshape(3, 3).tolist()
    [[0, 3, 2], [3, -1, 1], [2, 1, 4]]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    Int32Array = npt.NDArray[np.int32]

from cpknight.board import Board, Cell
from cpknight.errors import NoPathError
from cpknight.pieces import Leaper, MoveGraph, move_graph

__all__ = [
    "arc_bound",
    "bfs_levels",
    "bfs_path",
    "board_levels",
    "component_labels",
    "next_hops",
    "no_path_error",
    "path_from_levels",
    "two_colours",
]

CHECK_NODES = 1 << 14
"""Nodes a traversal in Python visits between two looks at the clock."""


def bfs_levels(
    graph: MoveGraph,
    source: int,
    *,
    target: int = -1,
    check: Callable[[str], None] | None = None,
) -> Int32Array:
    """The number of moves from node ``source`` to every node (-1: unreachable).

    Args:
        graph: the move graph.
        source: the source node.
        target: stop as soon as this node is reached (its level is then final;
            farther nodes are left at -1). -1 explores everything.
        check: called once per level (such as ``run.check``).

    Returns:
        An int32 array indexed by node.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"), "knight")
        >>> levels = bfs_levels(g, g.node((0, 0)))
        >>> int(levels.max()), int(levels[g.node((7, 7))])
        (6, 6)
    """
    n = graph.n_nodes
    # One spare entry at the end, marked as seen: the table's -1 (no move)
    # reads it, so no separate filter for missing moves is needed.
    dist = np.full(n + 1, -1, dtype=np.int32)
    dist[n] = 0
    dist[source] = 0
    table = graph.table
    stamp = np.empty(n, dtype=np.intp)
    frontier = np.array([source], dtype=np.int32)
    level = 0
    while frontier.size and (target < 0 or dist[target] < 0):
        if check is not None:
            check("searching the move graph")
        level += 1
        reached = table.take(frontier, axis=0).ravel()
        reached = reached[dist.take(reached) < 0]
        if not reached.size:
            break
        dist[reached] = level
        frontier = _distinct(reached, stamp)
    levels: Int32Array = dist[:n]
    return levels


def board_levels(
    board: Board,
    piece: Leaper,
    source: Cell,
    *,
    check: Callable[[str], None] | None = None,
) -> Int32Array:
    """The number of moves from ``source`` to every cell, board-shaped, by BFS.

    -1 where a cell cannot be reached, -2 where it is blocked: the array of a
    :class:`~cpknight.results.DistanceMap`. No move graph is built: the board
    is padded on every side by the piece's longest leap, the padding marked
    blocked, so that a move is one constant shift of a cell's flat index and
    needs no bounds check; each BFS level is a few numpy passes per move over
    the frontier. A board that wraps, or whose padding would more than double
    it, is searched on its move graph (:func:`bfs_levels`) instead.

    Args:
        board: a finite board.
        piece: the leaper.
        source: an open cell.
        check: called once per level (such as ``run.check``).

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> board_levels(Board.parse("3x3"), KNIGHT, (0, 0)).tolist()
        [[0, 3, 2], [3, -1, 1], [2, 1, 4]]
        >>> board_levels(Board((2, 3), [(1, 1)]), KNIGHT, (0, 0)).tolist()
        [[0, -1, -1], [-1, -2, 1]]
    """
    shape = board.shape
    padded = padded_shape(board, piece)
    if padded is None:
        return _levels_on_graph(board, piece, source, check)
    reach = (padded[0] - shape[0]) // 2
    strides = [math.prod(padded[axis + 1 :]) for axis in range(len(padded))]
    shifts = piece.shifts(board.dim, strides)
    dist = np.full(padded, -2, dtype=np.int32)
    inner = tuple(slice(reach, reach + side) for side in shape)
    if board.blocked:
        dist[inner][board.open_mask] = -1
    else:
        dist[inner] = -1
    flat = dist.reshape(-1)
    start = sum((x + reach) * s for x, s in zip(source, strides, strict=True))
    flat[start] = 0
    frontier = np.array([start], dtype=np.intp)
    level = 0
    while frontier.size:
        if check is not None:
            check("searching the board")
        level += 1
        found = []
        for shift in shifts:
            reached = frontier + shift
            reached = reached[flat.take(reached) == -1]
            flat[reached] = level
            found.append(reached)
        frontier = np.concatenate(found)
    levels: Int32Array = np.ascontiguousarray(dist[inner])
    return levels


def padded_shape(board: Board, piece: Leaper) -> tuple[int, ...] | None:
    """The shape :func:`board_levels` pads the board to, or ``None``.

    Padded on every side by the piece's longest leap; ``None`` where it searches
    the move graph instead (a board that wraps, or whose padding would more
    than double it).

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> padded_shape(Board.parse("8x8"), KNIGHT)
        (12, 12)
        >>> padded_shape(Board.parse("8x8", topology="torus"), KNIGHT) is None
        True
    """
    reach = max(int(x) for x in piece.vector)
    padded = tuple(side + 2 * reach for side in board.shape)
    if any(board.wrap) or math.prod(padded) > 2 * math.prod(board.shape) + 4096:
        return None
    return padded


def _levels_on_graph(
    board: Board, piece: Leaper, source: Cell, check: Callable[[str], None] | None
) -> Int32Array:
    """:func:`board_levels` by BFS on the move graph (wrapped boards, long leaps)."""
    graph = move_graph(board, piece, check=check)
    levels = bfs_levels(graph, graph.node(source), check=check)
    array = graph.node_of.copy()
    open_cells = array >= 0
    array[open_cells] = levels[array[open_cells]]
    array[~open_cells] = -2
    return array


def bfs_path(graph: MoveGraph, source: int, target: int) -> list[int] | None:
    """One shortest path of nodes from ``source`` to ``target``, or ``None``.

    The path is the same every time: with the levels measured from the target,
    the walk from the source takes, at each cell, the first neighbour in move
    order that is one move closer.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"), "knight")
        >>> path = bfs_path(g, g.node((0, 0)), g.node((1, 1)))
        >>> [g.cell(n) for n in path]
        [(0, 0), (2, 1), (4, 2), (3, 0), (1, 1)]
        >>> g3 = move_graph(Board.parse("3x3"), "knight")
        >>> bfs_path(g3, 0, 4) is None
        True
    """
    dist = bfs_levels(graph, target, target=source)
    if dist[source] < 0:
        return None
    return path_from_levels(graph, dist, source)


def path_from_levels(graph: MoveGraph, levels: Int32Array, source: int) -> list[int]:
    """Walk down BFS ``levels`` from node ``source`` to the level-0 node.

    ``levels`` are measured from the target (as :func:`bfs_levels` returns
    them, complete or stopped once ``source`` was reached); at each cell the
    walk takes the first neighbour in move order that is one move closer, so
    it is the path :func:`bfs_path` returns. Reusing one level array from a
    target gives a shortest path to it from every source, without another BFS.

    Raises:
        ValueError: ``source`` is unreachable (level -1).

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"), "knight")
        >>> levels = bfs_levels(g, g.node((1, 1)))
        >>> [g.cell(n) for n in path_from_levels(g, levels, g.node((0, 0)))]
        [(0, 0), (2, 1), (4, 2), (3, 0), (1, 1)]
    """
    if levels[source] < 0:
        raise ValueError(f"node {source} is unreachable: no path to walk down")
    path = [source]
    node = source
    while levels[node] > 0:
        nbrs = graph.neighbors(node)
        closer = nbrs[levels[nbrs] == levels[node] - 1]
        node = int(closer[0])
        path.append(node)
    return path


def next_hops(graph: MoveGraph, levels: Int32Array) -> Int32Array:
    """Each node's step toward the level-0 node: the walk of :func:`path_from_levels`.

    For every node of level ``k > 0``, the first neighbour in move order of
    level ``k - 1``; -1 for the level-0 node and the unreachable ones. Following
    the hops from a node gives the path :func:`path_from_levels` walks (and so
    :func:`bfs_path`), for every source at once, in a few numpy passes.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> g = move_graph(Board.parse("8x8"), "knight")
        >>> hops = next_hops(g, bfs_levels(g, g.node((1, 1))))
        >>> node, path = g.node((0, 0)), [(0, 0)]
        >>> while hops[node] >= 0:
        ...     node = int(hops[node])
        ...     path.append(g.cell(node))
        >>> path
        [(0, 0), (2, 1), (4, 2), (3, 0), (1, 1)]
    """
    n = graph.n_nodes
    table = graph.table
    # One spare entry: the table's -1 (no move) reads it, and it matches no level.
    near = np.empty(n + 1, dtype=np.int32)
    near[:n] = levels
    near[n] = -3
    closer = near.take(table) == (levels - 1)[:, None]
    first = closer.argmax(axis=1)
    rows = np.arange(n)
    hops: Int32Array = table[rows, first].astype(np.int32)
    hops[~closer[rows, first] | (levels <= 0)] = -1
    return hops


def component_labels(
    graph: MoveGraph, check: Callable[[str], None] | None = None
) -> Int32Array:
    """The connected component of each node, numbered 0, 1, ... in node order.

    The move graph is symmetric (every move can be undone), so reachability is
    the same as lying in the same component. ``check`` (such as ``run.check``)
    is called once per BFS level.

    Notes:
        The first few components are found by BFS, a frontier at a time. Past
        those, the rest of the graph (typically many small components, such as
        a long leaper's isolated cells) is labelled all at once by hooking
        trees and jumping pointers, never a Python loop per component.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import move_graph
        >>> component_labels(move_graph(Board.parse("3x3"), "knight")).tolist()
        [0, 0, 0, 0, 1, 0, 0, 0, 0]
    """
    n = graph.n_nodes
    labels = np.full(n, -1, dtype=np.int32)
    table = graph.table
    stamp = np.empty(n, dtype=np.intp)
    count = 0
    node = 0
    while node < n and count < _BFS_COMPONENTS:
        labels[node] = count
        frontier = np.array([node], dtype=np.int32)
        while frontier.size:
            if check is not None:
                check("labelling the components")
            reached = table[frontier].ravel()
            reached = reached[reached >= 0]
            reached = reached[labels[reached] < 0]
            labels[reached] = count
            frontier = _distinct(reached, stamp)
        count += 1
        unlabelled = np.flatnonzero(labels[node:] < 0)
        node = node + int(unlabelled[0]) if unlabelled.size else n
    if node < n:
        rest = np.flatnonzero(labels < 0).astype(np.int32)
        roots = _hook_roots(table, rest)
        labels[rest] = count + np.unique(roots, return_inverse=True)[1].ravel()
    return labels


_BFS_COMPONENTS = 32
"""How many components :func:`component_labels` finds by BFS before hooking."""


def _hook_roots(table: Int32Array, nodes: Int32Array) -> Int32Array:
    """The smallest node of each node's component, for a union of components.

    Every edge hooks the larger of its two roots under the smaller (which of
    several candidates wins does not matter: roots only decrease, so no cycle
    forms), then pointer jumping flattens the trees; repeat until every edge
    joins two nodes of one root.
    """
    parent = np.arange(table.shape[0], dtype=np.int32)
    tails = np.repeat(nodes, table.shape[1])
    heads = table[nodes].ravel()
    keep = tails < heads  # each edge once; drops the -1 entries
    tails, heads = tails[keep], heads[keep]
    while tails.size:
        above, below = parent[tails], parent[heads]
        apart = above != below
        tails, heads, above, below = (
            tails[apart],
            heads[apart],
            above[apart],
            below[apart],
        )
        parent[np.maximum(above, below)] = np.minimum(above, below)
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
    roots: Int32Array = parent[nodes]
    return roots


def _distinct(nodes: Int32Array, stamp: npt.NDArray[np.intp]) -> Int32Array:
    """``nodes`` without repeats, without sorting (linear time, not n log n).

    ``stamp`` is scratch space of one entry per node; only the entries of
    ``nodes`` are written and read, so it need not be cleared between calls.
    Whichever position of a repeated node its stamp ends up holding, exactly
    one copy of that node matches it.
    """
    order = np.arange(nodes.size)
    stamp[nodes] = order
    result: Int32Array = nodes[stamp.take(nodes) == order]
    return result


def no_path_error(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    what: str = "",
    why: str = "",
) -> NoPathError:
    """The error for a target the piece cannot reach, in the words of every method.

    Args:
        board: the board.
        piece: the leaper.
        source: where the piece starts.
        target: the cell it cannot reach.
        what: a word for the target (``'food'``, ``'end'``), if any.
        why: the proof, in brackets after the message, if any.

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> print(no_path_error(Board.parse("3x3"), KNIGHT, (0, 0), (1, 1),
        ...                     why="b2 has no moves"))
        b2 cannot be reached from a1 by the knight (1,2) on board 3x3 (b2 has no moves)
    """
    subject = f"{what} " if what else ""
    reason = f" ({why})" if why else ""
    return NoPathError(
        f"{subject}{board.cell_name(target)} cannot be reached from "
        f"{board.cell_name(source)} by the {piece.label} on board {board.label}"
        + reason
    )


def arc_bound(board: Board, piece: Leaper) -> int:
    """The arcs of the move graph, from the shape alone (exact with no blocked cell).

    A move ``v`` leaves a cell on the board along a bounded axis of length
    ``s`` from ``s - |v|`` cells; along a wrapped one from all ``s``. Blocked
    cells only take arcs away, so this bounds what any model of the graph
    holds before a single array is made.

    Examples:
        >>> from cpknight.pieces import Leaper
        >>> arc_bound(Board((8, 8)), Leaper((1, 2)))
        336
        >>> arc_bound(Board((1, 10**6)), Leaper((1, 2)))
        0
    """
    total = 0
    for vector in piece.moves(board.dim).tolist():
        total += math.prod(
            size if wraps else max(0, size - abs(step))
            for size, step, wraps in zip(board.shape, vector, board.wrap, strict=True)
        )
    return total


def two_colours(
    graph: MoveGraph, check: Callable[[], None] | None = None
) -> list[int] | None:
    """A 2-colouring of the move graph (0/1 per node), or ``None`` if it has none.

    Each component's first node has colour 0 (a bipartite component has only
    these two colourings), so every caller reads the same one. ``check`` (the
    run's clock) is called every :data:`CHECK_NODES` nodes coloured.

    Examples:
        >>> from cpknight.pieces import move_graph
        >>> two_colours(move_graph("3x3"))
        [0, 1, 0, 1, 0, 1, 0, 1, 0]
        >>> two_colours(move_graph(Board.parse("5x5", topology="torus"))) is None
        True
    """
    colour = [-1] * graph.n_nodes
    indptr, indices = graph.indptr.tolist(), graph.indices.tolist()
    done = 0
    for root in range(graph.n_nodes):
        if colour[root] >= 0:
            continue
        colour[root] = 0
        stack = [root]
        while stack:
            u = stack.pop()
            done += 1
            if check is not None and done % CHECK_NODES == 0:
                check()
            for v in indices[indptr[u] : indptr[u + 1]]:
                if colour[v] < 0:
                    colour[v] = 1 - colour[u]
                    stack.append(v)
                elif colour[v] == colour[u]:
                    return None
    return colour
