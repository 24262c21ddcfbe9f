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

from collections.abc import Iterable
from typing import Any

from cpknight.status import Effort, Status

__all__ = [
    "CpknightError",
    "EngineError",
    "InvalidBoardError",
    "InvalidCellError",
    "InvalidInputError",
    "InvalidPieceError",
    "ModelTooBigError",
    "NoPathError",
    "NoTourError",
    "OutcomeError",
    "SolveLimitError",
    "TourCheckError",
    "specs",
]


class CpknightError(Exception):
    """The base of every error cpknight raises on purpose."""


class InvalidInputError(CpknightError, ValueError):
    """Input that cannot be used: a bad option, a bad time limit, a bad file."""


class ModelTooBigError(InvalidInputError):
    """An instance whose model would not fit in memory, refused before building."""


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


class OutcomeError(CpknightError):
    """An outcome that is not an answer: proved none, or the limit reached.

    Every such error carries what the engine spent, so that "proved none" and
    "limit reached" report their effort the one way an answer does.

    Attributes:
        status: the :class:`~cpknight.status.Status` this error stands for.
        effort: what the engine counted before it stopped.
        bound: a proved bound on the answer, where the engine has one.
        method: the engine that raised it, once known (the runner fills it in).
        winner: for a race (``method='race'``), the rival whose answer it is.
    """

    status: Status = Status.UNKNOWN

    def __init__(
        self,
        message: str,
        *,
        effort: Effort | None = None,
        bound: int | None = None,
    ) -> None:
        super().__init__(message)
        self.effort = effort or Effort()
        self.bound = bound
        self.method: str | None = None
        self.winner: str | None = None


class NoTourError(OutcomeError):
    """Proved: no tour exists for the instance.

    Attributes:
        reason: a one-line human reason (which certificate fired, or that the
            solver proved infeasibility).
        certificate: a short machine-readable name of the certificate, or
            ``"search"`` when a solver proved it by exhausting the search.
    """

    status = Status.INFEASIBLE

    def __init__(
        self, reason: str, *, certificate: str = "search", effort: Effort | None = None
    ) -> None:
        super().__init__(reason, effort=effort)
        self.reason = reason
        self.certificate = certificate


class NoPathError(OutcomeError):
    """Proved: the target cannot be reached from the source (or no route exists)."""

    status = Status.INFEASIBLE


class SolveLimitError(OutcomeError):
    """The limit was reached before an answer was found or proved.

    Attributes:
        partial: whatever the engine had when it stopped (for example a partial
            count), or ``None``. Never an answer: a partial count is not a count.
        details: engine-specific figures beyond effort and bound.
    """

    status = Status.UNKNOWN

    def __init__(
        self,
        message: str,
        *,
        effort: Effort | None = None,
        bound: int | None = None,
        partial: Any = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, effort=effort, bound=bound)
        self.partial = partial
        self.details = dict(details or {})


def specs(value: object, what: str) -> tuple[Any, ...]:
    """The items of an argument that takes one spec or several, as a tuple.

    A single string is one spec (``via="d4@3"`` means ``via=["d4@3"]``), not
    its characters; ``None`` is none.

    Raises:
        InvalidInputError: the value is neither a string nor an iterable.

    Examples:
        >>> specs("d4@3", "via"), specs(["a1", "b3"], "food"), specs(None, "via")
        (('d4@3',), ('a1', 'b3'), ())
        >>> specs(3, "via")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: via must be a string or a list of them: 3
    """
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Iterable):
        raise InvalidInputError(f"{what} must be a string or a list of them: {value!r}")
    return tuple(value)
