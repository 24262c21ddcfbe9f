"""benchmarks/snake_dfs.py: the longest knight snake by a compiled depth-first search.

The n x n values are OEIS A357500 (largest number of nodes of an induced path
in the n x n knight graph: 1, 1, 7, 9, 15, 21, 24, 34 for n = 1..8; revision
#23, read 2026-11-30) and, for cycles (``--closed``), OEIS A165143 (length of
a longest induced cycle in the n x n knight graph: 8, 10, 16, 20, 22, 32, 40,
48 for n = 3..10; revision #26, read 2026-11-30). Every other expected number
is computed here by :func:`brute_force` and :func:`brute_force_cycle`, plain
enumerations that share no code with the script, and held to cpknight's own
search and frontier engines.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

from cpknight.api import longest_path
from tests.conftest import load_script

snake_dfs = load_script("snake_dfs")

A357500 = {1: 1, 2: 1, 3: 7, 4: 9, 5: 15, 6: 21, 7: 24, 8: 34}
A165143 = {3: 8, 4: 10, 5: 16, 6: 20, 7: 22, 8: 32, 9: 40, 10: 48}


def brute_force(rows: int, cols: int) -> int:
    """The most cells of an induced knight path on rows x cols: every path tried."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    steps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

    def moves(cell: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = cell
        return [
            (r + a, c + b) for a, b in steps if 0 <= r + a < rows and 0 <= c + b < cols
        ]

    best = 1 if cells else 0

    def grow(path: list[tuple[int, int]], on: set[tuple[int, int]]) -> None:
        nonlocal best
        best = max(best, len(path))
        for nxt in moves(path[-1]):
            # on no path cell but the head's moves: the path stays induced
            if nxt in on or any(w in on and w != path[-1] for w in moves(nxt)):
                continue
            path.append(nxt)
            on.add(nxt)
            grow(path, on)
            on.remove(nxt)
            path.pop()

    for cell in cells:
        grow([cell], {cell})
    return best


def brute_force_cycle(rows: int, cols: int) -> int:
    """The most cells of an induced knight cycle on rows x cols (0: none).

    Every cycle is grown from each of its cells in both directions, with no
    symmetry and no bound; a cell joins when no path cell but the head is a
    move from it, and the cycle closes on a cell a move from the head and the
    first cell and from no other.
    """
    steps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

    def moves(cell: tuple[int, int]) -> set[tuple[int, int]]:
        r, c = cell
        return {
            (r + a, c + b) for a, b in steps if 0 <= r + a < rows and 0 <= c + b < cols
        }

    best = 0

    def grow(path: list[tuple[int, int]], on: set[tuple[int, int]]) -> None:
        nonlocal best
        for nxt in moves(path[-1]) - on:
            touching = moves(nxt) & on
            if len(path) >= 3 and touching == {path[0], path[-1]}:
                best = max(best, len(path) + 1)
            if touching == {path[-1]}:
                path.append(nxt)
                on.add(nxt)
                grow(path, on)
                on.remove(nxt)
                path.pop()

    for r in range(rows):
        for c in range(cols):
            grow([(r, c)], {(r, c)})
    return best


def cycle_by_script(rows: int, cols: int, above: int = -1) -> int | None:
    """The most cells of an induced cycle the script finds (0 if none at all)."""
    best = above
    for start in snake_dfs.cycle_cells(rows, cols):
        row = snake_dfs.run_start(rows, cols, start, best, closed=True)
        if row["moves"] is not None:
            best = int(row["moves"])
            cells = [_cell(name, cols) for name in row["path"]]
            assert len(cells) == best
            snake_dfs.check_cycle(rows, cols, cells)
    if best == above:
        return None if above >= 0 else 0
    return best


def cells_by_script(rows: int, cols: int, above: int = -1) -> int | None:
    """The most cells the script finds (``None``: none of more than ``above`` moves)."""
    best = above
    for start in snake_dfs.start_cells(rows, cols):
        row = snake_dfs.run_start(rows, cols, start, best)
        if row["moves"] is not None:
            best = int(row["moves"])
            snake_dfs.check_snake(
                rows, cols, [_cell(name, cols) for name in row["path"]]
            )
    return None if best == above else best + 1


def _cell(name: str, cols: int) -> int:
    return (int(name[1:]) - 1) * cols + ord(name[0]) - ord("a")


@pytest.mark.parametrize("n", range(1, 9))
def test_the_square_boards_are_a357500(n: int) -> None:
    assert cells_by_script(n, n) == A357500[n]


@pytest.mark.parametrize(
    ("rows", "cols"), [(1, 5), (2, 6), (3, 4), (3, 5), (4, 5), (3, 7), (2, 9)]
)
def test_rectangles_equal_a_brute_force(rows: int, cols: int) -> None:
    assert cells_by_script(rows, cols) == brute_force(rows, cols)


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (4, 7), (6, 7)])
def test_larger_rectangles_equal_cpknights_engines(rows: int, cols: int) -> None:
    label = f"{rows}x{cols}"
    frontier = longest_path(label, kind="induced", method="frontier", time_limit=120)
    search = longest_path(label, kind="induced", method="search", time_limit=120)
    assert str(frontier.status) == str(search.status) == "optimal"
    assert frontier.moves == search.moves
    assert cells_by_script(rows, cols) == frontier.moves + 1


