"""The quick single answers (issue 36): the same answers as the engines, bounded caches.

``knight_distance`` with its defaults, ``shortest_path`` and ``reachable``
answer from kept per-board tables (:mod:`cpknight.distances.quick`). Every
answer is held here to the engines' path: the ``bfs`` method on finite boards
(distance, path, errors), the closed form and BFS on a big box for the plane.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
import itertools
import pickle
import threading
import weakref
from typing import Any

import numpy as np
import pytest

from cpknight import Board, knight_distance, reachable, shortest_path
from cpknight.distances import quick
from cpknight.distances.formula import knight_formula
from cpknight.errors import (
    CpknightError,
    EngineError,
    InvalidBoardError,
    InvalidCellError,
    InvalidPieceError,
    ModelTooBigError,
    NoPathError,
)
from cpknight.graph import bfs_levels
from cpknight.graph.traversal import next_hops
from cpknight.pieces import KNIGHT, Leaper, move_graph
from cpknight.results import Distance
from cpknight.runtime.memory import memory_budget


@pytest.fixture(autouse=True)
def _cold_caches() -> None:
    quick.clear_quick_tables()


BOARDS = [
    pytest.param("8x8", "knight", id="8x8 knight"),
    pytest.param("3x4", "knight", id="3x4 knight (unreachable pairs)"),
    pytest.param("holed8", "knight", id="holed8 (blocked cells)"),
    pytest.param(Board((5, 5), topology="torus"), "knight", id="5x5 torus"),
    pytest.param(Board((4, 6), topology="cylinder"), "knight", id="4x6 cylinder"),
    pytest.param("8x8", "camel", id="8x8 camel (colour-bound)"),
    pytest.param("3x3x3", "knight", id="3x3x3 knight"),
    pytest.param(Board((3, 3), topology="torus"), "wazir", id="3x3 torus wazir"),
]


def _outcome(*args: Any, **kwargs: Any) -> tuple[object, ...]:
    """``knight_distance(*args, **kwargs)``: its fields, or its error's."""
    try:
        d = knight_distance(*args, **kwargs)
    except CpknightError as exc:
        return ("error", type(exc), str(exc), getattr(exc, "method", None))
    return (d.board, d.piece, d.source, d.target, d.distance, d.path, d.method,
            d.exact, d.details, d.as_dict(), d.names(), d.status)  # fmt: skip


def _fields(d: Distance) -> tuple[object, ...]:
    return (d.board, d.piece, d.source, d.target, d.distance, d.path, d.method,
            d.exact, d.details, d.as_dict(), d.names(), d.status)  # fmt: skip


@pytest.mark.parametrize(("spec", "piece"), BOARDS)
def test_every_pair_is_the_bfs_engines_answer(spec: Any, piece: str) -> None:
    board = Board.parse(spec)
    cells = list(board.open_cells())
    for s, t in itertools.product(cells, cells):
        want = _outcome(board, s, t, piece=piece, method="bfs")
        assert _outcome(spec, s, t, piece=piece) == want, (s, t)
        if board.dim == 2:  # by name too, the second time from the kept names
            names = board.cell_name(s), board.cell_name(t)
            for _ in range(2):
                assert _outcome(spec, *names, piece=piece) == want, names
    sizes = quick.quick_cache_sizes()
    assert sizes["trees"] <= len(cells)
    assert sizes["tables"] <= quick.TABLES


def test_the_plane_is_the_closed_form_and_bfs_on_a_big_box() -> None:
    # BFS on a 61x61 board from its centre: the plane's distance for offsets
    # up to 10 (a shortest path strays at most a few cells past its box).
    box = move_graph(Board((61, 61)), KNIGHT)
    levels = bfs_levels(box, box.node((30, 30)))
    for dr, dc in itertools.product(range(-10, 11), repeat=2):
        want = int(levels[box.node((30 + dr, 30 + dc))])
        assert want == knight_formula((dr, dc))
        for s in [(0, 0), (-7, 12), (10**12, -(10**12))]:
            t = (s[0] + dr, s[1] + dc)
            d = knight_distance("plane", s, t)
            assert (d.distance, d.path, d.method, d.details) == (
                want,
                None,
                "formula",
                {"case": "plane"},
            )
            name = f"{t[0]},{t[1]}"
            old = knight_distance("plane", s, name, method="formula")
            assert _fields(d) == _fields(old)


