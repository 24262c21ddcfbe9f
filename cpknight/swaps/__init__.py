"""The knight-swap puzzles: knights of several colours change places in fewest moves.

:data:`ENGINES` lists the engines; each is imported only when used.

Examples:
    >>> list(ENGINES)
    ['bfs', 'cpsat']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.engines import Engine, Registry

if TYPE_CHECKING:
    from cpknight.swaps.common import Swap, SwapInstance

__all__ = ["ENGINES"]

# The value types live above the engines' layer: the annotation gives them.
ENGINES: Registry[SwapInstance, Swap] = Registry(
    "swap",
    [
        Engine(
            "bfs",
            "swap",
            "cpknight.swaps.bfs:solve",
            optimises=True,
            summary="breadth-first search over placements from both ends, by levels",
        ),
        Engine(
            "cpsat",
            "swap",
            "cpknight.swaps.cpsat:solve",
            optimises=True,
            summary="CP-SAT planning model, one move a step, the horizon grown "
            "until feasible",
        ),
    ],
    auto=True,
)
"""The swap engines, by name (``auto`` picks one)."""
