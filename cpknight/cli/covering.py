"""The dominate and independent subcommands: the knights' covering puzzles."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cpknight.cli.common import (
    EXIT_CODES,
    SubParsers,
    add_command,
    add_drawing,
    add_force,
    add_grid,
    add_json,
    add_method,
    add_solve_args,
    board_and_piece,
    comparison_code,
    drawing_of,
    grid_or_hint,
    new_files,
    print_outcome,
    report,
    solve_options_of,
    write_files,
)
from cpknight.cli.instances import add_cover_args
from cpknight.errors import InvalidInputError
from cpknight.text.render import cover_line, cover_table_text
from cpknight.text.reports import limit_text

if TYPE_CHECKING:
    from cpknight.board import Board
    from cpknight.covering.common import Cover
    from cpknight.pieces import Leaper
    from cpknight.solving import SolveOptions

METHODS = ["cpsat", "scip", "pyscipopt", "highs", "search", "portfolio"]
METHOD_HELP = (
    "cpsat (the 0/1 program by CP-SAT), scip or highs (the same program by a "
    "MIP solver), pyscipopt (SCIP 10, which breaks the board's symmetries: "
    "pip install 'cpknight[scip]'), search (branch and bound), portfolio "
    "(CP-SAT and SCIP side by side: the first proof wins, else the best of "
    "both); several make a table"
)


def add_dominate(sub: SubParsers) -> None:
    """Register ``cpknight dominate``."""
    parser = add_command(
        sub,
        "dominate",
        _run_cover,
        examples="""
cpknight dominate 8x8 --count
cpknight dominate 10x10 --total --method all
cpknight dominate 8x8 --torus --independent --svg knights.svg --png knights.png""",
        description="The fewest knights on BOARD such that every open cell holds a\n"
        "knight or is attacked by one (OEIS A006075); --total: every cell\n"
        "attacked (A261752); --independent: no two knights attacking (A342576).\n"
        "--count also counts the optimal placements (A103315; with --symmetry,\n"
        "up to symmetry: A006076). Prints the knights (N) and the attacked\n"
        "cells (+), the size and whether it is proved optimal.",
        epilog=EXIT_CODES,
    )
    _add_common(parser, kinds=True)


def add_independent(sub: SubParsers) -> None:
    """Register ``cpknight independent``."""
    parser = add_command(
        sub,
        "independent",
        _run_cover,
        examples="""
cpknight independent 8x8
cpknight independent 6x6 --count --method search
cpknight independent 4x4x4 --piece 1,2,3 --json""",
        description="The most knights on BOARD with no two attacking each other\n"
        "(OEIS A030978 on n x n). --count also counts the optimal placements.",
        epilog=EXIT_CODES,
    )
    _add_common(parser, kinds=False)


def _add_common(parser: argparse.ArgumentParser, *, kinds: bool) -> None:
    add_cover_args(parser, kinds=kinds)
    parser.add_argument(
        "--count", action="store_true", help="also count the optimal placements"
    )
    add_method(parser, default="cpsat", several=True, choices=METHODS, help=METHOD_HELP)
    add_solve_args(
        parser, workers="CP-SAT search (SCIP and HiGHS: independent parts at once)"
    )
    add_json(parser)
    add_grid(parser)
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the knights and the cells they attack as SVG, with a legend",
    )
    add_force(parser, "the files given to --svg/--png")
    add_drawing(parser)


def _run_cover(args: argparse.Namespace) -> int:
    from cpknight.api import try_cover

    board, piece = board_and_piece(args)
    outputs = new_files(args, "svg")
    drawing = drawing_of(args, board)
    options = solve_options_of(args)
    if args.method == "all" or "," in args.method:
        if args.svg or args.png:
            raise InvalidInputError(
                "--svg and --png draw one answer: give one --method"
            )
        return _run_table(args, board, piece, options)
    outcome = try_cover(
        board,
        kind=args.kind,
        count=args.count,
        symmetry=args.symmetry,
        piece=piece,
        method=args.method,
        options=options,
    )

    def pictures(cover: Cover) -> None:
        if args.svg or args.png:
            from cpknight.draw.covering import cover_svg

            write_files(args, svg=lambda: cover_svg(cover, **drawing))

    def text(cover: Cover) -> str:
        grid = grid_or_hint(args, board, lambda: str(cover))
        lines = [cover_line(cover), grid, "knights: " + " ".join(cover.names())]
        lines += [f"wrote {path}" for path in outputs]
        return "\n".join(line for line in lines if line)

    none = f"no {args.kind} placement exists on {board.label} (proved)"
    partial = "interrupted (Ctrl-C): the best placement found so far, not proved"
    return report(args, outcome, text, pictures=pictures, none=none, partial=partial)


def _run_table(
    args: argparse.Namespace, board: Board, piece: Leaper, options: SolveOptions
) -> int:
    """``--method all`` (or a list): one row per engine, one table."""
    from cpknight.api import compare_covers

    comparison = compare_covers(
        board,
        kind=args.kind,
        count=args.count,
        symmetry=args.symmetry,
        piece=piece,
        methods=args.method,
        options=options,
    )
    code = comparison_code(comparison)
    heading = (
        f"{args.kind} knights on {board.label} ({piece.label}), "
        f"{limit_text(options.time_limit)}"
    )
    text = cover_table_text(comparison, heading)
    return print_outcome(args, code, comparison.as_dict(), text)
