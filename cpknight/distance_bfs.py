"""The reference: breadth-first search on the move graph, a frontier at a time.

Each BFS level is a handful of numpy operations over the whole frontier (gather
the neighbours through the move table, keep the unseen ones), never a Python loop
per cell: the 1000x1000 knight distance map takes a fraction of a second.

Every other distance method in cpknight is cross-checked against this one.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph(Board.parse("3x3"), "knight")
    >>> bfs_levels(g, g.node((0, 0))).reshape(3, 3).tolist()
    [[0, 3, 2], [3, -1, 1], [2, 1, 4]]
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

from cpknight.board import Board, Cell
from cpknight.errors import NoPathError
from cpknight.pieces import Leaper, MoveGraph, move_graph
from cpknight.results import Distance
from cpknight.solving import SolveOptions

__all__ = ["bfs_levels", "bfs_path", "component_labels", "solve_distance"]

Int32Array = npt.NDArray[np.int32]


def bfs_levels(graph: MoveGraph, source: int, *, target: int = -1) -> Int32Array:
    """The number of moves from node ``source`` to every node (-1: unreachable).

    Args:
        graph: the move graph.
        source: the source node.
        target: stop as soon as this node is reached (its level is then final;
            farther nodes are left at -1). -1 explores everything.

    Returns:
        An int32 array indexed by node.
    """
    dist = np.full(graph.n_nodes, -1, dtype=np.int32)
    dist[source] = 0
    table = graph.table
    frontier = np.array([source], dtype=np.int64)
    level = 0
    while frontier.size and (target < 0 or dist[target] < 0):
        level += 1
        reached = table[frontier].ravel()
        reached = reached[reached >= 0]
        reached = reached[dist[reached] < 0]
        if not reached.size:
            break
        dist[reached] = level
        frontier = np.unique(reached).astype(np.int64)
    return dist


def bfs_path(graph: MoveGraph, source: int, target: int) -> list[int] | None:
    """One shortest path of nodes from ``source`` to ``target``, or ``None``.

    The path is the same every time: walking back from the target, the
    lowest-numbered neighbour one level closer is taken.
    """
    dist = bfs_levels(graph, target, target=source)
    if dist[source] < 0:
        return None
    path = [source]
    node = source
    while node != target:
        nbrs = graph.neighbors(node)
        closer = nbrs[dist[nbrs] == dist[node] - 1]
        node = int(closer[0])
        path.append(node)
    return path


def component_labels(graph: MoveGraph) -> Int32Array:
    """The connected component of each node, numbered 0, 1, ... in node order.

    The move graph is symmetric (every move can be undone), so reachability is
    the same as lying in the same component.
    """
    labels = np.full(graph.n_nodes, -1, dtype=np.int32)
    table = graph.table
    count = 0
    for node in range(graph.n_nodes):
        if labels[node] >= 0:
            continue
        labels[node] = count
        frontier = np.array([node], dtype=np.int64)
        while frontier.size:
            reached = table[frontier].ravel()
            reached = reached[reached >= 0]
            reached = reached[labels[reached] < 0]
            labels[reached] = count
            frontier = np.unique(reached).astype(np.int64)
        count += 1
    return labels


def solve_distance(
    board: Board,
    piece: Leaper,
    source: Cell,
    target: Cell,
    *,
    options: SolveOptions,
) -> Distance:
    """The ``bfs`` distance method (see :func:`cpknight.knight_distance`).

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        NoPathError: the target cannot be reached.
    """
    started = time.perf_counter()
    board.require_finite("method 'bfs'")
    graph = move_graph(board, piece)
    nodes = bfs_path(graph, graph.node(source), graph.node(target))
    if nodes is None:
        raise NoPathError(
            f"{board.cell_name(target)} cannot be reached from "
            f"{board.cell_name(source)} by the {piece.label} on board {board.label}"
        )
    path = tuple(graph.cell(n) for n in nodes)
    return Distance(
        board=board,
        piece=piece,
        source=source,
        target=target,
        distance=len(path) - 1,
        path=path,
        method="bfs",
        exact=True,
        seconds=time.perf_counter() - started,
    )
