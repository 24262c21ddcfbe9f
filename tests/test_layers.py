"""The layout shows the architecture: imports flow one way, names say what is shared.

Layers, lowest first (CONTRIBUTING.md): status, errors, the runtime room
(lazy names, optional imports, memory budget, files, progress), the named and
ASCII boards, board, pieces, graph, counts, results, constraints, checks,
scores (the optimising tours' checker), solving, engines, formulation, the
frontier toolkit, tours, tiling (the tiler calls the tour engines on small
pieces), counting, the other questions (distances/, routes/, longest/, swaps/,
covering/), runner, api, study, then io and draw/, then the text room (grids,
values, the commands' answers, frames), web/ and cli/. The teaching models
(``models/`` at the top of the repository, shipped as ``cpknight.models``)
stand above them all and use the public doors only.

Every import counts, at module level or inside a function, except those under
``TYPE_CHECKING`` (annotations only) and those inside the display methods of
values (``__str__``, ``_repr_svg_``, ``to_dataframe`` ...), which look up to
the renderer on purpose (python-chess's ``chess.svg`` pattern). Beyond the
layers:

* no two modules import each other, even through a function body (a knot);
* no module imports another's ``_private`` name (a name another module uses is
  public, in a module whose place says whether it is internal);
* no command-line handler imports another handler (what they share is in
  ``cli/common.py``);
* machinery two questions share has a room of its own: no question's folder
  imports another question's (``longest/`` reads the frontier toolkit, not
  ``counting/``), and the top level of the package stays small.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cpknight"
MODELS = PACKAGE.parent / "models"
"""The teaching models: a top-level folder, shipped as ``cpknight.models``."""

LAYERS = [
    {"status"},
    {"errors"},
    {"course"},
    {"runtime"},
    {"named_boards", "ascii_boards"},
    {"board"},
    {"pieces"},
    {"graph"},
    {"counts"},
    {"results"},
    {"constraints"},
    {"checks"},
    {"scores"},
    {"solving"},
    {"engines"},
    {"formulation"},
    {"frontier"},
    {"tours"},
    {"tiling"},
    {"counting"},
    {"distances", "routes", "longest", "swaps", "covering"},
    {"runner"},
    {"api"},
    {"study"},
    {"io", "draw"},
    {"text"},
    {"web"},
    {"cli"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}

DISPLAY_METHODS = frozenset(
    {
        "__str__",
        "__repr__",
        "_repr_svg_",
        "_repr_html_",
        "_repr_png_",
        "_repr_pretty_",
        "to_dataframe",
    }
)
"""Methods of values that may import upwards: they draw the value (or lay it
out as a table: ``to_dataframe`` reads :mod:`cpknight.text.frames`)."""

CLI_SHARED = frozenset({"__init__", "common", "instances", "running"})
"""The command-line modules every handler may import (the shared options and
helpers, not commands); no handler imports another."""

# The package's own __init__ (public names from every layer) and __main__ aside.
MODULES = sorted(
    p
    for p in PACKAGE.rglob("*.py")
    if p.parent != PACKAGE or p.name not in ("__init__.py", "__main__.py")
)
IDS = [str(p.relative_to(PACKAGE)) for p in MODULES]


@dataclass(frozen=True)
class Import:
    """One import statement's target, and where it stands."""

    module: str  # the dotted module imported from
    names: tuple[str, ...]  # the names taken from it (empty for ``import x``)
    line: int
    function: str | None  # the innermost function around it, if any


