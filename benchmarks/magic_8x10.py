"""The two 8 x 10 magic-tour searches of the records page beside the first phase.

Run: ``python benchmarks/magic_8x10.py shadow --seed 2 --limit 1500`` or
``python benchmarks/magic_8x10.py half-turn --limit 600``. One worker.

- ``shadow``: the closed magic model of ``cpknight tour 8x10 --magic`` (the
  sums alone) plus only the shadow: ``k`` and ``k + 40`` at cells of one
  colour at most two steps apart each way (anywhere, not within a block),
  half of every rank and file in each half of the tour. With seed 2 it found
  the tour ``SHADOW_8X10`` of ``tests/test_record_certificates.py`` after
  1,488 s; with seed 1, none in 1,500 s (2026-11-30). This script, seed 2:
  the same tour, cell for cell, in 1,429 s.
- ``half-turn``: ``cpknight tour 8x10 --magic --symmetric rot180``'s model
  plus the blocks and quartets of :mod:`cpknight.tours.cpsat.quartets` with
  the strip in the middle (files e-f: the one layout the half turn keeps), no
  shadow (the half turn is the pairing). CP-SAT proved it infeasible in 26 s
  (the same blocks in the magic model without the half turn: a tour in 31 s).

A tour found is checked by cpknight's checker (``make_tour`` with the magic
constraint) and printed in visiting order. Exit code 0 whatever the outcome
(these are searches, not targets).
"""

from __future__ import annotations

import argparse
import time

from ortools.sat.python import cp_model

from cpknight.checks import make_tour
from cpknight.constraints import TourConstraints
from cpknight.pieces import KNIGHT, move_graph
from cpknight.tours.cpsat import build_tour_model
from cpknight.tours.cpsat.quartets import SHADOW_STEPS, add_place_booleans


def add_shadow(model: cp_model.CpModel, pos: list[cp_model.IntVar]) -> None:
    """``k`` and ``k + 40`` close by (any two such cells), half of each line."""
    graph = move_graph("8x10")
    cells = [(int(r), int(c)) for r, c in graph.cells.tolist()]
    node = {cell: v for v, cell in enumerate(cells)}
    half = len(cells) // 2
    shadow = [model.new_int_var(0, half - 1, "") for _ in cells]
    second = [model.new_bool_var("") for _ in cells]
    partners: list[list[cp_model.IntVar]] = [[] for _ in cells]
    for v in range(len(cells)):
        model.add(pos[v] == shadow[v] + half * second[v])
    for v, (r, c) in enumerate(cells):
        for dr, dc in SHADOW_STEPS:
            w = node.get((r + dr, c + dc))
            if w is None or w <= v:
                continue
            paired = model.new_bool_var("")
            model.add(shadow[v] == shadow[w]).only_enforce_if(paired)
            model.add(second[v] + second[w] == 1).only_enforce_if(paired)
            partners[v].append(paired)
            partners[w].append(paired)
    for choices in partners:
        model.add_exactly_one(choices)
    for axis, count in ((0, 8), (1, 10)):
        for line in range(count):
            members = [second[v] for v in range(len(cells)) if cells[v][axis] == line]
            model.add(2 * sum(members) == len(members))


def add_middle_quartets(model: cp_model.CpModel, pos: list[cp_model.IntVar]) -> None:
    """Runs of four places in one block: 4 x 4 blocks, the strip in files e-f."""
    graph = move_graph("8x10")
    cells = [(int(r), int(c)) for r, c in graph.cells.tolist()]
    n = len(cells)

    def block(r: int, c: int) -> tuple[int, ...]:
        if c in (4, 5):
            return (-1,)
        return (r // 4, c // 6)

    blocks = [block(r, c) for r, c in cells]
    at = add_place_booleans(graph, model, pos, lambda: None)
    for j in range(n // 4):
        places = range(4 * j, 4 * j + 4)
        chosen = {b: model.new_bool_var("") for b in sorted(set(blocks))}
        model.add_exactly_one(chosen.values())
        for v in range(n):
            for k in places:
                model.add_implication(at[v][k], chosen[blocks[v]])
        for rank in range(8):
            model.add_at_most_one(
                at[v][k] for v in range(n) if cells[v][0] == rank for k in places
            )
        for file in (0, 1, 2, 3, 6, 7, 8, 9):
            model.add_at_most_one(
                at[v][k] for v in range(n) if cells[v][1] == file for k in places
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("search", choices=["shadow", "half-turn"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=600.0)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    graph = move_graph("8x10")
    side = TourConstraints(
        magic=True, symmetric="rot180" if args.search == "half-turn" else None
    )
    bundle = build_tour_model(graph, closed=True, constraints=side, seed=args.seed)
    pos = list(bundle.positions)
    if args.search == "shadow":
        add_shadow(bundle.model, pos)
    else:
        add_middle_quartets(bundle.model, pos)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = args.seed
    solver.parameters.linearization_level = 0
    solver.parameters.max_time_in_seconds = args.limit
    status = solver.solve(bundle.model)
    seconds = time.perf_counter() - began
    outcome = solver.status_name(status)
    print(f"{args.search}, seed {args.seed}: {outcome}, {seconds:.1f} s")
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        tour = make_tour(
            graph.board,
            KNIGHT,
            bundle.decode(solver),
            closed=True,
            method="cpsat",
            constraints=side,
        )
        print(" ".join(graph.board.cell_name(cell) for cell in tour.cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
