"""The certificates of the records page, checked by code written here.

A record is a value and the object that reaches it; the object is checked
here, by plain loops over coordinates that share nothing with cpknight, and by
cpknight's own checker. (That nothing better exists is each record's proof on
the records page: a frontier run, two searches.)

- The 9x9 knight snake of 40 cells (39 moves): an induced path, found and
  proved longest by ``cpknight longest 9x9 --induced --method frontier
  --memory 20000`` (1,421 s, 11.3 GB); A357500 lists 34 cells for 8x8 and has
  no 9x9 term.
- A closed 12x12 tour with 78 turns (``cpknight tour 12x12 --min turns``, 600
  s): the published interval for the fewest was 76 to 80.
- Guy's 3x5 ordered knight swap in 34 moves (``cpknight swap guy3x5 --method
  bfs`` and ``benchmarks/guy_swap.py 5`` prove that none is shorter).
"""

from __future__ import annotations

from cpknight.board import Board
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


TOUR_12X12 = [
    "a1",
    "b3",
    "a5",
    "b7",
    "c9",
    "a10",
    "b12",
    "d11",
    "f12",
    "e10",
    "d8",
    "c6",
    "b4",
    "a2",
    "c1",
    "e2",
    "g1",
    "i2",
    "k1",
    "l3",
    "k5",
    "i4",
    "g3",
    "h1",
    "j2",
    "l1",
    "k3",
    "l5",
    "j4",
    "h3",
    "f2",
    "d1",
    "b2",
    "a4",
    "c5",
    "e6",
    "g7",
    "i8",
    "k9",
    "l7",
    "j6",
    "h5",
    "f4",
    "d3",
    "e1",
    "f3",
    "g5",
    "h7",
    "i9",
    "j11",
    "l12",
    "k10",
    "j8",
    "i6",
    "h4",
    "g2",
    "i1",
    "k2",
    "l4",
    "j3",
    "h2",
    "f1",
    "d2",
    "e4",
    "f6",
    "g8",
    "h10",
    "i12",
    "g11",
    "f9",
    "e7",
    "d5",
    "c3",
    "b1",
    "a3",
    "c4",
    "e5",
    "g6",
    "i7",
    "k8",
    "l6",
    "k4",
    "l2",
    "j1",
    "i3",
    "j5",
    "k7",
    "l9",
    "k11",
    "i10",
    "g9",
    "e8",
    "c7",
    "a6",
    "b8",
    "d9",
    "f10",
    "h11",
    "j12",
    "l11",
    "j10",
    "h9",
    "f8",
    "d7",
    "b6",
    "a8",
    "b10",
    "a12",
    "c11",
    "e12",
    "d10",
    "c12",
    "a11",
    "b9",
    "a7",
    "c8",
    "e9",
    "g10",
    "h12",
    "f11",
    "d12",
    "b11",
    "a9",
    "c10",
    "e11",
    "g12",
    "i11",
    "k12",
    "l10",
    "j9",
    "h8",
    "f7",
    "d6",
    "b5",
    "d4",
    "f5",
    "h6",
    "j7",
    "l8",
    "k6",
    "i5",
    "g4",
    "e3",
    "c2",
]


def _cell(name: str) -> tuple[int, int]:
    """``b3`` -> (file 1, rank 2), by hand."""
    return "abcdefghijkl".index(name[0]), int(name[1:]) - 1


def _leap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def test_the_9x9_snake_is_an_induced_path_of_40_cells() -> None:
    cells = [_cell(name) for name in SNAKE_9X9]
    assert len(cells) == len(set(cells)) == 40
    assert all(0 <= f < 9 and 0 <= r < 9 for f, r in cells)
    for i, a in enumerate(cells):
        for j in range(i + 1, len(cells)):
            # a move joins two cells of a snake only where they follow each other
            assert _leap(a, cells[j]) == (j == i + 1), (SNAKE_9X9[i], SNAKE_9X9[j])
    board = Board((9, 9))
    check_longest(
        board,
        [board.parse_cell(name) for name in SNAKE_9X9],
        kind="induced",
        closed=False,
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


def test_a_closed_12x12_tour_with_78_turns() -> None:
    cells = [_cell(name) for name in TOUR_12X12]
    assert len(cells) == len(set(cells)) == 144
    assert all(0 <= f < 12 and 0 <= r < 12 for f, r in cells)
    steps = [
        (b[0] - a[0], b[1] - a[1])
        for a, b in zip(cells, cells[1:] + cells[:1], strict=True)
    ]
    assert all(sorted(map(abs, step)) == [1, 2] for step in steps)  # closed too
    # a turn: a cell the tour leaves in another direction than it came in
    turns = sum(1 for i in range(len(steps)) if steps[i] != steps[i - 1])
    assert turns == 78
    board = Board((12, 12))
    scored = make_scored_tour(
        board,
        KNIGHT,
        [board.parse_cell(name) for name in TOUR_12X12],
        closed=True,
        method="cpsat",
        objective="turns",
        claimed=78,
        lower=72,
        optimal=False,
    )
    assert scored.value == 78
