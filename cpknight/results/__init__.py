"""Result values: tours, routes, distances, counts, sweeps and outcomes.

Frozen values, built by the engines through the checkers of
:mod:`cpknight.checks` and returned to the user; each prints as a grid
(``__str__``), draws itself in a notebook (``_repr_svg_``) and gives its JSON
keys (``as_dict()``); the counting values, from :mod:`cpknight.counts`, too.

One module a kind of value, each loaded when its first name is read
(``from cpknight.results import Tour`` loads :mod:`cpknight.results.tours`
alone): a command makes the classes it answers with, not all of them (each
frozen dataclass costs about a millisecond of start-up to make).

Examples:
    >>> from cpknight.results import Tour
    >>> Tour.__module__
    'cpknight.results.tours'
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from cpknight.runtime.lazy import exports

if TYPE_CHECKING:
    from cpknight.counts import FrontierStats, TourCount
    from cpknight.results.answer import Answer, race_label
    from cpknight.results.comparisons import Comparison
    from cpknight.results.distance import Distance
    from cpknight.results.maps import DistanceMap
    from cpknight.results.outcomes import Outcome, TourOutcome
    from cpknight.results.routes import Route
    from cpknight.results.scored import ScoredTour
    from cpknight.results.sweeps import Sweep, SweepCell
    from cpknight.results.tours import Tour

__all__ = [
    "Answer",
    "Comparison",
    "Distance",
    "DistanceMap",
    "FrontierStats",
    "Outcome",
    "Route",
    "ScoredTour",
    "Sweep",
    "SweepCell",
    "Tour",
    "TourCount",
    "TourOutcome",
    "is_a",
    "race_label",
]

HOMES = {
    "Answer": "cpknight.results.answer",
    "Comparison": "cpknight.results.comparisons",
    "Distance": "cpknight.results.distance",
    "DistanceMap": "cpknight.results.maps",
    "FrontierStats": "cpknight.counts",
    "Outcome": "cpknight.results.outcomes",
    "Route": "cpknight.results.routes",
    "ScoredTour": "cpknight.results.scored",
    "Sweep": "cpknight.results.sweeps",
    "SweepCell": "cpknight.results.sweeps",
    "Tour": "cpknight.results.tours",
    "TourCount": "cpknight.counts",
    "TourOutcome": "cpknight.results.outcomes",
    "race_label": "cpknight.results.answer",
}
"""The module that holds each name."""


__getattr__, __dir__ = exports(__name__, HOMES)


def is_a(value: object, name: str) -> bool:
    """``isinstance(value, NAME)`` for a value class of this package.

    It does not make the class: no value is of a class never made.

    Examples:
        >>> from cpknight import find_tour
        >>> is_a(find_tour("5x6", method="prune"), "ScoredTour")
        False
        >>> is_a(find_tour("5x6", method="prune"), "Tour")
        True
    """
    module = sys.modules.get(HOMES[name])
    return module is not None and isinstance(value, getattr(module, name))
