"""Studies on a Dask LocalCluster of two worker processes started here: exactly the
serial rows for a sweep, a study and a sharded count; a killed worker's task is
run again."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import distributed
import pytest

from cpknight.api import count_tours, sweep
from cpknight.runner import RunOptions, Task, run_tasks
from cpknight.solving import SolveOptions
from cpknight.study import count_tours_sharded, read_suite_text, run_study

SUITE = """
5x5 --open --start a1
4x4
3x4 --open
6x6 --open --start a1 --end f6
5x5 --torus
holed8 --open
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local


def _answers(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Everything but the wall time."""
    return [
        tuple(sorted((k, str(v)) for k, v in r.items() if k != "seconds")) for r in rows
    ]


def test_sweep_study_and_sharded_count_match_the_serial_run(cluster: Any) -> None:
    on_dask = RunOptions(scheduler=cluster.scheduler_address)
    serial = sweep("5x5", closed=False, method="prune")
    remote = sweep("5x5", closed=False, method="prune", run=on_dask)
    assert [(c.cell, c.status, c.effort, c.reason) for c in remote.cells] == [
        (c.cell, c.status, c.effort, c.reason) for c in serial.cells
    ]
    suite = read_suite_text(SUITE)
    options = SolveOptions(time_limit=20, workers=1, seed=0)
    alone = run_study(suite, methods="cpsat,prune", options=options)
    spread = run_study(suite, methods="cpsat,prune", options=options, run=on_dask)
    assert _answers(spread.flat()) == _answers(alone.flat())
    assert spread.wrong() == []
    whole = count_tours("5x5", closed=False)  # 1728 directed: OEIS A165134
    sharded = count_tours_sharded("5x5", closed=False, shards=8, run=on_dask)
    assert sharded.shards >= 8
    assert (sharded.count.directed, sharded.count.undirected) == (
        whole.directed,
        whole.undirected,
    )


def test_scheduler_local_starts_a_cluster_here() -> None:
    tasks = [Task(f"n={k}", "cpknight.runner:square_row", (k,)) for k in range(6)]
    rows = run_tasks(tasks, RunOptions(scheduler="local", jobs=2))
    assert rows == run_tasks(tasks)


def test_a_killed_worker_has_its_task_run_again(cluster: Any) -> None:
    """SIGKILL to one worker process mid-run: Dask reruns its task elsewhere (the
    nanny restarts the worker); the rows are the serial ones, each once."""
    tasks = [Task(f"n={k}", "cpknight.runner:square_row", (k, 0.25)) for k in range(10)]
    with distributed.Client(cluster) as client:
        pids = sorted(client.run(os.getpid).values())
    killed: list[int] = []

    def progress(done: int, total: int) -> None:
        if done == 2 and not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    rows = run_tasks(
        tasks, RunOptions(scheduler=cluster.scheduler_address), progress=progress
    )
    assert killed
    assert rows == [{"key": f"n={k}", "square": k * k} for k in range(10)]


def test_an_interrupted_run_on_dask_resumes(cluster: Any, tmp_path: Any) -> None:
    from cpknight.runner import RunInterrupted, read_results

    path = tmp_path / "rows.jsonl"
    tasks = [Task(f"n={k}", "cpknight.runner:square_row", (k, 0.05)) for k in range(12)]

    def stop(done: int, total: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    on_dask = RunOptions(scheduler=cluster.scheduler_address, results=path)
    with pytest.raises(RunInterrupted):
        run_tasks(tasks, on_dask, progress=stop)
    assert len(read_results(path)) == 4
    resumed = RunOptions(scheduler=cluster.scheduler_address, results=path, resume=True)
    rows = run_tasks(tasks, resumed)
    assert rows == [{"key": f"n={k}", "square": k * k} for k in range(12)]
    assert sorted(r["key"] for r in read_results(path)) == sorted(t.key for t in tasks)
