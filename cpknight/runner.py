"""Many independent solves: one runner for sweeps, studies and sharded counts.

A run is a list of :class:`Task` values (a key, a function named
``"module:function"`` and its arguments); each task's function returns one
JSON-ready row (a dict), computed and verified in whichever process runs it.
:func:`run_tasks` returns the rows in task order, whatever ran them:

- in this process, one task after another (``jobs=1``, the default);
- on a local process pool (``jobs=N``, capped at the cores; standard library);
- on a Dask cluster (``scheduler='tcp://host:8786'``, or ``'local'`` for a
  ``LocalCluster`` started in this process); needs ``pip install cpknight[dask]``.

Nothing is lost: with ``results=PATH`` every row is appended to a JSON-lines
file as it arrives; ``resume=True`` reads that file first and skips the tasks
it holds. A worker that dies mid-task has its task run again (up to
:data:`ATTEMPTS` times). Ctrl-C stops the run cleanly: the rows already written
stay, and :class:`RunInterrupted` says how many.

Examples:
    >>> tasks = [Task(f"n={n}", "cpknight.runner:square_row", (n,)) for n in range(4)]
    >>> [row["square"] for row in run_tasks(tasks)]
    [0, 1, 4, 9]
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpknight.errors import InvalidInputError
from cpknight.runtime.files import cannot_write

__all__ = [
    "AGAIN",
    "ATTEMPTS",
    "SCHEDULER_PROTOCOLS",
    "RunInterrupted",
    "RunOptions",
    "Task",
    "Workers",
    "check_budget_fits",
    "check_scheduler",
    "execute",
    "read_results",
    "run_tasks",
    "usable_cores",
]

ATTEMPTS = 3
"""How many times a task is tried when the worker running it dies."""

GRACE = 1.0
"""Seconds a running task is given past the run's deadline before it is given up."""

Row = dict[str, Any]

