"""Scored tours: a tour with the fewest turns or crossings found, and its bound."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpknight.results.tours import Tour
from cpknight.status import Status

__all__ = ["ScoredTour"]


@dataclass(frozen=True, eq=False)
class ScoredTour(Tour):
    """A checked tour with the fewest turns or crossings found, and its bound.

    Build with :func:`cpknight.scores.make_scored_tour`, which recounts the
    score from the cells.

    Attributes:
        objective: ``'turns'`` or ``'crossings'``.
        value: the tour's score (recounted by the checker).
        lower: a proved lower bound on the score of any tour of the instance
            (equal to ``value`` when ``optimal``), or ``None``.
        optimal: whether no tour of the instance scores less (proved).
    """

    objective: str = "turns"
    value: int = 0
    lower: int | None = None
    optimal: bool = False

    @property
    def status(self) -> Status:
        """``optimal`` when proved, else ``feasible`` (the best found)."""
        return Status.OPTIMAL if self.optimal else Status.FEASIBLE

    @property
    def bound(self) -> int | None:
        """The proved lower bound on the score."""
        return self.lower

    def as_dict(self) -> dict[str, Any]:
        """The tour's JSON keys, and its score under the objective's name."""
        row = super().as_dict()
        row[self.objective] = int(self.value)
        return row

    def _repr_svg_(self) -> str:
        """The tour with its turns or crossings marked, for notebooks."""
        from cpknight.draw.objectives import scored_tour_svg

        return scored_tour_svg(self)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        proved = "optimal" if self.optimal else f"bound {self.lower}"
        return (
            f"<ScoredTour {kind} {self.board.label} {self.value} {self.objective} "
            f"({proved}) by {self.method_label}>"
        )
