"""Every models/*.py teaching script runs: ``main([])`` returns 0 (CPMpy's
tests/test_examples.py), and models/README.md indexes every script."""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parent.parent / "models"
SCRIPTS = sorted(p for p in MODELS.glob("*.py") if not p.name.startswith("_"))


def load_main(path: Path) -> Callable[[list[str] | None], int]:
    spec = importlib.util.spec_from_file_location(f"cpknight_model_{path.stem}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    main: Callable[[list[str] | None], int] = module.main
    return main


def test_readme_indexes_every_script() -> None:
    readme = (MODELS / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([A-Za-z0-9_]+\.py)`", readme))
    assert listed == {p.name for p in SCRIPTS}


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_is_documented(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc, f"{path.name} opens with no docstring (the problem and formulation)"
    mains = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "main"
    ]
    assert len(mains) == 1, f"{path.name} defines no main(argv=None) -> int"
    assert [a.arg for a in mains[0].args.args] == ["argv"]


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main = load_main(path)
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.strip(), f"{path.name} printed nothing"
