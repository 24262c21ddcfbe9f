"""Start-up: the quick commands as whole processes, each beside its floor.

Most people run cpknight on small boards, where the whole process is start-up.
Each command runs as a whole process, interleaved with its floors measured in
the same run, ``--repeat`` times; the fastest run and the median are shown,
and the verdict takes the fastest (the least disturbed by other load). Targets
(issue 36), whole process, wall time:

- ``cpknight --version`` and ``cpknight --help``: at most 1.5x ``python -c
  pass`` (the interpreter's floor; before: 9.5x);
- ``tour 8x8``, ``distance 8x8 a1 h8``, ``map 8x8 a1``, ``check 8x8 FILE``:
  at most 1.3x ``python -c 'import numpy'`` (before: 2.1-2.2x);
- ``tour 8x8 --method cpsat``, ``dominate 8x8``, ``swap guarini --method
  cpsat``: at most 1.3x the CP-SAT import (``python -c 'from
  ortools.sat.python import cp_model'``) plus the solve time the command
  reports in its JSON (before: 6.3x for ``dominate 8x8``).

CPU time (user plus system) is shown beside, less swayed by a busy machine.
The package is byte-compiled first, as an installed package is.

Run: ``python benchmarks/startup.py`` (``--quick`` for fewer repeats; ``--tree
DIR`` to time another checkout, e.g. a worktree of the commit before).
Exit code 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

PY = sys.executable
CPSAT_IMPORT = "from ortools.sat.python import cp_model"


@dataclass
class Row:
    """One process to time: its label, command, floor and target."""

    label: str
    argv: list[str]
    floor: str | None = None
    """The label of the row this one is held against (None: a floor)."""
    target: float = 0.0
    solve_key: bool = False
    """Whether the command's JSON reports a solve time to add to the floor."""
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    solve: list[float] = field(default_factory=list)


def rows(tree: Path, tour_file: str) -> list[Row]:
    """The floors and the commands, in the order they run each round."""
    me = [PY, "-m", "cpknight"]
    pass_, numpy, cpsat = "python -c pass", "python -c 'import numpy'", "CP-SAT import"
    return [
        Row(pass_, [PY, "-c", "pass"]),
        Row(numpy, [PY, "-c", "import numpy"]),
        Row(cpsat, [PY, "-c", CPSAT_IMPORT]),
        Row("cpknight --version", [*me, "--version"], pass_, 1.5),
        Row("cpknight --help", [*me, "--help"], pass_, 1.5),
        Row("cpknight tour 8x8", [*me, "tour", "8x8"], numpy, 1.3),
        Row(
            "cpknight distance 8x8 a1 h8",
            [*me, "distance", "8x8", "a1", "h8"],
            numpy,
            1.3,
        ),
        Row("cpknight map 8x8 a1", [*me, "map", "8x8", "a1"], numpy, 1.3),
        Row("cpknight check 8x8 FILE", [*me, "check", "8x8", tour_file], numpy, 1.3),
        Row(
            "cpknight tour 8x8 --method cpsat",
            [*me, "tour", "8x8", "--method", "cpsat", "--json"],
            cpsat,
            1.3,
            solve_key=True,
        ),
        Row(
            "cpknight dominate 8x8",
            [*me, "dominate", "8x8", "--json"],
            cpsat,
            1.3,
            True,
        ),
        Row(
            "cpknight swap guarini --method cpsat",
            [*me, "swap", "guarini", "--method", "cpsat", "--json"],
            cpsat,
            1.3,
            solve_key=True,
        ),
    ]


def run_once(argv: list[str], cwd: Path) -> tuple[float, float, str]:
    """One whole process: wall seconds, CPU seconds (user plus system), stdout."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, cwd=cwd)
    assert child.stdout is not None
    said = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {code}")
    return wall, usage.ru_utime + usage.ru_stime, said


def solve_seconds(said: str) -> float:
    """The solve time a command's JSON reports (its ``seconds``)."""
    return float(json.loads(said)["seconds"])


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 repeats")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--tree", type=Path, default=Path(__file__).parents[1])
    args = parser.parse_args(argv)
    repeat = 5 if args.quick else args.repeat
    tree = args.tree.resolve()
    compileall.compile_dir(tree / "cpknight", quiet=1)
    with tempfile.TemporaryDirectory() as folder:
        tour_file = str(Path(folder) / "tour.txt")
        subprocess.run(
            [PY, "-m", "cpknight", "tour", "8x8", "--out", tour_file],
            cwd=tree,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        table = rows(tree, tour_file)
        for _ in range(repeat):
            for row in table:
                wall, cpu, said = run_once(row.argv, tree)
                row.wall.append(wall)
                row.cpu.append(cpu)
                if row.solve_key:
                    row.solve.append(solve_seconds(said))
    return report(table, repeat, tree)


def report(table: list[Row], repeat: int, tree: Path) -> int:
    """Print the table of fastest and median times against each floor."""
    from cpknight.text.render import table_text

    floors = {row.label: row for row in table}
    out: list[list[object]] = []
    met = True
    for row in table:
        fast, median = min(row.wall), statistics.median(row.wall)
        cells: list[object] = [row.label, f"{fast:.3f}", f"{median:.3f}"]
        cells.append(f"{min(row.cpu):.3f}")
        if row.floor is None:
            out.append([*cells, "-", "-", "-", "-", "floor"])
            continue
        floor = min(floors[row.floor].wall)
        solve = min(row.solve) if row.solve else 0.0
        base = floor + solve
        ratio = fast / base
        ok = ratio <= row.target
        met = met and ok
        against = row.floor + (f" + solve {solve:.3f}" if row.solve else "")
        # Each round's run beside its own round's floor: drift in the
        # machine's speed over the run cancels out.
        solves = row.solve or [0.0] * len(row.wall)
        paired = statistics.median(
            wall / (low + extra)
            for wall, low, extra in zip(
                row.wall, floors[row.floor].wall, solves, strict=True
            )
        )
        cells += [against, f"{ratio:.2f}x", f"{median / base:.2f}x"]
        cells.append(f"{paired:.2f}x")
        cells.append(f"<= {row.target}x " + ("ok" if ok else "MISSED"))
        out.append(cells)
    print(f"whole process, {repeat} interleaved runs each, in {tree}")
    headers = [
        "command",
        "fastest s",
        "median s",
        "cpu s",
        "against",
        "fastest",
        "median",
        "paired",
    ]
    print(table_text([*headers, "target"], out))
    print(f"\ntargets: {'all met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
