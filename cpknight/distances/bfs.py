"""The reference distance method: breadth-first search on the move graph.

Every other distance method in cpknight is cross-checked against this one.

Examples:
    >>> from cpknight import knight_distance
    >>> d = knight_distance("8x8", "a1", "h8", method="bfs")
    >>> d.distance, d.method, d.exact, len(d.path)
    (6, 'bfs', True, 7)
"""

from __future__ import annotations

from cpknight.checks import make_distance
from cpknight.distances.instance import DistanceInstance
from cpknight.graph import bfs_path, no_path_error
from cpknight.results import Distance
from cpknight.solving import Run

__all__ = ["solve"]


def solve(instance: DistanceInstance, run: Run) -> Distance:
    """The ``bfs`` distance method (see :func:`cpknight.knight_distance`).

    Raises:
        InvalidBoardError: the board is the unbounded plane.
        NoPathError: the target cannot be reached.
    """
    instance.board.require_finite("method 'bfs'")
    graph = instance.graph
    source, target = instance.source, instance.target
    nodes = bfs_path(graph, graph.node(source), graph.node(target))
    if nodes is None:
        raise no_path_error(graph.board, graph.piece, source, target)
    return make_distance(
        graph.board,
        graph.piece,
        source,
        target,
        [graph.cell(n) for n in nodes],
        method="bfs",
        started=run.clock.started,
    )
