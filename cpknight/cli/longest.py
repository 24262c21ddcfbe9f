"""The longest subcommand: the longest uncrossed or induced path (or cycle)."""

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
    _add_export,
    _add_grid,
    _add_json,
    _add_pictures,
    _add_solve_args,
    _add_time_limit,
    _board_and_piece,
    _command,
    _comparison_code,
    _grid_fits,
    _json,
    _new_files,
    _note,
    _out,
    _outcome,
    _print_or_export,
    _run_of,
    _solve_options,
    _write_files,
    _wrote,
)
from cpknight.render import longest_line, longest_table_text, outcome_line
from cpknight.status import Status


def _add_longest_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``longest`` and ``formulation longest``."""
    _add_board_args(parser)
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument(
        "--uncrossed",
        dest="kind",
        action="store_const",
        const="uncrossed",
        help="no two drawn moves cross (OEIS A003192, A157416)",
    )
    kind.add_argument(
        "--induced",
        dest="kind",
        action="store_const",
        const="induced",
        help="no move joins two cells but consecutive ones: a snake (A165143)",
    )
    parser.add_argument(
        "--closed", action="store_true", help="a cycle (default: a path)"
    )
    parser.add_argument(
        "--crossings",
        default="cliques",
        choices=["cliques", "pairwise"],
        help="CP-SAT's crossing constraints: one at-most-one per clique of "
        "mutually crossing moves (default), or one per crossing pair",
    )
    parser.add_argument(
        "--cuts",
        action="store_true",
        help="CP-SAT: also keep one reflection of each answer and balance the "
        "two colours (valid cuts; not always faster)",
    )


def _add_longest(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "longest",
        _run_longest,
        help="the longest uncrossed or induced path or cycle (optimisation puzzles)",
        description="The longest knight path (or cycle, --closed) on BOARD whose\n"
        "drawn moves never cross (--uncrossed; bounded 2D boards), or that no\n"
        "move joins except between consecutive cells (--induced, a snake; any\n"
        "board). Prints the path, its length and whether it is proved longest;\n"
        "on the grid, each cell's place on the path. --method all runs every\n"
        "engine (and CP-SAT with both crossing forms) side by side.",
        epilog=EXIT_CODES.replace(
            "0  answered", "0  answered (proved longest, or the best found)"
        ),
    )
    _add_longest_args(parser)
    parser.add_argument(
        "--method",
        default="auto",
        choices=["auto", "cpsat", "search", "all"],
        help="cpsat (circuit model), search (depth-first branch and bound), all "
        "(a table), or auto (default: search up to 100 cells uncrossed, 49 "
        "induced, else cpsat)",
    )
    _add_solve_args(parser)
    _add_json(parser)
    _add_grid(parser)
    _add_pictures(parser, "path")


def _run_longest(args: argparse.Namespace) -> int:
    from cpknight.api import compare_longest, try_longest

    board, piece = _board_and_piece(args)
    outputs = _new_files(args, "svg", "animate")
    options = _solve_options(args)
    if args.method == "all":
        comparison = compare_longest(
            board,
            kind=args.kind,
            closed=args.closed,
            piece=piece,
            crossings=args.crossings,
            cuts=args.cuts,
            options=options,
        )
        code = _comparison_code(comparison)
        if args.json:
            _json(comparison.as_dict())
            return code
        limit = "no limit"
        if options.time_limit is not None:
            limit = f"a limit of {options.time_limit:g} s each"
        shape = "cycle" if args.closed else "path"
        heading = (
            f"longest {args.kind} {shape} on {board.label} ({piece.label}), {limit}"
        )
        _out(longest_table_text(comparison, heading))
        return code
    outcome = try_longest(
        board,
        kind=args.kind,
        closed=args.closed,
        piece=piece,
        method=args.method,
        crossings=args.crossings,
        cuts=args.cuts,
        options=options,
    )
    path = outcome.value
    stopped = EXIT_INTERRUPTED if outcome.interrupted else None
    if path is None:
        code = EXIT_NONE if outcome.status is Status.INFEASIBLE else EXIT_LIMIT
        return _outcome(args, stopped or code, outcome.as_dict(), outcome_line(outcome))
    if args.svg or args.animate:
        from cpknight.draw.longest import longest_animation_svg, longest_svg

        _write_files(
            args,
            svg=lambda: longest_svg(path),
            animate=lambda: longest_animation_svg(path),
        )
    if args.json:
        _json(outcome.as_dict())
        return stopped or EXIT_OK
    _out(longest_line(path))
    if _grid_fits(args, board):
        _out(str(path))
    _out(("cycle: " if path.closed else "path: ") + " ".join(path.names()))
    _wrote(outputs)
    if stopped:
        _note("interrupted (Ctrl-C): the longest found so far, not proved longest")
    return stopped or EXIT_OK


def _add_formulation_longest(kinds: SubParsers) -> None:
    parser = _command(
        kinds,
        "longest",
        _run_formulation_longest,
        help="the CP-SAT model of a longest uncrossed or induced path",
        description="Print the CP-SAT model of the longest uncrossed or induced "
        "path (or cycle) with the instance's own numbers, and the sizes of both "
        "crossing forms (pairwise, cliques), or export it as a text proto.",
    )
    _add_longest_args(parser)
    _add_export(parser, "a CP-SAT text proto")
    _add_time_limit(parser)


def _run_formulation_longest(args: argparse.Namespace) -> int:
    from cpknight.longest.cpsat import build_longest_model

    board, piece = _board_and_piece(args)
    _new_files(args, "export")
    run = _run_of(args)
    model = build_longest_model(
        board,
        kind=args.kind,
        closed=args.closed,
        piece=piece,
        crossings=args.crossings,
        cuts=args.cuts,
        run=run,
    )
    run.check("building the model")
    sizes = model.sizes()
    note = f" ({sizes['Booleans']} Booleans, one circuit)"
    return _print_or_export(args, model, note, run)
