"""The collect subcommand: the shortest route through the food."""

from __future__ import annotations

import argparse

from cpknight.cli.common import (
    EXIT_CODES,
    SubParsers,
    add_command,
    add_grid,
    add_json,
    add_method,
    add_pictures,
    add_progress,
    add_solve_args,
    animation_of,
    board_and_piece,
    drawing_of,
    grid_or_hint,
    new_files,
    report,
    show_progress,
    solve_options_of,
    write_files,
)
from cpknight.cli.instances import add_collect_args
from cpknight.results import Route
from cpknight.text.render import route_line
from cpknight.text.reports import path_report

# ------------------------------------------------------------------ collect


def add_collect(sub: SubParsers) -> None:
    """Register ``cpknight collect``."""
    parser = add_command(
        sub,
        "collect",
        _run_collect,
        examples="""
cpknight collect 8x8 a1 h8 a8 h1
cpknight collect 8x8 a1 c3 e5 --end a1 --simple
cpknight collect 8x8 a1 h8 --method search --json""",
        description="The snake's meal: the fewest moves from START that visit\n"
        "every FOOD cell (and end on --end). Prints the route, its length and\n"
        "whether it is proved optimal; on the grid, the move at which each cell\n"
        "is first reached (0 the start, * food).",
        epilog=EXIT_CODES.replace(
            "0  answered", "0  answered (a proved-optimal or best-found route)"
        ),
    )
    add_collect_args(parser)
    add_method(
        parser,
        default="cpsat",
        choices=["cpsat", "search", "greedy"],
        help="cpsat (circuit model), search (Held-Karp for walks, IDA* for simple "
        "routes) or greedy (nearest food next)",
    )
    add_solve_args(parser)
    add_json(parser)
    add_progress(parser)
    add_grid(parser)
    add_pictures(parser, "route")


def _run_collect(args: argparse.Namespace) -> int:
    from cpknight.api import try_collect

    board, piece = board_and_piece(args)
    outputs = new_files(args, "svg", "animate")
    drawing = drawing_of(args, board)
    outcome = try_collect(
        board,
        args.start,
        args.food,
        end=args.end,
        piece=piece,
        simple=args.simple,
        method=args.method,
        options=solve_options_of(args),
        progress=show_progress(args),
    )

    def pictures(route: Route) -> None:
        if args.svg or args.png or args.animate:
            from cpknight.draw import route_animation_svg, route_svg

            write_files(
                args,
                svg=lambda: route_svg(route, **drawing),
                animate=lambda: route_animation_svg(route, **animation_of(drawing)),
            )

    def text(route: Route) -> str:
        grid = grid_or_hint(args, board, lambda: str(route))
        path = "route: " + " ".join(route.names())
        return path_report(route_line(route), grid, path, outputs)

    partial = "interrupted (Ctrl-C): the best route found so far"
    return report(args, outcome, text, pictures=pictures, partial=partial)
