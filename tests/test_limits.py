"""Time limits and Ctrl-C: every engine stops through the one deadline check.

No timed assertions: each test has a per-test timeout (pytest-timeout), so an
engine that ignores its deadline fails instead of hanging; the reasons say
where the check fired.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cpknight import Board, compare_tours, move_graph, sweep
from cpknight.api import compare_longest, try_collect, try_tour
from cpknight.cli import main
from cpknight.distances import ENGINES as DISTANCE_METHODS
from cpknight.distances.instance import DistanceInstance
from cpknight.engines import attempt
from cpknight.pieces import KNIGHT, MoveGraph
from cpknight.routes.common import _bfs_to_nearest
from cpknight.runner import RunOptions, _ignore_sigint, _sigint_held, usable_cores
from cpknight.solving import SolveOptions
from tests.conftest import boards


@pytest.fixture
def ctrl_c_after() -> Iterator[None]:
    """Press Ctrl-C (SIGINT to this process) 0.5 s into the test."""
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    yield
    timer.cancel()


# ---------------------------------------------------------------- time limits


@pytest.mark.timeout(30)
def test_building_a_huge_graph_stops_at_the_limit() -> None:
    # 1500x1500: the move graph and its components take seconds to build
    instance = DistanceInstance(
        Board((1500, 1500)), KNIGHT, source=(0, 0), target=(1499, 1499)
    )
    outcome = attempt(DISTANCE_METHODS["ip"], instance, SolveOptions(0.05).start())
    assert str(outcome.status) == "unknown"
    assert "time limit of 0.05 s was reached while" in (outcome.reason or "")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("method", ["prune", "greedy", "cpsat", "backtrack"])
def test_tour_engines_on_a_huge_board_stop_at_the_limit(method: str) -> None:
    outcome = try_tour(
        "1500x1500", method=method, options=SolveOptions(time_limit=0.05)
    )
    assert str(outcome.status) == "unknown"
    assert "time limit of 0.05 s was reached" in (outcome.reason or "")


@pytest.mark.timeout(30)
def test_a_simple_route_on_a_huge_board_stops_at_the_limit() -> None:
    outcome = try_collect(
        "1000x1000",
        "0,0",
        ["999,999", "500,500", "0,999"],
        simple=True,
        options=SolveOptions(time_limit=0.2),
    )
    # no route in 0.2 s, or the greedy route handed back: never past it long
    assert str(outcome.status) in ("unknown", "feasible")


def _queue_bfs(
    graph: MoveGraph, source: int, targets: set[int], avoid: npt.NDArray[np.bool_]
) -> list[int] | None:
    """The plain queue BFS the numpy version replaced (the order to match)."""
    parent = {source: -1}
    frontier = [source]
    while frontier:
        nxt: list[int] = []
        for u in frontier:
            for v in graph.indices[graph.indptr[u] : graph.indptr[u + 1]].tolist():
                if v in parent or avoid[v]:
                    continue
                parent[v] = u
                if v in targets:
                    path = [v]
                    while parent[path[-1]] >= 0:
                        path.append(parent[path[-1]])
                    return path[::-1]
                nxt.append(v)
        frontier = nxt
    return None


@settings(max_examples=60, deadline=None)
@given(boards(dims=(2, 3), max_side=6), st.data())
def test_greedy_bfs_matches_the_queue_bfs(board: Board, data: st.DataObject) -> None:
    graph = move_graph(board)
    n = graph.n_nodes
    source = data.draw(st.integers(0, n - 1))
    others = st.integers(0, n - 1).filter(lambda v: v != source)
    assume(n > 1)
    targets = data.draw(st.sets(others, min_size=1, max_size=4))
    avoid = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    avoid[source] = False
    want = _queue_bfs(graph, source, targets, avoid)
    assert _bfs_to_nearest(graph, source, targets, avoid) == want
    if want is not None:  # a shortest path, by the tests' own BFS levels
        dist = {source: 0}
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for v in graph.neighbors(u).tolist():
                if v not in dist and not avoid[v]:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        assert len(want) - 1 == min(dist[t] for t in targets if t in dist)


# -------------------------------------------------------------------- Ctrl-C


@pytest.mark.timeout(30)
def test_ctrl_c_stops_a_sweep_and_keeps_the_finished_cells(ctrl_c_after: None) -> None:
    # 8x8 closed tours by plain backtracking: seconds per cell, 64 cells
    result = sweep("8x8", closed=True, method="backtrack")
    assert result.interrupted
    reasons = [cell.reason or "" for cell in result.cells]
    assert all(cell.status == "unknown" for cell in result.cells[1:])
    assert any("interrupted (Ctrl-C)" in r for r in reasons)
    assert len(result.cells) == 64


@pytest.mark.timeout(30)
def test_ctrl_c_stops_a_comparison_and_keeps_the_rows(ctrl_c_after: None) -> None:
    c = compare_tours("8x8", methods="backtrack,prune")
    assert c.interrupted
    assert c.rows[1].reason == "interrupted (Ctrl-C) before this engine ran"


@pytest.mark.timeout(30)
def test_ctrl_c_on_the_command_line_prints_what_is_finished_and_exits_130(
    ctrl_c_after: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["compare", "8x8", "--method", "backtrack,prune", "--json"])
    out, _ = capsys.readouterr()
    assert code == 130
    assert '"interrupted (Ctrl-C) before this engine ran"' in out


@pytest.mark.timeout(30)
def test_ctrl_c_stops_a_longest_comparison_and_keeps_the_rows(
    ctrl_c_after: None,
) -> None:
    # 8x8 uncrossed: the search runs for minutes; the next engine is not started
    c = compare_longest("8x8", kind="uncrossed", methods="search,cpsat", closed=False)
    assert c.interrupted
    assert c.rows[0].interrupted
    assert c.rows[1].reason == "interrupted (Ctrl-C) before this engine ran"


@pytest.mark.timeout(30)
def test_ctrl_c_on_longest_method_all_exits_130_with_every_row(
    ctrl_c_after: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["longest", "8x8", "--uncrossed", "--method", "all", "--json"])
    out, _ = capsys.readouterr()
    assert code == 130
    rows = json.loads(out)["rows"]
    methods = ["cpsat", "cpsat-pairwise", "search", "frontier"]
    assert [row["method"] for row in rows] == methods
    assert rows[-1]["reason"] == "interrupted (Ctrl-C) before this engine ran"


@pytest.mark.timeout(30)
def test_ctrl_c_on_longest_hands_back_the_longest_so_far(
    ctrl_c_after: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # the search has a path within milliseconds; proving 8x8 takes minutes
    code = main(["longest", "8x8", "--uncrossed", "--method", "search"])
    out, err = capsys.readouterr()
    assert code == 130
    assert out.startswith("longest uncrossed path on 8x8")
    assert "interrupted (Ctrl-C): the longest found so far" in err


@pytest.mark.timeout(30)
def test_ctrl_c_on_collect_hands_back_the_best_route(
    ctrl_c_after: None, capsys: pytest.CaptureFixture[str]
) -> None:
    food = ["0,29", "29,0", "29,29", "15,15", "10,20", "20,10", "5,5", "25,25"]
    code = main(["collect", "30x30", "a1", *food, "--simple"])
    out, err = capsys.readouterr()
    assert code == 130
    assert out.startswith("simple route on 30x30")
    assert "interrupted (Ctrl-C): the best route found so far" in err


# ---------------------------------------------------------------- sweep pools


def test_sweep_workers_leave_ctrl_c_to_the_parent() -> None:
    previous = signal.getsignal(signal.SIGINT)
    try:
        with _sigint_held():  # a worker starts with Ctrl-C held back
            _ignore_sigint()
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        # ... and once it ignores Ctrl-C, holds nothing back
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        signal.signal(signal.SIGINT, previous)


def _held_signals() -> list[int]:
    return sorted(signal.pthread_sigmask(signal.SIG_BLOCK, []))


@pytest.mark.timeout(60)
def test_a_worker_started_while_ctrl_c_is_held_cannot_be_interrupted() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        with _sigint_held():
            future = pool.submit(_held_signals)
        assert signal.SIGINT in future.result(timeout=50)


@pytest.mark.timeout(60)
def test_a_ctrl_c_while_workers_start_is_not_lost() -> None:
    # The window in which pool workers are started: a Ctrl-C that comes then
    # must still reach this process (it once was dropped, and a study ran on).
    heard = False
    try:
        with _sigint_held():
            os.kill(os.getpid(), signal.SIGINT)
        for _ in range(5000):  # it comes at once; the ceiling is generous
            time.sleep(0.01)
    except KeyboardInterrupt:
        heard = True
    assert heard


@pytest.mark.timeout(60)
def test_a_pool_bigger_than_the_cores_is_capped_and_agrees() -> None:
    assert usable_cores() >= 1
    alone = sweep("3x4", closed=False, method="prune")
    many = sweep("3x4", closed=False, method="prune", jobs=25)
    assert [c.status for c in many.cells] == [c.status for c in alone.cells]
    # 3x4: open tours start on the 6 cells of one colour class (Conrad et al.)
    assert alone.counts() == {"found": 6, "infeasible": 6, "unknown": 0}


@pytest.mark.timeout(30)
def test_a_sweep_budget_bounds_the_whole_sweep(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = sweep("8x8", closed=True, method="backtrack", budget=0.3)
    assert not result.interrupted
    reasons = {cell.reason for cell in result.cells}
    assert "the run's budget ran out before this task" in reasons
    code = main(["sweep", "8x8", "--method", "backtrack", "--budget", "0.3"])
    assert code == 3
    code = main(["sweep", "3x4", "--budget", "0"])
    assert code == 2


@pytest.mark.timeout(60)
def test_cells_a_budget_left_are_run_on_resume(tmp_path: Path) -> None:
    results = tmp_path / "sweep.jsonl"
    first = sweep(
        "4x5",
        closed=False,
        method="prune",
        budget=1e-6,
        run=RunOptions(results=results),
    )
    assert {c.reason for c in first.cells} == {
        "the run's budget ran out before this task"
    }
    again = sweep(
        "4x5",
        closed=False,
        method="prune",
        run=RunOptions(results=results, resume=True),
    )
    assert [(c.cell, c.status) for c in again.cells] == [
        (c.cell, c.status) for c in sweep("4x5", closed=False, method="prune").cells
    ]


# --------------------------- CP-SAT enumeration on several workers (issue 35)


@pytest.mark.parametrize("workers", [2, 8])
def test_a_cpsat_tour_count_on_several_workers_is_exact(workers: int) -> None:
    """CP-SAT enumerates on one worker whatever ``--workers`` says: with 8 the
    open 5x5 tours from a1 came out "at least 436" (issue 35). The frontier
    engine counts them apart: 304 (the corner's share of 5x5's 1,728)."""
    from cpknight.api import count_tours

    frontier = count_tours("5x5", closed=False, start="a1", method="frontier")
    options = SolveOptions(time_limit=60, workers=workers, seed=0)
    cpsat = count_tours(
        "5x5", closed=False, start="a1", method="cpsat", options=options
    )
    assert str(cpsat.status) == "found"
    assert cpsat.directed == frontier.directed == 304


def test_the_command_line_clock_starts_with_the_process() -> None:
    """``cpknight dominate 5x5 --time-limit 2`` in a process already 3 s old
    (a sleep stands for a slow start-up): the limit counts from the process's
    start, so it is reached before the answer (exit 3), where a clock started
    after the imports answered (exit 0)."""
    import subprocess
    import sys

    script = (
        "import sys, time; time.sleep(3.0); "
        "sys.argv = ['cpknight', 'dominate', '5x5', '--time-limit', '2']; "
        "from cpknight.cli import main; sys.exit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert "time limit of 2 s" in done.stdout + done.stderr
    # the same command called from Python starts its clock at the call
    assert main(["dominate", "5x5", "--time-limit", "2"]) == 0


def test_a_linear_solve_stops_on_an_interrupted_clock() -> None:
    """SCIP carries on past ``stop_search``: its worker process is ended."""
    from ortools.linear_solver.python import model_builder as mb

    from cpknight.covering.common import CoverInstance
    from cpknight.covering.program import program_of
    from cpknight.solving.linear import solve_linear

    instance = CoverInstance(
        board=Board.parse("30x30"), piece=KNIGHT, kind="dominating"
    )
    model, xs = program_of(instance).builder_model()
    run = SolveOptions(time_limit=600).start()
    timer = threading.Timer(1.0, run.clock.interrupt)
    timer.start()
    try:
        answer = solve_linear("scip", model, run, xs)
    finally:
        timer.cancel()
    assert answer.interrupted
    assert answer.status != mb.SolveStatus.OPTIMAL
    assert run.elapsed() < 60.0  # SCIP alone needs minutes to prove 30x30
