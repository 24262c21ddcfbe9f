"""The count over subsets (``method='subsets'``): against brute force and the tables.

Every case is held to the plain search of the tests (``brute_tours``, one
path at a time) or to the tests' own DP over subsets (``subset_count``,
numpy, sharing no code with the engine), on every shape the engine takes:
holes, tori, cylinders, 3-D boxes, other leapers, fixed starts and ends.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpknight import count_tours
from cpknight.api import try_count
from cpknight.board import Board, Cell
from cpknight.counting import subsets
from cpknight.counting.auto import choose_count_method
from cpknight.counting.instance import CountInstance
from cpknight.counting.subsets import plan_subsets, subset_bytes
from cpknight.errors import InvalidInputError, ModelTooBigError
from cpknight.pieces import KNIGHT
from cpknight.runtime.optional import installed
from cpknight.solving import SolveOptions
from cpknight.status import Status
from tests.conftest import boards, brute_neighbours, leapers, subset_count
from tests.test_frontier import CASES as FRONTIER_CASES
from tests.test_frontier import Case, brute_count, case_ids

pytestmark = pytest.mark.skipif(
    not installed("numba"), reason="the subsets engine needs numba (cpknight[fast])"
)


def _subsets(
    board: Board,
    vector: Sequence[int] = (1, 2),
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
) -> int:
    count = count_tours(
        board,
        piece=tuple(vector),
        closed=closed,
        start=start,
        end=end,
        method="subsets",
    )
    assert count.status is Status.FOUND
    assert count.method == "subsets"
    return count.directed


CASES: list[Case] = [
    *FRONTIER_CASES,  # every case the frontier is held to, and more shapes
    (Board.parse("3x4"), (1, 2), False, (0, 0), (0, 0)),
    (Board((3, 3), [(0, 0)]), (1, 2), True, None, None),  # a hole where a1 was
    (Board((3, 3), [(0, 0)]), (1, 2), False, None, None),
    (Board.parse("3x3", topology="torus"), (1, 2), False, None, None),
    (Board.parse("3x4", topology="torus"), (1, 2), True, (1, 2), None),
    (Board((2, 2, 3)), (1, 2), False, None, None),
    (Board((2, 2, 2), topology="torus"), (0, 1), False, None, None),
    (Board((1, 2)), (0, 1), True, None, None),
    (Board((1, 5)), (0, 1), False, None, None),  # a path-shaped move graph
]


@pytest.mark.parametrize(
    ("board", "vector", "closed", "start", "end"), CASES, ids=case_ids(CASES)
)
def test_subsets_equal_brute_force(
    board: Board,
    vector: tuple[int, ...],
    closed: bool,
    start: Cell | None,
    end: Cell | None,
) -> None:
    want = brute_count(board, vector, closed=closed, start=start, end=end)
    assert _subsets(board, vector, closed=closed, start=start, end=end) == want


@st.composite
def _small_cases(draw: st.DrawFn) -> tuple[Board, tuple[int, ...], bool, Cell | None]:
    board = draw(boards(dims=(2, 3), max_side=4).filter(lambda b: b.n_open <= 9))
    vector = draw(leapers(dim=board.dim, max_component=2))
    closed = draw(st.booleans())
    cells = list(board.open_cells())
    start = draw(st.sampled_from([None, *cells])) if cells else None
    return board, vector, closed, start


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
@given(case=_small_cases(), end_too=st.booleans())
def test_random_boards_equal_brute_force(
    case: tuple[Board, tuple[int, ...], bool, Cell | None], end_too: bool
) -> None:
    board, vector, closed, start = case
    if board.n_open == 0:
        return
    end = None
    if end_too and not closed:
        end = list(board.open_cells())[-1]
    want = brute_count(board, vector, closed=closed, start=start, end=end)
    assert _subsets(board, vector, closed=closed, start=start, end=end) == want


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
@pytest.mark.parametrize(
    ("shape", "topology"),
    [((3, 5), "torus"), ((4, 4), "cylinder"), ((4, 4), "bounded"), ((3, 6), "torus")],
    ids=["3x5-torus", "4x4-cylinder", "4x4", "3x6-torus"],
)
def test_past_the_plain_search_by_the_tests_own_dp(
    shape: tuple[int, int], topology: str, closed: bool
) -> None:
    # The tests' numpy DP over subsets (all cells, no symmetry used) against
    # the engine, which counts the open tours of a torus from one cell
    board = Board(shape, topology=topology)  # type: ignore[arg-type]
    want = subset_count(brute_neighbours(board, (1, 2)), closed=closed)
    count = count_tours(board, closed=closed, method="subsets")
    assert (count.undirected, count.directed) == (want, 2 * want)


def test_the_4x4_torus_has_the_4_cubes_1344_cycles() -> None:
    # A066037(4) (OEIS, checked): the 4x4 torus's knight graph is the 4-cube
    count = count_tours(Board((4, 4), topology="torus"), method="subsets")
    assert (count.directed, count.undirected) == (2688, 1344)


def test_two_passes_modulo_2_64_and_p_join_to_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A count whose Bregman bound passes 2^64 runs twice, modulo 2^64 and
    # modulo 2^61 - 1, joined by the CRT; forced here on a count that fits,
    # so that the tests' DP (Python ints) checks the join and the second pass
    board = Board((4, 5), topology="torus")
    instance = CountInstance(board, KNIGHT, closed=False)
    plan = plan_subsets(instance)
    assert (plan.passes, plan.times, plan.bits) == (1, 20, 19)
    monkeypatch.setattr(
        subsets, "plan_subsets", lambda inst: dataclasses.replace(plan, passes=2)
    )
    want = subset_count(brute_neighbours(board, (1, 2)), closed=False)
    count = subsets.solve(instance, SolveOptions().start())
    assert count.undirected == want
    assert count.steps == (2 * 19, 2 * 19)


def test_a_count_past_what_the_moduli_hold_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two moduli hold 125 bits, past any board of at most 40 cells here (the
    # 3x3x3 torus: 65 bits); with two small moduli the guard must refuse
    monkeypatch.setattr(subsets, "MODULI", (2**8, 251))
    with pytest.raises(InvalidInputError, match="two moduli"):
        plan_subsets(CountInstance(Board((3, 4), topology="torus"), KNIGHT))


def test_open_tours_from_anywhere_on_a_board_without_symmetry_start_outside() -> None:
    board = Board((3, 4), [(0, 0)])  # the hole breaks every symmetry but one
    plan = plan_subsets(CountInstance(board, KNIGHT, closed=False))
    assert (plan.start, plan.bits, plan.times) == (-1, 11, 1)
    torus = plan_subsets(
        CountInstance(Board((3, 4), topology="torus"), KNIGHT, closed=False)
    )
    assert (torus.start, torus.bits, torus.times) == (0, 11, 12)


def test_auto_counts_small_wide_boards_over_subsets() -> None:
    # The frontier takes the 3x6 torus 23 s closed and 166 s open, the DP a
    # fraction of a second (benchmarks/subsets.py); the 2x3x4 box's frontier
    # is the quicker (1.7 s), and plain boards stay the frontier's
    for closed in (True, False):
        torus = CountInstance(Board((3, 6), topology="torus"), KNIGHT, closed=closed)
        assert choose_count_method(torus)[0] == "subsets"
    box = CountInstance(Board((2, 3, 4)), KNIGHT)
    assert choose_count_method(box)[0] == "frontier"
    plain = CountInstance(Board.parse("3x4"), KNIGHT, closed=False)
    assert choose_count_method(plain)[0] == "frontier"
    big = CountInstance(Board.parse("6x6"), KNIGHT, closed=False)
    assert choose_count_method(big)[0] == "frontier"
    # states on disk asked for (--resume DIR): the frontier program's
    kept = CountInstance(
        Board((3, 6), topology="torus"), KNIGHT, closed=False, checkpoint="runs/x"
    )
    assert choose_count_method(kept)[0] == "frontier"


def test_refusals_are_one_line() -> None:
    with pytest.raises(InvalidInputError, match="at most 40"):
        count_tours("8x8", method="subsets")
    with pytest.raises(InvalidInputError, match="no states on disk"):
        plan_subsets(
            CountInstance(Board.parse("3x4"), KNIGHT, closed=False, checkpoint="x")
        )
    with pytest.raises(InvalidInputError, match="4,000,000 cells"):
        count_tours("2000x2000", method="subsets")  # refused before its graph
    with pytest.raises(ModelTooBigError, match="over the memory budget of 1 MB"):
        count_tours(Board((5, 5), topology="torus"), method="subsets", memory_mb=1)
    assert subset_bytes(24) > 2**20


def test_the_time_limit_stops_it_with_the_reason() -> None:
    count_tours(Board((3, 3), topology="torus"), method="subsets")  # compiled
    outcome = try_count(
        Board((5, 5), topology="torus"), closed=False, method="subsets", time_limit=0.5
    )
    assert outcome.status is Status.UNKNOWN
    assert outcome.reason is not None
    assert outcome.reason.startswith("limit reached: the time limit of 0.5 s")
    assert "over subsets" in outcome.reason
    assert outcome.value.directed == 0
    assert not outcome.value.counts_so_far
    assert outcome.effort.solutions is None  # no count, not a count of 0


def test_ctrl_c_stops_it_within_a_second() -> None:
    count_tours(Board((3, 3), topology="torus"), method="subsets")  # compiled
    child = subprocess.Popen(
        [sys.executable, "-m", "cpknight", "count", "5x5", "--torus", "--open",
         "--method", "subsets", "--progress", "--time-limit", "none"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        assert child.stderr is not None
        seen = ""
        began = time.monotonic()
        while "layers of sets" not in seen:  # its progress: a layer done
            assert time.monotonic() - began < 120, seen
            seen += child.stderr.read(1)
        os.kill(child.pid, signal.SIGINT)
        signalled = time.monotonic()
        out, _ = child.communicate(timeout=60)
        stopped = time.monotonic() - signalled
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, out
    assert "no count" in out
    assert "interrupted" in out
    assert stopped < 5  # within a second when quiet; generous on a loaded machine


def test_shards_are_the_enumerations_not_the_dps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpknight.cli import main

    argv = ["count", "3x4", "--torus", "--method", "subsets", "--shards", "4"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("subsets runs whole (drop --shards or --method subsets)")
    assert "\n" not in err


def test_what_a_person_reads_names_the_engine_and_its_run() -> None:
    from cpknight.text.reports import count_report

    board = Board((4, 4), topology="torus")
    outcome = try_count(board, closed=False, method="subsets")
    text = count_report(outcome, board, KNIGHT, closed=False)
    head, line = text.splitlines()
    assert head.startswith("open tours of 4x4 torus (knight (1,2)): 91392 directed")
    assert line.startswith("subsets: Held and Karp's DP over the sets of 15 cells,")
    assert "modulo 2^64; peak memory" in line
    assert str(outcome.value).splitlines()[1] == line
