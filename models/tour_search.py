"""A tour by search: depth-first backtracking in Warnsdorff's order.

Problem: a Hamiltonian path (open tour) of the move graph G = (V, E) of the
knight from a start cell, found by search instead of a declarative model.

The search. A state is a path p = (v_1, ..., v_k) of distinct cells; its
children are the paths (v_1, ..., v_k, w) for each unvisited neighbour w of
v_k, tried by increasing onward degree |{u in N(w) : u unvisited}|
(Warnsdorff 1823). The search succeeds at k = |V| and *backtracks* (undoes
v_k) when no child is left. Effort: attempts = moves made, backtracks = moves
undone; on success attempts - backtracks = |V| - 1. Rewriting this for a side
constraint (a cell at a given step, a forbidden move) means rewriting the
search; the CP-SAT model grows by a line.

Cross-check: the path passes cpknight's checker; on small boards the number of
paths the search enumerates equals ``cpknight.iter_tours``'s.

Run: ``python -m cpknight.models.tour_search [BOARD START]`` (default 6x6 a1).
"""

from __future__ import annotations

import argparse
import sys

from cpknight import Board, is_tour, iter_tours, move_graph


def main(argv: list[str] | None = None) -> int:
    """Search for an open tour, verify it, and count small boards' paths."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="6x6")
    parser.add_argument("start", nargs="?", default="a1")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)
    graph = move_graph(board, "knight")
    nbrs = [graph.neighbors(v).tolist() for v in range(graph.n_nodes)]
    names = graph.cell_names()
    start = graph.node(board.parse_cell(args.start))

    path, effort = _first_path(nbrs, start)
    if path is None:
        print(f"no open tour from {names[start]} ({effort[0]} attempts)")
        return 1
    tour = [names[v] for v in path]
    print(" ".join(tour))
    ok = is_tour(board, tour, start=names[start], closed=False)
    attempts, backtracks = effort
    print(f"{attempts} attempts, {backtracks} backtracks; verified: {ok}")
    small = Board.parse("5x5")
    small_graph = move_graph(small, "knight")
    small_nbrs = [small_graph.neighbors(v).tolist() for v in range(25)]
    mine = _count_paths(small_nbrs, 0)
    theirs = sum(1 for _ in iter_tours(small, closed=False, start="a1"))
    print(f"open tours of 5x5 from a1: {mine} by this search, {theirs} by cpknight")
    return 0 if ok and mine == theirs else 1


def _first_path(
    nbrs: list[list[int]], start: int
) -> tuple[list[int] | None, tuple[int, int]]:
    """The first path through every node from ``start``, and the effort."""
    n = len(nbrs)
    seen = [False] * n
    seen[start] = True
    path = [start]
    effort = [0, 0]

    def onward(w: int) -> int:
        return sum(not seen[u] for u in nbrs[w])

    def extend() -> bool:
        if len(path) == n:
            return True
        for w in sorted((w for w in nbrs[path[-1]] if not seen[w]), key=onward):
            seen[w] = True
            path.append(w)
            effort[0] += 1
            if extend():
                return True
            seen[w] = False
            path.pop()
            effort[1] += 1
        return False

    sys.setrecursionlimit(max(1000, 4 * n))
    found = extend()
    return (path if found else None), (effort[0], effort[1])


def _count_paths(nbrs: list[list[int]], start: int) -> int:
    """Every path through all nodes from ``start`` (plain exhaustive search)."""
    n = len(nbrs)
    seen = [False] * n
    seen[start] = True

    def count(head: int, depth: int) -> int:
        if depth == n:
            return 1
        total = 0
        for w in nbrs[head]:
            if not seen[w]:
                seen[w] = True
                total += count(w, depth + 1)
                seen[w] = False
        return total

    return count(start, 1)


if __name__ == "__main__":
    raise SystemExit(main())
