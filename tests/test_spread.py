"""One count on disk shared by several processes (issue 26, "Several machines").

The dense kernel steps a cell's input buckets and sums its output buckets as
independent tasks; :func:`cpknight.count_tours` with ``jobs`` or a Dask
``scheduler`` runs them on the runner. A memory budget so small that every
cell is split into many buckets must give the count of the in-memory dense
kernel and of the dict kernel (written apart: tuples and Python ints), on a
process pool of 2 and on a Dask ``LocalCluster``; a run stopped mid-way
resumes to the same count, and Ctrl-C stops the workers at once, keeping the
cells done.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cpknight import count_tours
from cpknight.board import Board
from cpknight.counting.dense_kernel import Spill, count_frontier_dense
from cpknight.counting.dict_kernel import count_frontier_dict
from cpknight.errors import InvalidInputError
from cpknight.frontier.plan import plan_frontier
from cpknight.pieces import KNIGHT, move_graph
from cpknight.runner import Task, Workers, run_tasks

pytest.importorskip("numba")

# Boards as (board, closed): a rectangle closed and open, a cylinder.
CASES = [
    (Board.parse("5x6"), True),
    (Board.parse("4x5"), False),
    (Board.parse("3x5", topology="cylinder"), True),
]
TINY_MB = 0.5  # the wide cells split into 16 buckets (8 a worker)


def by_dict(board: Board, closed: bool) -> int:
    """The undirected count by the dict kernel (in memory, Python ints)."""
    return count_frontier_dict(plan_frontier(move_graph(board, KNIGHT), closed=closed))[
        0
    ]


def test_a_pool_of_two_gives_the_counts_of_the_other_kernels(tmp_path: Path) -> None:
    for k, (board, closed) in enumerate(CASES):
        want = by_dict(board, closed)
        in_memory = count_tours(board, closed=closed, method="frontier", kernel="dense")
        spread = count_tours(
            board,
            closed=closed,
            method="frontier",
            kernel="dense",
            checkpoint=tmp_path / str(k),
            memory_mb=TINY_MB,
            jobs=2,
        )
        assert spread.undirected == in_memory.undirected == want, board.label
        assert spread.directed == in_memory.directed
        stats = spread.frontier
        assert stats is not None
        assert in_memory.frontier is not None
        assert stats.buckets >= 8  # split: many tasks a cell
        assert stats.live == in_memory.frontier.live  # every cell's states
        assert stats.tried == in_memory.frontier.tried  # the workers' pairs added


def test_a_dask_local_cluster_gives_the_same_count(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    board = Board.parse("5x6")
    got = count_tours(
        board,
        method="frontier",
        kernel="dense",
        checkpoint=tmp_path / "c",
        memory_mb=TINY_MB,
        scheduler="local",
        jobs=2,
    )
    assert got.undirected == by_dict(board, True)
    assert got.frontier is not None
    assert got.frontier.buckets >= 8


class Stop(Exception):
    pass


def test_a_spread_run_stopped_mid_way_resumes_to_the_same_count(
    tmp_path: Path,
) -> None:
    graph = move_graph("4x5")
    plan = plan_frontier(graph, closed=False)
    degrees = [len(graph.neighbors(u)) for u in range(graph.n_nodes)]
    want = count_frontier_dict(plan)[0]

    def check(step: int, live: int, tried: int) -> None:
        if step == 9:
            raise Stop

    with Workers() as workers:

        def spread(function: object, items: list[object]) -> list[dict[str, int]]:
            target = f"{function.__module__}:{function.__name__}"  # type: ignore[attr-defined]
            tasks = [Task(str(k), target, (item,)) for k, item in enumerate(items)]
            from cpknight.runner import RunOptions

            return run_tasks(tasks, RunOptions(jobs=2), workers=workers)

        spill = Spill(tmp_path / "run", 400_000, map=spread)
        with pytest.raises(Stop):
            count_frontier_dense(plan, check, degrees=degrees, spill=spill)
        got = count_frontier_dense(plan, degrees=degrees, spill=spill)
    assert got.resumed == 9
    assert got.total == want
    # ... and a run resumed in one process reads what the pool wrote
    again = count_frontier_dense(
        plan, degrees=degrees, spill=Spill(tmp_path / "run", 400_000)
    )
    assert again.total == want


def test_spreading_needs_a_checkpoint_and_the_dense_kernel(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="checkpoint"):
        count_tours("5x6", jobs=2)
    with pytest.raises(InvalidInputError, match="dense or meet kernel"):
        count_tours("5x6", jobs=2, kernel="numpy", checkpoint=tmp_path / "c")
    with pytest.raises(InvalidInputError, match="jobs"):
        count_tours("5x6", jobs=0, checkpoint=tmp_path / "c")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cpknight", "count", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_cli_refuses_bad_combinations_in_one_line(tmp_path: Path) -> None:
    where = str(tmp_path / "c")
    for args, word in [
        (["5x6", "--jobs", "2"], "--resume DIR"),
        (["5x6", "--scheduler", "local"], "--resume DIR"),
        (["5x6", "--jobs", "2", "--resume", where, "--kernel", "numpy"], "dense"),
        (["5x6", "--results", str(tmp_path / "r.jsonl")], "--shards"),
    ]:
        done = cli(*args)
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, (args, done.stderr)
        assert word in lines[0], (args, done.stderr)


def test_ctrl_c_stops_the_workers_and_keeps_the_cells_done(tmp_path: Path) -> None:
    where = tmp_path / "count"
    command = [sys.executable, "-m", "cpknight", "count", "6x6", "--open", "--json"]
    command += ["--kernel", "dense", "--resume", str(where), "--memory", "8"]
    command += ["--jobs", "2", "--time-limit", "none"]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    manifest = where / "manifest.json"
    seen: dict[str, Any] = {}
    began = time.monotonic()
    while time.monotonic() - began < 60:  # until a few cells are done
        try:
            seen = json.loads(manifest.read_text())
            if seen["step"] >= 14 and seen["buckets"] >= 4:  # tasks on the pool
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=60)
    stopped = time.monotonic() - sent
    assert proc.returncode == 130, (out, err)
    data = json.loads(out)
    assert (data["method"], data["status"]) == ("frontier", "unknown")
    assert data["directed"] is None
    kept = json.loads(manifest.read_text())
    assert kept["step"] >= 14
    assert not kept["done"]
    assert "kept in" in err  # says the cells done are kept
    print(f"stopped {stopped:.2f} s after Ctrl-C at {seen}")  # the figure only


def test_the_time_limit_stops_a_spread_count_and_keeps_the_cells(
    tmp_path: Path,
) -> None:
    where = tmp_path / "count"
    got = count_tours(
        "6x6",
        closed=False,
        method="frontier",
        kernel="dense",
        checkpoint=where,
        memory_mb=8,
        jobs=2,
        time_limit=3,
    )
    assert str(got.status) == "unknown"
    assert not got.interrupted
    assert got.frontier is not None
    assert "time limit" in str(got.frontier.stopped)
    kept = json.loads((where / "manifest.json").read_text())
    assert kept["step"] >= 1
    assert not kept["done"]
    print(f"stopped {got.seconds:.2f} s into a limit of 3 s")  # the figure only


def test_a_count_met_in_the_middle_shares_its_halves_steps(tmp_path: Path) -> None:
    # The count by the numpy kernel, in memory (the dict kernel takes half a
    # minute on 5x6; the kernels are held to each other in test_frontier).
    want = count_tours("5x6", closed=False, kernel="numpy").undirected
    got = count_tours(
        "5x6",
        closed=False,
        method="frontier",
        kernel="meet",
        checkpoint=tmp_path / "met",
        memory_mb=8,
        jobs=2,
    )
    assert got.undirected == want
    stats = got.frontier
    assert stats is not None
    assert stats.kernel == "meet"
    assert stats.buckets >= 2  # the halves' wide cells split into tasks
