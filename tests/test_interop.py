"""Values handed to pandas, networkx and SciPy, and boards made from numpy masks.

Each table's columns are checked against the value computed another way
(the value's own fields, a separate count per prefix board, networkx's own
BFS), and the move graph's networkx form against moves applied by hand.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from cpknight import (
    Board,
    InvalidBoardError,
    compare_distances,
    count_tours,
    distance_map,
    move_graph,
    sweep,
    sweep_pairs,
)
from cpknight.results import DistanceMap
from cpknight.runtime.optional import MissingDependencyError, require
from cpknight.study import read_suite_text, run_study


def test_sweep_frame_is_its_cells() -> None:
    s = sweep("3x4", closed=False, method="prune")
    df = s.to_dataframe()
    assert list(df["cell"]) == [s.board.cell_name(c.cell) for c in s.cells]
    assert list(df["coords"]) == [c.cell for c in s.cells]
    assert list(df["status"]) == [str(c.status) for c in s.cells]
    assert list(df["attempts"]) == [c.effort.attempts for c in s.cells]
    # a tour from a corner of 3x4 exists, none from the middle files
    assert df.set_index("cell").loc["a1", "status"] == "found"
    assert df.set_index("cell").loc["b1", "status"] == "infeasible"


def test_comparison_frame_is_a_row_per_engine() -> None:
    c = compare_distances("8x8", "a1", "b2", methods="bfs,ip,formula")
    df = c.to_dataframe()
    assert list(df["method"]) == ["bfs", "ip", "formula"]
    assert list(df["distance"]) == [o.value.distance for o in c.rows]
    assert list(df["distance"]) == [4, 4, 4]  # a1 -> b2 on 8x8: the corner case
    assert list(df["status"]) == [str(o.status) for o in c.rows]
    assert list(df["seconds"]) == [round(o.seconds, 6) for o in c.rows]


def test_study_frame_is_the_csv() -> None:
    study = run_study(read_suite_text("4x4\n5x5 --open"), methods="prune,warnsdorff")
    df = study.to_dataframe()
    flat = study.flat()
    assert list(df["instance"]) == [r["instance"] for r in flat]
    assert list(df["engine"]) == [r["engine"] for r in flat]
    assert list(df["status"]) == [r["status"] for r in flat]
    solved = df[df["status"] == "found"].groupby("engine").size().to_dict()
    assert solved == {e: v["solved"] for e, v in study.summary().items() if v["solved"]}


def test_pairs_frame_is_its_pairs() -> None:
    pairs = sweep_pairs("3x4", method="prune")
    df = pairs.to_dataframe()
    assert len(df) == len(pairs.pairs) == 12 * 11 // 2
    assert (df["status"] == "found").sum() == pairs.counts()["found"]
    first = pairs.pairs[0]
    assert (df["start"].iloc[0], df["end"].iloc[0]) == (
        pairs.board.cell_name(first.start),
        pairs.board.cell_name(first.end),
    )


def test_count_frame_prefixes_are_counts_of_the_shorter_boards() -> None:
    # The frontier's prefixes are the boards of its first rows: each counted
    # again here as a board of its own.
    n = count_tours("3x6", closed=False, method="frontier", prefixes=True)
    df = n.to_dataframe()
    assert n.frontier is not None
    axis = n.frontier.axes[0]
    for rows, directed, undirected in df.itertuples(index=False):
        shape = [3, 6]
        shape[axis] = rows
        alone = count_tours(tuple(shape), closed=False, method="frontier")
        assert (directed, undirected) == (alone.directed, alone.undirected)
    assert df["undirected"].iloc[-1] == n.undirected
    live = n.frontier.to_dataframe()
    assert list(live["live"]) == list(n.frontier.live)
    assert list(live["step"]) == list(range(1, n.frontier.done + 1))
    whole = count_tours("3x4", closed=False).to_dataframe()
    assert whole["rows"].isna().all()
    assert list(whole["undirected"]) == [8]


def test_networkx_graph_is_the_moves_applied_by_hand() -> None:
    board = Board.parse("holed8")
    graph = move_graph(board, "knight").to_networkx()
    cells = set(board.open_cells())
    edges = {
        frozenset({(r, c), (r + dr, c + dc)})
        for (r, c) in cells
        for a, b in ((1, 2), (2, 1))
        for dr, dc in itertools.product((a, -a), (b, -b))
        if (r + dr, c + dc) in cells
    }
    assert set(graph.nodes) == cells
    assert {frozenset(e) for e in graph.edges} == edges
    assert graph.nodes[(0, 0)]["name"] == "a1"


def test_scipy_matrix_is_the_networkx_adjacency() -> None:
    g = move_graph("5x6", "camel")
    matrix = g.to_scipy_sparse()
    nodes = [g.cell(i) for i in range(g.n_nodes)]
    expected = nx.to_scipy_sparse_array(g.to_networkx(), nodelist=nodes)
    assert (matrix != expected).nnz == 0
    assert matrix.sum() == g.n_arcs


def test_distance_map_frame_is_networkx_bfs() -> None:
    board = Board.parse("ring9")
    dmap = distance_map(board, "a1")
    lengths = nx.single_source_shortest_path_length(
        move_graph(board).to_networkx(), (0, 0)
    )
    df = dmap.to_dataframe()
    for cell, distance in zip(df["coords"], df["distance"], strict=True):
        if cell in lengths:
            assert distance == lengths[cell]
        else:
            assert distance is pd_na()


def pd_na() -> object:
    import pandas as pd

    return pd.NA


def test_distance_map_marks_blocked_apart_from_unreachable() -> None:
    dmap = distance_map(Board((3, 3), [(2, 2)]), "a1")
    assert dmap.array[1, 1] == DistanceMap.UNREACHABLE == -1  # the centre
    assert dmap.array[2, 2] == DistanceMap.BLOCKED == -2
    assert dmap["b2"] is None
    assert dmap[(2, 2)] is None
    assert dmap.unreachable() == [(1, 1)]
    assert dmap.n_reachable == 7


@pytest.mark.parametrize("shape", [(5, 7), (3, 4, 5), (2, 2, 2, 3), (9,)])
def test_from_mask_round_trips(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(shape))
    mask = rng.random(shape) < 0.7
    board = Board.from_mask(mask)
    assert board.shape == shape
    assert (board.open_mask == mask).all()
    assert Board.from_mask(board.open_mask) == board
    assert Board.from_mask(mask, topology="torus").topology == "torus"
    named = Board.parse("heart9")
    assert Board.from_mask(named.open_mask).blocked == named.blocked


@pytest.mark.parametrize("bad", [np.ones((3, 3), dtype=int), np.bool_(True), [[1, 0]]])
def test_from_mask_refuses_what_is_not_a_boolean_array(bad: object) -> None:
    with pytest.raises(InvalidBoardError, match="expected booleans"):
        Board.from_mask(bad)  # type: ignore[arg-type]


def test_a_missing_library_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def without_pandas(name: str, package: str | None = None) -> object:
        if name.split(".")[0] == "pandas":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_pandas)
    with pytest.raises(
        ImportError, match=r"needs pandas: pip install 'cpknight\[interop\]'"
    ):
        sweep("3x4", closed=False, method="prune").to_dataframe()
    with pytest.raises(MissingDependencyError):
        require("pandas", "a test")


def test_numba_threads_are_set_for_the_block_and_put_back() -> None:
    numba = pytest.importorskip("numba")
    from cpknight.runtime.optional import numba_threads

    before = numba.get_num_threads()
    with numba_threads(1) as threads:
        assert threads == numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with numba_threads(10_000) as threads:  # at most numba's own
        assert threads == numba.config.NUMBA_NUM_THREADS
    with numba_threads(0) as threads:  # 0: as they are
        assert threads == before
    assert numba.get_num_threads() == before
