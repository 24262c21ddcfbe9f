"""Boards: parsing, named boards (recomputed from MISSION.md), cells, ASCII files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpknight import Board, InvalidBoardError, InvalidCellError
from cpknight.board import MAX_CELLS, Topology
from cpknight.named_boards import NAMED_BOARDS
from tests.conftest import all_cells

Cell = tuple[int, ...]


def box(rows: range, cols: range) -> set[Cell]:
    return {(r, c) for r in rows for c in cols}


# MISSION.md's definitions, written out again with sets (rows, cols; row 0 = rank 1).
HEART9_BLOCKED: set[Cell] = {
    (y, x)
    for y, xs in {
        8: (0, 1, 3, 4, 5, 7, 8),
        7: (0, 4, 8),
        3: (0, 8),
        2: (0, 1, 7, 8),
        1: (0, 1, 2, 6, 7, 8),
        0: (0, 1, 2, 3, 5, 6, 7, 8),
    }.items()
    for x in xs
}
NAMED_BLOCKED: dict[str, tuple[tuple[int, ...], set[Cell]]] = {
    "classic8": ((8, 8), set()),
    "holed8": ((8, 8), box(range(2, 6), range(2, 6))),
    "heart9": ((9, 9), HEART9_BLOCKED),
    "ring10": ((10, 10), box(range(3, 7), range(3, 7))),
    "cross5": ((5, 5), {(2, 2)}),
    "ring9": (
        (9, 9),
        (box(range(2, 7), range(2, 7)) - box(range(3, 6), range(3, 6))) | {(4, 4)},
    ),
    "blocks12": (
        (12, 12),
        box(range(3, 5), range(3, 5))
        | box(range(5, 7), range(5, 7))
        | box(range(7, 9), range(7, 9))
        | box(range(10, 12), range(0, 2))
        | box(range(0, 2), range(10, 12)),
    ),
    "frame9": ((9, 9), box(range(2, 6), range(2, 6)) - box(range(3, 5), range(3, 5))),
    "cube4": ((4, 4, 4), set()),
}


@pytest.mark.parametrize(
    ("name", "n_open"),
    [
        ("classic8", 64),
        ("holed8", 48),  # 64 - 16
        ("heart9", 51),  # 81 - (7 + 3 + 2 + 4 + 6 + 8)
        ("ring10", 84),  # 100 - 16
        ("cross5", 24),  # 25 - 1
        ("ring9", 64),  # 81 - 25 + 9 - 1
        ("blocks12", 124),  # 144 - 5 * 4
        ("frame9", 69),  # 81 - 16 + 4
        ("cube4", 64),  # 4^3
    ],
)
def test_named_boards(name: str, n_open: int) -> None:
    shape, blocked = NAMED_BLOCKED[name]
    board = Board.parse(name)
    assert board.shape == shape
    assert board.blocked == blocked
    assert board.n_open == n_open
    assert board.name == name == board.label
    assert board.topology == "bounded"


def test_every_named_board_is_tested() -> None:
    assert set(NAMED_BOARDS) == set(NAMED_BLOCKED)


def test_heart9_start_is_its_open_tip() -> None:
    board = Board.parse("heart9")
    assert board.start_hint == (0, 4)
    assert board.parse_cell("e1") == (0, 4)  # open: no error
    assert board.cell_name((0, 4)) == "e1"
    # the tip is the only open cell of the first rank
    assert [c for c in board.open_cells() if c[0] == 0] == [(0, 4)]


@pytest.mark.parametrize(
    ("spec", "shape"),
    [
        ("8x8", (8, 8)),
        ("5x7", (5, 7)),
        ("4x4x4", (4, 4, 4)),
        ("8X8", (8, 8)),
        (" 3 x 4 ", (3, 4)),
        ("1x1", (1, 1)),
        ("2x3x4x5", (2, 3, 4, 5)),
        ("8*8", (8, 8)),
        # the multiplication sign reads as x, on purpose (README, board syntax)
        ("8×8", (8, 8)),
        ("4×4×4", (4, 4, 4)),
        (" 5 × 7 ", (5, 7)),
        ("4x4×4", (4, 4, 4)),
    ],
)
def test_parse_sizes(spec: str, shape: tuple[int, ...]) -> None:
    board = Board.parse(spec)
    assert board.shape == shape
    assert board.n_open == board.size
    assert board.dim == len(shape)


def test_board_values() -> None:
    assert Board.parse("8x8") == Board((8, 8))
    assert hash(Board.parse("8x8")) == hash(Board((8, 8)))
    assert Board((8, 8)) != Board((8, 8), topology="torus")
    assert Board((3, 3), [(1, 1)]).label == "3x3 (1 blocked)"
    assert Board.parse("6x6", topology="torus").label == "6x6 torus"
    assert repr(Board.parse("holed8")) == "Board('8x8', blocked=16, name='holed8')"


@pytest.mark.parametrize(
    ("topology", "wrap"),
    [
        ("bounded", (False, False, False)),
        ("torus", (True, True, True)),
        ("cylinder", (False, False, True)),
    ],
)
def test_topologies(topology: Topology, wrap: tuple[bool, ...]) -> None:
    board = Board.parse("3x4x5", topology=topology)
    assert board.wrap == wrap
    assert board.topology == topology
    assert Board.parse("cross5", topology=topology).blocked == {(2, 2)}


def test_plane() -> None:
    plane = Board.parse("plane")
    assert plane.unbounded
    assert plane.dim == 2
    assert plane.label == "plane"
    assert Board.parse("plane3").dim == 3
    assert plane.contains((10**9, -(10**9)))
    with pytest.raises(InvalidBoardError) as info:
        Board.parse("plane", topology="torus")
    assert str(info.value) == "the unbounded plane cannot be a torus: 'plane'"
    with pytest.raises(InvalidBoardError) as info:
        plane.require_finite("a tour")
    assert str(info.value) == "board 'plane' is unbounded; a tour needs a finite board"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "x8",
            "expected a board like '8x8', '4x4x4', 'plane', a file of '.' and '#', "
            "or a name in classic8, holed8, heart9, ring10, cross5, ring9, "
            "blocks12, frame9, cube4: 'x8'",
        ),
        ("0x5", "board sides must be at least 1: '0x5'"),
        ("3x0x2", "board sides must be at least 1: '3x0x2'"),
        (
            "20000x20000",
            "board 20000x20000 has 400000000 cells; cpknight builds boards of at "
            f"most {MAX_CELLS} cells",
        ),
        (
            "no-such-board.txt",
            "cannot read board file 'no-such-board.txt': No such file or directory",
        ),
    ],
)
def test_bad_board_specs(spec: str, message: str) -> None:
    with pytest.raises(InvalidBoardError) as info:
        Board.parse(spec)
    assert str(info.value) == message


def test_bad_board_values() -> None:
    with pytest.raises(InvalidBoardError, match="blocked cell 3,0 is not on board 3x3"):
        Board((3, 3), [(3, 0)])
    with pytest.raises(InvalidBoardError, match="wrap has 1 axes; board 3x3 has 2"):
        Board((3, 3), wrap=(True,))
    with pytest.raises(InvalidBoardError, match="expected a topology"):
        Board.parse("3x3", topology="sphere")  # type: ignore[arg-type]
    with pytest.raises(InvalidBoardError, match="either bounded on every axis"):
        Board((0, 3))
    with pytest.raises(InvalidBoardError, match="at least one axis"):
        Board(())


# --------------------------------------------------------------------- cells


def test_cell_names_round_trip_on_8x8() -> None:
    board = Board.parse("8x8")
    files = "abcdefgh"
    for r, c in all_cells((8, 8)):
        name = f"{files[c]}{r + 1}"
        assert board.cell_name((r, c)) == name
        assert board.parse_cell(name) == (r, c)
        assert board.parse_cell(f"{r},{c}") == (r, c)
    assert board.parse_cell("b3") == (2, 1)  # MISSION.md: b3 = (row 2, col 1)
    assert board.parse_cell(" B3 ") == (2, 1)
    assert board.parse_cell("(2, 1)") == (2, 1)
    assert board.parse_cell((2, 1)) == (2, 1)


def test_cell_names_beyond_26_files() -> None:
    assert Board.parse("26x26").cell_name((25, 25)) == "z26"
    board = Board.parse("30x30")
    assert board.cell_name((0, 27)) == "0,27"
    assert board.parse_cell("0,27") == (0, 27)
    assert Board.parse("4x4x4").cell_name((1, 2, 3)) == "1,2,3"


@pytest.mark.parametrize(
    ("spec", "cell", "error", "message"),
    [
        ("8x8", "i9", InvalidCellError, "cell 'i9' is not on board 8x8"),
        ("8x8", "a0", InvalidCellError, "cell 'a0' is not on board 8x8"),
        ("8x8", "8,0", InvalidCellError, "cell '8,0' is not on board 8x8"),
        ("8x8", "-1,0", InvalidCellError, "cell '-1,0' is not on board 8x8"),
        ("holed8", "c3", InvalidCellError, "cell 'c3' is blocked on board holed8"),
        (
            "8x8",
            "1,2,3",
            InvalidCellError,
            "cell '1,2,3' has 3 coordinates; board 8x8 has 2",
        ),
        (
            "4x4x4",
            "1,2",
            InvalidCellError,
            "cell '1,2' has 2 coordinates; board 4x4x4 has 3",
        ),
        (
            "4x4x4",
            "a1",
            InvalidCellError,
            "cell 'a1' is algebraic, which names cells on 2D boards only; board "
            "4x4x4 has 3 axes: give coordinates like '0,0,0'",
        ),
        ("8x8", "a 1", InvalidCellError, "expected a cell like 'a1' or '0,0': 'a 1'"),
        ("4x4x4", "zz", InvalidCellError, "expected a cell like '0,0,0': 'zz'"),
        (
            "8x8",
            (0, 1.5),
            InvalidCellError,
            "expected a cell as a tuple of ints: (0, 1.5)",
        ),
        (
            "8x8",
            (True, 0),
            InvalidCellError,
            "expected a cell as a tuple of ints: (True, 0)",
        ),
    ],
)
def test_bad_cells(
    spec: str, cell: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        Board.parse(spec).parse_cell(cell)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_blocked_cell_allowed_when_asked() -> None:
    assert Board.parse("holed8").parse_cell("c3", allow_blocked=True) == (2, 2)


def test_open_cells_row_major() -> None:
    board = Board((2, 3), [(0, 1)])
    assert list(board.open_cells()) == [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert board.is_open((0, 0))
    assert not board.is_open((0, 1))
    assert not board.is_open((2, 0))
    assert not board.is_open((0, 0, 0))


# ----------------------------------------------------------------- ASCII art


def test_from_ascii_2d() -> None:
    board = Board.from_ascii(
        """
        ; a comment
        # . . .
        . . # .
        . . . .
        """
    )
    # top rank first: the first line drawn is row 2
    assert board.shape == (3, 4)
    assert board.blocked == {(2, 0), (1, 2)}
    assert Board.from_ascii(str(board)) == board


def test_from_ascii_3d() -> None:
    board = Board.from_ascii("#.\n..\n\n..\n.#\n\n..\n..\n")
    assert board.shape == (3, 2, 2)
    assert board.blocked == {(0, 1, 0), (1, 0, 1)}
    assert Board.from_ascii(str(board)) == board
    assert str(Board.parse("2x2x2")) == ". .\n. .\n\n. .\n. ."


def test_read_board_file(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text(".#.\n...\n", encoding="utf-8")
    board = Board.parse(str(path), topology="torus")
    assert board.shape == (2, 3)
    assert board.blocked == {(1, 1)}
    assert board.topology == "torus"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("..x\n...\n", "b.txt line 1: expected '.' (open) or '#' (blocked), found 'x'"),
        ("...\n..\n", "b.txt: every row needs 3 cells; one has 2"),
        ("..\n..\n\n..\n", "b.txt: every layer needs 2 rows; one has 1"),
        ("", "b.txt: no board drawn"),
        ("; only a comment\n\n", "b.txt: no board drawn"),
    ],
)
def test_malformed_ascii_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "b.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidBoardError) as info:
        Board.read(path)
    assert str(info.value) == message.replace("b.txt", str(path))


def test_unreadable_board_files(tmp_path: Path) -> None:
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InvalidBoardError) as info:
        Board.parse(str(binary))
    assert str(info.value) == f"cannot read board file '{binary}': UnicodeDecodeError"
    with pytest.raises(InvalidBoardError) as info:
        Board.parse(str(tmp_path))
    assert str(info.value) == f"cannot read board file '{tmp_path}': Is a directory"


def test_parse_keeps_the_topology_of_a_board_unless_told() -> None:
    torus = Board.parse("6x6", topology="torus")
    assert Board.parse(torus) is torus
    assert Board.parse(torus, topology="bounded").topology == "bounded"
    assert Board.parse("6x6").topology == "bounded"


def test_specs_are_parsed_once_and_files_read_afresh(tmp_path: Path) -> None:
    # Boards are frozen, so a size or a name parses to the one shared value ...
    assert Board.parse("8x8") is Board.parse(" 8x8")
    assert Board.parse("holed8", topology="torus") is Board.parse(
        "holed8", topology="torus"
    )
    assert Board.parse("8x8", topology="torus") != Board.parse("8x8")
    # ... but a file is read each time: it may have changed.
    path = tmp_path / "b.txt"
    path.write_text("..\n..\n")
    first = Board.parse(str(path))
    path.write_text(".#\n..\n")
    assert first.blocked == frozenset()
    assert Board.parse(str(path)).blocked == {(1, 1)}


@pytest.mark.parametrize(
    "cell",
    [(True, 0), (0, 8), (-1, 0), (2, 2), (0, 0, 0), (1.0, 0)],
    ids=["bool", "off-right", "negative", "blocked", "3D", "float"],
)
def test_cell_tuples_checked_as_strictly_as_names(cell: tuple[object, ...]) -> None:
    board = Board((8, 8), [(2, 2)])
    with pytest.raises(InvalidCellError):
        board.parse_cell(cell)  # type: ignore[arg-type]
    assert board.parse_cell((2, 2), allow_blocked=True) == (2, 2)


@pytest.mark.parametrize(
    ("spec", "topology", "count"),
    [
        ("8x8", "bounded", 7),  # the square's 8, less the identity
        ("8x8", "cylinder", 3),  # no diagonal: it would swap the wrapped axis
        ("5x7", "torus", 3),
        ("holed8", "bounded", 7),
        ("heart9", "bounded", 1),  # the left-right mirror only
        ("3x3x3", "bounded", 47),
        ("2x3x3", "bounded", 15),  # the last two axes swap, each reflects
    ],
)
def test_symmetries_map_the_open_cells_onto_themselves(
    spec: str, topology: Topology, count: int
) -> None:
    board = Board.parse(spec, topology=topology)
    found = board.symmetries()
    assert len(found) == count == len(set(found))
    cells = set(board.open_cells())
    for axes, flips in found:
        assert [board.shape[b] for b in axes] == list(board.shape)
        assert [board.wrap[b] for b in axes] == list(board.wrap)
        image = {
            tuple(
                board.shape[a] - 1 - c[b] if flip else c[b]
                for a, (b, flip) in enumerate(zip(axes, flips, strict=True))
            )
            for c in cells
        }
        assert image == cells


def test_the_multiplication_sign_reads_as_x_everywhere(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # accepted on purpose, and said back in the usual spelling: the answer
    # names the board 8x8, so nothing is taken silently for something else
    from cpknight.cli import main
    from cpknight.study.suite import read_suite_text

    assert Board.parse("8×8") == Board.parse("8x8")
    assert Board.parse("4×4×4").label == "4x4x4"
    assert main(["map", "3×4", "a1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "3x4"
    suite = read_suite_text("6×6 --open\n4×4×4\n")  # a suite file's lines
    assert [i.board.shape for i in suite] == [(6, 6), (4, 4, 4)]
    for bad in ("8×", "×8", "8××8", "8 ×"):
        with pytest.raises(InvalidBoardError, match="expected a board like '8x8'"):
            Board.parse(bad)
