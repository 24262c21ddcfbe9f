"""Time limits are promises: the long commands, wall time against the limit.

Run: ``python benchmarks/limits.py`` (limits 2 and 5 s, several minutes), or
``--quick`` (limit 2 s only); ``--only TEXT`` keeps the commands whose name
contains TEXT (``--only 3000x3000``). Each command of issues 14, 27 and 35 that
once overran its ``--time-limit`` or ``--budget`` (or had none) runs as its own
process, timed from outside (wall seconds and peak memory, ``os.wait4``); a
refusal up front (exit 2) keeps the promise too. ``benchmarks/edges.py`` runs
the rest of issue 27: memory, Ctrl-C and bad addresses.

The promise is the limit plus one second, graph and model building included,
and the clock starts when the process starts (issue 35, item 4): the verdict
compares the whole process's wall time with the limit plus one second. A
command that names its own ``--time-limit`` runs once, with that limit; a
comparison (``compare``) gives each engine the limit, so its promise is the
limit times its engines, plus one second. The start-up column (the wall time
of the same kind of command on a tiny board, measured in the same run) and
the wall time less it stay as information: what the start-up costs is the
next issue's. Exit code 1 when a command overran. The machine may be shared:
run it two or three times and read the best.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpknight.text.render import table_text

GRACE = 1.0
"""Seconds the promise allows past the limit."""


def _cpknight() -> list[str]:
    found = shutil.which("cpknight") or str(Path(sys.executable).with_name("cpknight"))
    return [found] if Path(found).exists() else [sys.executable, "-m", "cpknight"]


CAP: list[float | None] = [None]
"""Seconds after which a child still running is killed (``--cap``): a hang."""

ENV: list[dict[str, str] | None] = [None]
"""The children's environment (``--tree`` puts another checkout first)."""

CWD: list[str | None] = [None]
"""The children's folder (``--tree``: that checkout, which ``python -m`` puts
first on the path, before this one)."""


