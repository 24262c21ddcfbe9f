"""``cpknight study``, ``sweep --pairs``, ``count --shards``; results files, resume,
Ctrl-C (a real SIGINT to a real process) and exit codes.

Expected answers: 4x4 has no closed tour (Schwenk 1991); 5x5 has 304 open tours
from a corner (Jelliss); 3x4 has 8 undirected open tours (16 directed).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpknight.cli import main
from cpknight.runner import read_results

SUITE = """\
5x5 --open --start a1
4x4
3x4 --open
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_study_prints_the_summary_and_writes_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text(SUITE)
    out_csv, out_json = tmp_path / "out.csv", tmp_path / "out.json"
    profile, solved = tmp_path / "profile.svg", tmp_path / "solved.svg"
    code, out, _ = run(
        capsys,
        "study",
        str(suite),
        "--method",
        "prune,warnsdorff",
        "--csv",
        str(out_csv),
        "--json-file",
        str(out_json),
        "--svg",
        str(profile),
        "--time-svg",
        str(solved),
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("3 instances x 2 engines, a limit of 60 s each")
    assert lines[1].split() == [
        "engine",
        "solved",
        "proved",
        "none",
        "limit",
        "refused",
        "wrong",
        "seconds",
    ]
    assert lines[2].split()[:6] == ["prune", "2", "1", "0", "0", "0"]
    assert "wrong: none" in out
    assert len(out_csv.read_text().splitlines()) == 1 + 6
    data = json.loads(out_json.read_text())
    assert data["summary"]["prune"]["solved"] == 2
    for picture in (profile, solved):
        root = ET.fromstring(picture.read_text())
        assert len(root.findall(".//{http://www.w3.org/2000/svg}polyline")) == 2


def test_study_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("8x8\n9x9 --start k1\n")
    code, _, err = run(capsys, "study", str(suite))
    assert code == 2
    assert err.strip().splitlines() == [
        f"cpknight: error: suite '{suite}' line 2 '9x9 --start k1': "
        "cell 'k1' is not on board 9x9"
    ]
    code, _, err = run(capsys, "study", str(suite), "--method", "nope")
    assert code == 2
    code, _, err = run(capsys, "study", str(tmp_path / "none.txt"))
    assert (code, err.count("\n")) == (2, 1)
    assert "cannot read suite" in err


def test_sweep_pairs_draws_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    picture = tmp_path / "pairs.svg"
    code, out, _ = run(
        capsys, "sweep", "3x4", "--pairs", "--method", "prune", "--svg", str(picture)
    )
    assert code == 0
    assert "66 pairs: 7 joined by a tour" in out
    assert f"wrote {picture}" in out
    root = ET.fromstring(picture.read_text())
    assert (
        len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='found']")) == 14
    )
    code, out, _ = run(capsys, "sweep", "3x4", "--pairs", "--method", "prune", "--json")
    assert json.loads(out)["counts"]["found"] == 7
    code, _, err = run(capsys, "sweep", "3x4", "--pairs", "--closed")
    assert code == 2
    assert "--pairs asks about open tours" in err


def test_count_shards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "count", "5x5", "--open", "--start", "a1", "--shards", "6"
    )
    assert code == 0
    assert out.startswith("open tours of 5x5 (knight (1,2)) from a1: 304 directed")
    code, out, _ = run(capsys, "count", "3x4", "--open", "--shards", "4", "--json")
    row = json.loads(out)
    assert (row["directed"], row["undirected"]) == (16, 8)
    assert row["shards"] >= 4


def test_results_file_and_resume_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    results = tmp_path / "run.jsonl"
    args = ["sweep", "4x4", "--open", "--method", "prune"]
    code, first, _ = run(capsys, *args, "--results", str(results))
    assert code == 0
    assert len(read_results(results)) == 16
    code, _, err = run(capsys, *args, "--results", str(results))
    assert code == 2
    assert "exists; resume it with --resume" in err
    code, again, _ = run(capsys, *args, "--resume", str(results))
    assert code == 0
    assert again.splitlines()[:-1] == first.splitlines()[:-1]  # all but the times
    assert len(read_results(results)) == 16
    code, _, err = run(capsys, "sweep", "5x5", "--open", "--resume", str(results))
    assert code == 2
    assert "holds a task of another run" in err


def _cpknight(*argv: str) -> list[str]:
    return [sys.executable, "-m", "cpknight", *argv]


def test_ctrl_c_keeps_what_is_done_and_resume_finishes(tmp_path: Path) -> None:
    """A real SIGINT to the process group of a real study on a pool of 2 (as
    Ctrl-C in a terminal): one line on stderr, exit 130, the rows done are kept;
    --resume runs the rest, nothing twice, and the answers agree."""
    lines = [f"{n}x{n} --torus --open --start a1" for n in range(5, 9)]
    lines += [f"{m}x{n} --open" for m in (5, 6) for n in range(5, 9)]
    # Last, closed boards on which backtrack runs to its limit: seconds of work
    # remain after the first rows, so Ctrl-C lands mid-study on a loaded machine
    # too (with only quick rows left, the study could end before the signal).
    lines += [f"{m}x{n}" for m, n in ((10, 10), (10, 12), (12, 12), (12, 14))]
    suite = tmp_path / "suite.txt"
    suite.write_text("\n".join(lines) + "\n")
    results = tmp_path / "run.jsonl"
    argv = ["study", str(suite), "--method", "prune,backtrack", "--time-limit", "1"]
    process = subprocess.Popen(
        _cpknight(*argv, "--jobs", "2", "--results", str(results)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if results.exists() and len(read_results(results)) >= 3:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the study finished before it was interrupted"
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.splitlines() == [
        f"cpknight: interrupted after {len(read_results(results))} of 32 tasks; "
        f"kept in {results} (--resume {results} goes on)"
    ]
    kept = len(read_results(results))
    assert 3 <= kept < 32
    done = subprocess.run(
        _cpknight(*argv, "--jobs", "2", "--resume", str(results)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = read_results(results)
    keys = [row["key"] for row in rows]
    assert len(keys) == len(set(keys)) == 32
    assert "wrong: none" in done.stdout
