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
    _add_board_args,
    _add_grid,
    _add_json,
    _add_pictures,
    _add_solve_args,
    _board_and_piece,
    _command,
    _grid_fits,
    _json,
    _new_files,
    _note,
    _out,
    _outcome,
    _solve_options,
    _write_files,
    _wrote,
)
from cpknight.render import outcome_line, route_line
from cpknight.status import Status

# ------------------------------------------------------------------ collect


def _add_collect_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``collect`` and ``formulation collect``."""
    _add_board_args(parser)
    parser.add_argument("start", metavar="START", help="the first cell, like a1")
    parser.add_argument(
        "food", metavar="FOOD", nargs="+", help="the cells to visit, like h8 a8"
    )
    parser.add_argument(
        "--end", metavar="CELL", help="the last cell (the start: a closed route)"
    )
    parser.add_argument(
        "--simple",
        action="store_true",
        help="never use a cell twice (default: a walk, cells may repeat)",
    )


def _add_collect(sub: SubParsers) -> None:
    parser = _command(
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
    _add_collect_args(parser)
    parser.add_argument(
        "--method",
        default="cpsat",
        choices=["cpsat", "search", "greedy"],
        help="cpsat (circuit model, default), search (Held-Karp for walks, "
        "IDA* for simple routes) or greedy (nearest food next)",
    )
    _add_solve_args(parser)
    _add_json(parser)
    _add_grid(parser)
    _add_pictures(parser, "route")


def _run_collect(args: argparse.Namespace) -> int:
    from cpknight.api import try_collect

    board, piece = _board_and_piece(args)
    outputs = _new_files(args, "svg", "animate")
    outcome = try_collect(
        board,
        args.start,
        args.food,
        end=args.end,
        piece=piece,
        simple=args.simple,
        method=args.method,
        options=_solve_options(args),
    )
    route = outcome.value
    stopped = EXIT_INTERRUPTED if outcome.interrupted else None
    if route is None:
        code = EXIT_NONE if outcome.status is Status.INFEASIBLE else EXIT_LIMIT
        return _outcome(args, stopped or code, outcome.as_dict(), outcome_line(outcome))
    if args.svg or args.animate:
        from cpknight.draw import route_animation_svg, route_svg

        _write_files(
            args,
            svg=lambda: route_svg(route),
            animate=lambda: route_animation_svg(route),
        )
    if args.json:
        _json(outcome.as_dict())
        return stopped or EXIT_OK
    _out(route_line(route))
    if _grid_fits(args, board):
        _out(str(route))
    _out("route: " + " ".join(route.names()))
    _wrote(outputs)
    if stopped:
        _note("interrupted (Ctrl-C): the best route found so far")
    return stopped or EXIT_OK
