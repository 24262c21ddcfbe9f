"""Subcommands of many solves: study, sweep --pairs, count --shards; run options."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cpknight.cli.common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    SubParsers,
    _add_force,
    _add_progress,
    _add_solve_args,
    _board_and_piece,
    _command,
    _ends_text,
    _json,
    _new_files,
    _out,
    _outcome,
    _progress_bar,
    _solve_options,
    _tour_ends,
    _wrote,
)
from cpknight.errors import InvalidInputError
from cpknight.io import write_new_file
from cpknight.render import GRID_LIMIT, grid_text
from cpknight.results import Outcome
from cpknight.status import Effort, Status

if TYPE_CHECKING:
    from cpknight.runner import RunInterrupted, RunOptions

__all__ = ["interrupted_run"]


# -------------------------------------------------------------- run options


def _add_run_args(parser: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    """``--jobs``, ``--scheduler``, ``--results``, ``--resume``: how to run tasks."""
    group = parser.add_argument_group("running many solves")
    if jobs:
        group.add_argument(
            "--jobs",
            type=int,
            metavar="N",
            help="worker processes, capped at the cores (default: one per core; "
            "1 runs in this process)",
        )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster: its scheduler's address (tcp://host:8786), "
        "or 'local' to start a LocalCluster of --jobs workers here (needs "
        "pip install 'cpknight[dask]')",
    )
    files = group.add_mutually_exclusive_group()
    files.add_argument(
        "--results",
        metavar="FILE",
        help="append each result to FILE (JSON lines, a new file) as it arrives",
    )
    files.add_argument(
        "--resume",
        metavar="FILE",
        help="continue the run whose results are in FILE: skip the tasks it "
        "holds, append the rest",
    )


def _run_options(args: argparse.Namespace) -> RunOptions:
    from cpknight.runner import RunOptions, usable_cores

    jobs = usable_cores() if args.jobs is None else args.jobs
    return RunOptions(
        jobs=jobs,
        scheduler=args.scheduler,
        results=args.resume or args.results,
        resume=bool(args.resume),
    )


def _task_progress(
    args: argparse.Namespace, what: str
) -> tuple[Any, Callable[[int, int], None] | None]:
    """A progress bar over tasks (done / total, time left) and its callback."""
    bar = _progress_bar(
        args, f"{{n}} of {{total}} {what} |{{bar}}| {{elapsed}}<{{remaining}}"
    )
    if bar is None:
        return None, None

    def progress(done: int, total: int) -> None:
        if bar.total is None:
            bar.total = total
            bar.initial = bar.n = done  # resumed tasks do not count in the rate
            bar.refresh()
        else:
            bar.update(done - bar.n)

    return bar, progress


def interrupted_run(exc: RunInterrupted) -> int:
    """Say how much of an interrupted run is kept, and how to go on; exit 130."""
    if exc.results is not None:
        where = f"; kept in {exc.results} (--resume {exc.results} goes on)"
    else:
        where = "; add --results FILE to keep what is done"
    print(
        f"cpknight: interrupted after {exc.done} of {exc.total} tasks{where}",
        file=sys.stderr,
    )
    return EXIT_INTERRUPTED


# -------------------------------------------------------------------- study


def _add_study(sub: SubParsers) -> None:
    parser = _command(
        sub,
        "study",
        _run_study,
        help="run a suite of instances through several engines, compare, profile",
        description="Run every instance of SUITE (one a line: a board, then flags\n"
        "such as --open, --start a1, --end h8, --piece camel, --torus; '#'\n"
        "starts a comment) through every engine of --engines with the same time\n"
        "limit, on a local pool or a Dask cluster. Every tour is checked again\n"
        "and the answers are compared across engines. Prints a summary per\n"
        "engine: solved, proved none, limit, refused, wrong (which must be 0).",
    )
    parser.add_argument("suite", metavar="SUITE", help="the suite file")
    parser.add_argument(
        "--engines",
        default="cpsat,prune,warnsdorff",
        metavar="LIST",
        help="comma-separated tour engines (default cpsat,prune,warnsdorff)",
    )
    _add_solve_args(parser, time_limit=10.0)
    parser.add_argument("--csv", metavar="FILE", help="one line per run, as CSV")
    parser.add_argument(
        "--json", metavar="FILE", help="the summary and every run, as JSON"
    )
    parser.add_argument(
        "--svg", metavar="FILE", help="the Dolan-More performance profile, as SVG"
    )
    parser.add_argument(
        "--time-svg",
        metavar="FILE",
        help="instances answered versus time, per engine, as SVG",
    )
    _add_run_args(parser)
    _add_progress(parser)
    _add_force(parser, "the files given to --csv, --json, --svg, --time-svg")


def _run_study(args: argparse.Namespace) -> int:
    import json

    from cpknight.runner import RunInterrupted
    from cpknight.study import read_suite, run_study

    suite = read_suite(args.suite)
    options = _solve_options(args)
    run = _run_options(args)
    outputs = _new_files(args, "csv", "json", "svg", "time_svg")
    bar, progress = _task_progress(args, "runs")
    try:
        study = run_study(
            suite, methods=args.engines, options=options, run=run, progress=progress
        )
    except RunInterrupted as exc:
        return interrupted_run(exc)
    finally:
        if bar is not None:
            bar.close()
    if args.csv:
        write_new_file(args.csv, study.csv_text(), force=args.force)
    if args.json:
        text = json.dumps(study.as_dict(), indent=1) + "\n"
        write_new_file(args.json, text, force=args.force)
    if args.svg or args.time_svg:
        from cpknight.draw.study import profile_svg, solved_time_svg

        if args.svg:
            write_new_file(args.svg, profile_svg(study), force=args.force)
        if args.time_svg:
            write_new_file(args.time_svg, solved_time_svg(study), force=args.force)
    limit = "no limit"
    if options.time_limit is not None:
        limit = f"a limit of {options.time_limit:g} s each"
    _out(
        f"study of {args.suite}: {len(study.instances)} instances x "
        f"{len(study.engines)} engines, {limit}"
    )
    _out(_summary_text(study.summary()))
    wrong = study.wrong()
    for row in wrong[:10]:
        _out(f"WRONG: {row['engine']} on '{row['instance']}': {row['wrong']}")
    if not wrong:
        _out("wrong: none (every tour checked, every answer agrees)")
    _wrote(outputs)
    return EXIT_INTERNAL if wrong else EXIT_OK


def _summary_text(summary: dict[str, dict[str, Any]]) -> str:
    """The per-engine summary as an aligned table."""
    heads = ["engine", "solved", "proved none", "limit", "refused", "wrong", "seconds"]
    lines = [[name, *(str(v[h]) for h in heads[1:])] for name, v in summary.items()]
    widths = [max(len(r[k]) for r in [heads, *lines]) for k in range(len(heads))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest])

    return "\n".join([line(heads), *(line(r) for r in lines)])


# ---------------------------------------------------------------- pair sweep


def _run_pair_sweep(args: argparse.Namespace) -> int:
    """``cpknight sweep BOARD --pairs``: the start x end table of open tours."""
    from cpknight.runner import RunInterrupted
    from cpknight.study import sweep_pairs

    if args.closed:
        raise InvalidInputError("--pairs asks about open tours; drop --closed")
    board, piece = _board_and_piece(args)
    options = _solve_options(args)
    run = _run_options(args)
    outputs = _new_files(args, "svg")
    bar, progress = _task_progress(args, "pairs solved")
    try:
        result = sweep_pairs(
            board,
            piece=piece,
            method=args.method,
            options=options,
            run=run,
            progress=progress,
        )
    except RunInterrupted as exc:
        return interrupted_run(exc)
    finally:
        if bar is not None:
            bar.close()
    counts = result.counts()
    if args.svg:
        from cpknight.draw.pairs import pairs_svg

        write_new_file(args.svg, pairs_svg(result), force=args.force)
    code = EXIT_LIMIT if counts.get("unknown") else EXIT_OK
    if args.json:
        _json(result.as_dict())
        return code
    limit = ""
    if options.time_limit is not None:
        limit = f", limit {options.time_limit:g} s per pair"
    _out(
        f"open tours of {board.label} ({piece.label}) between every pair of "
        f"cells, by {result.method}{limit}:"
    )
    by_search = counts["infeasible"] - result.certified
    _out(
        f"{len(result.pairs)} pairs: {counts['found']} joined by a tour, "
        f"{counts['infeasible']} by none ({result.certified} by a certificate "
        f"without solving, {by_search} by search), {counts['unknown']} unknown"
    )
    if board.size <= GRID_LIMIT:
        ends = result.ends_from()
        _out("how many cells an open tour from each cell can end on:")
        _out(grid_text(board, lambda c: str(ends[c]) if c in ends else "#"))
    _wrote(outputs)
    return code


# ------------------------------------------------------------ sharded count


def _run_sharded_count(args: argparse.Namespace) -> int:
    """``cpknight count BOARD --shards N``: the count in independent shards."""
    from cpknight.runner import RunInterrupted
    from cpknight.study import count_tours_sharded

    board, piece = _board_and_piece(args)
    closed = not args.open
    start, end = _tour_ends(args, board)
    bar, progress = _task_progress(args, "shards")
    try:
        result = count_tours_sharded(
            board,
            piece=piece,
            closed=closed,
            start=start,
            end=end,
            shards=args.shards,
            options=_solve_options(args),
            run=_run_options(args),
            progress=progress,
        )
    except RunInterrupted as exc:
        return interrupted_run(exc)
    finally:
        if bar is not None:
            bar.close()
    count = result.count
    done = count.status is Status.FOUND
    code = EXIT_OK if done else EXIT_LIMIT
    least = "" if done else "at least "
    why = (
        "complete"
        if done
        else f"partial: {result.unfinished} of {result.shards} shards hit the limit"
    )
    kind = "closed" if closed else "open"
    return _outcome(
        args,
        code,
        {
            **Outcome(
                "count",
                "cpsat",
                count.status,
                count.seconds,
                Effort(solutions=count.undirected),
                value=count,
                reason=None if done else why,
            ).as_dict(),
            "shards": result.shards,
        },
        f"{kind} tours of {board.label} ({piece.label})"
        f"{_ends_text(board, start, end)}: {least}{count.directed} directed, "
        f"{least}{count.undirected} undirected ({why}; {result.shards} shards, "
        f"{count.seconds:.3f} s)",
    )
