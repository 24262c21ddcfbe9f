"""Bad input that used to escape: each answered with one line on stderr and exit 2."""

from __future__ import annotations

import inspect
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cpknight import (
    Board,
    check_tour,
    collect,
    count_tours,
    find_tour,
    is_route,
    is_tour,
    try_tour,
)
from cpknight.cli import main
from cpknight.errors import InvalidBoardError, InvalidInputError
from cpknight.io import read_tour_file
from cpknight.solving import MAX_SEED, MAX_WORKERS, SolveOptions
from tests.conftest import independent_tour_check, knight_tour_by_search


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(err: str, *words: str) -> None:
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert err == err.lower() or "error" in err
    for word in words:
        assert word in err, (word, err)


# ------------------------------------------------------------ solve options


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"seed": 2**31}, id="seed-2^31"),
        pytest.param({"seed": 2**40}, id="seed-2^40"),
        pytest.param({"seed": -1}, id="seed-negative"),
        pytest.param({"workers": MAX_WORKERS + 1}, id="workers-too-many"),
        pytest.param({"workers": 100_000}, id="workers-100000"),
        pytest.param({"workers": -1}, id="workers-negative"),
    ],
)
def test_solve_options_reject_out_of_range(kwargs: dict[str, int]) -> None:
    with pytest.raises(InvalidInputError, match=str(next(iter(kwargs.values())))):
        SolveOptions(**kwargs)  # type: ignore[arg-type]


def test_solve_options_accept_the_ends_of_the_ranges() -> None:
    assert SolveOptions(seed=MAX_SEED, workers=MAX_WORKERS).seed == MAX_SEED
    assert SolveOptions(seed=0, workers=0).workers == 0


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["tour", "6x6", "--method", "cpsat", "--seed", "2147483648"]),
        pytest.param(["count", "3x4", "--open", "--seed", "2147483648"]),
        pytest.param(["tour", "6x6", "--method", "cpsat", "--workers", "10001"]),
        pytest.param(
            ["distance", "8x8", "a1", "b2", "--method", "ip", "--workers", "100000"]
        ),
        pytest.param(["collect", "6x6", "a1", "f6", "--seed", "-3"]),
    ],
    ids=[
        "tour-seed",
        "count-seed",
        "tour-workers",
        "distance-ip-workers",
        "collect-seed",
    ],
)
def test_cli_option_ranges_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert_one_line(err, argv[-1])


# ---------------------------------------------------------------- boards, API


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda: Board((8.5, 8)), "board sides must be ints", id="8.5"),  # type: ignore[arg-type]
        pytest.param(
            lambda: Board((True, True)), "board sides must be ints", id="bool"
        ),
        pytest.param(
            lambda: Board((8, 8), blocked=[(1.7, 2)]),  # type: ignore[list-item]
            "blocked cell coordinates must be ints",
            id="blocked-1.7",
        ),
        pytest.param(lambda: find_tour(8), "expected a board", id="find_tour-8"),  # type: ignore[arg-type]
        pytest.param(lambda: find_tour(None), "expected a board", id="find_tour-None"),  # type: ignore[arg-type]
        pytest.param(
            lambda: check_tour(7, [], closed=False),  # type: ignore[arg-type]
            "expected a board",
            id="check_tour-7",
        ),
    ],
)
def test_non_integer_boards_are_refused(make: Any, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        make()


def test_api_takes_board_specs_and_shapes_everywhere() -> None:
    board = Board((3, 4))
    cells = [
        (0, 0),
        (1, 2),
        (2, 0),
        (0, 1),
        (1, 3),
        (2, 1),
        (0, 2),
        (1, 0),
        (2, 2),
        (0, 3),
        (1, 1),
        (2, 3),
    ]  # an open tour of 3x4: checked below by hand
    assert independent_tour_check(board, (1, 2), cells, closed=False)
    for spec in ("3x4", (3, 4), [3, 4], board):
        check_tour(spec, cells, closed=False)
        assert is_tour(spec, cells, closed=False)
        assert not is_tour(spec, cells[:-1], closed=False)
    assert find_tour((6, 6)).board == Board((6, 6))
    assert count_tours((3, 4), closed=False).directed == 16  # 3x4: 8 undirected
    route = collect((3, 4), "a1", ["c1"])
    assert is_route((3, 4), route.cells, start="a1", food=["c1"])


def test_find_tour_defaults_to_auto_as_try_tour_and_the_cli_do() -> None:
    defaults = {
        name: inspect.signature(f).parameters["method"].default
        for name, f in (("find_tour", find_tour), ("try_tour", try_tour))
    }
    assert defaults == {"find_tour": "auto", "try_tour": "auto"}
    from cpknight.cli import build_parser

    args = build_parser().parse_args(["tour", "8x8"])
    assert args.method == "auto"
    # auto picks prune on 8x8 (the README says so), not CP-SAT
    assert find_tour("8x8").method == "prune"


# ---------------------------------------------------------------- command line


def test_compare_on_the_plane_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("compare", "tour", "sweep", "count"):
        code, out, err = run(capsys, command, "plane")
        assert (code, out) == (2, ""), command
        assert_one_line(err, "'plane' is unbounded")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # the knight's distance on the plane, OEIS A065775: (5, 3) -> 4 moves
        (["distance", "plane", "0,0", "-5,3"], "4 moves"),
        (["distance", "plane", "-5,-3", "0,0"], "4 moves"),
        # 8x8: a1 -> b3 is one knight move; (-1, 2) is the same leaper
        (["distance", "8x8", "a1", "b3", "--piece", "-1,2"], ": 1 moves"),
    ],
    ids=["plane-target", "plane-source", "piece"],
)
def test_negative_coordinates_are_values_not_options(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert expected in out


def test_negative_cell_off_the_board_is_said_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "map", "8x8", "-1,0")
    assert (code, out) == (2, "")
    assert_one_line(err, "cell '-1,0' is not on board 8x8")


