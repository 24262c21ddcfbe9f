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

import contextlib
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpknight.errors import InvalidInputError, SolveLimitError
from cpknight.runtime.files import write_blocks
from cpknight.status import Effort

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = [
    "CPSAT_SUFFIXES",
    "FALLBACK_GRACE",
    "LINEAR_SUFFIXES",
    "MAX_SEED",
    "MAX_WORKERS",
    "PROCESS_AGE_CAP",
    "STOP_GRACE",
    "Clock",
    "Run",
    "SolveOptions",
    "check_export_path",
    "configure_cpsat",
    "export_cpsat_model",
    "interruptible",
    "process_origin",
    "solve_cpsat",
    "start_next_clock_at",
    "write_model_text",
]


FALLBACK_GRACE = 0.5
"""Seconds past the limit an engine may spend on its quick fallback answer
(the greedy route handed back when the limit came first)."""

MAX_SEED = 2**31 - 1
"""The largest seed: CP-SAT's ``random_seed`` is a 32-bit signed int."""

MAX_WORKERS = 1024
"""The most CP-SAT workers one call may ask for (CP-SAT rejects the model
as invalid somewhere past 10,000; more threads than cores only slow it)."""


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
        InvalidInputError: a time limit that is not a positive finite number,
            workers outside 0 to :data:`MAX_WORKERS`, or a seed that is not an
            int from 0 to :data:`MAX_SEED` (CP-SAT's seed is a 32-bit int).

    Examples:
        >>> SolveOptions(seed=2**31)
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: the seed must be an int from 0 to \
2147483647: 2147483648
        >>> SolveOptions(workers=10001)
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: workers must be 0 (one per core) to \
1024: 10001
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
        if not 0 <= self.workers <= MAX_WORKERS:
            raise InvalidInputError(
                f"workers must be 0 (one per core) to {MAX_WORKERS}: {self.workers}"
            )
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise InvalidInputError(f"the seed must be an int: {self.seed!r}")
        if not 0 <= self.seed <= MAX_SEED:
            raise InvalidInputError(
                f"the seed must be an int from 0 to {MAX_SEED}: {self.seed}"
            )

    def start(self) -> Run:
        """Start the clock: a :class:`Run` of these options for one call.

        The clock starts now, unless :func:`start_next_clock_at` gave the next
        clock an earlier origin (the command line: the process's start).
        """
        return Run(self, Clock(self.time_limit, origin=_take_origin()))


_NEXT_ORIGIN: list[float | None] = [None]
_ORIGIN_LOCK = threading.Lock()


def start_next_clock_at(origin: float | None) -> None:
    """Give the next clock started (:meth:`SolveOptions.start`) an earlier origin.

    One clock only, the next: the command line calls it with the process's
    start (:func:`process_origin`), so that its first run counts the start-up
    (the imports) against the user's limit, while a comparison's later engines
    start on clocks of their own. ``None`` forgets an origin not yet taken.

    Examples:
        >>> start_next_clock_at(time.perf_counter() - 10)
        >>> SolveOptions(time_limit=15).start().remaining() < 5
        True
        >>> SolveOptions(time_limit=15).start().remaining() > 10
        True
    """
    with _ORIGIN_LOCK:
        _NEXT_ORIGIN[0] = origin


def _take_origin() -> float | None:
    with _ORIGIN_LOCK:
        origin, _NEXT_ORIGIN[0] = _NEXT_ORIGIN[0], None
    return origin


PROCESS_AGE_CAP = 600.0
"""The oldest process start :func:`process_origin` believes (seconds): past it,
the process is a long-lived host (a notebook, a server), not a command."""


def process_origin() -> float | None:
    """This process's start as a :func:`time.perf_counter` reading, if known.

    Linux says when a process started (``/proc/self/stat``, field 22, in clock
    ticks since boot) and how long ago the system booted (``/proc/uptime``);
    elsewhere, or for a process older than :data:`PROCESS_AGE_CAP`, ``None``.

    Examples:
        >>> origin = process_origin()
        >>> origin is None or origin <= time.perf_counter()
        True
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            stat = handle.read()
        with open("/proc/uptime", encoding="ascii") as handle:
            uptime = float(handle.read().split()[0])
        # the fields after the command's name (in parentheses) start at field 3
        ticks = int(stat[stat.rindex(")") + 2 :].split()[22 - 3])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    if not 0.0 <= age <= PROCESS_AGE_CAP:
        return None
    return time.perf_counter() - age


LISTEN_EVERY = 0.2
"""Seconds between two calls of a clock's listener (see :meth:`Clock.listen`)."""


class Clock:
    """A wall-clock limit started when made; :meth:`check` is the one deadline check.

    Args:
        seconds: the limit, or ``None``.
        origin: a :func:`time.perf_counter` reading the *limit* counts from
            instead of now (the command line's process start): the limit then
            covers everything since, imports included (:meth:`exclude` leaves
            it). What a run reports it spent (:meth:`elapsed`) still counts
            from when the clock was made, so that an engine's seconds in a
            comparison are its own, not the process's start-up.

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
        >>> c = Clock(2.0, origin=time.perf_counter() - 5)
        >>> c.expired(), c.elapsed() < 5
        (True, True)
    """

    def __init__(self, seconds: float | None, *, origin: float | None = None) -> None:
        self.started = time.perf_counter()
        self.origin = origin
        self.seconds = seconds
        self.interrupted = False
        self.interrupted_at = 0.0
        self.cancelled = False
        self._stop: Callable[[], None] | None = None
        self._listener: Callable[[str, int | None], None] | None = None
        self._heard = 0.0

    def interrupt(self) -> None:
        """Expire the clock now (Ctrl-C): every deadline check then fires.

        Examples:
            >>> c = Clock(None)
            >>> c.interrupt()
            >>> c.expired(), c.remaining()
            (True, 0.0)
        """
        self.interrupted = True
        self.interrupted_at = time.perf_counter()

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

    def listen(self, listener: Callable[[str, int | None], None] | None) -> None:
        """Hear the run now and then: ``listener(what, bound)``, for progress bars.

        Called from :meth:`check` (with what the engine is doing and its bound
        so far) and while CP-SAT solves, at most every :data:`LISTEN_EVERY`
        seconds; ``None`` stops it.

        Examples:
            >>> heard = []
            >>> c = Clock(None)
            >>> c.listen(lambda what, bound: heard.append((what, bound)))
            >>> c.check("searching", bound=7)
            >>> heard
            [('searching', 7)]
        """
        self._listener = listener
        self._heard = 0.0

    def tick(self, what: str, bound: int | None = None) -> None:
        """Tell the listener (if any, and not within the last fraction of a second)."""
        listener = self._listener
        if listener is None:
            return
        now = time.perf_counter()
        if now - self._heard >= LISTEN_EVERY:
            self._heard = now
            listener(what, bound)

    def elapsed(self) -> float:
        """Seconds since the clock was started (what a run reports it spent)."""
        return time.perf_counter() - self.started

    def used(self) -> float:
        """Seconds of the limit used: since the origin, if the clock has one."""
        if self.origin is None:
            return self.elapsed()
        return time.perf_counter() - self.origin

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` without a limit."""
        if self.interrupted or self.cancelled:
            return 0.0
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - self.used())

    def exclude(self, seconds: float) -> None:
        """Stop counting ``seconds`` already spent (a one-off library import).

        A clock counting from the process's start counts them all: the
        command line's limit covers its start-up.

        Examples:
            >>> c = Clock(1.0)
            >>> c.exclude(5.0)
            >>> c.expired()
            False
        """
        self.started += seconds

    def expired(self, grace: float = 0.0) -> bool:
        """Whether the limit (plus ``grace`` s) passed, or Ctrl-C (``grace`` s ago).

        A cancelled run (another engine answered first) has expired at once.
        """
        if self.cancelled:
            return True
        if self.interrupted and time.perf_counter() - self.interrupted_at >= grace:
            return True
        return self.seconds is not None and self.used() >= self.seconds + grace

    def check(
        self,
        what: str,
        *,
        effort: Effort | None = None,
        bound: int | None = None,
        grace: float = 0.0,
    ) -> None:
        """Raise :class:`SolveLimitError` once the limit has passed.

        Args:
            what: what was being done, for the message ("building the model").
            effort: what the engine has counted so far; the error carries it.
            bound: a proved bound so far, if the engine has one.
            grace: seconds allowed past the limit, for the quick fallback an
                engine hands back when the limit came first (at most
                :data:`FALLBACK_GRACE`: the promise is the limit plus 1 s).

        Raises:
            SolveLimitError: the limit has passed.
        """
        if self._listener is not None:
            self.tick(what, bound)
        if self.cancelled:
            message = f"stopped while {what}: another engine answered first"
            raise SolveLimitError(message, effort=effort, bound=bound)
        if self.expired(grace):
            message = (
                f"interrupted (Ctrl-C) while {what}"
                if self.interrupted
                else f"the time limit of {self.seconds:g} s was reached while {what}"
            )
            raise SolveLimitError(message, effort=effort, bound=bound)


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
        self,
        what: str,
        *,
        effort: Effort | None = None,
        bound: int | None = None,
        grace: float = 0.0,
    ) -> None:
        """The clock's :meth:`Clock.check`."""
        self.clock.check(what, effort=effort, bound=bound, grace=grace)

    def twin(self) -> Run:
        """The same run on a clock of its own: the same limit, start and origin.

        Two engines racing on one instance each get one, so that cancelling
        (or interrupting) the loser's clock leaves the winner's alone; each
        still stops at the caller's limit, counted from where the caller's is
        (the process's start, on the command line).

        Examples:
            >>> run = SolveOptions(time_limit=5).start()
            >>> twin = run.twin()
            >>> twin.clock.cancel()
            >>> twin.expired(), run.expired()
            (True, False)
            >>> late = Run(run.options, Clock(2.0, origin=time.perf_counter() - 5))
            >>> late.twin().expired()  # the origin is kept: past the limit already
            True
        """
        clock = Clock(self.clock.seconds, origin=self.clock.origin)
        clock.started = self.clock.started
        return Run(self.options, clock)

    def elapsed(self) -> float:
        """Seconds since the call began."""
        return self.clock.elapsed()

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` without a limit."""
        return self.clock.remaining()

    def expired(self) -> bool:
        """Whether the limit has passed."""
        return self.clock.expired()


@contextmanager
def interruptible(run: Run) -> Iterator[None]:
    """While inside, Ctrl-C expires the run's clock instead of raising.

    Every engine already stops at its deadline through :meth:`Run.check`, and
    hands back what it has (a route so far, a greedy fallback, a partial
    count): Ctrl-C now takes the same road, so an interruption keeps what is
    finished (``run.clock.interrupted`` says it happened). A second Ctrl-C
    raises :class:`KeyboardInterrupt` at once. Outside the main thread, and
    where Ctrl-C is ignored, nothing changes.

    Examples:
        >>> import os, signal
        >>> run = SolveOptions().start()
        >>> with interruptible(run):
        ...     os.kill(os.getpid(), signal.SIGINT)
        ...     time.sleep(0.01)
        >>> run.expired(), run.clock.interrupted
        (True, True)
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # a sweep's worker
    ):
        yield
        return

    def on_sigint(signum: int, frame: object) -> None:
        if run.clock.interrupted:
            raise KeyboardInterrupt
        run.clock.interrupt()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


