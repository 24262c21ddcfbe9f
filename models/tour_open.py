"""An open knight's tour from a fixed start, without a dummy node: return arcs.

Problem: visit every open cell of a board exactly once with a leaper, starting
on a given cell s (a Hamiltonian path of the move graph G = (V, A) from s).

Formulation (CP-SAT). A path from s becomes a circuit if the last cell returns
to s. Drop the move arcs into s and add a *return arc* r_v from every other
cell v to s (whether or not v -> s is a move); with x_uv the move arcs,

    circuit({(u, v, x_uv) : (u, v) in A, v != s}  u  {(v, s, r_v) : v != s})

The one return arc chosen marks the last cell. No extra node: |V| nodes, and
|A| - deg(s) + |V| - 1 Booleans (8x8 from a1: 334 + 63).

Cross-check: the path passes cpknight's checker from s.

Run: ``python -m cpknight.models.tour_open [BOARD] [START]`` (default 8x8 a1).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import Board, is_tour, move_graph


def main(argv: list[str] | None = None) -> int:
    """Build the return-arc model, solve it, verify the path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("start", nargs="?", default="a1")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    graph = move_graph(board, "knight")
    names = graph.cell_names()
    s = graph.node(board.parse_cell(args.start))
    tails, heads = (a.tolist() for a in graph.arcs())

    # --- the model: move arcs not into s, a return arc from every other cell -
    model = cp_model.CpModel()
    x = {
        (u, v): model.new_bool_var(f"arc[{names[u]}->{names[v]}]")
        for u, v in zip(tails, heads, strict=True)
        if v != s
    }
    r = {
        v: model.new_bool_var(f"return[{names[v]}]")
        for v in range(graph.n_nodes)
        if v != s
    }
    model.add_circuit(
        [(u, v, lit) for (u, v), lit in x.items()]
        + [(v, s, lit) for v, lit in r.items()]
    )
    # -------------------------------------------------------------------------
    print(
        f"open tour of {board.label} from {names[s]}: {len(x)} move arcs, "
        f"{len(r)} return arcs"
    )

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 30
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print(f"no open tour from {names[s]} ({solver.status_name()})")
        return 1
    succ = {u: v for (u, v), lit in x.items() if solver.value(lit)}
    order = [s]
    while order[-1] in succ:
        order.append(succ[order[-1]])
    last = next(v for v, lit in r.items() if solver.value(lit))
    tour = [names[v] for v in order]
    print(" ".join(tour))
    ok = is_tour(board, tour, start=names[s], closed=False) and order[-1] == last
    print(f"ends on {names[last]}; verified by cpknight.is_tour: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
