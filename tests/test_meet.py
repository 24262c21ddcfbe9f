"""Counting met in the middle: both halves joined equal every other count.

A count met in the middle (:mod:`cpknight.counting.meet`) runs the frontier
program from the first cell to a cut and from the last cell back to it, and
joins the two by the cut's degrees and paths. The join is new code, written
apart from the kernels: every cut of small boards (holes, tori, cylinders, 3D,
other leapers, open and closed) must give the tests' own brute force
(``tests/conftest.py``), wider ones the dict and numpy kernels, and the halves on disk
(stopped and resumed) the halves in memory.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpknight import count_tours
from cpknight.board import Board
from cpknight.counting import meet
from cpknight.counting.dense_kernel import DENSE_WIDTH, Spill
from cpknight.counting.dict_kernel import count_frontier_dict
from cpknight.counting.meet import count_meet, default_cut, meet_fits, plan_meet
from cpknight.counting.numpy_kernel import count_frontier_numpy
from cpknight.errors import InvalidInputError
from cpknight.frontier.plan import FrontierPlan, plan_frontier
from cpknight.pieces import MoveGraph, as_piece, move_graph
from tests.conftest import boards, brute_neighbours, brute_tours, leapers

pytest.importorskip("numba")

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def cuts(graph: MoveGraph, plan: FrontierPlan) -> list[int]:
    """Every cut ``plan_meet`` takes (a first half with a cell off the cut)."""
    found = []
    for cut in range(1, len(plan.order)):
        try:
            plan_meet(graph, plan, cut)
        except InvalidInputError:
            continue
        found.append(cut)
    return found


@st.composite
def meet_cases(
    draw: st.DrawFn, *, max_open: int
) -> tuple[Board, tuple[int, ...], bool]:
    """A board (holes, tori, cylinders, 3D), a leaper, closed or open."""
    board = draw(boards(dims=(2, 3), max_side=5))
    assume(3 <= board.n_open <= max_open)
    return board, draw(leapers(dim=board.dim, max_component=3)), draw(st.booleans())


@SETTINGS
@given(meet_cases(max_open=9))
def test_every_cut_equals_brute_force(
    case: tuple[Board, tuple[int, ...], bool],
) -> None:
    board, vector, closed = case
    graph = move_graph(board, vector)
    plan = plan_frontier(graph, closed=closed)
    assume(plan.width <= DENSE_WIDTH)
    paths = list(brute_tours(brute_neighbours(board, vector), closed=closed))
    # brute force lists a closed tour once per first cell and direction, an
    # open one once per direction
    want = len(paths) // (2 * graph.n_nodes) if closed else len(paths) // 2
    for cut in cuts(graph, plan):
        assert count_meet(graph, plan, cut).total == want, cut


@settings(SETTINGS, max_examples=15)
@given(meet_cases(max_open=14), st.data())
def test_wider_boards_equal_the_dict_kernel(
    case: tuple[Board, tuple[int, ...], bool], data: st.DataObject
) -> None:
    board, vector, closed = case
    graph = move_graph(board, vector)
    plan = plan_frontier(graph, closed=closed)
    assume(6 <= plan.width <= 9)
    allowed = cuts(graph, plan)
    assume(allowed)
    cut = data.draw(st.sampled_from(allowed))
    assert count_meet(graph, plan, cut).total == count_frontier_dict(plan)[0]


@pytest.mark.parametrize(
    ("spec", "topology", "piece", "closed"),
    [
        ("6x6", "bounded", "1,2", True),
        ("5x6", "bounded", "1,2", False),
        ("3x8", "cylinder", "1,2", True),
        ("4x4", "torus", "1,2", True),
        ("2x3x4", "bounded", "1,2", True),
        ("4x6", "bounded", "0,1", False),  # the wazir
        ("1x9", "bounded", "0,1", False),  # a path: one tour
    ],
)
def test_the_default_cut_equals_the_numpy_kernel(
    spec: str, topology: str, piece: str, closed: bool
) -> None:
    board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
    graph = move_graph(board, as_piece(piece))
    plan = plan_frontier(graph, closed=closed)
    got = count_meet(graph, plan, default_cut(plan))
    want = count_frontier_numpy(plan)[0]
    assert got.total == want
    assert want > 0  # there are tours: a pair lost or counted twice would show


def test_published_counts_through_the_front_door() -> None:
    # A001230 (undirected closed tours on 2n x 2n): 6x6 has 9,862; A165134
    # (directed open tours on n x n): 6x6 has 6,637,920. Checked on OEIS.
    six = count_tours("6x6", kernel="meet")
    stats = six.frontier
    assert stats is not None
    assert (six.undirected, stats.kernel) == (9862, "meet")
    assert stats.cut == default_cut(plan_frontier(move_graph("6x6"), closed=True))
    assert stats.peak == max(*stats.live, *stats.second)
    assert count_tours("6x6", closed=False, kernel="meet").directed == 6637920


def test_what_the_halves_cannot_take_is_refused() -> None:
    graph = move_graph("5x6")
    plan = plan_frontier(graph, closed=True)
    for cut in (0, 30, 3):  # none in the first half; all; all of it on the cut
        with pytest.raises(InvalidInputError, match="cut"):
            plan_meet(graph, plan, cut)
    fixed = plan_frontier(graph, closed=False, start=(0, 0))
    assert meet_fits(plan)
    assert not meet_fits(fixed)
    with pytest.raises(InvalidInputError, match="fixed ends"):
        plan_meet(graph, fixed, 15)
    with pytest.raises(InvalidInputError, match="fixed ends"):
        count_tours("5x6", closed=False, start="a1", kernel="meet")
    with pytest.raises(InvalidInputError, match="prefixes"):
        count_tours("3x12", prefixes=True, kernel="meet")


def test_the_halves_on_disk_equal_them_in_memory(tmp_path: Path) -> None:
    graph = move_graph("5x6")
    plan = plan_frontier(graph, closed=False)
    cut = default_cut(plan)
    want = count_meet(graph, plan, cut).total
    spill = Spill(tmp_path / "halves", budget_bytes=4e6)
    got = count_meet(graph, plan, cut, spill=spill)
    assert got.total == want
    assert got.buckets >= 2  # the budget split the steps
    for half in ("first", "second"):
        manifest = json.loads(
            (tmp_path / "halves" / half / "manifest.json").read_text()
        )
        assert manifest["done"] is True
    # again: both halves are read back from their checkpoints
    resumed: list[tuple[int, int]] = []
    again = count_meet(
        graph,
        plan,
        cut,
        spill=spill,
        on_resume=lambda h, d: resumed.append((h, len(d))),
    )
    assert again.total == want
    assert resumed == [(0, cut), (1, len(again.second))]


@pytest.mark.parametrize(("board", "closed"), [("5x6", False), ("6x6", True)])
def test_a_join_past_the_budget_reads_the_first_half_in_slices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, board: str, closed: bool
) -> None:
    # The halves on disk, and a budget the halves' last states pass together:
    # the first half's are joined a slice at a time against the second's.
    # The count must be the numpy kernel's (another design), in many slices.
    graph = move_graph(board)
    plan = plan_frontier(graph, closed=closed)
    cut = default_cut(plan)
    want = count_frontier_numpy(plan)[0]
    whole = count_meet(graph, plan, cut)
    assert whole.total == want
    assert whole.slices == 1
    monkeypatch.setattr(meet, "MIN_SLICE", 1)
    last_first, last_second = whole.first[-1], whole.second[-1]
    # room for the second half (twice) and about a tenth of the first's
    budget: float = (2 * last_second + last_first // 10 + 1) * meet.JOIN_BYTES
    spill = Spill(tmp_path / "halves", budget_bytes=4e6)
    on_disk = count_meet(graph, plan, cut, spill=spill)  # the halves, once
    assert (on_disk.total, on_disk.slices) == (want, 1)
    budget += 1.2 * last_first / on_disk.buckets * 24  # the bucket cut in slices
    got = count_meet(graph, plan, cut, spill=spill, budget_bytes=budget)
    assert got.total == want
    assert got.slices >= 8 > on_disk.buckets  # slices of every bucket
    assert got.pairs == whole.pairs  # every pair looked at once

    class Stop(Exception):
        pass

    def clock(where: str) -> None:  # the limit, passed after the first slice
        if "slice 1 done" in where:
            raise Stop

    with pytest.raises(Stop):  # the clock is asked between slices
        count_meet(graph, plan, cut, spill=spill, budget_bytes=budget, tick=clock)
    with pytest.raises(meet.JoinTooBig):  # no room for a slice: refused
        count_meet(graph, plan, cut, spill=spill, budget_bytes=meet.JOIN_BYTES)
    with pytest.raises(meet.JoinTooBig):  # in memory the join is not sliced
        count_meet(graph, plan, cut, budget_bytes=budget)


def test_a_stopped_count_resumes_from_its_halves(tmp_path: Path) -> None:
    where = tmp_path / "count"
    # The uninterrupted count, by the numpy kernel (a kernel of another design;
    # the dict kernel takes half a minute here and equals it in the tests above).
    want = count_frontier_numpy(plan_frontier(move_graph("5x6"), closed=False))[0]

    class Stop(Exception):
        pass

    graph = move_graph("5x6")
    plan = plan_frontier(graph, closed=False)
    cut = default_cut(plan)

    def stop_in_the_second_half(step: int, live: int, tried: int) -> None:
        if step == cut + 5:
            raise Stop

    spill = Spill(where, budget_bytes=4e6)
    with pytest.raises(Stop):
        count_meet(graph, plan, cut, stop_in_the_second_half, spill=spill)
    got = count_tours(
        "5x6", closed=False, kernel="meet", checkpoint=where, memory_mb=10
    )
    assert got.undirected == want
    stats = got.frontier
    assert stats is not None
    assert stats.resumed >= cut + 5  # the first half and 5 cells of the second


def test_a_directory_of_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="not a count met in the middle"):
        count_tours("5x6", kernel="meet", checkpoint=tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_report_says_where_the_halves_met(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpknight.cli import main

    # 5x5 open: 1,728 directed (A165134, checked on OEIS); the halves meet
    # where default_cut puts them
    cut = default_cut(plan_frontier(move_graph("5x5"), closed=False))
    assert main(["count", "5x5", "--open", "--kernel", "meet"]) == 0
    out = capsys.readouterr().out
    assert "1728 directed" in out
    assert "kernel meet" in out
    assert f"met in the middle after cell {cut}" in out
    assert main(["count", "5x5", "--open", "--kernel", "meet", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    frontier = data["frontier"]
    assert (frontier["kernel"], frontier["cut"]) == ("meet", cut)
    assert frontier["pairs"] > 0
    assert len(frontier["live"]) == cut
    assert max(frontier["second"]) <= frontier["peak"]


def test_a_count_on_disk_is_refused_only_for_the_second_halfs_share(
    tmp_path: Path,
) -> None:
    # Up front, the join's memory is guessed from the halves' states: all of
    # them in memory, and half of them on disk, where the first half's are
    # read back a slice at a time (SLICED_JOIN). A budget between the two
    # refuses the count in memory and lets it go on disk.
    from cpknight.counting import frontier
    from cpknight.counting.instance import CountInstance
    from cpknight.errors import ModelTooBigError
    from cpknight.frontier.plan import plan_states
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    board = Board((6, 6))  # its halves guessed at about 1e6 states: 0.1 GB of disk
    plan = plan_frontier(move_graph(board), closed=False)
    guess = plan_states(plan) * frontier.MEET_SHARE
    join_mb = guess * meet.JOIN_BYTES / 2**20
    budget = 0.75 * join_mb  # past the join in memory, above half of it
    run = SolveOptions(time_limit=None).start()
    in_memory = CountInstance(board, KNIGHT, closed=False)
    with pytest.raises(ModelTooBigError, match="joining them") as whole:
        frontier.refuse_count(in_memory, plan, budget, "meet", run, asked="meet")
    assert "slices" not in str(whole.value)  # both halves held: said so
    on_disk = CountInstance(board, KNIGHT, closed=False, checkpoint=str(tmp_path))
    frontier.refuse_count(on_disk, plan, budget, "meet", run, asked="meet")
    # below half: the line names what must fit, the second half's states
    with pytest.raises(ModelTooBigError, match="joining them") as sliced:
        frontier.refuse_count(on_disk, plan, 0.4 * join_mb, "meet", run, asked="meet")
    assert "the second half's states, the first read back in slices" in str(
        sliced.value
    )
