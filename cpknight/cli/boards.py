"""The ``boards`` subcommand: the named boards, listed or drawn."""

from __future__ import annotations

import argparse

from cpknight.board import Board
from cpknight.cli.common import (
    EXIT_OK,
    SubParsers,
    add_command,
    add_drawing,
    add_force,
    add_json,
    new_files,
    out,
    print_json,
    read_stdin,
    write_picture,
)
from cpknight.named_boards import NAMED_BOARDS, NamedBoard
from cpknight.text.reports import board_json, boards_report

# ------------------------------------------------------------------- boards


def add_boards(sub: SubParsers) -> None:
    """Register ``cpknight boards``."""
    parser = add_command(
        sub,
        "boards",
        _run_boards,
        description="List the named boards, or draw one.",
        examples="""
cpknight boards
cpknight boards cross5 --svg cross.svg
cpknight boards --json""",
        epilog=None,
    )
    parser.add_argument(
        "name",
        nargs="?",
        metavar="NAME",
        help="draw only this board (a name, a size or a file; '-' reads the "
        "drawing from standard input)",
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="also draw the board (or every board) as SVG ('-': standard output)",
    )
    add_force(parser, "the file given to --svg")
    add_drawing(parser, board=False)
    add_json(parser)


def _run_boards(args: argparse.Namespace) -> int:
    outputs = new_files(args, "svg")
    entries: list[tuple[NamedBoard | None, Board]]
    if args.name == "-":
        drawing = read_stdin("NAME")
        entries = [(None, Board.from_ascii(drawing, source="standard input"))]
    elif args.name is not None:
        entries = [(None, Board.parse(args.name))]
    else:
        entries = [(named, Board.parse(named.name)) for named in NAMED_BOARDS.values()]
    boards = [board for _, board in entries]
    if args.svg or args.png:
        from cpknight.draw import board_svg, boards_svg

        picture = board_svg(boards[0]) if args.name else boards_svg(boards)
        write_picture(args, lambda: picture)
    if args.json:
        print_json({"boards": [board_json(board) for board in boards]})
        return EXIT_OK
    headings = [
        f"{board.label}: {board.size_label}, {board.n_open} open cells"
        if named is None
        else f"{named.name}: {named.description} "
        f"({board.size_label}, {board.n_open} open cells)"
        for named, board in entries
    ]
    out(boards_report(list(zip(headings, boards, strict=True)), outputs))
    return EXIT_OK
