"""Tests of benchmarks/snake_cycles_bits.py, the bitboard search for the longest
induced cycles of the knight graph.

The values are OEIS A165143 (longest induced cycle on n x n, offset 3): 8, 10,
16, 20, 22, 32, 40, 48 for n = 3..10 (read 2026-11-30). The brute force here
shares no code with the script: it grows every induced path from every cell of
the board (no symmetry, no bound, no canonical form) and keeps each cycle's
set of cells (an induced cycle is the subgraph its cells induce, so the set
names it).
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import load_script

pytest.importorskip("numba")
mod = load_script("snake_cycles_bits")

Cell = tuple[int, int]  # (rank, file)
SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "snake_cycles_bits.py"
A165143 = {3: 8, 4: 10, 5: 16, 6: 20, 7: 22, 8: 32, 9: 40, 10: 48}


def _move(p: Cell, q: Cell) -> bool:
    return {abs(p[0] - q[0]), abs(p[1] - q[1])} == {1, 2}


_BRUTE: dict[tuple[int, int], set[frozenset[Cell]]] = {}


def brute_cycles(ranks: int, files: int) -> set[frozenset[Cell]]:
    """Every induced cycle of the board, as its set of cells."""
    if (ranks, files) in _BRUTE:
        return _BRUTE[ranks, files]
    cells = [(r, c) for r in range(ranks) for c in range(files)]
    nbrs = {p: [q for q in cells if _move(p, q)] for p in cells}
    found: set[frozenset[Cell]] = set()

    def grow(path: list[Cell], on: set[Cell]) -> None:
        for q in nbrs[path[-1]]:
            if q in on:
                continue
            touching = [p for p in path[:-1] if _move(p, q)]
            if touching == [path[0]] and len(path) >= 3:
                found.add(frozenset([*path, q]))  # q closes the cycle
            elif not touching:
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
    return max((len(z) for z in brute_cycles(ranks, files)), default=0)


def longest(ranks: int, files: int, above: int = 0) -> tuple[int, list[int], int]:
    """The script's longest cycle over ``above`` (0, [] if none) and its nodes."""
    geo = mod.geometry(ranks, files)
    best, cycle, nodes = above, [], 0
    for start in mod.tasks(geo, above, 0):
        res = mod.run_task(geo, start, best)
        nodes += res.nodes
        if res.best > best:
            best, cycle = res.best, res.cycle
    return (best if cycle else 0), cycle, nodes


