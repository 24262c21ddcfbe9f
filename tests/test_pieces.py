"""Leapers and the move graph, against counting formulas and a brute-force oracle."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from cpknight import CAMEL, GIRAFFE, KNIGHT, ZEBRA, Board, Leaper, move_graph
from cpknight.board import Topology
from cpknight.errors import InvalidBoardError, InvalidPieceError
from cpknight.pieces import NAMED_PIECES, as_piece, steps_are_moves
from tests.conftest import brute_moves, brute_neighbours


def signed_permutations(vector: tuple[int, ...], dim: int) -> int:
    """Distinct signed permutations: arrangements times 2 per non-zero entry."""
    padded = vector + (0,) * (dim - len(vector))
    arrangements = math.factorial(dim)
    for count in Counter(padded).values():
        arrangements //= math.factorial(count)
    return arrangements << sum(1 for x in padded if x)


@pytest.mark.parametrize(
    ("vector", "dim", "expected"),
    [
        pytest.param((1, 2), 2, 8, id="knight-2d-8"),
        pytest.param((1, 2), 3, 24, id="knight-3d-24"),
        pytest.param((1, 2, 3), 3, 48, id="123-3d-48=2^3*3!"),
        pytest.param((0, 1), 2, 4, id="wazir-4"),
        pytest.param((1, 1), 2, 4, id="ferz-4-repeat"),
        pytest.param((2, 2), 2, 4, id="alfil-4-repeat"),
        pytest.param((1, 1, 1), 3, 8, id="111-3d-8"),
        pytest.param((1, 1, 2), 3, 24, id="112-3d-24"),
        pytest.param((0, 0, 1), 3, 6, id="rook-step-3d-6"),
        pytest.param((1, 2), 4, 48, id="knight-4d-48"),
        pytest.param((1, 2, 3, 4), 4, 384, id="1234-4d-384=2^4*4!"),
    ],
)
def test_number_of_moves(vector: tuple[int, ...], dim: int, expected: int) -> None:
    # MISSION.md: with n distinct non-zero components, 2^n * n! moves; fewer
    # when components repeat or are 0 (counted here by a multinomial formula
    # and by brute-force enumeration).
    moves = Leaper(vector).moves(dim)
    assert len(moves) == expected
    assert signed_permutations(vector, dim) == expected
    assert {tuple(m) for m in moves.tolist()} == brute_moves(vector, dim)
    assert len({tuple(m) for m in moves.tolist()}) == len(moves)  # no repeats


def test_leaper_normalises_its_vector() -> None:
    assert Leaper((2, -1)) == KNIGHT
    assert Leaper((3, 1)) == CAMEL
    assert Leaper.parse("(1, 2)") == KNIGHT
    assert Leaper.parse("2:1") == KNIGHT
    assert Leaper.parse([4, 1]) == GIRAFFE
    assert as_piece("zebra") == ZEBRA == Leaper((2, 3))
    assert Leaper.parse(KNIGHT) is KNIGHT


def test_named_pieces() -> None:
    assert NAMED_PIECES["knight"].vector == (1, 2)
    assert NAMED_PIECES["camel"].vector == (1, 3)
    assert NAMED_PIECES["zebra"].vector == (2, 3)
    assert NAMED_PIECES["giraffe"].vector == (1, 4)
    assert KNIGHT.label == "knight (1,2)"
    assert Leaper((1, 2, 3)).label == "(1,2,3)-leaper"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "bishop",
            "expected a piece like '1,2' or a name in knight, camel, zebra, "
            "giraffe, wazir, ferz, dabbaba, alfil, threeleaper, tripper, "
            "antelope: 'bishop'",
        ),
        ("0,0", "a leaper needs a non-zero component: (0,0)"),
        ((0, 0, 0), "a leaper needs a non-zero component: (0,0,0)"),
        ((), "a leaper needs a non-zero component: ()"),
        ((1.5, 2), "a leaper is a tuple of ints: (1.5, 2)"),  # never truncated
        (
            "1,99999999999",
            "a leaper's components must be at most 2147483647: (1,99999999999)",
        ),
    ],
)
def test_bad_pieces(spec: str | tuple[float, ...], message: str) -> None:
    with pytest.raises(InvalidPieceError) as info:
        Leaper.parse(spec)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_piece_longer_than_the_board() -> None:
    with pytest.raises(InvalidPieceError) as info:
        move_graph(Board.parse("8x8"), "1,2,3")
    assert (
        str(info.value) == "piece (1,2,3)-leaper has 3 components; board 8x8 has 2 axes"
    )
    with pytest.raises(InvalidPieceError):
        Leaper((1, 2, 3)).moves(2)


def test_no_move_graph_on_the_plane() -> None:
    with pytest.raises(InvalidBoardError, match="unbounded"):
        move_graph(Board.parse("plane"), KNIGHT)


# ------------------------------------------------------------- the move graph

ORACLE_CASES = [
    ("8x8", "bounded", (1, 2)),
    ("3x3", "bounded", (1, 2)),
    ("1x1", "bounded", (1, 2)),
    ("1x9", "bounded", (0, 2)),
    ("2x7", "bounded", (1, 2)),
    ("holed8", "bounded", (1, 2)),
    ("heart9", "bounded", (1, 2)),
    ("ring9", "bounded", (1, 3)),
    ("blocks12", "bounded", (2, 3)),
    ("frame9", "bounded", (1, 4)),
    ("cross5", "torus", (1, 2)),
    ("4x4", "torus", (1, 2)),  # 2 = -2 mod 4: moves coincide
    ("3x3", "torus", (1, 2)),
    ("2x2", "torus", (1, 1)),  # every diagonal leap lands on the one opposite cell
    ("5x6", "cylinder", (1, 2)),
    ("1x4", "torus", (0, 4)),  # every leap lands back on its own cell
    ("cube4", "bounded", (1, 2, 3)),
    ("3x4x5", "bounded", (1, 2)),
    ("3x3x3", "torus", (1, 1, 2)),
    ("2x3x4", "cylinder", (0, 1, 2)),
    ("2x2x3x3", "bounded", (1, 2)),
    ("5x6", "torus", (1, 2**31 - 1)),  # the largest component, wrapped
    ("5x6", "cylinder", (3, 2**31 - 1)),
]


@pytest.mark.parametrize(("spec", "topology", "vector"), ORACLE_CASES)
def test_move_graph_matches_brute_force(
    spec: str, topology: Topology, vector: tuple[int, ...]
) -> None:
    board = Board.parse(spec, topology=topology)
    graph = move_graph(board, vector)
    oracle = brute_neighbours(board, vector)
    assert graph.n_nodes == len(oracle) == board.n_open
    assert [tuple(c) for c in graph.cells.tolist()] == list(oracle)  # row-major
    for node, cell in enumerate(oracle):
        assert graph.cell(node) == cell
        assert graph.node(cell) == node
        nbrs = [graph.cell(int(x)) for x in graph.neighbors(node)]
        assert len(nbrs) == len(set(nbrs)), "a neighbour listed twice"
        assert set(nbrs) == oracle[cell]
        row = {graph.cell(int(x)) for x in graph.table[node] if x >= 0}
        assert row == oracle[cell]
    assert graph.n_arcs == sum(len(v) for v in oracle.values())
    assert graph.n_edges * 2 == graph.n_arcs
    for cell in board.blocked:
        assert graph.node(cell) == -1


def test_table_column_is_the_move() -> None:
    # table[i, j] is the node reached by move j: check each entry's vector.
    graph = move_graph(Board.parse("5x6"), KNIGHT)
    for node in range(graph.n_nodes):
        for j, target in enumerate(graph.table[node].tolist()):
            cell = np.array(graph.cell(node)) + graph.moves[j]
            on_board = bool(np.all((cell >= 0) & (cell < (5, 6))))
            assert (target >= 0) == on_board
            if on_board:
                assert graph.cell(target) == tuple(cell.tolist())


def test_neighbours_in_move_order() -> None:
    # Documented: neighbours are listed in move order (the table's column order).
    graph = move_graph(Board.parse("8x8"), KNIGHT)
    for node in range(graph.n_nodes):
        row = [int(x) for x in graph.table[node] if x >= 0]
        assert graph.neighbors(node).tolist() == row


@pytest.mark.parametrize(
    ("m", "n"), [(m, n) for m in range(2, 11) for n in range(2, 11)]
)
def test_knight_edge_count_formula(m: int, n: int) -> None:
    # Edges of the m x n knight graph: 4mn - 6(m+n) + 8 for m, n >= 2 (twice it
    # is the number of knight moves: OEIS A035008 for (n+2) x (n+2), 8n(n+1);
    # OEIS A180319 for n x 2n, 336 on 8x8 and 128 on 4x8). Also counted here by
    # brute force.
    graph = move_graph(Board((m, n)), KNIGHT)
    expected = 4 * m * n - 6 * (m + n) + 8
    assert graph.n_edges == expected
    oracle = brute_neighbours(Board((m, n)), (1, 2))
    assert sum(len(v) for v in oracle.values()) == 2 * expected


def test_published_move_counts() -> None:
    # OEIS A035008: 0, 16, 48, 96, 160, 240, 336 knight moves on 2x2 .. 8x8.
    counts = [move_graph(Board((k, k)), KNIGHT).n_arcs for k in range(2, 9)]
    assert counts == [0, 16, 48, 96, 160, 240, 336]
    # OEIS A180319 (n x 2n): 8, 52, 128 on 2x4, 3x6, 4x8.
    assert [move_graph(Board((k, 2 * k)), KNIGHT).n_arcs for k in (2, 3, 4)] == [
        8,
        52,
        128,
    ]


def test_8x8_degree_distribution() -> None:
    # The 8x8 knight graph: 4 cells of degree 2, 8 of 3, 20 of 4, 16 of 6 and
    # 16 of 8 (the 4x8 half drawn in OEIS A180319; Wikipedia "Knight's graph").
    graph = move_graph(Board.parse("8x8"), KNIGHT)
    assert Counter(graph.degree.tolist()) == {2: 4, 3: 8, 4: 20, 6: 16, 8: 16}


def test_torus_is_regular() -> None:
    # On an n x n torus with n >= 5 every knight move lands on a distinct cell:
    # the graph is 8-regular with 4 n^2 edges.
    for n in (5, 6, 9):
        graph = move_graph(Board((n, n), topology="torus"), KNIGHT)
        assert set(graph.degree.tolist()) == {8}
        assert graph.n_edges == 4 * n * n


def test_graph_is_cached_and_read_only() -> None:
    board = Board.parse("6x6")
    graph = move_graph(board, KNIGHT)
    assert move_graph(Board((6, 6)), "knight") is graph
    for array in (graph.table, graph.indices, graph.indptr, graph.cells, graph.node_of):
        assert not array.flags.writeable
    assert graph.table.dtype == np.int32
    assert graph.indices.dtype == np.int32


def test_steps_are_moves() -> None:
    board = Board.parse("8x8")
    tails = np.array([[0, 0], [0, 0], [0, 0], [3, 3]])
    heads = np.array([[2, 1], [1, 2], [1, 1], [1, 4]])
    assert steps_are_moves(board, KNIGHT, tails, heads).tolist() == [
        True,
        True,
        False,
        True,
    ]
    torus = board.with_topology("torus")
    # (0,0) -> (7,6) is (-1,-2) wrapped: a move on the torus, not on the board.
    assert steps_are_moves(torus, KNIGHT, tails[:1], np.array([[7, 6]])).tolist() == [
        True
    ]
    assert steps_are_moves(board, KNIGHT, tails[:1], np.array([[7, 6]])).tolist() == [
        False
    ]
    # A leap that lands back on its own cell (side 4 with a 4-leap) is no move.
    ring = Board((1, 4), topology="torus")
    assert steps_are_moves(
        ring, (0, 4), np.array([[0, 0]]), np.array([[0, 0]])
    ).tolist() == [False]


def test_1000x1000_graph_shape() -> None:
    graph = move_graph(Board((1000, 1000)), KNIGHT)
    assert graph.n_nodes == 1_000_000
    assert graph.n_edges == 4 * 10**6 - 6 * 2000 + 8  # the edge formula above
