"""The snake's meal: the shortest knight route through required cells.

Problem: a leaper starts on a cell s and must visit every food cell f_1..f_k
(ending on a cell e if one is given) in as few moves as possible. As a *walk*
cells may be used again; as a *simple* route (the snake that must not cross its
own body) no cell is used twice.

Walk: a travelling-salesman circuit over the terminals. Let T = {s, f_1..f_k}
(plus e), d(i, j) the BFS distance on the move graph, and x_ij = 1 when the
route goes from terminal i straight to terminal j:

    minimise    sum_(i != j) c_ij x_ij
    subject to  AddCircuit(x)    (one successor and one predecessor each,
                                  one cycle through all of T)
    with        c_ij = d(i, j), except c_js = 0 for the arcs back into s,
                which close the open route (with an end, only e -> s exists)

and each chosen leg i -> j expands to a BFS shortest path of d(i, j) moves.
Exact by search: Held and Karp's dynamic program over (food eaten, last food),

    D(S, j) = min_(i in S - j) D(S - j, i) + d(i, j),    D({j}, j) = d(s, j).

Simple: a circuit over every cell v of the start's component, a literal y_uv
per move arc, a self-loop literal z_v for each cell that may be left out, and a
dummy node * with * -> s forced and v -> * for the cells the route may stop on:

    minimise    sum_(u,v) y_uv
    subject to  AddCircuit(y, z, dummy arcs)
                z_v absent for s and the food (they must lie on the cycle)

Exact by search: IDA* whose bound is the Held-Karp walk from the head of the
partial route, its first leg measured by BFS through the unused cells.

Run: ``python models/collect_route.py [BOARD START FOOD...]`` (default the
issue's 8x8 a1 h8 a8 h1 d4; ``--simple``, ``--end CELL``).
"""

from __future__ import annotations

import argparse

from cpknight import Board, SolveOptions, check_route, collect
from cpknight.routes.cpsat import build_collect_model


def main(argv: list[str] | None = None) -> int:
    """Print the model, solve it by CP-SAT and by search, verify both routes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", default="8x8")
    parser.add_argument("start", nargs="?", default="a1")
    parser.add_argument("food", nargs="*", default=["h8", "a8", "h1", "d4"])
    parser.add_argument("--end", default=None)
    parser.add_argument("--simple", action="store_true")
    parser.add_argument("--piece", default="knight")
    args = parser.parse_args(argv)
    board = Board.parse(args.board)

    model = build_collect_model(
        board, args.start, args.food, end=args.end, piece=args.piece, simple=args.simple
    )
    print(model.formulation())
    print()

    options = SolveOptions(time_limit=30, workers=1, seed=0)
    routes = {}
    for method in ("cpsat", "search", "greedy"):
        route = collect(
            board,
            args.start,
            args.food,
            end=args.end,
            piece=args.piece,
            simple=args.simple,
            method=method,
            options=options,
        )
        routes[method] = route
        proved = "proved optimal" if route.optimal else f"at least {route.bound}"
        print(
            f"{method:7s} {route.moves:3d} moves ({proved}): {' '.join(route.names())}"
        )
    print()
    print(routes["cpsat"])
    print()

    ok = True
    for route in routes.values():
        # the one route checker: legal moves, every food cell, start and end
        check_route(
            board,
            route.cells,
            start=args.start,
            food=args.food,
            end=args.end,
            piece=args.piece,
            simple=args.simple,
        )
        ok = ok and route.moves >= routes["cpsat"].moves
    cp, dp = routes["cpsat"], routes["search"]
    ok = ok and cp.optimal and dp.optimal and cp.moves == dp.moves
    print(
        f"verified: every route passes check_route; CP-SAT and search agree on "
        f"{cp.moves} moves and greedy is no shorter: {ok}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
