"""Distances: the fewest moves between two cells, by BFS, integer programs or formula.

:data:`ENGINES` lists the distance methods; ``bfs`` is the reference every other
method is checked against. Each is imported only when used, so that asking for
a distance by BFS never loads OR-Tools.

Examples:
    >>> [e.name for e in ENGINES.values() if e.optimises]
    ['ip', 'flow']
"""

from __future__ import annotations

from cpknight.distances.instance import DistanceInstance
from cpknight.engines import Engine, Registry
from cpknight.results import Distance

__all__ = ["ENGINES"]

ENGINES: Registry[DistanceInstance, Distance] = Registry(
    "distance",
    [
        Engine(
            "bfs",
            "distance",
            "cpknight.distances.bfs:solve",
            summary="breadth-first search on the move graph (the reference)",
        ),
        Engine(
            "ip",
            "distance",
            "cpknight.distances.moves:solve",
            optimises=True,
            reads="board",
            summary="move counts A n = d, ordered on the board, no-good cuts",
        ),
        Engine(
            "flow",
            "distance",
            "cpknight.distances.flow:solve",
            optimises=True,
            summary="a unit flow over the move arcs (an LP)",
        ),
        Engine(
            "formula",
            "distance",
            "cpknight.distances.formula:solve",
            reads="board",
            instant=True,
            summary="the knight's closed form",
        ),
        Engine(
            "bidirectional",
            "distance",
            "cpknight.distances.bidirectional:solve",
            summary="breadth-first search from both ends until they meet",
        ),
    ],
)
"""The distance methods, by name."""
