"""Outcomes: how one engine ended on one instance, in the one status vocabulary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cpknight.results.answer import race_label
from cpknight.status import Effort, Status

if TYPE_CHECKING:
    from cpknight.results.tours import Tour

__all__ = ["Outcome", "TourOutcome"]


@dataclass(frozen=True, eq=False)
class Outcome:
    """One engine's answer to one question, whatever it was: the unit of every report.

    Proved-none and limit-reached come back as outcomes too, with the effort the
    engine spent (and its bound, where it has one), so that engines can be
    compared and tabulated whatever happened. :meth:`as_dict` is the one JSON
    schema of every command.

    Attributes:
        question: ``'tour'``, ``'distance'``, ``'route'`` or ``'count'``.
        method: the engine (the one ``auto`` picked, when it picked).
        status: how it ended (:class:`~cpknight.status.Status`).
        seconds: wall time, model building included.
        effort: what the engine counted (also when it found nothing).
        value: the checked answer (a Tour, Distance, Route, TourCount) when
            ``status.solved``, else ``None``.
        bound: a proved bound on the answer, where the engine has one.
        reason: why there is none, why it stopped, or why it was refused.

    Examples:
        >>> o = Outcome("tour", "prune", Status.INFEASIBLE, 0.5, reason="4x4")
        >>> o.as_dict()["status"], o.tour is None
        ('infeasible', True)
    """

    question: str
    method: str
    status: Status
    seconds: float
    effort: Effort = field(default_factory=Effort)
    value: Any = None
    bound: int | None = None
    reason: str | None = None
    interrupted: bool = field(default=False, compare=False)
    """Whether Ctrl-C stopped the engine (its answer, if any, is the best so far)."""
    winner: str | None = None
    """For a race (``method='race'``), the rival whose answer this is."""

    @property
    def method_label(self) -> str:
        """The method as text: ``'prune'``, or ``'race (prune won)'`` for a race.

        Examples:
            >>> Outcome("tour", "race", Status.FOUND, 0.1, winner="prune").method_label
            'race (prune won)'
        """
        return race_label(self.method, self.winner)

    @property
    def tour(self) -> Tour | None:
        """The tour, when this outcome found one."""
        from cpknight.results.tours import Tour  # loaded with any tour

        return self.value if isinstance(self.value, Tour) else None

    def as_dict(self) -> dict[str, Any]:
        """The JSON row: the keys every command shares, then the answer's own.

        The shared keys are ``question``, ``method``, ``status``, ``seconds``,
        ``effort``, ``bound``, ``reason`` and ``cells`` (the answer's cells as
        coordinate lists, ``None`` without an answer), and ``winner`` for a
        race (the rival that answered); the answer's ``as_dict()`` adds its own
        keys (``closed``, ``distance``, ``moves``, ``directed`` ...).
        """
        row: dict[str, Any] = {
            "question": self.question,
            "method": self.method,
            "status": str(self.status),
            "seconds": round(float(self.seconds), 6),
            "effort": self.effort.as_dict(),
            "bound": None if self.bound is None else int(self.bound),
            "reason": self.reason,
            "cells": None,
        }
        if self.winner is not None:
            row["winner"] = self.winner
        if self.value is not None:
            row.update(self.value.as_dict())
        return row

    def __str__(self) -> str:
        from cpknight.text.display import outcome_str

        return outcome_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import outcome_html

        return outcome_html(self)

    def __repr__(self) -> str:
        return (
            f"<Outcome {self.question} by {self.method_label}: {self.status} "
            f"in {self.seconds:.3f} s>"
        )


TourOutcome = Outcome
"""An :class:`Outcome` of the tour question (the name ``try_tour`` documents)."""
