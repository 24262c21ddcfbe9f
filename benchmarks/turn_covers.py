"""The fewest turns of a closed n x n knight's tour by cycle covers, SCIP or CP-SAT.

The second route for the records of ``cpknight tour NxN --min turns``, written
apart from the library (it reads only n): its own 0/1 program, its own loop,
and by default another solver (SCIP, through OR-Tools' ``model_builder``).

The program: ``e[u-v]`` per knight move, two at every cell (a cycle cover);
``s[v|d] <= e[v-d, v]`` and ``s[v|d] <= e[v, v+d]`` per cell ``v`` and pair of
opposite moves (the tour goes straight through ``v``); minimise ``n^2 -
sum(s)``, the cells where the direction changes. Every closed tour is such a
cover, so its optimum bounds the fewest turns from below. Then Dantzig,
Fulkerson and Johnson's loop: while the optimal cover is more than one
cycle, add for each of its cycles ``S`` the row "at least two chosen moves
leave S" (true of every tour) and solve again. The first cover that is one
cycle is a tour with the fewest turns, and every round's optimum was a proved
lower bound.

Each tour is checked by a recount written here (every cell once, knight
moves, the turns counted from the moves' directions).

Usage::

    python benchmarks/turn_covers.py 12            # SCIP: 77 (new; 76..80 before)
    python benchmarks/turn_covers.py 14 --solver cpsat

Exit code 0 when a tour is proved optimal, 1 otherwise (the limit: the bound
so far is printed).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from ortools.linear_solver.python import model_builder as mb
from ortools.sat.python import cp_model

JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2))  # one of each opposite pair


def moves(rows: int, cols: int) -> list[tuple[int, int]]:
    """Every knight move once, cells numbered rank * cols + file."""
    found = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in JUMPS + tuple((-a, -b) for a, b in JUMPS):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    u, v = r * cols + c, (r + dr) * cols + c + dc
                    if u < v:
                        found.append((u, v))
    return found


def straights(rows: int, cols: int) -> list[tuple[int, int, int]]:
    """Every ``(v, a, b)``: going ``a -> v -> b`` keeps one direction."""
    found = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in JUMPS:
                a, b = (r - dr, c - dc), (r + dr, c + dc)
                if (
                    min(a[0], b[0]) >= 0
                    and max(a[0], b[0]) < rows
                    and (min(a[1], b[1]) >= 0 and max(a[1], b[1]) < cols)
                ):
                    found.append((r * cols + c, a[0] * cols + a[1], b[0] * cols + b[1]))
    return found


def turns_of(rows: int, cols: int, cells: list[int]) -> int:
    """The turns of a closed tour, recounted; raise if it is not one."""
    if sorted(cells) != list(range(rows * cols)):
        raise AssertionError("not every cell once")
    steps = []
    for u, v in zip(cells, cells[1:] + cells[:1], strict=True):
        step = (v // cols - u // cols, v % cols - u % cols)
        if sorted(map(abs, step)) != [1, 2]:
            raise AssertionError("not a knight's move")
        steps.append(step)
    return sum(1 for i in range(len(steps)) if steps[i] != steps[i - 1])


def cycles_of(size: int, chosen: list[tuple[int, int]]) -> list[list[int]]:
    near: dict[int, list[int]] = {v: [] for v in range(size)}
    for u, v in chosen:
        near[u].append(v)
        near[v].append(u)
    seen: set[int] = set()
    out = []
    for first in range(size):
        if first in seen:
            continue
        cycle, previous, here = [first], first, near[first][0]
        seen.add(first)
        while here != first:
            cycle.append(here)
            seen.add(here)
            a, b = near[here]
            previous, here = here, (b if a == previous else a)
        out.append(cycle)
    return out


def crossings_of(rows: int, cols: int, cells: list[int]) -> int:
    """The crossings of a closed tour, recounted; raise if it is not a tour."""
    turns_of(rows, cols, cells)  # every cell once, knight's moves
    drawn = [
        (min(u, v), max(u, v))
        for u, v in zip(cells, cells[1:] + cells[:1], strict=True)
    ]
    return len(crossing_pairs(drawn, cols))


def symmetries(rows: int, cols: int) -> list[list[int]]:
    """The board's symmetries as cell permutations (the identity first)."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    return [
        [a * cols + b for a, b in (f(*divmod(v, cols)) for v in range(rows * cols))]
        for f in maps
    ]


