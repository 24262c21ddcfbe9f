"""``cpknight compare`` and ``cpknight sweep``: tables, grids, JSON, exit codes.

Expected answers: 6x6 has open tours from a1 (Conrad et al. 1994; a found tour
is checked); 4x4 has no closed tour (Schwenk 1991); on 5x5 an open tour starts
only on the 13 cells with row + col even (the knight alternates colours and
the 25-cell path must start and end on the larger class of 13).
"""

from __future__ import annotations

import json

import pytest

from cpknight.cli import main

SEARCH = "backtrack,warnsdorff,prune,greedy"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_6x6_open_from_a1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "compare", "6x6", "--open", "--start", "a1", "--method", SEARCH
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "open tour of 6x6 (knight (1,2)) from a1, a limit of 60 s each:"
    assert lines[1].split() == ["method", "outcome", "seconds", "effort", "checked"]
    rows = {line.split()[0]: line for line in lines[3:7]}
    assert set(rows) == set(SEARCH.split(","))
    for line in rows.values():
        assert " found " in line
        assert line.endswith("yes")
    assert "35 attempts, 0 backtracks" in rows["warnsdorff"]
    assert any(line.startswith("fastest answer: ") for line in lines)


def test_compare_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "compare",
        "6x6",
        "--open",
        "--start",
        "a1",
        "--method",
        "warnsdorff,prune",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["instance"] == {
        "board": "6x6",
        "piece": [1, 2],
        "closed": False,
        "start": [0, 0],
        "end": None,
        "time_limit": 60.0,
    }
    assert [r["method"] for r in data["rows"]] == ["warnsdorff", "prune"]
    for row in data["rows"]:
        assert row["status"] == "found"
        assert row["cells"] is not None  # a checked tour
        assert row["effort"] == {"attempts": 35, "backtracks": 0}


def test_compare_proved_none_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """Schwenk 1991: no closed tour of 4x4."""
    code, out, _ = run(capsys, "compare", "4x4", "--method", "prune,greedy")
    assert code == 1
    assert out.count("proved none") >= 2


def test_compare_limit_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "compare",
        "8x8",
        "--method",
        "backtrack",
        "--time-limit",
        "0.1",
        "--json",
    )
    assert code == 3
    row = json.loads(out)["rows"][0]
    assert row["status"] == "unknown"
    assert row["effort"]["attempts"] > 0


def test_compare_bad_method_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "compare", "6x6", "--method", "prune,bogus")
    assert code == 2
    assert "'bogus'" in err


def test_compare_with_cpsat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "compare", "6x6", "--open", "--start", "a1", "--method", "cpsat"
    )
    assert code == 0
    assert "branches" in out


def test_sweep_5x5_open(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sweep", "5x5", "--open", "--method", "prune")
    assert code == 0
    assert err == ""  # progress only on a terminal or with --progress
    lines = out.splitlines()
    grid = lines[1:6]
    for i, line in enumerate(grid):
        rank = 5 - i
        marks = line.split("|")[1].split()
        want = ["o" if (rank - 1 + col) % 2 == 0 else "x" for col in range(5)]
        assert marks == want, line
    assert "a tour starts here: 13, x proved none: 12, ? unknown: 0" in out
    assert "why not b1:" in out


def test_sweep_json_and_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "sweep", "5x5", "--open", "--method", "prune", "--jobs", "2", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert len(data["rows"]) == 25
    for cell in data["rows"]:
        r, c = cell["start"]
        assert cell["status"] == ("found" if (r + c) % 2 == 0 else "infeasible")
        assert cell["seconds"] >= 0
        assert isinstance(cell["effort"], dict)
    assert data["counts"] == {"found": 13, "infeasible": 12, "unknown": 0}


def test_sweep_progress_flag(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sweep", "3x4", "--method", "prune", "--progress")
    assert code == 0
    assert "swept 12 of 12 cells" in err


def test_sweep_unknown_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "sweep",
        "6x6",
        "--method",
        "backtrack",
        "--time-limit",
        "0.02",
    )
    assert code == 3
    assert "?" in out
