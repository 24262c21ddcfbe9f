"""The certificates of the records page, checked by code written here.

A record is a value and the object that reaches it; the object is checked
here, by plain loops over coordinates that share nothing with cpknight, and by
cpknight's own checker. (That nothing better exists is each record's proof on
the records page: a frontier run, two searches.)

- The 9x9 knight snake of 40 cells (39 moves): an induced path, found and
  proved longest by ``cpknight longest 9x9 --induced --method frontier
  --memory 20000`` (1,421 s, 11.3 GB); A357500 lists 34 cells for 8x8 and has
  no 9x9 term.
- The 10x10 knight snake of 50 cells (49 moves), found by
  ``benchmarks/snake_dfs.py 10x10 --above 45 --split 3 --jobs 2``, which
  finds none longer, as ``benchmarks/snake_paths_bits.py 10x10 --above 45``
  (a bitboard search written apart) does (``docs/records.md``): A357500(10)
  would be 50.
- A closed 12x12 tour with 77 turns, the fewest (``cpknight tour 12x12 --min
  turns`` and ``benchmarks/turn_covers.py 12`` prove that none has fewer): the
  published interval was 76 to 80. Closed 14x14 and 16x16 tours with 92 and
  108, the published fewest (a 2026 CP-SAT study), found and proved by the
  same command.
- A closed 8x8 tour with 69 crossings, the fewest (``cpknight tour 8x8 --min
  crossings`` and ``benchmarks/turn_covers.py 8 --objective crossings`` prove
  that none has fewer); no exact value was published for any board.
- An induced knight cycle of 56 cells on 11x11, found by ``cpknight longest
  11x11 --induced --closed --method cpsat --time-limit 300``. With the two
  searches that find none longer (``benchmarks/snake_dfs.py`` and
  ``benchmarks/snake_cycles_bits.py``, ``docs/records.md``) it makes
  A165143(11) = 56; the table stops at n = 10 (8, 10, 16, 20, 22, 32, 40, 48
  for n = 3..10).
- Guy's 3x5 ordered knight swap in 34 moves (``cpknight swap guy3x5 --method
  bfs`` and ``benchmarks/guy_swap.py 5`` prove that none is shorter).
- A closed magic knight's tour of 8x10 (every rank and every file of visit
  numbers has the same sum). Not ours: G. P. Jelliss published (blog
  "jeepyjay", 10 March 2020) an 8x14 magic tour made from one of Guenter
  Stertenbrink's 8x10 tours by four added ranks; taking those four ranks away
  again and numbering the rest in order gives this tour
  (``docs/records.md``). It settles the question the issue called open.
- Another closed magic 8x10 tour, ours: CP-SAT found it when asked only that
  ``k`` and ``k + 40`` sit close (``docs/records.md``); it is not the
  published tour under any symmetry of the board, nor has that tour's
  quartets (``tests/test_magic_quartets.py``). And a closed magic 8x18 tour,
  found by ``cpknight tour 8x18 --magic`` (existence not new: Jelliss calls
  8x10 and 8x14 the last missing rectangles).
"""

from __future__ import annotations

import itertools

import pytest

from cpknight.board import Board
from cpknight.checks import make_tour
from cpknight.constraints import TourConstraints
from cpknight.longest.common import check_longest
from cpknight.pieces import KNIGHT
from cpknight.scores import make_scored_tour
from cpknight.swaps.drawings import named_puzzle

SNAKE_9X9 = [
    "a1",
    "b3",
    "c1",
    "a2",
    "b4",
    "a6",
    "b8",
    "d9",
    "f8",
    "h7",
    "i5",
    "h3",
    "g1",
    "i2",
    "h4",
    "i6",
    "h8",
    "f9",
    "d8",
    "b9",
    "a7",
    "b5",
    "d6",
    "e8",
    "c9",
    "a8",
    "b6",
    "a4",
    "b2",
    "d1",
    "e3",
    "f1",
    "h2",
    "i4",
    "h6",
    "g8",
    "i7",
    "h5",
    "i3",
    "h1",
]

