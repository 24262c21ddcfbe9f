"""Guarini's knights: a swap as a time-indexed plan, the horizon grown until feasible.

Problem: two white knights (a1, c1) and two black knights (a3, c3) of a 3x3
board change places, one knight a move onto an empty cell, in the fewest moves
(Guarini di Forli, 1512: 16 moves). Knights of one colour are interchangeable.

Formulation (CP-SAT), for a horizon of T moves. Booleans at[c,v,t] (a knight
of colour c on cell v after t moves) and move[c,u->v,t] (move t takes a knight
of colour c from u to v):

    sum_{c, u->v} move[c,u->v,t] = 1                     one move a step
    at[c,v,t] = at[c,v,t-1] + sum_u move[c,u->v,t]
                            - sum_w move[c,v->w,t]       flow of each colour
    sum_c at[c,v,t] <= 1                                 one knight a cell
    at[.,.,0] = the start, at[.,.,T] = the goal

The knight's move graph on a bounded board is bipartite: every move changes by
one the number of knights on light squares, so T has a fixed parity. Try T =
2, 4, 6, ...: the first feasible horizon is the fewest moves, since every
shorter one was proved infeasible. (cpknight's own model, ``cpknight
formulation swap``, adds distance pruning and cuts, and keeps one order of
two commuting moves; this one is the bare plan.)

Cross-check: the fewest moves equal ``cpknight.solve_swap``'s, proved by
breadth-first search over placements, and the plan passes ``check_swap``.

Run: ``python -m cpknight.models.swap_plan [PUZZLE]`` (default guarini: 16
moves; any puzzle ``cpknight swap`` reads).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import check_swap, solve_swap
from cpknight.api.swaps import swap_instance


def main(argv: list[str] | None = None) -> int:
    """Grow the horizon until the plan is feasible, then compare with BFS."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", default="guarini")
    parser.add_argument("--most", type=int, default=40, help="the longest horizon")
    args = parser.parse_args(argv)
    instance = swap_instance(args.puzzle)
    graph = instance.graph
    names = graph.cell_names()
    n = graph.n_nodes
    colours = instance.colours
    start = [set(nodes) for nodes in instance.nodes(instance.start)]
    goal = [set(nodes) for nodes in instance.nodes(instance.goal)]
    arcs = [(u, int(v)) for u in range(n) for v in graph.neighbors(u).tolist()]

    # The parity of the plan: on a bipartite move graph, that of the change in
    # the number of knights on one side; else any horizon (step 1).
    side = [-1] * n
    bipartite = True
    for root in range(n):
        if side[root] < 0:
            side[root], todo = 0, [root]
            while todo:
                u = todo.pop()
                for w in graph.neighbors(u).tolist():
                    if side[w] < 0:
                        side[w] = 1 - side[u]
                        todo.append(w)
                    bipartite = bipartite and side[w] != side[u]
    change = sum(side[v] for g in goal for v in g) - sum(
        side[v] for g in start for v in g
    )
    first, step = (2 - change % 2, 2) if bipartite else (1, 1)

    for horizon in range(first, args.most + 1, step):
        # --- the model at this horizon ----------------------------------------
        model = cp_model.CpModel()
        at = {}
        for c, colour in enumerate(colours):
            for v in range(n):
                for t in range(horizon + 1):
                    at[c, v, t] = model.new_bool_var(f"at[{colour},{names[v]},{t}]")
                model.add(at[c, v, 0] == int(v in start[c]))
                model.add(at[c, v, horizon] == int(v in goal[c]))
        move = {
            (c, u, v, t): model.new_bool_var(
                f"move[{colour},{names[u]}->{names[v]},{t}]"
            )
            for c, colour in enumerate(colours)
            for u, v in arcs
            for t in range(1, horizon + 1)
        }
        for t in range(1, horizon + 1):
            model.add_exactly_one(
                move[c, u, v, t] for c in range(len(colours)) for u, v in arcs
            )
            for c in range(len(colours)):
                for v in range(n):
                    into = [move[c, u, w, t] for u, w in arcs if w == v]
                    out = [move[c, u, w, t] for u, w in arcs if u == v]
                    model.add(at[c, v, t] == at[c, v, t - 1] + sum(into) - sum(out))
            for v in range(n):
                model.add(sum(at[c, v, t] for c in range(len(colours))) <= 1)

        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        solver.parameters.max_time_in_seconds = 60
        solver.parameters.linearization_level = 0  # its LP bound is weak here
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            continue
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            print(f"horizon {horizon}: {solver.status_name(status)}")
            return 1

        # --- read the plan back -----------------------------------------------
        steps = [
            (graph.cell(u), graph.cell(v))
            for t in range(1, horizon + 1)
            for (c, u, v, s), x in move.items()
            if s == t and solver.boolean_value(x)
        ]
        print(
            f"{args.puzzle}: {horizon} moves, every shorter horizon infeasible "
            f"({len(at)} position and {len(move)} move Booleans at {horizon})"
        )
        print(
            " ".join(f"{names[graph.node(a)]}-{names[graph.node(b)]}" for a, b in steps)
        )

        # --- cross-check ------------------------------------------------------
        check_swap(instance.board, instance.start, instance.goal, steps)
        library = solve_swap(args.puzzle, method="bfs")
        print(f"cpknight's breadth-first search: {library.moves} moves")
        return 0 if library.moves == horizon else 1
    print(f"no plan of at most {args.most} moves")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
