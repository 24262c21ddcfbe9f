"""MkDocs hooks: the pages generated from the package itself.

A page holds a marker such as ``<!-- cpknight:engines -->``; the hook puts in
its place text made from the package (the command line's ``--help``, the engine
registries, the JSON Schema, the teaching models), so the site never drifts
from the code it documents.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import os
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page


def _cli() -> str:
    """Every command's ``--help``, as the terminal prints it."""
    os.environ["COLUMNS"] = "88"
    from cpknight.cli import build_parser

    parser = build_parser()
    parts = ["## cpknight\n", "```text", parser.format_help().rstrip(), "```\n"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += [f"## cpknight {name}\n", "```text"]
                parts += [sub.format_help().rstrip(), "```\n"]
    return "\n".join(parts)


def _engines() -> str:
    """One table per question, from the engine registries."""
    from cpknight import counting, distances, longest, routes, tours

    parts = []
    for title, registry in [
        ("Tours", tours.ENGINES),
        ("Counting", counting.ENGINES),
        ("Distances", distances.ENGINES),
        ("Routes (the snake's meal)", routes.ENGINES),
        ("Longest paths", longest.ENGINES),
    ]:
        parts += [
            f"## {title}\n",
            "`method='auto'` (the default) picks one of these by the instance.\n"
            if registry.auto
            else "",
            "| method | proves none / optimal | optimises | reads | honours "
            "| what it is |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for engine in registry.values():
            honours = ", ".join(f"`{h}`" for h in engine.honours) or "-"
            parts.append(
                f"| `{engine.name}` | {'yes' if engine.proves else 'no: finds only'} "
                f"| {'yes' if engine.optimises else 'no'} | {engine.reads} "
                f"| {honours} | {engine.summary} |"
            )
        parts.append("")
    return "\n".join(parts)


def _schema() -> str:
    """The documents of the JSON Schema, then the schema itself."""
    text = (resources.files("cpknight.cli") / "output.schema.json").read_text()
    schema = json.loads(text)
    rows = ["| document | what it holds |", "| --- | --- |"]
    for ref in schema["anyOf"]:
        name = ref["$ref"].rsplit("/", 1)[-1]
        rows.append(f"| `{name}` | {schema['$defs'][name].get('description', '')} |")
    return "\n".join([*rows, "", "```json", text.rstrip(), "```"])


def _models() -> str:
    """The teaching models' index, then each one's problem and formulation."""
    folder = resources.files("cpknight.models")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    parts = [readme.split("\n", 1)[1].strip(), ""]
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".py") or entry.name.startswith("_"):
            continue
        name = entry.name.removesuffix(".py")
        doc = ast.get_docstring(ast.parse(entry.read_text(encoding="utf-8"))) or ""
        title, _, body = doc.partition("\n")
        parts += [
            f"## `{name}`\n",
            f"*{title}*\n",
            "```text",
            body.strip(),
            "```\n",
            f"Read it: `cpknight models {name}`; run it: "
            f"`python -m cpknight.models.{name}`.\n",
        ]
    return "\n".join(parts)


MARKERS: dict[str, Callable[[], str]] = {
    "<!-- cpknight:cli -->": _cli,
    "<!-- cpknight:engines -->": _engines,
    "<!-- cpknight:schema -->": _schema,
    "<!-- cpknight:models -->": _models,
}


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Put the generated text in place of each marker on the page."""
    for marker, make in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


@event_priority(100)  # before mkdocs-jupyter's, which turns notebooks into pages
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """The course's notebooks, from the package (they ship in the wheel).

    They are served as ``course/NN-name.ipynb`` (the nav names them so), read
    where :mod:`cpknight.course` stands: one copy, the one ``cpknight course``
    writes out and the test suite runs.
    """
    from cpknight.course import notebook_files

    for name, entry in notebook_files().items():
        path = Path(str(entry))
        files.append(
            File(
                f"course/{name}",
                src_dir=str(path.parent.parent),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files


# ------------------------------------------------------------ the site offline
#
# The notebook pages come from nbconvert's template, which loads MathJax (and,
# for diagrams, mermaid) from outside servers. The site must work with no
# network (a classroom, a locked machine): the formulas are turned into MathML
# here, at build time, which browsers draw natively, and the two loaders go.

_LOADERS = [
    re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S),
    re.compile(
        r"<script type=\"module\">(?:(?!</script>).)*?mermaid.*?</script>", re.S
    ),
]
_SKIPPED = re.compile(r"<(pre|code|script|style|textarea|math)\b.*?</\1>", re.S)
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$<>\n]+?)\$")


def _mathml(match: re.Match[str]) -> str:
    """One formula (``$...$`` or ``$$...$$``), as MathML."""
    from latex2mathml.converter import convert

    display, inline = match.groups()
    tex = html.unescape(display if display is not None else inline)
    return convert(tex, display="block" if display is not None else "inline")


def formulas_as_mathml(page_html: str) -> str:
    r"""The page with its TeX formulas in MathML, outside code, scripts and styles.

    Examples:
        >>> page = formulas_as_mathml("<p>$8 \\times 8$ and <code>$x$</code></p>")
        >>> page.startswith("<p><math "), page.endswith("and <code>$x$</code></p>")
        (True, True)
        >>> "<code>$x$</code>" in formulas_as_mathml("<p><code>$x$</code></p>")
        True
    """
    parts = []
    done = 0
    for skipped in _SKIPPED.finditer(page_html):
        text = page_html[done : skipped.start()]
        parts += [_text_math(text), skipped.group(0)]
        done = skipped.end()
    parts.append(_text_math(page_html[done:]))
    return "".join(parts)


def _text_math(chunk: str) -> str:
    """The formulas of the text between tags in ``chunk``, converted."""
    pieces = re.split(r"(<[^>]*>)", chunk)
    return "".join(
        piece if piece.startswith("<") else _MATH.sub(_mathml, piece)
        for piece in pieces
    )


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """A notebook page without outside loaders, its formulas in MathML."""
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    for loader in _LOADERS:
        output = loader.sub("", output)
    return formulas_as_mathml(output)