GUY_3X5 = [
    "e1-c2",
    "b1-d2",
    "a3-b1",
    "c2-a3",
    "e3-c2",
    "d1-e3",
    "c1-e2",
    "d3-c1",
    "c1-a2",
    "b3-c1",
    "d2-b3",
    "c3-d1",
    "a2-c3",
    "c1-a2",
    "b3-c1",
    "d1-b2",
    "b1-d2",
    "d2-b3",
    "b2-d3",
    "c2-e1",
    "e3-d1",
    "d1-b2",
    "c3-d1",
    "a2-c3",
    "c3-b1",
    "e2-c3",
    "a3-c2",
    "c2-e3",
    "a1-c2",
    "b3-a1",
    "c2-a3",
    "c1-b3",
    "d3-c1",
    "b2-d3",
]


def _names(text: str) -> list[str]:
    return text.split()


TOUR_12X12 = _names(
    "a1 c2 e3 g4 i5 k6 l8 k10 l12 j11 h10 f9 d8 b7 a5 c4 b6 a8 c9 d7 e5 f3 "
    "g1 e2 d4 c6 b8 a10 b12 d11 f12 h11 i9 j7 k5 l3 k1 i2 h4 g6 f8 e10 d12 "
    "b11 a9 c10 e11 g12 f10 g8 h6 i4 j2 l1 k3 j5 i7 h9 g11 e12 d10 f11 h12 "
    "i10 j12 l11 k9 l7 j6 h5 f4 d3 e1 g2 i1 k2 l4 j3 h2 f1 d2 b1 a3 b5 d6 "
    "f7 h8 j9 l10 k12 i11 g10 e9 c8 a7 b9 a11 c12 b10 a12 c11 d9 e7 f5 g3 "
    "h1 i3 j1 l2 k4 l6 k8 j10 i12 k11 l9 j8 h7 f6 d5 b4 a6 c7 e8 g9 i8 g7 "
    "e6 c5 a4 b2 d1 f2 h3 j4 l5 k7 i6 g5 e4 c3 a2 c1 b3"
)

TOUR_14X14 = _names(
    "a1 c2 e3 g4 i5 k6 m7 n9 m11 n13 l14 j13 h12 f11 d10 b9 a7 b5 c3 d1 b2 "
    "a4 b6 a8 c9 d7 e5 f3 g1 e2 d4 c6 b8 a10 c11 d9 e7 f5 g3 h1 f2 d3 e1 g2 "
    "f4 e6 d8 c10 b12 a14 c13 d11 e9 f7 g5 h3 i1 k2 j4 i6 h8 g10 f12 e14 "
    "g13 h11 i9 j7 k5 l3 m1 n3 m5 n7 m9 n11 m13 k14 l12 m10 n8 l7 k9 j11 "
    "i13 g14 e13 c12 a11 b13 d14 e12 f10 g8 h6 i4 j2 k4 j6 i8 h10 g12 f14 "
    "h13 i11 j9 k7 l5 m3 n1 l2 j1 i3 h5 g7 f9 e11 d13 b14 a12 b10 c8 d6 e4 "
    "c5 a6 c7 e8 g9 i10 k11 m12 n14 l13 j14 k12 l10 m8 n6 m4 n2 l1 k3 j5 i7 "
    "h9 g11 f13 h14 i12 j10 k8 l6 n5 l4 j3 h2 f1 d2 b1 a3 c4 a5 b7 a9 b11 "
    "a13 c14 d12 e10 f8 g6 h4 i2 k1 m2 n4 m6 l8 k10 j12 i14 k13 m14 n12 l11 "
    "n10 l9 j8 h7 f6 d5 b4 a2 c1 b3"
)

