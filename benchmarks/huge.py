"""Huge boards: the tiles engine, whole process and construction, verified.

Run: ``python benchmarks/huge.py`` (a few minutes), ``--quick`` (under a
minute), ``--cpsat`` to add the largest board CP-SAT alone closes in 60 s.

Tables:

1. whole process: ``cpknight tour NxN --out FILE`` (text and ``.npy``) and
   ``cpknight check`` of the file: wall and CPU seconds and peak memory of
   each process (``os.wait4`` resource usage: ``ru_maxrss``);
2. in process: construction (tiles joined) and verification (``check_tour``)
   apart, beside the ``greedy`` engine (Warnsdorff without backtracking) on
   the same boards when it is installed;
3. CP-SAT alone (``--cpsat``): n x n closed tours for growing n, 60 s each;
4. the sweep: every m x n with 5 <= m <= n <= 60 and a sample of sizes up to
   1000, closed where Schwenk allows, open otherwise; failures listed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpknight.api import TOUR_METHODS, find_tour
from cpknight.board import Board
from cpknight.errors import CpknightError
from cpknight.render import table_text
from cpknight.results import check_tour
from cpknight.solving import SolveOptions
from cpknight.tour_tiles import closed_tour_exists, tile_tour


def _cpknight() -> list[str]:
    found = shutil.which("cpknight") or str(Path(sys.executable).with_name("cpknight"))
    return [found] if Path(found).exists() else [sys.executable, "-m", "cpknight"]


def _run(argv: list[str]) -> tuple[float, float, float, int, str]:
    """Wall seconds, CPU seconds, peak MB, exit code and output of one child."""
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as said:
        child = subprocess.Popen(argv, stdout=said, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        said.seek(0)
        text = said.read().strip()
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, usage.ru_maxrss / 1024, child.returncode, text


def whole_process(sizes: list[int]) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for side in sizes:
            closed = side % 2 == 0
            spec = f"{side}x{side}"
            for suffix in (".txt", ".npy"):
                out = str(Path(folder) / f"tour{suffix}")
                flags = [] if closed else ["--open"]
                make, make_cpu, make_mb, rc1, _ = _run(
                    [*_cpknight(), "tour", spec, *flags, "--out", out, "--force"]
                )
                check, check_cpu, check_mb, rc2, said = _run(
                    [*_cpknight(), "check", spec, out, *(["--closed"] * closed)]
                )
                ok = rc1 == 0 and rc2 == 0 and said.startswith("ok")
                rows.append(
                    [
                        spec,
                        "closed" if closed else "open",
                        suffix,
                        f"{make:.2f}",
                        f"{make_cpu:.2f}",
                        f"{make_mb:.0f}",
                        f"{check:.2f}",
                        f"{check_cpu:.2f}",
                        f"{check_mb:.0f}",
                        "ok" if ok else f"FAILED: {said[:60]}",
                    ]
                )
                Path(out).unlink(missing_ok=True)
    print("1. whole process (cpknight tour --out FILE; cpknight check FILE)")
    print(
        table_text(
            [
                "board",
                "kind",
                "file",
                "tour s",
                "cpu s",
                "peak MB",
                "check s",
                "cpu s",
                "peak MB",
                "verified",
            ],
            rows,
        )
    )


def in_process(sizes: list[int], *, greedy: bool) -> None:
    rows = []
    has_greedy = greedy and "greedy" in TOUR_METHODS
    for side in sizes:
        board = Board((side, side))
        closed = closed_tour_exists(side, side)
        began = time.perf_counter()
        tour = tile_tour(board, closed=closed)
        total = time.perf_counter() - began
        began = time.perf_counter()
        check_tour(board, tour.array, closed=closed)
        check = time.perf_counter() - began
        row: list[object] = [
            f"{side}x{side}",
            "closed" if closed else "open",
            f"{max(total - check, 0.0):.3f}",
            f"{check:.3f}",
            f"{total:.3f}",
        ]
        if has_greedy and side <= 1000:
            began = time.perf_counter()
            try:
                find_tour(
                    board,
                    closed=False,
                    method="greedy",
                    options=SolveOptions(time_limit=60),
                )
                outcome = "found"
            except CpknightError as exc:
                outcome = type(exc).__name__
            row += [f"{time.perf_counter() - began:.2f}", outcome]
        elif has_greedy:
            row += ["-", "skipped"]
        rows.append(row)
    headers = ["board", "kind", "build s", "check s", "tile_tour s"]
    if has_greedy:
        headers += ["greedy s", "greedy (open)"]
    print("2. in process: construction and verification apart")
    print(table_text(headers, rows))
    if not has_greedy:
        print("(the greedy engine is not installed: its columns are left out)")


def cpsat_alone(limit: float) -> None:
    rows = []
    largest = None
    for side in range(10, 301, 10):
        board = Board((side, side))
        began = time.perf_counter()
        try:
            find_tour(board, method="cpsat", options=SolveOptions(time_limit=limit))
            outcome = "found"
            largest = side
        except CpknightError as exc:
            outcome = type(exc).__name__
        rows.append([f"{side}x{side}", f"{time.perf_counter() - began:.2f}", outcome])
        if outcome != "found":
            break
    print(f"3. CP-SAT alone, closed n x n, {limit:.0f} s each")
    print(table_text(["board", "seconds", "outcome"], rows))
    print(f"largest closed in the limit: {largest}x{largest}" if largest else "none")


def sweep(top: int, samples: int) -> None:
    boards = [(m, n) for m in range(5, top + 1) for n in range(m, top + 1)]
    rng = random.Random(0)
    extra = [
        tuple(sorted((rng.randint(5, 1000), rng.randint(5, 1000))))
        for _ in range(samples)
    ]
    failures = []
    began = time.perf_counter()
    counts = {"closed": 0, "open": 0}
    for m, n in boards + extra:
        closed = closed_tour_exists(m, n)
        try:
            tour = tile_tour(Board((m, n)), closed=closed)
            check_tour(Board((m, n)), tour.array, closed=closed)
            counts["closed" if closed else "open"] += 1
        except Exception as exc:  # every failure is listed, none stops the sweep
            failures.append(f"{m}x{n} {'closed' if closed else 'open'}: {exc!r}")
    seconds = time.perf_counter() - began
    print(
        f"4. sweep: {len(boards)} boards 5 <= m <= n <= {top} and {len(extra)} "
        f"sampled up to 1000: {counts['closed']} closed, {counts['open']} open, "
        f"{len(failures)} failures, {seconds:.1f} s"
    )
    for line in failures:
        print("   FAILED", line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument(
        "--cpsat", action="store_true", help="also run CP-SAT alone (minutes)"
    )
    parser.add_argument("--no-greedy", action="store_true", help="skip greedy")
    args = parser.parse_args(argv)
    if args.quick:
        whole_process([1000, 1001])
        in_process([100, 1000], greedy=not args.no_greedy)
        sweep(30, 10)
    else:
        whole_process([1000, 1001, 2000, 4000])
        in_process([100, 500, 1000, 1001, 2000, 4000], greedy=not args.no_greedy)
        sweep(60, 60)
    if args.cpsat:
        cpsat_alone(60.0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