AGAIN = "again"
"""A row with this key true was not run (the whole run's budget had run out):
resuming runs its task again."""
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Task:
    """One independent solve.

    Attributes:
        key: names the task, unique in a run; the results file stores it, and
            ``resume`` skips the keys it finds there. It should spell out
            everything the answer depends on (board, piece, ends, engine, limit).
        target: the function, ``"module:function"``, imported where it runs.
        args: its positional arguments (picklable).
    """

    key: str
    target: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class RunOptions:
    """How to run a list of tasks.

    Args:
        jobs: worker processes for the local pool (1: in this process), capped
            at the cores; with ``scheduler='local'``, the cluster's workers
            (1: one per core).
        scheduler: ``None`` (local), ``'local'`` (a Dask ``LocalCluster``
            started here) or a Dask scheduler address (``'tcp://host:8786'``).
        results: a JSON-lines file to which each row is appended as it arrives.
        resume: read ``results`` first and skip the tasks it holds (the file
            must exist); without it, ``results`` must be a new file.
        deadline: the whole run's budget as a wall time (:func:`time.time`):
            past it no task is started, and each task left gets a row that
            says so (``status`` unknown, :data:`AGAIN`: resuming runs it).

    Raises:
        InvalidInputError: jobs not a positive int, or ``resume`` without a file.
    """

    jobs: int = 1
    scheduler: str | None = None
    results: str | Path | None = None
    resume: bool = False
    deadline: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int):
            raise InvalidInputError(f"jobs must be a positive int: {self.jobs!r}")
        if self.jobs < 1:
            raise InvalidInputError(f"jobs must be a positive int: {self.jobs!r}")
        if self.resume and self.results is None:
            raise InvalidInputError("resuming needs the results file to resume")
        if self.scheduler is not None:
            check_scheduler(self.scheduler)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; the rows already done are kept.

    Attributes:
        done: tasks done (those read from the results file included).
        total: tasks in the run.
        results: the results file holding them, or ``None``.
        rows: one entry per task, in task order: its row if done, else ``None``.
        partial: what the caller made of the rows done, for its own report (a
            study of the instances finished, a pair sweep with the rest
            unknown), or ``None``.
    """

    def __init__(
        self,
        done: int,
        total: int,
        results: str | Path | None,
        rows: Sequence[Row | None] = (),
    ) -> None:
        super().__init__(f"interrupted after {done} of {total} tasks")
        self.done = done
        self.total = total
        self.results = results
        self.rows = list(rows)
        self.partial: Any = None


SCHEDULER_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx")
"""The Dask comm protocols an address may name (``tcp://host:8786``)."""


def check_scheduler(address: object) -> str:
    """A Dask scheduler address checked: ``local``, or ``[PROTOCOL://]HOST:PORT``.

    Raises:
        InvalidInputError: anything else (one line, echoing the address).

    Examples:
        >>> check_scheduler("tcp://127.0.0.1:8786")
        'tcp://127.0.0.1:8786'
        >>> check_scheduler("local")
        'local'
    """
    if not isinstance(address, str):
        raise InvalidInputError(f"a scheduler address must be a str: {address!r}")
    if address == "local":
        return address
    protocol, sep, rest = address.rpartition("://")
    if not sep:
        protocol, rest = "tcp", address
    host, colon, port = rest.rpartition(":")
    why = ""
    if protocol not in SCHEDULER_PROTOCOLS:
        why = f"the protocol is not one of {', '.join(SCHEDULER_PROTOCOLS)}"
    elif not colon or not host or "/" in rest:
        why = "it needs a host and a port"
    elif not port.isascii() or not port.isdigit():
        why = "the port is not a number"
    elif not 0 < int(port) < 65536:
        why = "the port is not between 1 and 65535"
    if why:
        raise InvalidInputError(
            "expected a Dask scheduler address like 'tcp://host:8786' or "
            f"'local': {address!r} ({why})"
        )
    return address


TASK_SECONDS = 40e-6
"""What one task costs a run beside its solve, about: its key, its row, its
place in the report (a 300x300 sweep whose budget ran out at once: 90,000
tasks in about 3.5 s on a shared 2-core machine)."""


TASK_GRACE = 0.5
"""Bookkeeping under this many seconds is never refused (it fits the grace
of a second any limit allows)."""


def check_budget_fits(tasks: int, budget: float | None, what: str) -> None:
    """Refuse, before any work, a run whose bookkeeping alone would eat its budget.

    Raises:
        InvalidInputError: ``tasks`` would take more than half of ``budget``
            seconds (and more than :data:`TASK_GRACE`) in keys, rows and the
            report, whatever the solves take.

    Examples:
        >>> check_budget_fits(10_000, 2.0, "a sweep of 100x100")
        >>> check_budget_fits(10**6, 2.0, "a sweep of 1000x1000")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: a sweep of 1000x1000 is 1,000,000 \
tasks: about 40 s of bookkeeping alone, over half the budget of 2 s (raise \
--budget, or ask about a smaller board)
    """
    cost = tasks * TASK_SECONDS
    if budget is None or cost <= budget / 2 or cost <= TASK_GRACE:
        return
    raise InvalidInputError(
        f"{what} is {tasks:,} tasks: about {tasks * TASK_SECONDS:.2g} s of "
        f"bookkeeping alone, over half the budget of {budget:g} s (raise "
        "--budget, or ask about a smaller board)"
    )


class Workers:
    """Worker processes kept from one run of tasks to the next.

    Runs that follow one another (the steps of a count on disk, each a short
    list of tasks) share one process pool, or one Dask client (and the
    ``LocalCluster`` started for it), instead of starting their own:
    ``with Workers() as workers: run_tasks(tasks, options, workers=workers)``.
    A run stopped early (Ctrl-C, the deadline, a worker that died) stops the
    pool's processes; the next run starts new ones. Closed on the way out.
    """

    def __init__(self) -> None:
        self.pool: Any = None
        self.client: Any = None
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def hold(self, context: contextlib.AbstractContextManager[Any]) -> Any:
        """Enter ``context`` until :meth:`close` (a client and its cluster)."""
        return self._stack.enter_context(context)

    def close(self) -> None:
        """Stop the pool's processes; close the client (and its cluster)."""
        if self.pool is not None:
            _stop_pool(self.pool)
            self.pool = None
        self.client = None
        self._stack.close()


def usable_cores() -> int:
    """The cores this process may use (at least 1).

    Examples:
        >>> usable_cores() >= 1
        True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover (not Linux)
        return max(1, os.cpu_count() or 1)


def execute(task: Task) -> Row:
    """Run one task where it is: import its function, call it, key the row.

    Examples:
        >>> execute(Task("three", "cpknight.runner:square_row", (3,)))
        {'key': 'three', 'square': 9}
    """
    module, _, name = task.target.partition(":")
    function = getattr(importlib.import_module(module), name)
    row: Row = function(*task.args)
    return {"key": task.key, **row}


def square_row(n: int, pause: float = 0.0) -> Row:
    """A tiny task for examples, tests and benchmarks: ``{'square': n * n}``.

    Args:
        n: the number.
        pause: seconds to sleep first (a stand-in for a solve).
    """
    if pause:
        time.sleep(pause)
    return {"square": n * n}


def run_tasks(
    tasks: Sequence[Task],
    options: RunOptions | None = None,
    *,
    progress: Progress | None = None,
    workers: Workers | None = None,
) -> list[Row]:
    """Run every task and return their rows in task order.

    Args:
        tasks: the tasks (keys unique).
        options: jobs, scheduler, results file, resume.
        progress: called as ``progress(done, total)`` after each task (and
            first with the tasks read from the results file, if any).
        workers: processes kept from an earlier run to use again (and to
            keep for the next); None: started for this run and stopped.

    Returns:
        One row per task, in the order of ``tasks``, each with its ``key``.

    Raises:
        RunInterrupted: Ctrl-C (or a KeyboardInterrupt raised by ``progress``);
            the rows done so far are in the results file.
        InvalidInputError: duplicate keys; a results file that exists (without
            resume), is missing (with resume), holds another run's tasks or
            cannot be written; a scheduler that cannot be reached; Dask not
            installed.

    Examples:
        >>> import pathlib, tempfile
        >>> tasks = [Task(str(n), "cpknight.runner:square_row", (n,)) for n in (2, 3)]
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder, "rows.jsonl")
        ...     first = run_tasks(tasks[:1], RunOptions(results=path))
        ...     again = run_tasks(tasks, RunOptions(results=path, resume=True))
        ...     len(path.read_text().splitlines())
        2
        >>> [row["square"] for row in again]
        [4, 9]
    """
    opts = options or RunOptions()
    keys = [task.key for task in tasks]
    if len(set(keys)) != len(keys):
        twice = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise InvalidInputError(f"two tasks have the key {twice!r}")
    if opts.scheduler is not None:
        _dask()
    done: dict[str, Row] = {}
    if opts.results is not None:
        done = _open_results(opts.results, set(keys), resume=opts.resume)
    total = len(tasks)
    todo = [i for i, task in enumerate(tasks) if task.key not in done]
    rows: list[Row | None] = [done.get(task.key) for task in tasks]
    count = total - len(todo)
    sink = None if opts.results is None else _Sink(opts.results)
    arriving = _rows(tasks, todo, opts, workers)
    try:
        if progress is not None and count:
            progress(count, total)
        for index, row in arriving:
            rows[index] = row
            if sink is not None:
                sink.write(row)
            count += 1
            if progress is not None:
                progress(count, total)
    except KeyboardInterrupt:
        if opts.results is not None:  # a Ctrl-C may land between list and file
            rows = _as_kept(rows, opts.results)
            count = sum(row is not None for row in rows)
        raise RunInterrupted(count, total, opts.results, rows) from None
    finally:
        arriving.close()  # stops the workers at once, not when collected
        if sink is not None:
            sink.close()
    return [row for row in rows if row is not None]


def read_results(path: str | Path) -> list[Row]:
    r"""The rows of a results file, in the order written (a torn last line dropped).

    Raises:
        InvalidInputError: the file cannot be read, or a line before the last
            is not a JSON row.

    Examples:
        >>> import pathlib, tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder, "rows.jsonl")
        ...     _ = path.write_text('{"key": "a", "x": 1}\n{"key": "b", "x"')
        ...     read_results(path)
        [{'key': 'a', 'x': 1}]
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        message = f"cannot read results file '{path}': {reason}"
        raise InvalidInputError(message) from None
    lines = text.split("\n")
    rows: list[Row] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            row = None
        if not isinstance(row, dict) or not isinstance(row.get("key"), str):
            if number == len(lines):  # torn by a kill mid-write: not done
                break
            raise InvalidInputError(
                f"line {number} of results file '{path}' is not a result row"
            )
        rows.append(row)
    return rows


