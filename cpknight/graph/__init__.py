"""What every question reads of the move graph beyond its arcs.

- :mod:`~cpknight.graph.traversal`: BFS levels and paths, connected
  components, the two colours, the bound on a path's arcs (distances,
  certificates, routes, the front doors, longest paths and swaps);
- :mod:`~cpknight.graph.segments`: the moves drawn as plane segments, which
  pairs cross and cliques of them (the fewest-crossings tours and the longest
  uncrossed paths).

The package exposes the traversal names, so that
``from cpknight.graph import bfs_levels`` reads as before.

Examples:
    >>> from cpknight.pieces import move_graph
    >>> g = move_graph("3x3")
    >>> bfs_levels(g, g.node((0, 0))).reshape(3, 3).tolist()
    [[0, 3, 2], [3, -1, 1], [2, 1, 4]]
"""

from __future__ import annotations

from cpknight.graph.traversal import (
    arc_bound,
    bfs_levels,
    bfs_path,
    component_labels,
    no_path_error,
    path_from_levels,
    two_colours,
)

__all__ = [
    "arc_bound",
    "bfs_levels",
    "bfs_path",
    "component_labels",
    "no_path_error",
    "path_from_levels",
    "two_colours",
]
