"""Subcommands about tours: tour, check, compare, sweep."""

from __future__ import annotations

import argparse
import sys

from cpknight.board import Board
from cpknight.checks import check_tour
from cpknight.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    SubParsers,
    _add_board_args,
    _add_force,
    _add_grid,
    _add_json,
    _add_progress,
    _add_solve_args,
    _add_tour_args,
    _board_and_piece,
    _command,
    _comparison_code,
    _ends_text,
    _grid_fits,
    _json,
    _new_files,
    _note,
    _out,
    _outcome,
    _progress_bar,
    _solve_options,
    _tour_ends,
    _write_files,
    _wrote,
)
from cpknight.cli.study import (
    _add_run_args,
    _run_options,
    _run_pair_sweep,
)
from cpknight.constraints import SYMMETRIES, TourConstraints, tour_constraints
from cpknight.errors import (
    InvalidInputError,
    TourCheckError,
)
from cpknight.io import (
    read_given_file,
    read_tour_file,
    tour_file_text,
    write_new_file,
    write_tour_file,
)
from cpknight.pieces import Leaper
from cpknight.render import (
    GRID_LIMIT,
    comparison_text,
    effort_text,
    outcome_line,
    sweep_text,
)
from cpknight.status import Status

# ------------------------------------------------------- side constraints


def _add_constraint_args(
    parser: argparse.ArgumentParser, *, positions: bool = True
) -> None:
    """``--via``, ``--given``, ``--require``, ``--forbid``, ``--symmetric``."""
    group = parser.add_argument_group("side constraints (CP-SAT honours them all)")
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
            "complete it",
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
    if positions:
        group.add_argument(
            "--magic",
            action="store_true",
            help="semi-magic: every rank, and every file, of visit numbers has "
            "the same sum (CP-SAT only; hard beyond small boards)",
        )


def _constraints(
    args: argparse.Namespace, board: Board, piece: Leaper
) -> TourConstraints | None:
    """The side constraints given on the command line, read and checked."""
    given = read_given_file(args.given, board) if getattr(args, "given", None) else []
    side = tour_constraints(
        board,
        piece,
        via=getattr(args, "via", []),
        require=args.require,
        forbid=args.forbid,
        symmetric=args.symmetric,
        given=given,
        magic=getattr(args, "magic", False),
    )
    return side or None


def _with(side: TourConstraints | None, board: Board) -> str:
    """`` with via d4@10``: the side constraints, for a heading."""
    return f" with {side.describe(board)}" if side else ""


# -------------------------------------------------------------------- check


def _add_check(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "check",
        _run_check,
        help="verify a tour given as a file of cells, one per line",
        description="Verify that FILE (one cell per line, algebraic like a1 or "
        "coordinates like 0,0; blank lines and lines starting with ';' ignored) "
        "is a tour of BOARD. Exit code 0 if it is, 1 if it is not.",
    )
    _add_board_args(parser)
    parser.add_argument(
        "file",
        metavar="FILE",
        help="the tour: one cell per line, a .npy array, or a .moves file; "
        "'-' reads standard input",
    )
    parser.add_argument(
        "--closed", action="store_true", help="also require the closing move"
    )
    _add_json(parser)


def _run_check(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    board.require_finite("a tour")
    source = sys.stdin.buffer if args.file == "-" else args.file
    cells = read_tour_file(source, board, piece)
    kind = "closed tour" if args.closed else "tour"
    try:
        check_tour(board, cells, piece=piece, closed=args.closed)
    except TourCheckError as exc:
        # "step" counts from 1, as the text does ("cell 6", "step 4 -> 5"):
        # the first bad cell, or the cell a bad move arrives at.
        step = None if exc.step is None else exc.step + 1
        return _outcome(
            args,
            EXIT_NONE,
            {"tour": False, "step": step, "reason": str(exc)},
            f"not a {kind}: {exc}",
        )
    return _outcome(
        args,
        EXIT_OK,
        {"tour": True, "step": None, "reason": None},
        f"ok: a {kind} of {len(cells)} cells on {board.label} ({piece.label})",
    )


def _add_tour(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "tour",
        _run_tour,
        help="find a tour: every open cell once, closed (default) or open",
        description="Find a tour of BOARD: every open cell exactly once, closed "
        "(the last cell one move from the first) unless --open. Prints the board "
        "with the visit number in each cell, the path, the outcome and the time.",
    )
    _add_tour_args(parser)
    parser.add_argument(
        "--method",
        default="auto",
        metavar="M",
        help="the engine (see 'cpknight compare --help'); default auto, which "
        "picks one for the instance and says which",
    )
    _add_solve_args(parser)
    _add_json(parser)
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="write the tour, one cell per line (FILE.npy: a numpy (n, d) array; "
        "FILE.moves: the first cell, then one character per move); "
        "'-' prints it alone on standard output",
    )
    parser.add_argument(
        "--svg", metavar="FILE", help="draw the tour as SVG (path, numbers, ends)"
    )
    parser.add_argument(
        "--animate",
        metavar="FILE",
        help="write an animated SVG of the knight walking the tour (no script)",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="write a one-file HTML page with play, pause and step buttons",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=4.0,
        metavar="N",
        help="moves per second for --animate and --html (default 4)",
    )
    _add_force(parser, "files given to --out, --svg, --animate, --html")
    _add_grid(parser, "the grid and path")
    parser.add_argument(
        "--log", action="store_true", help="stream the solver's search log to stderr"
    )
    _add_constraint_args(parser)


