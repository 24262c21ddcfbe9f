"""Fuzzing every reader of user input: random bytes and near-valid text.

Each reader either reads the input or refuses it with cpknight's own error
(one line on the command line, exit 2); no other exception, no traceback. The
near-valid inputs are made of the readers' own vocabulary (digits, ``x``, cell
letters, ``.``, ``#``, ``|``, ``@``, commas, JSON punctuation), where parsers
break most often.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpknight import Board
from cpknight.cli import EXIT_BAD_INPUT, main
from cpknight.constraints import read_given, tour_constraints
from cpknight.errors import CpknightError
from cpknight.pieces import as_piece
from cpknight.runner import read_results
from cpknight.study.suite import read_suite_text

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def near(vocabulary: list[str], max_size: int = 30) -> st.SearchStrategy[str]:
    """Text made of a reader's own tokens, in any order and number."""
    return st.lists(st.sampled_from(vocabulary), max_size=max_size).map("".join)


def any_text(vocabulary: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        near(vocabulary),
        st.text(max_size=60),
        st.binary(max_size=60).map(lambda b: b.decode("utf-8", "replace")),
    )


BOARD_WORDS = [".", "#", " ", "\n", "\n\n", "|", "1", "8", "x", "a", "b", ";", "\ufeff"]
SIZE_WORDS = ["1", "2", "8", "0", "x", "×", "*", " ", "-", "plane", "９", "e", "1e9"]
CELL_WORDS = ["a", "h", "z", "1", "8", "0", "-", ",", " ", "(", ")", "[", "]", "٣"]
PIECE_WORDS = ["1", "2", "0", "-", ",", ":", "/", " ", "knight", "(", ")", "x"]
GIVEN_WORDS = ["1", "25", ".", "#", " ", "\n", "|", "5 |", "a b c d e", "²", "-1"]
SUITE_WORDS = ["5x5", "3x3", " ", "--open", "--start", "a1", "--piece", "1,3", "\n"]
SUITE_WORDS += ["#", "'", '"', "--torus", "--end", "c3", "-", "x"]
RESULT_WORDS = ['{"key": "a"', "}", "\n", "[", "]", '"key"', ":", "1", "null", ","]


def refused_or_read(read: Callable[[], Any]) -> None:
    """Call a reader: it reads, or it raises cpknight's own error."""
    message = None
    try:
        read()
    except CpknightError as exc:
        message = str(exc).strip()
    assert message is None or (message and "\n" not in message), message


@FUZZ
@given(any_text(BOARD_WORDS))
def test_board_drawings(text: str) -> None:
    refused_or_read(lambda: Board.from_ascii(text))


@FUZZ
@given(any_text(SIZE_WORDS))
def test_board_specs(text: str) -> None:
    refused_or_read(lambda: Board.parse(text) if "/" not in text else None)


@FUZZ
@given(any_text(CELL_WORDS))
def test_cells(text: str) -> None:
    board = Board((8, 8))
    refused_or_read(lambda: board.parse_cell(text))
    refused_or_read(lambda: tour_constraints(board, via=[f"{text}@3"]))
    refused_or_read(lambda: tour_constraints(board, require=[f"a1-{text}"]))


@FUZZ
@given(any_text(PIECE_WORDS))
def test_pieces(text: str) -> None:
    refused_or_read(lambda: as_piece(text))


@FUZZ
@given(any_text(GIVEN_WORDS))
def test_given_drawings(text: str) -> None:
    refused_or_read(lambda: read_given(text, Board((5, 5))))


@FUZZ
@given(any_text(SUITE_WORDS))
def test_suites(text: str) -> None:
    refused_or_read(lambda: read_suite_text(text))


@FUZZ
@given(st.one_of(near(RESULT_WORDS), st.binary(max_size=80).map(bytes.hex)))
def test_results_files(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "rows.jsonl")
        path.write_text(text, encoding="utf-8")
        refused_or_read(lambda: read_results(path))


def cli(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, err.getvalue()


@FUZZ
@given(
    st.sampled_from(["board", "given", "tour", "suite", "resume"]),
    st.one_of(st.binary(max_size=120), near(BOARD_WORDS + GIVEN_WORDS).map(str.encode)),
)
def test_files_on_the_command_line(kind: str, data: bytes) -> None:
    """Whatever a file holds: an answer, or one line and exit 2."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "input.txt")
        path.write_bytes(data)
        code, err = cli(*_argv(kind, str(path)))
    assert "Traceback" not in err
    if code == EXIT_BAD_INPUT:
        assert err.count("\n") == 1, err
        assert err.startswith("cpknight: error: "), err
    else:
        assert code in (0, 1, 3), (code, err)


def _argv(kind: str, path: str) -> list[str]:
    return {
        "board": ["boards", path],
        "given": ["tour", "5x5", "--open", "--given", path, "--time-limit", "2"],
        "tour": ["check", "5x5", path],
        "suite": ["study", path, "--method", "warnsdorff", "--time-limit", "1"],
        "resume": ["count", "3x4", "--open", "--shards", "2", "--resume", path],
    }[kind]


def test_the_results_reader_refuses_a_row_without_a_key(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"x": 1}) + "\n" + json.dumps({"key": "a"}) + "\n")
    with pytest.raises(CpknightError, match="line 1"):
        read_results(path)
