"""The instance options two commands share: side constraints, a meal, a longest path.

Internal to the command line: ``tour``, ``compare``, ``count`` and ``formulation
tour`` read the same side constraints; ``collect`` and ``longest`` share their
instance options with their ``formulation`` subcommands, and so does ``swap``.
"""

from __future__ import annotations

import argparse

from cpknight.board import Board, Cell, Topology
from cpknight.cli.common import add_board_args, add_closed_open, read_stdin
from cpknight.constraints import (
    MAGIC_LINES,
    OBJECTIVES,
    SYMMETRIES,
    TourConstraints,
    tour_constraints,
)
from cpknight.errors import InvalidInputError
from cpknight.io import read_given_file
from cpknight.pieces import Leaper

# ------------------------------------------------------- side constraints


def add_constraint_args(
    parser: argparse.ArgumentParser,
    *,
    positions: bool = True,
    magic: bool = False,
    checking: bool = False,
) -> None:
    """``--via``, ``--given``, ``--require``, ``--forbid``, ``--symmetric``.

    ``checking``: for ``check``, which holds a tour to them rather than solves.
    """
    group = parser.add_argument_group(
        "side constraints (the tour must honour them)"
        if checking
        else "side constraints (CP-SAT honours them all)"
    )
    if positions:
        group.add_argument(
            "--via",
            action="append",
            default=[],
            metavar="CELL@K",
            help="the K-th cell of the tour (from 1) is CELL; repeatable",
        )
        group.add_argument(
            "--given",
            metavar="FILE",
            help="a board drawing (as tours print) with some visit numbers: "
            "complete it ('-' reads standard input)",
        )
    group.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="MOVE",
        help="a move the tour must use, like a1-b3; repeatable",
    )
    group.add_argument(
        "--forbid",
        action="append",
        default=[],
        metavar="MOVE",
        help="a move the tour must not use, like a1-b3; repeatable",
    )
    group.add_argument(
        "--symmetric",
        metavar="S",
        help=f"a closed tour that S maps onto itself: {', '.join(SYMMETRIES)}",
    )
    if positions or magic:
        group.add_argument(
            "--magic",
            nargs="?",
            const=True,
            default=False,
            choices=list(MAGIC_LINES),
            metavar="LINES",
            help="semi-magic: every rank, and every file, of visit numbers has "
            "the same sum"
            + ("" if checking else " (CP-SAT only; hard beyond small boards)")
            + "; --magic ranks or --magic files: those lines only",
        )
    if positions:
        group.add_argument(
            "--min",
            dest="minimise",
            choices=OBJECTIVES,
            help="the tour with the fewest turns (cells where the direction "
            "changes) or crossings (pairs of drawn moves that cross), by CP-SAT: "
            "optimal, or the best found with a proved bound at the limit",
        )


def constraints_of(
    args: argparse.Namespace, board: Board, piece: Leaper
) -> TourConstraints | None:
    """The side constraints given on the command line, read and checked."""
    given = _given(args.given, board) if getattr(args, "given", None) else []
    side = tour_constraints(
        board,
        piece,
        via=getattr(args, "via", []),
        require=args.require,
        forbid=args.forbid,
        symmetric=args.symmetric,
        given=given,
        magic=getattr(args, "magic", False),
        minimise=getattr(args, "minimise", None),
    )
    return side or None


def with_text(side: TourConstraints | None, board: Board) -> str:
    """`` with via d4@10``: the side constraints, for a heading."""
    return f" with {side.describe(board)}" if side else ""


# ------------------------------------------------------ collect, longest


def add_collect_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``collect`` and ``formulation collect``."""
    add_board_args(parser)
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


def add_longest_args(parser: argparse.ArgumentParser) -> None:
    """The instance options shared by ``longest`` and ``formulation longest``."""
    add_board_args(parser)
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
    add_closed_open(parser, closed=False, what="path")
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


def add_swap_args(parser: argparse.ArgumentParser) -> None:
    """PUZZLE, ``--piece`` and the topology: ``swap`` and ``formulation swap``."""
    parser.add_argument(
        "puzzle",
        metavar="PUZZLE",
        help="guarini, guy3xN (guy3x4), or a file of two drawings, start then "
        "goal, separated by a blank line (letters: knights by colour, '.' "
        "empty, '#' blocked; top rank first)",
    )
    parser.add_argument(
        "--piece",
        default="knight",
        metavar="P",
        help="a leaper like 1,3 or a name (knight, camel, zebra, giraffe, ...); "
        "default knight",
    )
    wrap = parser.add_mutually_exclusive_group()
    wrap.add_argument("--torus", action="store_true", help="every axis wraps around")
    wrap.add_argument(
        "--cylinder", action="store_true", help="the last axis (the files) wraps"
    )


def swap_topology(args: argparse.Namespace) -> Topology:
    """The topology ``--torus`` / ``--cylinder`` say (bounded without either)."""
    return "torus" if args.torus else "cylinder" if args.cylinder else "bounded"


def _given(path: str, board: Board) -> list[tuple[Cell, int]]:
    """The visit numbers drawn in the ``--given`` file (``-``: standard input)."""
    if path != "-":
        return read_given_file(path, board)
    from cpknight.constraints import read_given

    try:
        return read_given(read_stdin("given file"), board)
    except InvalidInputError as exc:
        raise InvalidInputError(f"given file '-': {exc}") from None


# ------------------------------------------------------------- a covering


def add_cover_args(
    parser: argparse.ArgumentParser, *, kinds: bool = True, every: bool = False
) -> None:
    """The options ``dominate``, ``independent`` and ``formulation cover`` share.

    With ``kinds``, the ``--total`` / ``--independent`` choice of ``dominate``
    (and with ``every``, ``--independent-set`` too, for ``formulation cover``).
    """
    add_board_args(parser)
    if kinds:
        kind = parser.add_mutually_exclusive_group()
        kind.add_argument(
            "--total",
            dest="kind",
            action="store_const",
            const="total",
            help="every cell attacked, the knights' own too (OEIS A261752)",
        )
        kind.add_argument(
            "--independent",
            dest="kind",
            action="store_const",
            const="independent",
            help="no two knights attack each other (OEIS A342576)",
        )
        if every:
            kind.add_argument(
                "--independent-set",
                dest="kind",
                action="store_const",
                const="independent-set",
                help="the most knights, no two attacking (OEIS A030978)",
            )
        parser.set_defaults(kind="dominating")
    else:
        parser.set_defaults(kind="independent-set")
    parser.add_argument(
        "--symmetry",
        action="store_true",
        help="break the board's reflections and rotations (keep the least image "
        "of each placement); with --count, count placements up to symmetry",
    )
