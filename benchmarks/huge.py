"""Huge boards: the tiles engine, whole process and construction, verified.

Run: ``python benchmarks/huge.py`` (a few minutes), ``--quick`` (under a
minute), ``--cpsat`` to add the largest board CP-SAT alone closes in 60 s.

Tables:

0. whole process against Parberry's divide-and-conquer C++ program
   (``--parberry PROGRAM``, measured in the same run; without it, the
   figures measured on this machine, named as such): ``cpknight tour NxN
   --out FILE`` in the three formats (one cell a line, ``.npy``, the compact
   ``.moves``), and ``cpknight check FILE``, each a row. His program writes
   the same one-cell-a-line file as ``cpknight tour --out FILE.txt``, in one
   of two ways (both rows shown): ``printf`` (``fprintf`` a line, the
   everyday way, and the baseline the targets are judged against:
   ``--parberry-writer``) and ``buffer`` (formatted by hand into one buffer:
   his construction plus the fastest plain writer). Targets
   (``AGAINST_PARBERRY``): within 2x of his whole process on 1000x1000 and
   1.3x on 2000x2000. Both tours, his file and ours (one cell a line, and
   the ``.npy``), are verified by a few lines of numpy here that share no
   code with cpknight (every cell once, every step and the closing one a
   knight's move); ``cpknight check`` reads each of our files too. Floors,
   same run: ``python -c pass`` and ``python -c 'import numpy'`` (a target
   below the latter is out of reach for any Python program that imports
   numpy, and is said so). The package is byte-compiled first, as an
   installed one is.

   His program: the Tourney sources (MIT licence) are fetched, not kept
   here; ``benchmarks/parberry/driver.cpp`` drives his ``CDivideAndConquer``
   (``PROGRAM N OUTBASE [buffer|printf|none]`` writes a closed N x N tour to
   ``OUTBASE.txt``), and ``benchmarks/parberry/build.sh`` builds it::

       git clone https://github.com/Ian-Parberry/Tourney /tmp/Tourney
       benchmarks/parberry/build.sh /tmp/Tourney /tmp/tourney
       python benchmarks/huge.py --parberry /tmp/tourney --parberry-only

1. whole process: ``cpknight tour NxN --out FILE`` (text and ``.npy``) and
   ``cpknight check`` of the file: wall and CPU seconds and peak memory of
   each process (``os.wait4`` resource usage: ``ru_maxrss``). Baseline, same
   run: the I/O floor, a bare Python process that imports numpy and writes the
   same tour (``np.save`` of the array; the same text bytes), as a ratio.
   Targets (closed, tour process): 1000x1000 <= 2 s, 2000x2000 <= 8 s;
2. in process: construction (tiles joined) and verification (``check_tour``)
   apart, as ratios to ``np.save`` of the same array and to the ``greedy``
   engine (Warnsdorff without backtracking) on the same board, both measured
   here, and to Parberry's: his whole 1000x1000 process as measured in table
   0 when ``--parberry`` is given (an upper bound on his construction), else
   his published C++ time (0.43 s, another machine), named as such. Target:
   1000x1000 construction comparable to it (within ``COMPARABLE`` times);
3. CP-SAT alone (``--cpsat``): n x n closed tours for growing n, 60 s each;
4. the sweep: every m x n with 5 <= m <= n <= 60 and a sample of sizes up to
   1000, closed where Schwenk allows, open otherwise; failures listed.

Exit code 1 when a target is missed or a tour fails to verify.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import cpknight
from cpknight.api import TOUR_METHODS, find_tour
from cpknight.board import Board
from cpknight.checks import check_tour
from cpknight.errors import CpknightError
from cpknight.solving import SolveOptions
from cpknight.text.render import table_text
from cpknight.tiling import tile_tour
from cpknight.tours.existence import closed_tour_exists


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


WHOLE_SECONDS = {1000: 2.0, 2000: 8.0}
"""Targets (issue): the whole ``cpknight tour NxN --out FILE`` process, closed."""

PARBERRY_SECONDS = 0.43
"""Parberry's C++ construction time (published, not measured here), 1000x1000."""

COMPARABLE = 2.0
"""Construction counts as comparable to Parberry's within this factor."""

FLOOR = {
    ".npy": "import numpy as np, sys; np.save(sys.argv[2], np.load(sys.argv[1]))",
    ".txt": (
        "import numpy, sys, pathlib; "
        "pathlib.Path(sys.argv[2]).write_bytes(pathlib.Path(sys.argv[1]).read_bytes())"
    ),
}
"""The I/O floor, one child process per file type: start Python, import numpy,
write the same tour (np.save of the array; the same text bytes copied)."""


