"""The light half of the command line: exit codes, the parser class, the commands.

``cpknight --version`` and ``cpknight --help`` are answered from this module
alone, and a command imports its own module only (see :data:`COMMANDS`): it
imports nothing but the standard library's ``argparse`` and ``re``, so that
start-up costs about a bare interpreter (``tests/test_startup.py`` holds it to
that, module by module).
"""

from __future__ import annotations

import argparse
import functools
import gettext
import os
import re
import sys

TYPE_CHECKING = False  # typing costs milliseconds here; mypy reads the names
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_LIMIT",
    "EXIT_NONE",
    "EXIT_OK",
    "Command",
    "HelpFormatter",
    "Parser",
    "command_help",
]

EXIT_OK = 0
EXIT_NONE = 1
EXIT_BAD_INPUT = 2
EXIT_LIMIT = 3
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

EXIT_CODES = """\
exit codes:
  0  answered
  1  proved there is none (no tour, target unreachable, not a tour)
  2  bad input (board, cell, piece, option or file)
  3  limit reached without an answer
  70 internal error (an answer failed verification: a bug, please report)
  130 interrupted (Ctrl-C): what was finished is printed first
"""

# argparse translates each of its messages through gettext, which looks for a
# catalogue on disk on every call and keeps no note of one it did not find:
# about 80 us a message, milliseconds of every command's start-up. The answer
# cannot change within the process, so it is asked once per message.
argparse._ = functools.lru_cache(maxsize=None)(gettext.gettext)  # type: ignore[attr-defined]
argparse.ngettext = functools.lru_cache(maxsize=None)(gettext.ngettext)  # type: ignore[attr-defined]

_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d+(,-?\d+)+$")
"""What argparse reads as a negative number: -5, -0.5, and coordinates -5,3."""


def terminal_width() -> int:
    """The terminal's columns, as :func:`shutil.get_terminal_size` finds them.

    argparse asks ``shutil`` on every ``add_argument`` (it formats each
    option's metavar once), and importing ``shutil`` loads the compression
    modules: milliseconds of start-up for one number.
    """
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter that keeps descriptions as written, sized without shutil."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_width() - 2  # as argparse does
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2.

    Negative coordinates (``-5,3``, ``--piece -1,2``) are values, not options:
    argparse takes an argument starting with ``-`` for an option unless it looks
    like a negative number, and here ``-5,3`` does.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE

    def error(self, message: str) -> NoReturn:
        """Print the usage error on one line and exit with code 2."""
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


class Command:
    """One subcommand: its name, the module and function that register it, its help.

    The help is the one line ``cpknight --help`` lists; the registering
    function reads it from here (:func:`command_help`), so the list and the
    command's own ``--help`` say the same.
    """

    __slots__ = ("function", "help", "module", "name")

    def __init__(self, name: str, module: str, function: str, help: str) -> None:
        self.name = name
        self.module = module
        self.function = function
        self.help = help


COMMANDS: tuple[Command, ...] = (
    Command(
        "serve",
        "cpknight.cli.serve",
        "add_serve",
        "a local playground page: draw a board, race the engines, watch",
    ),
    Command(
        "boards",
        "cpknight.cli.boards",
        "add_boards",
        "list the named boards with a drawing of each",
    ),
    Command(
        "map",
        "cpknight.cli.distances",
        "add_map",
        "the number of moves from a cell to every cell",
    ),
    Command(
        "distance",
        "cpknight.cli.distances",
        "add_distance",
        "the fewest moves from one cell to another, with a shortest path",
    ),
    Command(
        "reach",
        "cpknight.cli.distances",
        "add_reach",
        "which cells a piece can reach from a cell",
    ),
    Command(
        "check",
        "cpknight.cli.tours",
        "add_check",
        "verify a tour given as a file of cells, one per line",
    ),
    Command(
        "tour",
        "cpknight.cli.tours",
        "add_tour",
        "find a tour: every open cell once, closed (default) or open",
    ),
    Command(
        "count",
        "cpknight.cli.counting",
        "add_count",
        "count the tours of a board (frontier program or CP-SAT enumeration)",
    ),
    Command(
        "compare",
        "cpknight.cli.tours",
        "add_compare",
        "run every tour engine on the same instance, side by side",
    ),
    Command(
        "sweep",
        "cpknight.cli.tours",
        "add_sweep",
        "for every start cell: does a tour from it exist?",
    ),
    Command(
        "collect",
        "cpknight.cli.routes",
        "add_collect",
        "the shortest route from a cell through required cells (the food)",
    ),
    Command(
        "longest",
        "cpknight.cli.longest",
        "add_longest",
        "the longest uncrossed or induced path or cycle (optimisation puzzles)",
    ),
    Command(
        "swap",
        "cpknight.cli.swaps",
        "add_swap",
        "knights of several colours change places in the fewest moves",
    ),
    Command(
        "dominate",
        "cpknight.cli.covering",
        "add_dominate",
        "the fewest knights that occupy or attack every cell (domination)",
    ),
    Command(
        "independent",
        "cpknight.cli.covering",
        "add_independent",
        "the most knights with no two attacking (independence number)",
    ),
    Command(
        "formulation",
        "cpknight.cli.formulation",
        "add_formulation",
        "print or export a model with this instance's numbers",
    ),
    Command(
        "study",
        "cpknight.cli.study",
        "add_study",
        "run a suite of instances through several engines, compare, profile",
    ),
    Command(
        "models",
        "cpknight.cli.models",
        "add_models",
        "list the teaching models; print or copy one's source",
    ),
    Command(
        "course",
        "cpknight.cli.course",
        "add_course",
        "write the course (eight notebooks with exercises) into a folder",
    ),
    Command(
        "warm",
        "cpknight.cli.warm",
        "add_warm",
        "compile the numba kernels (counting, longest paths, symmetry) now, once",
    ),
    Command(
        "completion",
        "cpknight.cli.completion",
        "add_completion",
        "print a shell completion script (bash, zsh, tcsh or fish)",
    ),
)
"""Every subcommand, in the order ``cpknight --help`` lists them."""

_HELP = {command.name: command.help for command in COMMANDS}


def command_help(name: str) -> str:
    """The one-line help of the top-level command ``name``."""
    return _HELP[name]


def command_named(argv: list[str]) -> str | None:
    """The subcommand a command line names (its first word), if it names one."""
    if argv and argv[0] in _HELP:
        return argv[0]
    return None
