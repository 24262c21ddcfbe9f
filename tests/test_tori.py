"""Knight's tours on tori: the 4x4 torus is the 4-cube, and small tori by brute force.

The count on a torus is of the simple graph's Hamiltonian cycles (closed) or
paths (open), undirected: moves that land on the same cell of a small torus
are one edge. On the 4x4 torus the eight knight moves collapse to four, and
the graph is the 4-cube: its 1,344 Hamiltonian cycles are A066037(4) (OEIS,
checked: 1, 1, 6, 1344, 906545760, ...).
"""

from __future__ import annotations

import networkx as nx
import pytest

from cpknight import count_tours
from cpknight.board import Board, Topology
from tests.conftest import brute_neighbours, brute_tours, subset_count


def test_the_4x4_torus_is_the_4_cube_with_its_1344_cycles() -> None:
    board = Board.parse("4x4", topology="torus")
    nbrs = brute_neighbours(board, (1, 2))
    assert all(len(found) == 4 for found in nbrs.values())  # eight moves, four cells
    graph = nx.Graph([(a, b) for a, found in nbrs.items() for b in found])
    assert nx.is_isomorphic(graph, nx.hypercube_graph(4))
    # From one cell, each undirected cycle is met once in each direction.
    brute = sum(1 for _ in brute_tours(nbrs, closed=True, start=(0, 0))) // 2
    assert brute == 1344  # A066037(4)
    for method in ("frontier", "cpsat"):
        count = count_tours(board, method=method)
        assert (count.undirected, count.directed) == (1344, 2 * 1344), method


SMALL_TORI = [(3, 3), (3, 4), (4, 3), (4, 4)]
"""The tori of up to 16 cells with sides of at least 3 (smaller sides fold a
move onto its cell or onto another move). From 3x5 on, the plain search takes
minutes (the torus's knight graph is dense: millions of paths, one at a time)."""


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
@pytest.mark.parametrize("shape", SMALL_TORI, ids=lambda s: f"{s[0]}x{s[1]}")
def test_small_tori_equal_brute_force(shape: tuple[int, int], closed: bool) -> None:
    board = Board(shape, topology="torus")
    nbrs = brute_neighbours(board, (1, 2))
    # A closed tour, from one cell, is met once in each direction; an open one
    # (from every cell) once from each end.
    start = (0, 0) if closed else None
    undirected = sum(1 for _ in brute_tours(nbrs, closed=closed, start=start)) // 2
    count = count_tours(board, closed=closed, method="frontier")
    assert count.undirected == undirected


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
@pytest.mark.parametrize(
    ("shape", "topology"),
    [((3, 3), "torus"), ((3, 4), "torus"), ((4, 4), "torus"), ((3, 4), "bounded")],
    ids=["3x3-torus", "3x4-torus", "4x4-torus", "3x4"],
)
def test_the_subset_count_equals_brute_force(
    shape: tuple[int, int], topology: Topology, closed: bool
) -> None:
    # The second route (a DP over subsets) against the plain search, before
    # it is trusted where the plain search cannot go.
    nbrs = brute_neighbours(Board(shape, topology=topology), (1, 2))
    start = (0, 0) if closed else None
    brute = sum(1 for _ in brute_tours(nbrs, closed=closed, start=start)) // 2
    assert subset_count(nbrs, closed=closed) == brute


@pytest.mark.parametrize(
    ("shape", "closed"),
    [
        pytest.param((3, 5), True, id="3x5-closed"),
        pytest.param((5, 3), True, id="5x3-closed"),
        pytest.param((3, 5), False, id="3x5-open", marks=pytest.mark.slow),
    ],
)
def test_the_15_cell_tori_by_the_frontier_and_by_subsets(
    shape: tuple[int, int], closed: bool
) -> None:
    # Past the plain search: the frontier (rows wrapped into its state) against
    # the DP over subsets. The 17- to 20-cell tori take the frontier minutes and
    # gigabytes: benchmarks/records.py runs them (3x6, 6x3, 4x5, 5x4).
    board = Board(shape, topology="torus")
    expected = subset_count(brute_neighbours(board, (1, 2)), closed=closed)
    count = count_tours(board, closed=closed, method="frontier")
    assert (count.undirected, count.directed) == (expected, 2 * expected)


def test_the_3x10_and_5x6_tori_have_one_move_graph() -> None:
    # Z3 x Z10 and Z5 x Z6 are both Z30 (the Chinese remainder theorem), and
    # the knight's moves become +-{1, 2, 8, 11} and +-{4, 7, 13, 14} in Z30,
    # which multiplying by 7 maps onto each other: the two tori's knight
    # graphs are one circulant graph, so their tour counts (on the records
    # page, each counted by two programs) must be equal, and are.
    def z30(cell: tuple[int, int], rows: int, cols: int) -> int:
        return next(x for x in range(30) if (x % rows, x % cols) == cell)

    long = brute_neighbours(Board((3, 10), topology="torus"), (1, 2))
    wide = brute_neighbours(Board((5, 6), topology="torus"), (1, 2))

    def image(cell: tuple[int, ...]) -> tuple[int, int]:
        x = 7 * z30((cell[0], cell[1]), 3, 10) % 30
        return (x % 5, x % 6)

    mapped = {image(a): {image(b) for b in found} for a, found in long.items()}
    assert mapped == wide
