"""Work in a forked worker process, ended at once when the caller says stop.

Some native solvers (SCIP, HiGHS, PDLP through OR-Tools' ``model_builder``)
carry on to their own time limit whatever ``stop_search`` says, holding the
thread that called them. :func:`run_forked` runs such work in a fork of this
process (the model shared copy-on-write, nothing serialised on the way in) and
waits in short slices: when ``stop()`` says so (Ctrl-C, the limit), the worker
is ended with SIGKILL and the caller goes on at once.

Given ``soft_stop`` seconds, the worker is first asked to stop with SIGINT and
its answer awaited that long before it is ended. The worker's Python ignores
SIGINT, but SCIP catches it while it solves (its ``misc/catchctrlc``, on by
default) and returns at once with its best solution and bound, which then
reach the caller instead of being lost with the worker. Work that does not
catch SIGINT (HiGHS, PDLP, building a model) is ended when the wait is over.

Examples:
    >>> fork_available() in (True, False)
    True
    >>> run_forked(lambda: b"done", lambda: False) if fork_available() else b"done"
    b'done'
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable

__all__ = ["fork_available", "run_forked"]


def fork_available() -> bool:
    """Whether this system forks (Linux, macOS; not Windows)."""
    return hasattr(os, "fork")


def run_forked(
    work: Callable[[], bytes],
    stop: Callable[[], bool],
    on_ctrl_c: Callable[[], None] | None = None,
    *,
    soft_stop: float = 0.0,
) -> bytes | None:
    """``work()``'s bytes, computed in a forked worker; ``None`` if it was ended.

    Args:
        work: what the worker computes (it ignores Ctrl-C: the caller ends it).
        stop: looked at every 50 ms while waiting; true ends the worker.
        on_ctrl_c: called when Ctrl-C reaches the wait as
            :class:`KeyboardInterrupt` (then ``stop()`` decides, as before).
        soft_stop: when ``stop()`` first says so, send the worker SIGINT and
            wait this many seconds more for its answer before ending it (0:
            end it at once).

    Returns:
        What ``work`` returned, or ``None`` when the worker was ended or died.
    """
    reader, writer = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        with contextlib.suppress(Exception):
            stream.flush()
    parent = os.getpid()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads
        pid = os.fork()
    if pid == 0:  # pragma: no cover (the worker; what it sends is tested)
        code = 0
        try:
            os.close(reader)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            _quiet_stdout()  # SCIP's SIGINT handler printf()s a line
            _orphan_watch(parent)
            view = memoryview(work())
            while view:
                view = view[os.write(writer, view) :]
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writer)
    chunks: list[bytes] = []
    ended = False
    asked: float | None = None  # when the worker was sent SIGINT
    try:
        while True:
            try:
                ready, _, _ = select.select([reader], [], [], 0.05)
            except KeyboardInterrupt:
                if on_ctrl_c is not None:
                    on_ctrl_c()
                ready = []
            if ready:
                chunk = os.read(reader, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            elif asked is not None:  # asked to stop: the wait for its answer
                if time.monotonic() - asked >= soft_stop:
                    ended = True
                    break
            elif stop():
                if soft_stop <= 0:
                    ended = True
                    break
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGINT)  # SCIP stops and answers
                asked = time.monotonic()
    finally:
        os.close(reader)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # done already: a zombie, reaped below
        while True:  # reap the worker, whatever a second Ctrl-C does
            with contextlib.suppress(KeyboardInterrupt, InterruptedError):
                os.waitpid(pid, 0)
                break
    if ended or not chunks:
        return None
    return b"".join(chunks)


def _quiet_stdout() -> None:  # pragma: no cover (runs in the worker)
    """Send the worker's standard output (file descriptor 1) to the null device.

    A worker answers through its pipe and prints nothing of its own; but SCIP's
    SIGINT handler writes "pressed CTRL-C 1 times ..." with ``printf``, which
    would land in the middle of the caller's output.
    """
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
    finally:
        os.close(null)


def _orphan_watch(parent: int) -> None:  # pragma: no cover (runs in the worker)
    """End this worker once its parent is gone (killed, say, with no limit set)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="cpknight-orphan", daemon=True).start()
