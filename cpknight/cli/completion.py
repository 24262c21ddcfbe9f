"""``cpknight completion SHELL``: a shell completion script written by shtab."""

from __future__ import annotations

import argparse

from cpknight.cli.common import EXIT_OK, SubParsers, add_command, out

__all__ = ["add_completion"]


def add_completion(sub: SubParsers) -> None:
    """Register ``cpknight completion SHELL``: a completion script from shtab."""
    completion = add_command(
        sub,
        "completion",
        _run_completion,
        examples="""
cpknight completion bash > ~/.local/share/bash-completion/completions/cpknight
cpknight completion zsh > ~/.zfunc/_cpknight""",
        description="Print the completion script of SHELL, written by shtab from "
        "the same parser that reads the command line; load it as the shell "
        "loads completions.",
        epilog=None,
    )
    completion.add_argument("shell", choices=["bash", "zsh", "tcsh"], metavar="SHELL")


def _run_completion(args: argparse.Namespace) -> int:
    """The script of the whole parser: every command registered in full."""
    import importlib

    import shtab

    parser = importlib.import_module("cpknight.cli").build_parser()
    out(shtab.complete(parser, shell=args.shell))
    return EXIT_OK