@pytest.mark.parametrize(
    ("board", "source", "target", "error", "words"),
    [
        ("x8", "a1", "b2", InvalidBoardError, "expected a board"),
        ("8x8", "i9", "b2", InvalidCellError, "'i9' is not on board 8x8"),
        ("8x8", "a1", (8, 0), InvalidCellError, "is not on board 8x8"),
        ("8x8", (1.0, 0), "b2", InvalidCellError, "tuple of ints"),
        ("8x8", (True, 0), "b2", InvalidCellError, "tuple of ints"),
        ("8x8", "a1", (0, 1.0), InvalidCellError, "tuple of ints"),
        ("holed8", "a1", "d4", InvalidCellError, "is blocked"),
        ("3x3", "a1", "b2", NoPathError, "b2 cannot be reached from a1"),
        ("plane", (0, 0), (10**16, 0), InvalidCellError, "64-bit"),
        ("plane", (1.0, 0), (1, 2), InvalidCellError, "tuple of ints"),
        ("plane", "zz", (1, 2), InvalidCellError, "zz"),
    ],
)
def test_bad_input_is_refused_as_before_even_once_cells_are_kept(
    board: str, source: object, target: object, error: type, words: str
) -> None:
    # Every cell of 8x8 and the plane's small cells are kept first: a float
    # equals an int, so a kept (1, 0) must not let (1.0, 0) through.
    for r, c in itertools.product(range(8), repeat=2):
        knight_distance("8x8", (r, c), (0, 0))
        knight_distance("plane", (r, c), (0, 0))
    with pytest.raises(error, match=words) as quick_error:
        knight_distance(board, source, target)  # type: ignore[arg-type]
    if board != "x8":
        with pytest.raises(error) as engine_error:
            knight_distance(board, source, target, time_limit=60)  # type: ignore[arg-type]
        assert str(quick_error.value) == str(engine_error.value)


def test_a_bad_piece_is_refused_as_before() -> None:
    with pytest.raises(InvalidPieceError, match="non-zero"):
        knight_distance("8x8", "a1", "b2", piece=(0, 0))
    with pytest.raises(InvalidPieceError):
        knight_distance("8x8", "a1", "b2", piece=(1, 2, 3))


def test_an_unreachable_target_is_proved_by_bfs() -> None:
    with pytest.raises(NoPathError) as caught:
        knight_distance("8x8", "a1", "a2", piece="camel")
    assert caught.value.method == "bfs"


def test_options_and_methods_take_the_engines_path() -> None:
    quick_answer = knight_distance("8x8", "a1", "h8")
    for kwargs in [
        {"time_limit": 30},
        {"method": "bfs"},
        {"progress": lambda _: None},
    ]:
        d = knight_distance("8x8", "a1", "h8", **kwargs)  # type: ignore[arg-type]
        assert (d.distance, d.path, d.method) == (
            quick_answer.distance,
            quick_answer.path,
            "bfs",
        )
    d = knight_distance("8x8", "a1", "h8", method="formula")
    assert (d.distance, d.path, d.details) == (6, None, {"case": "rectangle"})
    ip = knight_distance("plane", "0,0", "3,3", piece="camel")  # auto: the IP
    assert ip.method == "ip"


def test_a_quick_answer_is_a_plain_frozen_value() -> None:
    d = knight_distance("8x8", "a1", "b2")
    e = knight_distance("8x8", "a1", "b2", method="bfs")
    assert d.seconds > 0  # made the tree: timed
    assert knight_distance("8x8", "c3", "b2").seconds == 0.0  # read from it
    for twin in (pickle.loads(pickle.dumps(d)), copy.copy(d), copy.deepcopy(d)):
        assert twin == d
        assert hash(twin) == hash(d)
        assert twin.path == e.path
    assert d != e  # their seconds differ, as two engine answers' do
    assert repr(d) == repr(e)
    assert str(d) == str(e)
    with pytest.raises(AttributeError):
        d.distance = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.anything = 3  # type: ignore[attr-defined]
    assert d.details == {}
    assert d.details is d.details  # made once
    assert int(d) == 4
    assert [0, 1, 2, 3, 4, 5][d] == 4


def test_shortest_path_and_reachable_are_as_before() -> None:
    for spec in ["8x8", "3x4", "holed8"]:
        board = Board.parse(spec)
        graph = move_graph(board, KNIGHT)
        cells = list(board.open_cells())
        for s in cells:
            levels = bfs_levels(graph, graph.node(s))
            want = frozenset(tuple(c) for c in graph.cells[levels >= 0].tolist())
            assert reachable(spec, s) == want
            for t in cells[::3]:
                if t in want:
                    bfs = knight_distance(board, s, t, method="bfs")
                    assert shortest_path(spec, s, t) == bfs.path
                else:
                    with pytest.raises(NoPathError):
                        shortest_path(spec, s, t)
    with pytest.raises(InvalidBoardError, match="bfs"):
        shortest_path("plane", "0,0", "1,2")
    with pytest.raises(InvalidBoardError):
        reachable("plane", "0,0")


