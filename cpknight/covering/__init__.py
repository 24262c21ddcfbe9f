"""The covering puzzles: domination, total and independent domination, independence.

:data:`ENGINES` lists the engines; each is imported only when used.

Examples:
    >>> list(ENGINES)
    ['cpsat', 'scip', 'pyscipopt', 'highs', 'search', 'portfolio']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.engines import Engine, Registry

if TYPE_CHECKING:
    from cpknight.covering.common import Cover, CoverInstance

__all__ = ["ENGINES"]

# The value types live above the engines' layer: the annotation gives them.
ENGINES: Registry[CoverInstance, Cover] = Registry(
    "cover",
    [
        Engine(
            "cpsat",
            "cover",
            "cpknight.covering.cpsat:solve",
            optimises=True,
            summary="the 0/1 program by CP-SAT; counts by enumeration",
        ),
        Engine(
            "scip",
            "cover",
            "cpknight.covering.mip:solve_scip",
            optimises=True,
            summary="the 0/1 program by SCIP (model_builder); counts by no-good cuts",
        ),
        Engine(
            "pyscipopt",
            "cover",
            "cpknight.covering.mip:solve_pyscipopt",
            optimises=True,
            summary="the 0/1 program by SCIP 10 (PySCIPOpt), which breaks the "
            "board's symmetries as it searches; counts by no-good cuts",
            needs="pyscipopt",
            extra="scip",
        ),
        Engine(
            "highs",
            "cover",
            "cpknight.covering.mip:solve_highs",
            optimises=True,
            summary="the 0/1 program by HiGHS (model_builder); counts by no-good cuts",
        ),
        Engine(
            "search",
            "cover",
            "cpknight.covering.search:solve",
            optimises=True,
            summary="branch and bound with the cover bound; counts every optimum",
        ),
        Engine(
            "portfolio",
            "cover",
            "cpknight.covering.portfolio:solve",
            optimises=True,
            summary="CP-SAT and SCIP side by side on two cores: the first proof "
            "wins, else the best placement and the best bound of the two",
        ),
    ],
)
"""The covering engines, by name."""
