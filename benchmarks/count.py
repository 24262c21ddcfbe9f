"""Counting tours: the frontier program against CP-SAT enumeration in the same run.

Rows:

- closed 6x6 (9,862 undirected, OEIS A001230) and 6x7 (1,067,638, A175881):
  CP-SAT enumeration / frontier (met in the middle, its compiled loops
  loaded before the timings, as OR-Tools is), target ratio >= 10; CP-SAT
  gets at most ten times the frontier's time, and a count still running
  then is a ratio above 10 (``--quick``: open 3x12, 114,496 directed,
  A118067, the kernel ``auto`` picks).
- open 6x6 (6,637,920 directed, A165134): met in the middle (the meet
  kernel), target 3 s; the numpy and the dense kernels (the whole program
  from one end) in the same run are the baselines (the ratios are the
  figures to trust on a shared machine).
- closed 6 x n for n = 1..20 (A175881), every length from one frontier run on
  6x20 (``count_tours(prefixes=True)``), target 60 s altogether, each term
  checked against A175881; the numpy kernel beside it.
- ``--big``: open 7x7 (165,575,218,320 directed; Stertenbrink 2013), target
  600 s and 4 GB (with the peak states, memory and disk it took): met in the
  middle within ``--memory`` (past it, the halves' states go to a temporary
  directory); the baseline is the dense kernel on disk given the same time,
  and how far it got.
- ``--spread``: open 6x6 on disk within ``--spread-memory`` (so that its
  states are split into buckets), in this process (one job) and shared by
  two worker processes (``jobs=2``), in the same run: the ratio of the two
  is the figure (on a 2-core machine the one job already runs its compiled
  loops on both cores).
- ``--dask``: the same on a Dask LocalCluster (``scheduler='local'``, the
  ``dask`` extra) of one worker and of two, in the same run: the speed-up of
  the second worker (``--dask-board``: another board, open tours).
- ``--record DIR``: closed 8x8 (13,267,364,410,532 undirected; McKay 1997,
  OEIS A001230) met in the middle, the halves' states on disk under DIR,
  resumable: run the same command again after a stop. Prints the wall time,
  peak memory and disk.

Every row gets a verdict; the exit code is 1 when any is missed. Run:
``python benchmarks/count.py`` (a few minutes), ``--quick`` (small rows only).
The machine may be shared: run it two or three times and take the best.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time

from cpknight import SolveOptions, count_tours
from cpknight.results import TourCount
from cpknight.text.render import table_text

A175881 = {
    5: 8,
    6: 9862,
    7: 1067638,
    8: 55488142,
    9: 3374967940,
    10: 239187240144,
    11: 15360134570696,
    12: 964730606632516,
    13: 61989683445413228,
    14: 4005716717182224826,
    15: 255967892553030600920,
    16: 16378998506224697063588,
    17: 1050504687249683771795632,
    18: 67351449674771471216148786,
    19: 4314151246752166099728445868,
    20: 276453522147273309254029785276,
}
"""Closed tours of 6 x n (undirected), OEIS A175881."""

RATIO = 10.0
"""Target: CP-SAT enumeration seconds / frontier seconds on closed 6x6."""
OPEN_SECONDS = 3.0
"""Target: open 6x6 by the frontier program."""
STRIPS_SECONDS = 60.0
"""Target: closed 6 x n, n = 1..20, altogether."""
BIG_SECONDS = 600.0
"""Target (stretch): open 7x7."""


def _timed(
    board: str,
    *,
    closed: bool,
    method: str,
    limit: float | None = None,
    prefixes: bool = False,
    memory_mb: float | None = None,
    kernel: str = "auto",
    checkpoint: str | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> tuple[float, TourCount]:
    started = time.perf_counter()
    got = count_tours(
        board,
        closed=closed,
        method=method,
        options=SolveOptions(time_limit=limit, workers=1, seed=0),
        prefixes=prefixes,
        memory_mb=memory_mb,
        kernel=kernel,
        checkpoint=checkpoint,
        jobs=jobs,
        scheduler=scheduler,
    )
    return time.perf_counter() - started, got


def _verdict(met: bool) -> str:
    return "ok" if met else "MISSED"


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table; exit code 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small rows only")
    parser.add_argument("--big", action="store_true", help="add open 7x7")
    parser.add_argument(
        "--memory", type=float, default=4096, help="MB for open 7x7 (default 4096)"
    )
    parser.add_argument(
        "--record",
        metavar="DIR",
        help="add closed 8x8, its states on disk under DIR (run again to resume)",
    )
    parser.add_argument(
        "--record-memory",
        type=float,
        default=16000,
        help="MB for closed 8x8 (default 16000)",
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="add open 6x6 on disk, one job against two worker processes",
    )
    parser.add_argument(
        "--dask",
        action="store_true",
        help="the --spread count on a Dask LocalCluster: 2 workers against 1",
    )
    parser.add_argument(
        "--dask-board",
        default="6x6",
        help="the board of the --dask row (open tours; default 6x6)",
    )
    parser.add_argument(
        "--spread-memory",
        type=float,
        default=256,
        help="MB for the --spread row (default 256: 32 to 64 buckets a cell)",
    )
    args = parser.parse_args(argv)
    rows: list[list[object]] = []
    missed = 0

    def add(
        case: str, ours: float, base: str, target: str, met: bool, note: str
    ) -> None:
        nonlocal missed
        missed += not met
        rows.append([case, round(ours, 2), base, target, _verdict(met), note])

    # ratio rows: CP-SAT enumeration against the frontier, CP-SAT given at
    # most RATIO times the frontier's time (still counting then: ratio > RATIO)
    cases = [("3x12", False, 114496)]  # A118067
    kernel = "auto"
    if not args.quick:
        cases = [("6x6", True, 19724), ("6x7", True, 2135276)]  # A001230, A175881
        kernel = "meet"
    _timed("3x4", closed=False, method="cpsat")  # load OR-Tools outside the timings
    _timed("3x4", closed=False, method="frontier", kernel="dense")  # and numba's
    _timed("5x6", closed=True, method="frontier", kernel="meet")
    for board, closed, want in cases:
        ours, got = _timed(board, closed=closed, method="frontier", kernel=kernel)
        assert got.directed == want, got
        base, by_cpsat = _timed(
            board, closed=closed, method="cpsat", limit=max(RATIO * ours, 0.1)
        )
        finished = by_cpsat.status == "found"
        if finished:
            assert by_cpsat.directed == want, by_cpsat
        ratio = base / ours
        kind = "closed" if closed else "open"
        stats = got.frontier
        add(
            f"{kind} {board} ({want} directed), {stats.kernel if stats else '-'}",
            ours,
            f"cpsat {base:.2f} s"
            + ("" if finished else f" (at the cap: {by_cpsat.directed} counted)"),
            f"cpsat / frontier >= {RATIO:g}",
            not finished or ratio >= RATIO,
            ("" if finished else "> ")
            + f"{ratio:.1f}x, peak {got.frontier.peak if got.frontier else '-'} states",
        )
    if not args.quick:
        ours, got = _timed("6x6", closed=False, method="frontier", kernel="meet")
        assert (got.directed, got.undirected) == (6637920, 3318960), got  # A165134
        base, by_numpy = _timed("6x6", closed=False, method="frontier", kernel="numpy")
        assert by_numpy.directed == got.directed
        dense, by_dense = _timed("6x6", closed=False, method="frontier", kernel="dense")
        assert by_dense.directed == got.directed
        add(
            "open 6x6 (6637920 directed), met in the middle",
            ours,
            f"numpy {base:.2f} s, dense {dense:.2f} s",
            f"<= {OPEN_SECONDS:g} s",
            ours <= OPEN_SECONDS,
            f"{base / ours:.1f}x numpy, {dense / ours:.1f}x dense; peak "
            f"{got.frontier.peak if got.frontier else '-'} states (one end: "
            f"{by_dense.frontier.peak if by_dense.frontier else '-'})",
        )
        ours, got = _timed(
            "6x20", closed=True, method="frontier", prefixes=True, kernel="dense"
        )
        assert got.frontier is not None
        found = dict(got.frontier.prefixes)
        wrong = [n for n, want in A175881.items() if found.get(n) != want]
        assert not wrong, wrong
        base, _ = _timed(
            "6x20", closed=True, method="frontier", prefixes=True, kernel="numpy"
        )
        add(
            "closed 6 x n, n = 1..20 (A175881)",
            ours,
            f"numpy kernel {base:.2f} s",
            f"<= {STRIPS_SECONDS:g} s",
            ours <= STRIPS_SECONDS,
            f"{base / ours:.1f}x; peak {got.frontier.peak} states, all 16 terms match",
        )
    if args.big:
        ours, got = _timed(
            "7x7",
            closed=False,
            method="frontier",
            limit=BIG_SECONDS,
            memory_mb=args.memory,
            kernel="meet",  # past --memory, its halves on a temporary disk
        )
        peak = _peak_mb()
        done = got.status == "found"
        if done:
            assert got.directed == 165575218320, got
        stats = got.frontier
        with tempfile.TemporaryDirectory(prefix="cpknight-7x7-") as where:
            base, by_dense = _timed(
                "7x7",
                closed=False,
                method="frontier",
                limit=max(ours, 10.0),
                memory_mb=args.memory,
                kernel="dense",
                checkpoint=where,  # the states on disk, within --memory
            )
        far = by_dense.frontier
        reached = (
            "counted"
            if by_dense.status == "found"
            else f"stopped at cell {far.done if far else 0} of 49, "
            f"{far.peak if far else 0} live states"
        )
        add(
            "open 7x7 (165575218320 directed), met in the middle",
            ours,
            f"dense on disk, same time: {reached}",
            f"<= {BIG_SECONDS:g} s, {args.memory:g} MB",
            done and peak <= args.memory,
            f"peak {stats.peak if stats else '-'} states, {peak:.0f} MB, disk "
            f"{stats.disk_mb if stats else 0:.0f} MB; "
            + ("" if done else str(stats.stopped if stats else "")),
        )
    if args.spread:
        import numba

        seconds: dict[int, float] = {}
        counts: dict[int, TourCount] = {}
        threads = numba.get_num_threads()
        for jobs in (1, 2, 0):  # 0: one job on one thread
            numba.set_num_threads(1 if jobs == 0 else threads)
            with tempfile.TemporaryDirectory(prefix="cpknight-spread-") as where:
                seconds[jobs], counts[jobs] = _timed(
                    "6x6",
                    closed=False,
                    method="frontier",
                    memory_mb=args.spread_memory,
                    kernel="dense",
                    checkpoint=where,
                    jobs=max(jobs, 1),
                )
            assert counts[jobs].directed == 6637920, counts[jobs]  # A165134
        numba.set_num_threads(threads)
        one, two = counts[1].frontier, counts[2].frontier
        add(
            f"open 6x6 on disk, {args.spread_memory:g} MB, 2 jobs",
            seconds[2],
            f"1 job {seconds[1]:.2f} s ({threads} threads), "
            f"{seconds[0]:.2f} s (1 thread)",
            "counts equal",
            True,
            f"{seconds[1] / seconds[2]:.2f}x one job, {seconds[0] / seconds[2]:.2f}x "
            f"on one thread; buckets {one.buckets if one else '-'} (1 job), "
            f"{two.buckets if two else '-'} (2 jobs)",
        )
    if args.dask:
        # The same count on a Dask LocalCluster (``--scheduler local``) of one
        # worker and of two: the speed-up of the second worker, on this machine.
        took: dict[int, float] = {}
        for workers in (1, 2):
            with tempfile.TemporaryDirectory(prefix="cpknight-dask-") as where:
                took[workers], got = _timed(
                    args.dask_board,
                    closed=False,
                    method="frontier",
                    memory_mb=args.spread_memory,
                    kernel="dense",
                    checkpoint=where,
                    jobs=workers,
                    scheduler="local",
                )
            took[-workers], inline = _timed(
                args.dask_board, closed=False, method="frontier", kernel="dense"
            )
            assert got.directed == inline.directed, (got, inline)
        add(
            f"open {args.dask_board} on Dask, 2 workers",
            took[2],
            f"1 worker {took[1]:.2f} s; in memory {took[-1]:.2f} s",
            "counts equal",
            True,
            f"{took[1] / took[2]:.2f}x one worker",
        )
    if args.record:
        ours, got = _timed(
            "8x8",
            closed=True,
            method="frontier",
            memory_mb=args.record_memory,
            kernel="meet",
            checkpoint=args.record,
        )
        done = got.status == "found"
        if done:
            assert got.undirected == 13267364410532, got  # A001230
        stats = got.frontier
        add(
            "closed 8x8 (13267364410532 undirected)",
            ours,
            "-",
            "finishes on this machine",
            done,
            f"peak {stats.peak if stats else '-'} states, {_peak_mb():.0f} MB, "
            f"disk {stats.disk_mb if stats else 0:.0f} MB"
            + (
                f", resumed after cell {stats.resumed}"
                if stats and stats.resumed
                else ""
            )
            + ("" if done else f"; {stats.stopped if stats else ''}"),
        )
    print(
        "Counting tours: the frontier program against CP-SAT enumeration in the "
        "same run (seconds; the machine may be shared)"
    )
    print(table_text(["case", "frontier s", "baseline", "target", "verdict", ""], rows))
    print(
        "(frontier: the kernel the row names; the strips' row: the kernel auto "
        "picks, the numpy one beside it)"
    )
    print(f"\ntargets: {'all met' if not missed else f'{missed} MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
