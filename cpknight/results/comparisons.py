"""Comparisons: several engines on one instance, one outcome each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpknight.results.outcomes import Outcome

__all__ = ["Comparison"]


@dataclass(frozen=True, eq=False)
class Comparison:
    """The same instance through several engines: one outcome each, cross-checked.

    Attributes:
        question: ``'tour'`` or ``'distance'``.
        instance: the instance as plain data (board label, piece vector, cells,
            time limit), as the JSON shows it.
        rows: one :class:`Outcome` per engine, in the order asked.
    """

    question: str
    instance: dict[str, Any]
    rows: tuple[Outcome, ...]

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the comparison (rows after it were not run)."""
        return any(row.interrupted for row in self.rows)

    def statuses(self) -> list[str]:
        """Each engine's status word, in row order."""
        return [str(o.status) for o in self.rows]

    @property
    def fastest(self) -> Outcome | None:
        """The fastest outcome that answered (found, optimal or proved none)."""
        answered = [o for o in self.rows if o.status.proved]
        return min(answered, key=lambda o: o.seconds) if answered else None

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "instance", "rows"}``, each row an :meth:`Outcome.as_dict`."""
        return {
            "question": self.question,
            "instance": dict(self.instance),
            "rows": [o.as_dict() for o in self.rows],
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per engine (see :mod:`cpknight.text.frames`)."""
        from cpknight.text.frames import outcomes_frame

        return outcomes_frame(self.rows)

    def __str__(self) -> str:
        from cpknight.text.display import comparison_str

        return comparison_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import comparison_html

        return comparison_html(self)

    def __repr__(self) -> str:
        return f"<Comparison {self.question}: {', '.join(self.statuses())}>"
