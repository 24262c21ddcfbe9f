"""Solve options, the run context (options and a started clock), solver set-up.

:class:`SolveOptions` travels with every engine call: the time limit (model
building included), the number of workers and the seed. Defaults are
deterministic: one worker, seed 0.

OR-Tools is imported only inside the functions that need it, so that the
distance commands never pay for loading it.

Examples:
    >>> SolveOptions(time_limit=5).time_limit
    5.0
    >>> SolveOptions(time_limit=0)
    Traceback (most recent call last):
    ...
    cpknight.errors.InvalidInputError: the time limit must be a positive number of \
seconds: 0
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cpknight.errors import InvalidInputError, SolveLimitError
from cpknight.status import Effort

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "Clock",
    "Run",
    "SolveOptions",
    "configure_cpsat",
    "export_cpsat_model",
    "write_model_text",
]


@dataclass(frozen=True)
class SolveOptions:
    """How to solve: a time limit, workers, seed, and whether to log.

    Args:
        time_limit: seconds for the whole call, model building included;
            ``None`` for no limit.
        workers: CP-SAT search workers (0 lets CP-SAT choose, one per core).
        seed: the random seed (CP-SAT's, and the search engines' tie-breaks).
        log: stream the solver's own search log (to ``log_callback``).
        log_callback: where log lines go; ``None`` leaves CP-SAT's own output.

    Raises:
        InvalidInputError: a time limit that is not a positive finite number, a
            negative number of workers, or a seed that is not an int.
    """

    time_limit: float | None = None
    workers: int = 1
    seed: int = 0
    log: bool = False
    log_callback: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        limit = self.time_limit
        if limit is not None:
            try:
                value = float(limit)
            except (TypeError, ValueError):
                value = math.nan
            if isinstance(limit, bool) or not math.isfinite(value) or value <= 0:
                raise InvalidInputError(
                    f"the time limit must be a positive number of seconds: {limit}"
                )
            object.__setattr__(self, "time_limit", value)
        if isinstance(self.workers, bool) or not isinstance(self.workers, int):
            raise InvalidInputError(f"workers must be an int: {self.workers!r}")
        if self.workers < 0:
            raise InvalidInputError(
                f"workers must be 0 (one per core) or more: {self.workers}"
            )
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise InvalidInputError(f"the seed must be an int: {self.seed!r}")

    def start(self) -> Run:
        """Start the clock: a :class:`Run` of these options for one call."""
        return Run(self, Clock(self.time_limit))


class Clock:
    """A wall-clock limit started when made; :meth:`check` is the one deadline check.

    Examples:
        >>> c = Clock(None)
        >>> c.expired(), c.remaining()
        (False, None)
        >>> c = Clock(1e-9)
        >>> c.check("building the model")
        Traceback (most recent call last):
        ...
        cpknight.errors.SolveLimitError: the time limit of 1e-09 s was reached \
while building the model
    """

    def __init__(self, seconds: float | None) -> None:
        self.started = time.perf_counter()
        self.seconds = seconds
        self.cancelled = False
        self._stop: Callable[[], None] | None = None

    def cancel(self) -> None:
        """Stop the run early: it counts as expired, and CP-SAT is told to stop.

        Two engines racing on one instance cancel the loser's clock (see
        ``cpknight.tours.race``). Safe to call from another thread, and again.

        Examples:
            >>> c = Clock(None)
            >>> c.cancel()
            >>> c.expired()
            True
        """
        self.cancelled = True
        stop = self._stop
        if stop is not None:
            stop()

    def on_cancel(self, stop: Callable[[], None]) -> None:
        """Call ``stop`` when the clock is cancelled (at once if it already is).

        One at a time: a run solves one model at a time, and the latest
        solver's ``stop_search`` replaces the one before.
        """
        self._stop = stop
        if self.cancelled:
            stop()

    def elapsed(self) -> float:
        """Seconds since the clock was started."""
        return time.perf_counter() - self.started

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` without a limit."""
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - self.elapsed())

    def exclude(self, seconds: float) -> None:
        """Stop counting ``seconds`` already spent (a one-off library import).

        Examples:
            >>> c = Clock(1.0)
            >>> c.exclude(5.0)
            >>> c.expired()
            False
        """
        self.started += seconds

    def expired(self) -> bool:
        """Whether the limit has passed (or the run was cancelled)."""
        if self.cancelled:
            return True
        return self.seconds is not None and self.elapsed() >= self.seconds

    def check(
        self, what: str, *, effort: Effort | None = None, bound: int | None = None
    ) -> None:
        """Raise :class:`SolveLimitError` once the limit has passed.

        Args:
            what: what was being done, for the message ("building the model").
            effort: what the engine has counted so far; the error carries it.
            bound: a proved bound so far, if the engine has one.

        Raises:
            SolveLimitError: the limit has passed.
        """
        if self.cancelled:
            raise SolveLimitError(
                f"stopped while {what}: another engine answered first",
                effort=effort,
                bound=bound,
            )
        if self.expired():
            raise SolveLimitError(
                f"the time limit of {self.seconds:g} s was reached while {what}",
                effort=effort,
                bound=bound,
            )


