"""The greedy route: nearest food next, the baseline.

Examples:
    >>> from cpknight import collect
    >>> collect("5x5", "a1", ["e5", "e1"], method="greedy").cells[0]
    (0, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.errors import (
    SolveLimitError,
)

if TYPE_CHECKING:
    pass

from cpknight.results import Route
from cpknight.routes.common import Prepared, bounded_route, greedy_route, prepare
from cpknight.routes.instance import RouteInstance
from cpknight.solving import Run


def solve(instance: RouteInstance, run: Run) -> Route:
    """The ``greedy`` route engine: nearest food next (optimal if it meets the bound).

    Raises:
        NoPathError: a food cell or the end cannot be reached.
        SolveLimitError: the greedy simple route got stuck (this proves nothing).
    """
    ready = prepare(instance, run, "greedy")
    if not isinstance(ready, Prepared):
        return ready
    inst, bound = ready.inst, ready.bound
    nodes = greedy_route(inst, ready.dist)
    if nodes is None:
        raise SolveLimitError(f"the greedy {inst.describe()} got stuck", bound=bound)
    return bounded_route(
        inst, nodes, bound=bound, method="greedy", started=run.clock.started
    )
