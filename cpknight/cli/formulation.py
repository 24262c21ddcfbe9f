"""The formulation subcommands: print or export a model without solving it."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from cpknight.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    Parser,
    PrintableModel,
    SubParsers,
    add_board_args,
    add_build_time_limit,
    add_cell_args,
    add_command,
    add_export,
    add_json,
    add_method,
    add_time_limit,
    add_tour_args,
    board_and_piece,
    build_run,
    new_files,
    out,
    print_json,
    print_or_export,
    tour_ends,
)
from cpknight.cli.instances import (
    add_collect_args,
    add_constraint_args,
    add_cover_args,
    add_longest_args,
    add_swap_args,
    constraints_of,
    swap_topology,
)
from cpknight.solving import CPSAT_SUFFIXES, LINEAR_SUFFIXES, Run, SolveOptions

# ------------------------------------------------------------- every model


def _add_model_output(
    parser: argparse.ArgumentParser,
    kind: str = "a CP-SAT text proto",
    suffixes: tuple[str, ...] = CPSAT_SUFFIXES,
    written: str = "a CP-SAT text proto",
) -> None:
    """``--export`` (as :func:`add_export`), ``--time-limit`` and ``--json``."""
    add_export(parser, kind, suffixes, written)
    add_build_time_limit(parser)
    add_json(parser)


def _build_run(args: argparse.Namespace) -> Run:
    """The run that bounds building, the ``--export`` file refused first if taken."""
    new_files(args, "export")
    return build_run(args)


def _print_built(
    args: argparse.Namespace, model: PrintableModel, note: str, run: Run
) -> int:
    """Print or export a model built under ``run``, its clock checked first."""
    run.check("building the model")
    return print_or_export(args, model, note, run)


# ------------------------------------------------------- formulation: tours


def _add_formulation_tour(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "tour",
        _run_formulation_tour,
        examples="""
cpknight formulation tour 3x4 --open
cpknight formulation tour 8x8 --export tour.pb.txt
cpknight formulation tour 5x5 --open --json""",
        help="the CP-SAT circuit model of a tour",
        description="Print the CP-SAT circuit model of a tour of BOARD with its "
        "own numbers and variable names, or export it as a text proto.",
    )
    add_tour_args(parser)
    _add_model_output(parser)
    add_constraint_args(parser)


def _run_formulation_tour(args: argparse.Namespace) -> int:
    from cpknight.api.formulation import tour_model

    board, piece = board_and_piece(args)
    board.require_finite("a tour")
    run = _build_run(args)
    start, end = tour_ends(args, board)
    model = tour_model(
        board,
        piece=piece,
        closed=not args.open,
        start=start,
        end=end,
        run=run,
        # printing reads only the arcs: the CP-SAT model is built to export
        arcs_only=not args.export,
        constraints=constraints_of(args, board, piece),
    )
    return _print_built(args, model, f" ({model.n_arcs} Booleans, one circuit)", run)


def _add_formulation_distance(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "distance",
        _run_formulation_distance,
        examples="""
cpknight formulation distance plane 0,0 5,3
cpknight formulation distance 8x8 a1 h8 --method flow --export flow.lp
cpknight formulation distance 8x8 a1 h8 --json""",
        help="the integer program of a distance (move counts or arc flow)",
        description="Print the integer program of the distance from SOURCE to "
        "TARGET with the instance's own numbers and variable names (ip: move "
        "counts, n[+1,+2] ...; flow: one unit of flow over the move arcs), or "
        "export it as LP or MPS (--export FILE.lp|FILE.mps).",
    )
    add_board_args(parser)
    add_cell_args(parser, target=True)
    add_method(
        parser,
        default="ip",
        choices=["ip", "flow"],
        help="ip (move counts) or flow (arc flow)",
    )
    _add_model_output(parser, "FILE.lp or FILE.mps", LINEAR_SUFFIXES, "LP or MPS")


def _run_formulation_distance(args: argparse.Namespace) -> int:
    from cpknight.api.formulation import distance_model

    board, piece = board_and_piece(args)
    run = _build_run(args)
    model: PrintableModel = distance_model(
        board, args.source, args.target, method=args.method, piece=piece, run=run
    )
    return _print_built(args, model, "", run)


def _add_formulation_collect(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "collect",
        _run_formulation_collect,
        examples="""
