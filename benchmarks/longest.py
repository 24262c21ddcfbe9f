"""The knight optimisation puzzles: longest uncrossed paths and induced cycles,
proved optimal, CP-SAT (two crossing forms) beside depth-first branch and bound.

Run: ``python benchmarks/longest.py`` (``--quick``: up to 6x6; ``--eight``: also
the 8x8 uncrossed path, 35 moves, by the frontier program with a 20 GB budget
beside the search with a limit of 600 s). Each row is one board
and one engine with a limit of 60 s: the length found, whether it is proved
longest, the seconds (model building included), and the published optimum it
must equal (OEIS A003192 for uncrossed paths, A165143 for induced cycles).

Baselines in the same run, as ratios of seconds: CP-SAT with one ``at most one``
per clique of mutually crossing moves over CP-SAT with one constraint per
crossing pair (``x pairwise``); CP-SAT with the reflection and colour-balance
cuts over CP-SAT without them (``x plain``); CP-SAT over the search
(``x search``). Below 1: the row is faster. ``cpu s`` is the process's CPU
time for the row (about what it takes alone on a free core). The model sizes
of both crossing forms are printed first. Machine load moves every figure: run
it more than once.

Targets: every uncrossed path up to 7x7 and every induced cycle up to 8x8
(``--quick``: up to 6x6) proved optimal within 60 s by at least one engine;
with ``--eight``, the 8x8 path within 600 s. Exit code 1 if not.

``--frontier`` runs the frontier program instead (``cpknight.longest.frontier``,
a transfer-matrix program keeping the most moves per state, proved when it
ends) beside the search, both on the same question in the same run: the
uncrossed path (A003192) and cycle (A157416), the induced cycle (A165143) and
path (A357500, which counts cells: moves + 1) on n x n up to 7x7 (``--eight``:
8x8 too, limit 600 s, the uncrossed path with 20 GB and two threads;
``--quick``: up to 6x6). Each frontier row runs in a
fresh process (spawned), so its peak memory is its own (numba's import and
compile included); ``x search`` is the frontier's seconds over the search's
(below 1: the frontier is faster). ``--cells`` prints the live states after
every cell of each frontier row. Target: every row's optimum equals OEIS.
``--rectangles N``: uncrossed paths and cycles on every m x n up to N x N
(short side at most 7), the frontier beside the search, the paths held to
A003192's rectangle table. ``--nine``: the stretch, the 9x9 induced cycle
(A165143: 40) by the frontier (1800 s, 8 GB), and the record, the 9x9 induced
path (A357500 ends at 8x8), each beside the search (600 s).

``--kernels`` runs the search's two kernels on the same snakes, one after the
other: the plain Python one and the compiled one (``cpknight[fast]``, compiled
first, outside the timings), induced paths (A357500) and cycles (A165143) on
n x n for n = 5..8 (``--quick``: 5, 6), limit 600 s. ``x python`` is the
compiled kernel's seconds over the plain one's (below 1: faster); the two must
give the same length and the same counts of attempts and backtracks.

``--tiles`` runs the compiled kernel with the tiles' bound (as shipped) and
without it (the colours' bound alone), one after the other, on induced paths
up to 8 x 8 and cycles up to 9 x 9 (``--quick``: 6 x 6); ``x without`` is the
seconds with the tiles over those without. Both must give the same length.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from typing import Any

from cpknight import SolveOptions
from cpknight.api import try_longest
from cpknight.board import Board
from cpknight.errors import NoPathError, SolveLimitError
from cpknight.longest.common import LongestInstance
from cpknight.longest.cpsat import build_longest_model
from cpknight.longest.frontier import run_frontier
from cpknight.pieces import KNIGHT
from cpknight.runtime.memory import peak_mb
from cpknight.status import Status
from cpknight.text.render import table_text

LIMIT = 60.0

# OEIS A003192 (uncrossed knight paths on n x n, moves) and A165143 (induced
# knight cycles on n x n, offset 3).
A003192 = {3: 2, 4: 5, 5: 10, 6: 17, 7: 24, 8: 35, 9: 47}
A165143 = {3: 8, 4: 10, 5: 16, 6: 20, 7: 22, 8: 32, 9: 40, 10: 48}
# OEIS A157416 (uncrossed knight cycles on n x n, moves) and A357500 (induced
# knight paths on n x n, *cells*), both checked on oeis.org.
A157416 = {3: 0, 4: 4, 5: 8, 6: 12, 7: 24, 8: 32, 9: 42, 10: 54}
A357500 = {3: 7, 4: 9, 5: 15, 6: 21, 7: 24, 8: 34}

ENGINES = [
    ("search", "cliques"),
    ("cpsat", "cliques"),
    ("cpsat", "pairwise"),
    ("cpsat", "cliques+cuts"),
]


def solve(n: int, kind: str, method: str, form: str, limit: float) -> list[object]:
    closed = kind == "induced"
    options = SolveOptions(time_limit=limit, workers=1, seed=0)
    cpu = time.process_time()
    o = try_longest(
        f"{n}x{n}",
        kind=kind,
        closed=closed,
        method=method,
        crossings="pairwise" if form == "pairwise" else "cliques",
        cuts=form.endswith("+cuts"),
        options=options,
    )
    want = (A003192 if kind == "uncrossed" else A165143)[n]
    moves = None if o.value is None else o.value.moves
    if o.status is Status.OPTIMAL:
        assert moves == want, (n, kind, method, moves, want)
    name = method if method == "search" else f"cpsat-{form}"
    if kind == "induced" and method == "cpsat":
        name = "cpsat+cuts" if form.endswith("+cuts") else "cpsat"
    cpu = time.process_time() - cpu
    return [f"{n}x{n}", name, moves, o.bound, str(o.status), o.seconds, want, cpu]


def sizes_table(ns: list[int]) -> str:
    rows = []
    for n in ns:
        sizes = build_longest_model(f"{n}x{n}", kind="uncrossed", closed=False).sizes()
        rows.append(
            [
                f"{n}x{n}",
                sizes["moves"],
                sizes["crossing pairs"],
                sizes["crossing cliques"],
                sizes["clique literals"],
                sizes["largest clique"],
            ]
        )
    return table_text(
        ["board", "moves", "pairs", "cliques", "clique literals", "largest"], rows
    )


def ratios(rows: list[list[object]]) -> list[list[object]]:
    """Add ``x pairwise``, ``x plain`` and ``x search`` to each CP-SAT row."""
    seconds = {(r[0], r[1]): float(str(r[5])) for r in rows}

    def over(row: list[object], other: str, when: bool) -> float | None:
        base = seconds.get((row[0], other))
        return float(str(row[5])) / base if when and base else None

    out = []
    for r in rows:
        name = str(r[1])
        plain = "cpsat-cliques" if name.startswith("cpsat-") else "cpsat"
        out.append(
            [
                *r,
                over(r, "cpsat-pairwise", name == "cpsat-cliques"),
                over(r, plain, name.endswith("+cuts")),
                over(r, "search", name.startswith("cpsat")),
            ]
        )
    return out


def proved_by_some(rows: list[list[object]], limit: float) -> bool:
    boards = {r[0] for r in rows}
    return all(
        any(r[4] == "optimal" and float(str(r[5])) <= limit for r in rows if r[0] == b)
        for b in boards
    )


HEADERS = [
    "board",
    "engine",
    "moves",
    "bound",
    "status",
    "seconds",
    "published",
    "cpu s",
]
RATIOS = ["x pairwise", "x plain", "x search"]


BIG_MEMORY_MB = 6000.0
"""The memory budget of a frontier row (MB): a quarter of the machine
(``--nine``: 8000, a third)."""

FRONTIER_KINDS = [
    ("uncrossed", False, "A003192"),
    ("uncrossed", True, "A157416"),
    ("induced", True, "A165143"),
    ("induced", False, "A357500"),
]


def published(kind: str, closed: bool, n: int) -> int | None:
    """The OEIS optimum in moves (None: not in the table)."""
    if kind == "uncrossed":
        return (A157416 if closed else A003192).get(n)
    if closed:
        return A165143.get(n)
    cells = A357500.get(n)
    return None if cells is None else cells - 1


def frontier_row(
    n: int,
    kind: str,
    closed: bool,
    limit: float,
    memory: float = BIG_MEMORY_MB,
    workers: int = 1,
) -> dict[str, Any]:
    """One frontier run (in a child process): its figures and its own peak memory."""
    from cpknight.longest.common import is_longest_kind
    from cpknight.runtime.memory import memory_budget

    inst = LongestInstance(
        board=Board((n, n)), piece=KNIGHT, kind=is_longest_kind(kind), closed=closed
    )
    run = SolveOptions(time_limit=limit, workers=workers, seed=0).start()
    try:
        with memory_budget(memory):
            path, figures = run_frontier(inst, run)
    except (NoPathError, SolveLimitError) as exc:
        status = "none" if isinstance(exc, NoPathError) else "unknown"
        details = exc.details if isinstance(exc, SolveLimitError) else {}
        live = details.get("live_states", [])
        return {
            "moves": 0 if status == "none" else None,
            "status": status,
            "seconds": run.elapsed(),
            "live": live,
            "peak_mb": peak_mb(),
            "kernel": "",
            "stopped": str(exc),
        }
    return {
        "moves": path.moves,
        "status": str(path.status),
        "seconds": path.seconds,
        "live": list(figures.live),
        "peak_mb": peak_mb(),
        "kernel": figures.kernel,
    }


def search_row(n: int, kind: str, closed: bool, limit: float) -> tuple[Any, str, float]:
    o = try_longest(
        f"{n}x{n}",
        kind=kind,
        closed=closed,
        method="search",
        options=SolveOptions(time_limit=limit, workers=1, seed=0),
    )
    moves = (
        o.value.moves
        if o.value is not None
        else (0 if o.status is Status.INFEASIBLE else None)
    )
    return moves, str(o.status), o.seconds


def side_by_side(
    n: int,
    kind: str,
    closed: bool,
    oeis: str,
    want: int | None,
    f: dict[str, Any],
    search: tuple[Any, str, float],
) -> list[object]:
    """One row of :data:`FRONTIER_HEADERS`: the frontier's run beside the search's."""
    s_moves, s_status, s_seconds = search
    shape = "cycle" if closed else "path"
    return [
        f"{n}x{n}", f"{kind} {shape}", oeis, want, f["moves"], f["status"],
        f["seconds"], s_moves, s_status, s_seconds,
        f["seconds"] / s_seconds if s_seconds else None,
        max(f["live"], default=0), f["peak_mb"], f["kernel"],
    ]  # fmt: skip


def frontier_main(ns: list[int], big: int | None, cells: bool) -> int:
    """The frontier program beside the search: one row per board and question."""
    rows: list[list[object]] = []
    ok = True
    per_cell: list[tuple[str, list[int]]] = []
    context = multiprocessing.get_context("spawn")
    for kind, closed, oeis in FRONTIER_KINDS:
        for n in [*ns, *([big] if big else [])]:
            limit = 600.0 if n == big else LIMIT
            # the 8x8 path: most of the machine's memory, both its cores
            wide = n == big and (kind, closed) == ("uncrossed", False)
            memory, workers = (EIGHT_MEMORY_MB, 2) if wide else (BIG_MEMORY_MB, 1)
            with context.Pool(1) as pool:
                f = pool.apply(frontier_row, (n, kind, closed, limit, memory, workers))
            search = search_row(n, kind, closed, limit)
            want = published(kind, closed, n)
            if f["status"] == "optimal" and f["moves"] != want:
                ok = False
            proved = f["status"] == "optimal" or (f["status"] == "none" and want == 0)
            if not proved and n != big:
                ok = False
            rows.append(side_by_side(n, kind, closed, oeis, want, f, search))
            shape = "cycle" if closed else "path"
            print(table_text(FRONTIER_HEADERS, rows[-1:]).splitlines()[-1], flush=True)
            per_cell.append((f"{n}x{n} {kind} {shape}", f["live"]))
            if "stopped" in f:
                print(f"  ({n}x{n} {kind} {shape}, frontier: {f['stopped']})")
    print(
        "\nthe frontier program beside the search (limit "
        f"{LIMIT:g} s; {big}x{big}: 600 s):"
        if big
        else f"\nthe frontier program beside the search (limit {LIMIT:g} s):"
    )
    print(table_text(FRONTIER_HEADERS, rows))
    print("target: every frontier optimum equals OEIS: " + ("met" if ok else "NOT MET"))
    for row in rows:
        if row[0] == f"{big}x{big}" and row[1] == "uncrossed path":
            met = row[5] == "optimal" and float(str(row[6])) <= 600.0
            print(
                f"target: the {big}x{big} uncrossed path proved within 600 s: "
                + ("met" if met else "NOT MET")
            )
            ok &= met
    if cells:
        for label, live in per_cell:
            print(f"\nlive states after each cell, {label}:")
            for at in range(0, len(live), 10):
                chunk = " ".join(f"{x:>9,}" for x in live[at : at + 10])
                print(f"  {at + 1:>3}-{min(at + 10, len(live)):<3} {chunk}")
    return 0 if ok else 1


# The rectangle table in OEIS A003192's example: longest uncrossed knight
# paths on m x n, 3 <= m <= n <= 9 (checked on oeis.org).
A003192_RECTANGLES = {
    (3, 3): 2, (3, 4): 4, (3, 5): 5, (3, 6): 6, (3, 7): 8, (3, 8): 9, (3, 9): 10,
    (4, 4): 5, (4, 5): 7, (4, 6): 9, (4, 7): 11, (4, 8): 13, (4, 9): 15,
    (5, 5): 10, (5, 6): 14, (5, 7): 16, (5, 8): 19, (5, 9): 22,
    (6, 6): 17, (6, 7): 21, (6, 8): 25, (6, 9): 29,
    (7, 7): 24, (7, 8): 30, (7, 9): 35,
    (8, 8): 35, (8, 9): 42, (9, 9): 47,
}  # fmt: skip


EIGHT_MEMORY_MB = 20000.0
"""The memory budget of the 8x8 path by the frontier (MB): most of the
machine's 24 GB (its peak measured about PATH8_MB MB)."""


