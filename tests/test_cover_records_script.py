"""``benchmarks/cover_records.py``: the covering tables' record runner, resumable."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cpknight.api.covering import dominate
from cpknight.board import Topology
from tests.conftest import load_script

cr = load_script("cover_records")


def test_sizes_read_ranges_and_lists() -> None:
    assert cr.sizes("19-22") == [19, 20, 21, 22]
    assert cr.sizes("20,24,26-27") == [20, 24, 26, 27]


def test_the_tables_are_the_oeis_entries() -> None:
    tables = cr.TABLES
    # A261752 a(4)..a(12) as the covering tests hold them, and the comment's terms
    assert [tables["A261752"].values[n] for n in range(4, 13)] == [
        *[6, 7, 8, 10, 14, 18, 22, 25, 28]
    ]
    total = tables["A261752"].values
    assert (total[32], total[34], total[38]) == (164, 182, 224)
    assert 33 not in total
    # the smallest open terms are not in the tables
    assert max(tables["A006075"].values) == 21
    assert tables["A006075"].values[17] == 46
    assert max(tables["A342576"].values) == 21
    assert tables["A342576"].values[13] == 29
    assert max(tables["A279407"].values) == 16
    assert tables["A279407"].values[13] == 25


@pytest.mark.parametrize(
    ("table", "kind", "topology"),
    [
        ("A006075", "dominating", None),
        ("A261752", "total", None),
        ("A342576", "independent", None),
        ("A279407", "dominating", "torus"),
    ],
)
def test_each_table_runs_its_own_question(
    table: str, kind: str, topology: str | None
) -> None:
    # the flags each table passes ask what the library's call asks
    n = 6
    row = cr.run_size(table, n, 30.0, "scip")
    torus: Topology | None = "torus" if topology == "torus" else None
    spec = dominate(f"{n}x{n}", kind=kind, topology=torus, method="search")
    assert (row["table"], row["status"], row["size"]) == (table, "optimal", spec.size)
    assert row["size"] == cr.TABLES[table].values[n]


def _main(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["cover_records.py", *args])
    code: int = cr.main()
    return code


def _spy_on_sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """The sizes and methods the runner runs from now on (each run for real)."""
    calls: list[tuple[int, str]] = []
    real = cr.run_size

    def spy(table: str, n: int, limit: float, method: str) -> dict[str, object]:
        calls.append((n, method))
        row: dict[str, object] = real(table, n, limit, method)
        return row

    monkeypatch.setattr(cr, "run_size", spy)
    return calls


def test_a_run_writes_a_row_a_size_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    total = ("--table", "A261752", "--dir", str(tmp_path))
    assert _main(monkeypatch, *total, "--sizes", "5-6") == 0
    rows = [json.loads(x) for x in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert [(r["n"], r["size"], r["status"]) for r in rows] == [
        (5, 7, "optimal"),
        (6, 8, "optimal"),
    ]
    assert all(r["peak_mb"] > 0 and r["exit"] == 0 for r in rows)
    # a line cut short is run again; the sizes done are not
    with (tmp_path / "rows.jsonl").open("a") as out:
        out.write('{"n": 7, "si')
    calls = _spy_on_sizes(monkeypatch)
    assert _main(monkeypatch, *total, "--sizes", "5-7") == 0
    assert calls == [(7, "scip")]
    assert "7  scip  10  10  optimal" in capsys.readouterr().out
    # another table in the same folder runs its own sizes
    assert (
        _main(monkeypatch, "--table", "A342576", "--dir", str(tmp_path), "--sizes", "5")
        == 0
    )
    assert calls == [(7, "scip"), (5, "scip")]


def test_rows_of_the_first_version_are_scip_rows_of_a261752(tmp_path: Path) -> None:
    row = {"n": 6, "size": 8, "bound": 8, "status": "optimal", "seconds": 1.0}
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    assert set(cr.read_rows(tmp_path / "rows.jsonl", "A261752")) == {(6, "scip")}
    assert cr.read_rows(tmp_path / "rows.jsonl", "A006075") == {}


def test_a_proved_value_off_the_table_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = cr.Table("total", ("--total",), {6: 9})
    monkeypatch.setitem(cr.TABLES, "A261752", wrong)
    args = ("--table", "A261752", "--sizes", "6", "--dir", str(tmp_path))
    assert _main(monkeypatch, *args) == 1
    assert "WRONG" in capsys.readouterr().out


def _row(n: int, method: str, size: int, status: str = "optimal") -> dict[str, object]:
    return {"n": n, "method": method, "size": size, "bound": size, "status": status}


def test_a_value_nobody_published_needs_two_methods_that_agree() -> None:
    known = cr.TABLES["A342576"].values
    n = max(known) + 1
    one = {(n, "scip"): _row(n, "scip", 70) | {"seconds": 5.0}}
    lines, ok = cr.verdicts("A342576", one, [n])
    assert ok
    assert lines[1].endswith("not published")
    two = one | {(n, "highs"): _row(n, "highs", 70) | {"seconds": 9.0}}
    lines, ok = cr.verdicts("A342576", two, [n])
    assert ok
    assert all("two routes agree (highs, scip)" in x for x in lines[1:])
    # a route that only found a placement is not a second proof
    found = one | {(n, "cpsat"): _row(n, "cpsat", 71, "feasible") | {"seconds": 9.0}}
    lines, ok = cr.verdicts("A342576", found, [n])
    assert ok
    assert "two routes" not in "\n".join(lines)
    split = one | {(n, "highs"): _row(n, "highs", 69) | {"seconds": 9.0}}
    lines, ok = cr.verdicts("A342576", split, [n])
    assert not ok
    assert "METHODS DISAGREE" in lines[1]


def test_a_size_stopped_at_its_limit_runs_again_given_longer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = {"n": 6, "size": 9, "bound": 7, "status": "feasible", "seconds": 1.0}
    row["limit"] = 1.0
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    calls = _spy_on_sizes(monkeypatch)
    args = ("--table", "A261752", "--sizes", "6", "--dir", str(tmp_path))
    assert _main(monkeypatch, *args, "--limit", "1") == 0
    assert calls == []  # the same limit: not again
    assert _main(monkeypatch, *args) == 0
    assert calls == [(6, "scip")]  # a longer one: again, and now proved
    last = json.loads((tmp_path / "rows.jsonl").read_text().splitlines()[-1])
    assert (last["size"], last["status"]) == (8, "optimal")
    # a second method on the same size is a row of its own
    assert _main(monkeypatch, *args, "--method", "highs") == 0
    assert calls == [(6, "scip"), (6, "highs")]
