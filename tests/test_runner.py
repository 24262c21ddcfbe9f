"""The runner: same rows in the same order in this process, on a pool, on Dask;
results files, resume, a dead worker, Ctrl-C."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from cpknight.api import sweep
from cpknight.errors import InvalidInputError
from cpknight.runner import (
    RunOptions,
    Task,
    read_results,
    run_tasks,
)
from cpknight.runtime.progress import Progress


def squares(n: int, pause: float = 0.0) -> list[Task]:
    return [Task(f"n={k}", "cpknight.runner:square_row", (k, pause)) for k in range(n)]


def test_rows_come_back_in_task_order_on_a_pool() -> None:
    serial = run_tasks(squares(9))
    pooled = run_tasks(squares(9, 0.01), RunOptions(jobs=2))
    assert pooled == serial
    assert [row["square"] for row in serial] == [k * k for k in range(9)]


def test_bad_runs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="two tasks have the key 'n=1'"):
        run_tasks([*squares(2), *squares(2)[1:]])
    with pytest.raises(InvalidInputError, match="jobs must be a positive int"):
        RunOptions(jobs=0)
    path = tmp_path / "rows.jsonl"
    path.write_text("")
    with pytest.raises(InvalidInputError, match="exists; resume it with --resume"):
        run_tasks(squares(2), RunOptions(results=path))
    with pytest.raises(InvalidInputError, match="does not exist"):
        run_tasks(squares(2), RunOptions(results=tmp_path / "no.jsonl", resume=True))
    path.write_text(json.dumps({"key": "other", "square": 4}) + "\n")
    with pytest.raises(InvalidInputError, match="holds a task of another run"):
        run_tasks(squares(2), RunOptions(results=path, resume=True))


def test_a_torn_last_line_is_not_done_and_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"key": "n=0", "square": 0}) + '\n{"key": "n=1", "sq')
    rows = run_tasks(squares(3), RunOptions(results=path, resume=True))
    assert [row["square"] for row in rows] == [0, 1, 4]
    assert [row["key"] for row in read_results(path)] == ["n=0", "n=1", "n=2"]


BEFORE = "interrupted (Ctrl-C) before this cell was finished"


def _interrupt_after(k: int) -> Any:
    def progress(p: Progress) -> None:
        if p.done == k:
            raise KeyboardInterrupt

    return progress


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_sweep_resumes_with_nothing_lost_or_twice(
    tmp_path: Path, jobs: int
) -> None:
    path = tmp_path / "sweep.jsonl"
    whole = sweep("5x5", closed=False, method="prune")
    cut = sweep(
        "5x5",
        closed=False,
        method="prune",
        run=RunOptions(jobs=jobs, results=path),
        progress=_interrupt_after(7),
    )
    assert cut.interrupted  # the finished cells come back, the rest are unknown
    assert len(read_results(path)) == 7
    done = [c for c in cut.cells if c.reason != BEFORE]
    assert len(done) == 7
    expected = {(c.cell, c.status, c.effort) for c in whole.cells}
    assert {(c.cell, c.status, c.effort) for c in done} <= expected
    assert not multiprocessing.active_children()  # the pool's workers are gone
    seen: list[float] = []

    def heard(p: Progress) -> None:
        seen.append(p.done)

    again = sweep(
        "5x5",
        closed=False,
        method="prune",
        run=RunOptions(jobs=jobs, results=path, resume=True),
        progress=heard,
    )
    assert (seen[0], seen[-1]) == (7, 25)
    keys = [row["key"] for row in read_results(path)]
    assert len(keys) == len(set(keys)) == 25
    assert [(c.cell, c.status, c.effort) for c in again.cells] == [
        (c.cell, c.status, c.effort) for c in whole.cells
    ]


def test_a_dead_pool_worker_has_its_task_run_again() -> None:
    tasks = squares(12, 0.2)
    killed: list[int] = []

    def progress(done: int, total: int) -> None:
        if done == 2 and not killed:
            victim = multiprocessing.active_children()[0]
            assert victim.pid is not None
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    rows = run_tasks(tasks, RunOptions(jobs=2), progress=progress)
    assert killed
    assert rows == run_tasks(squares(12))


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_ctrl_c_while_a_row_is_written_keeps_file_and_rows_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """The rows an interrupted run hands back (and the sum it prints) are the
    rows its file keeps, wherever the Ctrl-C lands in writing the third."""
    import cpknight.runner as runner

    real = runner._Sink.write
    calls = 0

    def write(self: Any, row: dict[str, Any]) -> None:
        nonlocal calls
        calls += 1
        if calls == 3 and when == "before":
            raise KeyboardInterrupt
        real(self, row)
        if calls == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(runner._Sink, "write", write)
    path = tmp_path / "rows.jsonl"
    with pytest.raises(runner.RunInterrupted) as caught:
        run_tasks(squares(5), RunOptions(results=path))
    handed = [row["key"] for row in caught.value.rows if row is not None]
    kept = [row["key"] for row in read_results(path)]
    assert handed == kept
    assert len(kept) == (2 if when == "before" else 3)
    assert caught.value.done == len(kept)
