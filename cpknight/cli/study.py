"""Subcommands of many solves: study, sweep --pairs, count --shards; run options."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cpknight.cli.common import (
    EXIT_INTERNAL,
    EXIT_OK,
    SubParsers,
    add_command,
    add_force,
    add_progress,
    add_solve_args,
    new_files,
    out,
    solve_options_of,
    write_output,
    wrote,
)
from cpknight.cli.running import (
    add_run_args,
    interrupted_run,
    run_options,
    task_progress,
)
from cpknight.render import limit_text, summary_text

if TYPE_CHECKING:
    pass

__all__ = ["add_study"]


# -------------------------------------------------------------------- study


def add_study(sub: SubParsers) -> None:
    """Register ``cpknight study``."""
    parser = add_command(
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
    add_solve_args(parser, time_limit=10.0)
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
    add_run_args(parser)
    add_progress(parser)
    add_force(parser, "the files given to --csv, --json, --svg, --time-svg")


def _run_study(args: argparse.Namespace) -> int:
    import json

    from cpknight.runner import RunInterrupted
    from cpknight.study import read_suite, run_study

    suite = read_suite(args.suite)
    options = solve_options_of(args)
    run = run_options(args)
    outputs = new_files(args, "csv", "json", "svg", "time_svg")
    bar, progress = task_progress(args, "runs")
    try:
        study = run_study(
            suite, engines=args.engines, options=options, run=run, progress=progress
        )
    except RunInterrupted as exc:
        return interrupted_run(exc)
    finally:
        if bar is not None:
            bar.close()
    if args.csv:
        write_output(args.csv, study.csv_text(), force=args.force)
    if args.json:
        text = json.dumps(study.as_dict(), indent=1) + "\n"
        write_output(args.json, text, force=args.force)
    if args.svg or args.time_svg:
        from cpknight.draw.study import profile_svg, solved_time_svg

        if args.svg:
            write_output(args.svg, profile_svg(study), force=args.force)
        if args.time_svg:
            write_output(args.time_svg, solved_time_svg(study), force=args.force)
    limit = limit_text(options.time_limit)
    out(
        f"study of {args.suite}: {len(study.instances)} instances x "
        f"{len(study.engines)} engines, {limit}"
    )
    out(summary_text(study.summary()))
    wrong = study.wrong()
    for row in wrong[:10]:
        out(f"WRONG: {row['engine']} on '{row['instance']}': {row['wrong']}")
    if not wrong:
        out("wrong: none (every tour checked, every answer agrees)")
    wrote(outputs)
    return EXIT_INTERNAL if wrong else EXIT_OK
