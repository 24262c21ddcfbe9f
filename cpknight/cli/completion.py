"""``cpknight completion SHELL``: a shell completion script from the parser itself.

The script is written from the full argparse parser (:func:`cpknight.cli.build_parser`),
so it completes every command and option there is. Where a value comes from a
known set, it completes that too: ``choices=`` as argparse holds them, and the
sets argparse does not hold but the package does (:func:`values_of`): the named
boards and a few sizes, each command's ``--method`` (its engine registry), the
named pieces, the drawing themes, the symmetries, the swap puzzles, the shipped
suites, and files where a file is read or written.

shtab writes the script of each shell, each set hung on its argument as
shtab's ``complete`` (:func:`attach_values`). All of it happens in this
command only: no other command imports a table for it.
"""

from __future__ import annotations

import argparse
import functools
import re
import shlex
from collections.abc import Iterator
from typing import Any, NamedTuple

from cpknight.cli.common import EXIT_OK, SubParsers, add_command, out

__all__ = [
    "SHELLS",
    "SIZES",
    "Values",
    "add_completion",
    "attach_values",
    "completion_script",
    "values_of",
]

SHELLS = ("bash", "zsh", "tcsh", "fish")
"""The shells ``cpknight completion`` writes a script for."""

SIZES = ("5x5", "6x6", "8x8", "10x10", "4x4x4", "plane")
"""A few sizes offered beside the named boards (any size is a board), and the
unbounded ``plane``."""


def add_completion(sub: SubParsers) -> None:
    """Register ``cpknight completion SHELL``: a completion script."""
    completion = add_command(
        sub,
        "completion",
        _run_completion,
        examples="""
cpknight completion bash > ~/.local/share/bash-completion/completions/cpknight
cpknight completion zsh > ~/.zfunc/_cpknight
cpknight completion fish > ~/.config/fish/completions/cpknight.fish""",
        description="Print the completion script of SHELL (bash, zsh, tcsh or "
        "fish, written by shtab) from the same parser that reads the command "
        "line: commands, options, and the values from a known set (named boards, "
        "each command's methods, pieces, themes, symmetries); load it as the "
        "shell loads completions.",
        epilog=None,
    )
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL")


def _run_completion(args: argparse.Namespace) -> int:
    """The script of the whole parser: every command registered in full."""
    import importlib

    parser = importlib.import_module("cpknight.cli").build_parser()
    out(completion_script(parser, args.shell))
    return EXIT_OK


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (one of :data:`SHELLS`)."""
    import shtab

    attach_values(parser)
    script: str = shtab.complete(parser, shell=shell)
    return script


# ------------------------------------------------------------------ values


class Values(NamedTuple):
    """What an argument's value completes from: some words, files, or both."""

    name: str
    """What the values are (``board``, ``method tour``): names shell functions."""
    words: tuple[str, ...] = ()
    files: bool = False


def values_of(command: str, action: argparse.Action) -> Values | None:
    """The values ``action`` of ``command`` (``'formulation distance'``) takes.

    ``None`` for free text (a cell, a number, a time limit).
    """
    if action.choices is not None:
        return Values(action.dest, tuple(str(choice) for choice in action.choices))
    if action.dest == "method":
        return _methods(command, action)
    tables = _tables()
    values = tables.get(f"{command} {action.dest}") or tables.get(action.dest)
    if values is None and action.metavar == "FILE":
        return Values("file", files=True)
    return values


@functools.cache
def _tables() -> dict[str, Values]:
    """The sets of values by argument (``dest``, or ``'command dest'``)."""
    from cpknight.constraints import SYMMETRIES
    from cpknight.draw.palette import THEMES
    from cpknight.named_boards import NAMED_BOARDS
    from cpknight.pieces import NAMED_PIECES
    from cpknight.study.suite import suite_names
    from cpknight.swaps.drawings import PUZZLES

    boards = Values("board", (*NAMED_BOARDS, *SIZES), files=True)
    # guy3xN is a family: its n = 4 stands for it, as the command's help says
    puzzles = tuple(re.sub(r"N$", "4", name) for name in PUZZLES)
    return {
        "board": boards,
        "boards name": boards,
        "piece": Values("piece", tuple(NAMED_PIECES)),
        "theme": Values("theme", tuple(THEMES)),
        "symmetric": Values("symmetry", SYMMETRIES),
        "puzzle": Values("puzzle", puzzles, files=True),
        "named_suite": Values("suite", tuple(suite_names())),
        "suite": Values("file", files=True),
    }


