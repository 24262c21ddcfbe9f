"""The formulation subcommands: print or export a model without solving it."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from cpknight.cli.common import (
    EXIT_CODES,
    SubParsers,
    _add_board_args,
    _add_cell_args,
    _add_export,
    _add_time_limit,
    _add_tour_args,
    _board_and_piece,
    _command,
    _Model,
    _new_files,
    _Parser,
    _print_or_export,
    _run_of,
    _tour_ends,
)
from cpknight.cli.longest import _add_formulation_longest
from cpknight.cli.routes import _add_collect_args
from cpknight.cli.tours import _add_constraint_args, _constraints
from cpknight.solving import LINEAR_SUFFIXES, SolveOptions

# ------------------------------------------------------- formulation: tours


def _add_formulation_tour(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "tour",
        _run_formulation_tour,
        help="the CP-SAT circuit model of a tour",
        description="Print the CP-SAT circuit model of a tour of BOARD with its "
        "own numbers and variable names, or export it as a text proto.",
    )
    _add_tour_args(parser)
    _add_export(parser, "a CP-SAT text proto")
    _add_time_limit(parser)
    _add_constraint_args(parser)


def _run_formulation_tour(args: argparse.Namespace) -> int:
    from cpknight.pieces import move_graph
    from cpknight.tours.cpsat import build_tour_model

    board, piece = _board_and_piece(args)
    board.require_finite("a tour")
    _new_files(args, "export")
    run = _run_of(args)
    start, end = _tour_ends(args, board)
    model = build_tour_model(
        move_graph(board, piece),
        closed=not args.open,
        start=start,
        end=end,
        run=run,
        # printing reads only the arcs: the CP-SAT model is built to export
        arcs_only=not args.export,
        constraints=_constraints(args, board, piece),
    )
    run.check("building the model")
    return _print_or_export(
        args, model, f" ({model.n_arcs} Booleans, one circuit)", run
    )


def _add_formulation_distance(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "distance",
        _run_formulation_distance,
        help="the integer program of a distance (move counts or arc flow)",
        description="Print the integer program of the distance from SOURCE to "
        "TARGET with the instance's own numbers and variable names (ip: move "
        "counts, n[+1,+2] ...; flow: one unit of flow over the move arcs), or "
        "export it as LP or MPS (--export FILE.lp|FILE.mps).",
    )
    _add_board_args(parser)
    _add_cell_args(parser, target=True)
    parser.add_argument(
        "--method",
        default="ip",
        choices=["ip", "flow"],
        help="ip (move counts, default) or flow (arc flow)",
    )
    _add_export(parser, "FILE.lp or FILE.mps", LINEAR_SUFFIXES, "LP or MPS")
    _add_time_limit(parser)


def _run_formulation_distance(args: argparse.Namespace) -> int:
    from cpknight.distances.flow import build_flow_model
    from cpknight.distances.moves import build_move_count_model

    board, piece = _board_and_piece(args)
    _new_files(args, "export")
    run = _run_of(args)
    model: _Model
    if args.method == "flow":
        model = build_flow_model(board, args.source, args.target, piece=piece, run=run)
    else:
        model = build_move_count_model(board, args.source, args.target, piece=piece)
    run.check("building the model")
    return _print_or_export(args, model, run=run)


def _add_formulation_collect(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "collect",
        _run_formulation_collect,
        help="the CP-SAT circuit model of a shortest route through the food",
        description="Print the CP-SAT model of the snake's meal (walk: a circuit "
        "over the start and the food weighted by BFS distances; --simple: a "
        "circuit over every cell with self-loops for cells left out) with the "
        "instance's own numbers, or export it as a text proto.",
    )
    _add_collect_args(parser)
    _add_export(parser, "a CP-SAT text proto")
    _add_time_limit(parser)


def _run_formulation_collect(args: argparse.Namespace) -> int:
    from cpknight.routes.cpsat import build_collect_model

    board, piece = _board_and_piece(args)
    _new_files(args, "export")
    run = _run_of(args)
    model = build_collect_model(
        board,
        args.start,
        args.food,
        end=args.end,
        piece=piece,
        simple=args.simple,
        run=run,
    )
    run.check("building the model")
    return _print_or_export(
        args, model, f" ({len(model.arcs)} Booleans, one circuit)", run
    )


def _add_formulation_count(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "count",
        _run_formulation_count,
        help="the frontier program that counts tours, and its states",
        description="Print the frontier (transfer-matrix) program that counts the "
        "tours of BOARD with its own numbers: the cell order, the frontier's "
        "width row by row, the state and the step; then run it (within "
        "--time-limit, default 60 s) and print the live states after each row: "
        "exponential in the short side, linear in the long one.",
    )
    _add_tour_args(parser)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds for running the program (default 60)",
    )


def _run_formulation_count(args: argparse.Namespace) -> int:
    from cpknight.api import count_tours
    from cpknight.counting.plan import frontier_formulation, plan_frontier
    from cpknight.pieces import move_graph
    from cpknight.render import frontier_text

    board, piece = _board_and_piece(args)
    board.require_finite("counting tours")
    start, end = _tour_ends(args, board)
    closed = not args.open
    graph = move_graph(board, piece)
    plan = plan_frontier(graph, closed=closed, start=start, end=end)
    print(frontier_formulation(graph, plan))
    count = count_tours(
        board,
        piece=piece,
        closed=closed,
        start=start,
        end=end,
        method="frontier",
        options=SolveOptions(time_limit=args.time_limit),
    )
    if count.frontier is not None:
        print(frontier_text(count.frontier))
    if count.status == "found":
        print(f"count: {count.directed} directed, {count.undirected} undirected")
        return 0
    print("count: none (the program stopped before its last cell)")
    return 3


# -------------------------------------------------------------- formulation

FORMULATIONS: list[Callable[[SubParsers], None]] = [
    _add_formulation_tour,
    _add_formulation_distance,
    _add_formulation_collect,
    _add_formulation_count,
    _add_formulation_longest,
]
"""Registrations of ``cpknight formulation KIND`` (``tour``, ``distance``, ...)."""


def _add_formulation(sub: SubParsers) -> None:
    parser = sub.add_parser(
        "formulation",
        help="print or export a model with this instance's numbers",
        description="Print a model's formulation with the instance's own numbers, "
        "or export it (--export FILE).",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kinds = parser.add_subparsers(
        dest="kind", metavar="KIND", required=True, parser_class=_Parser
    )
    for register in FORMULATIONS:
        register(kinds)