def crossing_pairs(
    edges: list[tuple[int, int]], cols: int
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of moves whose segments cross, cells as points (rank, file).

    A knight's move has no lattice point inside it, and two moves from one
    cell never overlap, so two moves meet only by crossing properly: four
    distinct ends, each pair on strictly opposite sides of the other's line.
    """

    def side(a: int, b: int, c: int) -> int:
        (ar, af), (br, bf), (cr, cf) = (divmod(x, cols) for x in (a, b, c))
        turn = (br - ar) * (cf - af) - (bf - af) * (cr - ar)
        return (turn > 0) - (turn < 0)

    found = []
    for k, (a, b) in enumerate(edges):
        for c, d in edges[k + 1 :]:
            if len({a, b, c, d}) < 4:
                continue
            if side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0:
                found.append(((a, b), (c, d)))
    return found


def four_cycles(edges: list[tuple[int, int]]) -> list[list[int]]:
    """The cells of every 4-cycle of moves, each once."""
    near: dict[int, set[int]] = {}
    for u, v in edges:
        near.setdefault(u, set()).add(v)
        near.setdefault(v, set()).add(u)
    found = set()
    for a, around in near.items():
        for b in around:
            for d in around:
                if b < d:
                    for c in (near[b] & near[d]) - {a}:
                        found.add(frozenset((a, b, c, d)))
    return [sorted(cells) for cells in found]


class Covers:
    """The cover program for one solver; ``add_cut`` and ``solve`` in turn."""

    def __init__(
        self, rows: int, cols: int, solver: str, objective: str = "turns"
    ) -> None:
        n = rows * cols
        self.solver = solver
        self.cut: set[frozenset[int]] = set()
        self.edges = moves(rows, cols)
        self.cp = solver == "cpsat"
        # the two solvers' models share these calls; typed loosely here
        self.model: Any = cp_model.CpModel() if self.cp else mb.Model()  # type: ignore[no-untyped-call]
        new = self.model.new_bool_var
        self.e: dict[tuple[int, int], Any] = {e: new(f"e{e}") for e in self.edges}
        at: dict[int, list[Any]] = {v: [] for v in range(n)}
        for (u, v), x in self.e.items():
            at[u].append(x)
            at[v].append(x)
        for xs in at.values():
            self.model.add(self._sum(xs) == 2)
        if objective == "crossings":
            # x >= e[i] + e[j] - 1 for each crossing pair; a 4-cycle of moves
            # crosses nothing of its own, so every 4-cycle's row goes in first
            xs = []
            for i, j in crossing_pairs(self.edges, cols):
                x = new(f"x{i},{j}")
                self.model.add(x >= self.e[i] + self.e[j] - 1)
                xs.append(x)
            self.model.minimize(self._sum(xs))
            for cycle in four_cycles(self.edges):
                if len(cycle) < n:
                    self.add_cut(cycle)
            return
        s = []
        for v, a, b in straights(rows, cols):
            x = new(f"s{v},{a},{b}")
            self.model.add(x <= self.e[min(a, v), max(a, v)])
            self.model.add(x <= self.e[min(b, v), max(b, v)])
            s.append(x)
        self.model.minimize(n - self._sum(s))

    def _sum(self, xs: list[Any]) -> Any:
        return sum(xs) if self.cp else mb.LinearExpr.sum(xs)

    def add_cut(self, cycle: list[int]) -> None:
        inside = frozenset(cycle)
        if inside in self.cut:
            return
        self.cut.add(inside)
        leaving = [x for (u, v), x in self.e.items() if (u in inside) != (v in inside)]
        self.model.add(self._sum(leaving) >= 2)

    def solve(self, seconds: float) -> tuple[str, int, list[tuple[int, int]]]:
        """('optimal', 'infeasible' or 'limit', the bound, the moves chosen)."""
        if self.cp:
            solver = cp_model.CpSolver()
            solver.parameters.max_time_in_seconds = max(seconds, 1e-3)
            solver.parameters.num_workers = 1
            solver.parameters.linearization_level = 2
            status = solver.solve(self.model)
            optimal = status == cp_model.OPTIMAL
            infeasible = status == cp_model.INFEASIBLE
            bound = solver.best_objective_bound
            chosen = [k for k, x in self.e.items() if optimal and solver.value(x)]
        else:
            scip = mb.Solver("scip")
            scip.set_time_limit_in_seconds(max(seconds, 1e-3))
            answer = scip.solve(self.model)
            optimal = answer == mb.SolveStatus.OPTIMAL
            infeasible = answer == mb.SolveStatus.INFEASIBLE
            bound = scip.best_objective_bound
            chosen = [k for k, x in self.e.items() if optimal and scip.value(x) > 0.5]
        said = "optimal" if optimal else "infeasible" if infeasible else "limit"
        finite = isinstance(bound, float | int) and math.isfinite(bound)
        return said, int(bound + 1 - 1e-6) if finite else 0, chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("board", help="the side n (n x n) or RANKSxFILES")
    parser.add_argument("--solver", choices=("scip", "cpsat"), default="scip")
    parser.add_argument("--objective", choices=("turns", "crossings"), default="turns")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    args = parser.parse_args(argv)
    what = args.objective
    try:
        sides = [int(x) for x in args.board.lower().split("x")]
    except ValueError:
        sides = []
    if len(sides) == 1:
        sides *= 2
    if len(sides) != 2 or min(sides) < 3 or args.time_limit <= 0:
        print(
            "turn_covers.py: a board like 12 or 5x6 (sides at least 3) and a "
            "positive time limit",
            file=sys.stderr,
        )
        return 2
    rows, cols = sides
    began = time.perf_counter()
    covers = Covers(rows, cols, args.solver, what)
    flips = symmetries(rows, cols)
    lower = 0
    for rounds in range(1, 10**6):
        left = args.time_limit - (time.perf_counter() - began)
        if left <= 0:
            break
        status, bound, chosen = covers.solve(left)
        lower = max(lower, bound)
        if status == "infeasible":  # no cover passes the rows: no tour at all
            print(f"no closed {rows}x{cols} tour, proved by {args.solver}")
            return 0
        if status != "optimal":
            break
        cycles = cycles_of(rows * cols, chosen)
        print(
            f"round {rounds}: {lower} {what}, {len(cycles)} cycles "
            f"{sorted(len(c) for c in cycles)} "
            f"({time.perf_counter() - began:.1f} s)",
            flush=True,
        )
        if len(cycles) == 1:
            tour = cycles[0]
            score = (turns_of if what == "turns" else crossings_of)(rows, cols, tour)
            if score != lower:
                raise AssertionError(f"the tour has {score} {what}, not {lower}")
            names = " ".join(f"{chr(97 + v % cols)}{v // cols + 1}" for v in tour)
            print(
                f"fewest {what} of a closed {rows}x{cols} tour: {score}, "
                f"proved by {args.solver}"
            )
            print(f"tour: {names}")
            return 0
        for cycle in cycles:
            # the row holds for any set of cells: the cycle's images go in too
            for flip in flips:
                covers.add_cut([flip[v] for v in cycle])
    print(f"not proved by the limit: at least {lower} {what}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