def _run_tour(args: argparse.Namespace) -> int:
    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    closed = not args.open
    outputs = _new_files(args, "out", "svg", "animate", "html")
    if args.out == "-" and args.json:
        raise InvalidInputError("--json and --out - both print to standard output")
    if args.animate or args.html:
        from cpknight.draw import check_animation

        check_animation(board.n_open, args.speed)
    kind = "closed" if closed else "open"
    side = _constraints(args, board, piece)
    from cpknight.api import try_tour

    run = options.start()  # the command's clock, which writing --out checks
    outcome = try_tour(
        board,
        piece=piece,
        closed=closed,
        start=args.start,
        end=args.end,
        method=args.method,
        options=options,
        constraints=side,
    )
    tour = outcome.tour
    if tour is None:
        code = EXIT_NONE if outcome.status is Status.INFEASIBLE else EXIT_LIMIT
        if outcome.interrupted:
            code = EXIT_INTERRUPTED
            _note("interrupted (Ctrl-C) before a tour was found")
        text = outcome_line(outcome)
        if code == EXIT_NONE:
            text = (
                f"no {kind} tour of {board.label} ({piece.label}){_with(side, board)}"
                f": {outcome.reason}"
            )
        return _outcome(args, code, outcome.as_dict(), text)
    if args.out == "-":
        # standard output carries the tour file alone; the report goes to stderr
        sys.stdout.write(tour_file_text(tour))
    elif args.out:
        write_tour_file(args.out, tour, force=args.force, run=run)
    if args.svg or args.animate or args.html:
        from cpknight.draw import tour_animation_svg, tour_html, tour_svg

        _write_files(
            args,
            svg=lambda: tour_svg(tour),
            animate=lambda: tour_animation_svg(tour, speed=args.speed),
            html=lambda: tour_html(tour, speed=args.speed),
        )
    if args.json:
        _json(outcome.as_dict())
        return EXIT_OK
    picked = " (picked by auto)" if args.method == "auto" else ""
    heading = (
        f"{kind} tour of {board.label} ({piece.label}), {len(tour)} cells, "
        f"found by {tour.method}{picked} in {tour.seconds:.3f} s"
    )
    if side:
        heading += f"\nside constraints checked: {side.describe(board)}"
    if args.out == "-":
        print(heading, file=sys.stderr)
        return EXIT_OK
    _out(heading)
    hint = "" if args.out else ", or --out FILE to save the tour"
    if _grid_fits(args, board, hint):
        _out(str(tour))
        _out("path: " + " ".join(tour.names()))
    _wrote(outputs)
    return EXIT_OK


# ------------------------------------------------------------ compare, sweep


def _add_compare(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "compare",
        _run_compare,
        help="run every tour engine on the same instance, side by side",
        description="Run each tour engine on the same instance with the same time\n"
        "limit and print one table: outcome (found, proved none, unknown),\n"
        "seconds, effort (search: attempts and backtracks; CP-SAT: branches\n"
        "and conflicts) and whether the tour passed the checker.\n\n"
        "engines:\n"
        "  cpsat       CP-SAT circuit model\n"
        "  backtrack   depth-first search, fixed move order\n"
        "  warnsdorff  the same, fewest onward moves first\n"
        "  prune       warnsdorff with critical-cell cuts and restarts\n"
        "  greedy      warnsdorff without backtracking (failing proves nothing)\n"
        "  tiles       huge plain boards from CP-SAT-built tiles",
    )
    _add_tour_args(parser)
    parser.add_argument(
        "--methods",
        default="all",
        metavar="LIST",
        help="comma-separated engines, or 'all' (default)",
    )
    _add_solve_args(parser, time_limit=10.0)
    _add_json(parser)
    _add_constraint_args(parser)


