"""The longest snake: an induced knight cycle (or path), a circuit with optional cells.

Problem: the longest cycle of knight moves on a board such that no knight move
joins two of its cells except consecutive ones (an *induced* cycle of the move
graph; OEIS A165143 on n x n: 8, 10, 16, 20, 22, 32 for n = 3..8).

Formulation (CP-SAT). One Boolean x_uv per move arc u -> v and one s_v per cell
(the cell is skipped, a self-loop of the circuit):

    maximise    sum x_uv
    subject to  circuit(x, s)            (the arcs that are not self-loops form
                                          one cycle; every other cell skipped)
                x_uv + x_vu <= 1         (no 2-cycle u -> v -> u)
                s_u or s_v or x_uv or x_vu   for each move {u, v}
                                         (both ends used: the move is on the
                                          cycle, never a chord)

``--path``: the longest induced path instead: a dummy node * with arcs * -> v
(the first cell) and v -> * (the last) closes the path into a circuit.

Cross-check: the optimum equals ``cpknight.longest_path``'s, proved by its
depth-first branch and bound, and the cycle passes ``check_longest``.

Run: ``python -m cpknight.models.longest_snake [BOARD] [--path]``
(default 5x5: 16 moves).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import Board, check_longest, longest_path, move_graph


def main(argv: list[str] | None = None) -> int:
    """Build the circuit with optional cells and chord clauses, solve, compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="5x5")
    parser.add_argument("--path", action="store_true", help="a path, not a cycle")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    graph = move_graph(board)
    n = graph.n_nodes
    names = graph.cell_names()
    moves = [
        (u, int(v)) for u in range(n) for v in graph.neighbors(u).tolist() if u < v
    ]

    # --- the model ------------------------------------------------------------
    model = cp_model.CpModel()
    x = {}
    for u, v in moves:
        x[u, v] = model.new_bool_var(f"x[{names[u]}->{names[v]}]")
        x[v, u] = model.new_bool_var(f"x[{names[v]}->{names[u]}]")
    skip = [model.new_bool_var(f"s[{names[v]}]") for v in range(n)]
    arcs = [(u, v, lit) for (u, v), lit in x.items()]
    arcs += [(v, v, skip[v]) for v in range(n)]
    if args.path:  # node n is the dummy node * joining the path's two ends
        arcs += [(n, v, model.new_bool_var(f"x[*->{names[v]}]")) for v in range(n)]
        arcs += [(v, n, model.new_bool_var(f"x[{names[v]}->*]")) for v in range(n)]
    model.add_circuit(arcs)
    for u, v in moves:
        model.add(x[u, v] + x[v, u] <= 1)
        model.add_bool_or([skip[u], skip[v], x[u, v], x[v, u]])
    model.maximize(sum(x.values()))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 30
    status = solver.solve(model)
    if status != cp_model.OPTIMAL:
        print(f"not solved to optimality: {solver.status_name(status)}")
        return 1

    # --- read the cycle back ---------------------------------------------------
    succ = {u: v for (u, v), lit in x.items() if solver.boolean_value(lit)}
    if args.path:
        heads = set(succ.values())
        first = next((u for u in succ if u not in heads), 0)
    else:
        first = min(succ, default=0)
    order = [first]
    while order[-1] in succ and succ[order[-1]] != first:
        order.append(succ[order[-1]])
    length = round(solver.objective_value)
    shape = "path" if args.path else "cycle"
    print(
        f"longest induced {shape} on {board.label}: {length} moves "
        f"({len(x)} arc Booleans, {len(moves)} chord clauses)"
    )
    print(" ".join(names[v] for v in order))

    # --- cross-check ------------------------------------------------------------
    check_longest(
        board, [graph.cell(v) for v in order], kind="induced", closed=not args.path
    )
    library = longest_path(board, kind="induced", closed=not args.path, method="search")
    print(f"cpknight's search: {library.moves} moves ({library.status})")
    return 0 if library.moves == length and library.optimal else 1


if __name__ == "__main__":
    raise SystemExit(main())
