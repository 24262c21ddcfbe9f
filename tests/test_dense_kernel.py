"""The dense frontier kernel: against the other kernels and brute force, on disk,
resumed, and its residue arithmetic past ``2**128``.

The dense kernel (numba) packs a state into two 64-bit words and keeps counts
modulo primes; the dict kernel keeps states as tuples and counts as Python
ints, written apart: every case holds one to the other, and the small ones to
the tests' own brute force (``tests/conftest.py``). The on-disk path (buckets,
checkpoints) must give the in-memory count with a budget so small that every
step is split, and a run stopped at any cell must resume to the same count.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpknight import count_tours
from cpknight.board import Board, Cell
from cpknight.counting.dense_kernel import (
    DENSE_WIDTH,
    Spill,
    count_frontier_dense,
)
from cpknight.counting.dict_kernel import count_frontier_dict
from cpknight.counting.numpy_kernel import count_frontier_numpy
from cpknight.counting.residues import (
    crt,
    is_prime,
    primes,
    primes_for,
    tour_bound_bits,
)
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


def degrees(graph: MoveGraph) -> list[int]:
    return [len(graph.neighbors(u)) for u in range(graph.n_nodes)]


def dense(plan: FrontierPlan, graph: MoveGraph, **kw: object) -> int:
    return count_frontier_dense(plan, degrees=degrees(graph), **kw).total  # type: ignore[arg-type]


@st.composite
def count_cases(
    draw: st.DrawFn, *, max_open: int
) -> tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None]:
    """A board (holes, tori, cylinders, 3D), a leaper, closed or not, ends."""
    board = draw(boards(dims=(2, 3), max_side=5))
    assume(1 <= board.n_open <= max_open)
    vector = draw(leapers(dim=board.dim, max_component=3))
    closed = draw(st.booleans())
    cells = sorted(board.open_cells())
    start = None if closed else draw(st.none() | st.sampled_from(cells))
    end = None if closed else draw(st.none() | st.sampled_from(cells))
    assume(start is None or start != end)
    return board, vector, closed, start, end


@SETTINGS
@given(count_cases(max_open=9))
def test_dense_equals_brute_force(
    case: tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None],
) -> None:
    board, vector, closed, start, end = case
    graph = move_graph(board, vector)
    plan = plan_frontier(graph, closed=closed, start=start, end=end)
    assume(plan.width <= DENSE_WIDTH and graph.n_nodes > 2)
    nbrs = brute_neighbours(board, vector)
    paths = [
        p
        for p in brute_tours(nbrs, closed=closed, start=start)
        if end is None or p[-1] == end
    ]
    # brute force lists a closed tour once per first cell and direction, an
    # open one once per direction (once when an end is fixed)
    if closed:
        want = len(paths) // (2 * graph.n_nodes)
    elif start is None and end is None:
        want = len(paths) // 2
    else:
        want = len(paths)
    assert dense(plan, graph) == want


@settings(SETTINGS, max_examples=8)  # about 1 s a case: under half a minute loaded
@given(count_cases(max_open=16))
def test_dense_equals_the_dict_kernel_on_wider_frontiers(
    case: tuple[Board, tuple[int, ...], bool, Cell | None, Cell | None],
) -> None:
    board, vector, closed, start, end = case
    graph = move_graph(board, vector)
    plan = plan_frontier(graph, closed=closed, start=start, end=end)
    # the dict kernel takes tens of seconds past 10 slots on dense graphs
    assume(7 <= plan.width <= 10 and graph.n_nodes > 2)
    assert dense(plan, graph) == count_frontier_dict(plan)[0]


@pytest.mark.parametrize(
    ("spec", "topology", "piece", "closed"),
    [
        ("5x6", "bounded", "1,2", True),
        ("4x5", "bounded", "1,2", False),
        ("3x6", "cylinder", "1,2", True),
        ("2x2x5", "cylinder", "1,2", True),
        ("2x3x4", "bounded", "1,2", True),  # width 15: codes past 16
        ("4x4", "torus", "1,2", True),
        ("4x6", "bounded", "0,1", False),  # the wazir
    ],
)
def test_the_three_kernels_agree(
    spec: str, topology: str, piece: str, closed: bool
) -> None:
    board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
    graph = move_graph(board, as_piece(piece))
    plan = plan_frontier(graph, closed=closed)
    want = count_frontier_dict(plan)[0]
    assert count_frontier_numpy(plan)[0] == want
    assert dense(plan, graph) == want
    assert want > 0  # there are tours: a state collision would show


def test_prefix_counts_end_with_the_whole_board() -> None:
    # A070030 (closed tours of 3 x 2n): 3x10 has 16, 3x12 has 176
    got = count_tours("3x12", prefixes=True, kernel="dense").frontier
    assert got is not None
    assert dict(got.prefixes)[10] == 16
    assert dict(got.prefixes)[12] == 176
    numpy = count_tours("3x12", prefixes=True, kernel="numpy").frontier
    assert numpy is not None
    assert got.prefixes == numpy.prefixes


def test_published_counts_through_the_front_door() -> None:
    # A001230 (undirected closed tours on 2n x 2n): 6x6 has 9,862; A165134
    # (directed open tours on n x n): 5x5 has 1,728. Checked on OEIS.
    six = count_tours("6x6", kernel="dense")
    assert (six.undirected, six.frontier.kernel) == (9862, "dense")  # type: ignore[union-attr]
    assert count_tours("5x5", closed=False, kernel="dense").directed == 1728


# ------------------------------------------------------------- arithmetic


def test_the_primes_are_prime_and_distinct() -> None:
    found = primes(4)
    assert len(set(found)) == 4
    for q in found:
        assert 2**61 < q < 2**62
        assert is_prime(q)
        # and a plain Fermat check on other bases, written apart
        assert all(pow(a, q - 1, q) == 1 for a in (43, 47, 53, 97))
    assert not is_prime(2**62 - 1)  # 3 divides it
    assert not is_prime(3_215_031_751)  # a strong pseudoprime to bases 2, 3, 5, 7


def test_crt_rebuilds_numbers_past_2_128() -> None:
    moduli = primes(3)
    for n in (0, 1, 2**128 + 12345, math.prod(moduli) - 1):
        assert crt([n % q for q in moduli], moduli) == n


def test_the_bound_picks_enough_primes() -> None:
    # the triangle has 2 directed Hamiltonian cycles; Bregman bounds it by
    # (2!)^(3/2) = 2^1.5; open: a 4-cycle's paths by its apex bound
    assert tour_bound_bits([2, 2, 2], closed=True) == pytest.approx(1.5)
    g = move_graph("8x8")
    bits = tour_bound_bits(degrees(g), closed=True)
    assert 2**bits > 13_267_364_410_532 * 2  # the directed 8x8 count (A001230)
    assert len(primes_for(bits)) == 2
    assert len(primes_for(130)) == 3


def test_counts_past_2_128_are_exact() -> None:
    # every count starts at a weight past 2**128: the answer is weight x the
    # count, held to the dict kernel's Python ints
    graph = move_graph("4x5")
    plan = plan_frontier(graph, closed=False)
    weight = 2**131 + 987_654_321
    got = count_frontier_dense(plan, degrees=degrees(graph), weight=weight)
    assert len(got.primes) == 3
    assert got.total == weight * count_frontier_dict(plan)[0]
    assert got.total > 2**128


# ------------------------------------------------------------- on disk


def test_on_disk_equals_in_memory_with_a_tiny_budget(tmp_path: Path) -> None:
    graph = move_graph("4x5")
    plan = plan_frontier(graph, closed=False)
    want = count_frontier_dict(plan)[0]
    # a budget of 50 KB splits the widest steps into 16 buckets
    spill = Spill(tmp_path / "run", 50_000)
    got = count_frontier_dense(plan, degrees=degrees(graph), spill=spill)
    assert got.total == want
    assert got.buckets >= 8
    assert got.disk > 0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["done"] is True


class Stop(Exception):
    pass


def stopper(at: int) -> Callable[[int, int, int], None]:
    def check(step: int, live: int, tried: int) -> None:
        if step == at:
            raise Stop

    return check


@pytest.mark.parametrize("at", [0, 9, pytest.param(18, marks=pytest.mark.slow)])
def test_a_stopped_run_resumes_to_the_same_count(tmp_path: Path, at: int) -> None:
    graph = move_graph("4x5")
    plan = plan_frontier(graph, closed=False)
    want = count_frontier_dict(plan)[0]
    in_memory = count_frontier_dense(plan, degrees=degrees(graph))
    spill = Spill(tmp_path / "run", 100_000)
    with pytest.raises(Stop):
        count_frontier_dense(plan, stopper(at), degrees=degrees(graph), spill=spill)
    seen: list[list[int]] = []
    got = count_frontier_dense(
        plan, degrees=degrees(graph), spill=spill, on_resume=seen.append
    )
    assert got.total == want == in_memory.total
    assert got.resumed == at  # the checkpoint after cell `at` (0-based)
    assert got.live == in_memory.live  # every step's live states, old and new
    assert seen
    assert len(seen[0]) == at + 1


def test_a_crash_while_summing_a_bucket_resumes(tmp_path: Path) -> None:
    graph = move_graph("5x5")
    plan = plan_frontier(graph, closed=True)
    spill = Spill(tmp_path / "run", 1_000_000)
    calls = [0]

    def tick(where: str) -> None:
        if where.startswith("summing"):
            calls[0] += 1
            if calls[0] == 20:
                raise Stop

    with pytest.raises(Stop):
        count_frontier_dense(plan, degrees=degrees(graph), spill=spill, tick=tick)
    got = count_frontier_dense(plan, degrees=degrees(graph), spill=spill)
    assert got.total == count_frontier_dict(plan)[0]


def test_a_directory_of_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    graph = move_graph("3x4")
    plan = plan_frontier(graph, closed=False)
    with pytest.raises(InvalidInputError, match="not empty"):
        count_frontier_dense(plan, degrees=degrees(graph), spill=Spill(tmp_path, 1e6))
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_the_checkpoint_of_another_count_is_refused(tmp_path: Path) -> None:
    g1, g2 = move_graph("3x4"), move_graph("3x5")
    spill = Spill(tmp_path / "run", 1e6)
    count_frontier_dense(
        plan_frontier(g1, closed=False), degrees=degrees(g1), spill=spill
    )
    with pytest.raises(InvalidInputError, match="another count"):
        count_frontier_dense(
            plan_frontier(g2, closed=False), degrees=degrees(g2), spill=spill
        )


def test_the_front_door_resumes_and_reports_disk(tmp_path: Path) -> None:
    where = tmp_path / "count"
    # 4x5 open: split into buckets at 1 MB as 5x6 closed is, in a tenth the time
    want = count_frontier_dict(plan_frontier(move_graph("4x5"), closed=False))[0]
    first = count_tours(
        "4x5", closed=False, checkpoint=where, memory_mb=1, kernel="dense"
    )
    assert first.undirected == want
    stats = first.frontier
    assert stats is not None
    assert stats.kernel == "dense"
    assert stats.buckets >= 1
    again = count_tours(
        "4x5", closed=False, checkpoint=where, memory_mb=1, kernel="dense"
    )
    assert again.undirected == want
    # the last cell is run again from the checkpoint before it
    assert again.frontier is not None
    assert again.frontier.resumed == 19


def test_kernel_names_are_checked() -> None:
    with pytest.raises(InvalidInputError, match="kernel"):
        count_tours("3x4", kernel="gpu")
    with pytest.raises(InvalidInputError, match="dense or meet kernel"):
        count_tours("3x4", closed=False, kernel="numpy", checkpoint="/nonexistent/x")


def test_slow_chunks_are_halved_and_the_count_stays_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A chunk that takes longer than SLICE_SECONDS halves the next ones (down
    # to 256 states made), so the clock is asked often on a slow or loaded
    # machine; with every chunk "slow" the chunks shrink to the floor and
    # the count, read in chunks of every size on the way, is still A001230's
    import cpknight.counting.dense_kernel as dense
    from cpknight.runtime.pace import Pace

    monkeypatch.setattr(dense, "SLICE_SECONDS", 0.0)
    sizes: list[int] = []
    took = Pace.took

    def watched(self: Pace, seconds: float) -> None:
        took(self, seconds)
        sizes.append(self.size)

    monkeypatch.setattr(Pace, "took", watched)
    assert count_tours("6x6", method="frontier", kernel="dense").undirected == 9862
    assert sizes[0] == dense.RECORDS // 2
    assert min(sizes) == 256
    assert sizes == sorted(sizes, reverse=True)
