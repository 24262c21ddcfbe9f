"""Ctrl-C for real (issue 27): a SIGINT to the process group, as a terminal
sends it, or to the main process alone, as ``kill -INT`` does; each command
prints what it finished in its own format, marked partial, says where the rest
is kept and how to resume, and exits 130.

Each case starts ``cpknight`` in a session of its own, waits until it is
working (its progress line, or its first output), then interrupts it."""

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

from cpknight.runner import read_results

Ready = Callable[[str, str], bool]


def _interrupt(
    argv: list[str],
    tmp_path: Path,
    *,
    group: bool,
    ready: Ready,
    settle: float = 0.3,
    wait: float = 60.0,
) -> tuple[int, str, str, float]:
    """Run ``cpknight argv``; SIGINT it once ``ready(out, err)``; what it did."""
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "cpknight", *argv],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=_hear_ctrl_c,
        )
        try:
            began = time.monotonic()
            while not ready(_text(out_path), _text(err_path)):
                assert child.poll() is None, _text(err_path)
                assert time.monotonic() - began < wait, "never got to work"
                time.sleep(0.05)
            time.sleep(settle)
            if group:
                os.killpg(child.pid, signal.SIGINT)
            else:
                os.kill(child.pid, signal.SIGINT)
            signalled = time.monotonic()
            code = child.wait(timeout=wait)
            stopped = time.monotonic() - signalled
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    return code, _text(out_path), _text(err_path), stopped


