"""The tiling folder: one public face, and its modules import one way.

``cpknight.tiling`` answers what the tiler solves (``solve``, ``tile_tour``),
what it suits (``suits``, ``takes``, on ``plain_knight`` boards) and whether it
fixes ends (``fixes_ends``). Inside the folder no two modules import each
other, even inside a function, and no private name crosses a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cpknight import tiling
from cpknight.board import Board
from cpknight.checks import is_tour
from cpknight.constraints import tour_constraints
from cpknight.pieces import CAMEL, KNIGHT, Leaper
from cpknight.tours import ENGINES
from cpknight.tours.instance import TourInstance

FOLDER = Path(tiling.__file__).parent


def _imports(path: Path) -> list[tuple[str, str]]:
    """Every ``(module, name)`` a file imports, at any depth."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
    return found


def _module(path: Path) -> str:
    return "cpknight.tiling" + ("" if path.stem == "__init__" else f".{path.stem}")


def test_no_import_cycle_inside_the_folder() -> None:
    deps: dict[str, set[str]] = {}
    for path in FOLDER.glob("*.py"):
        names = {
            f"{module}.{name}" if module == "cpknight.tiling" else module
            for module, name in _imports(path)
        }
        deps[_module(path)] = {
            name
            for name in names
            if name.startswith("cpknight.tiling.") and name != _module(path)
        }

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in deps.get(todo.pop(), set()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert [m for m in deps if m in reach(m)] == []
    assert "cpknight.tiling.tiles" not in reach("cpknight.tiling.chain")


def test_no_private_name_crosses_a_module() -> None:
    package = FOLDER.parent
    for path in package.rglob("*.py"):
        for module, name in _imports(path):
            crosses = module.startswith("cpknight.tiling") or path.parent == FOLDER
            if crosses and module.startswith("cpknight") and name.startswith("_"):
                pytest.fail(f"{path.relative_to(package)} imports {module}.{name}")


def test_no_hand_written_move_table() -> None:
    for path in FOLDER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "(1, 2), (2, 1)" not in text, path.name


@pytest.mark.parametrize(
    ("board", "piece", "expected"),
    [
        (Board((8, 8)), KNIGHT, True),
        (Board((8, 8)), CAMEL, False),
        (Board((8, 8), [(3, 3)]), KNIGHT, False),
        (Board.parse("8x8", topology="torus"), KNIGHT, False),
        (Board.parse("8x8", topology="cylinder"), KNIGHT, False),
        (Board.parse("4x4x4"), KNIGHT, False),
        (Board.plane(), KNIGHT, False),
    ],
)
def test_plain_knight(board: Board, piece: Leaper, expected: bool) -> None:
    assert tiling.plain_knight(board, piece) is expected


@pytest.mark.parametrize(
    ("shape", "end", "expected"),
    [
        ((12, 12), None, True),
        ((11, 39), None, False),
        ((5, 40), None, True),
        ((4, 1000), None, False),  # no closed tour to rotate
        ((3, 1000), None, True),
        ((3, 39), None, False),
        ((12, 100), (11, 98), True),
        ((11, 200), (10, 198), False),
    ],
)
def test_suits(
    shape: tuple[int, int], end: tuple[int, int] | None, expected: bool
) -> None:
    assert tiling.suits(Board(shape), KNIGHT, end=end) is expected


def test_suits_nothing_but_plain_knight_boards() -> None:
    assert not tiling.suits(Board((100, 100)), CAMEL)
    assert not tiling.suits(Board.parse("100x100", topology="torus"), KNIGHT)
    assert not tiling.suits(Board.plane(), KNIGHT)


def test_takes_required_moves_only() -> None:
    board = Board((100, 100))
    both = tour_constraints(board, require=["a1-b3"], forbid=["c1-d3"])
    alone = tour_constraints(board, require=["a1-b3"])
    assert not tiling.takes(TourInstance(board, KNIGHT, constraints=both))
    assert tiling.takes(TourInstance(board, KNIGHT, constraints=alone))
    small = Board((8, 8))
    alone = tour_constraints(small, require=["a1-b3"])
    assert not tiling.takes(TourInstance(small, KNIGHT, constraints=alone))


def test_the_engine_is_the_face() -> None:
    assert ENGINES["tiles"].load() is tiling.solve
    tour = tiling.tile_tour(Board((12, 16)), closed=False, start=(0, 0))
    assert is_tour(tour.board, tour.array)
    assert tour.cells[0] == (0, 0)
