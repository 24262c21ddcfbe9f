"""Tests of benchmarks/snake_paths_bits.py, the bitboard search for the longest
snake (induced path) of the knight graph.

The values are OEIS A357500 (the most cells of a snake on n x n): 1, 1, 7, 9,
15, 21, 24, 34 for n = 1..8. The brute force here shares no code with the
script: it grows every induced path from every cell of the board (no symmetry,
no bound, no canonical form) and keeps each one in the order it was grown, so
every snake appears once per direction.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import load_script

pytest.importorskip("numba")
mod = load_script("snake_paths_bits")

Cell = tuple[int, int]  # (rank, file)
SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "snake_paths_bits.py"
A357500 = {1: 1, 2: 1, 3: 7, 4: 9, 5: 15, 6: 21, 7: 24, 8: 34}
ALL = mod.PEEL | mod.DISCHARGE


def _move(p: Cell, q: Cell) -> bool:
    return {abs(p[0] - q[0]), abs(p[1] - q[1])} == {1, 2}


_BRUTE: dict[tuple[int, int], list[tuple[Cell, ...]]] = {}


def brute_paths(ranks: int, files: int) -> list[tuple[Cell, ...]]:
    """Every snake of the board, in both directions (a cell alone once)."""
    if (ranks, files) in _BRUTE:
        return _BRUTE[ranks, files]
    cells = [(r, c) for r in range(ranks) for c in range(files)]
    nbrs = {p: [q for q in cells if _move(p, q)] for p in cells}
    found: list[tuple[Cell, ...]] = []

    def grow(path: list[Cell], on: set[Cell]) -> None:
        found.append(tuple(path))
        for q in nbrs[path[-1]]:
            if q not in on and not any(_move(p, q) for p in path[:-1]):
                path.append(q)
                on.add(q)
                grow(path, on)
                path.pop()
                on.discard(q)

    for start in cells:
        grow([start], {start})
    _BRUTE[ranks, files] = found
    return found


def brute_longest(ranks: int, files: int) -> int:
    return max(len(z) for z in brute_paths(ranks, files))


def index(ranks: int, path: tuple[Cell, ...] | list[Cell]) -> list[int]:
    return [c * ranks + r for r, c in path]


def as_cells(ranks: int, path: list[int]) -> list[Cell]:
    return [(x % ranks, x // ranks) for x in path]


def induced(cells: list[Cell]) -> bool:
    """The tests' own check of a snake."""
    m = len(cells)
    return (
        m >= 1
        and len(set(cells)) == m
        and all(
            _move(cells[i], cells[j]) == (j == i + 1)
            for i in range(m)
            for j in range(i + 1, m)
        )
    )


def longest(ranks: int, files: int, above: int = 0) -> tuple[int, list[int], int]:
    """The script's longest snake over ``above`` cells (0, [] if none), nodes."""
    geo = mod.geometry(ranks, files)
    best, path, nodes = above, [], 0
    for leaf, start in mod.tasks(geo, above, 0):
        res = mod.run_task(geo, start, best, leaf=leaf)
        nodes += res.nodes
        if res.best > best:
            best, path = res.best, res.path
    return (best if path else 0), path, nodes


def images(ranks: int, files: int, path: tuple[Cell, ...]) -> list[list[Cell]]:
    """The snake under each symmetry of the board, read both ways."""
    out = []
    for flip_rank in (False, True):
        for flip_file in (False, True):
            for swap in (False, True) if ranks == files else (False,):
                image = []
                for r, c in path:
                    r2 = ranks - 1 - r if flip_rank else r
                    c2 = files - 1 - c if flip_file else c
                    image.append((c2, r2) if swap else (r2, c2))
                out += [image, image[::-1]]
    return out


# --------------------------------------------------------------- the values


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8])
def test_a357500(n: int) -> None:
    best, path, _ = longest(n, n)
    assert best == A357500[n]
    assert len(path) == best
    assert induced(as_cells(n, path))


BRUTE_BOARDS = [
    (1, 1),
    (1, 6),
    (6, 1),
    (2, 2),
    (2, 5),
    (2, 9),
    (3, 3),
    (3, 4),
    (3, 7),
    (7, 3),
    (4, 4),
    (4, 5),
    (5, 4),
    (4, 6),
    (5, 5),
    (3, 9),
]


@pytest.mark.parametrize(("ranks", "files"), BRUTE_BOARDS)
def test_brute_force_rectangles(ranks: int, files: int) -> None:
    best, path, _ = longest(ranks, files)
    assert best == brute_longest(ranks, files)
    assert len(path) == best
    assert induced(as_cells(ranks, path))
    mod.check_path(ranks, files, as_cells(ranks, path))