STOP_GRACE = 0.25
"""Seconds past a run's limit before :func:`solve_cpsat` stops CP-SAT itself
(CP-SAT keeps its own limit, but overshoots it in a long presolve)."""


def solve_cpsat(
    solver: cp_model.CpSolver,
    model: cp_model.CpModel,
    run: Run | None = None,
    callback: cp_model.CpSolverSolutionCallback | None = None,
) -> tuple[Any, bool]:
    """Solve in a worker thread; stop the search on Ctrl-C or an expired run.

    CP-SAT holds the main thread while it solves, so Python would see Ctrl-C
    only when it returns. Here the main thread waits in short slices: a
    :class:`KeyboardInterrupt`, or ``run``'s clock interrupted (see
    :func:`interruptible`), stops the search cleanly, and CP-SAT returns the
    best it has.

    Returns:
        CP-SAT's status, and whether an interruption stopped the search.
    """
    # Ctrl-C stays with Python: CP-SAT's own SIGINT handler can abort the
    # process when it fires late.
    solver.parameters.catch_sigint_signal = False
    return solve_stoppably(
        lambda: solver.solve(model, callback), solver.stop_search, run, "CP-SAT"
    )


def solve_stoppably(
    solve: Callable[[], Any],
    stop: Callable[[], None],
    run: Run | None,
    what: str,
) -> tuple[Any, bool]:
    """Run a native ``solve`` in a thread that ``stop`` ends; the caller waits.

    A native solver holds its thread until it returns, so Python would see
    Ctrl-C only then. Here the caller's thread waits in short slices and calls
    ``stop`` on Ctrl-C, when ``run``'s clock is interrupted or cancelled, or
    :data:`STOP_GRACE` past its limit (which CP-SAT overshoots in a long
    presolve), asking again at every look: a stop that comes before the
    search begins is lost. The solver's thread always ends before this
    returns: one still in C++ when the process exits aborts it ("terminate
    called without an active exception").

    Args:
        solve: solves and returns the solver's status.
        stop: asks the solver to stop (``stop_search``); safe to call often.
        run: the started clock, if any (a progress bar hears it).
        what: the solver's name, for the thread and the progress line.

    Returns:
        The status, and whether an interruption (Ctrl-C) stopped the search.
    """
    box: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["status"] = solve()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=target, name=f"cpknight-{what}", daemon=True)
    thread.start()
    interrupted = False
    try:
        while not done.is_set():
            try:
                done.wait(0.05)
            except KeyboardInterrupt:
                interrupted = True
            if run is not None:
                interrupted = interrupted or run.clock.interrupted
                run.clock.tick(f"solving ({what})")  # a progress bar, if one listens
            if interrupted or (run is not None and run.clock.expired(STOP_GRACE)):
                stop()
    finally:
        if not done.is_set():  # a Ctrl-C between two looks: end the solve first
            stop()
            while not done.is_set():
                with contextlib.suppress(KeyboardInterrupt):
                    done.wait(0.05)
    if "error" in box:
        raise box["error"]
    return box["status"], interrupted


