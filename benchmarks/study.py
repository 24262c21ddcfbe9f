"""The runner's cost and gain: overhead per task, and speed-up with 2 workers.

Rows:

- overhead per task (no-op tasks, ``cpknight.runner:square_row``): the runner
  in this process, on a local process pool of 2 and on a Dask LocalCluster of
  2 (start-up included), each against a plain loop calling the same function
  in the same run: ``(runner - loop) / tasks``. Targets: 0.1 ms in this
  process, 5 ms on the pool, 20 ms on the LocalCluster.
- speed-up with 2 workers on a 100-task study (CP-SAT closed tours of 16x16 to
  20x20 boards, seeds 0-19; ``--quick``: 12x12 to 14x14): the serial run's time
  over the pool's and over the LocalCluster's (start-up included); target 1.6
  (near 2 on 2 cores). Both must give the serial run's answers.

Every row gets a verdict; the exit code is 1 when any is missed. The machine
may be shared: run it two or three times and take the best.
Run: ``python benchmarks/study.py`` (about a minute), ``--quick``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from cpknight import SolveOptions
from cpknight.api.tours import tour_task
from cpknight.board import Board
from cpknight.pieces import KNIGHT
from cpknight.render import table_text
from cpknight.runner import RunOptions, Task, execute, run_tasks, usable_cores

OVERHEAD_MS = {"this process": 0.1, "pool of 2": 5.0, "LocalCluster of 2": 20.0}
SPEEDUP = 1.6


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def _timed(tasks: list[Task], options: RunOptions) -> tuple[float, list[Any]]:
    started = time.perf_counter()
    rows = run_tasks(tasks, options)
    return time.perf_counter() - started, rows


def _answers(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["key"], r["status"], r.get("length")) for r in rows]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table; exit code 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args(argv)
    rows: list[list[str]] = []
    missed = 0
    n_noop = 200 if args.quick else 500
    noop = [Task(f"n={k}", "cpknight.runner:square_row", (k,)) for k in range(n_noop)]
    started = time.perf_counter()
    plain = [execute(task) for task in noop]
    loop = time.perf_counter() - started
    for name, options in (
        ("this process", RunOptions()),
        ("pool of 2", RunOptions(jobs=2)),
        ("LocalCluster of 2", RunOptions(jobs=2, scheduler="local")),
    ):
        seconds, got = _timed(noop, options)
        assert got == plain
        per_task = (seconds - loop) / n_noop * 1000
        met = per_task <= OVERHEAD_MS[name]
        missed += not met
        rows.append(
            [
                f"overhead, {name}",
                f"{n_noop} no-op tasks",
                f"{seconds:.3f}",
                f"{loop:.4f}",
                f"{per_task:.3f} ms/task",
                f"<= {OVERHEAD_MS[name]:g} ms",
                _verdict(met),
            ]
        )
    sizes = (12, 13, 14) if args.quick else (16, 18, 20)
    study = [
        tour_task(
            Board.parse(f"{n}x{n}"),
            KNIGHT,
            True,
            None,
            None,
            "cpsat",
            SolveOptions(time_limit=30, workers=1, seed=seed),
        )
        for seed in range(34)
        for n in sizes
    ][:100]
    run_tasks(study[:1])  # load OR-Tools once, outside the timings
    serial, expected = _timed(study, RunOptions())
    for name, how in (
        ("pool of 2", RunOptions(jobs=2)),
        ("LocalCluster of 2", RunOptions(jobs=2, scheduler="local")),
    ):
        seconds, got = _timed(study, how)
        assert _answers(got) == _answers(expected)
        speedup = serial / seconds
        met = speedup >= SPEEDUP
        missed += not met
        rows.append(
            [
                f"speed-up, {name}",
                f"100 CP-SAT tours {sizes[0]}x{sizes[0]}..{sizes[-1]}x{sizes[-1]}",
                f"{seconds:.3f}",
                f"{serial:.3f}",
                f"{speedup:.2f}x",
                f">= {SPEEDUP:g}x",
                _verdict(met),
            ]
        )
    print(
        f"the runner against a plain loop in the same run ({usable_cores()} cores "
        "usable; start-up of pools and clusters included)"
    )
    print(
        table_text(
            ["case", "tasks", "seconds", "baseline s", "result", "target", "verdict"],
            rows,
        )
    )
    print(f"\ntargets: {'all met' if not missed else f'{missed} MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
