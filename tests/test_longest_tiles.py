"""The tiles' bound of the snake search (:mod:`cpknight.longest.forests`).

The tables are held to a brute force written here (every subset of a small
graph, its linear forests found by a union-find) and to the tables of
``benchmarks/snake_dfs.py``, made apart; the search with the tiles to the
search without them (the same length, no more attempts) and, through the
kernels' tests, to the brute force of every snake.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpknight.board import Board
from cpknight.errors import SolveLimitError
from cpknight.longest import forests, search
from cpknight.longest.common import LongestInstance
from cpknight.longest.forests import forest_table, forest_tiles
from cpknight.pieces import KNIGHT, Leaper, move_graph
from cpknight.solving import SolveOptions
from tests.conftest import load_script


def _is_linear_forest(cells: list[int], edges: set[tuple[int, int]]) -> bool:
    """No cell joined to three of ``cells``, and no cycle (a union-find)."""
    parent = {v: v for v in cells}

    def root(v: int) -> int:
        while parent[v] != v:
            v = parent[v]
        return v

    for v in cells:
        if sum((min(v, w), max(v, w)) in edges for w in cells) > 2:
            return False
    for v, w in itertools.combinations(cells, 2):
        if (v, w) in edges:
            a, b = root(v), root(w)
            if a == b:
                return False
            parent[a] = b
    return True


def _brute_table(k: int, edges: set[tuple[int, int]]) -> list[int]:
    best = []
    for m in range(1 << k):
        inside = [v for v in range(k) if m >> v & 1]
        best.append(
            max(
                len(sub)
                for size in range(len(inside) + 1)
                for sub in itertools.combinations(inside, size)
                if _is_linear_forest(list(sub), edges)
            )
        )
    return best


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7).flatmap(lambda k: st.tuples(st.just(k), st.data())))
def test_a_table_is_the_brute_forces(case: tuple[int, st.DataObject]) -> None:
    k, data = case
    pairs = list(itertools.combinations(range(k), 2))
    edges = set(
        data.draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    )
    near = tuple(
        sum(1 << w for w in range(k) if (min(v, w), max(v, w)) in edges)
        for v in range(k)
    )
    assert list(forest_table(near)) == _brute_table(k, edges)


def test_the_knights_tiles_equal_snake_dfs_tables() -> None:
    dfs = load_script("snake_dfs")
    for h, w in itertools.product(range(1, 5), repeat=2):
        near = [0] * (h * w)
        for u in range(h * w):
            r, c = divmod(u, w)
            for dr, dc in dfs.MOVES:
                if 0 <= r + dr < h and 0 <= c + dc < w:
                    near[u] |= 1 << ((r + dr) * w + c + dc)
        mine = np.frombuffer(forest_table(tuple(near)), np.uint8)
        theirs = dfs._forest_table(np.array(near, np.int64), h * w)
        assert (mine == theirs).all(), (h, w)


BOARDS = {
    "9x9": Board((9, 9)),
    "5x7": Board((5, 7)),
    "2x3x6": Board((2, 3, 6)),
    "6x6 without a1 and c3": Board((6, 6), [(0, 0), (2, 2)]),
    "4x4 torus": Board((4, 4), topology="torus"),
    "1x20": Board((1, 20)),
}


@pytest.mark.parametrize("name", BOARDS)
def test_the_tiles_cover_the_board_once(name: str) -> None:
    graph = move_graph(BOARDS[name])
    tiles = forest_tiles(graph)
    assert tiles is not None
    members: dict[int, list[int]] = {}
    for v in range(graph.n_nodes):
        members.setdefault(tiles.tile[v], []).append(v)
    assert sorted(members) == list(range(len(tiles.offset)))
    for cells in members.values():
        assert 1 <= len(cells) <= 16
        bits = [tiles.bit[v] for v in cells]
        assert sorted(bits) == [1 << i for i in range(len(cells))]
        # the whole tile's entry: at most its cells, and a forest of them
        whole = tiles.table[tiles.offset[tiles.tile[cells[0]]] + sum(bits)]
        assert 1 <= whole <= len(cells)


def test_too_many_kinds_of_tile_give_no_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    # tiles of 4x4, 4x1, 1x4 and 1x1 cells; 4x1 and 1x4 hold no move: three
    # kinds of move graph
    graph = move_graph("5x5")
    monkeypatch.setattr(forests, "MAX_TABLES", 3)
    assert forest_tiles(graph) is not None
    monkeypatch.setattr(forests, "MAX_TABLES", 2)
    assert forest_tiles(graph) is None


def test_the_tables_are_made_under_the_clock() -> None:
    run = SolveOptions(time_limit=1.0).start()
    run.clock.exclude(-10.0)  # already out of time
    instance = LongestInstance(board=Board((7, 7)), piece=KNIGHT, kind="induced")
    with pytest.raises(SolveLimitError):
        search.snake_tiles(instance, run)


def _attempts(instance: LongestInstance, kernel: str, tiles: bool) -> tuple[int, int]:
    p = search.solve(
        instance, SolveOptions(time_limit=120).start(), kernel=kernel, tiles=tiles
    )
    assert p.effort is not None
    assert p.effort.attempts is not None
    return p.moves, p.effort.attempts


CASES = {
    "6x6 paths": (Board((6, 6)), KNIGHT, False),
    "6x6 cycles": (Board((6, 6)), KNIGHT, True),
    "7x7 paths": (Board((7, 7)), KNIGHT, False),
    "7x7 without a1, cycles": (Board((7, 7), [(0, 0)]), KNIGHT, True),
    "5x8 cylinder paths": (Board((5, 8), topology="cylinder"), KNIGHT, False),
    "2x4x4 cycles": (Board((2, 4, 4)), KNIGHT, True),
    "6x6 (1,3)-leaper paths": (Board((6, 6)), Leaper((1, 3)), False),
}


@pytest.mark.parametrize("name", CASES)
def test_the_tiles_keep_the_length_and_cut_attempts(name: str) -> None:
    board, piece, closed = CASES[name]
    instance = LongestInstance(board=board, piece=piece, kind="induced", closed=closed)
    moves, with_tiles = _attempts(instance, "python", True)
    moves2, without = _attempts(instance, "python", False)
    assert moves == moves2
    # the same order of moves and a bound never higher: a subset of the tree
    assert with_tiles <= without


def test_the_tiles_cut_the_8x8_snakes() -> None:
    pytest.importorskip("numba")
    instance = LongestInstance(board=Board((8, 8)), piece=KNIGHT, kind="induced")
    moves, with_tiles = _attempts(instance, "numba", True)
    moves2, without = _attempts(instance, "numba", False)
    assert moves == moves2 == 33  # OEIS A357500(8) = 34 cells (read 2026-11-30)
    assert with_tiles < without / 2