def test_random_rectangles_equal_the_brute_force() -> None:
    rng = random.Random(20261130)
    for _ in range(6):
        rows, cols = rng.randint(1, 4), rng.randint(2, 5)
        assert cells_by_script(rows, cols) == brute_force(rows, cols), (rows, cols)


def test_above_proves_there_is_none_longer() -> None:
    # 7x7: 24 cells (A357500(7)), so 23 moves
    assert cells_by_script(7, 7, above=22) == 24
    assert cells_by_script(7, 7, above=23) is None


def test_the_start_cells_cover_every_orbit() -> None:
    for rows, cols in ((9, 9), (4, 6), (5, 5), (1, 7)):
        perms = snake_dfs.symmetries(rows, cols)
        starts = snake_dfs.start_cells(rows, cols)
        reached = {p[s] for s in starts for p in perms}
        assert reached == set(range(rows * cols))
        # one start an orbit: no start is the image of another
        assert all(p[s] not in set(starts) - {s} for s in starts for p in perms)


@pytest.mark.parametrize("n", [*range(3, 9), pytest.param(9, marks=pytest.mark.slow)])
def test_the_square_cycles_are_a165143(n: int) -> None:
    assert cycle_by_script(n, n) == A165143[n]


@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 3), (3, 4), (4, 4), (3, 6), (4, 5), (2, 8), (5, 5), (3, 8)]
)
def test_cycles_on_rectangles_equal_a_brute_force(rows: int, cols: int) -> None:
    assert cycle_by_script(rows, cols) == brute_force_cycle(rows, cols)


def test_random_cycle_boards_equal_the_brute_force() -> None:
    rng = random.Random(20261201)
    for _ in range(6):
        rows, cols = rng.randint(3, 5), rng.randint(3, 6)
        assert cycle_by_script(rows, cols) == brute_force_cycle(rows, cols), (
            rows,
            cols,
        )


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (6, 7), (4, 9)])
def test_cycles_on_larger_rectangles_equal_cpknights_engines(
    rows: int, cols: int
) -> None:
    label = f"{rows}x{cols}"
    kw = {"kind": "induced", "closed": True, "time_limit": 120}
    frontier = longest_path(label, method="frontier", **kw)  # type: ignore[arg-type]
    search = longest_path(label, method="search", **kw)  # type: ignore[arg-type]
    assert str(frontier.status) == str(search.status) == "optimal"
    assert frontier.moves == search.moves
    assert cycle_by_script(rows, cols) == frontier.moves


