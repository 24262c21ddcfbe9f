"""``benchmarks/total_domination.py``: the record runner of A261752, resumable."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import load_script

td = load_script("total_domination")


def test_sizes_read_ranges_and_lists() -> None:
    assert td.sizes("19-22") == [19, 20, 21, 22]
    assert td.sizes("20,24,26-27") == [20, 24, 26, 27]


def test_the_table_is_oeis_a261752() -> None:
    # a(4)..a(12) as the covering tests hold them, and the entry's comment
    assert [td.A261752[n] for n in range(4, 13)] == [6, 7, 8, 10, 14, 18, 22, 25, 28]
    assert (td.A261752[32], td.A261752[34], td.A261752[38]) == (164, 182, 224)
    assert 33 not in td.A261752


def _main(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["total_domination.py", *args])
    code: int = td.main()
    return code


def _spy_on_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes the runner runs from now on (each still run for real)."""
    calls: list[int] = []
    real = td.run_size

    def spy(n: int, limit: float) -> dict[str, object]:
        calls.append(n)
        row: dict[str, object] = real(n, limit)
        return row

    monkeypatch.setattr(td, "run_size", spy)
    return calls


def test_a_run_writes_a_row_a_size_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _main(monkeypatch, "--sizes", "5-6", "--dir", str(tmp_path)) == 0
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
    assert _main(monkeypatch, "--sizes", "5-7", "--dir", str(tmp_path)) == 0
    assert calls == [7]
    assert "7  10  10  optimal" in capsys.readouterr().out


def test_a_proved_value_off_the_table_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(td.A261752, 6, 9)  # a wrong table entry
    assert _main(monkeypatch, "--sizes", "6", "--dir", str(tmp_path)) == 1
    assert "WRONG" in capsys.readouterr().out


def test_a_size_stopped_at_its_limit_runs_again_given_longer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = {"n": 6, "size": 9, "bound": 7, "status": "feasible", "seconds": 1.0}
    row["limit"] = 1.0
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    calls = _spy_on_sizes(monkeypatch)
    assert (
        _main(monkeypatch, "--sizes", "6", "--dir", str(tmp_path), "--limit", "1") == 0
    )
    assert calls == []  # the same limit: not again
    assert _main(monkeypatch, "--sizes", "6", "--dir", str(tmp_path)) == 0
    assert calls == [6]  # a longer one: again, and now proved
    last = json.loads((tmp_path / "rows.jsonl").read_text().splitlines()[-1])
    assert (last["size"], last["status"]) == (8, "optimal")
