"""Tours: every open cell once, closed or open, by CP-SAT, search or tiles.

:data:`ENGINES` lists the tour engines in the order users see them: the
declarative one first, then the search engines, then the huge-board builder.
Each is imported only when used.

Examples:
    >>> list(ENGINES)
    ['cpsat', 'backtrack', 'warnsdorff', 'prune', 'greedy', 'tiles', 'race']
"""

from __future__ import annotations

from cpknight.engines import Engine, Registry
from cpknight.results import Tour
from cpknight.tours.instance import TourInstance

__all__ = ["ENGINES"]

ENGINES: Registry[TourInstance, Tour] = Registry(
    "tour",
    [
        Engine(
            "cpsat",
            "tour",
            "cpknight.tours.cpsat:solve",
            summary="CP-SAT add_circuit over the move arcs",
            honours=("via", "require", "forbid", "symmetric", "magic", "min"),
        ),
        Engine(
            "backtrack",
            "tour",
            "cpknight.tours.search:solve_backtrack",
            summary="depth-first search in the piece's fixed move order",
            honours=("via", "require", "forbid"),
        ),
        Engine(
            "warnsdorff",
            "tour",
            "cpknight.tours.search:solve_warnsdorff",
            summary="backtracking in Warnsdorff's fewest-onward-moves order",
            honours=("via", "require", "forbid"),
        ),
        Engine(
            "prune",
            "tour",
            "cpknight.tours.search:solve_prune",
            summary="Warnsdorff's order with critical-cell pruning and restarts",
            honours=("via", "require", "forbid"),
        ),
        Engine(
            "greedy",
            "tour",
            "cpknight.tours.search:solve_greedy",
            proves=False,
            summary="Warnsdorff's rule without backtracking",
        ),
        Engine(
            "tiles",
            "tour",
            "cpknight.tiling:solve",
            reads="board",
            proves=False,
            summary="structured tiles joined (huge plain boards)",
            honours=("require",),
        ),
        Engine(
            "race",
            "tour",
            "cpknight.tours.race:solve",
            summary="prune and CP-SAT side by side on two threads; first answer wins",
        ),
    ],
    auto=True,
)
"""The tour engines, by name (``method='auto'`` picks one per instance)."""