def test_above_proves_there_is_no_longer_cycle() -> None:
    # 8x8: 32 (A165143(8))
    assert cycle_by_script(8, 8, above=31) == 32
    assert cycle_by_script(8, 8, above=32) is None


def test_the_cycles_least_cells_cover_every_cycle() -> None:
    # every set of cells has an image whose cells all lie in the start's list
    rng = random.Random(7)
    for rows, cols in ((6, 6), (4, 7), (5, 5)):
        perms = snake_dfs.symmetries(rows, cols)
        lists = {
            s: set(cells) for s, cells in snake_dfs.cycle_cells(rows, cols).items()
        }
        for _ in range(200):
            chosen = rng.sample(range(rows * cols), rng.randint(1, 8))
            images = [{p[v] for v in chosen} for p in perms]
            assert any(min(im) in lists and im <= lists[min(im)] for im in images)


def test_the_cycle_checker_refuses_a_chord_an_open_end_and_a_repeat() -> None:
    # 3x3's eight outer cells are one induced cycle: a1 c2 a3 b1 c3 a2 c1 b3
    ring = [0, 5, 6, 1, 8, 3, 2, 7]
    snake_dfs.check_cycle(3, 3, ring)
    with pytest.raises(AssertionError, match="not joined"):
        snake_dfs.check_cycle(3, 3, ring[:7])  # b3 left out: c1 is no move from a1
    with pytest.raises(AssertionError, match="twice"):
        snake_dfs.check_cycle(3, 3, [*ring, 0])
    with pytest.raises(AssertionError, match="four"):
        snake_dfs.check_cycle(3, 3, [0, 5])
    # 4x4: a1 b3 d4 c2 a2, but c2-a2 is no move
    with pytest.raises(AssertionError):
        snake_dfs.check_cycle(4, 4, [0, 9, 15, 6, 4])


def _forest_size(cells: list[tuple[int, int]]) -> int:
    """The most of ``cells`` making paths with no chord, by trying every subset."""
    for size in range(len(cells), 0, -1):
        for pick in itertools.combinations(cells, size):
            links = {
                a: [b for b in pick if {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2}]
                for a in pick
            }
            if any(len(x) > 2 for x in links.values()):
                continue
            # no cycle: walking from each end-free part must not come back
            seen: set[tuple[int, int]] = set()
            acyclic = True
            for root in pick:
                if root in seen:
                    continue
                stack = [(root, (-9, -9))]
                while stack and acyclic:
                    cell, came = stack.pop()
                    if cell in seen:
                        acyclic = False
                        break
                    seen.add(cell)
                    stack += [(b, cell) for b in links[cell] if b != came]
            if acyclic:
                return size
    return 0


@pytest.mark.parametrize(("h", "w"), [(3, 3), (2, 4), (1, 4), (3, 4)])
def test_the_tiles_tables_equal_a_brute_force(h: int, w: int) -> None:
    rng = random.Random(h * 10 + w)
    tile_of, bit_of, offset, table = snake_dfs.tile_tables(h, w)
    assert set(tile_of.tolist()) == {0}  # one tile: the board is no larger
    cells = [(r, c) for r in range(h) for c in range(w)]
    masks = range(1 << (h * w)) if h * w <= 9 else rng.sample(range(1 << 12), 150)
    for mask in masks:
        chosen = [cells[i] for i in range(h * w) if mask >> int(bit_of[i]) & 1]
        assert table[offset[0] + mask] == _forest_size(chosen), chosen


def test_a_whole_4x4_tile_holds_eleven() -> None:
    # the 4x4 table's full set, by the brute force (16 cells: subsets of 11+)
    cells = [(r, c) for r in range(4) for c in range(4)]
    _, _, offset, table = snake_dfs.tile_tables(4, 4)
    assert table[offset[0] + (1 << 16) - 1] == _forest_size(cells) == 11


