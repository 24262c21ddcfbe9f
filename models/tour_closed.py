"""A closed knight's tour as one circuit constraint, and counting closed tours.

Problem: visit every open cell of a board exactly once with a leaper and return
to the first cell (a Hamiltonian circuit of the move graph G = (V, A)).

Formulation (CP-SAT). One Boolean per move arc, x_uv = 1 when the tour moves
from u to v; then

    circuit({(u, v, x_uv) : (u, v) in A})

says: every node has exactly one chosen outgoing arc and one chosen incoming
arc (sum_v x_uv = 1 = sum_v x_vu), and the chosen arcs form a single cycle
through all |V| nodes (no subtours). On 8x8 that is 336 Booleans and one
constraint.

Counting (--count): enumerating every solution counts each tour twice, once per
direction. Fixing the direction at a corner c with neighbours a < b by
x_ac = 1 halves the enumeration; the directed count is twice the solutions.

Cross-check: the tour passes cpknight's checker, and with --count the number
equals ``cpknight.count_tours`` (9,862 undirected on 6x6, OEIS A001230).

Run: ``python -m cpknight.models.tour_closed [BOARD] [--count]`` (default 6x6).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import Board, SolveOptions, count_tours, is_tour, move_graph


def main(argv: list[str] | None = None) -> int:
    """Build the circuit model, solve it, verify the tour; optionally count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="6x6")
    parser.add_argument("--count", action="store_true", help="count every tour")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    graph = move_graph(board, "knight")
    names = graph.cell_names()
    tails, heads = (a.tolist() for a in graph.arcs())

    # --- the model: one Boolean per move arc, one circuit over them ---------
    model = cp_model.CpModel()
    x = {
        (u, v): model.new_bool_var(f"arc[{names[u]}->{names[v]}]")
        for u, v in zip(tails, heads, strict=True)
    }
    model.add_circuit([(u, v, lit) for (u, v), lit in x.items()])
    # -------------------------------------------------------------------------
    print(f"closed tour of {board.label}: {len(x)} Booleans, 1 circuit constraint")

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 30
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print(f"no closed tour ({solver.status_name()})")
        return 1
    succ = {u: v for (u, v), lit in x.items() if solver.value(lit)}
    order = [0]
    while len(order) < graph.n_nodes:
        order.append(succ[order[-1]])
    tour = [names[v] for v in order]
    print(" ".join(tour))
    ok = is_tour(board, tour, closed=True)
    print(f"verified by cpknight.is_tour: {ok}")
    if args.count:
        corner = min(range(graph.n_nodes), key=lambda v: len(graph.neighbors(v)))
        a = int(min(graph.neighbors(corner)))
        model.add(x[a, corner] == 1)  # one direction of each circuit
        counter = _Counter()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.max_time_in_seconds = 120
        solver.solve(model, counter)
        library = count_tours(board, options=SolveOptions(time_limit=120))
        print(
            f"{counter.count} undirected closed tours; cpknight: "
            f"{library.undirected} ({library.status})"
        )
        ok = ok and counter.count == library.undirected
    return 0 if ok else 1


class _Counter(cp_model.CpSolverSolutionCallback):
    """Counts the solutions CP-SAT enumerates."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        """One more solution."""
        self.count += 1


if __name__ == "__main__":
    raise SystemExit(main())
