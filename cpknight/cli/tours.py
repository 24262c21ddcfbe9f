"""Subcommands about tours: check, tour, compare, sweep (and sweep --pairs)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from cpknight.api.tours import tour_instance
from cpknight.checks import check_tour
from cpknight.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    Deprecated,
    SubParsers,
    add_board_args,
    add_closed_open,
    add_command,
    add_drawing,
    add_force,
    add_grid,
    add_json,
    add_method,
    add_progress,
    add_solve_args,
    add_tour_args,
    animation_of,
    board_and_piece,
    claim_stdin,
    comparison_code,
    drawing_of,
    ends_text,
    grid_fits,
    new_files,
    note,
    out,
    print_json,
    print_outcome,
    progress_bar,
    read_stdin,
    report,
    share_clock,
    show_progress,
    solve_options_of,
    tour_ends,
    write_files,
    write_picture,
)
from cpknight.cli.instances import add_constraint_args, constraints_of, with_text
from cpknight.cli.running import (
    add_run_args,
    drop_automatic,
    interrupted_run,
    run_options,
    task_progress,
)
from cpknight.errors import InvalidInputError, TourCheckError
from cpknight.io import (
    read_tour_file,
    tour_file_text,
    write_tour_file,
)
from cpknight.results import Tour, is_a
from cpknight.runtime.progress import Progress
from cpknight.text.render import GRID_LIMIT, comparison_text
from cpknight.text.reports import (
    limit_text,
    pairs_report,
    sweep_report,
    tour_heading,
    tour_report,
)

if TYPE_CHECKING:
    from cpknight.board import Board, Cell
    from cpknight.pieces import Leaper
    from cpknight.results import ScoredTour
    from cpknight.solving import Run

# -------------------------------------------------------------------- check


def add_check(sub: SubParsers) -> None:
    """Register ``cpknight check``."""
    parser = add_command(
        sub,
        "check",
        _run_check,
        examples="""
cpknight tour 8x8 --out tour.txt && cpknight check 8x8 tour.txt
cpknight tour 6x6 --open --out - | cpknight check 6x6 - --open --json
cpknight check 8x10 magic.txt --magic   # every rank and file sums alike""",
        description="Verify that FILE (one cell per line, algebraic like a1 or "
        "coordinates like 0,0; blank lines and lines starting with ';' ignored) "
        "is a tour of BOARD, and that it honours the side constraints given "
        "(--magic, --symmetric, --require, --forbid). Exit code 0 if it does, 1 "
        "if it does not.",
    )
    add_board_args(parser)
    parser.add_argument(
        "file",
        metavar="FILE",
        help="the tour: one cell per line, a .npy array, or a .moves file; "
        "'-' reads standard input",
    )
    add_closed_open(parser)
    add_constraint_args(parser, positions=False, magic=True, checking=True)
    add_json(parser)


def _run_check(args: argparse.Namespace) -> int:
    board, piece = board_and_piece(args)
    board.require_finite("a tour")
    if args.file == "-":
        claim_stdin("FILE")
    source = sys.stdin.buffer if args.file == "-" else args.file
    cells = read_tour_file(source, board, piece)
    closed = not args.open
    side = constraints_of(args, board, piece)
    if side is not None:  # a symmetric open tour is refused, as tour refuses it
        tour_instance(board, piece, None, None, closed=closed, constraints=side)
    kind = "a closed tour" if closed else "an open tour"
    honours = with_text(side, board)  # " with magic", say
    try:
        check_tour(board, cells, piece=piece, closed=closed, constraints=side)
    except TourCheckError as exc:
        # "step" counts from 1, as the text does ("cell 6", "step 4 -> 5"):
        # the first bad cell, or the cell a bad move arrives at.
        step = None if exc.step is None else exc.step + 1
        return print_outcome(
            args,
            EXIT_NONE,
            {"tour": False, "step": step, "reason": str(exc)},
            f"not {kind}{honours}: {exc}",
        )
    return print_outcome(
        args,
        EXIT_OK,
        {"tour": True, "step": None, "reason": None},
        f"ok: {kind} of {len(cells)} cells on {board.label} ({piece.label}){honours}",
    )