def _dotted(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _dotted(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path) -> Iterator[Import]:
    """Every import in a module, with the function it is in (none at top level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(nodes: Iterable[ast.AST], function: str | None) -> Iterator[Import]:
        for child in nodes:
            if isinstance(child, ast.If) and _is_type_checking(child):
                yield from walk(child.orelse, function)  # the else runs
                continue
            if isinstance(child, ast.ImportFrom):
                names = tuple(a.name for a in child.names)
                yield Import(_absolute(child, path), names, child.lineno, function)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(alias.name, (), child.lineno, function)
            inner = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            yield from walk(ast.iter_child_nodes(child), inner)

    yield from walk(tree.body, None)


def _unit(module: str) -> str | None:
    """The layer unit of a dotted cpknight module name (``cpknight.tours.x``)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "cpknight" and len(parts) > 1 else None


def _own_imports(path: Path) -> Iterator[Import]:
    """The imports of cpknight modules that count (display methods aside)."""
    for imp in imports(path):
        if imp.module.split(".")[0] == "cpknight" and imp.function not in (
            DISPLAY_METHODS
        ):
            yield imp


_KNOWN = frozenset(_dotted(p) for p in PACKAGE.rglob("*.py"))
"""Every cpknight module by its dotted name (read once, not once per import)."""


def _targets(imp: Import) -> list[str]:
    """The cpknight modules an import reaches: ``from a import b`` may name a module."""
    found = [f"{imp.module}.{n}" for n in imp.names if f"{imp.module}.{n}" in _KNOWN]
    return found or [imp.module]


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_no_import_runs_up_a_layer(path: Path) -> None:
    relative = path.relative_to(PACKAGE)
    unit = relative.parts[0].removesuffix(".py")
    rank = RANK[unit]
    for imp in _own_imports(path):
        # ``from cpknight import render`` reaches render, not the package
        for target in _targets(imp):
            other = _unit(target)
            if other is None or other not in RANK or other == unit:
                continue
            where = f"{relative}:{imp.line}" + (
                f" in {imp.function}()" if imp.function else ""
            )
            assert RANK[other] <= rank, f"{where} imports {target} (a higher layer)"
            if RANK[other] == rank:
                pytest.fail(f"{where} imports {target}, a sibling of its own layer")


def test_every_module_has_a_layer() -> None:
    units = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in MODULES}
    assert units <= set(RANK), units - set(RANK)


def _import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        me = _dotted(path)
        edges = graph.setdefault(me, set())
        for imp in _own_imports(path):
            for target in _targets(imp):
                # a package's __init__ is reached by importing any of its modules
                if target != me and not me.startswith(target + "."):
                    edges.add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_two_modules_import_each_other() -> None:
    """A knot (a cycle of imports, even through function bodies) is a missing seam."""
    cycles = _cycles(_import_graph())
    assert not cycles, f"modules that import each other: {cycles}"


def test_no_private_name_is_imported_across_modules() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{imp.line} {imp.module}.{name}"
        for path in PACKAGE.rglob("*.py")
        for imp in imports(path)
        if imp.module.split(".")[0] == "cpknight"
        for name in imp.names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not found, "private names imported across modules:\n" + "\n".join(found)


CLI_MODULES = sorted((PACKAGE / "cli").glob("*.py"))


