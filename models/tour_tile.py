"""One structured tile: a knight's tour that must contain given moves.

Problem: a tour of an h x w tile (a circuit, or a path on odd x odd tiles)
that uses four fixed moves near its corners, so that tiles laid side by side
can be joined into one tour of a huge board (Parberry 1997).

Formulation (CP-SAT). Let G = (V, A) be the knight's move graph of the tile and
x_uv in {0, 1} say that the tour goes u -> v. Then

    add_circuit({(u, v, x_uv)})                     one Hamiltonian circuit
    x_ab + x_ba = 1     for each required move {a, b}

(an open tile adds a dummy node d with arcs d -> u and u -> d for every u: the
circuit through d is a Hamiltonian path). The required moves are constraints
CP-SAT takes for free: a fixed arc literal.

The join. Tiles A (left) and B (right) hold the moves a1-a2 = (1,w-1)-(3,w-2)
and b1-b2 = (0,1)-(2,0). Delete both and add a1-b1 and a2-b2 (knight moves
across the border): two circuits become one. The script builds a tile, checks
it, and runs the tiles engine on the h x 2w board (two tiles, one join).

Run: ``python models/tour_tile.py [H W]`` (default 6 8).
"""

from __future__ import annotations

import argparse

from cpknight import Board, is_tour
from cpknight.tours.tile_build import build_tile, structure_moves, tile_formulation
from cpknight.tours.tiles import tile_tour


def main(argv: list[str] | None = None) -> int:
    """Print the tile model, build the tile, verify it and one join."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("h", nargs="?", type=int, default=6)
    parser.add_argument("w", nargs="?", type=int, default=8)
    args = parser.parse_args(argv)
    h, w = args.h, args.w
    closed = h * w % 2 == 0

    print(tile_formulation(h, w, closed=closed))
    print()
    tile = build_tile(h, w, closed=closed)
    print(f"the tile ({'circuit' if closed else 'path'}), visit order:")
    order = {cell: i + 1 for i, cell in enumerate(tile)}
    for r in reversed(range(h)):
        print(" ".join(f"{order[r, c]:3d}" for c in range(w)))
    print()

    ok = is_tour(Board((h, w)), tile, closed=closed)
    for a, b in structure_moves(h, w):
        gap = abs(tile.index(a) - tile.index(b))
        used = gap == 1 or (closed and gap == h * w - 1)
        print(f"required move {a} - {b}: {'used' if used else 'MISSING'}")
        ok = ok and used
    print(f"verified: {'a closed' if closed else 'an open'} tour of {h}x{w}: {ok}")

    joined = tile_tour(Board((h, 2 * w)), closed=closed)
    board = joined.board
    good = is_tour(board, joined.array, closed=closed)
    print(
        f"tiles engine on {board.label}: a checked tour of {len(joined)} cells: {good}"
    )
    return 0 if ok and good else 1


if __name__ == "__main__":
    raise SystemExit(main())