def configure_cpsat(
    solver: cp_model.CpSolver, run: Run, *, enumerate_all: bool = False
) -> None:
    """Apply a run's options and what is left of its time to a CP-SAT solver.

    The remaining time, not the full limit, becomes CP-SAT's
    ``max_time_in_seconds``: model building counts against the user's limit.

    Args:
        solver: the solver to set up.
        run: the options and the started clock.
        enumerate_all: report every solution (counting). Enumeration always
            runs on one worker, whatever ``run.options.workers`` says: CP-SAT
            enumerates exactly only with one (with several, each search worker
            reports the solutions it meets, so one solution can come twice:
            6x6 gave 19,726 directed closed tours with two workers against
            19,724 with one).
    """
    options = run.options
    params = solver.parameters
    remaining = run.remaining()
    if remaining is not None:
        params.max_time_in_seconds = max(remaining, 1e-3)
    params.num_workers = 1 if enumerate_all else options.workers
    params.enumerate_all_solutions = enumerate_all
    params.random_seed = options.seed
    params.log_search_progress = options.log
    if options.log and options.log_callback is not None:
        params.log_to_stdout = False
        solver.log_callback = options.log_callback
    run.clock.on_cancel(solver.stop_search)


EXPORT_SECONDS_PER_ITEM = 3e-6
"""A pessimistic cost of exporting a CP-SAT model, in seconds per variable or
constraint: text conversion takes about 1 us a variable (a 400x400 tour model,
1.27 M arcs: 1.3 s and 158 MB), writing it about as much again."""

