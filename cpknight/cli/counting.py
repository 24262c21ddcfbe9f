"""The count command: how many tours a board has (``cpknight count``).

One door answers (:func:`cpknight.api.counting.try_count`, or
:func:`~cpknight.api.counting.try_count_sharded` with ``--shards``); this module
reads the flags, shows progress, and prints the outcome as text or JSON.
"""

from __future__ import annotations

import argparse
from typing import Any

from cpknight.board import Board
from cpknight.cli.common import (
    SubParsers,
    add_command,
    add_json,
    add_method,
    add_progress,
    add_solve_args,
    add_tour_args,
    board_and_piece,
    ends_text,
    note,
    progress_bar,
    report,
    solve_options_of,
    tour_ends,
)
from cpknight.cli.instances import add_constraint_args, constraints_of, with_text
from cpknight.cli.running import (
    add_run_args,
    drop_automatic,
    interrupted_run,
    note_kept,
    quiet_late_ctrl_c,
    run_options,
    task_progress,
)
from cpknight.constraints import TourConstraints
from cpknight.counting import ENGINES
from cpknight.counting.kernels import (
    AUTO,
    DENSE,
    alternatives,
    kernel_choices,
    kernel_help,
    spread_names,
)
from cpknight.counting.symmetry import Classes
from cpknight.errors import InvalidInputError
from cpknight.pieces import Leaper
from cpknight.results import Outcome, TourCount
from cpknight.runtime.progress import Progress
from cpknight.status import Status
from cpknight.text.reports import count_report

__all__ = ["add_count"]

_DESCRIPTION = (
    "Count the tours of BOARD, closed (default) or open, in both "
    "conventions: directed (each tour in its two directions) and undirected. "
    "--method frontier adds the cells one at a time and groups partial "
    "tours by what the cells still to come can see (exponential in the "
    "short side, linear in the long one); subsets fills Held and Karp's DP "
    "over the sets of cells (n 2^n sums whatever the shape: tori and 3-D "
    "boxes of up to about 30 cells; pip install 'cpknight[fast]'); cpsat "
    "enumerates the tours one by one; auto (default) takes the frontier "
    "wherever it is narrow, subsets where that is sooner and fits --memory. "
    "A count stopped by --time-limit or Ctrl-C is reported as partial "
    "(the frontier program and subsets have no partial count: they report "
    "none). "
    "The enumeration runs on one CP-SAT worker whatever --workers says "
    "(with several, CP-SAT can report a tour twice). "
    "With --resume DIR the frontier program keeps its states on disk in "
    "buckets; --jobs N or --scheduler then share each cell's buckets among "
    "worker processes (the dense kernel; local workers share --memory). On a "
    "Dask cluster DIR must be on a file system every worker sees, at the "
    "same path."
)

_EXAMPLES = """\
cpknight count 6x6 --classes       # 9862 tours, 1245 up to the square's symmetries
cpknight count 6x6 --shards 16 --jobs 2 --method cpsat
cpknight count 8x8 --resume counts/8x8 --memory 16000 --jobs 2   # on disk, 2 processes
"""
"""Two or three command lines for ``--help``."""


def add_count(sub: SubParsers) -> None:
    """Register ``cpknight count``."""
    parser = add_command(
        sub,
        "count",
        _run_count,
        examples=_EXAMPLES,
        description=_DESCRIPTION,
    )
    add_tour_args(parser)
    add_method(
        parser,
        default="auto",
        choices=["auto", *ENGINES],
        help=f"how to count: auto, {', '.join(ENGINES)}",
    )
    parser.add_argument(
        "--prefixes",
        action="store_true",
        help="also count every prefix of the board in the same frontier run "
        "(6x20: 6x1 .. 6x20)",
    )
    parser.add_argument(
        "--kernel", default=AUTO, choices=kernel_choices(), help=kernel_help()
    )
    parser.add_argument(
        "--classes",
        action="store_true",
        help="also count the tours up to the board's symmetries (turns, mirrors, "
        "a torus's shifts), by Burnside's lemma: the count passes only if the "
        "sum divides (closed 6x6: 1245)",
    )
    add_solve_args(parser)
    add_json(parser)
    add_progress(parser)
    parser.add_argument(
        "--shards",
        type=int,
        metavar="N",
        help="split the count into at least N independent shards by fixing the "
        "first moves (--time-limit is then per shard), run as --jobs or "
        "--scheduler say, and sum them",
    )
    add_run_args(parser)
    add_constraint_args(parser, positions=False, magic=True)