@pytest.mark.parametrize("path", CLI_MODULES, ids=[p.stem for p in CLI_MODULES])
def test_no_command_handler_imports_another(path: Path) -> None:
    if path.stem in CLI_SHARED:
        return
    for imp in imports(path):
        parts = imp.module.split(".")
        if parts[:2] != ["cpknight", "cli"]:
            continue
        modules = [t.split(".")[2] for t in _targets(imp) if t.count(".") >= 2]
        others = [m for m in modules if m not in CLI_SHARED and m != path.stem]
        assert not others, f"cli/{path.name}:{imp.line} imports handler {others}"


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    """The walker finds in-function, relative and TYPE_CHECKING-guarded imports."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from cpknight.cli import x\n"
        "else:\n    from cpknight.io import y\n"
        "def f():\n    from cpknight.api.common import _hidden\n"
        "class V:\n    def __str__(self):\n        from cpknight.text.render import g\n"
    )
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    found = {(i.module, i.function) for i in imports(probe)}
    assert ("cpknight.api.common", "f") in found
    assert ("cpknight.io", None) in found  # the else of TYPE_CHECKING runs
    assert ("cpknight.text.render", "__str__") in found
    assert not any(m == "cpknight.cli" for m, _ in found)  # type-only
    assert [i.module for i in _own_imports(probe)] == [
        "cpknight.io",
        "cpknight.api.common",
    ]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]
    ]


MAX_LINES = 900
"""CONTRIBUTING.md: no module over 900 lines (split by what it holds instead)."""


def test_no_module_is_over_the_line_limit() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in MODULES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


TOP_LEVEL_LIMIT = 20
"""The package's top level holds fewer modules than this: the rest live in
rooms (a folder per question, and one per kind of shared machinery)."""


def test_the_top_level_is_small() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) < TOP_LEVEL_LIMIT, top


QUESTIONS = ("tours", "counting", "distances", "routes", "longest", "swaps", "covering")
"""The question folders. A question may call another's engines only where the
layer list says so (the tiler and counting build tour models); shared
machinery is never stored inside one of them."""

QUESTION_USES = {
    "counting": {"tours"},  # its CP-SAT enumeration builds the tour circuit model
}
"""The question folders that may read another's: each pair a documented reason."""


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_reads_toolkits_not_other_questions(question: str) -> None:
    allowed = QUESTION_USES.get(question, set())
    found = [
        f"{path.relative_to(PACKAGE)}:{imp.line} imports {target}"
        for path in sorted((PACKAGE / question).rglob("*.py"))
        for imp in imports(path)
        for target in _targets(imp)
        if _unit(target) in QUESTIONS
        and _unit(target) != question
        and _unit(target) not in allowed
    ]
    assert not found, "\n".join(found)


MODEL_FILES = sorted(MODELS.glob("*.py"))


@pytest.mark.parametrize("path", MODEL_FILES, ids=[p.stem for p in MODEL_FILES])
def test_models_use_the_public_doors_only(path: Path) -> None:
    """A teaching model reads like a user's script: ``cpknight`` and its ``api``."""
    doors = {"cpknight", "cpknight.api"} | {
        f"cpknight.api.{p.stem}" for p in (PACKAGE / "api").glob("*.py")
    }
    found = [
        f"{path.name}:{imp.line} imports {imp.module}"
        for imp in imports(path)
        if imp.module.split(".")[0] == "cpknight"
        and imp.module not in doors
        and not imp.module.startswith("cpknight.models")
    ]
    assert not found, "\n".join(found)


def test_nothing_in_the_package_imports_the_models() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{imp.line}"
        for path in PACKAGE.rglob("*.py")
        for imp in imports(path)
        if imp.module.startswith("cpknight.models")
        or (imp.module == "cpknight" and "models" in imp.names)
    ]
    assert not found, found


def _code_strings(path: Path) -> Iterator[tuple[int, str]]:
    """The string constants of a module that are code, not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        )
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.lineno, node.value


@pytest.mark.parametrize(
    ("registry", "names"),
    [
        ("counting/kernels.py", {"dict", "numpy", "dense", "meet"}),
        ("longest/frontier_kernels.py", {"dict"}),  # its other, "numba", is a package
    ],
)
def test_kernel_names_are_spelled_in_their_registry_only(
    registry: str, names: set[str]
) -> None:
    """Every check and help text reads a kernel registry, never its own list."""
    from cpknight.counting.kernels import KERNELS as COUNT_KERNELS
    from cpknight.longest.frontier_kernels import KERNELS as LONGEST_KERNELS

    assert names <= set(COUNT_KERNELS) | set(LONGEST_KERNELS)
    question = registry.split("/")[0]
    found = [
        f"{path.relative_to(PACKAGE)}:{line} {value!r}"
        for path in sorted((PACKAGE / question).rglob("*.py"))
        + sorted((PACKAGE / "api").glob("*.py"))
        + sorted((PACKAGE / "cli").glob("*.py"))
        if path.relative_to(PACKAGE).as_posix() != registry
        for line, value in _code_strings(path)
        if value in names
    ]
    assert not found, "\n".join(found)
