"""The study subcommand: a suite of instances through several engines."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from cpknight.cli.common import (
    EXIT_INTERNAL,
    EXIT_OK,
    JSON_SCHEMA,
    Deprecated,
    SubParsers,
    add_command,
    add_force,
    add_json,
    add_method,
    add_progress,
    add_solve_args,
    new_files,
    out,
    print_json,
    read_stdin,
    solve_options_of,
    write_output,
)
from cpknight.cli.running import (
    add_run_args,
    drop_automatic,
    interrupted_run,
    run_options,
    task_progress,
)
from cpknight.text.reports import study_report

if TYPE_CHECKING:
    from cpknight.study import Study

__all__ = ["add_study"]


# -------------------------------------------------------------------- study


def add_study(sub: SubParsers) -> None:
    """Register ``cpknight study``."""
    parser = add_command(
        sub,
        "study",
        _run_study,
        examples="""
cpknight study --suite small --time-limit 1 --jobs 2
cpknight study suite.txt --method all --jobs 0 --csv runs.csv
cpknight study suite.txt --json-file study.json --svg profile.svg""",
        description="Run every instance of SUITE (one a line: a board, then flags\n"
        "such as --open, --start a1, --end h8, --piece camel, --torus; '#'\n"
        "starts a comment; '-' reads standard input) through every engine of\n"
        "--method with the same time\n"
        "limit, on a local pool or a Dask cluster. Every tour is checked again\n"
        "and the answers are compared across engines. Prints a summary per\n"
        "engine: solved, proved none, limit, refused, wrong (which must be 0).",
    )
    parser.add_argument(
        "suite",
        metavar="SUITE",
        nargs="?",
        help="the suite file ('-': standard input)",
    )
    parser.add_argument(
        "--suite",
        dest="named_suite",
        metavar="NAME",
        help="a suite that ships with cpknight instead of a file (small: 306 "
        "instances, plain, shaped, holed, tori, other leapers, 3D)",
    )
    add_method(
        parser, default="cpsat,prune,warnsdorff", several=True, help="tour engines"
    )
    parser.add_argument(
        "--engines", dest="method", action=Deprecated, instead="use --method"
    )
    add_solve_args(parser, per=", per run")
    add_json(parser)
    parser.add_argument("--csv", metavar="FILE", help="one line per run, as CSV")
    parser.add_argument(
        "--json-file",
        metavar="FILE",
        help="write the summary and every run as one JSON document (what --json "
        "prints, indented)",
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
    add_force(parser, "the files given to --csv, --json-file, --svg, --time-svg")


def _run_study(args: argparse.Namespace) -> int:
    from cpknight.errors import InvalidInputError
    from cpknight.runner import RunInterrupted
    from cpknight.study import (
        read_named_suite,
        read_suite,
        read_suite_text,
        run_study,
    )

    if (args.suite is None) == (args.named_suite is None):
        raise InvalidInputError("give a SUITE file or --suite NAME (one of them)")
    if args.named_suite is not None:
        suite = read_named_suite(args.named_suite)
        args.suite = f"the {args.named_suite} suite"
    elif args.suite == "-":
        suite = read_suite_text(read_stdin("SUITE"), where="suite '-'")
    else:
        suite = read_suite(args.suite)
    options = solve_options_of(args)
    outputs = new_files(args, "csv", "json_file", "svg", "time_svg")
    run = run_options(args, keep="study")
    bar, progress = task_progress(args, "runs")
    try:
        study = run_study(
            suite, methods=args.method, options=options, run=run, progress=progress
        )
    except RunInterrupted as exc:
        if bar is not None:
            bar.close()
            bar = None
        if exc.partial is not None:  # the instances finished, marked partial
            if args.json:
                print_json({**exc.partial.as_dict(), "partial": True})
            else:
                out(study_report(exc.partial, args.suite, options.time_limit, []))
                out("partial: interrupted (Ctrl-C); the instances finished above")
        return interrupted_run(exc)
    finally:
        if bar is not None:
            bar.close()
    drop_automatic(args)
    _write_study_files(args, study)
    code = EXIT_INTERNAL if study.wrong() else EXIT_OK
    if args.json:
        print_json(study.as_dict())
        return code
    out(study_report(study, args.suite, options.time_limit, outputs))
    return code


def _write_study_files(args: argparse.Namespace, study: Study) -> None:
    """Write the files asked for: ``--csv``, ``--json-file``, ``--svg``, ..."""
    if args.csv:
        write_output(args.csv, study.csv_text(), force=args.force)
    if args.json_file:
        document = {"schema": JSON_SCHEMA, **study.as_dict()}
        text = json.dumps(document, indent=1) + "\n"
        write_output(args.json_file, text, force=args.force)
    if args.svg or args.time_svg:
        from cpknight.draw.study import profile_svg, solved_time_svg

        if args.svg:
            write_output(args.svg, profile_svg(study), force=args.force)
        if args.time_svg:
            write_output(args.time_svg, solved_time_svg(study), force=args.force)
