"""Hypothesis properties over random boards, shapes, topologies and leapers."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from cpknight import Board, distance_map, is_tour, move_graph
from cpknight.graph import component_labels
from cpknight.pieces import steps_are_moves
from tests.conftest import (
    boards,
    brute_distances,
    brute_neighbours,
    brute_open_cells,
    is_leap,
    leapers,
)


@st.composite
def board_and_piece(draw: st.DrawFn) -> tuple[Board, tuple[int, ...]]:
    board = draw(boards())
    return board, draw(leapers(dim=board.dim))


@given(board_and_piece())
def test_move_graph_is_symmetric_and_matches_the_oracle(
    case: tuple[Board, tuple[int, ...]],
) -> None:
    board, vector = case
    graph = move_graph(board, vector)
    tails, heads = graph.arcs()
    arcs = set(zip(tails.tolist(), heads.tolist(), strict=True))
    assert len(arcs) == graph.n_arcs  # no arc twice
    assert all((v, u) in arcs for u, v in arcs)
    assert all(u != v for u, v in arcs)  # no loops, even on a tiny torus
    oracle = brute_neighbours(board, vector)
    found = {
        cell: {graph.cell(int(v)) for v in graph.neighbors(node)}
        for node, cell in enumerate(map(tuple, graph.cells.tolist()))
    }
    assert found == oracle
    # the table holds the same neighbours (possibly repeated on a small torus)
    for node in range(graph.n_nodes):
        row = {int(v) for v in graph.table[node] if v >= 0}
        assert row == set(graph.neighbors(node).tolist())


@given(board_and_piece())
def test_steps_are_moves_agrees_with_the_graph(
    case: tuple[Board, tuple[int, ...]],
) -> None:
    board, vector = case
    graph = move_graph(board, vector)
    n = graph.n_nodes
    pairs = np.array(list(itertools.product(range(n), repeat=2)), dtype=np.int64)
    pairs = pairs.reshape(-1, 2)
    legal = steps_are_moves(
        board, vector, graph.cells[pairs[:, 0]], graph.cells[pairs[:, 1]]
    )
    adjacency = np.zeros((n, n), dtype=bool)
    tails, heads = graph.arcs()
    adjacency[tails, heads] = True
    assert legal.tolist() == adjacency[pairs[:, 0], pairs[:, 1]].tolist()


@given(boards(dims=(2,), max_side=9))
def test_ascii_round_trip_2d(board: Board) -> None:
    assert Board.from_ascii(str(board), topology=board.topology) == board


@given(boards(dims=(3,), max_side=4))
def test_ascii_round_trip_3d(board: Board) -> None:
    # A single layer draws exactly like a 2D board, so the text cannot say it
    # was 3D: the round trip holds for two layers or more.
    assume(board.shape[0] >= 2)
    assert Board.from_ascii(str(board), topology=board.topology) == board


@st.composite
def map_case(draw: st.DrawFn) -> tuple[Board, tuple[int, ...], tuple[int, ...]]:
    board, vector = draw(board_and_piece())
    cells = brute_open_cells(board)
    source = draw(st.sampled_from(cells))
    return board, vector, source


@given(map_case())
def test_distance_map_matches_the_oracle(
    case: tuple[Board, tuple[int, ...], tuple[int, ...]],
) -> None:
    board, vector, source = case
    dmap = distance_map(board, source, piece=vector)
    oracle = brute_distances(board, vector, source)
    for cell in brute_open_cells(board):
        assert dmap[cell] == oracle.get(cell)


@given(map_case())
def test_neighbours_differ_by_at_most_one(
    case: tuple[Board, tuple[int, ...], tuple[int, ...]],
) -> None:
    board, vector, source = case
    graph = move_graph(board, vector)
    dmap = distance_map(board, source, piece=vector)
    level = dmap.array[tuple(graph.cells.T)]
    tails, heads = graph.arcs()
    # an arc never joins a reachable cell to an unreachable one
    assert ((level[tails] >= 0) == (level[heads] >= 0)).all()
    both = level[tails] >= 0
    assert (np.abs(level[tails][both] - level[heads][both]) <= 1).all()
    # every reached cell but the source has a neighbour one move closer
    for node in np.flatnonzero(level > 0).tolist():
        assert (level[graph.neighbors(node)] == level[node] - 1).any()


@given(board_and_piece(), st.data())
def test_distance_is_symmetric_and_obeys_the_triangle_inequality(
    case: tuple[Board, tuple[int, ...]], data: st.DataObject
) -> None:
    board, vector = case
    cells = brute_open_cells(board)
    a, b, c = (data.draw(st.sampled_from(cells)) for _ in range(3))
    from_a = distance_map(board, a, piece=vector)
    from_b = distance_map(board, b, piece=vector)
    assert from_a[b] == from_b[a]
    d_ab, d_bc, d_ac = from_a[b], from_b[c], from_a[c]
    if d_ab is not None and d_bc is not None:
        assert d_ac is not None
        assert d_ac <= d_ab + d_bc


@given(board_and_piece())
def test_components_partition_by_reachability(
    case: tuple[Board, tuple[int, ...]],
) -> None:
    board, vector = case
    graph = move_graph(board, vector)
    labels = component_labels(graph)
    # numbered in node order: each label first appears after the previous one
    firsts = [int(np.flatnonzero(labels == k)[0]) for k in range(int(labels.max()) + 1)]
    assert firsts == sorted(firsts)
    assert firsts[0] == 0
    source = int(graph.n_nodes // 2)
    reached = distance_map(board, graph.cell(source), piece=vector).array
    level = reached[tuple(graph.cells.T)]
    assert ((level >= 0) == (labels == labels[source])).all()


@given(boards(dims=(2,), max_side=4, topologies=("bounded", "torus")), st.randoms())
def test_checker_agrees_with_its_definition(board: Board, rng: object) -> None:
    # A random ordering of the open cells is a tour exactly when every step is
    # a knight leap (the test's own definition).
    cells = brute_open_cells(board)
    assume(len(cells) >= 1)
    rng.shuffle(cells)  # type: ignore[attr-defined]
    expected = all(is_leap(board, (1, 2), a, b) for a, b in itertools.pairwise(cells))
    assert is_tour(board, cells, closed=False) == expected
    closing = len(cells) >= 3 and is_leap(board, (1, 2), cells[-1], cells[0])
    assert is_tour(board, cells, closed=True) == (expected and closing)