def add_tour(sub: SubParsers) -> None:
    """Register ``cpknight tour``."""
    parser = add_command(
        sub,
        "tour",
        _run_tour,
        examples="""
cpknight tour 8x8
cpknight tour 6x7 --open --start a1 --svg tour.svg
cpknight tour 8x8 --open --given so-far.txt   # can this partial tour finish?""",
        description="Find a tour of BOARD: every open cell exactly once, closed "
        "(the last cell one move from the first) unless --open. Prints the board "
        "with the visit number in each cell, the path, the outcome and the time. "
        "To ask whether a partial tour can still be finished, give it to --given "
        "as a tour file (the cells so far, one a line, as --out writes them): "
        "the answer is a tour that begins with it, or why none can (a dead end, "
        "a cell left with one free neighbour, a cut, the colour count, or the "
        "solver's proof; exit 1). --given also reads a board drawing with some "
        "visit numbers, and completes those.",
    )
    add_tour_args(parser)
    add_method(
        parser,
        default="auto",
        help="the engine (see 'cpknight compare --help'); auto picks one for the "
        "instance and says which",
    )
    add_solve_args(parser)
    add_json(parser)
    _add_tour_files(parser)
    add_grid(parser, "the grid and path")
    parser.add_argument(
        "--log", action="store_true", help="stream the solver's search log to stderr"
    )
    add_constraint_args(parser)


def _add_tour_files(parser: argparse.ArgumentParser) -> None:
    """The files a found tour is written to: the cells and three pictures."""
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="write the tour, one cell per line (FILE.npy: a numpy (n, d) array; "
        "FILE.moves: the first cell, then one character per move); "
        "'-' prints it alone on standard output",
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the tour as SVG (path, numbers, ends); '-': standard output",
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
    add_force(parser, "files given to --out, --svg, --animate, --html")
    add_drawing(parser)


def _run_tour(args: argparse.Namespace) -> int:
    board, piece = board_and_piece(args)
    options = solve_options_of(args)
    closed = not args.open
    outputs = new_files(args, "out", "svg", "animate", "html")
    args.drawing = drawing_of(args, board)
    if args.animate or args.html:
        from cpknight.draw import check_animation

        check_animation(board.n_open, args.speed)
    kind = "closed" if closed else "open"
    path = _given_path(args, board) if args.given else None
    if path is not None:
        return _run_completion(args, board, piece, path, outputs)
    side = constraints_of(args, board, piece)
    from cpknight.api import try_tour

    run = options.start()  # the command's clock, which writing --out checks
    share_clock(run)  # and the solve's: both count from the process's start
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
    what = f"{board.label} ({piece.label}){with_text(side, board)}"
    none = f"no {kind} tour of {what}: {outcome.reason}"
    side_text = side.describe(board) if side else ""
    pictures, text = _tour_answer(args, board, outputs, run, side_text)

    # a tour with the fewest turns or crossings is, after Ctrl-C, the best so far
    partial = (
        f"interrupted (Ctrl-C): the tour with the fewest {side.minimise} found so "
        "far, not proved fewest"
        if side is not None and side.minimise
        else None
    )
    return report(args, outcome, text, pictures=pictures, none=none, partial=partial)


def _tour_answer(
    args: argparse.Namespace,
    board: Board,
    outputs: list[str],
    run: Run,
    side_text: str,
) -> tuple[Callable[[Tour], None], Callable[[Tour], str]]:
    """A found tour's files (``--out``, pictures) and its text, for ``report``."""

    def pictures(tour: Tour) -> None:
        if args.out == "-":  # --json with it is refused up front
            sys.stdout.write(tour_file_text(tour))
        elif args.out:
            write_tour_file(args.out, tour, force=args.force, run=run)
        _draw_tour(args, tour)

    def text(tour: Tour) -> str:
        picked = args.method == "auto"
        if args.out == "-":  # the tour file has standard output: report on stderr
            return tour_heading(tour, picked=picked, side=side_text)
        return tour_report(
            tour,
            picked=picked,
            side=side_text,
            grid=grid_fits(args, board),
            hint="" if args.out else ", or --out FILE to save the tour",
            wrote=outputs,
        )

    return pictures, text


def _given_path(args: argparse.Namespace, board: Board) -> list[Cell] | None:
    """The cells of a ``--given`` tour file (a partial tour); ``None`` for a drawing.

    The file is read once (it may be standard input): a drawing's visit
    numbers join ``--via``, where the side constraints read them.
    """
    from cpknight.io import read_given_drawing, read_given_text, read_partial_tour

    source = args.given
    text = read_stdin("given file") if source == "-" else read_given_text(source)
    cells = read_partial_tour(text, board, source)
    if cells is None:
        given = read_given_drawing(text, board, source)
        args.via = [*args.via, *(f"{board.cell_name(c)}@{k}" for c, k in given)]
        args.given = None
    return cells