def _run_count(args: argparse.Namespace) -> int:
    board, piece = board_and_piece(args)
    side = constraints_of(args, board, piece)
    if args.shards is None and args.resume is not None and args.method == "cpsat":
        raise InvalidInputError(
            "--resume without --shards keeps the frontier program's states; "
            "CP-SAT enumeration resumes in shards: add --shards N"
        )
    if args.classes:
        _check_classes(args, side)
    if args.shards is None:
        _check_spread(args)
        if args.resume == "-":
            raise InvalidInputError(
                "--resume without --shards takes a directory for the frontier "
                "program's states; '-' (standard input or output) cannot be one"
            )
    if args.shards is not None:
        from cpknight.runner import RunInterrupted

        try:
            outcome = _count_in_shards(args, board, piece, side)
        except RunInterrupted as exc:  # from the runner's own set-up
            return interrupted_run(exc)
        if not outcome.interrupted:
            drop_automatic(args)
    else:
        outcome = _count(args, board, piece, side)
    where = ends_text(board, *tour_ends(args, board)) + with_text(side, board)
    text = count_report(outcome, board, piece, closed=not args.open, where=where)
    data = outcome.as_dict()
    if args.classes:
        found = _classes(args, board, piece, outcome)
        if found is not None:
            text += (
                f"\nup to the board's {found.group} symmetries: {found.classes} "
                f"tours ({found.symmetric} fixed by a symmetry other than the "
                "identity; Burnside's sum divides)"
            )
            data["classes"] = {
                "classes": found.classes,
                "symmetries": found.group,
                "fixed": found.symmetric,
            }
    if outcome.interrupted and args.shards is not None:
        data["partial"] = True
    code = report(args, outcome, lambda _count: text, missing=text, data=data)
    if outcome.interrupted:
        quiet_late_ctrl_c()
    if outcome.interrupted and args.shards is not None:
        sharded = outcome.value
        done = sharded.shards - sharded.unfinished
        note_kept(done, sharded.shards, args.resume or args.results or args.automatic)
    elif args.resume is not None and outcome.status is not Status.FOUND:
        count = outcome.value
        stats = count.frontier if isinstance(count, TourCount) else None
        if stats is not None and stats.kernel in spread_names():  # on disk
            note(
                f"the finished cells are kept in {args.resume}: the same command "
                "goes on from the last one"
            )
    return code


def _check_classes(args: argparse.Namespace, side: TourConstraints | None) -> None:
    """Refuse ``--classes`` where the symmetries do not act on the tours counted."""
    fixed = [
        name
        for name, given in (
            ("--start", args.start),
            ("--end", args.end),
            ("--shards", args.shards),
            ("--prefixes", args.prefixes),
        )
        if given
    ]
    if side is not None:
        fixed.append("side constraints")
    if fixed:
        raise InvalidInputError(
            f"--classes counts all the tours of a board up to its symmetries: "
            f"not with {fixed[0]}"
        )


def _classes(
    args: argparse.Namespace, board: Board, piece: Leaper, outcome: Outcome
) -> Classes | None:
    """The tours of a finished count up to symmetry (None: not counted, said why)."""
    from cpknight.api.counting import tours_up_to_symmetry
    from cpknight.errors import SolveLimitError

    count = outcome.value
    if outcome.status is not Status.FOUND or not isinstance(count, TourCount):
        note("the tours up to symmetry need the whole count: not counted")
        return None
    try:
        return tours_up_to_symmetry(
            board,
            count.undirected,
            piece=piece,
            closed=not args.open,
            options=solve_options_of(args),
        )
    except SolveLimitError as exc:
        note(f"the tours up to symmetry: not counted ({exc})")
        return None


