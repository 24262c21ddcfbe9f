"""Tours by search: naive backtracking against Warnsdorff's rule and pruning.

Problem: a Hamiltonian path (open tour) or circuit (closed tour) of the move
graph G = (V, E) of a leaper on a board, found by depth-first search instead
of a declarative model.

The search. A state is a path p = (v_1, ..., v_k) of distinct cells; its
children are the paths (v_1, ..., v_k, w) for each unvisited neighbour w of
v_k. The search succeeds at k = |V| (for a closed tour, when v_k is also a
neighbour of v_1) and *backtracks* (undoes v_k) when no child is left. Effort:
attempts = moves made, backtracks = moves undone; on success
attempts - backtracks = |V| - 1.

- backtrack: children in the piece's fixed move order. Complete, exponential.
- warnsdorff: children by increasing onward degree
  deg_k(w) = |{u in N(w) : u unvisited}| (Warnsdorff 1823), ties to the cell
  farthest from the centre (Roth). Same tree, better order.
- prune: cut the state when some unvisited cell w has a(w) = 0, or more cells
  have a(w) = 1 than the tour can end on, where a(w) counts the neighbours of
  w that are unvisited or the head v_k (plus v_1 for a closed tour, which must
  also keep a free neighbour to come home from). A cell with a(w) = 1 can only
  be the last cell of the path.
- greedy: warnsdorff without backtracking: one pass; failing proves nothing.

Run: ``python models/tour_search.py [BOARD START]`` (default 6x6 a1, open
tours; ``--closed`` for closed tours).
"""

from __future__ import annotations

import argparse

from cpknight import Board, SolveOptions, check_tour, iter_tours, try_tour
from cpknight.render import table_text


def main(argv: list[str] | None = None) -> int:
    """Run each search engine on one instance, verify, and count small cases."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="6x6")
    parser.add_argument("start", nargs="?", default="a1")
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--time-limit", type=float, default=3.0)
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    kind = "closed" if args.closed else "open"

    print(__doc__.split("The search. ")[1].split("Run:")[0].rstrip())
    print()
    print(f"{kind} tour of {board.label} from {args.start}:")
    rows: list[list[object]] = []
    ok = True
    for method in ("backtrack", "warnsdorff", "prune", "greedy"):
        o = try_tour(
            board,
            closed=args.closed,
            start=args.start,
            method=method,
            options=SolveOptions(time_limit=args.time_limit),
        )
        effort = o.effort.as_dict()
        if o.tour is not None:
            check_tour(board, o.tour.cells, closed=args.closed, start=args.start)
            moves = effort.get("attempts", 0) - effort.get("backtracks", 0)
            ok = ok and moves == len(o.tour) - 1
        rows.append(
            [
                method,
                o.status,
                o.seconds,
                effort.get("attempts"),
                effort.get("backtracks"),
            ]
        )
    print(table_text(["method", "outcome", "seconds", "attempts", "backtracks"], rows))
    print()

    # Enumeration: the same tree searched to the end gives the same count
    # whatever the order; pruning only removes branches with no tour.
    counts = {
        m: sum(1 for _ in iter_tours("3x4", closed=False, method=m))
        for m in ("backtrack", "warnsdorff", "prune")
    }
    print(f"directed open tours of 3x4, counted by each search: {counts}")
    corner = sum(1 for _ in iter_tours("5x5", closed=False, start="a1"))
    print(f"directed open tours of 5x5 from a1 (prune): {corner} (Jelliss: 304)")
    ok = ok and len(set(counts.values())) == 1 and corner == 304
    print(f"verified (checker, effort balance, counts): {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