def eight_main() -> bool:
    """The 8x8 uncrossed path (A003192: 35): the frontier program (limit 1800 s,
    :data:`EIGHT_MEMORY_MB`, two threads: the machine's two cores) beside the
    search (600 s). Target: proved within 600 s."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        f = pool.apply(
            frontier_row, (8, "uncrossed", False, 1800.0, EIGHT_MEMORY_MB, 2)
        )
    search = search_row(8, "uncrossed", False, 600.0)
    row = side_by_side(8, "uncrossed", False, "A003192", A003192[8], f, search)
    print(
        "\n8x8 uncrossed path (A003192: 35), the frontier (limit 1800 s, "
        "two threads) beside the search (600 s):"
    )
    print(table_text(FRONTIER_HEADERS, [row]))
    if "stopped" in f:
        print(f"  (frontier: {f['stopped']})")
    proved = f["status"] == "optimal" and f["moves"] == A003192[8]
    print("8x8 proved 35 by the frontier: " + ("yes" if proved else "NO"))
    met = bool(proved and f["seconds"] <= 600.0)
    print("target: 8x8 proved within 600 s: " + ("met" if met else "NOT MET"))
    live = f["live"]
    print("live states after each cell:")
    for at in range(0, len(live), 8):
        chunk = " ".join(f"{x:>11,}" for x in live[at : at + 8])
        print(f"  {at + 1:>3}-{min(at + 8, len(live)):<3} {chunk}")
    return met


def nine_main() -> int:
    """The 9x9 induced cycle (A165143: 40) and path (the record) by the frontier.

    The cycle with 1800 s and 8 GB, the path (A357500's next term, not in the
    OEIS revision read, #23 of January 2023, whose terms end at 8x8: 34 cells)
    with 3600 s, 20 GB and two threads; each beside the search (600 s).
    Targets: the cycle proved 40; the path proved (its length is printed).
    """
    context = multiprocessing.get_context("spawn")
    rows = []
    for closed, limit, memory, workers in (
        (True, 1800.0, 8000.0, 1),
        (False, 3600.0, EIGHT_MEMORY_MB, 2),
    ):
        with context.Pool(1) as pool:
            f = pool.apply(frontier_row, (9, "induced", closed, limit, memory, workers))
        search = search_row(9, "induced", closed, 600.0)
        oeis = "A165143" if closed else "A357500"
        want = A165143[9] if closed else None
        rows.append(side_by_side(9, "induced", closed, oeis, want, f, search))
        print(table_text(FRONTIER_HEADERS, rows[-1:]).splitlines()[-1], flush=True)
    print(table_text(FRONTIER_HEADERS, rows))
    cycle, path = rows
    met = cycle[5] == "optimal" and cycle[4] == A165143[9]
    print("target: the 9x9 induced cycle proved 40: " + ("met" if met else "NOT MET"))
    proved = path[5] == "optimal"
    cells = f"{int(str(path[4])) + 1} cells" if proved else "not proved"
    print(f"record: the 9x9 induced path (A357500(9)): {cells}")
    return 0 if met and proved else 1


def rectangles_main(top: int) -> int:
    """Uncrossed paths and cycles on every m x n, 3 <= m <= n <= top (m <= 7).

    The frontier program (rows along the short side) beside the search. The
    paths are held to A003192's rectangle table; no table is published for
    cycles on rectangles (A157416 has the squares), so there the target is
    agreement wherever the search proves its answer.
    """
    rows: list[list[object]] = []
    ok = True
    for closed in (False, True):
        for m in range(3, min(top, 7) + 1):
            for n in range(m, top + 1):
                inst = LongestInstance(
                    board=Board((m, n)), piece=KNIGHT, kind="uncrossed", closed=closed
                )
                started = time.perf_counter()
                try:
                    path, figures = run_frontier(
                        inst, SolveOptions(time_limit=600.0).start()
                    )
                    moves: int | None = path.moves
                    peak = figures.peak
                except NoPathError:
                    moves, peak = 0, 0
                f_seconds = time.perf_counter() - started
                s_moves, s_status, s_seconds = search_row_board(
                    f"{m}x{n}", closed, LIMIT
                )
                if s_status == "optimal" and s_moves != moves:
                    ok = False
                want = None if closed else A003192_RECTANGLES.get((m, n))
                if want is not None and moves != want:
                    ok = False
                shape = "cycle" if closed else "path"
                rows.append(
                    [
                        f"{m}x{n}",
                        shape,
                        want,
                        moves,
                        f_seconds,
                        peak,
                        s_moves,
                        s_status,
                        s_seconds,
                        f_seconds / s_seconds if s_seconds else None,
                    ]
                )
                print(table_text(RECT_HEADERS, rows[-1:]).splitlines()[-1], flush=True)
    print("\nuncrossed knight paths and cycles on rectangles, frontier beside search:")
    print(table_text(RECT_HEADERS, rows))
    print(
        "target: frontier equals A003192's table and every search optimum: "
        + ("met" if ok else "NOT MET")
    )
    return 0 if ok else 1


RECT_HEADERS = [
    "board",
    "question",
    "A003192",
    "frontier",
    "seconds",
    "peak states",
    "search",
    "status",
    "seconds",
    "x search",
]


def search_row_board(board: str, closed: bool, limit: float) -> tuple[Any, str, float]:
    o = try_longest(
        board,
        kind="uncrossed",
        closed=closed,
        method="search",
        options=SolveOptions(time_limit=limit, workers=1, seed=0),
    )
    moves = (
        o.value.moves
        if o.value is not None
        else (0 if o.status is Status.INFEASIBLE else None)
    )
    return moves, str(o.status), o.seconds


FRONTIER_HEADERS = [
    "board",
    "question",
    "oeis",
    "published",
    "frontier",
    "status",
    "seconds",
    "search",
    "status",
    "seconds",
    "x search",
    "peak states",
    "peak MB",
    "kernel",
]


def kernel_row(
    n: int, closed: bool, kernel: str, tiles: bool = True
) -> tuple[int, int, float]:
    """The moves, attempts and seconds of one search kernel on an n x n snake."""
    from cpknight.longest.search import solve as search

    instance = LongestInstance(
        board=Board((n, n)), piece=KNIGHT, kind="induced", closed=closed
    )
    began = time.perf_counter()
    p = search(
        instance, SolveOptions(time_limit=600).start(), kernel=kernel, tiles=tiles
    )
    seconds = time.perf_counter() - began
    effort = p.effort
    if p.status is not Status.OPTIMAL or effort is None or effort.attempts is None:
        raise SystemExit(f"{n}x{n}: not proved in 600 s by the {kernel} kernel")
    return p.moves, effort.attempts, seconds


def kernels_main(ns: list[int]) -> int:
    """The search's plain and compiled kernels side by side (``--kernels``)."""
    kernel_row(4, True, "numba")  # compiled (or loaded) outside the timings
    rows: list[list[object]] = []
    ok = True
    for closed in (False, True):
        for n in ns:
            moves, attempts, plain = kernel_row(n, closed, "python")
            moves2, attempts2, fast = kernel_row(n, closed, "numba")
            same = (moves, attempts) == (moves2, attempts2)
            want = published("induced", closed, n)  # moves
            cells = moves + (0 if closed else 1)
            ok &= same and (want is None or want == moves)
            kind = "cycle" if closed else "path"
            rows.append(
                [
                    f"{n}x{n}",
                    kind,
                    cells,
                    None if want is None else want + cells - moves,
                    attempts,
                    f"{plain:.2f}",
                    f"{fast:.3f}",
                    f"{fast / plain:.3f}",
                    "yes" if same else "NO",
                ]
            )
            print(rows[-1], flush=True)
    print(
        table_text(
            [
                "board",
                "snake",
                "cells",
                "OEIS",
                "attempts",
                "python s",
                "numba s",
                "x python",
                "same",
            ],
            rows,
        )
    )
    return 0 if ok else 1


def tiles_main(quick: bool) -> int:
    """The compiled search with and without the tiles' bound (``--tiles``)."""
    kernel_row(4, True, "numba")  # compiled (or loaded) outside the timings
    rows: list[list[object]] = []
    ok = True
    for closed, ns in (
        (False, [6] if quick else [7, 8]),
        (True, [6] if quick else [7, 8, 9]),
    ):
        for n in ns:
            moves, with_tiles, fast = kernel_row(n, closed, "numba")
            moves2, without, slow = kernel_row(n, closed, "numba", tiles=False)
            want = published("induced", closed, n)
            ok &= moves == moves2 and (want is None or want == moves)
            cells = moves + (0 if closed else 1)
            rows.append(
                [
                    f"{n}x{n}",
                    "cycle" if closed else "path",
                    cells,
                    "yes" if moves == moves2 else "NO",
                    without,
                    with_tiles,
                    f"{slow:.2f}",
                    f"{fast:.2f}",
                    f"{fast / slow:.3f}",
                ]
            )
            print(rows[-1], flush=True)
    head = ["board", "snake", "cells", "same", "attempts without", "attempts with"]
    print(table_text([*head, "without s", "with s", "x without"], rows))
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="boards up to 6x6")
    parser.add_argument("--eight", action="store_true", help="also 8x8 uncrossed")
    parser.add_argument(
        "--frontier", action="store_true", help="the frontier program vs the search"
    )
    parser.add_argument(
        "--cells", action="store_true", help="with --frontier: live states per cell"
    )
    parser.add_argument(
        "--sizes",
        help="with --frontier: the n of the n x n boards, a comma list (8: 600 s)",
    )
    parser.add_argument(
        "--rectangles",
        type=int,
        metavar="N",
        help="uncrossed paths and cycles on every m x n up to N x N (frontier, search)",
    )
    parser.add_argument(
        "--nine",
        action="store_true",
        help="the 9x9 induced cycle (A165143: 40) and path (a record) by the frontier",
    )
    parser.add_argument(
        "--kernels",
        action="store_true",
        help="the search's plain and compiled kernels on the same snakes",
    )
    parser.add_argument(
        "--tiles",
        action="store_true",
        help="the compiled search with and without the tiles' bound",
    )
    args = parser.parse_args(argv)
    if args.tiles:
        return tiles_main(args.quick)
    if args.kernels:
        return kernels_main([5, 6] if args.quick else [5, 6, 7, 8])
    if args.nine:
        return nine_main()
    if args.rectangles:
        return rectangles_main(args.rectangles)
    if args.frontier:
        top = 6 if args.quick else 7
        ns = list(range(3, top + 1))
        if args.sizes:
            ns = [int(x) for x in args.sizes.split(",")]
        big = 8 if args.eight or 8 in ns else None
        return frontier_main([n for n in ns if n != big], big, args.cells)
    top_path, top_cycle = (6, 6) if args.quick else (7, 8)
    solve(3, "induced", "cpsat", "cliques", LIMIT)  # load OR-Tools outside timings
    print("crossing constraints, pairwise against cliques (uncrossed paths):")
    print(sizes_table(list(range(4, top_path + 2))))
    ok = True
    sys.stdout.flush()
    paths = [
        solve(n, "uncrossed", method, form, LIMIT)
        for n in range(3, top_path + 1)
        for method, form in ENGINES
    ]
    print("\nlongest uncrossed paths (OEIS A003192), limit 60 s each:")
    print(table_text([*HEADERS, *RATIOS], ratios(paths)))
    met = proved_by_some(paths, LIMIT)
    print(
        f"target: uncrossed paths up to {top_path}x{top_path} proved optimal "
        "within 60 s each: " + ("met" if met else "NOT MET")
    )
    ok &= met
    cycles = [
        solve(n, "induced", method, form, LIMIT)
        for n in range(3, top_cycle + 1)
        for method, form in (
            ("search", "cliques"),
            ("cpsat", "cliques"),
            ("cpsat", "cliques+cuts"),
        )
    ]
    print("\nlongest induced cycles (OEIS A165143), limit 60 s each:")
    print(table_text([*HEADERS, *RATIOS], ratios(cycles)))
    met = proved_by_some(cycles, LIMIT)
    print(
        f"target: induced cycles up to {top_cycle}x{top_cycle} proved optimal "
        "within 60 s each: " + ("met" if met else "NOT MET")
    )
    ok &= met
    if args.eight:
        ok &= eight_main()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
