"""The command line: argparse subcommands -> the front doors -> text or JSON.

Each subcommand is registered by one ``add_*`` function (listed in
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
from cpknight.cli.boards import add_boards
from cpknight.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    Handler,
    Parser,
    SubParsers,
    add_command,
    count_from_process_start,
    out,
    reset_streams,
)
from cpknight.cli.counting import add_count
from cpknight.cli.covering import add_dominate, add_independent
from cpknight.cli.distances import add_distance, add_map, add_reach
from cpknight.cli.formulation import add_formulation
from cpknight.cli.longest import add_longest
from cpknight.cli.models import add_models
from cpknight.cli.routes import add_collect
from cpknight.cli.running import interrupted_run
from cpknight.cli.serve import add_serve
from cpknight.cli.study import add_study
from cpknight.cli.swaps import add_swap
from cpknight.cli.tours import (
    add_check,
    add_compare,
    add_sweep,
    add_tour,
)
from cpknight.errors import (
    CpknightError,
    EngineError,
    NoPathError,
    NoTourError,
    SolveLimitError,
)
from cpknight.runtime.memory import budget_mb, memory_budget, peak_mb

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
    add_serve,
    add_boards,
    add_map,
    add_distance,
    add_reach,
    add_check,
    add_tour,
    add_count,
    add_compare,
    add_sweep,
    add_collect,
    add_longest,
    add_swap,
    add_dominate,
    add_independent,
    add_formulation,
    add_study,
    add_models,
]
"""Every subcommand's registration, in the order ``--help`` lists them; then
:func:`add_completion`, which reads the whole parser."""


def build_parser() -> argparse.ArgumentParser:
    """The ``cpknight`` argument parser with every subcommand."""
    parser = Parser(
        prog="cpknight",
        description="Knight tours, distances and reachability on any board, "
        "solved declaratively (CP-SAT, integer programs) and by search.",
        epilog=EXAMPLES + "\n" + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"cpknight {__version__}"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for register in COMMANDS:
        register(sub)
    add_completion(sub, parser)
    parser.set_defaults(handler=lambda _: _help(parser))
    return parser


EXAMPLES = """\
examples:
  cpknight tour 8x8
  cpknight distance 8x8 a1 h8 --json
  cpknight COMMAND --help
"""


def _help(parser: argparse.ArgumentParser) -> int:
    """``cpknight`` alone: the help on standard output, exit 0."""
    parser.print_help()
    return EXIT_OK


def add_completion(sub: SubParsers, parser: argparse.ArgumentParser) -> None:
    """Register ``cpknight completion SHELL``: a completion script from shtab."""
    completion = add_command(
        sub,
        "completion",
        lambda args: _run_completion(args, parser),
        examples="""
cpknight completion bash > ~/.local/share/bash-completion/completions/cpknight
cpknight completion zsh > ~/.zfunc/_cpknight""",
        help="print a shell completion script (bash, zsh or tcsh)",
        description="Print the completion script of SHELL, written by shtab from "
        "the same parser that reads the command line; load it as the shell "
        "loads completions.",
        epilog=None,
    )
    completion.add_argument("shell", choices=["bash", "zsh", "tcsh"], metavar="SHELL")


def _run_completion(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import shtab

    out(shtab.complete(parser, shell=args.shell))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    if argv is None:  # the process's own command line: its clock starts with it
        count_from_process_start()
    parser = build_parser()
    args = parser.parse_args(argv)
    reset_streams()
    handler: Handler = args.handler
    try:
        with memory_budget(getattr(args, "memory", None)):
            return handler(args)
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
    except MemoryError:
        # An estimate fell short: still one line, and the way out.
        print(
            f"cpknight: ran out of memory at {peak_mb():,.0f} MB before the "
            f"budget of {budget_mb():g} MB was reached: try a smaller instance "
            "(and please report the command)",
            file=sys.stderr,
        )
        return EXIT_LIMIT
    except BrokenPipeError:
        # The reader went away (e.g. '| head'); nothing more to say.
        sys.stderr.close()
        return EXIT_OK


def main_exit() -> None:
    """The console script: run :func:`main` and exit with its code."""
    sys.exit(main())
