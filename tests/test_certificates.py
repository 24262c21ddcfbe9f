"""Each cheap certificate fires where it should, with its reason, and only there.

Expected reasons are hand-checkable facts about each board: the 3x3 centre has no
knight move; the 4x4 corners a1 and d4 both have exactly the moves to b3 and c2
(so a closed tour would close the 4-cycle a1-b3-d4-c2); a 5x5 board has 13
cells of one colour and 12 of the other; the camel (1,3) never changes colour.
"""

from __future__ import annotations

import pytest

from cpknight import Board, NoTourError, SolveOptions, find_tour
from cpknight.board import Cell
from cpknight.pieces import move_graph
from cpknight.tours.certificates import CERTIFICATES, tour_certificate

OPTS = SolveOptions(time_limit=10)


@pytest.mark.parametrize(
    ("board", "piece", "closed", "start", "end", "name", "words"),
    [
        ("1x2", "knight", True, None, None, "too-small", "at least 3 cells"),
        ("1x1", "knight", True, None, None, "too-small", "has 1"),
        ("8x8", "knight", False, (0, 0), (0, 0), "endpoints", "same cell a1"),
        ("3x3", "knight", False, None, None, "degree", "cell b2 has no moves"),
        ("4x4", "knight", True, None, None, "forced-cycle", "a1-c2-d4-b3-a1"),
        ("8x8", "camel", True, None, None, "disconnected", "2 components"),
        ("5x5", "knight", True, None, None, "colour", "13 and 12"),
        ("5x5", "knight", False, (0, 1), None, "colour", "b1 is in the smaller"),
        ("8x8", "knight", False, (0, 0), (7, 7), "colour", "a1 and h8 share"),
        ("heart9", "knight", False, None, None, "colour", "30 and 21"),
    ],
)
def test_each_certificate_fires_with_its_reason(
    board: str,
    piece: str,
    closed: bool,
    start: Cell | None,
    end: Cell | None,
    name: str,
    words: str,
) -> None:
    graph = move_graph(Board.parse(board), piece)
    found = tour_certificate(graph, closed=closed, start=start, end=end)
    assert found is not None
    assert found.name == name
    assert name in CERTIFICATES
    assert words in found.reason
    with pytest.raises(NoTourError) as info:
        find_tour(board, piece=piece, closed=closed, start=start, end=end, options=OPTS)
    assert info.value.certificate == name
    assert info.value.reason == found.reason


def test_heart9_colour_counts_are_the_chessboard_colours() -> None:
    board = Board.parse("heart9")
    cells = list(board.open_cells())
    light = sum((r + c) % 2 for r, c in cells)
    counts = sorted([light, len(cells) - light], reverse=True)
    found = tour_certificate(move_graph(board), closed=False)
    assert found is not None
    assert f"{counts[0]} and {counts[1]}" in found.reason


def test_degree_one_cells_beyond_the_ends() -> None:
    # A 1x2 strip with the wazir: two cells of one move each, an open tour exists.
    graph = move_graph(Board.parse("1x3"), "wazir")
    assert tour_certificate(graph, closed=False) is None
    assert tour_certificate(graph, closed=True) is not None
    found = tour_certificate(graph, closed=False, start=(0, 1))
    assert found is not None
    assert found.name == "degree"


@pytest.mark.parametrize(
    ("board", "closed", "start"),
    [
        ("8x8", True, None),
        ("8x8", False, (0, 0)),
        ("5x5", False, (0, 0)),
        ("6x6", True, None),
        ("3x4", False, None),
        ("ring10", True, None),
        ("1x1", False, None),
    ],
)
def test_no_certificate_where_a_tour_exists(
    board: str, closed: bool, start: Cell | None
) -> None:
    graph = move_graph(Board.parse(board))
    assert tour_certificate(graph, closed=closed, start=start) is None
    tour = find_tour(board, closed=closed, start=start, options=OPTS)
    assert len(tour) == graph.n_nodes


def test_when_no_certificate_applies_the_search_says_so() -> None:
    # Schwenk 1991: no 4 x n board has a closed tour; 4x5 passes every cheap test.
    assert tour_certificate(move_graph(Board.parse("4x5")), closed=True) is None
    with pytest.raises(NoTourError) as info:
        find_tour("4x5", method="cpsat", options=OPTS)
    assert info.value.certificate == "search"
    assert "CP-SAT proved" in info.value.reason
