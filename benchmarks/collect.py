"""The snake's meal: shortest knight routes through 12 food cells on 8x8 and 20 on
16x16, proved optimal by CP-SAT within 10 s, with the greedy route beside them.

Run: ``python benchmarks/collect.py`` (``--quick``: one seed per size). Food cells
are drawn with fixed seeds. Columns: CP-SAT's route length, whether it is proved
optimal and its time; ``search`` (Held-Karp for walks, IDA* for simple routes)
where it applies (at most ``DP_FOOD_LIMIT`` food); the greedy nearest-food route
and how much longer it is. Simple routes (no cell twice) are shown too.
The target: every CP-SAT row proved optimal within 10 s. Exit code 1 if not.
"""

from __future__ import annotations

import argparse
import random
import sys

from cpknight import Board, SolveOptions, collect
from cpknight.board import Cell
from cpknight.collect import DP_FOOD_LIMIT
from cpknight.render import table_text

LIMIT = 10.0


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
    return [
        board.label,
        "simple" if simple else "walk",
        n_food,
        seed,
        cp.moves,
        cp.status,
        cp.seconds,
        dp_moves,
        dp_seconds,
        greedy.moves,
        f"{100 * (greedy.moves - cp.moves) / max(cp.moves, 1):.0f}%",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one seed per size")
    args = parser.parse_args(argv)
    seeds = [0] if args.quick else [0, 1, 2]
    cases = [(8, 12, False), (16, 20, False), (8, 6, True), (8, 12, True)]
    rows = [row(size, k, s, simple) for size, k, simple in cases for s in seeds]
    headers = [
        "board",
        "variant",
        "food",
        "seed",
        "cpsat",
        "status",
        "cpsat s",
        "search",
        "search s",
        "greedy",
        "greedy +",
    ]
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
