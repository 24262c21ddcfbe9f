"""The ``distance`` and ``formulation distance`` commands: tables, JSON, exit codes.

Expected distances: a1 to b2 is 4 on 8x8 and 2 on the plane (MISSION.md; BFS
agrees in test_distance_ip.py); 0,0 to 100,57 on the plane is 53 by the closed
form of OEIS A065775 (X=100, Y=57: p=43, q=-14, 43 - 2*floor(-14/3) = 53).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NoReturn

import pytest

from cpknight import SolveLimitError, api
from cpknight.cli import main
from cpknight.distances.instance import DistanceInstance
from cpknight.engines import Engine
from cpknight.solving import Run


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _row(out: str, method: str) -> list[str]:
    for line in out.splitlines():
        if line.split()[:1] == [method]:
            return line.split()
    raise AssertionError(f"no row for {method} in:\n{out}")


def test_distance_all_methods_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["distance", "8x8", "a1", "b2", "--method", "all"], capsys)
    assert code == 0
    header = out.splitlines()[1].split()
    assert header[:7] == [
        "method",
        "moves",
        "kind",
        "seconds",
        "bound",
        "cuts",
        "counts",
    ]
    for method in ("bfs", "ip", "flow", "formula"):
        row = _row(out, method)
        assert row[1] == "4"
        assert row[2] == "exact"
    ip = _row(out, "ip")
    assert ip[4] == "2"  # the first bound: the plane's answer
    assert int(ip[5]) >= 1  # at least one no-good cut
    assert "first bound 2" in out


def test_distance_json_rows(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["distance", "8x8", "a1", "b2", "--method", "all", "--json"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    rows = {r["method"]: r for r in json.loads(out)["rows"]}
    assert set(rows) == set(api.DISTANCE_METHODS)  # every registered method
    for row in rows.values():
        assert row["distance"] == 4
        assert row["exact"] is True
        assert isinstance(row["seconds"], float)
    ip = rows["ip"]
    assert ip["bound"] == 2
    assert ip["cuts"] >= 1
    assert sum(ip["counts"].values()) == 4
    assert all(re.fullmatch(r"[+-]\d,[+-]\d", key) for key in ip["counts"])


def test_distance_plane_ip_and_formula_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["distance", "plane", "0,0", "100,57", "--method", "ip,formula", "--json"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    rows = {r["method"]: r for r in json.loads(out)["rows"]}
    assert rows["ip"]["distance"] == rows["formula"]["distance"] == 53
    assert rows["ip"]["cuts"] == 0
    assert rows["ip"]["bound"] == 53


def test_distance_plane_all_marks_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["distance", "plane", "0,0", "1,1", "--method", "all"], capsys)
    assert code == 0
    assert _row(out, "ip")[1] == "2"
    assert _row(out, "formula")[1] == "2"
    assert _row(out, "bfs")[2] == "refused"
    assert _row(out, "flow")[2] == "refused"
    assert "needs a finite board" in out


def test_distance_single_ip_prints_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["distance", "8x8", "a1", "b2", "--method", "ip"], capsys)
    assert code == 0
    assert "4 moves" in out
    assert "first bound 2" in out
    assert out.count("path:") == 1


def test_distance_torus_reports_wraps(capsys: pytest.CaptureFixture[str]) -> None:
    # On the 8x8 torus a1 -> h1 is one column to the left: 3 knight moves, as
    # for (0, 1) on the plane (OEIS A065775), with one wrap of the files.
    argv = ["distance", "8x8", "a1", "h1", "--method", "ip,bfs", "--torus"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert _row(out, "ip")[1] == _row(out, "bfs")[1] == "3"
    assert "wraps col -1" in out or "wraps col +1" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["distance", "3x3", "a1", "b2", "--method", "all"],
        ["distance", "3x3", "a1", "b2", "--method", "ip"],
        ["distance", "plane", "0,0", "0,1", "--method", "ip", "--piece", "camel"],
        ["distance", "8x8", "a1", "a2", "--method", "flow", "--piece", "camel"],
    ],
    ids=["3x3-centre-all", "3x3-centre-ip", "camel-plane-colour", "camel-8x8-flow"],
)
def test_distance_unreachable_exit_1(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 1
    assert "cannot be reached" in out + err


def test_distance_unreachable_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["distance", "3x3", "a1", "b2", "--method", "bfs,ip,flow", "--json"]
    code, out, _ = run(argv, capsys)
    assert code == 1
    rows = json.loads(out)["rows"]
    assert [r["status"] for r in rows] == ["infeasible"] * 3
    assert [r.get("distance") for r in rows] == [None, None, None]


@pytest.mark.parametrize(
    "argv",
    [
        ["distance", "8x8", "a1", "i9", "--method", "ip"],
        ["distance", "8x8", "a1", "b2", "--method", "simplex"],
        ["distance", "4x4", "a1", "b2", "--method", "formula"],
        ["distance", "8x8", "a1", "b2", "--method", "formula", "--piece", "camel"],
        ["distance", "plane", "0,0", "1,2", "--method", "flow"],
        ["distance", "plane", "0,0", "1,2", "--method", "bfs"],
        ["distance", "cube4", "0,0,0", "1,2,3", "--method", "ip", "--piece", "1,2,3,4"],
    ],
    ids=[
        "bad-cell",
        "bad-method",
        "formula-4x4",
        "formula-camel",
        "flow-plane",
        "bfs-plane",
        "piece-too-long",
    ],
)
def test_distance_bad_input_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_formulation_distance_prints(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["formulation", "distance", "8x8", "a1", "b2"], capsys)
    assert code == 0
    assert "n[+1,+2]" in out
    assert "row:" in out
    assert "= 1" in out
    code, out, _ = run(
        ["formulation", "distance", "8x8", "a1", "b2", "--method", "flow"], capsys
    )
    assert code == 0
    assert "arc[a1->b3]" in out
    assert "totally unimodular" in out


@pytest.mark.parametrize("suffix", ["lp", "mps"])
def test_formulation_distance_export(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / f"model.{suffix}"
    argv = ["formulation", "distance", "8x8", "a1", "b2", "--export", str(target)]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert target.exists()
    assert "wrote" in out
    # A second export refuses to overwrite without --force.
    code, _, err = run(argv, capsys)
    assert code == 2
    assert "--force" in err
    code, _, _ = run([*argv, "--force"], capsys)
    assert code == 0


def test_formulation_distance_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = str(tmp_path / "model.txt")
    argv = ["formulation", "distance", "8x8", "a1", "b2", "--export", bad]
    assert run(argv, capsys)[0] == 2
    argv = ["formulation", "distance", "plane", "0,0", "1,2", "--method", "flow"]
    code, _, err = run(argv, capsys)
    assert code == 2
    assert "finite board" in err


def _stops(instance: DistanceInstance, run: Run) -> NoReturn:
    raise SolveLimitError("the ip method reached the time limit")


def test_distance_time_limit_unknown_row_and_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A method that runs out of time is an "unknown" row beside the others; on
    # its own it is exit code 3.
    stops = Engine("ip", "distance", "tests.test_cli_distance:_stops")
    monkeypatch.setitem(api.DISTANCE_METHODS, "ip", stops)
    code, out, _ = run(
        ["distance", "8x8", "a1", "b2", "--method", "bfs,ip", "--time-limit", "1"],
        capsys,
    )
    assert code == 0
    assert _row(out, "ip")[1:3] == ["-", "unknown"]
    assert _row(out, "bfs")[1] == "4"
    code, _, err = run(["distance", "8x8", "a1", "b2", "--method", "ip"], capsys)
    assert code == 3
    assert "time limit" in err


def test_distance_rejects_a_bad_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["distance", "8x8", "a1", "b2", "--time-limit", "-1"], capsys)
    assert code == 2
    assert "the time limit must be a positive number of seconds" in err
