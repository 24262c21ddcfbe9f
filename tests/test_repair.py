"""Open tours with both ends fixed on large boards: tiles, repaired near the ends."""

from __future__ import annotations

import numpy as np
import pytest

from cpknight import (
    KNIGHT,
    Board,
    InvalidInputError,
    NoTourError,
    SolveOptions,
    find_tour,
    tiling,
)

OPTIONS = SolveOptions(time_limit=30, workers=1, seed=0)


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ((50, 50), (45, 58)),
        ((0, 0), (7, 4)),  # a corner: the window is moved inside the board
        ((99, 99), (98, 91)),
        ((0, 40), (3, 40)),  # an edge
        ((20, 30), (21, 32)),  # one move apart
    ],
)
def test_both_ends_fixed_near_each_other(
    start: tuple[int, int], end: tuple[int, int]
) -> None:
    # make_tour checks the tour and that it starts and ends where asked.
    tour = find_tour(
        Board((100, 100)),
        closed=False,
        start=start,
        end=end,
        method="tiles",
        options=OPTIONS,
    )
    assert tour.cells[0] == start
    assert tour.cells[-1] == end
    assert len(tour) == 100 * 100


def test_the_end_alone_cuts_the_closed_tour() -> None:
    tour = find_tour(Board((60, 80)), closed=False, end=(30, 30), method="tiles")
    assert tour.cells[-1] == (30, 30)


def test_ends_of_one_colour_have_no_tour() -> None:
    # Every knight move changes colour; an open tour of an even number of cells
    # ends on the colour it did not start on.
    with pytest.raises(NoTourError, match="same colour"):
        find_tour(
            Board((100, 100)), closed=False, start=(0, 0), end=(2, 2), method="tiles"
        )


def test_far_ends_are_joined_and_auto_picks_tiles() -> None:
    # Far-apart ends: a chain of path tiles (cpknight.tiling.chain); make_tour
    # checks the tour and its ends.
    board = Board((100, 100))
    tour = find_tour(board, closed=False, start=(0, 0), end=(99, 98), method="tiles")
    assert (tour.cells[0], tour.cells[-1]) == ((0, 0), (99, 98))
    assert tiling.suits(board, KNIGHT, end=(99, 98))
    assert tiling.suits(board, KNIGHT, end=(9, 4))
    assert tiling.suits(Board((30, 30)), KNIGHT, end=(29, 28))
    assert not tiling.suits(Board((11, 200)), KNIGHT, end=(10, 198))


def test_ends_fixed_refuses_far_ends() -> None:
    from cpknight.tiling.repair import ends_fixed

    board = Board((40, 40))
    cycle = np.arange(1600)  # never read: the ends are refused first
    with pytest.raises(InvalidInputError, match="farther apart"):
        ends_fixed(board, cycle, (0, 0), (39, 38), OPTIONS.start())
