"""The frontier kernels where their state encodings change.

The numpy kernel packs a state's slot codes two to a byte while every code is
below 16, and into one 64-bit key while the packed state fits 8 bytes; past
either edge it switches to a byte a code and to two keys. Both edges are
reached only by wide frontiers (15 cells: codes up to ``MATE + 13`` = 16), which
no 2D board that a default test can count reaches; the 2 x 3 x 4 box with the
3D knight does (width 15, codes up to 16) and counts in a second. Each case is
held to the dict kernel, which keeps states as Python tuples (no packing).
"""

from __future__ import annotations

import pytest

from cpknight.board import Board
from cpknight.counting.dict_kernel import count_frontier_dict
from cpknight.counting.numpy_kernel import count_frontier_numpy
from cpknight.frontier.plan import plan_frontier
from cpknight.frontier.slots import MATE
from cpknight.pieces import as_piece, move_graph


@pytest.mark.parametrize(
    ("spec", "topology", "width"),
    [
        pytest.param("2x2x5", "cylinder", 12, id="one-key-nibbles"),
        pytest.param("2x3x4", "bounded", 15, id="two-keys-bytes"),
    ],
)
def test_kernels_agree_on_each_side_of_the_encoding_edges(
    spec: str, topology: str, width: int
) -> None:
    board = Board.parse(spec, topology=topology)  # type: ignore[arg-type]
    plan = plan_frontier(move_graph(board, as_piece("1,2")), closed=True)
    assert plan.width == width
    # slot codes reach MATE + (width - 2): nibbles hold them up to width 14
    assert (MATE + width - 2 >= 16) == (width >= 15)
    by_numpy = count_frontier_numpy(plan)[0]
    by_dict = count_frontier_dict(plan)[0]
    assert by_numpy == by_dict
    assert by_numpy > 0  # tours to count: a collision of states would show
