"""The smaller edges of input: each read as documented or refused in one line.

Every case here escaped once (an empty spec read as the current directory, a
printed board refused as a board file, fullwidth digits read silently, a binary
tour file called "not a tour", a string iterated character by character).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cpknight
from cpknight import Board, check_tour
from cpknight.cli import EXIT_BAD_INPUT, EXIT_OK
from cpknight.errors import InvalidBoardError, InvalidCellError, InvalidInputError
from cpknight.errors import InvalidPieceError as PieceError
from cpknight.pieces import as_piece
from tests.test_bad_input import assert_one_line, run

# ------------------------------------------------------------------- boards


def test_an_empty_board_spec_is_refused_not_read_as_a_folder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(InvalidBoardError, match="expected a board"):
        Board.parse("")
    for argv in (["tour", ""], ["boards", ""], ["tour", "   "]):
        code, out, err = run(capsys, *argv)
        assert code == EXIT_BAD_INPUT, argv
        assert out == ""
        assert_one_line(err, "expected a board")
        assert "cannot read board file" not in err


@pytest.mark.parametrize("name", ["cross5", "heart9", "ring10", "cube4"])
def test_a_board_as_cpknight_prints_it_reads_back_as_a_board_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    code, out, _ = run(capsys, "boards", name)
    assert code == EXIT_OK
    drawing = out.split("\n", 1)[1]  # the title line is not part of the drawing
    path = tmp_path / "printed.txt"
    path.write_text(drawing, encoding="utf-8")
    read, named = Board.read(path), Board.parse(name)
    assert (read.shape, read.blocked) == (named.shape, named.blocked)


def test_rank_labels_past_nine_and_file_letters_are_skipped() -> None:
    text = "10 | . #\n 9 | . .\n" + " 8 | . .\n" * 8 + "     a b\n"
    board = Board.from_ascii(text)
    assert board.shape == (10, 2)
    assert board.blocked == frozenset({(9, 1)})


def test_a_utf8_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf. #\n. .\n")
    assert Board.read(path) == Board((2, 2), [(1, 1)])


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param("８x８", id="fullwidth-digits"),
        pytest.param("٨x٨", id="arabic-indic-digits"),
        pytest.param("8x８", id="one-fullwidth"),
    ],
)
def test_sizes_take_ascii_digits_only(spec: str) -> None:
    with pytest.raises(InvalidBoardError, match="expected a board"):
        Board.parse(spec)


@pytest.mark.parametrize("spec", ["8×8", "8*8", "8 x 8", "8X8"])
def test_the_documented_size_separators(spec: str) -> None:
    assert Board.parse(spec).shape == (8, 8)


@pytest.mark.parametrize("spec", ["ａ1", "a１", "０,0", "0,٣"])
def test_cells_take_ascii_digits_and_letters_only(spec: str) -> None:
    with pytest.raises(InvalidCellError):
        Board.parse("8x8").parse_cell(spec)


def test_pieces_take_ascii_digits_only() -> None:
    with pytest.raises(PieceError):
        as_piece("１,2")


# --------------------------------------------------------------- tour files


def test_a_binary_tour_file_is_unreadable_input_not_a_failed_tour(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "tour.txt"
    path.write_bytes(bytes(range(256)) * 4)
    code, out, err = run(capsys, "check", "8x8", str(path))
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert_one_line(err, "binary data")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("a1\nb3\n\xe9\n".encode("latin-1"))
    code, _, err = run(capsys, "check", "8x8", str(latin))
    assert code == EXIT_BAD_INPUT
    assert_one_line(err, "binary data")


# ------------------------------------------------------------------ options


def test_run_files_without_shards_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "results.jsonl"
    code, out, err = run(capsys, "count", "3x4", "--open", "--results", str(path))
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert_one_line(err, "--results", "--shards")
    assert not path.exists()


def test_resume_without_shards_is_the_frontier_checkpoint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("numba")
    where = tmp_path / "states"
    code, out, _ = run(capsys, "count", "3x4", "--open", "--resume", str(where))
    assert code == 0
    assert "16 directed" in out
    assert (where / "first" / "manifest.json").exists()  # met in the middle
    code, out, err = run(
        capsys, "count", "3x4", "--open", "--method", "cpsat", "--resume", str(where)
    )
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert_one_line(err, "--resume", "--shards")


# --------------------------------------------------------------- Python API


def test_one_via_or_move_spec_is_one_spec_not_its_characters() -> None:
    one = cpknight.tour_constraints("8x8", via="d4@3", require="a1-b3")
    many = cpknight.tour_constraints("8x8", via=["d4@3"], require=["a1-b3"])
    assert one == many
    assert one.via == (((3, 3), 3),)


def test_one_food_cell_is_one_cell_not_its_characters() -> None:
    one = cpknight.collect("8x8", "a1", "h8", method="search")
    assert one.moves == cpknight.collect("8x8", "a1", ["h8"], method="search").moves
    # the knight's distance a1 -> h8 on 8x8 is 6 (BFS, computed here)
    assert one.moves == int(cpknight.knight_distance("8x8", "a1", "h8"))


@pytest.mark.parametrize(
    ("call", "words"),
    [
        pytest.param(
            lambda: cpknight.find_tour("6x6", options="fast"),  # type: ignore[arg-type]
            "options must be a SolveOptions",
            id="options-string",
        ),
        pytest.param(
            lambda: cpknight.compare_tours("5x5", closed=False, methods=None),  # type: ignore[arg-type]
            "methods must be",
            id="methods-none",
        ),
        pytest.param(
            lambda: cpknight.compare_tours("5x5", closed=False, methods=3),  # type: ignore[arg-type]
            "methods must be",
            id="methods-int",
        ),
        pytest.param(
            lambda: cpknight.find_tour("5x5", closed=False, method=["cpsat"]),  # type: ignore[arg-type]
            "expected a tour method",
            id="method-list-for-one-engine",
        ),
        pytest.param(
            lambda: cpknight.knight_distance("8x8", "a1", "h8", method=None),  # type: ignore[arg-type]
            "expected a distance method",
            id="method-none",
        ),
        pytest.param(lambda: check_tour("8x8", None), "cells must be", id="cells-none"),  # type: ignore[arg-type]
        pytest.param(
            lambda: check_tour("8x8", "a1 b3"), "cells must be", id="cells-string"
        ),
        pytest.param(
            lambda: cpknight.tour_constraints("8x8", via=3),  # type: ignore[arg-type]
            "via must be",
            id="via-int",
        ),
        pytest.param(
            lambda: cpknight.tour_constraints("8x8", given=[("a1", "x")]),  # type: ignore[list-item]
            "given must be",
            id="given-bad-pair",
        ),
        pytest.param(
            lambda: cpknight.tour_constraints("8x8", via="d4@²"),
            "expected a via",
            id="via-superscript-step",
        ),
    ],
)
def test_bad_api_arguments_raise_one_clear_error(call: Any, words: str) -> None:
    with pytest.raises(InvalidInputError, match=words):
        call()


def test_knight_distance_on_the_plane_picks_a_method_as_the_cli_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    d = cpknight.knight_distance("plane", (0, 0), (5, 5))
    code, out, _ = run(capsys, "distance", "plane", "0,0", "5,5", "--json")
    assert code == EXIT_OK
    assert f'"distance": {d.distance}' in out
    # on a finite board auto is the reference, BFS: the same as method="bfs"
    assert cpknight.knight_distance("8x8", "a1", "h8").distance == (
        cpknight.knight_distance("8x8", "a1", "h8", method="bfs").distance
    )
