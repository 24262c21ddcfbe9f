"""The longest and formulation longest commands: output, JSON, files, exit codes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpknight import Board, check_longest
from cpknight.cli import EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NONE, EXIT_OK, main
from tests.test_longest import brute_force

SVG = "{http://www.w3.org/2000/svg}"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_path_printed_checked_and_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg, anim = tmp_path / "u.svg", tmp_path / "u-anim.svg"
    code, out, _ = run(
        ["longest", "5x5", "--uncrossed", "--svg", str(svg), "--animate", str(anim)],
        capsys,
    )
    assert code == EXIT_OK
    want = brute_force(Board.parse("5x5"), "uncrossed", False)  # 10, A003192
    assert f"{want} moves, proved optimal" in out
    names = next(x for x in out.splitlines() if x.startswith("path:")).split()[1:]
    assert len(names) == want + 1
    check_longest(Board.parse("5x5"), names, kind="uncrossed", closed=False)
    root = ET.fromstring(svg.read_text())
    assert len(root.findall(f".//{SVG}path[@class='tour']")) == 1
    assert len(root.findall(f".//{SVG}text[@class='num']")) == want + 1
    steps = ET.fromstring(anim.read_text()).findall(f".//{SVG}g[@class='step']")
    assert len(steps) == want
    assert f"wrote {svg}" in out


def test_json_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["longest", "4x4", "--induced", "--closed", "--method", "cpsat", "--json"],
        capsys,
    )
    assert code == EXIT_OK
    data = json.loads(out)
    assert data["question"] == "longest"
    assert data["status"] == "optimal"
    assert data["moves"] == data["bound"] == 10  # A165143, n = 4
    assert data["closed"] is True
    assert data["kind"] == "induced"
    assert len(data["cells"]) == 10


def test_method_all_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["longest", "4x4", "--uncrossed", "--method", "all", "--time-limit", "20"],
        capsys,
    )
    assert code == EXIT_OK
    rows = {line.split()[0]: line.split() for line in out.splitlines()[3:6]}
    assert set(rows) == {"cpsat", "cpsat-pairwise", "search"}
    assert all(r[1] == "optimal" and r[2] == "5" for r in rows.values())


def test_method_all_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["longest", "3x3", "--induced", "--method", "all", "--json"], capsys
    )
    assert code == EXIT_OK
    data = json.loads(out)
    assert [r["moves"] for r in data["rows"]] == [6, 6, 6]  # cpsat, search, frontier


def test_no_cycle_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["longest", "3x3", "--uncrossed", "--closed"], capsys)
    assert code == EXIT_NONE
    assert out.startswith("infeasible: no uncrossed cycle")


def test_limit_without_answer_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        [
            "longest",
            "30x30",
            "--induced",
            "--closed",
            "--method",
            "cpsat",
            "--time-limit",
            "0.05",
        ],
        capsys,
    )
    assert code in (EXIT_LIMIT, EXIT_OK)
    if code == EXIT_LIMIT:
        assert out.startswith("unknown:")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["8x8", "--uncrossed", "--torus"], "bounded 2D board"),
        (["4x4x4", "--uncrossed", "--piece", "1,2,3"], "bounded 2D board"),
        (["9x", "--induced"], "expected a board"),
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["longest", *argv], capsys)
    assert code == EXIT_BAD_INPUT
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_kind_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["longest", "5x5"])
    assert exc.value.code == EXIT_BAD_INPUT


def test_formulation_prints_both_forms(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["formulation", "longest", "6x6", "--uncrossed"], capsys)
    assert code == EXIT_OK
    assert "292 crossing pairs" in out  # the pairs, counted below independently
    assert "<- built" in out
    assert "cliques C of mutually crossing moves" in out


def test_formulation_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.pbtxt"
    code, out, _ = run(
        ["formulation", "longest", "4x4", "--induced", "--export", str(path)],
        capsys,
    )
    assert code == EXIT_OK
    text = path.read_text()
    assert 'name: "arc[a1->b3]"' in text
    assert 'name: "skip[a1]"' in text
    assert f"wrote {path}" in out


def test_formulation_keeps_its_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # finding the crossings of 300x300 takes seconds: the limit stops it, and
    # the export file is not written
    path = tmp_path / "m.pbtxt"
    args = ["formulation", "longest", "300x300", "--uncrossed", "--time-limit", "0.2"]
    code, _, err = run([*args, "--export", str(path)], capsys)
    assert code == EXIT_LIMIT
    assert "time limit of 0.2 s" in err
    assert not path.exists()


def test_crossing_pairs_count_independently() -> None:
    # Every pair of 6x6 knight moves, tested by the checker's exact geometry.
    from cpknight.longest.common import _meet_elsewhere
    from cpknight.pieces import move_graph

    graph = move_graph("6x6")
    moves = [
        (graph.cell(u), graph.cell(int(v)))
        for u in range(graph.n_nodes)
        for v in graph.neighbors(u)
        if u < v
    ]
    count = sum(
        _meet_elsewhere(*moves[i], *moves[j])
        for i in range(len(moves))
        for j in range(i + 1, len(moves))
    )
    assert count == 292
