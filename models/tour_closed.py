"""A closed knight's tour as one circuit constraint, and counting closed tours.

Problem: visit every open cell of a board exactly once with a leaper and return
to the first cell (a Hamiltonian circuit of the move graph G = (V, A)).

Formulation (CP-SAT). One Boolean per move arc, x_uv = 1 when the tour moves
from u to v; then

    circuit({(u, v, x_uv) : (u, v) in A})

which says: every node has exactly one chosen outgoing arc and one chosen
incoming arc (sum_v x_uv = 1 = sum_v x_vu), and the chosen arcs form a single
cycle through all |V| nodes (no subtours). On 8x8 that is 336 Booleans and
one constraint.

Counting: enumerating all solutions counts each tour twice (once per
direction). Fixing the direction at the cell c of fewest moves (a corner,
with neighbours a < b) by x_ac = 1 halves the enumeration; the directed count
is then twice the number of solutions.

Run: ``python models/tour_closed.py [BOARD] [--count]`` (default 6x6; the
count of 6x6 is 9,862 undirected closed tours, OEIS A001230).
"""

from __future__ import annotations

import argparse

from cpknight import Board, SolveOptions, count_tours, find_tour, is_tour, move_graph
from cpknight.tours.cpsat import build_tour_model


def main(argv: list[str] | None = None) -> int:
    """Print the circuit model, solve it, verify the tour; optionally count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="6x6")
    parser.add_argument("--piece", default="knight")
    parser.add_argument(
        "--count", action="store_true", help="also count every closed tour"
    )
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    graph = move_graph(board, args.piece)

    print(build_tour_model(graph, closed=True).formulation())
    print()
    tour = find_tour(
        board,
        piece=args.piece,
        closed=True,
        method="cpsat",
        options=SolveOptions(time_limit=30),
    )
    print(tour)
    ok = is_tour(board, tour.cells, piece=args.piece, closed=True)
    print(f"closed tour of {len(tour)} cells in {tour.seconds:.3f} s; verified: {ok}")
    if args.count:
        print()
        print(build_tour_model(graph, closed=True, break_symmetry=True).symmetry)
        counted = count_tours(
            board, piece=args.piece, options=SolveOptions(time_limit=60)
        )
        print(
            f"{counted.directed} directed, {counted.undirected} undirected closed "
            f"tours ({counted.status}, {counted.seconds:.2f} s)"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
