"""Knight distance as an integer program over move counts, made exact by cuts.

Problem: the fewest moves of a leaper from a source cell s to a target cell t.

Formulation (move counts). Let v_1, ..., v_k be the piece's move vectors (the
knight has 8: (+-1, +-2) and (+-2, +-1)), A the matrix with the v_j as columns,
and d = t - s. Then

    minimise    sum_j n_j
    subject to  A n = d + L w        (one row per axis)
                n in Z^k, n >= 0     (n_j: how many times move j is used)
                w in Z^W             (one wrap count per wrapped axis; L the sides)

The model says how many of each move, not in which order. On the unbounded
plane every order is a walk, so the optimum is the distance; on a torus the wrap
counts make it exact too. On a bounded board some counts cannot be ordered so
that every cell on the way is open (a1 -> b2 is 2 on the plane, 4 on 8x8). The
method orders the optimal counts by a small search over the multiset; if no
order exists, it adds the no-good cut

    OR_j (n_j <= n*_j - 1)  OR  sum_j n_j >= sum_j n*_j + 1

that removes exactly that count vector n*, and solves again, until the optimum
can be ordered: then it is the distance.

Run: ``python models/distance_moves.py [BOARD SOURCE TARGET]`` (default 8x8 a1 b2).
"""

from __future__ import annotations

import argparse

from cpknight import Board, knight_distance
from cpknight.distances.moves import build_move_count_model


def main(argv: list[str] | None = None) -> int:
    """Print the move-count model, solve it with cuts, verify against BFS."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("source", nargs="?", default="a1")
    parser.add_argument("target", nargs="?", default="b2")
    parser.add_argument("--piece", default="knight")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)

    model = build_move_count_model(board, args.source, args.target, piece=args.piece)
    print(model.formulation())
    print()

    ip = knight_distance(board, args.source, args.target, piece=args.piece, method="ip")
    details = ip.details
    print(f"first bound (the counts alone):  {details['bound']}")
    print(f"no-good cuts added:              {details['cuts']}")
    counts = ", ".join(
        f"n[{move}] = {count}" for move, count in details["counts"].items()
    )
    print(f"final move counts:               {counts}")
    print(f"ordered path ({ip.distance} moves):       {' '.join(ip.names())}")

    if board.unbounded:
        formula = knight_distance(board, args.source, args.target, method="formula")
        ok = formula.distance == ip.distance
        print(f"verified against the closed form (OEIS A065775): {ok}")
    else:
        bfs = knight_distance(board, args.source, args.target, piece=args.piece)
        ok = bfs.distance == ip.distance
        print(f"verified against BFS ({bfs.distance} moves): {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
