"""Knight distance as a shortest path: one unit of flow over the move arcs.

Problem: the fewest moves of a leaper from a source cell s to a target cell t
on a finite board (any shape, blocked cells, torus or cylinder).

Formulation (arc flow). Let G = (V, E) be the move graph (V the open cells, one
arc u -> v per move that lands on an open cell). With f_uv = 1 when the path
uses the arc u -> v:

    minimise    sum_(u,v) f_uv
    subject to  sum_v f_uv - sum_v f_vu = [u = s] - [u = t]    for every u in V
                f_uv in {0, 1}

The constraint matrix is the node-arc incidence matrix of G, a network matrix,
which is totally unimodular: every vertex of the LP relaxation (0 <= f <= 1) is
integral. So the LP alone gives the distance, and this script solves it both
ways, as an integer program (CP-SAT) and as a plain LP (GLOP), and checks that
the LP's optimum is integral.

Run: ``python models/distance_flow.py [BOARD SOURCE TARGET]`` (default holed8 a1 h8).
"""

from __future__ import annotations

import argparse

from cpknight import Board, SolveOptions, knight_distance
from cpknight.distances.flow import build_flow_model, solve_flow


def main(argv: list[str] | None = None) -> int:
    """Print the flow model, solve it as IP and LP, verify against BFS."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="holed8")
    parser.add_argument("source", nargs="?", default="a1")
    parser.add_argument("target", nargs="?", default="h8")
    parser.add_argument("--piece", default="knight")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    source, target = board.parse_cell(args.source), board.parse_cell(args.target)

    print(build_flow_model(board, source, target, piece=args.piece).formulation())
    print()

    piece = knight_distance(board, source, source, piece=args.piece).piece
    options = SolveOptions(time_limit=30)
    ip = solve_flow(board, piece, source, target, run=options.start(), backend="cpsat")
    lp = solve_flow(board, piece, source, target, run=options.start(), backend="glop")
    print(f"integer program (CP-SAT): {ip.distance} moves: {' '.join(ip.names())}")
    print(f"LP relaxation (GLOP):     {lp.distance} moves (an integral vertex)")

    bfs = knight_distance(board, source, target, piece=piece)
    ok = ip.distance == lp.distance == bfs.distance
    print(f"verified against BFS ({bfs.distance} moves): {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