TOUR_16X16 = _names(
    "a1 c2 d4 e6 f8 g10 h12 i14 j16 l15 k13 j11 i9 h7 g5 f3 e1 g2 h4 i6 j8 "
    "k10 l12 m14 n16 p15 o13 n11 m9 l7 k5 j3 i1 k2 m3 l1 j2 k4 l6 m8 n10 p9 "
    "o7 p5 n4 p3 o1 m2 k1 i2 g3 e4 c5 a6 b4 a2 c1 d3 e5 f7 g9 h11 i13 j15 "
    "l16 k14 j12 i10 h8 g6 f4 e2 g1 h3 i5 j7 k9 l11 m13 n15 p16 o14 m15 k16 "
    "i15 h13 g11 f9 e7 d5 c3 b1 a3 b5 c7 d9 e11 f13 g15 e16 d14 c12 a11 c10 "
    "e9 g8 i7 k6 m5 o4 p2 n1 o3 p1 n2 l3 j4 h5 f6 d7 b8 a10 b12 c14 d16 b15 "
    "a13 b11 a9 b7 a5 c4 d6 e8 f10 g12 h14 i16 k15 j13 i11 h9 g7 f5 e3 d1 "
    "b2 a4 b6 c8 d10 e12 f14 g16 e15 d13 c11 b9 a7 c6 d8 e10 f12 g14 h16 "
    "f15 e13 d11 c9 a8 b10 a12 c13 a14 b16 d15 f16 h15 j14 l13 n12 p11 o9 "
    "m10 k11 i12 g13 e14 c15 a16 b14 c16 a15 b13 d12 f11 h10 j9 l8 n7 p6 n5 "
    "l4 m6 n8 p7 o5 n3 m1 o2 p4 o6 p8 o10 p12 n13 m11 l9 k7 j5 i3 h1 f2 g4 "
    "h6 i8 j10 k12 l14 m16 o15 p13 o11 n9 m7 l5 k3 j1 l2 m4 n6 o8 p10 o12 "
    "p14 o16 n14 m12 l10 k8 j6 i4 h2 f1 d2 b3"
)

TOUR_8X8_CROSSINGS = _names(
    "a1 c2 e3 d1 f2 h1 g3 f1 h2 g4 e5 d3 b2 a4 c3 d5 e7 g8 h6 f5 h4 g6 h8 "
    "f7 d6 e8 c7 a8 b6 c8 a7 b5 d4 e6 g7 h5 f6 h7 f8 d7 c5 b7 d8 c6 b8 a6 "
    "b4 a2 c1 e2 f4 g2 e1 f3 g1 h3 g5 e4 d2 b1 a3 c4 a5 b3"
)

# in visiting order; the tour is closed (c6 to a7 is a move)
MAGIC_8X10 = _names(
    "a7 c8 d6 b5 d4 b3 a1 c2 e1 g2 f4 h3 i1 j3 i5 j7 h8 g6 e5 f7 g5 e6 f8 h7 j8 "
    "i6 j4 i2 h4 f3 g1 e2 c1 d3 b2 a4 c5 d7 b8 a6 c7 a8 b6 d5 b4 a2 c3 d1 e3 g4 "
    "f2 h1 j2 i4 j6 i8 h6 f5 e7 g8 f6 e8 g7 h5 i7 j5 i3 j1 h2 f1 g3 e4 d2 b1 a3 "
    "c4 a5 b7 d8 c6"
)

# Ours: a closed magic 8x10 tour that the quartets of the published one keep
# out (tests/test_magic_quartets.py), found by asking only that k and k + 40
# sit at cells of one colour at most two steps apart, half of each line in
# each half of the tour (CP-SAT, seed 2, one worker, 1,488 s; docs/records.md)
SHADOW_8X10 = _names(
    "i3 j1 h2 g4 i5 j7 h6 g8 e7 c8 a7 b5 d6 f5 e3 f1 d2 b1 a3 c4 b2 a4 c3 d1 f2 "
    "e4 f6 d5 b6 a8 c7 e8 g7 i8 j6 h5 j4 h3 g1 i2 g3 h1 j2 i4 g5 i6 j8 h7 f8 d7 "
    "b8 a6 c5 e6 f4 e2 d4 c2 a1 b3 c1 a2 b4 d3 e1 f3 e5 c6 a5 b7 d8 f7 h8 g6 i7 "
    "j5 h4 j3 i1 g2"
)