def whole_process(sizes: list[int]) -> bool:
    """Table 1; whether every run verified and met its target."""
    rows = []
    met = True
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
                check, _, check_mb, rc2, said = _run(
                    [*_cpknight(), "check", spec, out, *flags]
                )
                ok = rc1 == 0 and rc2 == 0 and said.startswith("ok")
                # The floor writes this very tour: the file cpknight wrote
                # (.txt) or its array, read back (.npy).
                source = str(Path(folder) / f"source{suffix}")
                Path(out).replace(source)
                floor, *_, rc3, said3 = _run(
                    [sys.executable, "-c", FLOOR[suffix], source, out]
                )
                if rc3 != 0:
                    raise RuntimeError(f"the I/O floor process failed: {said3}")
                target = WHOLE_SECONDS.get(side) if closed else None
                verdict = "ok" if ok else f"FAILED: {said[:60]}"
                if ok and target is not None and make > target:
                    verdict = "MISSED"
                met = met and verdict == "ok"
                rows.append(
                    [
                        spec,
                        "closed" if closed else "open",
                        suffix,
                        make,
                        make_cpu,
                        round(make_mb),
                        floor,
                        make / floor,
                        f"<= {target:g} s" if target is not None else "-",
                        check,
                        round(check_mb),
                        verdict,
                    ]
                )
                for name in (out, source):
                    Path(name).unlink(missing_ok=True)
    print(
        "1. whole process: cpknight tour --out FILE, then cpknight check FILE; "
        "floor = a bare python + numpy process writing the same tour "
        "(np.save / the same bytes); ratio = tour s / floor s"
    )
    print(
        table_text(
            [
                "board",
                "kind",
                "file",
                "tour s",
                "cpu s",
                "peak MB",
                "floor s",
                "ratio",
                "target",
                "check s",
                "peak MB",
                "verdict",
            ],
            rows,
        )
    )
    return met


def in_process(
    sizes: list[int], *, greedy: bool, parberry: tuple[float, str] | None = None
) -> bool:
    """Table 2; whether the construction is comparable to Parberry's."""
    rows = []
    met = True
    has_greedy = greedy and "greedy" in TOUR_METHODS
    # His whole 1000x1000 process measured in this run (an upper bound on his
    # construction) when table 0 ran it; else the published figure, named so.
    base, named = parberry or (
        PARBERRY_SECONDS,
        "his published C++ time, another machine",
    )
    with tempfile.TemporaryDirectory() as folder:
        for side in sizes:
            board = Board((side, side))
            closed = closed_tour_exists(side, side)
            began = time.perf_counter()
            tour = tile_tour(board, closed=closed)
            total = time.perf_counter() - began
            began = time.perf_counter()
            check_tour(board, tour.array, closed=closed)
            check = time.perf_counter() - began
            build = max(total - check, 1e-9)
            saved = Path(folder) / "tour.npy"
            began = time.perf_counter()
            np.save(saved, tour.array)
            save = time.perf_counter() - began
            saved.unlink()
            verdict = "-"
            if side == 1000:
                ok = build <= COMPARABLE * base
                met = met and ok
                verdict = "ok" if ok else "MISSED"
            row: list[object] = [
                f"{side}x{side}",
                "closed" if closed else "open",
                build,
                check,
                save,
                build / save,
                build / base if side == 1000 else None,
                verdict,
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
                seconds = time.perf_counter() - began
                row += [seconds, outcome, seconds / build]
            elif has_greedy:
                row += [None, "skipped", None]
            rows.append(row)
    headers = [
        "board",
        "kind",
        "build s",
        "check s",
        "np.save s",
        "x np.save",
        "x Parberry",
        "comparable",
    ]
    if has_greedy:
        headers += ["greedy s", "greedy (open)", "greedy / build"]
    print(
        "2. in process: construction (tiles joined) and verification apart; "
        "x np.save = build s / saving the same array; x Parberry = build s / "
        f"{base:.3f} s ({named}; comparable: within "
        f"{COMPARABLE:g}x, judged on 1000x1000); greedy / build = how many times "
        "longer the greedy engine takes on the same board"
    )
    print(table_text(headers, rows))
    if not has_greedy:
        print("(the greedy engine is not installed: its columns are left out)")
    return met


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


def sweep(top: int, samples: int) -> bool:
    """Table 4; whether every board got its tour."""
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
    return not failures


PARBERRY_WHOLE = {
    "printf": {1000: 0.12, 2000: 0.50},
    "buffer": {1000: 0.053, 2000: 0.29},
}
"""Parberry's divide-and-conquer C++ program (github.com/Ian-Parberry/Tourney,
built with -O3 by ``benchmarks/parberry/build.sh``, writing one closed n x n
tour one cell a line), whole process, fastest of 7, by writer, as measured on
this machine in issue 36; used when the program is not given with
``--parberry`` (then it is measured in the same run)."""

PARBERRY_WRITERS = ("printf", "buffer")
"""The ways his driver writes the file (``benchmarks/parberry/driver.cpp``)."""

AGAINST_PARBERRY = {1000: 2.0, 2000: 1.3}
"""Targets (issue 36): our whole process within this factor of Parberry's
(his ``--parberry-writer``, ``printf`` unless told), by board side."""


VERIFY = """
import sys
import numpy as np
path, side = sys.argv[1], int(sys.argv[2])
if path.endswith(".npy"):
    cells = np.load(path).astype(np.int64)
else:
    with open(path, "rb") as handle:
        text = handle.read().replace(b"\\n", b",").decode("ascii")
    cells = np.fromstring(text, dtype=np.int64, sep=",").reshape(-1, 2)
ok = cells.shape == (side * side, 2) and cells.min() >= 0 and cells.max() < side
ok = ok and np.unique(cells[:, 0] * side + cells[:, 1]).size == side * side
steps = np.abs(np.diff(np.vstack([cells, cells[:1]]), axis=0))
ok = ok and bool((np.sort(steps, axis=1) == [1, 2]).all())
sys.exit(0 if ok else 1)
"""
"""The numpy check of a tour file (:func:`verified_file`), run as a child."""


def verified_file(path: Path, side: int) -> bool:
    """Whether a tour file holds a closed knight's tour of the side x side board.

    Independent of cpknight (:data:`VERIFY`, a child process that imports
    numpy alone, so that its arrays do not swell this process, whose size
    each child it starts inherits in its peak memory): the file's numbers
    (one cell a line, ``row,col``; or a ``.npy`` array), every cell once,
    every step and the closing one a knight's move.
    """
    done = subprocess.run([sys.executable, "-c", VERIFY, str(path), str(side)])
    return done.returncode == 0


def best_of(argv: list[str], times: int) -> tuple[float, float, str]:
    """Fastest wall and CPU seconds of ``times`` runs; fails loudly on an error."""
    wall = cpu = float("inf")
    said = ""
    for _ in range(times):
        w, c, _, code, said = _run(argv)
        if code != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {said[:200]}")
        wall, cpu = min(wall, w), min(cpu, c)
    return wall, cpu, said


FLOORS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
}
"""The part of a whole process no Python program can avoid, measured here."""