@dataclass(frozen=True)
class Run:
    """One call's run context: the options and the clock started for the call.

    Every engine takes one; model and graph building count against its clock.

    Attributes:
        options: time limit, workers, seed, logging.
        clock: started when the call began.

    Examples:
        >>> run = SolveOptions(time_limit=5).start()
        >>> run.remaining() is not None and run.remaining() <= 5
        True
        >>> run.check("warming up")  # within the limit: nothing happens
    """

    options: SolveOptions
    clock: Clock

    def check(
        self, what: str, *, effort: Effort | None = None, bound: int | None = None
    ) -> None:
        """The clock's :meth:`Clock.check`."""
        self.clock.check(what, effort=effort, bound=bound)

    def elapsed(self) -> float:
        """Seconds since the call began."""
        return self.clock.elapsed()

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` without a limit."""
        return self.clock.remaining()

    def expired(self) -> bool:
        """Whether the limit has passed."""
        return self.clock.expired()


def configure_cpsat(solver: cp_model.CpSolver, run: Run) -> None:
    """Apply a run's options and what is left of its time to a CP-SAT solver.

    The remaining time, not the full limit, becomes CP-SAT's
    ``max_time_in_seconds``: model building counts against the user's limit.
    """
    options = run.options
    params = solver.parameters
    remaining = run.remaining()
    if remaining is not None:
        params.max_time_in_seconds = max(remaining, 1e-3)
    params.num_workers = options.workers
    params.random_seed = options.seed
    params.log_search_progress = options.log
    if options.log and options.log_callback is not None:
        params.log_to_stdout = False
        solver.log_callback = options.log_callback
    run.clock.on_cancel(solver.stop_search)


def export_cpsat_model(model: cp_model.CpModel, path: str | Path) -> None:
    """Write a CP-SAT model as a text proto (variables carry their names).

    The ``export(path)`` of every CP-SAT model bundle.

    Raises:
        InvalidInputError: the file cannot be written.

    Examples:
        >>> import pathlib, tempfile
        >>> from ortools.sat.python import cp_model
        >>> model = cp_model.CpModel()
        >>> x = model.new_bool_var("x")
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder, "model.txt")
        ...     export_cpsat_model(model, path)
        ...     'name: "x"' in path.read_text(encoding="utf-8")
        True
    """
    write_model_text(path, str(model.proto) + "\n")


def write_model_text(path: str | Path, text: str) -> None:
    """Write an exported model's text to ``path`` (UTF-8).

    Raises:
        InvalidInputError: the file cannot be written; the message echoes
            ``path`` as given.

    Examples:
        >>> write_model_text("no-such-folder/model.lp", "")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: cannot write 'no-such-folder/model.lp': \
No such file or directory
    """
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(cannot_write(path, exc)) from None


def cannot_write(path: str | Path, exc: OSError) -> str:
    """The one message for a file that could not be written.

    Examples:
        >>> cannot_write("out.svg", PermissionError(13, "Permission denied"))
        "cannot write 'out.svg': Permission denied"
    """
    return f"cannot write '{path}': {exc.strerror or type(exc).__name__}"
