"""The snake's meal: shortest knight routes through 12 food cells on 8x8 and 20 on
16x16, proved optimal by CP-SAT within 10 s, with the greedy route beside them.

Run: ``python benchmarks/collect.py`` (``--quick``: one seed per size). Food cells
are drawn with fixed seeds. Columns: CP-SAT's route length, whether it is proved
optimal and its time; ``search`` (Held-Karp for walks, IDA* for simple routes)
where it applies (at most ``DP_FOOD_LIMIT`` food); the greedy nearest-food route
and how much longer it is. Simple routes (no cell twice) are shown too.
The target: every CP-SAT row proved optimal within 10 s. Exit code 1 if not.

Baselines in the same run, as ratios (cpknight's seconds over the baseline's):
for walks, a bare CP-SAT model written here (a textbook BFS from the start and
each food cell, then one ``add_circuit`` over them and a dummy end node,
minimising the summed distances; default parameters, 1 worker), whose optimum
must equal cpknight's; and ``search`` where it ran.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque

from cpknight import Board, SolveOptions, collect
from cpknight.board import Cell
from cpknight.routes.common import DP_FOOD_LIMIT
from cpknight.text.render import table_text

LIMIT = 10.0

KNIGHT_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def bfs_moves(size: int, source: Cell) -> list[list[int]]:
    """Knight moves from ``source`` to every cell of size x size: a deque BFS."""
    dist = [[-1] * size for _ in range(size)]
    dist[source[0]][source[1]] = 0
    queue = deque([source])
    while queue:
        r, c = queue.popleft()
        for dr, dc in KNIGHT_MOVES:
            nr, nc = r + dr, c + dc
            if 0 <= nr < size and 0 <= nc < size and dist[nr][nc] < 0:
                dist[nr][nc] = dist[r][c] + 1
                queue.append((nr, nc))
    return dist


def bare_walk(size: int, start: Cell, food: list[Cell]) -> tuple[int, bool, float]:
    """The bare baseline: (moves, proved optimal, seconds, BFS included)."""
    from ortools.sat.python import cp_model

    began = time.perf_counter()
    points = [start, *food]
    dist = [bfs_moves(size, p) for p in points]
    end = len(points)  # a dummy node: every food cell may be the last
    model = cp_model.CpModel()
    arcs = []
    cost = []
    for i in range(len(points)):
        for j in range(1, len(points)):
            if i != j:
                arc = model.new_bool_var(f"x{i}_{j}")
                arcs.append((i, j, arc))
                cost.append(dist[i][points[j][0]][points[j][1]] * arc)
        if i:
            arcs.append((i, end, model.new_bool_var(f"x{i}_end")))
    arcs.append((end, 0, model.new_bool_var("back")))
    model.add_circuit(arcs)
    model.minimize(sum(cost))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = LIMIT
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE), status
    optimal = status == cp_model.OPTIMAL
    return round(solver.objective_value), optimal, time.perf_counter() - began


def instance(size: int, n_food: int, seed: int) -> tuple[Board, Cell, list[Cell]]:
    board = Board.parse(f"{size}x{size}")
    rng = random.Random(seed)
    cells = list(board.open_cells())
    start = rng.choice(cells)
    food = rng.sample([c for c in cells if c != start], n_food)
    return board, start, food


def row(size: int, n_food: int, seed: int, simple: bool) -> list[object]:
    board, start, food = instance(size, n_food, seed)
    options = SolveOptions(time_limit=LIMIT, workers=1, seed=0)
    cp = collect(board, start, food, simple=simple, method="cpsat", options=options)
    greedy = collect(board, start, food, simple=simple, method="greedy")
    if n_food <= DP_FOOD_LIMIT:
        dp = collect(
            board, start, food, simple=simple, method="search", options=options
        )
        dp_moves: object = dp.moves if dp.optimal else f"{dp.moves}?"
        dp_seconds: object = dp.seconds
        if cp.optimal and dp.optimal:
            assert dp.moves == cp.moves, (dp.moves, cp.moves)
    else:
        dp_moves = dp_seconds = None
    bare_moves: object = None
    bare_seconds: float | None = None
    if not simple:
        moves, optimal, bare_seconds = bare_walk(size, start, food)
        bare_moves = moves if optimal else f"{moves}?"
        if cp.optimal and optimal:
            assert moves == cp.moves, (moves, cp.moves)
    return [
        board.label,
        "simple" if simple else "walk",
        n_food,
        seed,
        cp.moves,
        cp.status,
        cp.seconds,
        bare_moves,
        bare_seconds,
        cp.seconds / bare_seconds if bare_seconds else None,
        dp_moves,
        dp_seconds,
        cp.seconds / dp_seconds if isinstance(dp_seconds, float) else None,
        greedy.moves,
        f"{100 * (greedy.moves - cp.moves) / max(cp.moves, 1):.0f}%",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one seed per size")
    args = parser.parse_args(argv)
    seeds = [0] if args.quick else [0, 1, 2]
    cases = [(8, 12, False), (16, 20, False), (8, 6, True), (8, 12, True)]
    # Warm up: load OR-Tools once, outside every timing.
    bare_walk(8, (0, 0), [(7, 7)])
    collect(Board.parse("8x8"), (0, 0), [(7, 7)], method="cpsat")
    rows = [row(size, k, s, simple) for size, k, simple in cases for s in seeds]
    headers = [
        "board",
        "variant",
        "food",
        "seed",
        "cpsat",
        "status",
        "cpsat s",
        "bare",
        "bare s",
        "x bare",
        "search",
        "search s",
        "x search",
        "greedy",
        "greedy +",
    ]
    print(
        "x bare / x search: cpsat s over the bare CP-SAT circuit model's / over "
        "search's seconds, same instance, same run"
    )
    print(table_text(headers, rows))
    walk = [r for r in rows if r[1] == "walk"]
    ok = all(r[5] == "optimal" and float(str(r[6])) <= LIMIT for r in walk)
    print(
        f"\ntarget: every walk proved optimal within {LIMIT:.0f} s: "
        + ("met" if ok else "NOT MET")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
