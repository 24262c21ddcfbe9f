"""Routes: the shortest route from a cell through required cells (the snake's meal).

:data:`ENGINES` lists the route engines. Each is imported only when used.

Examples:
    >>> list(ENGINES)
    ['cpsat', 'search', 'greedy']
"""

from __future__ import annotations

from cpknight.engines import Engine, Registry
from cpknight.results import Route
from cpknight.routes.instance import RouteInstance

__all__ = ["ENGINES"]

ENGINES: Registry[RouteInstance, Route] = Registry(
    "route",
    [
        Engine(
            "cpsat",
            "route",
            "cpknight.routes.cpsat:solve",
            optimises=True,
            summary="CP-SAT add_circuit over start, food and end",
        ),
        Engine(
            "search",
            "route",
            "cpknight.routes.search:solve",
            optimises=True,
            summary="Held-Karp for walks, IDA* for simple routes",
        ),
        Engine(
            "greedy",
            "route",
            "cpknight.routes.greedy:solve",
            proves=False,
            optimises=True,
            summary="nearest food next (the baseline)",
        ),
    ],
)
"""The route engines, by name."""