cpknight formulation collect 8x8 a1 h8 a8
cpknight formulation collect 6x6 a1 f6 --simple --export meal.pb.txt
cpknight formulation collect 8x8 a1 h8 --json""",
        help="the CP-SAT circuit model of a shortest route through the food",
        description="Print the CP-SAT model of the snake's meal (walk: a circuit "
        "over the start and the food weighted by BFS distances; --simple: a "
        "circuit over every cell with self-loops for cells left out) with the "
        "instance's own numbers, or export it as a text proto.",
    )
    add_collect_args(parser)
    _add_model_output(parser)


def _run_formulation_collect(args: argparse.Namespace) -> int:
    from cpknight.api.formulation import collect_model

    board, piece = board_and_piece(args)
    run = _build_run(args)
    model = collect_model(
        board,
        args.start,
        args.food,
        end=args.end,
        piece=piece,
        simple=args.simple,
        run=run,
    )
    return _print_built(args, model, f" ({len(model.arcs)} Booleans, one circuit)", run)


def _add_formulation_count(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "count",
        _run_formulation_count,
        examples="""
cpknight formulation count 3x10
cpknight formulation count 6x6 --open --time-limit 5
cpknight formulation count 4x8 --json""",
        help="the frontier program that counts tours, and its states",
        description="Print the frontier (transfer-matrix) program that counts the "
        "tours of BOARD with its own numbers: the cell order, the frontier's "
        "width row by row, the state and the step; then run it (within "
        "--time-limit) and print the live states after each row: "
        "exponential in the short side, linear in the long one.",
    )
    add_tour_args(parser)
    add_time_limit(parser, "running the program")
    add_json(parser)


def _run_formulation_count(args: argparse.Namespace) -> int:
    from cpknight.api import count_tours
    from cpknight.api.formulation import count_program
    from cpknight.text.render import frontier_text

    board, piece = board_and_piece(args)
    board.require_finite("counting tours")
    start, end = tour_ends(args, board)
    closed = not args.open
    text = count_program(board, piece=piece, closed=closed, start=start, end=end)
    if not args.json:
        out(text)
    count = count_tours(
        board,
        piece=piece,
        closed=closed,
        start=start,
        end=end,
        method="frontier",
        options=SolveOptions(time_limit=args.time_limit),
    )
    done = count.status == "found"
    if args.json:
        print_json({"question": "count", "formulation": text, "count": count.as_dict()})
        if count.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_OK if done else EXIT_LIMIT
    if count.frontier is not None:
        out(frontier_text(count.frontier))
    if count.interrupted:  # Ctrl-C: the figures so far are printed above
        out("count: none (interrupted before the program's last cell)")
        return EXIT_INTERRUPTED
    if done:
        out(f"count: {count.directed} directed, {count.undirected} undirected")
        return EXIT_OK
    out("count: none (the program stopped before its last cell)")
    return EXIT_LIMIT


# ---------------------------------------------------- formulation: longest


def _add_formulation_longest(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "longest",
        _run_formulation_longest,
        examples="""
cpknight formulation longest 5x5 --uncrossed
cpknight formulation longest 6x6 --induced --export snake.pb.txt
cpknight formulation longest 5x5 --uncrossed --json""",
        help="the CP-SAT model of a longest uncrossed or induced path",
        description="Print the CP-SAT model of the longest uncrossed or induced "
        "path (or cycle) with the instance's own numbers, and the sizes of both "
        "crossing forms (pairwise, cliques), or export it as a text proto.",
    )
    add_longest_args(parser)
    _add_model_output(parser)


def _run_formulation_longest(args: argparse.Namespace) -> int:
    from cpknight.api.formulation import longest_model

    board, piece = board_and_piece(args)
    run = _build_run(args)
    model = longest_model(
        board,
        kind=args.kind,
        closed=args.closed,
        piece=piece,
        crossings=args.crossings,
        cuts=args.cuts,
        run=run,
    )
    sizes = model.sizes()
    note = f" ({sizes['Booleans']} Booleans, one circuit)"
    return _print_built(args, model, note, run)


# ------------------------------------------------------- formulation: swap


def _add_formulation_swap(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "swap",
        _run_formulation_swap,
        examples="""