def test_the_caches_are_bounded() -> None:
    for n in range(5, 5 + quick.TABLES + 4):
        knight_distance(f"{n}x{n}", "a1", (n - 1, n - 1))
        knight_distance(Board((n, n + 1)), (0, 0), (1, 2))
    sizes = quick.quick_cache_sizes()
    assert sizes["tables"] <= quick.TABLES
    assert sizes["spellings"] <= quick.SPELLINGS
    for x in range(quick.NAMES + 50):  # cell spellings on one table
        knight_distance("plane", "0,0", f"{x},1")
    assert quick.quick_cache_sizes()["names"] <= quick.NAMES
    # Trees: at most TREE_ENTRIES nodes kept in all (200x200: 40,000 a tree).
    cells = [(r, 0) for r in range(199)]
    for t in cells[:40]:
        knight_distance("200x200", (0, 0), t)
    sizes = quick.quick_cache_sizes()
    assert sizes["tree_nodes"] <= quick.TREE_ENTRIES
    assert sizes["trees"] == quick.TREE_ENTRIES // 40_000
    assert knight_distance("300x300", "a1", "b3").method == "bfs"  # no table
    assert quick.quick_table("300x300") is None


def test_a_tree_is_made_under_the_memory_budget() -> None:
    with memory_budget(0.001), pytest.raises(ModelTooBigError, match="move graph"):
        knight_distance("8x8", "a1", "h8")
    with memory_budget(1), pytest.raises(ModelTooBigError, match="5,000 moves"):
        knight_distance("plane", "0,0", "10000,1")  # a path of 1.6 MB
    with memory_budget(0.001):  # a short one: the closed form builds no path
        assert knight_distance("plane", "0,0", "40,1").distance == knight_formula(
            (40, 1)
        )


def test_a_bad_tree_is_our_bug() -> None:
    graph = move_graph(Board.parse("5x5"), KNIGHT)
    levels = bfs_levels(graph, 0)
    hops = np.full(graph.n_nodes, -1, dtype=np.int32)  # no hop anywhere
    with pytest.raises(EngineError, match="hops where it should not"):
        quick.certify_tree(graph, 0, levels, hops)
    # A hop one level down that is not a move: from a cell two moves from a1
    # to a cell one move from a1 it is not adjacent to.
    hops = next_hops(graph, levels)
    one = np.flatnonzero(levels == 1)
    for u in np.flatnonzero(levels == 2).tolist():
        far = [v for v in one.tolist() if v not in graph.neighbors(u).tolist()]
        if far:
            hops[u] = far[0]
            break
    with pytest.raises(EngineError, match="a hop is not an arc"):
        quick.certify_tree(graph, 0, levels, hops)
    # A graph with an arc that is no knight move: refused on the coordinates.
    indices = graph.indices.copy()
    indices[0] = graph.node((4, 4))
    bad = dataclasses.replace(graph, indices=indices)
    with pytest.raises(EngineError, match=r"an arc is not a knight \(1,2\) move"):
        quick.certify_moves(bad)


def test_threads_get_the_same_answers() -> None:
    board = Board.parse("7x9")
    cells = list(board.open_cells())
    want = {
        (s, t): knight_distance(board, s, t, method="bfs").path
        for s in cells[::4]
        for t in cells
    }
    quick.clear_quick_tables()
    got: dict[tuple[object, object], object] = {}

    def ask(offset: int) -> None:
        for s in cells[offset::4]:
            for t in cells:
                if (s, t) in want:
                    got[s, t] = knight_distance("7x9", s, t).path

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == want


def test_a_leaper_given_as_an_object_is_kept_by_identity() -> None:
    camel = Leaper((1, 3))
    a = knight_distance("8x8", "a1", "b4", piece=camel)
    b = knight_distance("8x8", "a1", "b4", piece=Leaper((3, 1)))
    assert (a.distance, a.path) == (b.distance, b.path) == (1, ((0, 0), (3, 1)))


def test_an_answer_kept_does_not_keep_its_tree() -> None:
    d = knight_distance("8x8", "a1", "h8")
    table = quick.quick_table("8x8")
    assert isinstance(table, quick.BoardTable)
    tree = weakref.ref(table.trees[table.read("h8")[0]])
    assert tree() is not None
    del table
    quick.clear_quick_tables()
    gc.collect()
    assert tree() is None
    # The path is found again by the bfs method's search: the same one.
    assert d.path == knight_distance("8x8", "a1", "h8", method="bfs").path
    assert d.details == {}
