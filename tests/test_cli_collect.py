"""The collect and formulation collect commands: output, JSON, exit codes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import NoReturn

import pytest

import cpknight.api
from cpknight import Board
from cpknight.cli import EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NONE, EXIT_OK, main
from cpknight.engines import Engine
from cpknight.errors import SolveLimitError
from cpknight.routes.instance import RouteInstance
from cpknight.solving import Run
from cpknight.status import Effort
from tests.conftest import brute_walk

SVG = "{http://www.w3.org/2000/svg}"
FOOD = ["h8", "a8", "h1", "d4"]


def shortest_meal() -> int:
    """The issue's instance solved independently: every order, BFS legs."""
    board = Board.parse("8x8")
    food = [board.parse_cell(c) for c in FOOD]
    return brute_walk(board, board.parse_cell("a1"), food, None)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_done_when_the_issue_instance_is_proved_and_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "meal.svg"
    code, out, _ = run(["collect", "8x8", "a1", *FOOD, "--svg", str(svg)], capsys)
    assert code == EXIT_OK
    want = shortest_meal()
    assert f"{want} moves, proved optimal" in out
    route_line = next(line for line in out.splitlines() if line.startswith("route:"))
    names = route_line.split()[1:]
    assert names[0] == "a1"
    assert len(names) == want + 1
    assert set(FOOD) <= set(names)
    root = ET.fromstring(svg.read_text())
    assert len(root.findall(f".//{SVG}path[@class='route']")) == 1
    assert len(root.findall(f".//{SVG}rect[@class='food']")) == len(FOOD)
    assert f"wrote {svg}" in out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["collect", "8x8", "a1", *FOOD, "--json"], capsys)
    assert code == EXIT_OK
    data = json.loads(out)
    assert data["status"] == "optimal"
    assert data["moves"] == data["bound"] == shortest_meal()
    assert data["cells"][0] == [0, 0]
    assert len(data["cells"]) == data["moves"] + 1


@pytest.mark.parametrize("method", ["cpsat", "search"])
def test_simple_and_end(method: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["collect", "6x6", "a1", "f6", "a6", "--end", "f1", "--simple"]
    code, out, _ = run([*argv, "--method", method, "--json"], capsys)
    assert code == EXIT_OK
    data = json.loads(out)
    cells = [tuple(c) for c in data["cells"]]
    assert cells[-1] == (0, 5)
    assert len(set(cells)) == len(cells)


def test_greedy_on_a_torus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["collect", "8x8", "a1", "h8", "d5", "--torus", "--method", "greedy"], capsys
    )
    assert code == EXIT_OK
    assert "by greedy" in out


def test_infeasible_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["collect", "3x3", "a1", "b2"], capsys)
    assert code == EXIT_NONE
    assert "food b2 cannot be reached from a1" in out
    code, out, _ = run(["collect", "3x3", "a1", "b2", "--json"], capsys)
    assert code == EXIT_NONE
    assert json.loads(out)["status"] == "infeasible"
    # 2 x n: the knight graph is a union of paths (see test_collect.py)
    code, out, _ = run(["collect", "2x5", "c2", "a1", "e1", "--simple"], capsys)
    assert code == EXIT_NONE
    assert "no simple route" in out


def test_limit_exit_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A route engine that stops at the limit: the row keeps its bound and effort.
    stops = Engine("cpsat", "route", "tests.test_cli_collect:_gives_up")
    monkeypatch.setitem(cpknight.api.ROUTE_METHODS, "cpsat", stops)
    code, out, _ = run(["collect", "8x8", "a1", "h8", "--json"], capsys)
    assert code == EXIT_LIMIT
    data = json.loads(out)
    assert (data["status"], data["bound"], data["cells"]) == ("unknown", 7, None)
    assert data["effort"] == {"branches": 12, "conflicts": 3}


def _gives_up(instance: RouteInstance, run: Run) -> NoReturn:
    effort = Effort(branches=12, conflicts=3)
    raise SolveLimitError("no route found by the time limit", bound=7, effort=effort)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["collect", "8x8", "a1", "i9"], "cell 'i9' is not on board 8x8"),
        (["collect", "holed8", "a1", "d4"], "blocked"),
        (["collect", "8x8", "a1", "h8", "--piece", "bishop"], "expected a piece"),
        (["collect", "8x8", "a1", "h8", "--time-limit", "0"], "time limit"),
    ],
)
def test_bad_input_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(argv, capsys)
    assert code == EXIT_BAD_INPUT
    assert message in err
    assert err.count("\n") == 1


def test_files_are_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "meal.svg"
    svg.write_text("keep")
    code, _, err = run(["collect", "8x8", "a1", "h8", "--svg", str(svg)], capsys)
    assert code == EXIT_BAD_INPUT
    assert "--force" in err
    assert svg.read_text() == "keep"
    anim = tmp_path / "meal-anim.svg"
    argv = ["collect", "8x8", "a1", "h8", "--svg", str(svg), "--force"]
    code, _, _ = run([*argv, "--animate", str(anim)], capsys)
    assert code == EXIT_OK
    root = ET.fromstring(anim.read_text())
    # a1 to h8 is 6 knight moves: one animated step each
    assert len(root.findall(f".//{SVG}g[@class='step']")) == 6


def test_formulation_collect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["formulation", "collect", "8x8", "a1", *FOOD], capsys)
    assert code == EXIT_OK
    assert "AddCircuit" in out
    assert "minimise" in out
    code, out, _ = run(
        ["formulation", "collect", "5x5", "a1", "e5", "--simple"], capsys
    )
    assert code == EXIT_OK
    assert "skip[v]" in out
    target = tmp_path / "meal.txt"
    code, out, _ = run(
        ["formulation", "collect", "8x8", "a1", *FOOD, "--export", str(target)],
        capsys,
    )
    assert code == EXIT_OK
    assert "circuit" in target.read_text()