# --------------------------------------------------------------------- private


def _open_results(path: str | Path, keys: set[str], *, resume: bool) -> dict[str, Row]:
    """Check the results file and read what it holds (when resuming)."""
    file = Path(path)
    if not resume:
        if file.exists():
            raise InvalidInputError(
                f"results file '{path}' exists; resume it with --resume {path}, "
                "or name a new file"
            )
        try:
            file.touch()
        except OSError as exc:
            raise InvalidInputError(cannot_write(path, exc)) from None
        return {}
    if not file.exists():
        raise InvalidInputError(f"results file '{path}' does not exist")
    done: dict[str, Row] = {}
    for row in read_results(file):
        key = row["key"]
        if key not in keys:
            raise InvalidInputError(
                f"results file '{path}' holds a task of another run ({key!r}); "
                "resume with the arguments that started it"
            )
        if not row.get(AGAIN):  # a task the run's budget left is not done
            done.setdefault(key, row)
    _drop_torn_line(file)
    return done


def _drop_torn_line(file: Path) -> None:
    """Cut a partial last line (a write cut short) so that appends start clean."""
    data = file.read_bytes()
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with file.open("r+b") as handle:
            handle.truncate(keep)


class _Sink:
    """The results file, opened for appending: one line per row.

    Lines are written straight through, with no buffer that a Ctrl-C could
    leave to be flushed later, at close.
    """

    def __init__(self, path: str | Path) -> None:
        try:
            self.handle = Path(path).open("ab", buffering=0)  # noqa: SIM115
        except OSError as exc:
            raise InvalidInputError(cannot_write(path, exc)) from None

    def write(self, row: Row) -> None:
        data = memoryview((json.dumps(row) + "\n").encode("utf-8"))
        while data:
            data = data[self.handle.write(data) or 0 :]

    def close(self) -> None:
        self.handle.close()


