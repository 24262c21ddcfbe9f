"""The models subcommand: the teaching models that ship with cpknight.

The scripts live in ``models/`` as package data and modules; this
handler reads them as files (it never imports them, so listing costs no
OR-Tools import) and prints the list, one script's source, or writes a copy.
"""

from __future__ import annotations

import argparse
import ast
from importlib import resources
from importlib.resources.abc import Traversable

from cpknight.cli.common import (
    EXIT_OK,
    SubParsers,
    add_command,
    add_force,
    add_json,
    new_files,
    out,
    print_json,
    write_output,
)
from cpknight.errors import InvalidInputError

__all__ = ["add_models", "model_files"]


def add_models(sub: SubParsers) -> None:
    """Register ``cpknight models``."""
    parser = add_command(
        sub,
        "models",
        _run_models,
        examples="""
cpknight models
cpknight models tour_closed
cpknight models distance_moves --out distance_moves.py""",
        description="The teaching models: short scripts, each with its own model\n"
        "(CP-SAT, an integer program or a search) and a cross-check against\n"
        "cpknight. Without NAME, list them; with NAME, print its source (or\n"
        "write it with --out). Run one with 'python -m cpknight.models.NAME'.",
    )
    parser.add_argument("name", metavar="NAME", nargs="?", help="a model's name")
    parser.add_argument(
        "--out", metavar="FILE", help="write the model's source to FILE"
    )
    add_json(parser)
    add_force(parser, "the file given to --out")


def model_files() -> dict[str, Traversable]:
    """Every teaching model that ships, by name (``tour_closed``), sorted."""
    folder = resources.files("cpknight.models")
    found = {
        entry.name.removesuffix(".py"): entry
        for entry in folder.iterdir()
        if entry.name.endswith(".py") and not entry.name.startswith("_")
    }
    return dict(sorted(found.items()))


def _summary(source: str) -> str:
    """The first line of a script's docstring: the problem it models."""
    doc = ast.get_docstring(ast.parse(source)) or ""
    return doc.splitlines()[0] if doc else ""


def _run_models(args: argparse.Namespace) -> int:
    files = model_files()
    if args.name is None:
        if args.out:
            raise InvalidInputError("--out needs a model NAME")
        rows = [
            {
                "name": name,
                "summary": _summary(entry.read_text(encoding="utf-8")),
                "run": f"python -m cpknight.models.{name}",
            }
            for name, entry in files.items()
        ]
        if args.json:
            print_json({"models": rows})
            return EXIT_OK
        width = max(len(row["name"]) for row in rows)
        for row in rows:
            out(f"{row['name']:<{width}}  {row['summary']}")
        out()
        out("cpknight models NAME prints one; python -m cpknight.models.NAME runs it")
        return EXIT_OK
    name = args.name.removesuffix(".py")
    if name not in files:
        raise InvalidInputError(
            f"expected a model name in {', '.join(files)}: {args.name!r}"
        )
    source = files[name].read_text(encoding="utf-8")
    new_files(args, "out")
    if args.json:
        row = {"name": name, "summary": _summary(source), "source": source}
        print_json({"models": [{**row, "run": f"python -m cpknight.models.{name}"}]})
        return EXIT_OK
    if args.out:
        write_output(args.out, source, force=args.force)
        if args.out != "-":
            out(f"wrote {args.out}: run it with 'python {args.out}'")
        return EXIT_OK
    out(source.rstrip("\n"))
    return EXIT_OK