WRITE_CHUNK = 1 << 23
"""Characters written between two looks at the clock (8 MB)."""


def export_cpsat_model(
    model: cp_model.CpModel, path: str | Path, *, run: Run | None = None
) -> None:
    """Write a CP-SAT model as a text proto (variables carry their names).

    The ``export(path)`` of every CP-SAT model bundle. With a ``run``, its time
    limit covers the export: a model whose export would not fit in the time
    left (:data:`EXPORT_SECONDS_PER_ITEM`) is refused before any text is made,
    and the clock is looked at after the conversion and while writing. The
    file appears only when complete (see :func:`write_model_text`).

    Raises:
        InvalidInputError: the file cannot be written.
        SolveLimitError: the time limit would be, or was, reached; ``path`` is
            left as it was.

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
    check_export_path(path, CPSAT_SUFFIXES, "a CP-SAT text proto")
    proto = model.proto
    if run is not None:
        items = len(proto.variables) + len(proto.constraints)
        needed = items * EXPORT_SECONDS_PER_ITEM
        left = run.remaining()
        if left is not None and needed > left:
            run.check(f"writing '{path}'")  # the limit itself first
            raise SolveLimitError(
                f"the time limit of {run.options.time_limit:g} s leaves {left:.2f} s, "
                f"too little to write '{path}' ({items:,} variables and "
                f"constraints, about {needed:.2f} s): nothing written; "
                "raise --time-limit"
            )
    text = str(proto) + "\n"
    if run is not None:
        run.check(f"converting the model to text for '{path}'")
    write_model_text(path, text, run=run)


CPSAT_SUFFIXES = (".pbtxt", ".textproto", ".txt")
"""The file endings a CP-SAT model exports to (a text proto)."""

LINEAR_SUFFIXES = (".lp", ".mps")
"""The file endings an integer program exports to (LP or MPS)."""


def check_export_path(path: str | Path, suffixes: tuple[str, ...], kind: str) -> None:
    """Refuse an export file whose ending does not match what is written.

    Raises:
        InvalidInputError: another ending; the message names those expected.

    Examples:
        >>> check_export_path("tour.pbtxt", CPSAT_SUFFIXES, "a CP-SAT text proto")
        >>> check_export_path("y.lp", CPSAT_SUFFIXES, "a CP-SAT text proto")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: the model is written as a CP-SAT text \
