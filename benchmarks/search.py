"""Search engines beside CP-SAT: who answers first, and at what effort.

Run ``python benchmarks/search.py`` (a few minutes) or with ``--quick`` (well
under a minute). Prints four tables:

1. every engine on 5x5, 6x6 and 8x8 from a corner, open and closed (each with
   the same time limit; ``backtrack`` is shown where it finishes);
2. ``warnsdorff`` and ``prune`` finding 8x8 open tours from all 64 starts
   (target: at most 1 s in total);
3. ``greedy`` (no backtracking, Roth's tie-break) on n x n from a1: success
   rate over n = 5..100, and time on a sample of n up to 1000;
4. CP-SAT against ``prune`` on instances chosen to show where each wins.

Times are wall-clock seconds on this machine, graph building included except
where split out; effort is attempts/backtracks for search, branches/conflicts
for CP-SAT.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from cpknight import Board, SolveLimitError, SolveOptions, Tour
from cpknight.api import TOUR_METHODS, try_tour
from cpknight.board import Cell
from cpknight.pieces import MoveGraph, move_graph
from cpknight.render import table_text
from cpknight.results import TourOutcome
from cpknight.tour_search import solve_greedy, solve_prune, solve_warnsdorff

WORDS = {"found": "found", "infeasible": "proved none", "unknown": "unknown"}


def effort_text(outcome: TourOutcome) -> str:
    return ", ".join(f"{v:,} {k}" for k, v in outcome.effort.as_dict().items()) or "-"


def engines() -> list[str]:
    return [m for m in TOUR_METHODS if m != "tiles"]


def run_engine(
    solve: Callable[..., Tour],
    graph: MoveGraph,
    start: Cell,
    *,
    time_limit: float | None = None,
) -> Tour:
    """One open tour from ``start`` by a search engine called directly."""
    opts = SolveOptions(time_limit=time_limit)
    return solve(
        graph,
        closed=False,
        start=start,
        end=None,
        options=opts,
        deadline=opts.deadline(),
    )


def comparison(limit: float) -> None:
    print(f"1. every engine from a corner (limit {limit:g} s each)")
    rows: list[list[object]] = []
    for size in ("5x5", "6x6", "8x8"):
        for closed in (False, True):
            for method in engines():
                o = try_tour(
                    size,
                    closed=closed,
                    start="a1",
                    method=method,
                    options=SolveOptions(time_limit=limit, workers=1, seed=0),
                )
                rows.append(
                    [
                        size,
                        "closed" if closed else "open",
                        method,
                        WORDS[o.status],
                        o.seconds,
                        effort_text(o),
                    ]
                )
    print(table_text(["board", "tour", "method", "outcome", "seconds", "effort"], rows))
    print()


def all_starts() -> None:
    print("2. 8x8 open tours from all 64 starts (target <= 1 s in total)")
    board = Board.parse("8x8")
    graph = move_graph(board)
    rows: list[list[object]] = []
    for name, solve in (("warnsdorff", solve_warnsdorff), ("prune", solve_prune)):
        attempts = backtracks = found = 0
        began = time.perf_counter()
        for cell in board.open_cells():
            tour = run_engine(solve, graph, cell, time_limit=5)
            found += 1
            attempts += tour.effort.attempts or 0
            backtracks += tour.effort.backtracks or 0
        total = time.perf_counter() - began
        verdict = "ok" if total <= 1.0 else "MISSED"
        rows.append([name, found, total, attempts, backtracks, verdict])
    print(
        table_text(
            ["method", "found", "seconds", "attempts", "backtracks", "target"], rows
        )
    )
    print()


def greedy(quick: bool) -> None:
    top = 60 if quick else 100
    ok = 0
    failed: list[int] = []
    for n in range(5, top + 1):
        graph = move_graph(Board((n, n)))
        try:
            run_engine(solve_greedy, graph, (0, 0))
            ok += 1
        except SolveLimitError:
            failed.append(n)
    total = top - 4
    print(f"3. greedy from a1 on n x n, n = 5..{top}: {ok} of {total} succeed")
    if failed:
        print(f"   failed on n = {', '.join(str(n) for n in failed)}")
    rows: list[list[object]] = []
    sample = (8, 50, 100, 200) if quick else (8, 50, 100, 200, 500, 700, 1000)
    for n in sample:
        began = time.perf_counter()
        graph = move_graph(Board((n, n)))
        built = time.perf_counter() - began
        began = time.perf_counter()
        try:
            run_engine(solve_greedy, graph, (0, 0), time_limit=120)
            status = "found"
        except SolveLimitError:
            status = "gave up"
        rows.append([f"{n}x{n}", n * n, status, built, time.perf_counter() - began])
    print(
        table_text(["board", "cells", "outcome", "graph s", "greedy s"], rows),
    )
    print()


# 8x8 with five cells blocked: no open tour, no cheap certificate says so.
SHUT8 = Board((8, 8), [(0, 1), (0, 2), (0, 3), (1, 5), (5, 0)])

CASES: list[tuple[str, Board | str, bool, str | None, str | None]] = [
    ("8x8 open a1", "8x8", False, "a1", None),
    ("8x8 open a1->h7", "8x8", False, "a1", "h7"),
    ("100x100 open a1", "100x100", False, "a1", None),
    ("blocks12 open", "blocks12", False, None, None),
    ("holed8 open (none)", "holed8", False, None, None),
    ("8x8, 5 blocked, open (none)", SHUT8, False, None, None),
    ("6x6 closed", "6x6", True, None, None),
    ("8x8 closed", "8x8", True, None, None),
    ("10x10 closed", "10x10", True, None, None),
    ("16x16 closed", "16x16", True, None, None),
    ("100x100 closed", "100x100", True, None, None),
    ("blocks12 closed", "blocks12", True, None, None),
    ("ring10 closed", "ring10", True, None, None),
]


def cpsat_vs_search(limit: float) -> None:
    print(f"4. CP-SAT vs prune (limit {limit:g} s each)")
    rows: list[list[object]] = []
    for label, board, closed, start, end in CASES:
        out = {}
        for method in ("cpsat", "prune"):
            out[method] = try_tour(
                board,
                closed=closed,
                start=start,
                end=end,
                method=method,
                options=SolveOptions(time_limit=limit, workers=1, seed=0),
            )
        a, b = out["cpsat"], out["prune"]
        answered = [m for m, o in out.items() if o.status != "unknown"]
        winner = min(answered, key=lambda m: out[m].seconds) if answered else "-"
        rows.append(
            [label, WORDS[a.status], a.seconds, WORDS[b.status], b.seconds, winner]
        )
    print(
        table_text(
            ["instance", "cpsat", "cpsat s", "prune", "prune s", "first"],
            rows,
        )
    )
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller, shorter")
    args = parser.parse_args(argv)
    limit = 2.0 if args.quick else 10.0
    comparison(limit)
    all_starts()
    greedy(args.quick)
    cpsat_vs_search(limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
