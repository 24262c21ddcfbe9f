"""The one status vocabulary, and the effort every outcome carries.

Every answer cpknight gives, whatever the question (a tour, a distance, a route,
a count) and whatever the engine, ends in one :class:`Status`, in the spirit of
CPMpy's ``ExitStatus``:

========== ==========================================================
status     meaning
========== ==========================================================
found      the answer, and nothing more was asked (a tour; a complete
           count; an exact distance)
optimal    the best answer, proved best (a route, a distance by an IP)
feasible   an answer, not proved best (a route at the limit, with a
           bound)
infeasible proved: there is none (no tour, unreachable, no route)
unknown    the limit was reached first (with the effort spent, and the
           bound where there is one)
refused    the engine does not take this instance (it says why)
========== ==========================================================

Examples:
    >>> Status.FOUND.solved, Status.INFEASIBLE.solved, Status.UNKNOWN.proved
    (True, False, False)
    >>> Status("optimal") is Status.OPTIMAL, str(Status.UNKNOWN)
    (True, 'unknown')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Effort", "Status"]


class Status(StrEnum):
    """How a question ended, for every question and engine (the JSON word)."""

    FOUND = "found"
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"
    REFUSED = "refused"

    @property
    def solved(self) -> bool:
        """Whether an answer is in hand (found, optimal or feasible)."""
        return self in (Status.FOUND, Status.OPTIMAL, Status.FEASIBLE)

    @property
    def proved(self) -> bool:
        """Whether the outcome is final: found, proved optimal or proved none."""
        return self in (Status.FOUND, Status.OPTIMAL, Status.INFEASIBLE)


@dataclass(frozen=True)
class Effort:
    """How much work an engine did. Fields an engine does not count are ``None``.

    Attributes:
        attempts: moves tried by a search engine.
        backtracks: moves undone by a search engine.
        branches: CP-SAT branches.
        conflicts: CP-SAT conflicts.
        solutions: solutions seen (when counting or enumerating).
        cuts: cuts added (no-good cuts of the move-count IP).

    Examples:
        >>> Effort(attempts=10, backtracks=3).as_dict()
        {'attempts': 10, 'backtracks': 3}
        >>> Effort.from_dict({"branches": 5}) == Effort(branches=5)
        True
    """

    attempts: int | None = None
    backtracks: int | None = None
    branches: int | None = None
    conflicts: int | None = None
    solutions: int | None = None
    cuts: int | None = None

    def as_dict(self) -> dict[str, int]:
        """The counted fields, as plain ints."""
        return {
            name: int(value)
            for name, value in (
                ("attempts", self.attempts),
                ("backtracks", self.backtracks),
                ("branches", self.branches),
                ("conflicts", self.conflicts),
                ("solutions", self.solutions),
                ("cuts", self.cuts),
            )
            if value is not None
        }

    @classmethod
    def from_dict(cls, fields: dict[str, int]) -> Effort:
        """The effort from :meth:`as_dict`'s form (unknown keys are ignored)."""
        known = cls.__dataclass_fields__
        return cls(**{k: int(v) for k, v in fields.items() if k in known})
