"""Fewest moves as an integer program over move counts (and why it is a bound).

Problem: the fewest moves of a leaper from a source cell to a target cell.

Formulation (integer program). Let v_1 .. v_k be the piece's move vectors (the
columns of A; for the knight A = [[2,2,1,1,-1,-1,-2,-2],[1,-1,2,-2,2,-2,1,-1]]
in row, col order) and d = target - source. Choose how many times to use each
move, n in N^k:

    minimise sum_j n_j   subject to   A n = d.

It says how many times each move is used, not in which order: on the unbounded
plane every order works, so it is exact there; on a bounded board the moves
may not be orderable without leaving the board (a1 to b2 is 2 on the plane, 4
on 8x8), so there it is a lower bound. cpknight's ``ip`` method orders the
counts on the board and adds no-good cuts until an order exists.

Cross-check: on the plane the optimum equals cpknight's closed form; on the
board it is at most cpknight's BFS distance.

Run: ``python -m cpknight.models.distance_moves [BOARD SOURCE TARGET]``
(default 8x8 a1 b2).
"""

from __future__ import annotations

import argparse

from ortools.linear_solver.python import model_builder as mb

from cpknight import KNIGHT, Board, knight_distance


def move_counts(offset: tuple[int, int]) -> tuple[int, dict[str, int]]:
    """The move-count optimum for ``offset`` (row, col) and the counts used."""
    moves = KNIGHT.moves(2).tolist()
    # --- the model: an integer count per move, A n = d, minimise sum n ------
    model = mb.Model()  # type: ignore[no-untyped-call]
    n = [model.new_int_var(0, 100_000, f"n[{r:+d},{c:+d}]") for r, c in moves]
    for axis in range(2):
        model.add(
            sum(v[axis] * x for v, x in zip(moves, n, strict=True)) == offset[axis]
        )
    model.minimize(sum(n))
    # -------------------------------------------------------------------------
    solver = mb.Solver("scip")
    if solver.solve(model) != mb.SolveStatus.OPTIMAL:
        raise SystemExit("the move-count model has no optimum")
    counts = {x.name: round(solver.value(x)) for x in n if round(solver.value(x))}
    return round(solver.objective_value), counts


def main(argv: list[str] | None = None) -> int:
    """Solve the move-count model; compare it with the plane and the board."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("source", nargs="?", default="a1")
    parser.add_argument("target", nargs="?", default="b2")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    s, t = board.parse_cell(args.source), board.parse_cell(args.target)
    offset = (t[0] - s[0], t[1] - s[1])
    bound, counts = move_counts(offset)
    print(f"minimise sum n s.t. A n = d = {offset}: optimum {bound}, counts {counts}")
    plane = knight_distance("plane", (0, 0), offset, method="formula").distance
    on_board = knight_distance(board, s, t, method="bfs").distance
    print(
        f"cpknight: {plane} on the plane (closed form), {on_board} on "
        f"{board.label} (BFS)"
    )
    ok = bound == plane and bound <= on_board
    if bound < on_board:
        print(f"the counts cannot be ordered on {board.label}: a lower bound only")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
