"""The longest-path puzzles: the longest uncrossed or induced knight path or cycle.

:data:`ENGINES` lists the engines; each is imported only when used. The
frontier engine runs in one of the kernels of its own registry
(:data:`cpknight.longest.frontier_kernels.KERNELS`), and reads the frontier
toolkit (:mod:`cpknight.frontier`), never the counting question.

Examples:
    >>> list(ENGINES)
    ['cpsat', 'search', 'frontier']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.engines import Engine, Registry

if TYPE_CHECKING:
    from cpknight.longest.common import LongestInstance, LongestPath

__all__ = ["ENGINES"]

# The value types live above the engines' layer: the annotation gives them.
ENGINES: Registry[LongestInstance, LongestPath] = Registry(
    "longest",
    [
        Engine(
            "cpsat",
            "longest",
            "cpknight.longest.cpsat:solve",
            optimises=True,
            summary="CP-SAT add_circuit with optional cells, crossings or chords cut",
        ),
        Engine(
            "search",
            "longest",
            "cpknight.longest.search:solve",
            optimises=True,
            summary="depth-first branch and bound from every start cell",
        ),
        Engine(
            "frontier",
            "longest",
            "cpknight.longest.frontier:solve",
            optimises=True,
            summary="frontier (transfer-matrix) program keeping the most moves",
        ),
    ],
    auto=True,
)
"""The longest-path engines, by name (``auto`` picks one)."""