def _methods(command: str, action: argparse.Action) -> Values | None:
    """``--method``: the engines of the command's registry, and the words it adds.

    ``auto`` where the command picks an engine, ``all`` where it runs several;
    only the names the option's own check (its type) accepts.
    """
    from cpknight import counting, covering, distances, longest, routes, swaps, tours
    from cpknight.engines import Registry

    registries: dict[str, Registry[Any, Any]] = {
        "tour": tours.ENGINES,
        "compare": tours.ENGINES,
        "sweep": tours.ENGINES,
        "study": tours.ENGINES,
        "count": counting.ENGINES,
        "distance": distances.ENGINES,
        "formulation distance": distances.ENGINES,
        "collect": routes.ENGINES,
        "longest": longest.ENGINES,
        "swap": swaps.ENGINES,
        "dominate": covering.ENGINES,
        "independent": covering.ENGINES,
    }
    registry = registries.get(command)
    if registry is None:
        return None
    auto = ["auto"] if registry.auto or action.default == "auto" else []
    words = [name for name in [*registry, *auto, "all"] if _accepts(action, name)]
    return Values(f"method {command}", tuple(words))


def _accepts(action: argparse.Action, word: str) -> bool:
    """Whether the option's own type check takes ``word``."""
    if not callable(action.type):
        return True
    try:
        action.type(word)
    except (argparse.ArgumentTypeError, TypeError, ValueError):
        return False
    return True


def _parsers(
    parser: argparse.ArgumentParser, command: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every (sub)command's parser, with its words (``'formulation tour'``)."""
    yield command, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{command} {name}".strip())


def _arguments(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[str, argparse.Action]]:
    """Every argument of every (sub)command, with its command."""
    for command, sub in _parsers(parser):
        for action in sub._actions:
            yield command, action


# ---------------------------------------------------------- bash, zsh, tcsh


def attach_values(parser: argparse.ArgumentParser) -> None:
    """Hang each argument's values (:func:`values_of`) on it as shtab's ``complete``.

    shtab completes ``choices`` itself; every other set becomes a bash function,
    a zsh list (beside ``_files`` where a file is read too), a fish list (beside
    fish's paths) and a tcsh command.
    tcsh holds the options of every command in one list, so there ``--method``
    asks the command line which command it is.
    """
    import shtab

    found = [
        (command, action, values)
        for command, action in _arguments(parser)
        if action.choices is None and action.help != argparse.SUPPRESS
        if (values := values_of(command, action)) is not None
    ]
    methods = {c: v.words for c, a, v in found if a.dest == "method"}
    for _, action, values in found:
        complete: dict[str, Any] = shtab.FILE
        if values.words:
            words = " ".join(values.words)
            function, body = _bash_function(values)
            zsh = f"({words})"
            if values.files:  # (a leading space: called as written, no options)
                zsh = f" _alternative 'values:{values.name}:{zsh}' 'files:file:_files'"
            fish = f"{words} (__fish_complete_path (commandline -ct))"
            complete = {
                "bash": function,
                "zsh": zsh,
                "fish": fish if values.files else words,
                "tcsh": _tcsh_by_command(methods)
                if action.dest == "method"
                else f"`echo {words}`",
                "preamble": {"bash": body},
            }
        action.complete = complete  # type: ignore[attr-defined]


def _bash_function(values: Values) -> tuple[str, str]:
    """The name and text of a bash function printing the values that start with $1.

    A name with ``_file`` in it tells shtab's script the values are file names.
    """
    name = "_cpknight_" + re.sub(r"\W", "_", values.name)
    lines = [f'  compgen -W {shlex.quote(" ".join(values.words))} -- "$1"']
    if values.files:
        name += "_or_file"
        lines.append('  compgen -f -- "$1"')
    return name, f"{name}() {{\n" + "\n".join(lines) + "\n}"


def _tcsh_by_command(words: dict[str, tuple[str, ...]]) -> str:
    """A tcsh command printing the words of the command on the command line."""
    tests = []
    for command, names in words.items():
        parts = command.split()
        test = " && ".join(f'"$c[{i}]" == "{part}"' for i, part in enumerate(parts, 2))
        tests.append(f"if ({test}) echo {' '.join(names)}")
    padding = ' ""' * 3  # so that $c[3] is there on a short line
    return f"`set c=($COMMAND_LINE{padding}); {'; '.join(tests)}`"
