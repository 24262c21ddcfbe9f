"""What every answer tells: its engine (and a race's winner), how it ended, its cost."""

from __future__ import annotations

from typing import Protocol

from cpknight.status import Effort, Status

__all__ = ["Answer", "race_label"]


class Answer(Protocol):
    """What every answer tells its outcome: which engine, how it ended, at what cost.

    :class:`Tour`, :class:`Distance`, :class:`Route`, :class:`TourCount` and
    the longest paths all have these four; :func:`cpknight.engines.outcome_of`
    reads nothing else.

    Examples:
        >>> from cpknight import find_tour
        >>> t: Answer = find_tour("5x5", closed=False, method="prune")
        >>> t.method, str(t.status), t.bound
        ('prune', 'found', None)
    """

    @property
    def method(self) -> str:
        """The engine that answered."""
        ...

    @property
    def status(self) -> Status:
        """How it ended (``found``, ``optimal``, ``feasible``, ``unknown``)."""
        ...

    @property
    def effort(self) -> Effort:
        """What the engine counted."""
        ...

    @property
    def bound(self) -> int | None:
        """A proved bound on the answer, where the engine has one."""
        ...


def race_label(method: str, winner: str | None) -> str:
    """A method's name as text, with the rival that won a race.

    Examples:
        >>> race_label("race", "cpsat"), race_label("prune", None)
        ('race (cpsat won)', 'prune')
    """
    return method if winner is None else f"{method} ({winner} won)"