cpknight formulation swap guarini
cpknight formulation swap guy3x4 --horizon 32 --export guy.pb.txt
cpknight formulation swap guarini --json""",
        help="the CP-SAT planning model of a knight swap at one horizon",
        description="Print the time-indexed CP-SAT model of a swap puzzle (a "
        "Boolean per knight colour, cell and step; one move a step) at one "
        "horizon (default: the lower bound, the first the engine tries) with the "
        "instance's own numbers, or export it as a text proto.",
    )
    add_swap_args(parser)
    parser.add_argument(
        "--horizon",
        type=int,
        metavar="T",
        help="the number of moves (default: the lower bound)",
    )
    _add_model_output(parser)


# --------------------------------------------------- formulation: covering


def _add_formulation_cover(kinds: SubParsers) -> None:
    parser = add_command(
        kinds,
        "cover",
        _run_formulation_cover,
        examples="""
cpknight formulation cover 8x8
cpknight formulation cover 8x8 --independent --symmetry --export knights.lp
cpknight formulation cover 6x6 --independent-set --json""",
        help="the 0/1 program of a domination or independence puzzle",
        description="Print the 0/1 program that dominate and independent solve "
        "(CP-SAT and the MIP solvers read the same rows) with the board's own "
        "names, x[a1] ..., or export it (--export FILE.lp|.mps|.pbtxt). "
        "Dominating unless --total, --independent or --independent-set; "
        "--symmetry adds the lex-leader rows of the board's symmetries.",
    )
    add_cover_args(parser, kinds=True, every=True)
    _add_model_output(
        parser,
        "FILE.lp, FILE.mps or a CP-SAT text proto",
        (*LINEAR_SUFFIXES, *CPSAT_SUFFIXES),
        "LP, MPS or a CP-SAT text proto",
    )


def _run_formulation_swap(args: argparse.Namespace) -> int:
    from cpknight.api.formulation import swap_model

    run = _build_run(args)
    model = swap_model(
        args.puzzle,
        horizon=args.horizon,
        piece=args.piece,
        topology=swap_topology(args),
        run=run,
    )
    sizes = model.sizes()
    note = (
        f" ({sizes['position Booleans'] + sizes['move Booleans']} Booleans, "
        f"{sizes['horizon']} moves)"
    )
    return _print_built(args, model, note, run)


def _run_formulation_cover(args: argparse.Namespace) -> int:
    from cpknight.api.formulation import cover_model

    board, piece = board_and_piece(args)
    run = _build_run(args)
    model = cover_model(
        board, kind=args.kind, piece=piece, symmetry=args.symmetry, run=run
    )
    sizes = model.sizes()
    note = f" ({sizes['variables']} variables, {sizes['rows']} rows)"
    return _print_built(args, model, note, run)


# -------------------------------------------------------------- formulation

FORMULATIONS: list[Callable[[SubParsers], None]] = [
    _add_formulation_tour,
    _add_formulation_distance,
    _add_formulation_collect,
    _add_formulation_count,
    _add_formulation_longest,
    _add_formulation_swap,
    _add_formulation_cover,
]
"""Registrations of ``cpknight formulation KIND`` (``tour``, ``distance``, ...)."""


def add_formulation(sub: SubParsers) -> None:
    """Register ``cpknight formulation``."""
    parser = add_command(
        sub,
        "formulation",
        lambda _: _help(parser),
        examples="""
cpknight formulation tour 3x4 --open
cpknight formulation distance 8x8 a1 h8 --export moves.lp
cpknight formulation longest 5x5 --uncrossed --json""",
        description="Print a model's formulation with the instance's own numbers, "
        "or export it (--export FILE).",
    )
    kinds = parser.add_subparsers(
        dest="formulation", metavar="KIND", parser_class=Parser
    )
    for register in FORMULATIONS:
        register(kinds)


def _help(parser: argparse.ArgumentParser) -> int:
    """``cpknight formulation`` alone: its help, exit 0."""
    parser.print_help()
    return EXIT_OK
