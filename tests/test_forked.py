"""A forked worker asked to stop (``cpknight/runtime/forked.py``).

``run_forked(..., soft_stop=s)`` sends the worker SIGINT when the caller says
stop, and waits ``s`` seconds for its answer before ending it: SCIP catches
SIGINT and answers with its best. A worker here plays SCIP's part with a
Python handler of its own; it says it is ready (a file) before the caller
says stop, so no case depends on timing.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from types import FrameType

import pytest

from cpknight.runtime.forked import fork_available, run_forked

pytestmark = pytest.mark.skipif(not fork_available(), reason="no fork here")


def _catcher(ready: Path) -> bytes:
    """A worker that stops when sent SIGINT, and says what it was doing."""
    asked: list[int] = []

    def heard(signum: int, frame: FrameType | None) -> None:
        asked.append(signum)

    signal.signal(signal.SIGINT, heard)
    ready.touch()
    began = time.monotonic()
    while not asked and time.monotonic() - began < 300:
        time.sleep(0.01)
    return b"stopped when asked" if asked else b"never asked"


def _deaf(ready: Path) -> bytes:
    """A worker that ignores SIGINT (as run_forked leaves it): HiGHS, say."""
    ready.touch()
    time.sleep(300)
    return b"too late"


def test_a_worker_asked_to_stop_hands_back_its_answer(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    answer = run_forked(lambda: _catcher(ready), ready.exists, soft_stop=60.0)
    assert answer == b"stopped when asked"


def test_without_a_soft_stop_the_worker_is_ended(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    assert run_forked(lambda: _catcher(ready), ready.exists) is None


def test_a_worker_that_does_not_listen_is_ended_after_the_wait(
    tmp_path: Path,
) -> None:
    ready = tmp_path / "ready"
    began = time.monotonic()
    assert run_forked(lambda: _deaf(ready), ready.exists, soft_stop=0.2) is None
    assert time.monotonic() - began < 100  # not the worker's 300 s


def test_the_worker_prints_nothing_to_standard_output(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # SCIP's SIGINT handler printf()s "pressed CTRL-C ..."; a worker's file
    # descriptor 1 goes nowhere
    import os

    def noisy() -> bytes:
        os.write(1, b"pressed CTRL-C 1 times\n")
        return b"done"

    assert run_forked(noisy, lambda: False) == b"done"
    assert "pressed" not in capfd.readouterr().out
