"""The collect subcommand: the shortest route through the food."""

from __future__ import annotations

import argparse

from cpknight.cli.common import (
    EXIT_CODES,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    SubParsers,
    add_command,
    add_grid,
    add_json,
    add_pictures,
    add_solve_args,
    board_and_piece,
    grid_fits,
    new_files,
    note,
    out,
    print_json,
    print_outcome,
    solve_options_of,
    write_files,
    wrote,
)
from cpknight.cli.instances import add_collect_args
from cpknight.render import outcome_line, route_line
from cpknight.status import Status

# ------------------------------------------------------------------ collect


def add_collect(sub: SubParsers) -> None:
    """Register ``cpknight collect``."""
    parser = add_command(
        sub,
        "collect",
        _run_collect,
        help="the shortest route from a cell through required cells (the food)",
        description="The snake's meal: the fewest moves from START that visit\n"
        "every FOOD cell (and end on --end). Prints the route, its length and\n"
        "whether it is proved optimal; on the grid, the move at which each cell\n"
        "is first reached (0 the start, * food).",
        epilog=EXIT_CODES.replace(
            "0  answered", "0  answered (a proved-optimal or best-found route)"
        ),
    )
    add_collect_args(parser)
    parser.add_argument(
        "--method",
        default="cpsat",
        choices=["cpsat", "search", "greedy"],
        help="cpsat (circuit model, default), search (Held-Karp for walks, "
        "IDA* for simple routes) or greedy (nearest food next)",
    )
    add_solve_args(parser)
    add_json(parser)
    add_grid(parser)
    add_pictures(parser, "route")


def _run_collect(args: argparse.Namespace) -> int:
    from cpknight.api import try_collect

    board, piece = board_and_piece(args)
    outputs = new_files(args, "svg", "animate")
    outcome = try_collect(
        board,
        args.start,
        args.food,
        end=args.end,
        piece=piece,
        simple=args.simple,
        method=args.method,
        options=solve_options_of(args),
    )
    route = outcome.value
    stopped = EXIT_INTERRUPTED if outcome.interrupted else None
    if route is None:
        code = EXIT_NONE if outcome.status is Status.INFEASIBLE else EXIT_LIMIT
        return print_outcome(
            args, stopped or code, outcome.as_dict(), outcome_line(outcome)
        )
    if args.svg or args.animate:
        from cpknight.draw import route_animation_svg, route_svg

        write_files(
            args,
            svg=lambda: route_svg(route),
            animate=lambda: route_animation_svg(route),
        )
    if args.json:
        print_json(outcome.as_dict())
        return stopped or EXIT_OK
    out(route_line(route))
    if grid_fits(args, board):
        out(str(route))
    out("route: " + " ".join(route.names()))
    wrote(outputs)
    if stopped:
        note("interrupted (Ctrl-C): the best route found so far")
    return stopped or EXIT_OK