def _run_completion(
    args: argparse.Namespace,
    board: Board,
    piece: Leaper,
    path: list[Cell],
    outputs: list[str],
) -> int:
    """``cpknight tour BOARD --given FILE`` of cells: can the partial tour finish?"""
    from cpknight.api import complete_tour

    taken = {
        "--via": args.via,
        "--require": args.require,
        "--forbid": args.forbid,
        "--symmetric": args.symmetric,
        "--magic": args.magic,
        "--min": args.minimise,
    }
    refused = [flag for flag, value in taken.items() if value]
    if refused:
        raise InvalidInputError(
            "a partial tour (--given FILE of cells) is finished as it stands: drop "
            + ", ".join(refused)
        )
    if args.start is not None and board.parse_cell(args.start) != tuple(path[0]):
        raise InvalidInputError(
            f"--start {args.start} is not the partial tour's first cell "
            f"{board.cell_name(path[0])}: drop --start"
        )
    options = solve_options_of(args)
    run = options.start()  # the command's clock, which writing --out checks
    share_clock(run)
    closed = not args.open
    outcome = complete_tour(
        board,
        path,
        piece=piece,
        closed=closed,
        end=args.end,
        method=args.method,
        options=options,
    )
    kind = "a closed" if closed else "an open"
    none = (
        f"the partial tour of {len(path)} cells cannot be finished as {kind} "
        f"tour of {board.label} ({piece.label}): {outcome.reason}"
    )
    side_text = f"cells 1 to {len(path)} are the given partial tour"
    pictures, text = _tour_answer(args, board, outputs, run, side_text)
    return report(args, outcome, text, pictures=pictures, none=none)


def _draw_tour(args: argparse.Namespace, tour: Tour) -> None:
    """Write the ``--svg``, ``--animate`` and ``--html`` pictures of a tour."""
    if args.svg or args.png or args.animate or args.html:
        from cpknight.draw import tour_animation_svg, tour_html, tour_svg

        def picture() -> str:
            if is_a(tour, "ScoredTour"):  # its turns or crossings marked
                from cpknight.draw.objectives import scored_tour_svg

                return scored_tour_svg(cast("ScoredTour", tour))
            return tour_svg(tour, **args.drawing)

        write_files(
            args,
            svg=picture,
            animate=lambda: tour_animation_svg(
                tour, speed=args.speed, **animation_of(args.drawing)
            ),
            html=lambda: tour_html(
                tour, speed=args.speed, **animation_of(args.drawing)
            ),
        )


# ------------------------------------------------------------ compare, sweep


def add_compare(sub: SubParsers) -> None:
    """Register ``cpknight compare``."""
    parser = add_command(
        sub,
        "compare",
        _run_compare,
        examples="""
cpknight compare 8x8
cpknight compare 5x5 --open --method cpsat,prune --time-limit 5
cpknight compare 10x10 --json""",
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
    add_tour_args(parser)
    add_method(parser, default="all", several=True, help="the engines")
    parser.add_argument(
        "--methods", dest="method", action=Deprecated, instead="use --method"
    )
    add_solve_args(parser, per=", per engine")
    add_json(parser)
    add_progress(parser)
    add_constraint_args(parser)


def _run_compare(args: argparse.Namespace) -> int:
    from cpknight.api import compare_tours

    board, piece = board_and_piece(args)
    options = solve_options_of(args)
    closed = not args.open
    start, end = tour_ends(args, board)
    side = constraints_of(args, board, piece)
    comparison = compare_tours(
        board,
        piece=piece,
        closed=closed,
        start=start,
        end=end,
        methods=args.method,
        options=options,
        constraints=side,
        progress=show_progress(args),
    )
    code = comparison_code(comparison)
    limit = limit_text(options.time_limit)
    kind = "closed" if closed else "open"
    where = ends_text(board, start, end) + with_text(side, board)
    heading = f"{kind} tour of {board.label} ({piece.label}){where}, {limit}"
    text = comparison_text(comparison, heading)
    # The JSON document only when asked for: a huge board's cells as lists
    # take seconds (3000x3000: 9 s) that the text never reads.
    document = comparison.as_dict() if args.json else None
    return print_outcome(args, code, document, text)


def add_sweep(sub: SubParsers) -> None:
    """Register ``cpknight sweep``."""
    parser = add_command(
        sub,
        "sweep",
        _run_sweep,
        examples="""
cpknight sweep 5x5 --open
cpknight sweep 6x6 --jobs 0 --svg sweep.svg
cpknight sweep 5x5 --pairs --json""",
        description="Ask for a tour from every open cell of BOARD in turn (closed\n"
        "tours unless --open) and draw the answers as a grid: o a tour\n"
        "starts here, x proved none, ? limit reached (--time-limit is per\n"
        "cell, --budget for the whole sweep). --json adds the time, effort and\n"
        "reason of every cell. Ctrl-C stops it at once and shows the cells\n"
        "finished (exit 130).",
    )
    add_board_args(parser)
    _add_sweep_tours(parser)
    add_method(
        parser, default="auto", help="the engine (see 'cpknight compare --help')"
    )
    add_solve_args(parser, per=", per cell")
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="S",
        help="seconds for the whole sweep; cells left when it runs out are ? "
        "(default: none)",
    )
    add_run_args(parser)
    add_progress(parser)
    add_json(parser)
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the sweep as SVG (status, effort); '-': standard output",
    )
    add_force(parser, "the file given to --svg")
    add_drawing(parser)