@pytest.mark.parametrize(("rows", "cols", "closed"), [(7, 7, True), (6, 7, False)])
def test_the_tiles_only_cut(rows: int, cols: int, closed: bool) -> None:
    starts = (
        snake_dfs.cycle_cells(rows, cols)
        if closed
        else snake_dfs.start_cells(rows, cols)
    )
    fewer = 0
    for start in starts:
        tiled = snake_dfs.run_start(rows, cols, start, -1, closed=closed)
        plain = snake_dfs.run_start(rows, cols, start, -1, closed=closed, tiles=False)
        assert tiled["moves"] == plain["moves"]
        assert tiled["path"] == plain["path"]  # the same order of search
        assert int(str(tiled["nodes"])) <= int(str(plain["nodes"]))
        fewer += int(str(tiled["nodes"])) < int(str(plain["nodes"]))
    assert fewer > 0


def test_the_checker_refuses_a_chord_and_a_gap() -> None:
    # 3x3's eight outer cells are one cycle of moves: a1 c2 a3 b1 c3 a2 c1 b3
    ring = [0, 5, 6, 1, 8, 3, 2, 7]
    snake_dfs.check_snake(3, 3, ring[:7])  # A357500(3) = 7
    with pytest.raises(AssertionError, match="joins"):
        snake_dfs.check_snake(3, 3, ring)  # b3, the last, is a move from a1
    with pytest.raises(AssertionError, match="no move"):
        snake_dfs.check_snake(3, 3, [0, 1])  # a1 b1
    with pytest.raises(AssertionError, match="twice"):
        snake_dfs.check_snake(3, 3, [0, 5, 0])


def test_the_command_resumes_from_its_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert snake_dfs.main(["6x6", "--dir", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert "longest snake: 20 moves (21 cells), proved" in first
    log = tmp_path / "snake-6x6-above-1.jsonl"
    lines = log.read_text().splitlines()
    assert len(lines) == 6  # one line a start cell
    # a line cut short (a crash mid-write) is searched again; the rest are kept
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:10])
    assert snake_dfs.main(["6x6", "--dir", str(tmp_path)]) == 0
    again = capsys.readouterr().out
    assert "3 done before" in again
    assert "longest snake: 20 moves (21 cells), proved" in again
    rows = [json.loads(x) for x in log.read_text().splitlines() if x.endswith("}")]
    assert len({row["start"] for row in rows}) == 6


