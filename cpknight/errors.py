"""The exception tree.

Every error cpknight raises on purpose is a :class:`CpknightError`. Bad input is
also a :class:`ValueError`, so ``except ValueError`` keeps working for callers who
do not know this module. "Proved impossible" and "ran out of time" are different
classes and never the same answer.

Examples:
    >>> issubclass(InvalidCellError, ValueError)
    True
    >>> issubclass(NoTourError, SolveLimitError)
    False
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CpknightError",
    "EngineError",
    "InvalidBoardError",
    "InvalidCellError",
    "InvalidInputError",
    "InvalidPieceError",
    "NoPathError",
    "NoTourError",
    "SolveLimitError",
    "TourCheckError",
]


class CpknightError(Exception):
    """The base of every error cpknight raises on purpose."""


class InvalidInputError(CpknightError, ValueError):
    """Input that cannot be used: a bad option, a bad time limit, a bad file."""


class InvalidBoardError(InvalidInputError):
    """A malformed board description, or a board a question cannot be asked on."""


class InvalidCellError(InvalidInputError):
    """A cell that cannot be parsed, is off the board, or is blocked."""


class InvalidPieceError(InvalidInputError):
    """A leaper that cannot exist, or cannot move on the given board."""


class TourCheckError(CpknightError, ValueError):
    """A sequence of cells that is not a tour.

    Attributes:
        step: the index of the first bad cell or move in the sequence (0-based),
            or ``None`` when the fault is the sequence as a whole (its length).
    """

    def __init__(self, message: str, *, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


class EngineError(CpknightError):
    """An engine returned an answer that failed verification: a bug in cpknight."""


class NoTourError(CpknightError):
    """Proved: no tour exists for the instance.

    Attributes:
        reason: a one-line human reason (which certificate fired, or that the
            solver proved infeasibility).
        certificate: a short machine-readable name of the certificate, or
            ``"search"`` when a solver proved it by exhausting the search.
    """

    def __init__(self, reason: str, *, certificate: str = "search") -> None:
        super().__init__(reason)
        self.reason = reason
        self.certificate = certificate


class NoPathError(CpknightError):
    """Proved: the target cannot be reached from the source."""


class SolveLimitError(CpknightError):
    """The limit was reached before an answer was found or proved.

    Attributes:
        partial: whatever the engine had when it stopped (for example a best
            route or a partial count), or ``None``.
        details: engine-specific figures (effort, bound, seconds).
    """

    def __init__(
        self,
        message: str,
        *,
        partial: Any = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.partial = partial
        self.details = dict(details or {})