def _add_sweep_tours(parser: argparse.ArgumentParser) -> None:
    """Which tours a sweep asks for: closed or ``--open``, or ``--pairs``.

    ``args.open`` is None unless a flag is given (closed all the same), so
    that ``--pairs --closed`` can be refused.
    """
    add_closed_open(parser, what="tour from each cell")
    parser.set_defaults(open=None)
    parser.add_argument(
        "--pairs",
        action="store_true",
        help="open tours (--open implied) between every pair of cells: the "
        "start x end table (certificates answer most pairs without solving)",
    )


def _run_sweep(args: argparse.Namespace) -> int:
    from cpknight.api import sweep

    if args.pairs:
        return _run_pair_sweep(args)
    board, piece = board_and_piece(args)
    options = solve_options_of(args)
    outputs = new_files(args, "svg")
    drawing = drawing_of(args, board)
    bar = progress_bar(
        args, "swept {n} of {total} cells |{bar}| {elapsed}<{remaining}", board.n_open
    )

    def progress(p: Progress) -> None:
        bar.update(int(p.done) - bar.n)

    try:
        result = sweep(
            board,
            piece=piece,
            closed=not args.open,
            method=args.method,
            options=options,
            progress=None if bar is None else progress,
            budget=args.budget,
            run=run_options(args),
        )
    finally:
        if bar is not None:
            bar.close()
    counts = result.counts()
    if args.svg or args.png:
        from cpknight.draw import sweep_svg

        write_picture(args, lambda: sweep_svg(result, **drawing))
    if args.json:
        print_json(result.as_dict())
    else:
        grid = board.size <= GRID_LIMIT
        out(sweep_report(result, options.time_limit, grid, outputs))
    if result.interrupted:
        kept = args.resume or args.results
        tail = f"; kept in {kept} (--resume {kept} goes on)" if kept else ""
        note(
            f"interrupted (Ctrl-C): the cells finished are shown, the rest are ?{tail}"
        )
        return EXIT_INTERRUPTED
    return EXIT_LIMIT if counts.get("unknown") else EXIT_OK


# ---------------------------------------------------------------- pair sweep


def _run_pair_sweep(args: argparse.Namespace) -> int:
    """``cpknight sweep BOARD --pairs``: the start x end table of open tours."""
    from cpknight.runner import RunInterrupted
    from cpknight.study import sweep_pairs

    if args.open is False:
        raise InvalidInputError("--pairs asks about open tours; drop --closed")
    board, piece = board_and_piece(args)
    if drawing_of(args, board):
        raise InvalidInputError(
            "--pairs draws a start x end table: --flip, --theme, --highlight, "
            "--arrow, --crop and --no-coordinates draw boards"
        )
    options = solve_options_of(args)
    outputs = new_files(args, "svg")
    run = run_options(args, keep="pairs")
    bar, progress = task_progress(args, "pairs solved")
    try:
        result = sweep_pairs(
            board,
            piece=piece,
            method=args.method,
            options=options,
            run=run,
            progress=progress,
            budget=args.budget,
        )
    except RunInterrupted as exc:
        if bar is not None:
            bar.close()
            bar = None
        if exc.partial is not None:  # the pairs finished; the rest are ?
            if args.json:
                print_json({**exc.partial.as_dict(), "partial": True})
            else:
                out(pairs_report(exc.partial, options.time_limit, []))
                out("partial: interrupted (Ctrl-C); the pairs not finished are ?")
        return interrupted_run(exc)
    finally:
        if bar is not None:
            bar.close()
    drop_automatic(args)
    counts = result.counts()
    if args.svg or args.png:
        from cpknight.draw.pairs import pairs_svg

        write_picture(args, lambda: pairs_svg(result))
    code = EXIT_LIMIT if counts.get("unknown") else EXIT_OK
    if args.json:
        print_json(result.as_dict())
        return code
    out(pairs_report(result, options.time_limit, outputs))
    return code
