"""Fewest moves as a unit flow over the move arcs: an LP that is already integral.

Problem: the fewest moves of a leaper from s to t on a finite board (blocked
cells and all).

Formulation (linear program). One variable per move arc, 0 <= x_uv <= 1:

    minimise sum x_uv
    subject to  sum_v x_uv - sum_v x_vu = 1 at s, -1 at t, 0 elsewhere.

The constraint matrix is the node-arc incidence matrix of a directed graph:
totally unimodular, so the simplex method (GLOP) returns an integral vertex
and the LP optimum is the shortest path's length, with no integer variables.

Cross-check: the optimum equals cpknight's BFS distance.

Run: ``python -m cpknight.models.distance_flow [BOARD SOURCE TARGET]``
(default holed8 a1 h8).
"""

from __future__ import annotations

import argparse

from ortools.linear_solver.python import model_builder as mb

from cpknight import Board, knight_distance, move_graph


def main(argv: list[str] | None = None) -> int:
    """Solve the flow LP; compare with BFS."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="holed8")
    parser.add_argument("source", nargs="?", default="a1")
    parser.add_argument("target", nargs="?", default="h8")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    graph = move_graph(board, "knight")
    names = graph.cell_names()
    s = graph.node(board.parse_cell(args.source))
    t = graph.node(board.parse_cell(args.target))
    tails, heads = (a.tolist() for a in graph.arcs())

    # --- the model: a unit of flow from s to t, minimise the arcs used -------
    model = mb.Model()  # type: ignore[no-untyped-call]
    x = [
        model.new_num_var(0, 1, f"arc[{names[u]}->{names[v]}]")
        for u, v in zip(tails, heads, strict=True)
    ]
    out: list[list[mb.Variable]] = [[] for _ in names]
    into: list[list[mb.Variable]] = [[] for _ in names]
    for u, v, var in zip(tails, heads, x, strict=True):
        out[u].append(var)
        into[v].append(var)
    for v, name in enumerate(names):
        supply = 1 if v == s else -1 if v == t else 0
        model.add(sum(out[v]) - sum(into[v]) == supply, name=f"flow[{name}]")
    model.minimize(sum(x))
    # -------------------------------------------------------------------------
    print(f"{len(x)} arc variables, {len(names)} flow constraints (an LP)")
    solver = mb.Solver("glop")
    if solver.solve(model) != mb.SolveStatus.OPTIMAL:
        print("infeasible: the target cannot be reached")
        return 1
    values = [solver.value(v) for v in x]
    integral = all(abs(v - round(v)) < 1e-9 for v in values)
    length = round(solver.objective_value)
    bfs = knight_distance(board, args.source, args.target).distance
    print(f"LP optimum {length} (integral vertex: {integral}); cpknight BFS: {bfs}")
    return 0 if integral and length == bfs else 1


if __name__ == "__main__":
    raise SystemExit(main())
