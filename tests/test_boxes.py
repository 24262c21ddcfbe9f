"""Knight's tours on 3-D boxes: the frontier against the DP over subsets.

The 3-D knight moves by 1 along one axis and 2 along another (24 moves). A box
with a 2 x 2 cross-section has no tour (a move changes the long axis by 2, so
its parity splits the cells), nor has 2x3x3; the smallest box with tours is
2x3x4 (24 cells), whose counts the DP over subsets takes a minute and 3 GB
for (``benchmarks/records.py`` runs it: 12,132 closed and 954,736 open,
undirected). Here, boxes of up to 20 open cells, some with cells taken out.
"""

from __future__ import annotations

import pytest

from cpknight import count_tours
from cpknight.board import Board
from tests.conftest import brute_neighbours, brute_tours, subset_count

BOXES = [
    ((2, 2, 4), ()),
    ((2, 3, 3), ()),
    ((2, 2, 5), ()),
    ((2, 3, 4), ((0, 0, 0), (0, 0, 3), (1, 2, 0), (1, 2, 3))),
    ((2, 3, 4), ((0, 0, 0), (1, 2, 3), (0, 2, 0), (1, 0, 3))),
]


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
@pytest.mark.parametrize(
    ("shape", "blocked"),
    BOXES,
    ids=["2x2x4", "2x3x3", "2x2x5", "2x3x4-four-holes", "2x3x4-four-other-holes"],
)
def test_boxes_by_the_frontier_and_by_subsets(
    shape: tuple[int, int, int],
    blocked: tuple[tuple[int, int, int], ...],
    closed: bool,
) -> None:
    board = Board(shape, blocked=blocked)
    expected = subset_count(brute_neighbours(board, (1, 2)), closed=closed)
    count = count_tours(board, closed=closed, method="frontier")
    assert (count.undirected, count.directed) == (expected, 2 * expected)


def test_a_box_with_tours_by_the_plain_search_too() -> None:
    # 2x3x4 without four corners: 50 closed and 3,600 open tours (undirected),
    # by all three routes; the plain search checks the DP on a 3-D board.
    board = Board((2, 3, 4), blocked=BOXES[3][1])
    nbrs = brute_neighbours(board, (1, 2))
    closed = sum(1 for _ in brute_tours(nbrs, closed=True, start=min(nbrs))) // 2
    assert closed == subset_count(nbrs, closed=True) == 50
    assert count_tours(board, method="frontier").undirected == 50
    opened = sum(1 for _ in brute_tours(nbrs, closed=False)) // 2
    assert opened == subset_count(nbrs, closed=False) == 3600


def test_a_box_the_frontier_counts_is_not_refused_up_front() -> None:
    # The 2-D guess of the live states is about a hundred times a box's
    # (closed 2x4x4 peaks at 3.8e7 met in the middle, guessed at 8.8e8 in
    # the halves, and was refused for a 53 GB join before BOX_SHARE): the
    # count runs (122 s, 3.7 GB), so the refusal must let it
    from cpknight.counting.frontier import count_budget, refuse_count
    from cpknight.counting.instance import CountInstance
    from cpknight.frontier.plan import plan_frontier
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    instance = CountInstance(Board((2, 4, 4)), KNIGHT)
    plan = plan_frontier(instance.graph, closed=True)
    run = SolveOptions(time_limit=None).start()
    refuse_count(instance, plan, count_budget(None), "meet", run)  # no raise


def test_the_open_2x4x4_box_is_refused_up_front() -> None:
    # Open, the box's halves outgrow this kind of machine: a run on disk held
    # 597,135,217 live states after cell 22 of its first half's 25 and was
    # growing threefold a cell, its next step past 25 GB of disk, where the
    # closed share of the guess said 5.6e8 for both halves (BOX_SHARE_OPEN)
    from cpknight.counting.frontier import refuse_count
    from cpknight.counting.instance import CountInstance
    from cpknight.errors import ModelTooBigError
    from cpknight.frontier.plan import plan_frontier
    from cpknight.pieces import KNIGHT
    from cpknight.solving import SolveOptions

    instance = CountInstance(Board((2, 4, 4)), KNIGHT, closed=False)
    plan = plan_frontier(instance.graph, closed=False)
    run = SolveOptions(time_limit=None).start()
    with pytest.raises(ModelTooBigError, match=r"about 2e\+09 live states"):
        refuse_count(instance, plan, 20000, "meet", run)