def _check_spread(args: argparse.Namespace) -> None:
    """Refuse the run options a count without shards cannot use (one line).

    ``--jobs`` and ``--scheduler`` share a count on disk (``--resume DIR``,
    the dense kernel, alone or met in the middle) among processes;
    ``--results`` is for shards only.
    """
    if args.results is not None:
        raise InvalidInputError("--results belongs to a sharded count: add --shards N")
    if args.jobs < 0:
        raise InvalidInputError(f"--jobs must be 0 (one per core) or more: {args.jobs}")
    spread = args.jobs != 1 or args.scheduler is not None
    if not spread:
        return
    option = "--scheduler" if args.scheduler is not None else "--jobs"
    if args.resume is None:
        raise InvalidInputError(
            f"{option} shares a count in shards (--shards N) or a count on disk "
            "(--resume DIR) among processes"
        )
    if args.method == "cpsat":
        raise InvalidInputError(
            f"{option} shares CP-SAT enumeration in shards: add --shards N"
        )
    spreads = spread_names()
    if args.kernel != AUTO and args.kernel not in spreads:
        raise InvalidInputError(
            f"{option} shares the {DENSE.name} kernel's buckets on disk, not the "
            f"{args.kernel} kernel (--kernel {alternatives(spreads)})"
        )
    if args.scheduler is not None:
        from cpknight.runner import check_scheduler

        check_scheduler(args.scheduler)


def _count(
    args: argparse.Namespace,
    board: Board,
    piece: Leaper,
    side: TourConstraints | None,
) -> Outcome:
    """The whole count, with a progress line."""
    from cpknight.api.counting import count_kernel_note, try_count

    if args.workers != 1:
        note(
            f"counting runs on one CP-SAT worker (with several, a tour can be "
            f"reported twice): --workers {args.workers} ignored"
        )
    # What the count is: asked of the kernel's note first, then counted.
    count_of: dict[str, Any] = {
        "piece": piece,
        "closed": not args.open,
        "start": args.start,
        "end": args.end,
        "method": args.method,
        "constraints": side,
        "prefixes": args.prefixes,
        "kernel": args.kernel,
        "checkpoint": args.resume,
        "jobs": _jobs(args.jobs),
        "scheduler": args.scheduler,
    }
    compiled = count_kernel_note(
        board, memory_mb=args.memory, time_limit=args.time_limit, **count_of
    )
    if compiled is not None:  # the compiled kernel not built yet: say so first
        note(compiled)
    bar = progress_bar(args, "counting: {desc} ({elapsed})")

    def progress(p: Progress) -> None:
        partial: TourCount = p.value
        stats = partial.frontier
        if stats is not None:
            live = stats.live[-1] if stats.live else 0
            text = f"cell {stats.done}/{stats.steps}, {live} live states"
        elif partial.steps is not None:  # over subsets: the layers done
            done, total = partial.steps
            text = f"{done}/{total} layers of sets"
        else:
            text = f"{partial.directed} directed tours so far"
        bar.set_description_str(text, refresh=False)
        bar.update(1)

    try:
        outcome = try_count(
            board,
            options=solve_options_of(args),
            progress=None if bar is None else progress,
            memory_mb=args.memory,
            **count_of,
        )
        count = outcome.value
        last = isinstance(count, TourCount) and count.frontier is None
        if bar is not None and last and count.steps is None:
            progress(Progress(count.directed, None, "tours", value=count))
    finally:
        if bar is not None:
            bar.close()
    return outcome


def _count_in_shards(
    args: argparse.Namespace,
    board: Board,
    piece: Leaper,
    side: TourConstraints | None,
) -> Outcome:
    """The CP-SAT count in shards on the runner, with a progress bar over them."""
    from cpknight.api.counting import try_count_sharded

    if side:
        raise InvalidInputError(
            "--shards splits the plain count; it takes no side constraints"
        )
    if args.method in ("frontier", "subsets"):
        what = "the frontier program" if args.method == "frontier" else "subsets"
        raise InvalidInputError(
            f"--shards splits the CP-SAT enumeration; {what} runs whole (drop "
            f"--shards or --method {args.method})"
        )
    start, end = tour_ends(args, board)
    bar, progress = task_progress(args, "shards")
    try:
        return try_count_sharded(
            board,
            piece=piece,
            closed=not args.open,
            start=start,
            end=end,
            shards=args.shards,
            options=solve_options_of(args),
            run=run_options(args, keep="count"),
            progress=progress,
        )
    finally:
        if bar is not None:
            bar.close()


def _jobs(jobs: int) -> int:
    """``--jobs``: 0 is one per core."""
    from cpknight.runner import usable_cores

    return usable_cores() if jobs == 0 else jobs
