"""A structured tile for huge boards, and two tiles joined into one tour.

Problem: a closed knight's tour of an h x w tile that contains four given
moves near its corners (Parberry 1997), so that neighbouring tiles can be
joined into one tour of a huge board without solving the huge board.

Formulation (CP-SAT). The closed-tour circuit over one Boolean x_uv per move
arc, plus one constraint per required move {a, b}, used in one direction:

    circuit({(u, v, x_uv)}),    x_ab + x_ba = 1  for each required move.

Joining: put two tiles side by side. Delete the move (1, w-1)-(3, w-2) of the
left tile and the move (0, 1)-(2, 0) of the right one, and add the two moves
across the border (1, w-1)-(0, w+1) and (3, w-2)-(2, w): two circuits become
one circuit of the 2w-wide board.

Cross-check: the joined tour passes cpknight's checker on the h x 2w board.

Run: ``python -m cpknight.models.tour_tile [H W]`` (default 6 6).
"""

from __future__ import annotations

import argparse

from ortools.sat.python import cp_model

from cpknight import Board, is_tour, move_graph

Cell = tuple[int, int]


def main(argv: list[str] | None = None) -> int:
    """Build a tile, join two copies, verify the joined tour."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("h", nargs="?", type=int, default=6)
    parser.add_argument("w", nargs="?", type=int, default=6)
    args = parser.parse_args(argv)
    h, w = args.h, args.w
    graph = move_graph(Board((h, w)), "knight")
    names = graph.cell_names()
    tails, heads = (a.tolist() for a in graph.arcs())
    required = [
        ((0, 1), (2, 0)),
        ((1, 0), (0, 2)),
        ((1, w - 1), (3, w - 2)),
        ((h - 2, 3), (h - 1, 1)),
    ]

    # --- the model: a closed tour with the four moves required --------------
    model = cp_model.CpModel()
    x = {
        (u, v): model.new_bool_var(f"arc[{names[u]}->{names[v]}]")
        for u, v in zip(tails, heads, strict=True)
    }
    model.add_circuit([(u, v, lit) for (u, v), lit in x.items()])
    for a, b in required:
        u, v = graph.node(a), graph.node(b)
        model.add(x[u, v] + x[v, u] == 1)
    # -------------------------------------------------------------------------
    print(f"{h}x{w} tile: {len(x)} Booleans, 1 circuit, {len(required)} required")

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = 20
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print(f"no structured {h}x{w} tile ({solver.status_name()})")
        return 1
    tile: set[frozenset[Cell]] = {
        frozenset((_cell(graph.cell(u)), _cell(graph.cell(v))))
        for (u, v), lit in x.items()
        if solver.value(lit)
    }
    # Two copies side by side, then the exchange of two moves.
    left = set(tile)
    right = {frozenset((r, c + w) for r, c in e) for e in tile}
    edges = left | right
    edges -= {frozenset({(1, w - 1), (3, w - 2)}), frozenset({(0, w + 1), (2, w)})}
    edges |= {frozenset({(1, w - 1), (0, w + 1)}), frozenset({(3, w - 2), (2, w)})}
    tour = _walk(edges)
    ok = is_tour(Board((h, 2 * w)), tour, closed=True)
    print(
        f"joined into a closed tour of {h}x{2 * w} ({len(tour)} cells); "
        f"verified by cpknight.is_tour: {ok}"
    )
    return 0 if ok else 1


def _cell(cell: tuple[int, ...]) -> Cell:
    """A 2D cell as a pair."""
    return cell[0], cell[1]


def _walk(edges: set[frozenset[Cell]]) -> list[Cell]:
    """The cycle the undirected ``edges`` form, from their smallest cell."""
    around: dict[Cell, list[Cell]] = {}
    for edge in edges:
        a, b = sorted(edge)
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    first = min(around)
    tour, previous = [first], first
    node = around[first][0]
    while node != first:
        tour.append(node)
        previous, node = node, next(n for n in around[node] if n != previous)
    return tour


if __name__ == "__main__":
    raise SystemExit(main())
