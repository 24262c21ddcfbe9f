"""The tour, count and formulation commands, exit codes and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cpknight.cli import main

PYTHON = sys.executable


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tour_8x8_prints_a_closed_tour(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tour", "8x8", "--method", "cpsat")
    assert code == 0
    assert "closed tour of 8x8" in out
    assert "found by cpsat" in out
    assert out.count("\n") >= 10
    assert "path: " in out


def test_tour_4x4_is_proved_impossible_with_its_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "tour", "4x4")
    assert code == 1
    assert "no closed tour of 4x4" in out
    assert "a1-c2-d4-b3-a1" in out


def test_tour_holed8_open_from_a1_is_proved_impossible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Proved by CP-SAT; tests/test_tour_cpsat.py confirms it with a naive model.
    code, out, _ = run(
        capsys, "tour", "holed8", "--open", "--start", "a1", "--method", "cpsat"
    )
    assert code == 1
    assert "CP-SAT proved" in out


def test_tour_json_and_out_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "tour.txt"
    code, out, _ = run(
        capsys,
        "tour",
        "5x5",
        "--open",
        "--start",
        "a1",
        "--method",
        "cpsat",
        "--json",
        "--out",
        str(path),
    )
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "found"
    assert data["closed"] is False
    assert data["method"] == "cpsat"
    assert data["reason"] is None
    assert len(data["cells"]) == 25
    assert data["cells"][0] == [0, 0]
    code, out, _ = run(capsys, "check", "5x5", str(path), "--open")
    assert code == 0
    code, out, _ = run(capsys, "tour", "4x4", "--json")
    data = json.loads(out)
    assert code == 1
    assert data["status"] == "infeasible"
    assert "a1-c2" in data["reason"]


def test_tour_time_limit_gives_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    code, out, _ = run(
        capsys, "tour", "60x60", "--method", "cpsat", "--time-limit", "0.3", "--json"
    )
    assert code == 3
    assert json.loads(out)["status"] == "unknown"
    # Stopped by the limit, not by luck: the ceiling is generous, for a loaded
    # machine (benchmarks/limits.py holds commands to the limit plus a second).
    assert time.perf_counter() - started < 30


def test_count_3x4_open(capsys: pytest.CaptureFixture[str]) -> None:
    # 16 directed open tours on 3x4: tests/test_tour_cpsat.py checks it by
    # brute force.
    code, out, _ = run(capsys, "count", "3x4", "--open")
    assert code == 0
    assert "16 directed, 8 undirected (complete" in out
    code, out, _ = run(capsys, "count", "3x4", "--open", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["status"], data["directed"], data["undirected"]) == (
        "found",
        16,
        8,
    )


def test_count_partial_at_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "count", "6x6", "--method", "cpsat", "--time-limit", "0.3", "--json"
    )
    assert code == 3
    data = json.loads(out)
    assert data["status"] == "unknown"
    assert data["directed"] is None  # a partial count is not a count
    assert data["at_least_directed"] >= 0


def test_formulation_tour_prints_and_exports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "formulation", "tour", "5x5", "--open")
    assert code == 0
    assert "dummy-node" in out
    assert "add_circuit" in out
    path = tmp_path / "m.pbtxt"
    code, out, _ = run(capsys, "formulation", "tour", "6x6", "--export", str(path))
    assert code == 0
    assert 'name: "arc[a1->b3]"' in path.read_text()
    code, _, err = run(capsys, "formulation", "tour", "6x6", "--export", str(path))
    assert code == 2
    assert "--force" in err


def test_map_and_distance_never_import_ortools() -> None:
    script = (
        "import sys\n"
        "from cpknight.cli import main\n"
        "assert main(['map', '8x8', 'a1']) == 0\n"
        "assert main(['distance', 'holed8', 'a1', 'h8']) == 0\n"
        "print('LOADED' if any(m.startswith('ortools') for m in sys.modules) "
        "else 'CLEAN')\n"
    )
    done = subprocess.run(
        [PYTHON, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().endswith("CLEAN")


def _maps(pid: int, library: str) -> bool:
    """Whether process ``pid`` has mapped a shared library named ``library``."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _wait_until(
    happened: Callable[[], bool], proc: subprocess.Popen[str], seconds: float = 60
) -> None:
    """Wait for an event, with a generous ceiling; fail if the process ended."""
    end = time.monotonic() + seconds
    while not happened():
        assert proc.poll() is None, "the process ended before the event"
        assert time.monotonic() < end, f"no event in {seconds} s"
        time.sleep(0.05)


@pytest.mark.skipif(
    not Path("/proc/self/maps").exists(), reason="SIGINT semantics; reads /proc"
)
def test_ctrl_c_stops_the_search_cleanly() -> None:
    proc = subprocess.Popen(
        [PYTHON, "-m", "cpknight", "tour", "120x120", "--open", "--method", "cpsat"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    # an event, not a guess at the start-up's length (a loaded machine takes
    # seconds to import): CP-SAT loaded, then a moment into the model
    _wait_until(lambda: _maps(proc.pid, "ortools"), proc)
    time.sleep(1.0)
    started = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.perf_counter() - started < 5
    assert proc.returncode == 130, (out, err)
    assert "interrupted" in err
    assert "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT semantics")
def test_ctrl_c_during_a_count_prints_the_partial_count() -> None:
    command = ["count", "7x7", "--open", "--method", "cpsat", "--json", "--progress"]
    proc = subprocess.Popen(
        [PYTHON, "-m", "cpknight", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    # Ctrl-C once tours are being counted (the progress line says so), not
    # 2.5 s in: on a loaded machine that was still start-up, and no JSON came
    assert proc.stderr is not None
    seen = b""
    end = time.monotonic() + 60
    while not re.search(rb"[1-9][0-9]* directed tours so far", seen):
        assert time.monotonic() < end, seen[-500:]
        assert proc.poll() is None, seen[-500:]
        seen += os.read(proc.stderr.fileno(), 4096)
    proc.send_signal(signal.SIGINT)
    raw_out, raw_err = proc.communicate(timeout=20)
    out, err = raw_out.decode(), (seen + raw_err).decode(errors="replace")
    assert proc.returncode == 130, (out, err)
    data = json.loads(out)
    assert data["status"] == "unknown"
    assert data["at_least_directed"] > 0


def test_a_big_tour_saved_with_out_is_not_told_to_add_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Over the grid limit the grid is not printed: the hint names --out only
    # when the tour is not already being saved.
    code, out, _ = run(capsys, "tour", "120x120")
    assert code == 0
    assert "or --out FILE to save the tour" in out
    saved = tmp_path / "t.npy"
    code, out, _ = run(capsys, "tour", "120x120", "--out", str(saved))
    assert code == 0
    assert saved.exists()
    assert "add --grid to print it)" in out
    assert "--out FILE" not in out
