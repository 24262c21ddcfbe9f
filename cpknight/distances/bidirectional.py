"""Distance by bidirectional BFS: two frontiers, from the source and the target, meet.

One level of the smaller frontier at a time, each level one vectorised gather
over the move graph's CSR arrays. On a board of ``N`` cells where the answer is
``d`` moves, plain BFS from the source labels every cell up to ``d`` moves away;
two searches of radius ``d / 2`` label far fewer (on an open board about half:
the areas of two discs of radius d/2 against one of radius d).

Correctness: before a level is expanded no cell is labelled from both sides, so
the distance ``D`` is more than ``a + b`` (the two radii). The level just
expanded labels cells with ``a + 1`` moves from its side; those already labelled
from the other side have ``b' <= b`` moves to go, so ``D <= a + 1 + b'``, and
the smallest such ``b'`` gives ``D`` exactly.

Examples:
    >>> from cpknight import knight_distance
    >>> d = knight_distance("8x8", "a1", "h8", method="bidirectional")
    >>> d.distance, d.path[0], d.path[-1]
    (6, (0, 0), (7, 7))
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cpknight.checks import make_distance
from cpknight.distances.instance import DistanceInstance
from cpknight.graph import no_path_error
from cpknight.pieces import MoveGraph
from cpknight.results import Distance
from cpknight.solving import Run
from cpknight.status import Effort

__all__ = ["solve"]

Nodes = npt.NDArray[np.int64]


def solve(instance: DistanceInstance, run: Run) -> Distance:
    """The ``bidirectional`` distance method (see :func:`cpknight.knight_distance`).

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        NoPathError: the target cannot be reached.
        SolveLimitError: the time limit was reached (with the moves scanned).
    """
    graph = instance.graph
    source, target = graph.node(instance.source), graph.node(instance.target)
    level = [np.full(graph.n_nodes, -1, np.int64) for _ in range(2)]
    parent = [np.full(graph.n_nodes, -1, np.int64) for _ in range(2)]
    frontier = [np.array([source]), np.array([target])]
    level[0][source] = level[1][target] = 0
    scanned = 0
    meet = source if source == target else -1
    while meet < 0:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        if len(frontier[side]) == 0:
            raise no_path_error(
                graph.board, graph.piece, instance.source, instance.target
            )
        run.check("searching from both ends", effort=Effort(attempts=scanned))
        reached, count = _expand(graph, frontier[side], level[side], parent[side])
        scanned += count
        frontier[side] = reached
        other = level[1 - side][reached]
        if (other >= 0).any():
            meet = int(reached[np.argmin(np.where(other >= 0, other, np.inf))])
    path = _walk(parent[0], meet)[::-1] + _walk(parent[1], meet)[1:]
    return make_distance(
        graph.board,
        graph.piece,
        instance.source,
        instance.target,
        [graph.cell(n) for n in path],
        method="bidirectional",
        started=run.clock.started,
        details={"scanned": scanned},
    )


def _expand(
    graph: MoveGraph, frontier: Nodes, level: Nodes, parent: Nodes
) -> tuple[Nodes, int]:
    """Label the unlabelled neighbours of ``frontier``; return them and arcs scanned."""
    starts = graph.indptr[frontier].astype(np.int64)
    counts = graph.indptr[frontier + 1] - starts
    total = int(counts.sum())
    offsets = np.repeat(starts - np.cumsum(counts) + counts, counts)
    heads = graph.indices[offsets + np.arange(total)].astype(np.int64)
    tails = np.repeat(frontier, counts)
    fresh = level[heads] < 0
    heads, first = np.unique(heads[fresh], return_index=True)
    level[heads] = level[frontier[0]] + 1
    parent[heads] = tails[fresh][first]
    return heads, total


def _walk(parent: Nodes, node: int) -> list[int]:
    """The nodes from ``node`` back to the search's root, ``node`` first."""
    path = [node]
    while parent[path[-1]] >= 0:
        path.append(int(parent[path[-1]]))
    return path
