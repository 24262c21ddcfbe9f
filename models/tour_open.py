"""An open knight's tour without a dummy node: return arcs into the start.

Problem: visit every open cell of a board exactly once with a leaper, starting
on a given cell s (a Hamiltonian path of the move graph G = (V, A) from s).

Formulation (CP-SAT). A path from s becomes a circuit if the last cell returns
to s. Drop the move arcs into s and add a *return arc* r_vs from every other
cell v (whether or not v -> s is a move); with x_uv the move arcs,

    circuit({(u, v, x_uv) : (u, v) in A, v != s}  u  {(v, s, r_vs) : v != s})

The one return arc chosen marks the last cell. No extra node: the model has
|V| nodes like the closed one, and |A| - deg(s) + |V| - 1 Booleans (8x8 from
a1: 334 + 63). The textbook form adds a dummy node joined to every cell
(2|V| more arcs and no fixed start); cpknight uses it, restricted by colour,
only when no end is fixed. With both ends fixed, one closing arc e -> s does.

Run: ``python models/tour_open.py [BOARD] [START]`` (default 8x8 a1).
"""

from __future__ import annotations

import argparse

from cpknight import Board, SolveOptions, find_tour, is_tour, move_graph
from cpknight.tours.cpsat import build_tour_model


def main(argv: list[str] | None = None) -> int:
    """Print the return-arc model, solve it, verify the tour."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("start", nargs="?", default="a1")
    parser.add_argument("--piece", default="knight")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    start = board.parse_cell(args.start)
    graph = move_graph(board, args.piece)

    print(build_tour_model(graph, closed=False, start=start).formulation())
    print()
    tour = find_tour(
        board,
        piece=args.piece,
        closed=False,
        start=start,
        method="cpsat",
        options=SolveOptions(time_limit=30),
    )
    print(tour)
    ok = is_tour(board, tour.cells, piece=args.piece, start=start)
    print(
        f"open tour of {len(tour)} cells from {board.cell_name(start)} to "
        f"{board.cell_name(tour.end)} in {tour.seconds:.3f} s; verified: {ok}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
