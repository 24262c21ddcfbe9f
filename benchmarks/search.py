"""Search engines beside CP-SAT: who answers first, and at what effort.

Run ``python benchmarks/search.py`` (a few minutes) or with ``--quick`` (well
under a minute). Prints four tables:

1. every engine on 5x5, 6x6 and 8x8 from a corner, open and closed (each with
   the same time limit; ``backtrack`` is shown where it finishes);
2. ``warnsdorff`` and ``prune`` finding 8x8 open tours from all 64 starts
   (target: at most 1 s in total), each as a ratio to the baseline run first:
   a textbook Warnsdorff written here (nested lists, moves computed by hand,
   degrees counted afresh, ties to move order, plain backtracking with no
   pruning and no restarts, no cpknight) on the same 64 starts;
3. ``greedy`` (no backtracking, Roth's tie-break) on n x n from a1: success
   rate over n = 5..100, and time on a sample of n up to 1000, graph build
   included, as a ratio to the textbook greedy pass (the same textbook rule
   without backtracking) on the same board up to ``TEXTBOOK_MAX``;
4. CP-SAT against ``prune`` on instances chosen to show where each wins.

Times are wall-clock seconds on this machine, graph building included except
where split out; effort is attempts/backtracks for search, branches/conflicts
for CP-SAT. A ratio is the baseline's seconds over cpknight's (above 1: cpknight
is faster). Exit code 1 when the all-starts target is missed.
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
from cpknight.results import TourOutcome
from cpknight.text.render import table_text
from cpknight.tours.instance import TourInstance
from cpknight.tours.search import solve_greedy, solve_prune, solve_warnsdorff

WORDS = {"found": "found", "infeasible": "proved none", "unknown": "unknown"}

KNIGHT_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

ALL_STARTS_SECONDS = 1.0
"""Target: 8x8 open tours from all 64 starts, in total."""

TEXTBOOK_MAX = 200
"""The largest side the textbook greedy pass is run on (it is slow)."""

TEXTBOOK_CAP = 1_000_000
"""Moves the textbook backtracking search may make from one start."""


def textbook_onward(visited: list[list[bool]], n: int, r: int, c: int) -> int:
    """Unvisited knight neighbours of (r, c), counted afresh."""
    count = 0
    for dr, dc in KNIGHT_MOVES:
        nr, nc = r + dr, c + dc
        if 0 <= nr < n and 0 <= nc < n and not visited[nr][nc]:
            count += 1
    return count


def textbook_choices(
    visited: list[list[bool]], n: int, r: int, c: int
) -> list[tuple[int, int]]:
    """Unvisited neighbours of (r, c), fewest onward moves first (stable sort)."""
    options = []
    for dr, dc in KNIGHT_MOVES:
        nr, nc = r + dr, c + dc
        if 0 <= nr < n and 0 <= nc < n and not visited[nr][nc]:
            options.append((textbook_onward(visited, n, nr, nc), nr, nc))
    options.sort(key=lambda o: o[0])
    return [(nr, nc) for _, nr, nc in options]


def textbook_warnsdorff(n: int, start: Cell) -> tuple[list[tuple[int, int]], int]:
    """An open n x n tour by Warnsdorff's rule with plain backtracking.

    Returns the path (a tour, unless ``TEXTBOOK_CAP`` moves did not find one)
    and the number of moves made (moves undone included).
    """
    visited = [[False] * n for _ in range(n)]
    r, c = start
    visited[r][c] = True
    path = [(r, c)]
    stack = [textbook_choices(visited, n, r, c)]
    moves = 0
    while stack and len(path) < n * n and moves < TEXTBOOK_CAP:
        options = stack[-1]
        if not options:
            stack.pop()
            pr, pc = path.pop()
            visited[pr][pc] = False
            continue
        nr, nc = options.pop(0)
        visited[nr][nc] = True
        path.append((nr, nc))
        moves += 1
        stack.append(textbook_choices(visited, n, nr, nc))
    return path, moves


def textbook_greedy(n: int, start: Cell) -> int:
    """One textbook Warnsdorff pass, no backtracking: the cells it covered."""
    visited = [[False] * n for _ in range(n)]
    r, c = start
    visited[r][c] = True
    covered = 1
    while True:
        best = None
        best_onward = 9
        for dr, dc in KNIGHT_MOVES:
            nr, nc = r + dr, c + dc
            if 0 <= nr < n and 0 <= nc < n and not visited[nr][nc]:
                onward = textbook_onward(visited, n, nr, nc)
                if onward < best_onward:
                    best, best_onward = (nr, nc), onward
        if best is None:
            return covered
        r, c = best
        visited[r][c] = True
        covered += 1


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
    instance = TourInstance(graph.board, graph.piece, closed=False, start=start)
    return solve(instance, SolveOptions(time_limit=time_limit).start())


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


def all_starts() -> bool:
    """Table 2; whether cpknight's engines met the target."""
    print(
        f"2. 8x8 open tours from all 64 starts (target <= {ALL_STARTS_SECONDS:g} s "
        "in total; ratio = textbook s / engine s)"
    )
    board = Board.parse("8x8")
    cells = list(board.open_cells())
    rows: list[list[object]] = []
    began = time.perf_counter()
    found = moves = undone = 0
    for cell in cells:
        path, made = textbook_warnsdorff(8, cell)
        found += len(path) == len(cells)
        moves += made
        undone += made - (len(path) - 1)
    baseline = time.perf_counter() - began
    rows.append(
        [
            "textbook Warnsdorff (baseline)",
            found,
            baseline,
            1.0,
            moves,
            undone,
            "-",
        ]
    )
    met = True
    graph = move_graph(board)
    for name, solve in (("warnsdorff", solve_warnsdorff), ("prune", solve_prune)):
        attempts = backtracks = found = 0
        began = time.perf_counter()
        for cell in cells:
            tour = run_engine(solve, graph, cell, time_limit=5)
            found += 1
            attempts += tour.effort.attempts or 0
            backtracks += tour.effort.backtracks or 0
        total = time.perf_counter() - began
        ok = total <= ALL_STARTS_SECONDS and found == len(cells)
        met = met and ok
        rows.append(
            [
                f"cpknight {name}",
                found,
                total,
                baseline / total,
                attempts,
                backtracks,
                "ok" if ok else "MISSED",
            ]
        )
    print(
        table_text(
            ["method", "found", "seconds", "ratio", "attempts", "backtracks", "target"],
            rows,
        )
    )
    print()
    return met


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
        ran = time.perf_counter() - began
        base: float | None = None
        base_status = "-"
        if n <= TEXTBOOK_MAX:
            began = time.perf_counter()
            covered = textbook_greedy(n, (0, 0))
            base = time.perf_counter() - began
            base_status = "found" if covered == n * n else f"stuck at {covered:,}"
        rows.append(
            [
                f"{n}x{n}",
                n * n,
                status,
                built,
                ran,
                built + ran,
                base,
                base_status,
                base / (built + ran) if base is not None else None,
            ]
        )
    print("   ratio = textbook greedy s / cpknight greedy s (graph build included)")
    print(
        table_text(
            [
                "board",
                "cells",
                "outcome",
                "graph s",
                "greedy s",
                "total s",
                "textbook s",
                "textbook",
                "ratio",
            ],
            rows,
        ),
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
    met = all_starts()
    greedy(args.quick)
    cpsat_vs_search(limit)
    print(f"all-starts target: {'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