# Ours: a closed magic 8x18 tour (``cpknight tour 8x18 --magic --seed 1
# --time-limit 900``, the quartets' first phase, 326 s; docs/records.md)
MAGIC_8X18 = _names(
    "f1 h2 g4 e3 d1 c3 a2 b4 d5 b6 a8 c7 e6 g5 f7 h8 i6 k5 j7 l8 m6 o5 n7 p8 "
    "r7 q5 r3 q1 p3 n4 o2 m1 l3 j4 i2 k1 j3 i1 k2 l4 m2 o1 n3 p4 q2 r4 q6 r8 "
    "p7 n8 o6 m5 l7 j8 k6 i5 h7 f8 g6 e5 d7 b8 a6 c5 a4 b2 d3 c1 e2 g1 h3 f4 "
    "g2 h4 f3 e1 c2 a1 b3 d4 b5 a7 c8 d6 e8 f6 h5 g7 i8 k7 j5 l6 n5 m7 o8 p6 "
    "q8 r6 q4 r2 p1 n2 o4 m3 l1 k3 i4 j2 k4 i3 j1 l2 m4 o3 n1 p2 r1 q3 r5 q7 "
    "p5 o7 m8 n6 l5 j6 k8 i7 g8 h6 f5 e7 c6 d8 b7 a5 c4 a3 b1 d2 e4 f2 h1 g3"
)


def _cell(name: str) -> tuple[int, int]:
    """``b3`` -> (file 1, rank 2), by hand."""
    return "abcdefghijklmnopqrstuvwxyz".index(name[0]), int(name[1:]) - 1


def _leap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


SNAKE_10X10 = [
    "a1",
    "c2",
    "a3",
    "b1",
    "d2",
    "f1",
    "h2",
    "j3",
    "i1",
    "g2",
    "i3",
    "h1",
    "f2",
    "d1",
    "b2",
    "a4",
    "b6",
    "a8",
    "b10",
    "d9",
    "f10",
    "h9",
    "i7",
    "g6",
    "e5",
    "c6",
    "a7",
    "b9",
    "d10",
    "f9",
    "h10",
    "i8",
    "h6",
    "f5",
    "d6",
    "b7",
    "a9",
    "c10",
    "e9",
    "g10",
    "i9",
    "h7",
    "g5",
    "i6",
    "j4",
    "i2",
    "g1",
    "e2",
    "c1",
    "a2",
]


def _assert_induced(names: list[str], n: int, size: int, closed: bool) -> None:
    """``names`` are ``size`` cells of n x n, a move apart only where they follow
    each other (and, ``closed``, the last and the first)."""
    cells = [_cell(name) for name in names]
    assert len(cells) == len(set(cells)) == size
    assert all(0 <= f < n and 0 <= r < n for f, r in cells)
    for i, a in enumerate(cells):
        for j in range(i + 1, len(cells)):
            follow = j == i + 1 or (closed and (i, j) == (0, len(cells) - 1))
            assert _leap(a, cells[j]) == follow, (names[i], names[j])


def _closed_tour(names: list[str], files: int, ranks: int) -> list[tuple[int, int]]:
    """The cells of a closed knight's tour of every cell of files x ranks."""
    cells = [_cell(name) for name in names]
    assert len(cells) == len(set(cells)) == files * ranks
    assert all(0 <= f < files and 0 <= r < ranks for f, r in cells)
    assert all(_leap(a, b) for a, b in zip(cells, cells[1:] + cells[:1], strict=True))
    return cells


@pytest.mark.parametrize(
    ("names", "n", "cells"),
    [(SNAKE_9X9, 9, 40), (SNAKE_10X10, 10, 50)],
    ids=["9x9-40-cells", "10x10-50-cells"],
)
def test_the_snakes_are_induced_paths(names: list[str], n: int, cells: int) -> None:
    _assert_induced(names, n, cells, closed=False)
    board = Board((n, n))
    check_longest(
        board,
        [board.parse_cell(name) for name in names],
        kind="induced",
        closed=False,
        piece=KNIGHT,
    )