def _run_compare(args: argparse.Namespace) -> int:
    from cpknight.api import compare_tours

    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    closed = not args.open
    start, end = _tour_ends(args, board)
    side = _constraints(args, board, piece)
    comparison = compare_tours(
        board,
        piece=piece,
        closed=closed,
        start=start,
        end=end,
        methods=args.methods,
        options=options,
        constraints=side,
    )
    code = _comparison_code(comparison)
    if args.json:
        _json(comparison.as_dict())
        return code
    limit = "no limit"
    if options.time_limit is not None:
        limit = f"a limit of {options.time_limit:g} s each"
    kind = "closed" if closed else "open"
    where = _ends_text(board, start, end) + _with(side, board)
    heading = f"{kind} tour of {board.label} ({piece.label}){where}, {limit}"
    _out(comparison_text(comparison, heading))
    return code


def _add_sweep(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "sweep",
        _run_sweep,
        help="for every start cell: does a tour from it exist?",
        description="Ask for a tour from every open cell of BOARD in turn (open\n"
        "tours unless --closed) and draw the answers as a grid: o a tour\n"
        "starts here, x proved none, ? limit reached (--time-limit is per\n"
        "cell, --budget for the whole sweep). --json adds the time, effort and\n"
        "reason of every cell. Ctrl-C stops it at once and shows the cells\n"
        "finished (exit 130).",
    )
    _add_board_args(parser)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--open", action="store_true", help="open tours (paths), the default"
    )
    kind.add_argument("--closed", action="store_true", help="closed tours")
    parser.add_argument(
        "--pairs",
        action="store_true",
        help="open tours between every pair of cells: the start x end table "
        "(certificates answer most pairs without solving)",
    )
    parser.add_argument(
        "--method",
        default="auto",
        metavar="M",
        help="the engine (see 'cpknight compare --help'); default auto",
    )
    _add_solve_args(parser, time_limit=10.0)
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="worker processes, one cell each at a time (default 1; at most one "
        "per core)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="S",
        help="seconds for the whole sweep; cells left when it runs out are ? "
        "(default: none)",
    )
    _add_run_args(parser, jobs=False)
    _add_progress(parser)
    _add_json(parser)
    parser.add_argument(
        "--svg", metavar="FILE", help="draw the sweep as SVG (status, effort)"
    )
    _add_force(parser, "the file given to --svg")


def _run_sweep(args: argparse.Namespace) -> int:
    from cpknight.api import sweep

    if args.pairs:
        return _run_pair_sweep(args)
    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    outputs = _new_files(args, "svg")
    bar = _progress_bar(
        args, "swept {n} of {total} cells |{bar}| {elapsed}<{remaining}", board.n_open
    )

    def progress(done: int, total: int) -> None:
        bar.update(done - bar.n)

    try:
        result = sweep(
            board,
            piece=piece,
            closed=args.closed,
            method=args.method,
            options=options,
            progress=None if bar is None else progress,
            budget=args.budget,
            run=_run_options(args),
        )
    finally:
        if bar is not None:
            bar.close()
    counts = result.counts()
    if args.svg:
        from cpknight.draw import sweep_svg

        write_new_file(args.svg, sweep_svg(result), force=args.force)
    if args.json:
        _json(result.as_dict())
    else:
        kind = "closed" if result.closed else "open"
        limit = ""
        if options.time_limit is not None:
            limit = f", limit {options.time_limit:g} s per cell"
        _out(
            f"{kind} tours of {board.label} ({piece.label}) from each start cell, "
            f"by {result.method}{limit}:"
        )
        if board.size > GRID_LIMIT:
            _out(f"(the grid has {board.size} cells; use --json for every cell)")
            _out(", ".join(f"{k}: {v}" for k, v in counts.items()))
        else:
            _out(sweep_text(result))
        proved = [c for c in result.cells if c.status == "infeasible"]
        if proved:
            more = len(proved) - 1
            others = f" (and {more} more cells; --json gives each reason)"
            _out(
                f"why not {board.cell_name(proved[0].cell)}: {proved[0].reason}"
                + (others if more else "")
            )
        total = sum(c.seconds for c in result.cells)
        slow = max(result.cells, key=lambda c: c.seconds, default=None)
        if slow is not None:
            _out(
                f"{total:.3f} s in all; slowest {board.cell_name(slow.cell)} "
                f"({slow.seconds:.3f} s, {effort_text(slow.effort.as_dict())})"
            )
        _wrote(outputs)
    if result.interrupted:
        kept = args.resume or args.results
        tail = f"; kept in {kept} (--resume {kept} goes on)" if kept else ""
        _note(
            f"interrupted (Ctrl-C): the cells finished are shown, the rest are ?{tail}"
        )
        return EXIT_INTERRUPTED
    return EXIT_LIMIT if counts.get("unknown") else EXIT_OK
