"""The reference BFS against a brute-force oracle and published facts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cpknight import (
    Board,
    InvalidBoardError,
    NoPathError,
    components,
    distance_map,
    knight_distance,
    move_graph,
    reachable,
    shortest_path,
)
from cpknight.board import Topology
from cpknight.graph import bfs_levels, bfs_path, component_labels
from cpknight.graph import traversal as bfs_module
from tests.conftest import (
    brute_components,
    brute_distances,
    brute_distances_from,
    brute_neighbours,
    brute_open_cells,
    is_leap,
)

ORACLE_CASES = [
    ("3x3", "bounded", (1, 2)),
    ("4x5", "bounded", (1, 2)),
    ("8x8", "bounded", (1, 2)),
    ("holed8", "bounded", (1, 2)),
    ("heart9", "bounded", (1, 2)),
    ("cross5", "bounded", (1, 3)),
    ("ring9", "bounded", (1, 2)),
    ("frame9", "bounded", (2, 3)),
    ("1x7", "bounded", (0, 2)),
    ("6x6", "torus", (1, 2)),
    ("4x4", "torus", (1, 2)),
    ("5x7", "cylinder", (1, 3)),
    ("8x8", "bounded", (1, 1)),  # ferz: two colours
    ("cube4", "bounded", (1, 2, 3)),
    ("3x4x4", "bounded", (1, 2)),
    ("3x3x3", "torus", (0, 1, 2)),
    ("2x3x3x2", "bounded", (1, 1)),
]


@pytest.mark.parametrize(("spec", "topology", "vector"), ORACLE_CASES)
def test_distance_maps_match_a_deque_bfs(
    spec: str, topology: Topology, vector: tuple[int, ...]
) -> None:
    board = Board.parse(spec, topology=topology)
    nbrs = brute_neighbours(board, vector)
    for source in brute_open_cells(board):
        oracle = brute_distances_from(nbrs, source)
        dmap = distance_map(board, source, piece=vector)
        for cell in brute_open_cells(board):
            assert dmap[cell] == oracle.get(cell), (source, cell)
        assert dmap.n_reachable == len(oracle)
        assert dmap.max_distance == max(oracle.values())
        assert set(reachable(board, source, piece=vector)) == set(oracle)
        assert sorted(dmap.unreachable()) == sorted(
            set(brute_open_cells(board)) - set(oracle)
        )
        for cell in board.blocked:
            assert dmap[cell] is None


@pytest.mark.parametrize(("spec", "topology", "vector"), ORACLE_CASES)
def test_components_match_the_oracle(
    spec: str, topology: Topology, vector: tuple[int, ...]
) -> None:
    board = Board.parse(spec, topology=topology)
    parts = [set(p) for p in components(board, piece=vector)]
    assert parts == brute_components(board, vector)


@pytest.mark.parametrize("bfs_components", [0, 1, 32])
@pytest.mark.parametrize(
    ("shape", "vector"),
    [
        ((30, 30), (0, 20)),  # hundreds of small components and isolated cells
        ((12, 12), (2, 2)),  # the alfil: 8 classes (2 parities x 2 x 2)
        ((9, 9), (1, 2)),
        ((1, 1), (1, 2)),
        ((7, 11), (3, 3)),
    ],
)
def test_component_labels_both_ways(
    monkeypatch: pytest.MonkeyPatch,
    bfs_components: int,
    shape: tuple[int, ...],
    vector: tuple[int, ...],
) -> None:
    # component_labels finds the first components by BFS and hooks the rest:
    # force each path (0: hooking only, 1: one BFS then hooking, 32: default).
    monkeypatch.setattr(bfs_module, "_BFS_COMPONENTS", bfs_components)
    board = Board(shape)
    graph = move_graph(board, vector)
    labels = component_labels(graph).tolist()
    oracle = brute_components(board, vector)
    assert max(labels) + 1 == len(oracle)
    for number, part in enumerate(oracle):
        assert {graph.cell(i) for i, x in enumerate(labels) if x == number} == part


def test_many_components_count() -> None:
    # On 30x30 a (0,20)-leaper moves only along rows or columns by 20: a cell
    # (r, c) reaches r +- 20 and c +- 20, so its component is the product of
    # the classes {r mod 20 chain} x {c mod 20 chain}: rows split into 20
    # classes (10 of size 2, 10 of size 1), so 20 x 20 = 400 components.
    assert len(components(Board((30, 30)), piece=(0, 20))) == 400


# ------------------------------------------------------------ published facts


def test_3x3_centre_is_unreachable() -> None:
    # The centre of the 3x3 board has no knight move (every leap leaves the board).
    dmap = distance_map("3x3", "a1")
    assert dmap["b2"] is None
    assert dmap.n_reachable == 8
    assert dmap.unreachable() == [(1, 1)]
    assert [len(c) for c in components("3x3")] == [8, 1]
    with pytest.raises(NoPathError) as info:
        knight_distance("3x3", "a1", "b2")
    assert str(info.value) == (
        "b2 cannot be reached from a1 by the knight (1,2) on board 3x3"
    )


def test_8x8_knight_graph_diameter_is_6() -> None:
    # The 8x8 knight graph has diameter 6 (a well-known fact: the knight
    # needs at most 6 moves between any two squares). Recomputed here by
    # Floyd-Warshall on the adjacency matrix, which also checks every BFS row.
    board = Board.parse("8x8")
    eccentricities = [
        distance_map(board, c).max_distance for c in brute_open_cells(board)
    ]
    assert max(eccentricities) == 6
    graph = move_graph(board, "knight")
    n = graph.n_nodes
    inf = 10**6
    d = np.full((n, n), inf, dtype=np.int64)
    np.fill_diagonal(d, 0)
    tails, heads = graph.arcs()
    d[tails, heads] = 1
    for k in range(n):
        d = np.minimum(d, d[:, k : k + 1] + d[k : k + 1, :])
    assert int(d.max()) == 6
    for cell in brute_open_cells(board):
        node = graph.node(cell)
        assert bfs_levels(graph, node).tolist() == d[node].tolist()


def test_8x8_corner_facts() -> None:
    # MISSION.md: a1 to b2 is 4 moves on 8x8 (2 on the open plane); a1 to h8
    # takes 6 (the corner-to-corner distance).
    assert int(knight_distance("8x8", "a1", "b2")) == 4
    assert int(knight_distance("8x8", "a1", "h8")) == 6
    assert int(knight_distance("8x8", "a1", "c2")) == 1


def test_8x8_distance_map_from_a1() -> None:
    # The standard diagram of knight distances from a corner (top rank first).
    expected = [
        [5, 4, 5, 4, 5, 4, 5, 6],
        [4, 3, 4, 3, 4, 5, 4, 5],
        [3, 4, 3, 4, 3, 4, 5, 4],
        [2, 3, 2, 3, 4, 3, 4, 5],
        [3, 2, 3, 2, 3, 4, 3, 4],
        [2, 1, 4, 3, 2, 3, 4, 5],
        [3, 4, 1, 2, 3, 4, 3, 4],
        [0, 3, 2, 3, 2, 3, 4, 5],
    ]
    dmap = distance_map("8x8", "a1")
    assert dmap.array[::-1].tolist() == expected
    oracle = brute_distances(Board((8, 8)), (1, 2), (0, 0))
    assert [[oracle[(r, c)] for c in range(8)] for r in reversed(range(8))] == expected


def test_wazir_distance_is_manhattan() -> None:
    # The (0,1) leaper's distance is |dr| + |dc| on a bounded box, and on a
    # torus the sum of min(|d|, side - |d|) per axis.
    dmap = distance_map("6x9", (2, 3), piece="wazir")
    for r in range(6):
        for c in range(9):
            assert dmap[(r, c)] == abs(r - 2) + abs(c - 3)
    torus = distance_map(Board((5, 8), topology="torus"), (0, 0), piece=(0, 1))
    for r in range(5):
        for c in range(8):
            assert torus[(r, c)] == min(r, 5 - r) + min(c, 8 - c)


# --------------------------------------------------------------- paths


@pytest.mark.parametrize(
    ("spec", "topology", "vector"),
    [(s, t, v) for s, t, v in ORACLE_CASES if s not in ("cube4", "heart9")],
)
def test_shortest_paths_are_legal_and_shortest(
    spec: str, topology: Topology, vector: tuple[int, ...]
) -> None:
    board = Board.parse(spec, topology=topology)
    cells = brute_open_cells(board)
    source = cells[0]
    oracle = brute_distances(board, vector, source)
    for target in cells:
        if target not in oracle:
            with pytest.raises(NoPathError):
                knight_distance(board, source, target, piece=vector)
            continue
        result = knight_distance(board, source, target, piece=vector)
        assert result.distance == oracle[target]
        assert result.exact
        assert result.method == "bfs"
        path = result.path
        assert path is not None
        assert path[0] == source
        assert path[-1] == target
        assert len(path) == oracle[target] + 1
        for a, b in itertools.pairwise(path):
            assert is_leap(board, vector, a, b)


def test_paths_are_deterministic() -> None:
    first = shortest_path("8x8", "a1", "h8")
    assert all(shortest_path("8x8", "a1", "h8") == first for _ in range(3))
    graph = move_graph(Board.parse("8x8"), "knight")
    assert bfs_path(graph, 0, 0) == [0]


def test_early_stop_keeps_the_target_level() -> None:
    graph = move_graph(Board.parse("20x20"), "knight")
    full = bfs_levels(graph, 0)
    for target in (1, 57, 399):
        early = bfs_levels(graph, 0, target=target)
        assert early[target] == full[target]
        reached = early >= 0
        assert (early[reached] == full[reached]).all()


def test_bfs_refuses_the_plane() -> None:
    with pytest.raises(InvalidBoardError) as info:
        knight_distance("plane", "0,0", "1,1", method="bfs")
    assert str(info.value) == (
        "board 'plane' is unbounded; method 'bfs' needs a finite board"
    )
    with pytest.raises(InvalidBoardError, match="a distance map needs a finite"):
        distance_map("plane", "0,0")


# -------------------------------------------------------------- the map value


def test_distance_map_value() -> None:
    dmap = distance_map("holed8", "a1")
    want = brute_distances(Board.parse("holed8"), (1, 2), (0, 0))
    assert dmap["h8"] == want[(7, 7)]
    assert dmap.max_distance == max(want.values())
    assert dmap["c3"] is None  # blocked
    assert dmap[(0, 0)] == 0
    assert dmap.source == (0, 0)
    assert not dmap.array.flags.writeable
    lists = dmap.to_lists()
    assert len(lists) == 8
    assert lists[0][0] == 0
    assert lists[2][2] is None
    assert all(type(x) is int for row in lists for x in row if x is not None)
    assert type(dmap.max_distance) is int
    assert type(dmap["h8"]) is int


def test_distance_map_text_3x3() -> None:
    assert str(distance_map("3x3", "a1")) == (
        "3 | 2 1 4\n2 | 3 - 1\n1 | * 3 2\n    a b c"
    )


def test_distance_map_3d_nesting() -> None:
    dmap = distance_map("cube4", "0,0,0", piece="1,2,3")
    lists = dmap.to_lists()
    assert len(lists) == 4
    assert all(len(layer) == 4 for layer in lists)
    assert all(len(row) == 4 for layer in lists for row in layer)
    oracle = brute_distances(Board((4, 4, 4)), (1, 2, 3), (0, 0, 0))
    for (x, y, z), value in oracle.items():
        assert lists[x][y][z] == value


def test_1000x1000_map_from_a_corner() -> None:
    # Each knight move changes row + col by at most 3, so (999, 999) needs at
    # least 1998 / 3 = 666 moves; 333 moves (+1, +2) and 333 moves (+2, +1)
    # reach it staying on the board: exactly 666.
    dmap = distance_map(Board((1000, 1000)), (0, 0))
    assert dmap[(999, 999)] == 666
    assert dmap.n_reachable == 10**6
    assert dmap[(2, 1)] == 1


# ------------------------------------------- bidirectional BFS against the reference


@pytest.mark.parametrize(
    ("spec", "piece", "topology"),
    [
        ("8x8", "knight", "bounded"),
        ("holed8", "knight", "bounded"),  # unreachable cells and detours
        ("3x3", "knight", "bounded"),  # the centre cannot be reached
        ("5x7", "knight", "torus"),  # odd torus
        ("4x6", "camel", "cylinder"),
        ("cube4", "1,2,3", "bounded"),  # 3D, 48 moves
        ("1x9", "wazir", "bounded"),  # a path-shaped move graph
    ],
)
def test_bidirectional_equals_bfs_on_every_pair(
    spec: str, piece: str, topology: Topology
) -> None:
    board = Board.parse(spec, topology=topology)
    graph = move_graph(board, piece)
    cells = [graph.cell(n) for n in range(graph.n_nodes)]
    for source in cells[:: max(1, len(cells) // 6)]:
        levels = bfs_levels(graph, graph.node(source))
        for target in cells:
            expected = int(levels[graph.node(target)])
            if expected < 0:
                with pytest.raises(NoPathError):
                    knight_distance(
                        board, source, target, piece=piece, method="bidirectional"
                    )
                continue
            d = knight_distance(
                board, source, target, piece=piece, method="bidirectional"
            )
            assert d.distance == expected, (source, target)
            assert d.path is not None
            assert len(d.path) == expected + 1