CYCLE_11X11 = [
    "c1",
    "e2",
    "g1",
    "i2",
    "k3",
    "j5",
    "h6",
    "j7",
    "i9",
    "h11",
    "f10",
    "d11",
    "b10",
    "a8",
    "b6",
    "a4",
    "b2",
    "d1",
    "f2",
    "h1",
    "j2",
    "k4",
    "j6",
    "h5",
    "g7",
    "i6",
    "j8",
    "i10",
    "k11",
    "j9",
    "h10",
    "f11",
    "d10",
    "b9",
    "c11",
    "e10",
    "f8",
    "g6",
    "e5",
    "c6",
    "b8",
    "c10",
    "a9",
    "b7",
    "d6",
    "b5",
    "a3",
    "c2",
    "e1",
    "g2",
    "i1",
    "j3",
    "h2",
    "f1",
    "d2",
    "b3",
]


def test_the_11x11_cycle_is_an_induced_cycle_of_56_cells() -> None:
    _assert_induced(CYCLE_11X11, 11, 56, closed=True)
    board = Board((11, 11))
    check_longest(
        board,
        [board.parse_cell(name) for name in CYCLE_11X11],
        kind="induced",
        closed=True,
        piece=KNIGHT,
    )


def test_guys_3x5_swap_in_34_moves() -> None:
    _, start, goal, _ = named_puzzle("guy3x5")
    board = Board((3, 5))
    where = {letter: board.cell_name(cell) for letter, (cell,) in start}
    wanted = {letter: board.cell_name(cell) for letter, (cell,) in goal}
    at = {name: letter for letter, name in where.items()}  # cell -> knight
    assert len(GUY_3X5) == 34
    for move in GUY_3X5:
        a, b = move.split("-")
        assert a in at, move  # a knight stands there
        assert b not in at, move  # onto an empty cell
        assert _leap(_cell(a), _cell(b)), move
        at[b] = at.pop(a)
    assert {letter: name for name, letter in at.items()} == wanted
    # every capital is where its small letter began, and the other way round
    assert all(wanted[k] == where[k.swapcase()] for k in where)


@pytest.mark.parametrize(
    ("tour", "side", "fewest"),
    [(TOUR_12X12, 12, 77), (TOUR_14X14, 14, 92), (TOUR_16X16, 16, 108)],
)
def test_closed_tours_with_the_fewest_turns(
    tour: list[str], side: int, fewest: int
) -> None:
    cells = _closed_tour(tour, side, side)
    steps = [
        (b[0] - a[0], b[1] - a[1])
        for a, b in zip(cells, cells[1:] + cells[:1], strict=True)
    ]
    # a turn: a cell the tour leaves in another direction than it came in
    turns = sum(1 for i in range(len(steps)) if steps[i] != steps[i - 1])
    assert turns == fewest
    board = Board((side, side))
    scored = make_scored_tour(
        board,
        KNIGHT,
        [board.parse_cell(name) for name in tour],
        closed=True,
        method="cpsat",
        objective="turns",
        claimed=fewest,
        lower=fewest,
        optimal=True,
    )
    assert scored.value == fewest


