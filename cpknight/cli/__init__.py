"""The command line: argparse subcommands -> the front doors -> text or JSON.

Each subcommand is registered by one ``add_*`` function, named with its module
and its one-line help in :data:`~cpknight.cli.parser.COMMANDS`. A command line
imports the module of the command it names and nothing else of the others:
``cpknight --version`` and ``cpknight --help`` cost about a bare interpreter,
``cpknight map`` never loads OR-Tools. All errors cpknight raises on purpose
become one line on standard error and an exit code; nothing here computes an
answer.

Exit codes: 0 answered; 1 proved there is none (no tour, unreachable, not a
tour); 2 bad input; 3 limit reached without an answer; 70 an engine's answer
failed verification (a bug); 130 interrupted (Ctrl-C, or SIGTERM, which
stops a command as Ctrl-C does).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from cpknight import __version__
from cpknight.cli.parser import (
    COMMANDS,
    EXIT_BAD_INPUT,
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NONE,
    EXIT_OK,
    Parser,
    command_named,
)

TYPE_CHECKING = False  # typing costs milliseconds here; mypy reads the names
if TYPE_CHECKING:
    from collections.abc import Sequence

    from cpknight.cli.common import Handler

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_LIMIT",
    "EXIT_NONE",
    "EXIT_OK",
    "build_parser",
    "main",
]


# --------------------------------------------------------------------- main


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``cpknight`` argument parser.

    Args:
        only: build this command's parser alone (the line names it first,
            so no other command is parsed or listed, and no other module is
            imported); ``""`` for none in full but every one listed by name
            and help (``--help``, ``--version``). Default: every command in
            full (completion scripts, the tests that walk every option).
    """
    parser = Parser(
        prog="cpknight",
        description="Knight tours, distances and reachability on any board, "
        "solved declaratively (CP-SAT, integer programs) and by search.",
        epilog=EXAMPLES + "\n" + EXIT_CODES,
    )
    parser.add_argument(
        "--version", action="version", version=f"cpknight {__version__}"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        if only is None or command.name == only:
            module = importlib.import_module(command.module)
            getattr(module, command.function)(sub)
        elif not only:
            sub.add_parser(command.name, help=command.help, add_help=False)
    parser.set_defaults(handler=lambda _: _help(parser))
    return parser


EXAMPLES = """\
examples:
  cpknight tour 8x8
  cpknight course my-course   (the course: eight notebooks with exercises)
  cpknight COMMAND --help
"""


def _help(parser: argparse.ArgumentParser) -> int:
    """``cpknight`` alone: the help on standard output, exit 0."""
    parser.print_help()
    return EXIT_OK


def main(
    argv: Sequence[str] | None = None, *, collect_after_start: bool = False
) -> int:
    """Run the command line; return the exit code.

    Args:
        argv: the words after ``cpknight`` (default: the process's own).
        collect_after_start: start the garbage collector once the command's
            modules are loaded and parsed, what was made so far frozen (the
            console script pauses it for start-up, see :mod:`cpknight.__main__`).
    """
    words = sys.argv[1:] if argv is None else list(argv)
    name = command_named(words)
    parser = build_parser(name or "")
    try:
        args = parser.parse_args(words)
    finally:
        if collect_after_start:
            import gc

            gc.freeze()
            gc.enable()
    if name is None:  # 'cpknight' alone: the help
        return _help(parser)
    # The command's module is loaded: what it runs with costs nothing more.
    from cpknight.cli.common import count_from_process_start, reset_streams
    from cpknight.runtime.memory import memory_budget

    if argv is None:  # the process's own command line: its clock starts with it
        count_from_process_start()
        _terminate_as_interrupt()
    reset_streams()
    handler: Handler = args.handler
    try:
        with memory_budget(getattr(args, "memory", None)):
            return handler(args)
    except KeyboardInterrupt as exc:
        from cpknight.cli.running import interrupted_run
        from cpknight.runner import RunInterrupted  # loaded by whatever raised it

        if isinstance(exc, RunInterrupted):
            return interrupted_run(exc)
        print("cpknight: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except MemoryError:
        from cpknight.runtime.memory import budget_mb, peak_mb

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
    except Exception as exc:
        code = _error_code(exc)
        if code is None:
            raise
        return code


def _terminate_as_interrupt() -> None:
    """SIGTERM (``kill``, ``timeout``, a cluster's scheduler) stops as Ctrl-C does.

    Without this, Python dies on SIGTERM at once: a count's temporary
    directory of states (gigabytes) was left behind, and nothing finished was
    said. The signal is passed on as SIGINT, to whatever handles Ctrl-C at
    that moment (a solver's own handler included): what is finished is kept,
    temporary files go, and the exit code is 130. Ignored Ctrl-C (a job in the
    background of a shell without job control) does not ignore SIGTERM: it
    is raised as an interrupt here. A second SIGTERM ends the process at once.
    """
    import os
    import signal

    term = getattr(signal, "SIGTERM", None)
    if term is None or sys.platform == "win32":
        return

    def on_term(signum: int, frame: object) -> None:
        signal.signal(term, signal.SIG_DFL)
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            raise KeyboardInterrupt
        os.kill(os.getpid(), signal.SIGINT)

    signal.signal(term, on_term)


def _error_code(exc: Exception) -> int | None:
    """Say one line for an error cpknight raised on purpose; its exit code.

    ``None`` for any other exception (a bug: its traceback is kept).
    """
    from cpknight.errors import (
        CpknightError,
        EngineError,
        NoPathError,
        NoTourError,
        SolveLimitError,
    )

    if isinstance(exc, EngineError):
        # An engine's answer failed verification: our bug, said plainly.
        print(f"cpknight: {exc} (please report this)", file=sys.stderr)
        return EXIT_INTERNAL
    if isinstance(exc, (NoTourError, NoPathError)):
        print(f"cpknight: {exc}", file=sys.stderr)
        return EXIT_NONE
    if isinstance(exc, SolveLimitError):
        print(f"cpknight: {exc}", file=sys.stderr)
        return EXIT_LIMIT
    if isinstance(exc, CpknightError):
        print(f"cpknight: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return None


def main_exit() -> None:
    """The console script: run :func:`main` and exit with its code."""
    sys.exit(main())
