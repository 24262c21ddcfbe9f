"""The gap between the move-count bound and the distance on a bounded board.

Problem: from one source cell, how far is every cell, and where does the
board's edge (or a hole) make the knight go round?

Formulation. For each target t, the move-count integer program

    z(t) = min { sum_j n_j : A n = t - s, n in N^k }

(A the matrix of the move vectors) is the distance on the unbounded plane: a
lower bound on the board, because a walk on the board is also a walk on the
plane; one small CP-SAT model per target. The board distance D(t) is the BFS
distance. The gap D(t) - z(t) is even (every move changes the colour of the
cell, so both have the parity of the offset) and is non-zero only near the
edges and holes.

Cross-check: z(t) <= D(t) for every reachable target, with an even gap, and
z(t) equals cpknight's closed form on the plane.

Run: ``python -m cpknight.models.distance_gap [BOARD SOURCE]`` (default 8x8 a1).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import KNIGHT, Board, distance_map, knight_distance


def move_count_bound(offset: tuple[int, int]) -> int:
    """z(offset): the fewest moves on the plane, by the move-count model."""
    moves = KNIGHT.moves(2).tolist()
    bound = abs(offset[0]) + abs(offset[1]) + 3  # no shortest walk uses more
    # --- the model: a count per move, A n = d, minimise sum n -------------
    model = cp_model.CpModel()
    n = [model.new_int_var(0, bound, f"n[{r:+d},{c:+d}]") for r, c in moves]
    for axis in range(2):
        model.add(
            sum(v[axis] * x for v, x in zip(moves, n, strict=True)) == offset[axis]
        )
    model.minimize(sum(n))
    # -----------------------------------------------------------------------
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.solve(model) != cp_model.OPTIMAL:
        raise SystemExit(f"the move-count model has no optimum for {offset}")
    return round(solver.objective_value)


def main(argv: list[str] | None = None) -> int:
    """Solve z(t) for every target, compare with BFS, print the gap grid."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("source", nargs="?", default="a1")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    source = board.parse_cell(args.source)
    dmap = distance_map(board, source)
    rows, cols = board.shape
    gaps: dict[tuple[int, int], int] = {}
    ok = True
    for r in range(rows):
        for c in range(cols):
            target = (r, c)
            far = dmap[target] if board.is_open(target) else None
            if far is None:
                continue
            offset = (r - source[0], c - source[1])
            z = move_count_bound(offset)
            plane = knight_distance("plane", (0, 0), offset, method="formula")
            ok = ok and z <= far and (far - z) % 2 == 0 and z == plane.distance
            gaps[target] = far - z
    print(
        f"D(t) - z(t) from {board.cell_name(source)} on {board.label} "
        "(BFS distance minus the plane's move-count bound; . is 0):"
    )
    for r in reversed(range(rows)):
        line = " ".join(
            "#" if (r, c) not in gaps else "." if not gaps[r, c] else str(gaps[r, c])
            for c in range(cols)
        )
        print(f"{r + 1:>2} | {line}")
    print(
        f"{sum(1 for g in gaps.values() if g)} of {len(gaps)} cells have a gap; "
        f"z <= D with even gaps and z = the plane's closed form: {ok}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