def interleaved(
    jobs: dict[str, list[str]], times: int
) -> dict[str, tuple[float, float, str]]:
    """:func:`best_of` for several processes, run in turn ``times`` rounds.

    Each job's fastest wall and CPU seconds and its last output: load that
    comes and goes falls on every job alike. A job runs after the ones
    before it in the round (a file is written before it is checked).
    """
    best = {name: (float("inf"), float("inf"), "") for name in jobs}
    for _ in range(times):
        for name, argv in jobs.items():
            wall, cpu, _, code, said = _run(argv)
            if code != 0:
                raise RuntimeError(f"{' '.join(argv)} failed: {said[:200]}")
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu), said)
    return best


def against_parberry(
    sizes: list[int], program: str | None, times: int, writer: str = "printf"
) -> tuple[bool, dict[int, float]]:
    """Table 0: whole processes beside Parberry's C++ program.

    Returns whether every target was met, and his wall seconds by side (with
    ``writer``) when measured in this run.

    Each cpknight process (``tour --out FILE`` in three formats, then
    ``check FILE``), his program (both writers) and the floors (Python,
    Python importing numpy) run in turn (:func:`interleaved`), fastest of
    ``times``; the targets are judged against his ``writer``. A target below
    the numpy floor is said to be out of reach for any program that imports
    numpy, not counted as met. His files and ours are verified by
    :func:`verified_file`.
    """
    # The package's bytecode, as an installed package has it (this process may
    # run with PYTHONDONTWRITEBYTECODE: each child would compile every module).
    compileall.compile_dir(Path(cpknight.__file__).parent, quiet=1)
    rows: list[list[object]] = []
    met = True
    measured: dict[int, float] = {}
    suffixes = (".txt", ".npy", ".moves")
    with tempfile.TemporaryDirectory() as folder:
        for side in sizes:
            spec = f"{side}x{side}"
            jobs = {f"floor: {name}": argv for name, argv in FLOORS.items()}
            if program:
                for way in PARBERRY_WRITERS:
                    out = str(Path(folder) / f"p-{way}")
                    jobs[way] = [program, str(side), out, way]
            for suffix in suffixes:
                out = str(Path(folder) / f"tour{suffix}")
                jobs[f"tour {suffix}"] = [
                    *_cpknight(),
                    "tour",
                    spec,
                    "--out",
                    out,
                    "--force",
                ]
                jobs[f"check {suffix}"] = [*_cpknight(), "check", spec, out]
            best = interleaved(jobs, times)
            numpy_floor = best["floor: python -c 'import numpy'"][0]
            for name in FLOORS:
                wall, cpu, _ = best[f"floor: {name}"]
                rows.append([spec, f"floor: {name}", "measured here", wall, cpu])
                rows[-1] += ["-", "-", "-"]
            his: dict[str, float] = {}
            for way in PARBERRY_WRITERS:
                if program:
                    base, base_cpu, _ = best[way]
                    text = Path(folder) / f"p-{way}.txt"
                    size: object = text.stat().st_size
                    ok = verified_file(text, side)
                    label = "measured here" + ("" if ok else ": NOT A TOUR")
                    met = met and ok
                else:
                    base, base_cpu = PARBERRY_WHOLE[way][side], float("nan")
                    size, label = "-", "issue 36's figure (not this run)"
                his[way] = base
                process = f"Parberry C++, {way}" + (
                    " (baseline)" if way == writer else ""
                )
                rows.append([spec, process, label, base, base_cpu, size, "-", "-"])
            if program:
                measured[side] = his[writer]
            target = AGAINST_PARBERRY[side] * his[writer]
            for suffix in suffixes:
                out_file = Path(folder) / f"tour{suffix}"
                size = out_file.stat().st_size
                ours = suffix == ".moves" or verified_file(out_file, side)
                said = best[f"check {suffix}"][2]
                for process, note in (("tour", "writes it"), ("check", "reads it")):
                    wall, cpu, _ = best[f"{process} {suffix}"]
                    verdict = "ok" if wall <= target else "MISSED"
                    if wall > target and target < numpy_floor:
                        verdict = "MISSED (target below the numpy floor)"
                    if not said.startswith("ok"):
                        verdict = f"FAILED: {said[:60]}"
                    if not ours:
                        verdict = "FAILED: not a closed knight's tour (numpy)"
                    met = met and verdict == "ok"
                    ratios = "  ".join(f"{wall / his[w]:.2f}x {w}" for w in his)
                    rows.append(
                        [
                            spec,
                            f"cpknight {process} {'--out ' * (process == 'tour')}"
                            f"{suffix}",
                            note,
                            wall,
                            cpu,
                            size,
                            ratios,
                            verdict,
                        ]
                    )
    targets = ", ".join(f"{k}x{k}: {v:g}x" for k, v in AGAINST_PARBERRY.items())
    print(
        f"0. whole process against Parberry's C++ divide and conquer, closed, "
        f"fastest of {times}, run in turn (targets: within {targets} of his "
        f"wall seconds with the {writer} writer); floors: what Python, and "
        "Python importing numpy, take alone; every tour file verified by numpy"
    )
    headers = ["board", "process", "note", "wall s", "cpu s", "bytes", "ratio"]
    print(table_text([*headers, "verdict"], rows))
    print()
    return met, measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument(
        "--cpsat", action="store_true", help="also run CP-SAT alone (minutes)"
    )
    parser.add_argument("--no-greedy", action="store_true", help="skip greedy")
    parser.add_argument(
        "--parberry",
        metavar="PROGRAM",
        help="Parberry's divide-and-conquer program, built here "
        "(benchmarks/parberry/build.sh): PROGRAM N NAME WRITER writes a closed "
        "N x N tour to NAME.txt",
    )
    parser.add_argument(
        "--parberry-only", action="store_true", help="only table 0 (fast)"
    )
    parser.add_argument(
        "--parberry-writer",
        choices=PARBERRY_WRITERS,
        default="printf",
        help="his writer the targets are judged against (default printf)",
    )
    parser.add_argument(
        "--times",
        type=int,
        help="rounds of table 0, the fastest of each process kept (default 15, "
        "--quick 3: a verdict on 3 rounds swung from 1.7x to 2.1x in one hour)",
    )
    args = parser.parse_args(argv)
    times = args.times or (3 if args.quick else 15)
    met, his = against_parberry(
        [1000, 2000], args.parberry, times, writer=args.parberry_writer
    )
    parberry = (his[1000], "his whole process, measured here") if his else None
    if args.parberry_only:
        pass
    elif args.quick:
        met &= whole_process([1000, 1001])
        met &= in_process([100, 1000], greedy=not args.no_greedy, parberry=parberry)
        met &= sweep(30, 10)
    else:
        met &= whole_process([1000, 1001, 2000, 4000])
        met &= in_process(
            [100, 500, 1000, 1001, 2000, 4000],
            greedy=not args.no_greedy,
            parberry=parberry,
        )
        met &= sweep(60, 60)
    if args.cpsat:
        cpsat_alone(60.0)
    print(f"\ntargets: {'all met' if met else 'MISSED (or a failure)'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