def _as_kept(rows: list[Row | None], results: str | Path) -> list[Row | None]:
    """The rows the results file holds, no more: those of an interrupted run."""
    try:
        kept = {row["key"] for row in read_results(results)}
    except InvalidInputError:
        return rows  # unreadable now: the rows as they are
    return [row if row is not None and row["key"] in kept else None for row in rows]


def _rows(
    tasks: Sequence[Task],
    todo: list[int],
    opts: RunOptions,
    workers: Workers | None = None,
) -> Generator[tuple[int, Row], None, None]:
    """``(index, row)`` for each task to do, in the order they finish."""
    if not todo:
        return
    if opts.scheduler is not None:
        yield from _dask_rows(tasks, todo, opts, workers)
        return
    jobs = min(opts.jobs, usable_cores(), len(todo))
    if jobs == 1:
        for index in todo:
            if _past(opts.deadline):
                yield index, _not_started(tasks[index])
                continue
            yield index, execute(tasks[index])
        return
    yield from _pool_rows(tasks, todo, jobs, opts.deadline, workers)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.time() >= deadline


def _not_started(task: Task) -> Row:
    """The row of a task the run's budget left: not done, run again on resume."""
    why = "the run's budget ran out before this task"
    return {"key": task.key, "status": "unknown", "reason": why, AGAIN: True}


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them.

    A worker starts with Ctrl-C held back (:func:`_sigint_held`); ignored
    from here on, one that came while it started is dropped with it.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _died(task: Task, attempts: int) -> Row:
    return {
        "key": task.key,
        "status": "unknown",
        "reason": f"the worker running this task died {attempts} times",
    }