def test_random_small_boards() -> None:
    rng = random.Random(357500)
    for _ in range(6):
        ranks = rng.randint(1, 6)
        files = rng.randint(1, max(1, min(6, 24 // ranks)))
        best, path, _ = longest(ranks, files)
        assert best == brute_longest(ranks, files), (ranks, files)
        assert induced(as_cells(ranks, path))


# ------------------------------------------------- symmetry and completeness

BOARDS = [(3, 3), (4, 4), (5, 5), (3, 5), (4, 5), (5, 4), (3, 7), (2, 6), (4, 6)]


@pytest.mark.parametrize(("ranks", "files"), BOARDS)
def test_every_snake_has_a_searched_image(ranks: int, files: int) -> None:
    for path in brute_paths(ranks, files):
        assert any(
            mod.searched(ranks, files, index(ranks, z))
            for z in images(ranks, files, path)
        ), path


@pytest.mark.parametrize(("ranks", "files"), BOARDS)
def test_search_lists_exactly_the_searched_snakes(ranks: int, files: int) -> None:
    brute = brute_paths(ranks, files)
    top = brute_longest(ranks, files)
    for above, flags in [(0, ALL), (0, 0), (top - 3, ALL), (top - 2, 1), (top - 1, 2)]:
        want = {
            tuple(index(ranks, z))
            for z in brute
            if len(z) > above and mod.searched(ranks, files, index(ranks, z))
        }
        got = mod.collect_paths(ranks, files, above, flags=flags)
        assert all(induced(as_cells(ranks, z)) for z in got)
        assert len(got) == len(set(map(tuple, got))), "a snake was listed twice"
        assert set(map(tuple, got)) == want, (above, flags)


@pytest.mark.parametrize(
    ("ranks", "files"), [(4, 4), (5, 5), (4, 5), (5, 4), (3, 7), (4, 6), (3, 9)]
)
@pytest.mark.parametrize("flags", [0, 1, 2, 3])
def test_bound_holds_at_every_prefix(ranks: int, files: int, flags: int) -> None:
    """Each bound ((a) reach and peel, (b) colour, (c) discharge) never falls
    below a searched snake through the node: checked at every prefix of every
    searched snake (the whole snake included)."""
    geo = mod.geometry(ranks, files)
    checked = tight = 0
    for path in brute_paths(ranks, files):
        order = index(ranks, path)
        if len(order) < 2 or not mod.searched(ranks, files, order):
            continue
        bounds = mod.prefix_bounds(geo, order, flags)
        assert min(bounds) >= len(order), (order, bounds)
        checked += len(bounds)
        tight += bounds.count(len(order))
    assert checked > 500
    assert tight > 0


def test_bounds_cut_nodes() -> None:
    geo = mod.geometry(7, 7)
    nodes = {}
    for flags in (0, mod.PEEL, ALL):
        nodes[flags] = sum(
            mod.run_task(geo, s, 24, leaf=leaf, flags=flags).nodes
            for leaf, s in mod.tasks(geo, 24, 0)
        )
    assert nodes[0] > nodes[mod.PEEL] > nodes[ALL]


def test_canonical_rule_by_hand() -> None:
    assert mod.roots(4, 4) == (0, 1, 5)  # a1, a2, b2
    assert mod.ends(4, 4, 1) == frozenset(range(16)) - {0, 3, 12, 15}
    assert mod.first(4, 4, 0) == frozenset(range(16)) - {4, 8, 9, 12, 13, 14}
    assert mod.first(4, 4, 1) == frozenset(range(16))  # only the identity fixes a2
    assert mod.searched(4, 4, [1, 7])  # a2 b4
    assert not mod.searched(4, 4, [1, 10, 12])  # a2 c3 d1: ends in a corner
    assert not mod.searched(4, 4, [12, 10, 1])  # d1 is no root
    assert mod.searched(4, 4, [0, 6, 13])  # a1 b3 d2, its mirror image
    assert not mod.searched(4, 4, [0, 9])  # a1 c2: c_1 past the diagonal
    assert mod.searched(4, 4, [0, 6])  # a1 b3, its mirror image


# -------------------------------------------------------------------- CLI


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = mod.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def names_to_cells(line: str) -> list[Cell]:
    return [(int(s[1:]) - 1, ord(s[0]) - ord("a")) for s in line.split()]


def test_above_on_8x8(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["8x8", "--above", "32"], capsys)
    assert code == 0
    assert "best: 34 cells (33 moves): " in out
    assert out.strip().splitlines()[-1] == "8x8: none longer than 33 moves (34 cells)"
    found = out.split("best: 34 cells (33 moves): ")[1].splitlines()[0]
    cells = names_to_cells(found)
    assert len(cells) == 34
    assert induced(cells)
    code, out, _ = run(["8x8", "--above", "33"], capsys)
    assert code == 0
    assert "no snake on 8x8 has more than 33 moves" in out
    assert out.strip().splitlines()[-1] == "8x8: none longer than 33 moves (34 cells)"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_split_is_whole(capsys: pytest.CaptureFixture[str]) -> None:
    for split in (0, 1, 3, 5):
        code, out, _ = run(["7x7", "--above", "22", "--split", str(split)], capsys)
        assert code == 0
        assert "7x7: none longer than 23 moves (24 cells)" in out, split
        assert "best: 24 cells (23 moves)" in out
    code, out, _ = run(["5x5", "--split", "3"], capsys)  # short snakes: leaves
    assert code == 0
    assert "5x5: none longer than 14 moves (15 cells)" in out


def test_split_checkpoint_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["6x6", "--above", "17", "--split", "2", "--dir", str(tmp_path)]
    want = "6x6: none longer than 20 moves (21 cells)"
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert want in out
    log = tmp_path / "tasks.jsonl"
    rows = lines(log)
    assert rows[0] == {"board": "6x6", "above": 17, "split": 2, "canon": mod.VERSION}
    tasks = len(rows) - 1
    assert tasks > 5
    assert {len(r["key"].split()) for r in rows[1:]} == {3}
    assert {"key", "best", "path", "threshold", "nodes", "seconds"} <= set(rows[1])
    code, out, _ = run(argv, capsys)  # all done: nothing is run again
    assert code == 0
    assert f"{tasks} tasks, {tasks} done before" in out
    assert want in out
    assert "best: 21 cells (20 moves)" in out
    assert len(lines(log)) == tasks + 1
    text = log.read_text()  # a crash cut the last line short
    log.write_text(text[: len(text) - 9])
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert f"{tasks} tasks, {tasks - 1} done before" in out
    assert want in out
    assert len(lines(log)) == tasks + 1
    code, _, err = run([*argv[:2], "--above", "18", *argv[4:]], capsys)
    assert code == 2  # the folder holds another run
    assert len(err.strip().splitlines()) == 1


def test_interrupt_keeps_finished_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = mod.run_task
    calls = []

    def stopping(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    argv = ["5x5", "--above", "10", "--split", "2", "--dir", str(tmp_path)]
    monkeypatch.setattr(mod, "run_task", stopping)
    code, _, err = run(argv, capsys)
    assert code == 1
    assert "stopped: 2 of" in err
    assert len(lines(tmp_path / "tasks.jsonl")) == 3
    monkeypatch.setattr(mod, "run_task", real)
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert ", 2 done before" in out
    assert "5x5: none longer than 14 moves (15 cells)" in out


def test_ctrl_c_exits_1(tmp_path: Path) -> None:
    # 10x10 above 45 moves is far more than minutes: Ctrl-C comes long before
    argv = [sys.executable, str(SCRIPT), "10x10", "--above", "45", "--split", "1"]
    argv += ["--dir", str(tmp_path)]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    assert proc.stdout is not None
    header = proc.stdout.readline()  # the tasks are made: the search has begun
    assert b"tasks, 0 done before" in header
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert b"stopped:" in err
    assert b"none longer" not in out
    assert all(row for row in lines(tmp_path / "tasks.jsonl"))


def test_two_jobs() -> None:
    argv = [sys.executable, str(SCRIPT), "6x6", "--above", "15", "--split", "2"]
    done = subprocess.run([*argv, "--jobs", "2"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"best: 21 cells (20 moves)" in done.stdout
    assert b"6x6: none longer than 20 moves (21 cells)" in done.stdout


# ---------------------------------------------------------------- checker

GOOD = [(0, 0), (2, 1), (0, 2), (1, 0), (2, 2), (0, 1), (2, 0)]  # 3 x 3, A357500


def test_checker_accepts_a_snake() -> None:
    assert induced(GOOD)
    mod.check_path(3, 3, GOOD)
    mod.check_path(1, 1, [(0, 0)])


@pytest.mark.parametrize(
    ("board", "cells", "why"),
    [
        ((4, 4), [*GOOD[:4], GOOD[1]], "repeated"),
        ((4, 4), GOOD[:3] + GOOD[4:], "not a knight's move"),  # a gap
        ((3, 3), [*GOOD, (1, 2)], "chord"),  # c2 is a move from a1
        ((5, 5), [(0, 0), (1, 2), (3, 3), (2, 1)], "chord"),  # a1 - b3
        ((3, 3), [(r + 1, c) for r, c in GOOD], "off the board"),
        ((3, 3), [(0, 0), (2, -1)], "off the board"),
        ((3, 3), [], "a cell"),
    ],
)
def test_checker_refuses(board: tuple[int, int], cells: list[Cell], why: str) -> None:
    assert not induced(cells) or why == "off the board"
    with pytest.raises(ValueError, match=why):
        mod.check_path(*board, cells)


@pytest.mark.parametrize(
    "argv",
    [
        ["8x"],
        ["axb"],
        ["0x5"],
        ["12x12"],
        ["2x65"],
        ["8x8", "--jobs", "0"],
        ["8x8", "--above", "4", "--split", "5"],
        ["8x8", "--above", "-1"],
        ["8x8", "--split", "-1"],
        ["8x8", "--bogus"],
        ["8x8", "--jobs", "two"],
        [],
    ],
)
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1


def test_bad_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "a_file"
    afile.write_text("x")
    torn = tmp_path / "torn"
    (torn / "tasks.jsonl").mkdir(parents=True)  # unreadable: a folder
    for where in (afile, afile / "below", torn):
        code, out, err = run(["5x5", "--dir", str(where)], capsys)
        assert code == 2, where
        assert out == ""
        assert len(err.strip().splitlines()) == 1