def test_the_cycle_command_names_its_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert snake_dfs.main(["6x6", "--closed", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "longest induced cycle: 20 moves (20 cells), proved" in out  # A165143(6)
    assert (tmp_path / "cycle-6x6-above-1.jsonl").exists()
    assert snake_dfs.main(["6x6", "--closed", "--above", "20"]) == 0
    assert "none: no induced cycle on 6x6 has more than 20 moves" in (
        capsys.readouterr().out
    )


def test_a_split_search_is_the_whole_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 8x8 cycles (32, A165143(8)) and 7x7 snakes (23 moves, A357500(7)),
    # split by their first two cells after the start, resumed half way
    for argv, answer in (
        (["8x8", "--closed", "--above", "30"], "32 moves (32 cells)"),
        (["7x7", "--above", "21"], "23 moves (24 cells)"),
    ):
        assert snake_dfs.main([*argv, "--split", "2", "--dir", str(tmp_path)]) == 0
        out = capsys.readouterr().out
        assert f"{answer}, proved" in out
        log = next(tmp_path.glob(f"*{argv[0]}*split2.jsonl"))
        lines = log.read_text().splitlines()
        tasks = int(out.split(" tasks")[0].rsplit(" ", 1)[1])
        assert len(lines) == tasks > 15  # a line a start cell and prefix
        log.write_text("\n".join(lines[: tasks // 2]) + "\n")
        assert snake_dfs.main([*argv, "--split", "2", "--dir", str(tmp_path)]) == 0
        again = capsys.readouterr().out
        assert f"{tasks // 2} done before" in again
        assert f"{answer}, proved" in again
    # every prefix of a start, searched apart, gives the start's answer
    whole = snake_dfs.run_start(8, 8, 1, 30, closed=True)
    parts = [
        snake_dfs.run_start(8, 8, 1, 30, closed=True, prefix=prefix)
        for prefix in snake_dfs.prefixes(8, 8, 1, 2, closed=True)
    ]
    assert max(int(str(r["moves"] or 0)) for r in parts) == whole["moves"] == 32
    # a prefix that is no snake gives nothing
    bad = snake_dfs.run_start(8, 8, 0, 3, prefix=(1, 2))  # a1 b1 c1: no moves
    assert bad["moves"] is None
    assert bad["nodes"] == 0


def test_two_processes_share_the_split_tasks(tmp_path: Path) -> None:
    # as a user runs it: the script in a process of its own, two workers
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "snake_dfs.py"
    argv = [sys.executable, str(script), "7x7", "--closed", "--above", "20"]
    argv += ["--split", "2", "--jobs", "2", "--dir", str(tmp_path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "longest induced cycle: 22 moves (22 cells), proved" in done.stdout
    lines = (tmp_path / "cycle-7x7-above20-split2.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert len({row["task"] for row in rows}) == len(rows) > 10  # each task once
    # a task handed out after a cycle was found searches above it: the tasks
    # go out in their listed order, the i-th (from 0) when i - 1 lines are in
    found = [row["moves"] or 0 for row in rows]
    assert max(found) == 22
    above = {row["task"]: row["above"] for row in rows}
    order = [
        snake_dfs.task_name(start, prefix, 7)
        for start in sorted(snake_dfs.cycle_cells(7, 7))
        for prefix in snake_dfs.prefixes(7, 7, start, 2, closed=True)
    ]
    assert sorted(order) == sorted(above)
    for i, task in enumerate(order):
        assert above[task] >= max([20, *found[: max(i - 1, 0)]]), task
    assert sum(bar == 22 for bar in above.values()) > len(order) // 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_search_inside_its_compiled_kernel(
    tmp_path: Path, jobs: str
) -> None:
    # 11x11 cycles: the first task runs for minutes in compiled code, which
    # does not hear Ctrl-C; the worker holding it must be ended at once
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "snake_dfs.py"
    argv = [sys.executable, str(script), "11x11", "--closed", "--above", "56"]
    argv += ["--split", "3", "--jobs", jobs, "--dir", str(tmp_path)]
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    log = tmp_path / "cycle-11x11-above56-split3.jsonl"
    assert proc.stdout is not None
    header = proc.stdout.readline()  # printed before the first task starts
    assert "1087 tasks" in header
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole group
    try:
        out, _ = proc.communicate(timeout=30)  # minutes before the mend
    finally:
        proc.kill()
    assert proc.returncode == 1
    assert "stopped: 0 of 1087 tasks done" in out
    assert not log.exists() or not log.read_text().strip()


def test_ctrl_c_while_the_tasks_are_listed_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 11x11 takes a second to list its tasks, before the header; a Ctrl-C
    # then (here raised by the listing itself) ends the run like any other
    def interrupted(*_: object) -> list[tuple[int, ...]]:
        raise KeyboardInterrupt

    monkeypatch.setattr(snake_dfs, "prefixes", interrupted)
    assert snake_dfs.main(["11x11", "--closed", "--above", "56", "--split", "3"]) == 1
    out = capsys.readouterr().out
    assert out == "stopped while the tasks were listed: nothing new done\n"


def test_a_split_needs_a_bar_at_least_as_long(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert snake_dfs.main(["6x6", "--split", "3"]) == 2
    assert snake_dfs.main(["6x6", "--split", "3", "--above", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert all("--split K needs" in line for line in err)


def test_bad_boards_get_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert snake_dfs.main(["9by9"]) == 2
    assert snake_dfs.main(["0x4"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert all(line.startswith("snake_dfs.py: ") for line in err)
