"""The swap subcommand: knights of several colours change places in the fewest moves."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cpknight.cli.common import (
    EXIT_CODES,
    SubParsers,
    add_command,
    add_drawing,
    add_force,
    add_json,
    add_method,
    add_solve_args,
    comparison_code,
    new_files,
    print_outcome,
    read_stdin,
    report,
    solve_options_of,
    write_files,
)
from cpknight.cli.instances import add_swap_args, swap_topology
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    from cpknight.swaps.common import Swap

SWAP_METHODS = ["auto", "bfs", "cpsat"]


def add_swap(sub: SubParsers) -> None:
    """Register ``cpknight swap``."""
    parser = add_command(
        sub,
        "swap",
        _run_swap,
        examples="""
cpknight swap guarini --svg moves.svg --png moves.png
cpknight swap guy3x4 --method all --json
cpknight swap puzzle.txt --torus --animate swap.html""",
        description="The fewest moves that take the knights of PUZZLE from the\n"
        "start to the goal, one knight a move onto an empty cell (knights of\n"
        "one colour are interchangeable). bfs searches the placements from\n"
        "both ends; cpsat grows a planning model's horizon until it is\n"
        "feasible. Both prove the fewest. --method all runs both side by side.\n"
        "PUZZLE '-' reads the two drawings from standard input.",
        epilog=EXIT_CODES.replace("0  answered", "0  answered (the fewest moves)"),
    )
    add_swap_args(parser)
    add_method(
        parser,
        default="auto",
        several=True,
        choices=SWAP_METHODS,
        help="bfs (search over placements), cpsat (planning model), or auto "
        "(bfs unless the placements are too many to hold); several make a table",
    )
    add_solve_args(parser)
    add_json(parser)
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the moves as a strip of frames: the start, then the board "
        "after each move with its arrow, the goal letters in the corners",
    )
    parser.add_argument(
        "--animate",
        metavar="FILE",
        help="write an HTML page that plays the moves",
    )
    add_force(parser, "files given to --svg/--animate")
    add_drawing(parser, board=False)


def _run_swap(args: argparse.Namespace) -> int:
    from cpknight.api.swaps import try_swap

    if args.puzzle == "-":  # the two drawings on standard input
        args.puzzle = _drawings(read_stdin("PUZZLE"))
    outputs = new_files(args, "svg", "animate")
    options = solve_options_of(args)
    if args.method == "all" or "," in args.method:
        if args.svg or args.png or args.animate:
            raise InvalidInputError(
                "--svg, --png and --animate draw one answer: give one --method"
            )
        return _run_swap_table(args)
    outcome = try_swap(
        args.puzzle,
        piece=args.piece,
        topology=swap_topology(args),
        method=args.method,
        options=options,
    )

    def pictures(swap: Swap) -> None:
        if args.svg or args.png or args.animate:
            from cpknight.draw.swaps import swap_html, swap_svg

            write_files(
                args, svg=lambda: swap_svg(swap), animate=lambda: swap_html(swap)
            )

    def text(swap: Swap) -> str:
        return "\n".join([str(swap), *(f"wrote {path}" for path in outputs)])

    return report(args, outcome, text, pictures=pictures)


def _run_swap_table(args: argparse.Namespace) -> int:
    """``swap --method all`` (or a list): one row per engine, one table."""
    from cpknight.api.swaps import compare_swaps

    options = solve_options_of(args)
    comparison = compare_swaps(
        args.puzzle,
        piece=args.piece,
        topology=swap_topology(args),
        methods=args.method,
        options=options,
    )
    code = comparison_code(comparison)
    from cpknight.text.display import comparison_str

    return print_outcome(args, code, comparison.as_dict(), comparison_str(comparison))


def _drawings(text: str) -> str:
    r"""Standard input's text as drawings (never a puzzle's name or a path).

    Examples:
        >>> _drawings("W.\n\n.W"), _drawings("guarini")
        ('W.\n\n.W', 'guarini\n')
    """
    return text if "\n" in text else text + "\n"