def _hear_ctrl_c() -> None:
    """Ctrl-C's default in the child, as a terminal's: a test run started in
    the background by a shell without job control ignores SIGINT, and a child
    would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _text(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def _progress(what: str) -> Ready:
    """Ready once the progress line counts a first ``what`` done."""
    pattern = re.compile(rf"\b[1-9]\d* of \d+ {what}")
    return lambda out, err: bool(pattern.search(err))


def _kept(err: str) -> Path:
    found = re.search(r"kept in (\S+) \(--resume \1 goes on\)", err)
    assert found, err
    return Path(found.group(1))


@pytest.mark.parametrize("group", [True, False], ids=["group", "main"])
def test_a_sharded_count_keeps_its_partial_sum(tmp_path: Path, group: bool) -> None:
    jobs = [] if group else ["--jobs", "2"]  # the main process alone: a pool
    # 4x8 open: 16 shards of about a third of a second each (3 s in all on
    # two workers), so the signal lands mid-count however quick start-up is
    # (6x6 closed ended within the settle after its first shard)
    code, out, err, _ = _interrupt(
        ["count", "4x8", "--open", "--shards", "16", "--progress", *jobs],
        tmp_path,
        group=group,
        ready=_progress("shards"),
    )
    assert code == 130, err
    assert "at least" in out
    assert "interrupted (Ctrl-C) after" in out
    kept = _kept(err)
    try:
        done = [row for row in read_results(kept) if row["status"] == "found"]
        directed = sum(row["directed"] for row in done)
        assert f"at least {directed} directed" in out
    finally:
        kept.unlink()


def test_a_sharded_count_json_is_a_partial_document(tmp_path: Path) -> None:
    code, out, err, _ = _interrupt(
        ["count", "6x6", "--shards", "16", "--progress", "--json"],
        tmp_path,
        group=True,
        ready=_progress("shards"),
    )
    assert code == 130, err
    document = json.loads(out)
    assert document["schema"] == 1
    assert document["partial"] is True
    assert document["status"] == "unknown"
    _kept(err).unlink()


def test_a_study_prints_the_instances_finished(tmp_path: Path) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("".join(f"{n}x{n}\n" for n in range(16, 40, 2)))
    code, out, err, _ = _interrupt(
        ["study", str(suite), "--method", "cpsat", "--time-limit", "3", "--progress"],
        tmp_path,
        group=True,
        ready=_progress("runs"),
    )
    assert code == 130, err
    assert "cpsat" in out
    assert "partial: interrupted (Ctrl-C)" in out
    kept = _kept(err)
    assert len(read_results(kept)) >= 1
    kept.unlink()


def test_a_study_json_is_a_partial_document(tmp_path: Path) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("".join(f"{n}x{n}\n" for n in range(16, 40, 2)))
    code, out, err, _ = _interrupt(
        ["study", str(suite), "--method", "cpsat", "--progress", "--json"],
        tmp_path,
        group=False,
        ready=_progress("runs"),
    )
    assert code == 130, err
    document = json.loads(out)
    assert document["partial"] is True
    assert document["schema"] == 1
    _kept(err).unlink()


@pytest.mark.parametrize("group", [True, False], ids=["group", "main"])
def test_a_pair_sweep_prints_the_pairs_finished(tmp_path: Path, group: bool) -> None:
    code, out, err, _ = _interrupt(
        ["sweep", "10x10", "--pairs", "--progress"],
        tmp_path,
        group=group,
        ready=_progress("pairs solved"),
    )
    assert code == 130, err
    assert "partial: interrupted (Ctrl-C)" in out
    _kept(err).unlink()


def test_formulation_count_exits_130(tmp_path: Path) -> None:
    code, out, err, _ = _interrupt(
        ["formulation", "count", "6x6", "--open", "--time-limit", "none"],
        tmp_path,
        group=True,
        ready=lambda out, err: "frontier program" in out,
        settle=1.0,
    )
    assert code == 130, err
    assert "interrupted" in out


@pytest.mark.slow
@pytest.mark.parametrize("group", [True, False], ids=["group", "main"])
def test_a_sharded_count_always_stops_and_resumes(tmp_path: Path, group: bool) -> None:
    """The in-process count once took Ctrl-C as one shard's limit and ran on."""
    for attempt in range(5):
        code, _, err, stopped = _interrupt(
            ["count", "6x6", "--shards", "16", "--progress"],
            tmp_path,
            group=group,
            ready=_progress("shards"),
            settle=0.05 * attempt,  # the whole count takes 0.8 s when idle
        )
        assert code == 130, (attempt, err)
        assert stopped < 5, (attempt, stopped)
        kept = _kept(err)
    # the last run's file resumes to the whole count: 9,862 undirected closed
    # tours of 6x6 (OEIS A001230)
    resumed = subprocess.run(
        [
            *(sys.executable, "-m", "cpknight", "count", "6x6", "--shards", "16"),
            *("--resume", str(kept), "--json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["undirected"] == 9862
    assert kept.exists()  # a file the user resumed is the user's
    kept.unlink()


def test_a_fewest_crossings_tour_after_ctrl_c_is_marked_partial(tmp_path: Path) -> None:
    """The best tour so far is printed, but not as the answer: exit 130."""
    began = time.monotonic()
    code, out, err, stopped = _interrupt(
        ["tour", "8x8", "--min", "crossings", "--json"],
        tmp_path,
        group=True,
        ready=lambda out, err: time.monotonic() - began > 2.5,  # CP-SAT is at work
        settle=0.0,
    )
    assert code == 130, err
    assert stopped < 1.5, stopped
    row = json.loads(out)
    assert row["schema"] == 1
    if row["cells"] is not None:  # a tour found before Ctrl-C: the best so far
        assert row["status"] == "feasible"
        assert "not proved fewest" in err


def test_ctrl_c_in_the_first_phase_of_a_magic_tour_says_where(tmp_path: Path) -> None:
    """Ctrl-C while the quartets' first phase searches (8x14 takes it 25 s or
    more): exit 130 at once, and the line says it was that phase's search,
    not the plain model's building that came next."""
    began = time.monotonic()
    code, out, err, stopped = _interrupt(
        ["tour", "8x14", "--magic", "--seed", "3"],
        tmp_path,
        group=True,
        ready=lambda out, err: time.monotonic() - began > 2.5,  # CP-SAT is at work
        settle=0.0,
    )
    assert code == 130, err
    assert stopped < 1.5, stopped
    assert "interrupted (Ctrl-C) while searching with the first phase" in out + err


@pytest.mark.parametrize(
    "argv",
    [
        ["dominate", "200x200"],  # GLOP's LP relaxation, then CP-SAT
        ["dominate", "20x20", "--method", "highs"],  # HiGHS: a worker, ended
        ["dominate", "20x20", "--method", "portfolio"],  # CP-SAT and SCIP at once
        # two colours solved one after the other: Ctrl-C in the first
        ["dominate", "27x27", "--total", "--method", "scip"],
    ],
    ids=["lp-relaxation", "highs", "portfolio", "in-parts"],
)
def test_ctrl_c_stops_a_covering_solve(argv: list[str], tmp_path: Path) -> None:
    """Issue 35: GLOP and HiGHS ignored Ctrl-C (the first and the second) for
    20 s and more; the native solve is now stopped (GLOP) or its worker
    process ended (HiGHS), and the command exits 130 saying so."""
    began = time.monotonic()
    code, out, err, stopped = _interrupt(
        argv,
        tmp_path,
        group=False,
        ready=lambda out, err: time.monotonic() - began > 3.0,  # past start-up
        settle=0.0,
    )
    assert code == 130, err
    assert stopped < 15.0, stopped  # the default limit is 60 s
    assert "Traceback" not in err
    assert "interrupted (Ctrl-C)" in out + err


@pytest.mark.parametrize("method", ["scip", "pyscipopt"])
@pytest.mark.parametrize("group", [True, False], ids=["group", "main"])
def test_ctrl_c_keeps_scips_best_placement(
    tmp_path: Path, group: bool, method: str
) -> None:
    """SCIP solves in a worker process. Before, Ctrl-C ended the worker and
    its placement went with it ("interrupted before an answer was found",
    though SCIP had one); now the worker is sent SIGINT, which SCIP catches
    (``group``: from the terminal too), and its best placement and bound come
    back, marked not proved. SCIP's own "pressed CTRL-C" line is not shown.
    The same for SCIP 10 through PySCIPOpt."""
    began = time.monotonic()
    code, out, err, stopped = _interrupt(
        ["dominate", "20x20", "--method", method, "--time-limit", "120"],
        tmp_path,
        group=group,
        # SCIP has a placement from its first heuristics (under a second here)
        ready=lambda out, err: time.monotonic() - began > 5.0,
        settle=0.0,
    )
    assert code == 130, err
    assert stopped < 15.0, stopped
    assert "Traceback" not in err
    assert "pressed CTRL-C" not in out + err
    first = out.splitlines()[0]
    assert "dominating knights on 20x20" in first, out + err
    assert "best found" in first  # not proved: A006075(20) = 62, far below
    knights = re.search(r"^knights: (.*)$", out, re.MULTILINE)
    assert knights is not None, out
    assert len(knights.group(1).split()) == int(first.split(": ")[1].split(",")[0])


@pytest.mark.parametrize(
    "module",
    [
        pytest.param("cpknight.cli", id="the command line"),
        pytest.param("cpknight.cli.tours", id="the command's module"),
        pytest.param("cpknight.checks", id="a module the command's imports"),
    ],
)
def test_ctrl_c_while_the_command_line_loads_is_one_line(
    module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The console script loads the command line, then the command's own
    # modules, inside its guard: a Ctrl-C during those imports (most of
    # start-up) exits 130 with one line. The Ctrl-C is planted at the import
    # of ``module`` itself (an import statement or importlib's), so no timing
    # is involved.
    import importlib.abc

    from cpknight.__main__ import run

    class Interrupted(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, *args: object) -> None:
            if name == module:
                raise KeyboardInterrupt

    for loaded in [
        m for m in sys.modules if m == module or m.startswith("cpknight.cli")
    ]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setattr(sys, "meta_path", [Interrupted(), *sys.meta_path])
    monkeypatch.setattr(sys, "argv", ["cpknight", "tour", "4x4"])
    with pytest.raises(SystemExit) as stopped:
        run()
    assert stopped.value.code == 130
    err = capsys.readouterr().err
    assert err == "cpknight: interrupted (Ctrl-C) while starting\n"


@pytest.mark.parametrize("group", [True, False], ids=["group", "main"])
def test_ctrl_c_stops_the_compiled_snake_search_with_its_best(
    tmp_path: Path, group: bool
) -> None:
    """The compiled loop hands back to the clock every few milliseconds."""
    pytest.importorskip("numba")
    from cpknight.board import Board
    from cpknight.longest import search
    from cpknight.longest.common import LongestInstance
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    tiny = LongestInstance(board=Board((3, 3)), piece=KNIGHT, kind="induced")
    search.solve(tiny, SolveOptions().start(), kernel="numba")  # built, cached
    assert search.SNAKE_LOOPS.built()  # so auto runs it on 11x11 below
    argv = ["longest", "11x11", "--induced", "--method", "search", "--progress"]
    code, out, err, stopped = _interrupt(
        [*argv, "--time-limit", "600", "--json"],
        tmp_path,
        group=group,
        ready=lambda out, err: "searching" in err,
    )
    assert code == 130, err
    assert stopped < 1.5, stopped
    row = json.loads(out)
    assert row["status"] == "feasible"  # the best snake so far, not proved
    assert len(row["cells"]) >= 20
    assert row["effort"]["attempts"] > 0
