"""The longest subcommand: the longest uncrossed or induced path (or cycle)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

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
    comparison_code,
    drawing_of,
    grid_or_hint,
    new_files,
    print_outcome,
    report,
    show_progress,
    solve_options_of,
    write_files,
)
from cpknight.cli.instances import add_longest_args
from cpknight.text.render import longest_line, longest_table_text
from cpknight.text.reports import limit_text, path_report

if TYPE_CHECKING:
    from cpknight.board import Board
    from cpknight.longest.common import LongestPath
    from cpknight.pieces import Leaper
    from cpknight.solving import SolveOptions


def add_longest(sub: SubParsers) -> None:
    """Register ``cpknight longest``."""
    parser = add_command(
        sub,
        "longest",
        _run_longest,
        examples="""
cpknight longest 6x6 --uncrossed --method all --json
cpknight longest 5x5 --induced --closed --svg snake.svg
cpknight longest 8x8 --uncrossed --memory 16000 --time-limit none --workers 2""",
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
    add_longest_args(parser)
    add_method(
        parser,
        default="auto",
        several=True,
        choices=["auto", "cpsat", "search", "frontier"],
        help="cpsat (circuit model), search (depth-first branch and bound), "
        "frontier (a transfer-matrix program, proved when it ends), or auto "
        "(see cpknight.api.longest); several make a table",
    )
    add_solve_args(parser, workers="CP-SAT search (or frontier program)")
    add_json(parser)
    add_progress(parser)
    add_grid(parser)
    add_pictures(parser, "path")


def _run_longest(args: argparse.Namespace) -> int:
    from cpknight.api import try_longest

    board, piece = board_and_piece(args)
    outputs = new_files(args, "svg", "animate")
    drawing = drawing_of(args, board)
    options = solve_options_of(args)
    if args.method == "all" or "," in args.method:
        return _run_longest_table(args, board, piece, options)
    outcome = try_longest(
        board,
        kind=args.kind,
        closed=args.closed,
        piece=piece,
        method=args.method,
        crossings=args.crossings,
        cuts=args.cuts,
        options=options,
        progress=show_progress(args),
    )

    def pictures(path: LongestPath) -> None:
        if args.svg or args.png or args.animate:
            from cpknight.draw.longest import longest_animation_svg, longest_svg

            write_files(
                args,
                svg=lambda: longest_svg(path, **drawing),
                animate=lambda: longest_animation_svg(path, **animation_of(drawing)),
            )

    def text(path: LongestPath) -> str:
        grid = grid_or_hint(args, board, lambda: str(path))
        cells = ("cycle: " if path.closed else "path: ") + " ".join(path.names())
        return path_report(longest_line(path), grid, cells, outputs)

    partial = "interrupted (Ctrl-C): the longest found so far, not proved longest"
    return report(args, outcome, text, pictures=pictures, partial=partial)


def _run_longest_table(
    args: argparse.Namespace, board: Board, piece: Leaper, options: SolveOptions
) -> int:
    """``longest --method all`` (or a list): one row per engine, one table."""
    from cpknight.api import compare_longest

    comparison = compare_longest(
        board,
        kind=args.kind,
        closed=args.closed,
        piece=piece,
        crossings=args.crossings,
        cuts=args.cuts,
        methods=args.method,
        progress=show_progress(args),
        options=options,
    )
    code = comparison_code(comparison)
    limit = limit_text(options.time_limit)
    shape = "cycle" if args.closed else "path"
    heading = f"longest {args.kind} {shape} on {board.label} ({piece.label}), {limit}"
    text = longest_table_text(comparison, heading)
    # The JSON document only when asked for: a huge board's cells as lists
    # take seconds (3000x3000: 9 s) that the text never reads.
    document = comparison.as_dict() if args.json else None
    return print_outcome(args, code, document, text)
