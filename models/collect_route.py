"""The snake's meal: the shortest knight route through required cells, as a circuit.

Problem: a knight starts on a cell s and must visit every food cell f_1..f_k in
as few moves as possible (a *walk*: cells may be used again).

Formulation (CP-SAT). A travelling-salesman circuit over the terminals
T = {s, f_1..f_k}. With d(i, j) the BFS distance on the move graph and x_ij = 1
when the route goes from terminal i straight to terminal j:

    minimise    sum_(i != j) c_ij x_ij
    subject to  circuit(x)        (one successor, one predecessor, one cycle)
    with        c_ij = d(i, j), except c_js = 0 for the arcs back into s,
                which close the open route (it may stop after any food).

Each chosen leg i -> j expands to a shortest path of d(i, j) moves. cpknight's
``collect`` also has the simple variant (no cell twice) and Held-Karp / IDA*
beside it.

Cross-check: the optimum equals ``cpknight.collect``'s proved optimum by
Held-Karp search (15 moves for the default, the issue's example).

Run: ``python -m cpknight.models.collect_route [BOARD START FOOD...]``
(default 8x8 a1 h8 a8 h1 d4).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import Board, collect, distance_map


def main(argv: list[str] | None = None) -> int:
    """Build the terminal circuit, solve it, compare with Held-Karp."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("start", nargs="?", default="a1")
    parser.add_argument("food", nargs="*", default=["h8", "a8", "h1", "d4"])
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    names = [args.start, *dict.fromkeys(args.food)]
    cells = [board.parse_cell(name) for name in names]
    maps = [distance_map(board, cell) for cell in cells]
    d = [[maps[i][cells[j]] for j in range(len(cells))] for i in range(len(cells))]
    if any(v is None for row in d for v in row):
        print("some food cannot be reached")
        return 1

    # --- the model: a circuit over the terminals, legs cost their distance --
    model = cp_model.CpModel()
    x = {
        (i, j): model.new_bool_var(f"x[{names[i]}->{names[j]}]")
        for i in range(len(names))
        for j in range(len(names))
        if i != j
    }
    model.add_circuit([(i, j, lit) for (i, j), lit in x.items()])
    model.minimize(sum(int(d[i][j] or 0) * lit for (i, j), lit in x.items() if j))
    # -------------------------------------------------------------------------
    print(f"{len(x)} leg Booleans over {len(names)} terminals, 1 circuit")
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 30
    if solver.solve(model) != cp_model.OPTIMAL:
        print(f"no proved optimum ({solver.status_name()})")
        return 1
    succ = {i: j for (i, j), lit in x.items() if solver.value(lit)}
    order = [0]
    while succ[order[-1]] != 0:
        order.append(succ[order[-1]])
    moves = round(solver.objective_value)
    print(f"eat in the order {' '.join(names[i] for i in order)}: {moves} moves")
    search = collect(board, args.start, args.food, method="search")
    print(f"cpknight (Held-Karp): {search.moves} moves, {search.status}")
    return 0 if moves == search.moves and str(search.status) == "optimal" else 1


if __name__ == "__main__":
    raise SystemExit(main())
