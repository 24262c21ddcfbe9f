"""The search's compiled snakes against its plain kernel, a brute force and OEIS.

``kernel='numba'`` (:mod:`cpknight.longest.search_jit`) runs the plain
search's induced puzzles move for move: the tests hold the two to the same
answer, path and counts of attempts and backtracks on random boards (holes,
tori and cylinders, 3D, other leapers), and both to the brute force of
``tests/test_longest.py`` (every induced path grown, no bound).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpknight.board import Board
from cpknight.errors import (
    InvalidInputError,
    ModelTooBigError,
    NoPathError,
    SolveLimitError,
)
from cpknight.longest import search
from cpknight.longest.common import LongestInstance
from cpknight.longest.forests import forest_tiles
from cpknight.pieces import KNIGHT, Leaper
from cpknight.runtime.memory import memory_budget
from cpknight.solving import SolveOptions
from cpknight.status import Status
from tests.conftest import boards, leapers
from tests.test_longest import brute_force

pytest.importorskip("numba")

Outcome = tuple[object, ...]


def _solve(instance: LongestInstance, kernel: str) -> Outcome:
    """The answer, status, cells and effort of one kernel (or that none exists)."""
    run = SolveOptions(time_limit=120).start()
    try:
        p = search.solve(instance, run, kernel=kernel)
    except NoPathError as exc:
        effort = exc.effort
        none = True
    else:
        effort = p.effort
        none = False
    assert effort is not None
    if none:
        return ("none", effort.attempts, effort.backtracks)
    cells = tuple(tuple(int(x) for x in c) for c in p.cells)
    return (p.moves, p.status, cells, effort.attempts, effort.backtracks)


def _instance(board: Board, closed: bool, piece: Leaper = KNIGHT) -> LongestInstance:
    return LongestInstance(board=board, piece=piece, kind="induced", closed=closed)


def _assert_agree(board: Board, closed: bool, piece: Leaper = KNIGHT) -> None:
    """Both kernels give one outcome, and its length is the brute force's."""
    instance = _instance(board, closed, piece)
    plain = _solve(instance, "python")
    assert _solve(instance, "numba") == plain
    want = brute_force(board, "induced", closed, piece)
    assert plain[0] == (want if want >= 0 else "none")


@pytest.mark.parametrize("closed", [False, True], ids=["paths", "cycles"])
@pytest.mark.parametrize(
    ("spec", "topology"),
    [
        ("1x1", "bounded"),
        ("3x3", "bounded"),
        ("4x5", "bounded"),
        ("5x5", "torus"),  # odd: no two colours
        ("4x6", "cylinder"),
        ("6x6", "bounded"),
    ],
)
def test_the_kernels_agree_move_for_move(
    spec: str, topology: str, closed: bool
) -> None:
    _assert_agree(Board.parse(spec, topology=topology), closed)  # type: ignore[arg-type]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    board=boards(dims=(2, 2, 3), max_side=5).filter(lambda b: b.n_open <= 16),
    closed=st.booleans(),
    data=st.data(),
)
def test_random_boards_agree_with_each_other_and_a_brute_force(
    board: Board, closed: bool, data: st.DataObject
) -> None:
    _assert_agree(
        board, closed, Leaper(data.draw(leapers(dim=board.dim, max_component=2)))
    )


@pytest.mark.parametrize(
    "board",
    [
        Board((5, 5), [(0, 0)]),  # a hole where a1 was
        Board((1, 9)),  # the wazir's move graph is a path
        Board((3, 7), [(1, 3)]),
        Board((6, 6), [(0, 0), (0, 5), (5, 0), (5, 5)]),  # all 8 symmetries kept
        Board((5, 5), [(2, 2)], topology="torus"),
    ],
    ids=["holed-a1", "path-graph", "holed-middle", "no-corners", "holed-torus"],
)
def test_rare_shapes_agree(board: Board) -> None:
    piece = Leaper((0, 1)) if board.shape == (1, 9) else KNIGHT
    for closed in (False, True):
        _assert_agree(board, closed, piece)


@pytest.mark.parametrize(
    ("n", "cells"),
    [(3, 8), (4, 10), (5, 16), (6, 20), (7, 22), (8, 32)],
)
def test_the_compiled_cycles_match_oeis(n: int, cells: int) -> None:
    # OEIS A165143: 8, 10, 16, 20, 22, 32 for n = 3..8 (read 2026-11-30)
    p = search.solve(
        _instance(Board((n, n)), True), SolveOptions().start(), kernel="numba"
    )
    assert (p.moves, p.status) == (cells, Status.OPTIMAL)


@pytest.mark.parametrize(("n", "cells"), [(5, 15), (6, 21), (7, 24)])
def test_the_compiled_paths_match_oeis(n: int, cells: int) -> None:
    # OEIS A357500: 15, 21, 24 cells for n = 5..7 (read 2026-11-30)
    p = search.solve(
        _instance(Board((n, n)), False), SolveOptions().start(), kernel="numba"
    )
    assert (len(p.cells), p.status) == (cells, Status.OPTIMAL)


