"""The knight-swap puzzles: breadth-first search over placements against CP-SAT.

Run: ``python benchmarks/swaps.py [PUZZLE ...]`` (``--quick``: Guarini, Guy 3x4
and the 8x8 corners with a limit of 20 s; ``--lp``: also CP-SAT with its LP
relaxation on, ``linearization_level`` 1, against the engine's 0). Each row is
one puzzle and one engine: the moves found, whether proved fewest, the proved
bound, the seconds (model building included), the engine's effort, and ``x bfs``: its
seconds over bfs's on the same puzzle in this run (below 1: faster than bfs).
``cpu s`` is the process's CPU time for the row. Machine load moves every
figure: run it more than once.

Published answers checked: Guarini 16 moves (1512), Guy's 3x4 ordered pairs
32 (Guy, seqfan, 15 October 2010). Targets: bfs proves both within the
limit; every engine that answers agrees. Exit code 1 if not.
"""

from __future__ import annotations

import argparse
import sys
import time

from cpknight import SolveOptions
from cpknight.api.swaps import swap_instance, try_swap
from cpknight.status import Status
from cpknight.text.render import effort_text, table_text

PUBLISHED = {"guarini": 16, "guy3x4": 32}

CORNERS8 = """
B . . . . . . B
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
W . . . . . . W

W . . . . . . W
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
B . . . . . . B
"""

ROWS4 = """
B B B B
. . . .
. . . .
W W W W

W W W W
. . . .
. . . .
B B B B
"""

ROWS3X5 = """
B B B B B
. . . . .
W W W W W

W W W W W
. . . . .
B B B B B
"""

PUZZLES = {
    "guarini": "guarini",
    "guy3x4": "guy3x4",
    "corners8": CORNERS8,
    "rows4x4": ROWS4,
    "rows3x5": ROWS3X5,
}
QUICK = ["guarini", "guy3x4", "corners8"]


def run(name: str, method: str, limit: float, lp: bool) -> list[object]:
    from cpknight.swaps import cpsat

    cpsat.LINEARIZATION = 1 if lp else 0
    cpu = time.process_time()
    o = try_swap(
        PUZZLES[name],
        method=method,
        options=SolveOptions(time_limit=limit, workers=1, seed=0),
    )
    cpu = time.process_time() - cpu
    moves = None if o.value is None else o.value.moves
    label = method + ("+lp" if lp else "")
    return [name, label, moves, o.bound, str(o.status), o.seconds, cpu, o.effort]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three puzzles, 20 s")
    parser.add_argument("--lp", action="store_true", help="also CP-SAT with its LP")
    parser.add_argument("--limit", type=float, help="seconds per row")
    parser.add_argument(
        "puzzles", nargs="*", metavar="PUZZLE", help=f"only these: {', '.join(PUZZLES)}"
    )
    args = parser.parse_args()
    unknown = [p for p in args.puzzles if p not in PUZZLES]
    if unknown:
        parser.error(
            f"unknown puzzle {unknown[0]!r} (choose from {', '.join(PUZZLES)})"
        )
    names = args.puzzles or (QUICK if args.quick else list(PUZZLES))
    limit = args.limit or (20.0 if args.quick else 60.0)
    engines = [("bfs", False), ("cpsat", False)]
    if args.lp:
        engines.append(("cpsat", True))
    rows: list[list[object]] = []
    ok = True
    for name in names:
        inst = swap_instance(PUZZLES[name])
        print(
            f"{name}: {inst.describe()}, {inst.states:,} placements",
            file=sys.stderr,
            flush=True,
        )
        base: float | None = None
        answers = set()
        for method, lp in engines:
            row = run(name, method, limit, lp)
            seconds = float(row[5])  # type: ignore[arg-type]
            if method == "bfs":
                base = seconds
            status = row[4]
            if status == str(Status.OPTIMAL):
                answers.add(row[2])
            want = PUBLISHED.get(name)
            if status == str(Status.OPTIMAL) and want is not None and row[2] != want:
                ok = False
            if method == "bfs" and want is not None and status != str(Status.OPTIMAL):
                ok = False
            ratio = None if base is None or base == 0 else round(seconds / base, 2)
            effort = row.pop()
            rows.append(
                [
                    *row[:5],
                    round(seconds, 3),
                    ratio,
                    round(float(row[6]), 3),  # type: ignore[arg-type]
                    effort_text(effort.as_dict()),  # type: ignore[attr-defined]
                    PUBLISHED.get(name),
                ]
            )
        if len(answers) > 1:
            ok = False
    print(
        table_text(
            [
                "puzzle",
                "engine",
                "moves",
                "bound",
                "status",
                "seconds",
                "x bfs",
                "cpu s",
                "effort",
                "published",
            ],
            rows,
        )
    )
    print(f"limit {limit:g} s a row; targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
