"""benchmarks/torus_counts.py: two counting kernels against the tests' oracles.

The expected numbers come from ``subset_count`` (the tests' own Held-Karp in
numpy, sharing no code with the script) and from the literature: the 4 x 4
torus's move graph is the 4-cube's, whose Hamiltonian cycles number 1,344
(OEIS A066037(4), the 4-cube's Hamiltonian cycles), and the 3 x 4 board has 8
undirected open tours (OEIS A169696: 16 directed).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from cpknight.board import Board
from cpknight.counting import subsets_jit as jit
from tests.conftest import brute_neighbours, load_script, subset_count

tc = load_script("torus_counts")

SMALL = [(3, 3), (3, 4), (4, 3), (4, 4), (3, 5)]


def oracle(shape: tuple[int, int], topology: str) -> dict[tuple[int, ...], set[int]]:
    """The tests' neighbour sets, cells renamed to the script's i * c + j."""
    nbrs = brute_neighbours(Board(shape, topology=topology), (1, 2))  # type: ignore[arg-type]
    c = shape[1]
    return {cell: {y * c + x for y, x in found} for cell, found in nbrs.items()}


@pytest.mark.parametrize("topology", ["torus", "bounded"])
@pytest.mark.parametrize(
    "shape", [(1, 1), (1, 5), (2, 2), (2, 3), (3, 3), (2, 5), (4, 4), (3, 5), (5, 6)]
)
def test_the_move_graph_is_the_oracles(shape: tuple[int, int], topology: str) -> None:
    mine = tc.neighbours(shape, topology)
    theirs = oracle(shape, topology)
    c = shape[1]
    assert len(mine) == len(theirs)
    for (i, j), found in theirs.items():
        assert set(mine[i * c + j]) == found


@pytest.mark.parametrize("topology", ["torus", "bounded"])
@pytest.mark.parametrize("shape", [(2, 2, 3), (2, 3, 4), (3, 3, 3), (1, 2, 4)])
def test_the_3d_move_graph_is_the_oracles(
    shape: tuple[int, int, int], topology: str
) -> None:
    # The 3-D knight: 1 along one axis, 2 along another (24 moves); cells
    # numbered row-major, as itertools.product lists them
    mine = tc.neighbours(shape, topology)
    board = Board(shape, topology=topology)  # type: ignore[arg-type]
    theirs = brute_neighbours(board, (1, 2))
    number = {cell: k for k, cell in enumerate(sorted(theirs))}
    assert len(mine) == len(theirs)
    for cell, found in theirs.items():
        assert set(mine[number[cell]]) == {number[x] for x in found}


def test_the_ie_counts_a_box_as_the_tests_dp_does() -> None:
    # 2x3x4 less four cells (20 cells): both counts by inclusion-exclusion
    board = Board((2, 3, 4), blocked=((0, 0, 0), (0, 0, 3), (1, 2, 0), (1, 2, 3)))
    oracle_nbrs = brute_neighbours(board, (1, 2))
    number = {cell: k for k, cell in enumerate(sorted(oracle_nbrs))}
    nbrs = [sorted(number[x] for x in oracle_nbrs[c]) for c in sorted(oracle_nbrs)]
    assert tc.ie_closed(nbrs) == subset_count(oracle_nbrs, closed=True) == 50
    assert tc.ie_open(nbrs) == subset_count(oracle_nbrs, closed=False) == 3600


@pytest.mark.parametrize("shape", SMALL)
def test_both_kernels_equal_subset_count_on_small_tori(shape: tuple[int, int]) -> None:
    nbrs = tc.neighbours(shape, "torus")
    assert tc.translation_invariant(shape, nbrs)
    board = brute_neighbours(Board(shape, topology="torus"), (1, 2))
    closed = subset_count(board, closed=True)
    opened = subset_count(board, closed=False)
    # The DP: from cell 0 times n, and from every start.
    assert tc.dp_counts(nbrs, transitive=True) == (closed, opened)
    assert tc.dp_counts(nbrs, transitive=False) == (closed, opened)
    # The inclusion-exclusion: over every set, and from cell 0 times n.
    assert tc.ie_closed(nbrs) == closed
    assert tc.ie_open(nbrs) == opened
    assert tc.ie_open(nbrs, transitive=True) == opened
    assert tc.ie_both(nbrs) == (closed, opened)
    # The DP a layer at a time: the same recurrence, its own indexing.
    assert tc.layers_counts(nbrs, transitive=True) == (closed, opened)
    assert tc.layers_counts(nbrs, transitive=False) == (closed, opened)


@pytest.mark.parametrize(("n", "k"), [(1, 1), (5, 2), (9, 4), (12, 6), (12, 11)])
def test_the_colex_ranks_unrank_to_the_k_sets_in_order(n: int, k: int) -> None:
    # Gosper's hack walks the k-sets in increasing order of their bit masks;
    # rank r must unrank to the r-th of them, as itertools lists them.
    import itertools

    masks = sorted(sum(1 << b for b in c) for c in itertools.combinations(range(n), k))
    binom = jit.binomials(n)
    assert [jit.unrank(r, k, n, binom) for r in range(len(masks))] == masks


def test_the_layers_fit_where_the_full_table_does_not() -> None:
    # 28 cells: the full table is 2^27 * 27 words (27 GiB), the two largest
    # layers C(27, 13) * 13 + C(27, 14) * 14 words (about 4 GiB).
    import math

    assert tc.memory_bytes("dp", 28) == 2**27 * 27 * 8
    assert tc.layers_bytes(28) == (math.comb(27, 13) * 13 + math.comb(27, 14) * 14) * 8
    assert tc.memory_bytes("ie", 28) == 0


def test_a_kernel_that_would_not_fit_is_refused_up_front(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tc, "available_bytes", lambda: 2**30)
    with pytest.raises(SystemExit, match=r"the dp kernel needs about 13\.0 GiB"):
        tc.main(["3x9", "--kernel", "dp"])
    assert capsys.readouterr().out == ""


def test_the_known_values_of_3x5() -> None:
    nbrs = tc.neighbours((3, 5), "torus")
    assert tc.dp_counts(nbrs, transitive=True) == (10_594_392, 274_255_560)
    assert tc.ie_closed(nbrs) == 10_594_392
    assert tc.ie_open(nbrs) == 274_255_560


def test_the_4x4_torus_has_the_4_cubes_hamiltonian_cycles() -> None:
    # The 4-cube's Hamiltonian cycles: OEIS A066037(4) = 1,344.
    nbrs = tc.neighbours((4, 4), "torus")
    assert all(len(near) == 4 for near in nbrs)
    assert tc.dp_counts(nbrs, want_open=False) == (1344, None)
    assert tc.ie_closed(nbrs) == 1344


@pytest.mark.parametrize(
    ("shape", "closed", "opened"),
    [((3, 4), 0, 8), ((4, 4), 0, 0), ((3, 3), 0, 0), ((2, 3), 0, 0), ((1, 1), 0, 1)],
)
def test_plain_boards(shape: tuple[int, int], closed: int, opened: int) -> None:
    # 3 x 4: 8 undirected open tours (OEIS A169696: 16 directed); the others
    # have none (3 x 3 and 2 x 3: the centre or a cell has no move).
    nbrs = tc.neighbours(shape, "bounded")
    board = brute_neighbours(Board(shape, topology="bounded"), (1, 2))
    assert subset_count(board, closed=True) == closed
    assert subset_count(board, closed=False) == opened
    assert tc.dp_counts(nbrs) == (closed, opened)
    assert tc.layers_counts(nbrs) == (closed, opened)
    assert tc.ie_closed(nbrs) == closed
    assert tc.ie_open(nbrs) == opened


def test_the_4x5_plain_board() -> None:
    # Not vertex-transitive: the open tours are summed over every set and
    # start (the inclusion-exclusion; the DP from 20 starts would take 10 s).
    # 82 undirected open tours is subset_count's value (164 directed).
    nbrs = tc.neighbours((4, 5), "bounded")
    assert not tc.translation_invariant((4, 5), nbrs)
    assert tc.ie_open(nbrs) == 82


def test_the_crt_joins_numbers_past_2_64() -> None:
    rng = random.Random(7)
    for _ in range(200):
        x = rng.randrange(tc.TWO64 * tc.P)
        assert tc.crt(x % tc.TWO64, x % tc.P) == x
    x = 3 * tc.TWO64 + 12345
    assert tc.exact(x % tc.TWO64, x % tc.P, x) == x
    with pytest.raises(ValueError, match="modulus"):
        tc.exact(0, 0, tc.TWO64 * tc.P)


def test_the_bound_holds_for_25_cells() -> None:
    nbrs = tc.neighbours((5, 5), "torus")
    assert tc.path_bound(nbrs, closed=False) < tc.TWO64 * tc.P
    assert tc.path_bound(nbrs, closed=False) == 25 * 8 * 7**23


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    tc.main(["3x4", "--open", "--kernel", "ie"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["tours"], x["value"]) for x in lines] == [
        ("closed", 14934),
        ("open", 321696),
    ]
    assert all(x["agree"] and x["ie"]["peak_mb"] > 0 for x in lines)


def test_the_command_line_runs_the_kernels_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    kernels = "layers,ie,layers16"
    tc.main(["3x4", "--open", "--kernel", kernels, "--symmetry", "both"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["tours"], x["value"], x["agree"]) for x in lines] == [
        ("closed", 14934, True),
        ("open", 321696, True),
    ]
    assert all(set(x) >= {"layers", "ie", "layers16"} for x in lines)
    assert [x["layers16"]["residue"] for x in lines] == [14934, 321696 % tc.Q16]
    with pytest.raises(SystemExit):
        tc.main(["3x4", "--kernel", "dp,fast"])
    assert "dp, layers, layers16 or ie" in capsys.readouterr().err


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
def test_the_records_second_route_past_24_cells_is_the_ie(closed: bool) -> None:
    # benchmarks/records.py checks the 2x4x4 box by this script's IE; here the
    # same call on a box and a torus the tests' DP finishes
    records = load_script("records")
    for shape, wrap in (((2, 3, 3), False), ((3, 4), True)):
        board = Board(shape, topology="torus" if wrap else "bounded")
        want = subset_count(brute_neighbours(board, (1, 2)), closed=closed)
        assert records.by_inclusion_exclusion(shape, closed, wrap=wrap)() == want


@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open"])
def test_the_records_residue_route_on_a_torus(closed: bool) -> None:
    # the 4x8 torus's rows check the IE by layers16 from one cell times the
    # cells; here the 3x4 and 4x4 tori, against the tests' DP modulo 65,521
    records = load_script("records")
    for shape in ((3, 4), (4, 4)):
        board = Board(shape, topology="torus")
        want = subset_count(brute_neighbours(board, (1, 2)), closed=closed)
        got = records.by_layers16(shape, closed, wrap=True)()
        assert got == want % tc.Q16, shape


def test_a_records_row_run_by_this_script_is_checked_by_a_residue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The open 2x4x4 box's row: this script's IE first (a count cpknight's
    # command refuses), layers16's residue second; here on the 2x3x3 box
    # (18 cells), whose open tours the tests' DP counts, and with a wrong
    # residue, which must be called a disagreement. The second route and the
    # symmetry check run here, not in a forked child (a fork of a process
    # whose compiled loops have started their threads can hang)
    records = load_script("records")
    monkeypatch.setattr(records, "apart", lambda count: count())
    board = Board((2, 3, 3))
    want = subset_count(brute_neighbours(board, (1, 2)), closed=False)
    row = records.by_script((2, 3, 3), False, wrap=False)  # as the box's row
    assert row.modulus == tc.Q16
    got = records.run_row(row, tmp_path)
    assert got["value"] == want
    assert got["verdict"].startswith("leaves the DP's residue mod 65,521")
    assert got["command"].startswith("python benchmarks/torus_counts.py 2x3x3")
    assert (tmp_path / "box-2x3x3-open" / "ie-open.jsonl").exists()
    wrong = dataclasses.replace(row, second=lambda: (want + 1) % tc.Q16)
    assert "DISAGREES" in records.run_row(wrong, None)["verdict"]


def _box_graph() -> tuple[list[list[int]], dict[tuple[int, ...], set[tuple[int, ...]]]]:
    board = Board((2, 3, 4), blocked=((0, 0, 0), (0, 0, 3), (1, 2, 0), (1, 2, 3)))
    oracle_nbrs = brute_neighbours(board, (1, 2))
    number = {cell: k for k, cell in enumerate(sorted(oracle_nbrs))}
    nbrs = [sorted(number[x] for x in oracle_nbrs[c]) for c in sorted(oracle_nbrs)]
    return nbrs, oracle_nbrs


def test_a_checkpointed_ie_resumes_to_the_same_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 2x3x4 less four cells: the open count in 64 parts, stopped after some,
    # a line cut short as a crash leaves it, then run again from the file
    nbrs, oracle_nbrs = _box_graph()
    want = subset_count(oracle_nbrs, closed=False)
    monkeypatch.setattr(tc, "CHECKPOINT_PARTS", 64)
    path = tmp_path / "ie-open.jsonl"
    assert tc.ie_open(nbrs, checkpoint=str(path)) == want
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 64
    path.write_text("\n".join(lines[:20]) + '\n{"part": 3')
    computed: list[int] = []
    real = tc._walks_parts
    total = 1 << len(nbrs)  # the open count sums over every set

    def counted(*args: object) -> object:
        starts = args[3]  # the first set of each part
        computed.extend(int(x) * 64 // total for x in starts)  # type: ignore[attr-defined]
        return real(*args)

    monkeypatch.setattr(tc, "_walks_parts", counted)
    assert tc.ie_open(nbrs, checkpoint=str(path)) == want
    finished = {json.loads(line)["part"] for line in lines[1:20]}
    assert sorted(computed) == sorted(set(range(64)) - finished)
    assert tc.part_seconds(str(path))["checkpoint_seconds"] >= 0


def test_a_checkpoint_of_another_graph_is_refused(tmp_path: Path) -> None:
    # the file's first line names its graph, root and parts: another's is
    # refused before any set is summed, and the file is left as it was
    nbrs, _ = _box_graph()
    path = tmp_path / "ie-closed.jsonl"
    other = {"graph": "0" * 16, "cells": 20, "root": 0, "parts": 4096, "half": True}
    path.write_text(json.dumps(other) + "\n")
    with pytest.raises(SystemExit, match="a checkpoint of another count"):
        tc.ie_closed(nbrs, checkpoint=str(path))
    assert path.read_text() == json.dumps(other) + "\n"


def test_the_command_line_counts_open_only_from_a_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["3x4", "--topology", "bounded", "--kernel", "ie", "--open-only"]
    tc.main([*args, "--checkpoint", str(tmp_path)])
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert line["tours"] == "open"
    assert line["value"] == 8  # OEIS A169696: 16 directed open tours of 3x4
    lines = (tmp_path / "ie-open.jsonl").read_text().splitlines()
    # 4,096 sets are one part: a header and a line (not a synced line a set)
    assert len(lines) == 2
    assert json.loads(lines[0])["parts"] == 1
    assert not (tmp_path / "ie-closed.jsonl").exists()


def test_mulmod_is_multiplication_modulo_the_prime() -> None:
    rng = random.Random(61)
    p = tc.P
    values = [0, 1, 2, p - 1, p - 2, 1 << 32, (1 << 32) - 1, 1 << 60]
    values += [rng.randrange(p) for _ in range(200)]
    for a in values:
        b = rng.choice(values)
        assert int(tc._mulmod(np.uint64(a), np.uint64(b))) == a * b % p


@pytest.mark.parametrize(
    ("shape", "topology"),
    [((3, 4), "torus"), ((3, 5), "torus"), ((4, 4), "bounded"), ((2, 3, 3), "bounded")],
)
def test_the_half_walks_sum_what_the_whole_walks_do(
    shape: tuple[int, ...], topology: str
) -> None:
    # 12, 15, 16 and 18 cells: n even and odd, so both the x . x and the
    # x . (A x) forms; every set, closed at cell 0 and open from every cell
    nbrs = tc.neighbours(shape, topology)
    n = len(nbrs)
    table = tc._walk_table(nbrs)
    whole_closed = tc._walks(table, n, 0, 0, 1 << (n - 1))
    half_closed = tc._half_walks(table, n, 0, 0, 1 << (n - 1))
    assert [int(x) for x in half_closed[:2]] == [int(x) for x in whole_closed[:2]]
    whole_open = tc._walks(table, n, -1, 0, 1 << n)
    half_open = tc._half_walks(table, n, -1, 0, 1 << n)
    assert [int(x) for x in half_open[2:]] == [int(x) for x in whole_open[2:]]


def test_the_half_walks_lanes_cut_anywhere() -> None:
    # The half walks go LANES consecutive sets at a time: a range that starts
    # or ends inside a group (a checkpoint's part, a thread's share) sums what
    # the whole walks, one set at a time, sum over it; roots at the first
    # cell and inside (the root's bit put between the others)
    nbrs = tc.neighbours((2, 3, 3), "bounded")
    n = len(nbrs)
    table = tc._walk_table(nbrs)
    rng = random.Random(16)
    for root in (-1, 0, 5):
        total = 1 << (n - 1 if root >= 0 else n)
        inner = {rng.randrange(total) for _ in range(6)}
        cuts = sorted({0, 3, 3 + tc.LANES, total, *inner})
        for lo, hi in itertools.pairwise(cuts):
            whole = tc._walks(table, n, root, lo, hi)
            half = tc._half_walks(table, n, root, lo, hi)
            sums = (0, 1) if root >= 0 else (2, 3)
            got = [int(half[i]) for i in sums]
            assert got == [int(whole[i]) for i in sums], (root, lo, hi)


@pytest.mark.parametrize(
    ("shape", "topology"),
    [
        ((3, 5), "torus"),
        ((4, 4), "bounded"),
        ((3, 4), "bounded"),
        ((2, 2, 4), "bounded"),
    ],
)
def test_layers16_is_the_count_modulo_its_prime(
    shape: tuple[int, ...], topology: str
) -> None:
    # closed and open, from every start's orbit (bounded) or from cell 0
    # times n (the torus): the residues of the tests' own DP's counts
    nbrs = tc.neighbours(shape, topology)
    board = Board(shape, topology=topology)  # type: ignore[arg-type]
    oracle_nbrs = brute_neighbours(board, (1, 2))
    want = [subset_count(oracle_nbrs, closed=c) % tc.Q16 for c in (True, False)]
    transitive = topology == "torus"
    got = tc.layers16_counts(nbrs, shape, topology, transitive=transitive)
    assert list(got) == want
    assert tc.layers16_counts(nbrs, shape, topology, want_closed=False)[1] == want[1]


def test_the_start_orbits_of_boxes_and_squares() -> None:
    # 2x4x4: the 16 symmetries that keep the box split its 32 cells into the
    # 8 cells at the corners of the 4x4 faces, the 16 at their edges and the 8
    # inside; 8x8: the 10 classes of a square's cells under its 8 symmetries
    box = tc.start_orbits((2, 4, 4), "bounded", tc.neighbours((2, 4, 4), "bounded"))
    assert sorted(size for _, size in box) == [8, 8, 16]
    square = tc.start_orbits((8, 8), "bounded", tc.neighbours((8, 8), "bounded"))
    assert len(square) == 10
    assert sum(size for _, size in square) == 64
    torus = tc.start_orbits((3, 5), "torus", tc.neighbours((3, 5), "torus"))
    assert torus == [(0, 15)]  # the translations take a cell to every cell


def test_many_moves_a_cell_keep_the_residues_exact() -> None:
    # The complete graph K_17: 16 neighbours a cell, so a sum of one cell's
    # residues modulo P (each below 2^61) passes 2^64 unless reduced as it
    # goes (a 3-D knight has up to 24 moves); the whole walks of 16 and 17
    # moves reach residues of every size. Its directed Hamiltonian paths
    # number 17!, its directed cycles through a cell 16!
    n = 17
    nbrs = [[u for u in range(n) if u != v] for v in range(n)]
    for half in (False, True):
        _, _, o64, op = tc._walk_sums(nbrs, -1, half=half)
        assert (o64, op) == (math.factorial(n) % tc.TWO64, math.factorial(n) % tc.P)
        c64, cp, _, _ = tc._walk_sums(nbrs, 0, half=half)
        cycles = math.factorial(n - 1)
        assert (c64, cp) == (cycles % tc.TWO64, cycles % tc.P)
    assert tc.ie_open(nbrs) == math.factorial(n) // 2
