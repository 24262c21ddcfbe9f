"""The distance map without the move graph, and its JSON without a Python int per cell.

``distance_map`` searches the padded board (:func:`board_levels`); the CLI's
``map --json`` writes the text from the array (:func:`distance_map_json`).
Both are held to the reference: BFS on the move graph, and ``json.dumps`` of
``DistanceMap.as_dict()`` under the CLI's schema key, on boards with blocked
and unreachable cells, tori, cylinders, 3D boards and long leaps.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from cpknight import Board, distance_map
from cpknight.cli import main
from cpknight.cli.common import JSON_SCHEMA
from cpknight.distances import maps
from cpknight.distances.maps import distance_map_json, nested_json
from cpknight.graph import bfs_levels
from cpknight.graph.traversal import board_levels
from cpknight.pieces import Leaper, as_piece, move_graph
from cpknight.results import DistanceMap

CASES = [
    pytest.param("8x8", "knight", "a1", id="8x8"),
    pytest.param("3x4", "knight", "b2", id="3x4"),
    pytest.param("3x3", "knight", "a1", id="3x3 (b2 unreachable)"),
    pytest.param("holed8", "knight", "a1", id="holed8 (blocked)"),
    pytest.param("ring10", "knight", "a1", id="ring10"),
    pytest.param("1x12", "knight", "a1", id="1x12 (no move)"),
    pytest.param("8x8", "camel", "a1", id="8x8 camel (half unreachable)"),
    pytest.param("9x7", "giraffe", "d4", id="9x7 giraffe (padding 4)"),
    pytest.param("8x8", (1, 30), "a1", id="8x8 (1,30): padding past twice, graph"),
    pytest.param(Board((5, 5), topology="torus"), "knight", "a1", id="5x5 torus"),
    pytest.param(Board((3, 3), topology="torus"), "knight", "a1", id="3x3 torus"),
    pytest.param(Board((4, 7), topology="cylinder"), "knight", "a1", id="cylinder"),
    pytest.param("4x4x4", "knight", "0,0,0", id="4x4x4"),
    pytest.param("cube4", "1,2,3", "0,0,0", id="cube4 (1,2,3)"),
    pytest.param("3x2x5", "ferz", "1,1,2", id="3x2x5 ferz"),
    pytest.param("2x3x2x3", "knight", "0,0,0,0", id="4D"),
]


def _reference(board: Board, piece: Leaper, source: tuple[int, ...]) -> Any:
    """The map by BFS on the move graph: levels, -1 unreachable, -2 blocked."""
    graph = move_graph(board, piece)
    levels = bfs_levels(graph, graph.node(source))
    array = graph.node_of.copy()
    array[array >= 0] = levels[array[array >= 0]]
    array[graph.node_of < 0] = -2
    return array


@pytest.mark.parametrize(("spec", "piece", "source"), CASES)
def test_the_map_is_bfs_on_the_move_graph(spec: Any, piece: Any, source: str) -> None:
    board = Board.parse(spec)
    leaper = as_piece(piece)
    cell = board.parse_cell(source)
    want = _reference(board, leaper, cell)
    got = board_levels(board, leaper, cell)
    assert got.dtype == np.int32
    assert got.shape == board.shape
    np.testing.assert_array_equal(got, want)
    dmap = distance_map(spec, source, piece=piece)
    np.testing.assert_array_equal(dmap.array, want)
    assert not dmap.array.flags.writeable


@pytest.mark.parametrize(("spec", "piece", "source"), CASES)
def test_the_json_is_json_dumps_of_as_dict(spec: Any, piece: Any, source: str) -> None:
    dmap = distance_map(spec, source, piece=piece)
    want = json.dumps({"schema": JSON_SCHEMA, **dmap.as_dict()})
    assert "".join(distance_map_json(dmap, schema=JSON_SCHEMA)) == want
    assert "".join(distance_map_json(dmap)) == json.dumps(dmap.as_dict())


@pytest.mark.parametrize(
    "argv",
    [
        ["map", "holed8", "a1", "--json"],
        ["map", "3x3", "a1", "--json"],
        ["map", "5x5", "a1", "--json", "--torus"],
        ["map", "4x6", "b1", "--json", "--cylinder"],
        ["map", "3x3x3", "0,0,0", "--json", "--piece", "1,1,2"],
        ["map", "40x30", "c7", "--json", "--piece", "camel"],
    ],
    ids=lambda argv: " ".join(argv[1:3]),
)
def test_the_map_commands_json_is_unchanged(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    json.loads(out)
    topology = "torus" if "--torus" in argv else "bounded"
    topology = "cylinder" if "--cylinder" in argv else topology
    board = Board.parse(argv[1], topology=topology)  # type: ignore[arg-type]
    piece = argv[argv.index("--piece") + 1] if "--piece" in argv else "knight"
    dmap = distance_map(board, argv[2], piece=piece)
    assert out == json.dumps({"schema": JSON_SCHEMA, **dmap.as_dict()}) + "\n"


def test_big_values_are_written_digit_by_digit() -> None:
    # A 1x70000 line walked by the wazir: distances past the token table.
    dmap = distance_map("1x70000", "a1", piece="wazir")
    assert dmap.max_distance >= maps.TABLE_VALUES
    text = "".join(distance_map_json(dmap))
    assert text == json.dumps(dmap.as_dict())


@pytest.mark.parametrize(
    "shape",
    [(1,), (7,), (1, 1), (3, 1), (1, 5), (5, 7), (2, 3, 4), (3, 1, 2), (4, 4, 4, 2)],
)
@pytest.mark.parametrize("top", [-1, 0, 9, 10, 99, 100, 12_345, 123_456])
def test_any_array_is_written_as_json_dumps(shape: tuple[int, ...], top: int) -> None:
    rng = np.random.default_rng(sum(shape) * 1000 + top)
    array = rng.integers(-2, top + 1, size=shape).astype(np.int32)
    if top >= 0:
        array.flat[-1] = top  # the largest value, where the last cell is
    want = json.dumps(
        DistanceMap(Board((1,)), as_piece("knight"), (0,), array).to_lists()
    )
    assert "".join(nested_json(array)) == want


def test_blocks_join_at_any_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    array = np.arange(-2, 58, dtype=np.int32).reshape(3, 4, 5)
    want = "".join(nested_json(array))
    for cells in (1, 2, 3, 7, 20, 59, 60, 61):
        monkeypatch.setattr(maps, "BLOCK_CELLS", cells)
        assert "".join(nested_json(array)) == want
