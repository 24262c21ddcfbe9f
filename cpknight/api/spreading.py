"""One count on disk shared by several processes: its buckets on the runner.

A frontier count with its states on disk (a checkpoint directory) steps every
input bucket and sums every output bucket of a cell as independent tasks
(:func:`cpknight.counting.dense_kernel.step_bucket`,
:func:`~cpknight.counting.dense_kernel.sum_bucket`). :func:`spreading` makes
the mapper the kernel hands them to: :func:`cpknight.runner.run_tasks` on a
local process pool (``jobs``) or a Dask cluster (``scheduler``), its workers
kept from one cell to the next. The files are the tasks' only channel: on a
Dask cluster the checkpoint directory must be on a file system every worker
sees, at the same path.

The run's clock still rules: the time limit and Ctrl-C stop the workers at
once (the cell they were on is lost, the cells before it are kept in the
checkpoint, from which the same call resumes).

Examples:
    >>> spread_kernel("auto", jobs=1, scheduler=None, checkpoint=None)
    'auto'
    >>> spread_kernel("auto", jobs=2, scheduler=None, checkpoint="counts/6x6")
    'auto'
    >>> from cpknight.counting.kernels import MEET
    >>> spread_kernel(MEET.name, jobs=2, scheduler=None, checkpoint="c") == MEET.name
    True
"""

from __future__ import annotations

import _thread
import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from cpknight.counting.kernels import check_spread_kernel
from cpknight.errors import InvalidInputError, SolveLimitError
from cpknight.runner import (
    AGAIN,
    Row,
    RunOptions,
    Task,
    Workers,
    run_tasks,
    usable_cores,
)
from cpknight.solving import Run

__all__ = ["RunnerMap", "spread_kernel", "spreading"]


def spread_kernel(
    kernel: str, *, jobs: int, scheduler: str | None, checkpoint: object
) -> str:
    """The kernel of a count spread on ``jobs`` or ``scheduler`` (checked).

    A count spread on several processes is the dense kernel on disk, alone
    or met in the middle (its halves' steps spread): the kernels of
    :data:`cpknight.counting.kernels.KERNELS` marked ``spread``; ``auto``
    stays (the frontier picks one of them); another kernel, or no checkpoint
    directory, is refused. Not spread (one job, no scheduler): ``kernel`` as
    it is.

    Raises:
        InvalidInputError: ``jobs`` not a positive int; spread without a
            checkpoint directory, or with a kernel that does not spread.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InvalidInputError(f"jobs must be a positive int: {jobs!r}")
    if jobs == 1 and scheduler is None:
        return kernel
    if checkpoint is None:
        raise InvalidInputError(
            "a count is shared by several processes through its states on "
            "disk: give a checkpoint directory (--resume DIR)"
        )
    return check_spread_kernel(kernel)


@contextlib.contextmanager
def spreading(
    run: Run, *, jobs: int = 1, scheduler: str | None = None
) -> Iterator[RunnerMap | None]:
    """The mapper that spreads a count's buckets, its workers kept until the end.

    None with one job and no scheduler (the count runs in this process).
    """
    if jobs == 1 and scheduler is None:
        yield None
        return
    options = RunOptions(jobs=min(jobs, usable_cores()), scheduler=scheduler)
    with Workers() as workers:
        yield RunnerMap(options, workers, run)


class RunnerMap:
    """Runs the dense kernel's bucket tasks on the runner: their rows in order.

    Its clock is the count's: between tasks the runner asks it (the deadline
    and Ctrl-C stop the workers at once, not after the cell), and the count
    stops as at its time limit.

    Attributes:
        workers: the tasks that run at once on this machine (they share the
            memory budget and the cores); 0 on a cluster elsewhere.
    """

    def __init__(self, options: RunOptions, workers: Workers, run: Run) -> None:
        self.options = options
        self.held = workers
        self.run = run
        self.workers = options.jobs
        if options.scheduler == "local":
            self.workers = options.jobs if options.jobs > 1 else usable_cores()
        elif options.scheduler is not None:
            self.workers = 0
        self.calls = 0

    def __call__(self, function: Callable[..., Any], items: list[Any]) -> list[Row]:
        """``function(item)`` for every item, on the runner's workers."""
        self.calls += 1
        target = f"{function.__module__}:{function.__name__}"
        tasks = [
            Task(f"{self.calls}.{k}", target, (item,)) for k, item in enumerate(items)
        ]
        remaining = self.run.remaining()
        deadline = None if remaining is None else time.time() + remaining
        options = RunOptions(
            jobs=self.options.jobs, scheduler=self.options.scheduler, deadline=deadline
        )
        what = "counting tours: a cell's buckets"
        try:
            with _stopped_by(self.run, remaining):
                rows = run_tasks(
                    tasks,
                    options,
                    workers=self.held,
                    progress=lambda _done, _total: self.run.check(what),
                )
        except KeyboardInterrupt:  # RunInterrupted, or before the tasks began
            self.run.check(what)  # the limit or Ctrl-C: SolveLimitError
            raise  # a second Ctrl-C
        if any(row.get(AGAIN) for row in rows):  # the runner's deadline
            self.run.check(what, grace=1.0)
            raise SolveLimitError(f"the time limit was reached while {what}")
        for row in rows:  # a worker that died again and again (out of memory?)
            if row.get("status") == "unknown":
                raise SolveLimitError(f"{row.get('reason')} while {what}")
        return rows


@contextlib.contextmanager
def _stopped_by(run: Run, remaining: float | None) -> Iterator[None]:
    """While inside, Ctrl-C and the deadline raise KeyboardInterrupt at once.

    The runner then stops its workers and raises :class:`RunInterrupted`; the
    run's clock says which it was (Ctrl-C expires it as
    :func:`cpknight.solving.interruptible` does). Outside the main thread, or
    where Ctrl-C is ignored, nothing changes: the runner's deadline and its
    progress calls stop the run.
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        yield
        return

    def on_sigint(signum: int, frame: object) -> None:
        if not run.clock.expired():
            run.clock.interrupt()
        raise KeyboardInterrupt

    done = threading.Event()

    def watch() -> None:  # the deadline, as a Ctrl-C the clock calls a limit
        if remaining is not None and not done.wait(remaining + 0.01):
            _thread.interrupt_main()

    previous = signal.signal(signal.SIGINT, on_sigint)
    watcher = threading.Thread(target=watch, daemon=True)
    if remaining is not None:
        watcher.start()
    try:
        yield
    finally:
        done.set()
        try:
            if remaining is not None:
                watcher.join()
        except KeyboardInterrupt:  # the deadline came as the tasks ended
            pass
        signal.signal(signal.SIGINT, previous)