def _pool_rows(
    tasks: Sequence[Task],
    todo: list[int],
    jobs: int,
    deadline: float | None = None,
    workers: Workers | None = None,
) -> Iterator[tuple[int, Row]]:
    """A spawned process pool, a few tasks ahead of the workers, restarted if broken.

    A worker that dies breaks the whole pool: the pool is started again and the
    tasks it had in hand are submitted again; a task in hand at ATTEMPTS breaks
    is given up with a row that says so.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # Spawn, not fork: the parent may hold OR-Tools threads.
    context = multiprocessing.get_context("spawn")
    queue = list(reversed(todo))  # popped from the end: task order
    broken: dict[int, int] = {}
    ahead = 4 * jobs
    while queue:
        pool = None if workers is None else workers.pool
        if pool is None:
            pool = ProcessPoolExecutor(
                max_workers=jobs, mp_context=context, initializer=_ignore_sigint
            )
        if workers is not None:
            workers.pool = pool
        running: dict[Future[Row], int] = {}
        clean = False  # every task done, none running: the pool may be kept
        try:
            while queue or running:
                # Workers are started as tasks are submitted: with Ctrl-C
                # held back, so that one starting now is deaf to it until
                # its initializer ignores it, and leaves Ctrl-C to us.
                if _past(deadline):  # the budget is spent: start nothing more
                    while queue:
                        index = queue.pop()
                        yield index, _not_started(tasks[index])
                    # The tasks running have their limits cut to the deadline:
                    # a second more, then what is left is given up.
                    done, _ = wait(running, timeout=GRACE)
                    for future in list(running):
                        index = running.pop(future)
                        late = future not in done or future.exception() is not None
                        yield (
                            index,
                            _not_started(tasks[index]) if late else (future.result()),
                        )
                    break
                with _sigint_held():
                    while queue and len(running) < ahead:
                        index = queue.pop()
                        running[pool.submit(execute, tasks[index])] = index
                timeout = None if deadline is None else max(0.0, deadline - time.time())
                finished, _ = wait(
                    running, timeout=timeout, return_when=FIRST_COMPLETED
                )
                broke = False
                for future in finished:
                    index = running.pop(future)
                    try:
                        row = future.result()
                    except BrokenProcessPool:
                        broke = True
                        broken[index] = broken.get(index, 0) + 1
                        if broken[index] >= ATTEMPTS:
                            yield index, _died(tasks[index], broken[index])
                        else:
                            queue.append(index)
                        continue
                    yield index, row
                if broke:
                    break
            else:
                clean = True
        finally:
            for future in running:
                future.cancel()
            if workers is None or not clean:
                _stop_pool(pool)
                if workers is not None:
                    workers.pool = None
        queue.extend(running.values())


def _stop_pool(pool: Any) -> None:
    """Shut a pool down now: queued tasks cancelled, running workers ended."""
    # The pool's table of workers (shutdown drops the pool's reference to it;
    # its own thread may still add a worker it was starting): look again until
    # every process it ever listed has ended.
    listed: dict[int, Any] = getattr(pool, "_processes", None) or {}
    pool.shutdown(wait=False, cancel_futures=True)
    ended: set[int] = set()
    for _ in range(3):
        processes = [p for p in list(listed.values()) if id(p) not in ended]
        if not processes:
            break
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(5)
            ended.add(id(process))
        time.sleep(0.05)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back from this thread while it starts processes.

    A process inherits the signals its starter holds back, through ``exec``:
    a worker cannot be interrupted before its initializer ignores Ctrl-C.
    This process still hears it: another thread takes it, or, with none, it
    waits and comes on the way out (where :func:`_sigint_ignored` would drop
    it). Without signal masks (Windows) the workers are started ignoring it.
    """
    if not hasattr(signal, "pthread_sigmask"):
        with _sigint_ignored():
            yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while processes are started, so that they ignore it too.

    A process started with SIGINT ignored keeps ignoring it (and Python then
    installs no KeyboardInterrupt handler in it): the workers of a LocalCluster
    leave Ctrl-C to this process, which stops them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _dask() -> Any:
    """The ``distributed`` module, or a clear error when it is not installed."""
    try:
        import distributed
    except ImportError:
        raise InvalidInputError(
            "a Dask scheduler needs the dask extra: pip install 'cpknight[dask]'"
        ) from None
    return distributed


