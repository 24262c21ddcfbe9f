"""The gap between the move-count bound and the distance on a bounded board.

Problem: from one source cell, how far is every cell, and where does the board's
edge (or a hole) make the knight go round?

Formulation. For each target t, the move-count integer program

    z(t) = min { sum_j n_j : A n = t - s, n in Z^k, n >= 0 }

(A the matrix of the move vectors) is the distance on the unbounded plane: a
lower bound on the board, because a walk on the board is also a walk on the
plane. The board distance D(t) is what the ``ip`` method returns after its
no-good cuts (and what BFS returns). The gap D(t) - z(t) is even (every move
changes the colour of the cell, so both have the parity of the offset) and is
non-zero only near the edges and holes: the cells where some shortest plane
walk would leave the board.

Run: ``python models/distance_gap.py [BOARD SOURCE]`` (default 8x8 a1).
"""

from __future__ import annotations

import argparse
from collections import Counter

from cpknight import Board, distance_map, knight_distance
from cpknight.board import Cell
from cpknight.errors import NoPathError
from cpknight.render import grid_text


def main(argv: list[str] | None = None) -> int:
    """Print the bound, the distance and their gap for every cell, verified."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("source", nargs="?", default="a1")
    parser.add_argument("--piece", default="knight")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    source = board.parse_cell(args.source)
    bfs = distance_map(board, source, piece=args.piece)

    print(__doc__.split("Formulation. ")[1].split("Run:")[0].rstrip())
    print()
    bound: dict[Cell, int] = {}
    exact: dict[Cell, int] = {}
    cuts = 0
    agree = True
    for cell in board.open_cells():
        try:
            d = knight_distance(board, source, cell, piece=args.piece, method="ip")
        except NoPathError:
            agree = agree and bfs[cell] is None
            continue
        bound[cell] = d.details["bound"]
        exact[cell] = d.distance
        cuts += d.details["cuts"]
        agree = agree and bfs[cell] == d.distance

    def show(values: dict[Cell, int]) -> None:
        def label(cell: Cell) -> str:
            if not board.is_open(cell):
                return "#"
            return str(values[cell]) if cell in values else "-"

        print(grid_text(board, label))

    print(f"first bound z(t) (the plane) from {board.cell_name(source)}:")
    show(bound)
    print(f"\ndistance D(t) on {board.label} (ip with cuts):")
    show(exact)
    gap = {cell: exact[cell] - bound[cell] for cell in exact}
    print("\ngap D(t) - z(t):")
    show(gap)
    tally = Counter(gap.values())
    print(
        "\ncells by gap: "
        + ", ".join(f"{g}: {tally[g]}" for g in sorted(tally))
        + f"; no-good cuts in all: {cuts}"
    )
    colour = sum(bfs.piece.vector) % 2 == 1  # each move changes the colour
    even = all(g >= 0 and (g % 2 == 0 or not colour) for g in gap.values())
    print(f"every gap >= 0{' and even' if colour else ''}: {even}")
    print(f"verified: ip distance == BFS distance on every cell: {agree}")
    return 0 if agree and even else 1


if __name__ == "__main__":
    raise SystemExit(main())
