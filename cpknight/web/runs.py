"""The runs of one server: a worker process per engine, live rows, cancel.

A run of the API (``/api/runs``) is a :class:`JobRace`: one job raced by its
engines, each in a process of its own (forked from a warm fork server, so the
server's own process never holds a solver; not a solving
:class:`~cpknight.solving.Run`, which each worker starts for its engine). A
supervisor thread per race collects the rows as they come; the page reads them
as server-sent events. :meth:`JobRace.cancel` is Ctrl-C for the run: SIGINT to
every worker still going, whose engine then stops at its next clock check and
sends what it has; a worker still alive a second later is killed and its row
says so. :class:`RaceManager` keeps at most ``caps.runs`` races going at once
and forgets old finished ones.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import uuid
from collections import OrderedDict
from multiprocessing.connection import Connection, wait
from typing import Any

from cpknight.errors import CpknightError, EngineError
from cpknight.results import Outcome
from cpknight.status import Status
from cpknight.web.jobs import CAPS, Caps, Job
from cpknight.web.worker import PRELOAD, work

__all__ = ["CANCEL_GRACE", "BusyError", "JobRace", "RaceManager", "run_code"]

CANCEL_GRACE = 0.8
"""Seconds a worker has after SIGINT to send its row before it is killed."""

LIMIT_GRACE = 3.0
"""Seconds past its time limit after which a worker is killed (it promises 1)."""

KEEP_FINISHED = 32
"""Finished runs kept for reading back; older ones are forgotten."""


def _nothing() -> None:
    """A worker that does nothing: starting one warms the fork server."""


def _start_forkserver() -> None:
    """Start the fork server and its resource tracker, not waiting for them to warm.

    Started from the main thread, they start deaf to Ctrl-C (SIGINT ignored
    across their ``exec``): Ctrl-C at a terminal reaches the whole process
    group, and a fork server still importing :data:`PRELOAD` died of it with
    a traceback, taking the server's start-up with it (exit 3). The server
    ignores Ctrl-C too for the few milliseconds the two spawns take (a
    disposition is the process's, not the thread's), before it shows its
    address: a Ctrl-C in that moment is lost. Off the main thread (a test's
    client) there is no terminal, and a signal's handler cannot be set.
    """
    import multiprocessing.forkserver

    if threading.current_thread() is not threading.main_thread():
        multiprocessing.forkserver.ensure_running()
        return
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, handler or signal.default_int_handler)


class BusyError(CpknightError):
    """Too many runs at once: the request is refused (HTTP 429)."""


class JobRace:
    """One job raced by its engines (a run of the API); rows arrive as each ends.

    Attributes:
        id: the run's name in the API paths.
        job: the checked job.
        rows: one row per engine, ``None`` until it has finished.
        done: set when every engine has finished (or was stopped).
    """

    def __init__(self, job: Job, context: Any) -> None:
        self.id = uuid.uuid4().hex[:12]
        self.job = job
        self.rows: list[dict[str, Any] | None] = [None] * len(job.methods)
        self.errors: list[str] = []
        self.done = threading.Event()
        self.cancelled = False
        self.version = 0
        self.started = time.perf_counter()
        self._lock = threading.Lock()
        self._context = context
        self._cancel_at: float | None = None
        self._procs: list[Any] = []

    # ------------------------------------------------------------- reading
    def document(self) -> dict[str, Any]:
        """The run as the one JSON schema's comparison, with its state.

        ``rows`` holds the finished engines' outcome rows, in the order asked;
        ``running`` names those still going.
        """
        with self._lock:
            rows = [row for row in self.rows if row is not None]
            running = [
                name
                for name, row in zip(self.job.methods, self.rows, strict=True)
                if row is None
            ]
        document: dict[str, Any] = {
            "schema": 1,
            "question": self.job.question,
            "instance": self.job.instance(),
            "rows": rows,
            "id": self.id,
            "state": "done" if self.done.is_set() else "running",
            "running": running,
            "cancelled": self.cancelled,
        }
        if self.errors:
            document["errors"] = list(self.errors)
        return document

    # ------------------------------------------------------------- running
    def start(self) -> None:
        """Start a worker per engine and the thread that waits for them."""
        for method in self.job.methods:
            here, there = self._context.Pipe(duplex=False)
            proc = self._context.Process(
                target=work, args=(self.job, method, there), daemon=True
            )
            proc.start()
            there.close()
            self._procs.append((proc, here))
        threading.Thread(
            target=self._supervise, name=f"cpknight-run-{self.id}", daemon=True
        ).start()

    def cancel(self) -> None:
        """Stop every engine still going (SIGINT, then a kill after a grace)."""
        with self._lock:
            if self.done.is_set() or self.cancelled:
                return
            self.cancelled = True
            self._cancel_at = time.perf_counter()
        for index, (proc, _) in enumerate(self._procs):
            if self.rows[index] is None and proc.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGINT)

    def _supervise(self) -> None:
        waiting = {conn: index for index, (_, conn) in enumerate(self._procs)}
        deadline = self.started + self.job.time_limit + LIMIT_GRACE
        while waiting:
            for conn in wait(list(waiting), timeout=0.05):
                self._receive(waiting.pop(conn), conn)  # type: ignore[arg-type]
            now = time.perf_counter()
            cancel_at = self._cancel_at
            late = cancel_at is not None and now > cancel_at + CANCEL_GRACE
            if late or now > deadline:
                why = "cancelled" if late else "stopped: past the time limit"
                for conn, index in list(waiting.items()):
                    self._procs[index][0].kill()
                    self._set(index, self._stopped_row(index, why))
                    waiting.pop(conn)
        for proc, conn in self._procs:
            proc.join(timeout=2)
            conn.close()
        self._cross_check()
        with self._lock:
            self.version += 1
        self.done.set()

    def _receive(self, index: int, conn: Connection) -> None:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the worker died without a word
            why = "cancelled" if self.cancelled else "the worker process stopped"
            message = {"row": self._stopped_row(index, why)}
        if "error" in message:
            self.errors.append(f"{self.job.methods[index]}: {message['error']}")
            message = {"row": self._stopped_row(index, message["error"])}
        row = message["row"]
        if self.cancelled and row.get("status") == "unknown":
            row["reason"] = row.get("reason") or "cancelled"
        self._set(index, row)

    def _stopped_row(self, index: int, why: str) -> dict[str, Any]:
        seconds = time.perf_counter() - self.started
        return Outcome(
            self.job.question,
            self.job.methods[index],
            Status.UNKNOWN,
            seconds,
            reason=why,
        ).as_dict()

    def _set(self, index: int, row: dict[str, Any]) -> None:
        row["engine"] = self.job.methods[index]  # the engine asked (auto: its pick)
        with self._lock:
            self.rows[index] = row
            self.version += 1

    def _cross_check(self) -> None:
        """Engines that disagree on existence: our bug, said in the document."""
        statuses = {row["status"] for row in self.rows if row is not None}
        if "infeasible" in statuses and statuses & {"found", "optimal", "feasible"}:
            self.errors.append(
                str(
                    EngineError(
                        "engines disagree on existence: "
                        + ", ".join(
                            f"{row['method']} {row['status']}"
                            for row in self.rows
                            if row is not None
                        )
                    )
                )
            )


def run_code(document: dict[str, Any]) -> str:
    """The run's status word: the first proved answer's, else unknown or refused.

    Examples:
        >>> run_code({"rows": [{"status": "unknown"}, {"status": "found"}]})
        'found'
        >>> run_code({"rows": [{"status": "refused"}]})
        'refused'
    """
    statuses = [row["status"] for row in document["rows"]]
    for word in ("found", "optimal", "infeasible", "feasible", "unknown"):
        if word in statuses:
            return word
    return "refused" if statuses else ""


class RaceManager:
    """The runs of one server: start, look up, cancel; at most ``caps.runs`` going."""

    def __init__(self, caps: Caps = CAPS) -> None:
        self.caps = caps
        self._runs: OrderedDict[str, JobRace] = OrderedDict()
        self._lock = threading.Lock()
        self._context: Any = None

    def context(self) -> Any:
        """The fork server's context (started on first use, warm with PRELOAD).

        Called first from the main thread (``serve`` does), the fork server
        ignores Ctrl-C, which the server handles for the whole process group;
        each worker takes it back (:func:`~cpknight.web.worker.work`): cancel
        is Ctrl-C.
        """
        with self._lock:
            if self._context is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(PRELOAD)
                _start_forkserver()
                self._context = context
            return self._context

    def warm(self) -> None:
        """Start the fork server now, so that the first run starts quickly."""
        process = self.context().Process(target=_nothing, daemon=True)
        process.start()  # returns once the fork server has loaded PRELOAD
        process.join()

    def warm_soon(self) -> threading.Thread:
        """Warm the fork server in a thread of its own (the server goes on).

        A warm that fails (the server stopping under it) is silent: the
        first run would say what is wrong.
        """

        def warm_quietly() -> None:
            with contextlib.suppress(OSError, EOFError, ValueError):
                self.warm()

        thread = threading.Thread(
            target=warm_quietly, name="cpknight-warm", daemon=True
        )
        thread.start()
        return thread

    def start(self, job: Job) -> JobRace:
        """Start a run of ``job``.

        Raises:
            BusyError: ``caps.runs`` runs are going already.
        """
        context = self.context()
        with self._lock:
            going = sum(1 for run in self._runs.values() if not run.done.is_set())
            if going >= self.caps.runs:
                raise BusyError(
                    f"{going} runs are going already (at most {self.caps.runs} at "
                    "once here): wait for one or cancel it"
                )
            run = JobRace(job, context)
            self._runs[run.id] = run
            finished = [k for k, r in self._runs.items() if r.done.is_set()]
            for key in finished[: max(0, len(finished) - KEEP_FINISHED)]:
                del self._runs[key]
        run.start()
        return run

    def get(self, run_id: str) -> JobRace | None:
        """The run of that id, if it is known."""
        with self._lock:
            return self._runs.get(run_id)

    def going(self) -> int:
        """How many runs are going."""
        with self._lock:
            return sum(1 for run in self._runs.values() if not run.done.is_set())

    def cancel_all(self, wait_seconds: float = 2.0) -> None:
        """Cancel every run and wait for them to stop (the server stopping)."""
        with self._lock:
            runs = list(self._runs.values())
        for run in runs:
            run.cancel()
        for run in runs:
            run.done.wait(wait_seconds)