def as_cells(ranks: int, cycle: list[int]) -> list[Cell]:
    return [(x % ranks, x // ranks) for x in cycle]


def induced(cells: list[Cell]) -> bool:
    """The tests' own check of an induced cycle."""
    m = len(cells)
    return (
        m >= 4
        and len(set(cells)) == m
        and all(
            _move(cells[i], cells[j]) == (j - i in (1, m - 1))
            for i in range(m)
            for j in range(i + 1, m)
        )
    )


def images(ranks: int, files: int, cycle: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The cycle under each symmetry of the board (8 on a square, else 4)."""
    out = []
    for flip_rank in (False, True):
        for flip_file in (False, True):
            for swap in (False, True) if ranks == files else (False,):
                image = set()
                for r, c in cycle:
                    r2 = ranks - 1 - r if flip_rank else r
                    c2 = files - 1 - c if flip_file else c
                    image.add((c2, r2) if swap else (r2, c2))
                out.append(frozenset(image))
    return out


def canonical(ranks: int, cycle: frozenset[Cell]) -> list[int]:
    """The cycle's cells in order from its least index, c_1 < c_{m-1}."""
    index = {(r, c): c * ranks + r for r, c in cycle}
    order = [min(cycle, key=index.__getitem__)]
    while len(order) < len(cycle):
        ahead = [q for q in cycle if _move(order[-1], q) and q not in order]
        order.append(min(ahead, key=index.__getitem__))
    out = [index[p] for p in order]
    return out if out[1] < out[-1] else [out[0], *out[:0:-1]]


# --------------------------------------------------------------- the values


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8, 9])
def test_a165143(n: int) -> None:
    best, cycle, _ = longest(n, n)
    assert best == A165143[n]
    assert induced(as_cells(n, cycle))


@pytest.mark.parametrize(
    ("ranks", "files"),
    [(3, 4), (4, 4), (3, 6), (4, 5), (5, 5), (3, 8), (4, 3), (6, 3), (2, 6), (1, 5)],
)
def test_brute_force_rectangles(ranks: int, files: int) -> None:
    best, cycle, _ = longest(ranks, files)
    assert best == brute_longest(ranks, files)
    assert best == 0 or induced(as_cells(ranks, cycle))


def test_random_small_boards() -> None:
    rng = random.Random(165143)
    for _ in range(8):
        ranks = rng.randint(2, 6)
        files = rng.randint(2, max(2, min(6, 30 // ranks)))
        assert longest(ranks, files)[0] == brute_longest(ranks, files), (ranks, files)


# ------------------------------------------------- symmetry and completeness

BOARDS = [
    (3, 3),
    (4, 4),
    (5, 5),
    (3, 5),
    (4, 5),
    (5, 4),
    (3, 7),
    (5, 6),
    pytest.param(6, 6, marks=pytest.mark.slow),  # ten seconds loaded
    (4, 7),
]


@pytest.mark.parametrize(("ranks", "files"), BOARDS)
def test_every_cycle_has_a_searched_image(ranks: int, files: int) -> None:
    for cycle in brute_cycles(ranks, files):
        assert any(
            mod.searched(ranks, files, sorted(z)) for z in images(ranks, files, cycle)
        ), sorted(cycle)


@pytest.mark.parametrize(("ranks", "files"), BOARDS)
def test_search_lists_exactly_the_searched_cycles(ranks: int, files: int) -> None:
    brute = brute_cycles(ranks, files)
    top = brute_longest(ranks, files)
    for above, flags in [(3, 3), (3, 0), (top - 2, 3), (top - 4, 3), (top - 1, 3)]:
        want = {z for z in brute if len(z) > above and mod.searched(ranks, files, z)}
        got = mod.collect_cycles(ranks, files, above, flags=flags)
        assert all(induced(as_cells(ranks, z)) for z in got)
        sets = [frozenset(as_cells(ranks, z)) for z in got]
        assert len(sets) == len(set(sets)), "a cycle was listed twice"
        assert set(sets) == want, (above, flags)


@pytest.mark.parametrize(
    ("ranks", "files"),
    [
        *[(5, 5), (4, 5), (3, 8), (5, 6), (6, 4), (3, 10)],
        pytest.param(6, 6, marks=pytest.mark.slow),  # ten seconds loaded
    ],
)
def test_bound_holds_at_every_prefix(ranks: int, files: int) -> None:
    """The density bound (c), with (a) and (b), never falls below a cycle that
    passes through the node: checked at every rooted prefix of every cycle."""
    geo = mod.geometry(ranks, files)
    checked = 0
    for cycle in brute_cycles(ranks, files):
        if not mod.searched(ranks, files, sorted(cycle)):
            continue
        order = canonical(ranks, cycle)
        for k in range(1, len(order) - 1):
            assert mod.node_bound(geo, order[: k + 1]) >= len(order), (order, k)
            checked += 1
    assert checked > 100


def test_discharge_cuts_nodes() -> None:
    geo = mod.geometry(8, 8)
    nodes = {}
    for flags in (0, mod.PEEL, mod.PEEL | mod.DISCHARGE):
        nodes[flags] = sum(
            mod.run_task(geo, s, 31, flags=flags).nodes for s in mod.tasks(geo, 31, 0)
        )
    assert nodes[0] > nodes[mod.PEEL] > nodes[mod.PEEL | mod.DISCHARGE]


# -------------------------------------------------------------------- CLI


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = mod.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_above_on_8x8(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["8x8", "--above", "31"], capsys)
    assert code == 0
    assert "longest induced cycle: 32 cells, proved" in out
    names = out.strip().splitlines()[-1].split()
    cells = [(int(s[1:]) - 1, ord(s[0]) - ord("a")) for s in names]
    assert len(cells) == 32
    assert induced(cells)
    code, out, _ = run(["8x8", "--above", "32"], capsys)
    assert code == 0
    assert "none: no induced cycle on 8x8 has more than 32 cells" in out


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_split_checkpoint_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["6x6", "--above", "17", "--split", "2", "--dir", str(tmp_path)]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert "longest induced cycle: 20 cells, proved" in out
    log = tmp_path / "tasks.jsonl"
    rows = lines(log)
    assert rows[0] == {"board": "6x6", "above": 17, "split": 2}
    tasks = len(rows) - 1
    assert tasks > 5
    assert {len(r["key"].split()) for r in rows[1:]} == {3}
    assert {"key", "best", "cycle", "threshold", "nodes", "seconds"} <= set(rows[1])
    code, out, _ = run(argv, capsys)  # all done: nothing is run again
    assert code == 0
    assert f"{tasks} tasks, {tasks} done before" in out
    assert "longest induced cycle: 20 cells, proved" in out
    assert len(lines(log)) == tasks + 1
    text = log.read_text()  # a crash cut the last line short
    log.write_text(text[: len(text) - 9])
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert f"{tasks} tasks, {tasks - 1} done before" in out
    assert "longest induced cycle: 20 cells, proved" in out
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
    assert "done before" in out
    assert ", 2 done before" in out
    assert "longest induced cycle: 16 cells, proved" in out


def test_ctrl_c_exits_1(tmp_path: Path) -> None:
    # 10x10 in 115 tasks of a few seconds each: Ctrl-C comes after the first
    # is written, long before the last
    argv = [sys.executable, str(SCRIPT), "10x10", "--split", "2"]
    argv += ["--dir", str(tmp_path)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log = tmp_path / "tasks.jsonl"
    deadline = time.monotonic() + 60
    while (not log.exists() or len(log.read_text().splitlines()) < 2) and (
        proc.poll() is None and time.monotonic() < deadline
    ):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert b"stopped:" in err
    assert all(row for row in lines(log))


def test_two_jobs() -> None:
    argv = [sys.executable, str(SCRIPT), "6x6", "--above", "15", "--split", "2"]
    done = subprocess.run([*argv, "--jobs", "2"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"longest induced cycle: 20 cells, proved" in done.stdout


# ---------------------------------------------------------------- checker

GOOD = [(0, 0), (2, 1), (0, 2), (1, 0), (2, 2), (0, 1), (2, 0), (1, 2)]  # 3 x 3


def test_checker_accepts_a_cycle() -> None:
    assert induced(GOOD)
    mod.check_cycle(3, 3, GOOD)


CHORD = [(0, 0), (1, 2), (2, 0), (4, 1), (3, 3), (2, 1)]  # (1, 2)-(3, 3) on 5 x 5


@pytest.mark.parametrize(
    ("board", "cells", "why"),
    [
        ((4, 4), GOOD[:4] + GOOD[:4], "repeated"),
        ((4, 4), GOOD[:3] + GOOD[4:], "not a knight's move"),  # a gap
        ((3, 3), GOOD[:7], "not a knight's move"),  # no move from last to first
        ((5, 5), CHORD, "chord"),
        ((4, 4), [(0, 0), (1, 2)], "4 cells"),
        ((3, 3), [(r + 1, c) for r, c in GOOD], "off the board"),
    ],
)
def test_checker_refuses(board: tuple[int, int], cells: list[Cell], why: str) -> None:
    assert not induced(cells) or why == "off the board"
    with pytest.raises(ValueError, match=why):
        mod.check_cycle(*board, cells)


@pytest.mark.parametrize(
    "argv",
    [
        ["8x"],
        ["axb"],
        ["0x5"],
        ["12x12"],
        ["2x27"],
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