def test_the_loop_goes_on_where_its_budget_stopped_it() -> None:
    from cpknight.longest import search_jit as jit
    from cpknight.pieces import move_graph

    graph = move_graph(Board((5, 6)))
    indptr = np.asarray(graph.indptr, np.int64)
    indices = np.asarray(graph.indices, np.int64)
    colour = np.array([(r + c) % 2 for r, c in map(graph.cell, range(30))], np.int8)
    starts = np.arange(30, dtype=np.int64)

    tiles = forest_tiles(graph)
    assert tiles is not None

    def run(budget: int, closed: bool) -> tuple[list[int], int]:
        a = jit.snake_arrays(30)
        calls = 1
        least = np.arange(30, dtype=np.int64)
        sets = np.zeros(len(tiles.offset), np.int64)
        args = (indptr, indices, colour, least, True, closed, starts, 30, budget)
        arrays = [(*tiles.arrays(), sets), *(a[k] for k in jit.ARRAY_ORDER)]
        while not jit.snake_loop(*args, *arrays):
            calls += 1
        return a["state"].tolist() + a["best_path"].tolist(), calls

    for closed in (False, True):
        whole, calls = run(1 << 40, closed)
        assert calls == 1
        for budget in (1, 7, 100):
            parts, calls = run(budget, closed)
            assert parts == whole
            assert calls > 1 if budget < 100 else calls >= 1


def test_a_kernel_is_checked() -> None:
    instance = _instance(Board((4, 4)), False)
    with pytest.raises(InvalidInputError, match="expected a search kernel"):
        search.choose_search_kernel(instance, "gpu")
    uncrossed = LongestInstance(board=Board((4, 4)), piece=KNIGHT, kind="uncrossed")
    with pytest.raises(InvalidInputError, match="induced puzzles only"):
        search.choose_search_kernel(uncrossed, "numba")
    assert search.choose_search_kernel(uncrossed) == "python"
    assert search.choose_search_kernel(instance) == "python"  # 16 cells: plain
    assert search.choose_search_kernel(instance, "numba") == "numba"


def test_auto_takes_the_compiled_kernel_only_once_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    big = _instance(Board((8, 8)), True)
    monkeypatch.setattr(type(search.SNAKE_LOOPS), "built", lambda self: False)
    assert search.choose_search_kernel(big) == "python"  # no compiler waited for
    monkeypatch.setattr(type(search.SNAKE_LOOPS), "built", lambda self: True)
    assert search.choose_search_kernel(big) == "numba"
    monkeypatch.setattr(search, "installed", lambda name: False)
    assert search.choose_search_kernel(big) == "python"


def test_the_compiled_search_stops_at_the_limit_with_its_best() -> None:
    # 12x12 snakes: minutes of search; the clock is looked at between calls
    instance = _instance(Board((12, 12)), False)
    search.solve(
        _instance(Board((3, 3)), False), SolveOptions().start(), kernel="numba"
    )
    p = search.solve(instance, SolveOptions(time_limit=1.0).start(), kernel="numba")
    assert p.status is Status.FEASIBLE
    assert p.bound is not None
    assert p.bound > p.moves >= 30


def test_an_expired_clock_stops_the_compiled_search_before_it_searches() -> None:
    run = SolveOptions(time_limit=1.0).start()
    run.clock.exclude(-10.0)
    with pytest.raises(SolveLimitError):
        search.solve(_instance(Board((60, 60)), False), run, kernel="numba")


def test_the_compiled_search_is_refused_over_the_budget() -> None:
    instance = _instance(Board((300, 300)), False)
    graph = instance.graph  # 12 MB: under the budget below
    need = (
        search.COMPILED_CELL_BYTES * graph.n_nodes
        + search.COMPILED_ARC_BYTES * graph.n_arcs
    ) / 2**20
    budget = 0.8 * need
    assert budget > (graph.indptr.nbytes + graph.indices.nbytes) / 2**20
    with memory_budget(budget), pytest.raises(ModelTooBigError, match="compiled"):
        search.solve(instance, SolveOptions().start(), kernel="numba")


def test_the_benchmark_holds_the_kernels_equal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.conftest import load_script

    longest = load_script("longest")
    assert longest.kernels_main([5]) == 0
    out = capsys.readouterr().out
    assert "x python" in out
    assert out.count(" yes") == 2  # the 5x5 path and cycle


def test_auto_runs_the_compiled_snakes_on_8x8_once_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cpknight.api import longest as door

    loops = type(search.SNAKE_LOOPS)
    cycle = _instance(Board((8, 8)), True)
    monkeypatch.setattr(loops, "built", lambda self: False)
    assert door._pick(cycle, "auto") == "cpsat"  # the plain search: 18 s
    monkeypatch.setattr(loops, "built", lambda self: True)
    assert door._pick(cycle, "auto") == "search"  # compiled: about 0.6 s
    assert door._pick(_instance(Board((9, 9)), True), "auto") == "cpsat"
    assert door._pick(cycle, "cpsat") == "cpsat"
