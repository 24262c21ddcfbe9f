"""The foundation commands (boards, map, distance, reach, check): output, JSON,
exit codes, and every bad input pinned with its one-line message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpknight.board import Board
from cpknight.cli import main
from cpknight.named_boards import NAMED_BOARDS
from tests.conftest import brute_distances, knight_tour_by_search
from tests.fresh import fresh_output

MAP_8X8_A1 = """\
knight (1,2) on 8x8 from a1: 64 of 64 cells reachable, at most 6 moves
8 | 5 4 5 4 5 4 5 6
7 | 4 3 4 3 4 5 4 5
6 | 3 4 3 4 3 4 5 4
5 | 2 3 2 3 4 3 4 5
4 | 3 2 3 2 3 4 3 4
3 | 2 1 4 3 2 3 4 5
2 | 3 4 1 2 3 4 3 4
1 | * 3 2 3 2 3 4 5
    a b c d e f g h
"""

TOUR_3X4 = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2", "d3"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -------------------------------------------------------------------- map


def test_map_8x8_a1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "map", "8x8", "a1")
    assert (code, err) == (0, "")
    assert out == MAP_8X8_A1
    # the numbers, recomputed by the test's own deque BFS
    oracle = brute_distances(Board((8, 8)), (1, 2), (0, 0))
    rows = [line.split("|")[1].split() for line in out.splitlines()[1:9]]
    for i, row in enumerate(rows):
        r = 7 - i
        assert row == [
            "*" if (r, c) == (0, 0) else str(oracle[(r, c)]) for c in range(8)
        ]


def test_map_marks_blocked_and_unreachable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "3x3", "a1")
    assert code == 0
    assert out == (
        "knight (1,2) on 3x3 from a1: 8 of 9 cells reachable, at most 4 moves, "
        "1 unreachable (-)\n3 | 2 1 4\n2 | 3 - 1\n1 | * 3 2\n    a b c\n"
    )
    code, out, _ = run(capsys, "map", "cross5", "a1")
    assert code == 0
    assert "3 | 2 1 # 3 2" in out.splitlines()


def test_map_json_2d(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "map", "holed8", "a1", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"schema", "board", "piece", "source", "distances"}
    assert data["board"] == "holed8"
    assert data["piece"] == [1, 2]
    assert data["source"] == [0, 0]
    grid = data["distances"]
    assert len(grid) == 8
    assert all(len(row) == 8 for row in grid)
    oracle = brute_distances(Board.parse("holed8"), (1, 2), (0, 0))
    for r in range(8):
        for c in range(8):
            assert grid[r][c] == oracle.get((r, c))  # None (null) when blocked
    assert grid[2][2] is None
    assert grid[7][7] == 6


def test_map_json_3d_and_unreachable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "4x4x4", "0,0,0", "--piece", "1,2,3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["piece"] == [1, 2, 3]
    assert data["source"] == [0, 0, 0]
    grid = data["distances"]
    oracle = brute_distances(Board((4, 4, 4)), (1, 2, 3), (0, 0, 0))
    for x in range(4):
        for y in range(4):
            for z in range(4):
                assert grid[x][y][z] == oracle.get((x, y, z))
    assert sum(v is None for layer in grid for row in layer for v in row) == 64 - len(
        oracle
    )


def test_map_topology_and_piece(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "5x5", "c3", "--torus", "--json")
    assert code == 0
    grid = json.loads(out)["distances"]
    oracle = brute_distances(Board((5, 5), topology="torus"), (1, 2), (2, 2))
    assert grid == [[oracle[(r, c)] for c in range(5)] for r in range(5)]
    code, out, _ = run(capsys, "map", "6x6", "a1", "--cylinder", "--piece", "camel")
    assert code == 0
    assert out.startswith("camel (1,3) on 6x6 cylinder from a1:")


def test_map_large_board_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "1000x1000", "a1")
    assert code == 0
    assert out == (
        "knight (1,2) on 1000x1000 from 0,0: 1000000 of 1000000 cells reachable, "
        "at most 667 moves\n(the grid has 1000000 cells; add --grid to print it)\n"
    )


# ------------------------------------------------------------ distance, reach


def test_distance_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "distance", "8x8", "a1", "b2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "a1 -> b2 on 8x8, knight (1,2): 4 moves"  # MISSION.md
    path = lines[1].removeprefix("path: ").split()
    assert path[0] == "a1"
    assert path[-1] == "b2"
    assert len(path) == 5
    code, out, _ = run(capsys, "distance", "8x8", "a1", "b2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["question"] == "distance"
    assert data["instance"]["source"] == [0, 0]
    assert data["instance"]["target"] == [1, 1]
    (row,) = [r for r in data["rows"] if r["method"] == "bfs"]
    assert row["status"] == "found"
    assert row["distance"] == 4
    assert row["exact"] is True
    assert row["cells"][0] == [0, 0]
    assert row["cells"][-1] == [1, 1]
    assert len(row["cells"]) == 5
    assert isinstance(row["seconds"], float)


def test_distance_unreachable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "distance", "3x3", "a1", "b2")
    assert code == 1
    assert out == "b2 cannot be reached from a1 by the knight (1,2) on board 3x3\n"
    assert err == ""
    code, out, _ = run(capsys, "distance", "3x3", "a1", "b2", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["instance"]["source"] == [0, 0]
    assert data["instance"]["target"] == [1, 1]
    (row,) = data["rows"]
    assert (row["method"], row["status"]) == ("bfs", "infeasible")
    assert row["cells"] is None
    assert "cannot be reached" in row["reason"]


def test_reach(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "reach", "3x3", "a1")
    assert code == 0
    assert out == (
        "knight (1,2) on 3x3 from a1: 8 of 9 cells reachable; 2 components (8, 1)\n"
        "3 | + + +\n2 | + - +\n1 | * + +\n    a b c\n"
    )
    code, out, _ = run(capsys, "reach", "8x8", "a1", "--piece", "ferz", "--json")
    assert code == 0
    data = json.loads(out)
    # the ferz keeps to its colour: 32 cells each, two components
    assert len(data["reachable"]) == 32
    assert len(data["unreachable"]) == 32
    assert data["components"] == [32, 32]
    assert all((r + c) % 2 == 0 for r, c in data["reachable"])


# ------------------------------------------------------------------- boards


def test_boards_lists_every_named_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "boards")
    assert code == 0
    heads = [line for line in out.splitlines() if ": " in line and "|" not in line]
    assert [h.split(":")[0] for h in heads] == list(NAMED_BOARDS)
    assert "holed8: 8x8 with the central 4x4 removed (8x8, 48 open cells)" in heads
    assert "cube4: the 4x4x4 cube (try the (1,2,3) leaper) (4x4x4, 64 open cells)" in (
        heads
    )
    code, out, _ = run(capsys, "boards", "cross5")
    assert code == 0
    assert out == (
        "cross5: 5x5, 24 open cells\n5 | . . . . .\n4 | . . . . .\n3 | . . # . .\n"
        "2 | . . . . .\n1 | . . . . .\n    a b c d e\n"
    )


# -------------------------------------------------------------------- check


def write_tour(tmp_path: Path, cells: list[str]) -> str:
    path = tmp_path / "tour.txt"
    path.write_text("; a tour\n" + "\n".join(cells) + "\n\n", encoding="utf-8")
    return str(path)


def test_check_a_published_tour(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_tour(tmp_path, TOUR_3X4)
    assert run(capsys, "check", "3x4", path, "--open") == (
        0,
        "ok: an open tour of 12 cells on 3x4 (knight (1,2))\n",
        "",
    )
    code, out, _ = run(capsys, "check", "3x4", path)
    assert code == 1
    assert out == (
        "not a closed tour: the tour is not closed: d3 -> a1 is not a knight (1,2) "
        "move\n"
    )
    code, out, _ = run(capsys, "check", "3x4", path, "--open", "--json")
    assert code == 0
    assert json.loads(out) == {"schema": 1, "tour": True, "step": None, "reason": None}


def test_check_a_closed_tour_in_coordinates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = Board.parse("6x6")
    cells = knight_tour_by_search(board, closed=True, budget=20_000)
    path = write_tour(tmp_path, [f"{r},{c}" for r, c in cells])
    code, out, _ = run(capsys, "check", "6x6", path)
    assert code == 0
    assert out == "ok: a closed tour of 36 cells on 6x6 (knight (1,2))\n"


def test_check_names_the_bad_step(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cells = TOUR_3X4.copy()
    cells[4], cells[5] = cells[5], cells[4]  # ... b1 b3 d2 c1 ...
    path = write_tour(tmp_path, cells)
    code, out, err = run(capsys, "check", "3x4", path, "--open")
    assert (code, err) == (1, "")
    assert out == (
        "not an open tour: step 4 -> 5 (b1 -> b3) is not a knight (1,2) move\n"
    )
    code, out, _ = run(capsys, "check", "3x4", path, "--open", "--json")
    assert code == 1
    assert json.loads(out) == {
        "schema": 1,
        "tour": False,
        "step": 5,  # counted from 1: the move arriving at cell 5
        "reason": "step 4 -> 5 (b1 -> b3) is not a knight (1,2) move",
    }


def test_check_holds_a_tour_to_side_constraints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # the closed magic 8x10 tour recovered from Jelliss's published 8x14
    # (tests/test_record_certificates.py derives it and checks it by hand)
    from tests.test_record_certificates import MAGIC_8X10

    path = write_tour(tmp_path, MAGIC_8X10)
    assert run(capsys, "check", "8x10", path, "--magic") == (
        0,
        "ok: a closed tour of 80 cells on 8x10 (knight (1,2)) with magic\n",
        "",
    )
    # the same tour numbered from its second cell: still a tour, not magic
    moved = write_tour(tmp_path, MAGIC_8X10[1:] + MAGIC_8X10[:1])
    assert run(capsys, "check", "8x10", moved)[0] == 0
    code, out, _ = run(capsys, "check", "8x10", moved, "--magic", "ranks")
    assert code == 1
    assert out == (
        "not a closed tour with magic ranks: the tour is not magic: the rank sums "
        "differ ([395, 395, 395, 395, 395, 395, 475, 395])\n"
    )
    code, out, _ = run(capsys, "check", "8x10", path, "--forbid", "a1-b3", "--json")
    assert code == 1
    assert json.loads(out)["reason"] == "the tour uses the forbidden move a1-b3"
    code, out, _ = run(capsys, "check", "8x10", path, "--symmetric", "rot180")
    assert code == 1
    assert out.startswith("not a closed tour with symmetric rot180: rot180 maps")
    code, _, err = run(capsys, "check", "8x10", path, "--open", "--symmetric", "rot180")
    assert code == 2
    assert "a symmetric tour must be closed: drop --open" in err


# ------------------------------------------------------- bad input: exit 2


@pytest.fixture
def bad_files(tmp_path: Path) -> Path:
    (tmp_path / "bad.txt").write_text("..x\n...\n", encoding="utf-8")
    (tmp_path / "ragged.txt").write_text("...\n..\n", encoding="utf-8")
    return tmp_path


BOARD_NAMES = "classic8, holed8, heart9, ring10, cross5, ring9, blocks12, frame9, cube4"
PIECE_NAMES = (
    "knight, camel, zebra, giraffe, wazir, ferz, dabbaba, alfil, threeleaper, "
    "tripper, antelope"
)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["map", "x8", "a1"],
            "expected a board like '8x8', '4x4x4', 'plane', a file of '.' and '#', "
            f"or a name in {BOARD_NAMES}: 'x8'",
        ),
        (["map", "0x5", "a1"], "board sides must be at least 1: '0x5'"),
        (["map", "8x8", "i9"], "cell 'i9' is not on board 8x8"),
        (["distance", "8x8", "a1", "i9"], "cell 'i9' is not on board 8x8"),
        (["map", "holed8", "c3"], "cell 'c3' is blocked on board holed8"),
        (["reach", "holed8", "d4"], "cell 'd4' is blocked on board holed8"),
        (["map", "8x8", "1,2,3"], "cell '1,2,3' has 3 coordinates; board 8x8 has 2"),
        (
            ["map", "4x4x4", "a1"],
            "cell 'a1' is algebraic, which names cells on 2D boards only; board "
            "4x4x4 has 3 axes: give coordinates like '0,0,0'",
        ),
        (
            ["map", "8x8", "a1", "--piece", "bishop"],
            f"expected a piece like '1,2' or a name in {PIECE_NAMES}: 'bishop'",
        ),
        (
            ["map", "8x8", "a1", "--piece", "0,0"],
            "a leaper needs a non-zero component: (0,0)",
        ),
        (
            ["map", "8x8", "a1", "--piece", "1,2,3"],
            "piece (1,2,3)-leaper has 3 components; board 8x8 has 2 axes",
        ),
        (
            ["map", "no-such-file.txt", "a1"],
            "cannot read board file 'no-such-file.txt': No such file or directory",
        ),
        (
            ["map", "{dir}/bad.txt", "a1"],
            "{dir}/bad.txt line 1: expected '.' (open) or '#' (blocked), found 'x'",
        ),
        (
            ["map", "{dir}/ragged.txt", "a1"],
            "{dir}/ragged.txt: every row needs 3 cells; one has 2",
        ),
        (
            ["check", "3x4", "{dir}/no-tour.txt"],
            "cannot read tour file '{dir}/no-tour.txt': No such file or directory",
        ),
        (
            ["map", "plane", "a1"],
            "board 'plane' is unbounded; a distance map needs a finite board",
        ),
        (
            ["reach", "plane", "a1"],
            "board 'plane' is unbounded; reachability needs a finite board",
        ),
        (
            ["check", "plane", "tour.txt"],
            "board 'plane' is unbounded; a tour needs a finite board",
        ),
        (
            ["distance", "plane", "a1", "b2", "--method", "bfs"],
            "board 'plane' is unbounded; method 'bfs' needs a finite board",
        ),
        (
            ["distance", "8x8", "a1", "b2", "--method", "nope"],
            "expected a distance method in ",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], bad_files: Path, argv: list[str], message: str
) -> None:
    argv = [a.replace("{dir}", str(bad_files)) for a in argv]
    message = message.replace("{dir}", str(bad_files))
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    if message.endswith(" "):  # the method list grows as engines are added
        assert err.startswith(f"cpknight: error: {message}")
        assert err.rstrip().endswith("or 'all': 'nope'")
    else:
        assert err == f"cpknight: error: {message}\n"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["map", "8x8", "a1", "--torus", "--cylinder"], "not allowed with argument"),
        (["map", "8x8"], "the following arguments are required: SOURCE"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert fragment in err
    assert "Traceback" not in err
    assert err.startswith("cpknight")
    assert err.count("\n") == 1  # one line, no usage dump


def test_help_lists_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for line in (
        "exit codes:",
        "0  answered",
        "1  proved there is none",
        "2  bad input",
        "3  limit reached without an answer",
    ):
        assert line in out
    for command in ("boards", "map", "distance", "reach", "check"):
        assert command in out
    with pytest.raises(SystemExit):
        main(["map", "--help"])
    assert "exit codes:" in capsys.readouterr().out


# ---------------------------------------------------------- as a program


def test_python_m_cpknight() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cpknight", "map", "3x3", "b2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].startswith("knight (1,2) on 3x3 from b2: 1 of 9")
    bad = subprocess.run(
        [sys.executable, "-m", "cpknight", "map", "8x8", "i9"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr == "cpknight: error: cell 'i9' is not on board 8x8\n"


def test_closed_pipe_is_quiet() -> None:
    # 'cpknight map 300x300 a1 --grid | head -1': ~400 kB into a closed pipe.
    proc = subprocess.Popen(
        [sys.executable, "-m", "cpknight", "map", "300x300", "a1", "--grid"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    code = proc.wait(timeout=60)
    assert first.startswith(b"knight (1,2) on 300x300")
    assert b"Traceback" not in err
    assert err == b""
    assert code == 0


def test_map_numbers_are_aligned(capsys: pytest.CaptureFixture[str]) -> None:
    # The wazir's distance from a1 is r + c (Manhattan): up to 22 on 12x12.
    code, out, _ = run(capsys, "map", "12x12", "a1", "--piece", "wazir")
    assert code == 0
    lines = out.splitlines()[1:]
    assert lines[0] == "12 | 11 12 13 14 15 16 17 18 19 20 21 22"
    assert lines[-2] == " 1 |  *  1  2  3  4  5  6  7  8  9 10 11"
    assert lines[-1] == "      a  b  c  d  e  f  g  h  i  j  k  l"
    assert len({len(line) for line in lines}) == 1


def test_distance_commands_do_not_load_ortools() -> None:
    # STYLE.md: only the declarative engines import ortools, lazily enough that
    # 'cpknight map' and 'cpknight distance' (bfs) do not pay for loading it.
    code = (
        "import sys\n"
        "from cpknight.cli import main\n"
        "main(['map', '8x8', 'a1'])\n"
        "main(['distance', '8x8', 'a1', 'h8'])\n"
        "main(['reach', '3x3', 'a1'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('ortools')))\n"
    )
    assert fresh_output(code) == "[]"


# ------------------------------------------------------ one JSON schema

SHARED_KEYS: dict[str, type | tuple[type, ...]] = {
    "question": str,
    "method": str,
    "status": str,
    "seconds": float,
    "effort": dict,
    "bound": (int, type(None)),
    "reason": (str, type(None)),
    "cells": (list, type(None)),
}
STATUSES = {"found", "optimal", "feasible", "infeasible", "unknown", "refused"}


@pytest.mark.parametrize(
    "argv",
    [
        ["tour", "5x5", "--open", "--start", "a1"],
        ["tour", "4x4"],  # proved none
        ["tour", "8x8", "--method", "backtrack", "--time-limit", "0.2"],  # limit
        ["compare", "5x5", "--open", "--start", "a1"],
        ["distance", "8x8", "a1", "b2", "--method", "all"],
        ["distance", "3x3", "a1", "b2"],  # unreachable
        ["collect", "8x8", "a1", "h8", "d4"],
        ["count", "3x4", "--open"],
        ["count", "6x6", "--time-limit", "0.2"],  # limit: no count given
        ["sweep", "3x4", "--method", "prune"],
    ],
    ids=" ".join,
)
def test_every_json_row_has_the_shared_keys(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    rows = data.get("rows", [data])
    assert rows
    for row in rows:
        for key, kind in SHARED_KEYS.items():
            assert isinstance(row[key], kind), (key, row[key])
        assert row["status"] in STATUSES
        if row["status"] == "unknown":  # a limit reached still says its effort
            assert row["effort"], row