proto: expected a file ending in .pbtxt, .textproto or .txt: 'y.lp'
    """
    if Path(path).suffix.lower() not in suffixes:
        endings = ", ".join(suffixes[:-1]) + f" or {suffixes[-1]}"
        if len(suffixes) == 1:
            endings = suffixes[0]
        raise InvalidInputError(
            f"the model is written as {kind}: expected a file ending in {endings}: "
            f"'{path}'"
        )


def write_model_text(path: str | Path, text: str, *, run: Run | None = None) -> None:
    """Write an exported model's text to ``path`` (UTF-8), all or nothing.

    The text goes to a temporary file beside ``path``, renamed to ``path``
    once complete: an error or the time limit (``run``'s clock, looked at
    every :data:`WRITE_CHUNK` characters) leaves no half-written file and
    ``path`` as it was.

    Raises:
        InvalidInputError: the file cannot be written; the message echoes
            ``path`` as given.
        SolveLimitError: the time limit passed while writing.

    Examples:
        >>> write_model_text("no-such-folder/model.lp", "")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: cannot write 'no-such-folder/model.lp': \
No such file or directory
    """
    chunks = (
        text[begin : begin + WRITE_CHUNK].encode("utf-8")
        for begin in range(0, len(text), WRITE_CHUNK)
    )
    write_blocks(path, chunks, check=None if run is None else run.check)
