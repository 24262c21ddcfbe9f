"""The command line: argparse subcommands -> the front doors -> text or JSON.

Each subcommand is registered by one ``_add_*`` function (listed in
:data:`COMMANDS`) that builds its parser and names its ``run`` function. All
errors cpknight raises on purpose become one line on standard error and an exit
code; nothing here computes an answer.

Exit codes: 0 answered; 1 proved there is none (no tour, unreachable, not a
tour); 2 bad input; 3 limit reached without an answer; 70 an engine's answer
failed verification (a bug); 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from cpknight import __version__
from cpknight.cli.boards import _add_boards, _add_distance, _add_map, _add_reach
from cpknight.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    Run,
    SubParsers,
    _Parser,
)
from cpknight.cli.counting import add_count
from cpknight.cli.formulation import _add_formulation
from cpknight.cli.longest import _add_longest
from cpknight.cli.routes import _add_collect
from cpknight.cli.study import _add_study, interrupted_run
from cpknight.cli.tours import (
    _add_check,
    _add_compare,
    _add_sweep,
    _add_tour,
)
from cpknight.errors import (
    CpknightError,
    EngineError,
    NoPathError,
    NoTourError,
    SolveLimitError,
)

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_LIMIT",
    "EXIT_NONE",
    "EXIT_OK",
    "main",
]


# --------------------------------------------------------------------- main

COMMANDS: list[Callable[[SubParsers], None]] = [
    _add_boards,
    _add_map,
    _add_distance,
    _add_reach,
    _add_check,
    _add_tour,
    add_count,
    _add_compare,
    _add_sweep,
    _add_collect,
    _add_longest,
    _add_formulation,
    _add_study,
]
"""Every subcommand's registration, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The ``cpknight`` argument parser with every subcommand."""
    parser = _Parser(
        prog="cpknight",
        description="Knight tours, distances and reachability on any board, "
        "solved declaratively (CP-SAT, integer programs) and by search.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"cpknight {__version__}"
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Run = args.run
    try:
        return run(args)
    except EngineError as exc:
        # An engine's answer failed verification: our bug, said plainly.
        print(f"cpknight: {exc} (please report this)", file=sys.stderr)
        return EXIT_INTERNAL
    except (NoTourError, NoPathError) as exc:
        print(f"cpknight: {exc}", file=sys.stderr)
        return EXIT_NONE
    except SolveLimitError as exc:
        print(f"cpknight: {exc}", file=sys.stderr)
        return EXIT_LIMIT
    except CpknightError as exc:
        print(f"cpknight: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as exc:
        from cpknight.runner import RunInterrupted  # loaded by whatever raised it

        if isinstance(exc, RunInterrupted):
            return interrupted_run(exc)
        print("cpknight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. '| head'); nothing more to say.
        sys.stderr.close()
        return EXIT_OK


def main_exit() -> None:
    """The console script: run :func:`main` and exit with its code."""
    sys.exit(main())