def _run(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak MB and exit code of one child (output discarded).

    A child still running after :data:`CAP` seconds is killed with its
    process group (exit code -9): the row then shows a hang.
    """
    began = time.perf_counter()
    child = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=ENV[0],
        cwd=CWD[0],
        start_new_session=True,
    )
    cap = CAP[0]
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG if cap else 0)
        if pid:
            break
        if cap is not None and time.perf_counter() - began > cap:
            os.killpg(child.pid, signal.SIGKILL)
            _, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - began
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def _food(count: int, side: int, seed: int = 14) -> list[str]:
    rng = random.Random(seed)
    cells = {(rng.randrange(side), rng.randrange(side)) for _ in range(count * 2)}
    return [f"{r},{c}" for r, c in sorted(cells)[:count]]


def commands(folder: str) -> list[tuple[str, list[str], list[str]]]:
    """(name, the command before its limit, the tiny baseline command)."""
    corners = ["0,0", "999,999", "500,500", "0,999"]
    tiny_collect = ["collect", "6x6", "a1", "f6", "--simple"]
    return [
        (
            "collect 1000x1000, 3 food, simple",
            ["collect", "1000x1000", *corners, "--simple"],
            tiny_collect,
        ),
        (
            "  the same, --method search",
            ["collect", "1000x1000", *corners, "--simple", "--method", "search"],
            [*tiny_collect, "--method", "search"],
        ),
        (
            "collect 1000x1000, 40 food",
            ["collect", "1000x1000", "0,0", *_food(40, 1000)],
            ["collect", "6x6", "a1", "f6"],
        ),
        (
            "distance 3000x3000 --method ip",
            ["distance", "3000x3000", "0,0", "2999,2999", "--method", "ip"],
            ["distance", "6x6", "a1", "f6", "--method", "ip"],
        ),
        (
            "tour 3000x3000 --method prune",
            ["tour", "3000x3000", "--method", "prune"],
            ["tour", "6x6", "--method", "prune"],
        ),
        (
            "tour 3000x3000 --method cpsat",
            ["tour", "3000x3000", "--method", "cpsat"],
            ["tour", "6x6", "--method", "cpsat"],
        ),
        (
            "formulation tour 400x400 --export",
            [
                "formulation",
                "tour",
                "400x400",
                "--export",
                str(Path(folder, "t.pbtxt")),
                "--force",
            ],
            ["formulation", "tour", "6x6"],
        ),
        (
            "count 8x8",
            ["count", "8x8"],
            ["count", "3x4", "--open"],
        ),
    ]


ENDS = ("--start", "a1", "--end", "h8")
"""Ends of one colour: the certificate refutes them before any engine."""


def edges() -> list[tuple[str, list[str], list[str]]]:
    """The commands of issue 27 that overran their limit (or had none)."""
    tiny_count = ["count", "3x4", "--open"]
    tiny_form = ["formulation", "count", "3x4"]
    return [
        ("count 5000x5000", ["count", "5000x5000"], tiny_count),
        (
            "count 1000x1000 --method frontier",
            ["count", "1000x1000", "--method", "frontier"],
            tiny_count,
        ),
        *(
            (
                f"formulation count {n}x{n}",
                ["formulation", "count", f"{n}x{n}"],
                tiny_form,
            )
            for n in (100, 300, 1000, 5000)
        ),
        (
            "formulation collect 5000x5000",
            ["formulation", "collect", "5000x5000", "a1", "b3"],
            ["formulation", "collect", "6x6", "a1", "b3"],
        ),
        *(
            (
                f"longest {n}x{n} --{kind}",
                ["longest", f"{n}x{n}", f"--{kind}"],
                ["longest", "4x4", f"--{kind}"],
            )
            for n, kind in ((1000, "uncrossed"), (2000, "uncrossed"), (3000, "induced"))
        ),
        (
            "map 1x25000000 --piece 0,1",
            ["map", "1x25000000", "0,0", "--piece", "0,1"],
            ["map", "8x8", "a1"],
        ),
        ("reach 2000x2000", ["reach", "2000x2000", "a1"], ["reach", "8x8", "a1"]),
        (
            "tour 8x8 --method tiles a1-h8",
            ["tour", "8x8", "--method", "tiles", "--open", *ENDS],
            ["tour", "6x6", "--method", "tiles"],
        ),
        (
            "distance plane 3e7 --method ip",
            ["distance", "plane", "0,0", "30000000,1", "--method", "ip"],
            ["distance", "plane", "0,0", "30,1", "--method", "ip"],
        ),
    ]


def issue35() -> list[tuple[str, list[str], list[str]]]:
    """The commands of issue 35 that hung, overran or built before refusing.

    And more of the same kinds: other boards of these sizes, other objectives.
    """
    tiny_count = ["count", "3x4", "--open"]
    tiny_tour = ["tour", "6x6", "--method", "cpsat"]
    tiny_longest = ["longest", "4x4", "--uncrossed", "--method", "frontier"]
    frontier = ["--uncrossed", "--method", "frontier"]
    return [
        *(
            (f"{what} {size}", [what, size], [what, "5x5"])
            for what, size in (
                ("dominate", "200x200"),
                ("independent", "200x200"),
                ("dominate", "1000x1000"),
            )
        ),
        (
            "count 7x7 --open --time-limit 10",
            ["count", "7x7", "--open", "--time-limit", "10"],
            tiny_count,
        ),
        (
            "count 6x6 --kernel dict --time-limit 60",
            ["count", "6x6", "--kernel", "dict", "--time-limit", "60"],
            tiny_count,
        ),
        (
            "longest 2000x2000 --induced --method search",
            ["longest", "2000x2000", "--induced", "--method", "search"],
            ["longest", "4x4", "--induced", "--method", "search"],
        ),
        (
            "longest 700x700 --induced --method search",
            ["longest", "700x700", "--induced", "--method", "search"],
            ["longest", "4x4", "--induced", "--method", "search"],
        ),
        *(
            (
                f"longest {n}x{n} --uncrossed --method frontier",
                ["longest", f"{n}x{n}", *frontier],
                tiny_longest,
            )
            for n in (12, 30, 100)
        ),
        ("tour 100x100 --magic", ["tour", "100x100", "--magic"], tiny_tour),
        ("tour 40x40 --magic", ["tour", "40x40", "--magic"], tiny_tour),
        (
            "tour 300x300 --symmetric rot180",
            ["tour", "300x300", "--symmetric", "rot180"],
            tiny_tour,
        ),
        ("tour 100x100 --min turns", ["tour", "100x100", "--min", "turns"], tiny_tour),
        (
            "tour 60x60 --min crossings",
            ["tour", "60x60", "--min", "crossings"],
            tiny_tour,
        ),
        (
            "distance plane 3e6 --method ip",
            ["distance", "plane", "0,0", "3000000,1", "--method", "ip"],
            ["distance", "plane", "0,0", "30,1", "--method", "ip"],
        ),
        (
            "compare 3000x3000 --method tiles,prune",
            ["compare", "3000x3000", "--method", "tiles,prune"],
            ["compare", "6x6", "--method", "tiles,prune"],
        ),
        ("map 1x25000000", ["map", "1x25000000", "a1"], ["map", "8x8", "a1"]),
        ("map 2x12000000", ["map", "2x12000000", "a1"], ["map", "8x8", "a1"]),
    ]


def promised(argv: list[str], limit: float) -> float:
    """The seconds a command may take: its limit (per engine) plus the grace.

    Examples:
        >>> promised(["compare", "8x8", "--method", "tiles,prune"], 2.0)
        5.0
        >>> promised(["count", "7x7", "--time-limit", "10"], 2.0)
        11.0
    """
    if "--time-limit" in argv:
        limit = float(argv[argv.index("--time-limit") + 1])
    engines = 1
    if argv[0] == "compare" and "--method" in argv:
        engines = len(argv[argv.index("--method") + 1].split(","))
    return limit * engines + GRACE


def sweeps(limit: float) -> list[tuple[str, list[str], list[str]]]:
    """The sweeps: their budget is the limit of the whole command."""
    budget = ["--budget", f"{limit:g}"]
    return [
        (
            "sweep 40x40 --method cpsat --budget",
            ["sweep", "40x40", "--open", "--method", "cpsat", *budget],
            ["sweep", "3x4", "--open", "--method", "cpsat"],
        ),
        *(
            (f"sweep {name} --budget", ["sweep", *argv, *budget], ["sweep", "3x4"])
            for name, argv in (
                ("1000x1000", ["1000x1000"]),
                ("3000x3000", ["3000x3000"]),
                ("100x100 --jobs 2", ["100x100", "--jobs", "2"]),
                ("20x20 --pairs", ["20x20", "--pairs"]),
                ("14x14 --pairs --jobs 2", ["14x14", "--pairs", "--jobs", "2"]),
            )
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="limit 2 s only")
    parser.add_argument(
        "--only", metavar="TEXT", help="only the commands whose name contains TEXT"
    )
    parser.add_argument(
        "--issue35", action="store_true", help="only the rows of issue 35"
    )
    parser.add_argument(
        "--cap",
        type=float,
        metavar="S",
        help="kill a command still running after S seconds (a hang; exit -9)",
    )
    parser.add_argument(
        "--tree",
        metavar="DIR",
        help="run the command line of another checkout (say, a worktree of the "
        "commit before a change): python -m cpknight with DIR first on the path",
    )
    args = parser.parse_args(argv)
    limits = [2.0] if args.quick else [2.0, 5.0]
    tool = _cpknight()
    CAP[0] = args.cap
    if args.tree:
        tool = [sys.executable, "-m", "cpknight"]
        tree = str(Path(args.tree).resolve())
        ENV[0] = {**os.environ, "PYTHONPATH": tree}
        CWD[0] = tree
    rows: list[list[object]] = []
    met = True
    with tempfile.TemporaryDirectory() as folder:
        starts: dict[tuple[str, ...], float] = {}
        for first, limit in enumerate(limits):
            every = [*commands(folder), *edges(), *issue35(), *sweeps(limit)]
            if args.issue35:
                every = issue35()
            for name, argv_, tiny in every:
                if args.only and args.only not in name:
                    continue
                fixed = "--time-limit" in argv_
                if fixed and first:
                    continue  # its own limit: run once
                key = tuple(tiny)
                if key not in starts:
                    starts[key] = min(_run([*tool, *tiny])[0] for _ in range(2))
                full = [*tool, *argv_]
                if "--budget" not in argv_ and not fixed:
                    full += ["--time-limit", f"{limit:g}"]
                wall, peak, code = _run(full)
                spent = wall - starts[key]
                ok = wall <= promised(argv_, limit)
                met = met and ok
                shown = argv_[argv_.index("--time-limit") + 1] if fixed else limit
                rows.append(
                    [
                        name,
                        f"{float(shown):g}",
                        f"{wall:.2f}",
                        f"{starts[key]:.2f}",
                        f"{spent:.2f}",
                        f"{peak:.0f}",
                        code,
                        "ok" if ok else "OVER",
                    ]
                )
    print(
        table_text(
            [
                "command",
                "limit s",
                "wall s",
                "start-up s",
                "wall - start-up",
                "peak MB",
                "exit",
                "verdict",
            ],
            rows,
        )
    )
    print(
        f"\npromise: the whole process within the limit (per engine) + {GRACE:g} s: "
        + ("kept by every command" if met else "MISSED")
    )
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
