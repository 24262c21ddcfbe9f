"""The layout shows the architecture: no module imports a layer above its own.

Layers, lowest first (CONTRIBUTING.md): status, errors, board, named_boards,
pieces, graph, results, constraints, checks, solving, engines, formulation, the
questions (tours/, distances/, routes/, longest/), runner, api, study/, then io,
render and draw/, then cli/. Imports inside functions (the lazy ``__str__`` /
``_repr_svg_`` and engine imports) and under ``TYPE_CHECKING`` are not
module-level dependencies and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cpknight"

LAYERS = [
    {"status", "lazy"},
    {"errors"},
    {"board"},
    {"named_boards"},
    {"pieces"},
    {"graph"},
    {"results"},
    {"constraints"},
    {"checks"},
    {"solving"},
    {"engines"},
    {"formulation"},
    {"tours", "distances", "routes", "longest"},
    {"counting"},  # counts read the tour's circuit model
    {"runner"},
    {"api"},
    {"study"},
    {"io", "render", "draw"},
    {"cli"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
# The package's own __init__ (public names from every layer) and __main__ aside.
MODULES = sorted(
    p
    for p in PACKAGE.rglob("*.py")
    if p.parent != PACKAGE or p.name not in ("__init__.py", "__main__.py")
)


def _unit(module: str) -> str | None:
    """The layer unit of a dotted cpknight module name (``cpknight.tours.x``)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "cpknight" and len(parts) > 1 else None


def _module_level_imports(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names]
    return names


@pytest.mark.parametrize(
    "path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES]
)
def test_no_import_runs_up_a_layer(path: Path) -> None:
    relative = path.relative_to(PACKAGE)
    unit = relative.parts[0].removesuffix(".py")
    rank = RANK[unit]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name in _module_level_imports(tree):
        other = _unit(name)
        if other is None or other not in RANK or other == unit:
            continue
        assert RANK[other] <= rank, f"{relative} imports {name} (a higher layer)"
        if RANK[other] == rank:
            pytest.fail(f"{relative} imports {name}, a sibling of its own layer")


def test_every_module_has_a_layer() -> None:
    units = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in MODULES}
    assert units <= set(RANK), units - set(RANK)


MAX_LINES = 900
"""CONTRIBUTING.md: no module over 900 lines (split by what it holds instead)."""


def test_no_module_is_over_the_line_limit() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in MODULES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"