def _dask_rows(
    tasks: Sequence[Task],
    todo: list[int],
    opts: RunOptions,
    workers: Workers | None = None,
) -> Iterator[tuple[int, Row]]:
    """Every task submitted to a Dask cluster; rows as they complete.

    Dask reruns a task whose worker died (``distributed.scheduler.allowed-failures``
    times, then ``KilledWorker``, which gives the task up with a row that says so).
    """
    distributed = _dask()
    with _kept_client(distributed, opts, workers) as client:
        stamp = f"{os.getpid()}-{time.time_ns()}"
        submitted = client.map(
            execute,
            [tasks[i] for i in todo],
            key=[f"cpknight-{stamp}-{i}" for i in todo],
            pure=False,
        )
        futures = dict(zip(submitted, todo, strict=True))
        try:
            # Results come with their futures, fetched as they finish (one
            # round trip a result would cost milliseconds each).
            arriving = distributed.as_completed(
                futures, with_results=True, raise_errors=False
            )
            for future, result in arriving:
                index = futures[future]
                row: Row = result
                if future.status == "error":
                    error = result[1]
                    if not isinstance(error, distributed.KilledWorker):
                        raise error
                    row = _died(tasks[index], ATTEMPTS)
                yield index, row
        finally:
            client.cancel(list(futures))


@contextlib.contextmanager
def _kept_client(
    distributed: Any, opts: RunOptions, workers: Workers | None
) -> Iterator[Any]:
    """The client ``workers`` keeps (made on first use), or one for this run."""
    if workers is None:
        with _dask_client(distributed, opts) as client:
            yield client
        return
    if workers.client is None:
        workers.client = workers.hold(_dask_client(distributed, opts))
    yield workers.client


@contextlib.contextmanager
def _dask_client(distributed: Any, opts: RunOptions) -> Iterator[Any]:
    """A client of ``opts.scheduler``: a cluster started here (``local``) or an address.

    The client, and a cluster started here, are closed on the way out.

    Raises:
        InvalidInputError: the scheduler at the address cannot be reached.
    """
    import logging  # a cluster's only: not every command's start-up

    cluster: Any = None
    client: Any = None
    try:
        if opts.scheduler == "local":
            workers = opts.jobs if opts.jobs > 1 else usable_cores()
            with _sigint_ignored():  # inherited: Ctrl-C is for this process
                cluster = distributed.LocalCluster(
                    n_workers=min(workers, usable_cores()),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    # the workers' log lines (a heartbeat missed while the
                    # cluster closes) are not the user's business
                    silence_logs=logging.CRITICAL,
                )
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(opts.scheduler, timeout="10s")
            except (OSError, ValueError, TypeError) as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise InvalidInputError(
                    f"cannot reach the Dask scheduler {opts.scheduler!r}: {reason}"
                ) from None
        yield client
    finally:
        if cluster is not None:  # what its workers still run is not wanted
            _end_workers(cluster)
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _end_workers(cluster: Any) -> None:
    """End the worker processes of a ``LocalCluster`` started here, now.

    Its ``close()`` waits for the tasks they run (up to their time limit:
    seconds after a Ctrl-C); ended first, the cluster closes at once.
    """
    kill = getattr(signal, "SIGKILL", signal.SIGTERM)
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(nanny, "pid", None)
        if not isinstance(pid, int) or pid <= 0:
            continue
        with contextlib.suppress(Exception):  # its nanny: no restart
            nanny.close_gracefully(reason="cpknight: the run is over")
        with contextlib.suppress(OSError):
            os.kill(pid, kill)
