"""The course subcommand: write the notebooks that ship with cpknight into a folder.

The notebooks live in :mod:`cpknight.course` as package data; this handler
reads them as files (no notebook machinery is imported) and copies them,
refusing to replace a notebook already there without ``--force``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cpknight.cli.common import (
    EXIT_OK,
    SubParsers,
    add_command,
    add_force,
    add_json,
    out,
    print_json,
)
from cpknight.course import notebook_files, without_solutions
from cpknight.errors import InvalidInputError
from cpknight.io import check_new_file, write_new_file

__all__ = ["add_course"]


def add_course(sub: SubParsers) -> None:
    """Register ``cpknight course``."""
    parser = add_command(
        sub,
        "course",
        _run_course,
        examples="""
cpknight course knight-course
cpknight course handout --no-solutions""",
        description="Write the course into DIR: eight Jupyter notebooks, each a\n"
        "question answered two ways (a model and a search) with exercises and\n"
        "their worked solutions (collapsed cells tagged 'solution', each checked\n"
        "against an independent computation). DIR is made if missing; a notebook\n"
        "already there is not replaced without --force. Open them with Jupyter\n"
        "(pip install 'cpknight[course]', then 'jupyter lab DIR').",
    )
    parser.add_argument("dir", metavar="DIR", help="the folder to write into")
    parser.add_argument(
        "--no-solutions",
        action="store_true",
        help="leave the worked solutions out (a hand-out for students)",
    )
    add_json(parser)
    add_force(parser, "notebooks already in DIR")


def _run_course(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise InvalidInputError(f"'{folder}' is a file, not a folder")
    books = notebook_files()
    targets = {name: folder / name for name in books}
    for target in targets.values():  # all refused before any is written
        check_new_file(str(target), force=args.force)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidInputError(
            f"cannot make the folder '{folder}': {error.strerror}"
        ) from None
    for name, entry in books.items():
        text = entry.read_text(encoding="utf-8")
        if args.no_solutions:
            text = without_solutions(text)
        write_new_file(str(targets[name]), text, force=True)
    if args.json:
        print_json(
            {
                "course": {
                    "dir": str(folder),
                    "notebooks": list(books),
                    "solutions": not args.no_solutions,
                }
            }
        )
        return EXIT_OK
    kept = "without" if args.no_solutions else "with"
    out(f"wrote the course's {len(books)} notebooks to {folder}/ ({kept} solutions):")
    for name in books:
        out(f"  {name}")
    out(f"open them: pip install 'cpknight[course]', then 'jupyter lab {folder}'")
    return EXIT_OK