def _crossings(cells: list[tuple[int, int]]) -> int:
    """Pairs of drawn moves that cross, by orientation signs (integers only).

    A knight's move holds no lattice point inside it, and two moves from one
    cell never overlap, so two moves meet only by crossing properly.
    """

    def side(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        turn = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (turn > 0) - (turn < 0)

    moves = list(zip(cells, cells[1:] + cells[:1], strict=True))
    count = 0
    for i, (a, b) in enumerate(moves):
        for c, d in moves[i + 1 :]:
            if len({a, b, c, d}) == 4 and (
                side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0
            ):
                count += 1
    return count


def test_a_closed_8x8_tour_with_69_crossings() -> None:
    # the fewest: cpknight's loop and benchmarks/turn_covers.py on SCIP both
    # prove that none has fewer (the best tour known before had 73)
    cells = _closed_tour(TOUR_8X8_CROSSINGS, 8, 8)
    assert _crossings(cells) == 69
    board = Board((8, 8))
    scored = make_scored_tour(
        board,
        KNIGHT,
        [board.parse_cell(name) for name in TOUR_8X8_CROSSINGS],
        closed=True,
        method="cpsat",
        objective="crossings",
        claimed=69,
        lower=69,
        optimal=True,
    )
    assert scored.value == 69


@pytest.mark.parametrize(
    ("names", "files", "rank_sum", "file_sum"),
    [
        (MAGIC_8X10, 10, 405, 324),
        (SHADOW_8X10, 10, 405, 324),
        (MAGIC_8X18, 18, 1305, 580),
    ],
    ids=["8x10-published", "8x10-ours", "8x18-ours"],
)
def test_a_closed_magic_tour_of_8_ranks(
    names: list[str], files: int, rank_sum: int, file_sum: int
) -> None:
    cells = _closed_tour(names, files, 8)
    number = {cell: k for k, cell in enumerate(cells, start=1)}
    # 1 + ... + 8f = 4f(8f + 1): each of the 8 ranks holds an eighth, each
    # of the f files an f-th (8x10: 3240, 405 and 324)
    total = 4 * files * (8 * files + 1)
    assert rank_sum * 8 == file_sum * files == total
    for rank in range(8):
        assert sum(number[f, rank] for f in range(files)) == rank_sum, rank
    for file in range(files):
        assert sum(number[file, r] for r in range(8)) == file_sum, file
    board = Board((8, files))
    tour = make_tour(
        board,
        KNIGHT,
        [board.parse_cell(name) for name in names],
        closed=True,
        method="certificate",
        constraints=TourConstraints(magic=True),
    )
    assert len(tour.cells) == 8 * files


def test_our_8x10_magic_tour_is_not_the_published_one() -> None:
    # As cycles (a closed tour read from any cell, either way), under the
    # four symmetries of the 8x10 rectangle.
    def moves(cells: list[tuple[int, int]]) -> set[frozenset[tuple[int, int]]]:
        return {frozenset(p) for p in zip(cells, cells[1:] + cells[:1], strict=True)}

    ours = moves(_closed_tour(SHADOW_8X10, 10, 8))
    published = _closed_tour(MAGIC_8X10, 10, 8)
    for flip_files, flip_ranks in itertools.product((False, True), repeat=2):
        image = [
            (9 - f if flip_files else f, 7 - r if flip_ranks else r)
            for f, r in published
        ]
        assert moves(image) != ours


# The 8x14 magic tour as Jelliss's blog prints it (10 March 2020): fourteen
# lines of eight numbers, each the visit number modulo 100 (the blog underlines
# those over 100, which plain text loses).
JELLISS_8X14 = """
07 62 07 52 09 56 01 58
06 51 06 61 04 59 10 55
49 08 63 08 53 12 57 02
64 05 50 05 60 03 54 11
09 48 65 04 27 30 83 86
02 67 46 11 82 85 28 31
47 10 03 66 29 26 87 84
68 01 12 45 88 81 32 25
13 44 99 70 23 34 89 80
00 69 14 43 90 79 24 33
41 16 71 98 35 22 77 92
72 97 42 15 78 91 36 21
17 40 95 74 19 38 93 76
96 73 18 39 94 75 20 37
"""


def test_the_8x10_magic_tour_is_the_published_8x14_less_four_lines() -> None:
    grid = [[int(t) for t in line.split()] for line in JELLISS_8X14.split("\n") if line]
    places: dict[int, list[tuple[int, int]]] = {}
    for i, line in enumerate(grid):
        for j, shown in enumerate(line):
            places.setdefault(shown, []).append((i, j))
    twice = sorted(shown for shown, at in places.items() if len(at) == 2)
    assert twice == list(range(1, 13))  # 1..12 and 101..112; 100 shows as 00
    readings = []
    for low_first in itertools.product((True, False), repeat=len(twice)):
        where = {shown: at[0] for shown, at in places.items() if len(at) == 1}
        where[100] = where.pop(0)
        for shown, first in zip(twice, low_first, strict=True):
            a, b = places[shown]
            where[shown], where[shown + 100] = (a, b) if first else (b, a)
        path = [where[k] for k in range(1, 113)]
        if all(_leap(a, b) for a, b in zip(path, path[1:] + path[:1], strict=True)):
            readings.append(path)
    assert len(readings) == 1  # one reading makes a closed knight's tour
    # the last four lines were added: without them, the lines are the files
    # a..j and the columns the ranks 1..8
    kept = [(i, j) for i, j in readings[0] if i < 10]
    assert [f"{'abcdefghij'[i]}{j + 1}" for i, j in kept] == MAGIC_8X10