def test_distance_on_the_plane_picks_a_method_that_takes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # (100, 57) on the plane: 53 moves (OEIS A065775 formula, and the IP agrees)
    code, out, _ = run(capsys, "distance", "plane", "0,0", "100,57")
    assert code == 0
    assert "53 moves" in out
    code, out, _ = run(capsys, "distance", "plane", "0,0", "100,57", "--method", "ip")
    assert code == 0
    assert "53 moves" in out
    # the camel on the plane: no formula; the IP is exact there
    code, out, _ = run(capsys, "distance", "plane", "0,0", "6,0", "--piece", "camel")
    assert code == 0
    assert "2 moves" in out


def test_cells_past_26_files_say_how_to_name_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "map", "30x30", "aa1")
    assert (code, out) == (2, "")
    assert_one_line(err, "'0,26'", "'aa1'")
    code, out, _ = run(capsys, "distance", "30x30", "0,0", "0,27")
    assert code == 0


def test_repeated_output_paths_are_refused_before_solving(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(tmp_path / "d.svg")
    code, out, err = run(capsys, "tour", "6x6", "--svg", path, "--animate", path)
    assert (code, out) == (2, "")
    assert_one_line(err, "--svg and --animate both write")
    assert not Path(path).exists()
    other = str(tmp_path / "sub" / ".." / "d.svg")  # the same file, spelt otherwise
    (tmp_path / "sub").mkdir()
    code, _, err = run(capsys, "tour", "6x6", "--out", path, "--html", other)
    assert code == 2
    assert "--out and --html" in err
    assert not Path(path).exists()


@pytest.mark.parametrize(
    ("argv", "name", "ending"),
    [
        (["formulation", "collect", "6x6", "a1", "f6"], "y.lp", ".pbtxt"),
        (["formulation", "tour", "6x6"], "t.mps", ".pbtxt"),
        (["formulation", "distance", "8x8", "a1", "b2"], "d.pbtxt", ".lp or .mps"),
    ],
    ids=["collect-lp", "tour-mps", "distance-pbtxt"],
)
def test_export_extensions_must_match_the_format(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    argv: list[str],
    name: str,
    ending: str,
) -> None:
    path = tmp_path / name
    code, out, err = run(capsys, *argv, "--export", str(path))
    assert (code, out) == (2, "")
    assert_one_line(err, ending, name)
    assert not path.exists()


def test_export_to_the_right_extension_still_works(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "c.pbtxt"
    code, _out, _ = run(
        capsys, "formulation", "collect", "6x6", "a1", "f6", "--export", str(path)
    )
    assert code == 0
    assert "circuit" in path.read_text()


# ------------------------------------------------------------------ tour files


def test_check_stops_at_the_first_bad_line_of_a_huge_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # a million lines whose 29th repeats the first: reading stops after 65
    # cells (one more than the board has), which hold the first fault
    cells = knight_tour_by_search(Board((8, 8)), closed=False)
    names = [Board((8, 8)).cell_name(c) for c in cells]
    lines = [*names[:28], names[0], *([names[1]] * 1_000_000)]
    path = tmp_path / "tour.txt"
    path.write_text("\n".join(lines) + "\n")
    assert len(read_tour_file(str(path), Board((8, 8)))) == 65
    code, out, _ = run(capsys, "check", "8x8", str(path), "--json")
    assert code == 1
    found = json.loads(out)
    assert found["step"] == 29
    assert "cell 29 (a1) was already visited at step 1" in found["reason"]


def test_json_step_counts_from_one_as_the_text_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "t.txt"
    path.write_text("a1\nc2\na3\nb1\nd2\na1\n")  # cell 6 repeats cell 1
    code, text, _ = run(capsys, "check", "3x4", str(path))
    assert code == 1
    assert "cell 6" in text
    code, out, _ = run(capsys, "check", "3x4", str(path), "--json")
    assert json.loads(out)["step"] == 6


def test_a_text_file_named_npy_gets_no_pickle_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "x.npy"
    path.write_text("a1\nb3\n")
    code, out, err = run(capsys, "check", "8x8", str(path))
    assert (code, out) == (2, "")
    assert_one_line(err, "not a numpy .npy array file")
    assert "pickle" not in err


def test_dash_is_standard_input_and_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, "tour", "6x6", "--out", "-")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 36
    assert "closed tour of 6x6" in err
    board = Board((6, 6))
    assert independent_tour_check(
        board, (1, 2), [board.parse_cell(x) for x in lines], closed=True
    )

    class Stdin:
        buffer = io.BytesIO(out.encode())

    monkeypatch.setattr(sys, "stdin", Stdin)
    code, out, _ = run(capsys, "check", "6x6", "-")
    assert (code, out) == (0, "ok: a closed tour of 36 cells on 6x6 (knight (1,2))\n")
    code, _, err = run(capsys, "tour", "6x6", "--out", "-", "--json")
    assert code == 2
    assert "standard output" in err
