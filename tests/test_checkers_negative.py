"""Near misses: for every rule a checker enforces, an answer that breaks only it.

A checker that accepts a wrong answer lets a wrong engine through, so each one
is held here to answers that are right in every way but one: a repeated cell,
one illegal step, a closing move that is not a move, a wrong visit number, a
required move unused, a tour that is not its own mirror image, a rank off the
magic sum, an induced path whose two ends are one move apart, and moves that
cross, for every shape of leaper (segments along a rank or file too). The
verdicts are compared with the tests' own definitions (``tests/conftest.py``
and the plain geometry below), not with cpknight's code.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from cpknight import Board, check_tour
from cpknight.board import Cell
from cpknight.constraints import TourConstraints, check_constraints, symmetry_map
from cpknight.errors import TourCheckError
from cpknight.longest.common import check_longest
from cpknight.longest.geometry import crossing_pairs, move_edges
from cpknight.pieces import as_piece, move_graph
from cpknight.tiling.join import next_cuts
from tests.conftest import brute_neighbours, is_leap, knight_tour_by_search

# ------------------------------------------------------------------ tours


@pytest.fixture(scope="module")
def closed6() -> list[Cell]:
    return knight_tour_by_search(Board((6, 6)), closed=True)


@pytest.fixture(scope="module")
def open5() -> list[Cell]:
    return knight_tour_by_search(Board((5, 5)), closed=False, start=(0, 0))


def test_the_near_misses_start_from_answers_the_checker_accepts(
    closed6: list[Cell], open5: list[Cell]
) -> None:
    check_tour(Board((6, 6)), closed6, closed=True)
    check_tour(Board((5, 5)), open5, closed=False)


def _swap_to_break_a_step(tour: list[Cell], closed: bool) -> list[Cell]:
    """The tour with two cells exchanged so that some step is no leap."""
    board = Board((6, 6)) if len(tour) == 36 else Board((5, 5))
    for i, j in itertools.combinations(range(1, len(tour) - 1), 2):
        bad = list(tour)
        bad[i], bad[j] = bad[j], bad[i]
        steps = list(itertools.pairwise(bad)) + ([(bad[-1], bad[0])] if closed else [])
        if not all(is_leap(board, (1, 2), a, b) for a, b in steps):
            return bad
    raise AssertionError("no swap breaks a step")


@pytest.mark.parametrize(
    "fault",
    ["repeat", "missing", "step", "blocked", "off-board", "coordinates", "closing"],
)
def test_check_tour_refuses_each_near_miss(
    closed6: list[Cell], open5: list[Cell], fault: str
) -> None:
    board, tour, closed = Board((6, 6)), list(closed6), True
    if fault == "repeat":
        tour[10] = tour[8]
    elif fault == "missing":
        tour = tour[:-1]
    elif fault == "step":
        tour = _swap_to_break_a_step(tour, closed)
    elif fault == "blocked":
        board = Board((6, 6), [tour[17]])  # the tour walks onto a blocked cell
    elif fault == "off-board":
        tour[5] = (6, 0)
    elif fault == "coordinates":
        tour[5] = (*tour[5], 0)
    elif fault == "closing":
        board, tour = Board((5, 5)), list(open5)  # a good open tour, called closed
        assert not is_leap(board, (1, 2), tour[-1], tour[0])
    with pytest.raises(TourCheckError):
        check_tour(board, tour, closed=closed)


# ------------------------------------------------------------ constraints


def _constraints(**fields: object) -> TourConstraints:
    return TourConstraints(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("only", ["via", "require", "forbid", "symmetric", "magic"])
def test_each_constraint_alone_is_checked(closed6: list[Cell], only: str) -> None:
    """Each constraint given alone (the checker once skipped ``symmetric``)."""
    board = Board((6, 6))
    tour = closed6
    used = {frozenset(p) for p in itertools.pairwise([*tour, tour[0]])}
    unused = next(
        (a, b)
        for a in sorted(brute_neighbours(board, (1, 2)))
        for b in sorted(brute_neighbours(board, (1, 2))[a])
        if frozenset((a, b)) not in used
    )
    if only == "via":
        broken = _constraints(via=((tour[4], 6),))  # the 5th cell, said to be 6th
        kept = _constraints(via=((tour[4], 5),))
    elif only == "require":
        broken = _constraints(require=(unused,))
        kept = _constraints(require=((tour[0], tour[1]),))
    elif only == "forbid":
        broken = _constraints(forbid=((tour[3], tour[4]),))
        kept = _constraints(forbid=(unused,))
    elif only == "symmetric":
        turn = symmetry_map(board, "rot180")
        assert {frozenset(map(turn, e)) for e in used} != used  # not symmetric
        broken = _constraints(symmetric="rot180")
        kept = None
    else:
        sums = {sum(k + 1 for k, c in enumerate(tour) if c[0] == r) for r in range(6)}
        assert len(sums) > 1  # not magic: the ranks differ
        broken = _constraints(magic=True)
        kept = None
    with pytest.raises(TourCheckError):
        check_constraints(board, tour, broken, closed=True)
    if kept is not None:
        check_constraints(board, tour, kept, closed=True)


def test_a_symmetric_tour_passes_and_its_near_miss_does_not() -> None:
    """A rot180-symmetric closed tour of 3x4 is impossible; build one on 6x6."""
    from cpknight import find_tour, tour_constraints

    board = Board((6, 6))
    side = tour_constraints(board, symmetric="rot180")
    tour = [tuple(c) for c in find_tour(board, constraints=side, time_limit=30).cells]
    turn = symmetry_map(board, "rot180")
    edges = {frozenset(p) for p in itertools.pairwise([*tour, tour[0]])}
    assert {frozenset(map(turn, e)) for e in edges} == edges  # its own image
    check_constraints(board, tour, side, closed=True)
    # reverse one stretch of it (a 2-opt move) where that keeps a tour
    for i, j in itertools.combinations(range(1, 35), 2):
        bad = tour[:i] + tour[i:j][::-1] + tour[j:]
        steps = itertools.pairwise([*bad, bad[0]])
        if not all(is_leap(board, (1, 2), a, b) for a, b in steps):
            continue
        bad_edges = {frozenset(p) for p in itertools.pairwise([*bad, bad[0]])}
        if {frozenset(map(turn, e)) for e in bad_edges} != bad_edges:
            check_tour(board, bad, closed=True)
            with pytest.raises(TourCheckError, match=r"symmetric|image|rot180"):
                check_constraints(board, bad, side, closed=True)
            return
    pytest.fail("no 2-opt neighbour of the symmetric tour is a tour")


# --------------------------------------------------------- longest paths

LEAPERS = [(1, 2), (0, 2), (0, 1), (1, 1), (1, 3), (2, 3), (0, 3), (2, 2)]


def _cross(o: Sequence[int], a: Sequence[int], b: Sequence[Fraction | int]) -> Any:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on(p: Sequence[int], a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether lattice point ``p`` lies on segment ab (ends included)."""
    return _cross(a, b, p) == 0 and (
        min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def segments_meet_elsewhere(a: Cell, b: Cell, c: Cell, d: Cell) -> bool:
    """Whether segments ab and cd share a point that is not an end of both.

    Orientation tests (integers) for a proper crossing, then the touching
    cases: an end of one on the other, and collinear overlaps measured along
    the line: a different method from the checker's exact line solving.
    """
    o1, o2 = _cross(a, b, c), _cross(a, b, d)
    o3, o4 = _cross(c, d, a), _cross(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    if o1 == o2 == 0:  # collinear: overlap longer than a point?
        axis = 0 if a[0] != b[0] else 1
        lo = max(min(a[axis], b[axis]), min(c[axis], d[axis]))
        hi = min(max(a[axis], b[axis]), max(c[axis], d[axis]))
        if hi > lo:
            return True
        if hi < lo:
            return False
    shared = {a, b} & {c, d}
    touching = [p for p in (c, d) if _on(p, a, b)] + [p for p in (a, b) if _on(p, c, d)]
    return any(p not in shared for p in touching)


def brute_uncrossed(path: Sequence[Cell]) -> bool:
    moves = list(itertools.pairwise(path))
    return not any(
        segments_meet_elsewhere(*moves[i], *moves[j])
        for i, j in itertools.combinations(range(len(moves)), 2)
    )


def brute_induced(board: Board, vector: Sequence[int], path: Sequence[Cell]) -> bool:
    n = len(path)
    return not any(
        is_leap(board, vector, path[i], path[j])
        for i, j in itertools.combinations(range(n), 2)
        if j != i + 1
    )


def _simple_paths(board: Board, vector: Sequence[int], cells: int) -> list[list[Cell]]:
    nbrs = brute_neighbours(board, vector)
    found: list[list[Cell]] = []

    def grow(path: list[Cell]) -> None:
        if len(path) == cells:
            found.append(list(path))
            return
        for nxt in sorted(nbrs[path[-1]]):
            if nxt not in path:
                path.append(nxt)
                grow(path)
                path.pop()

    for first in sorted(nbrs):
        grow([first])
    return found


def _verdict(
    board: Board, path: Sequence[Cell], kind: str, vector: Sequence[int]
) -> bool:
    try:
        check_longest(board, list(path), kind=kind, closed=False, piece=vector)
    except TourCheckError:
        return False
    return True


CAN_CROSS = {(1, 2), (1, 3), (2, 3)}
"""Leapers whose short paths on 5x5 cross (the sample holds crossings to catch).

The others cannot: (1,1) and (2,2) keep the colour (a crossing X needs both),
(0,1) and (0,2) draw grid lines, and (0,3) has too few moves on 5x5 (its own
test below builds a crossing on 4x4)."""


@pytest.mark.parametrize("vector", LEAPERS, ids=lambda v: f"{v[0]},{v[1]}")
def test_uncrossed_checker_equals_plain_geometry(vector: tuple[int, int]) -> None:
    """Paths of four moves on 5x5: every crossing found, no false alarm."""
    board = Board((5, 5))
    paths = _simple_paths(board, vector, 5)
    rng = random.Random(sum(vector))
    sample = paths if len(paths) <= 600 else rng.sample(paths, 600)
    crossed = 0
    for path in sample:
        want = brute_uncrossed(path)
        crossed += not want
        assert _verdict(board, path, "uncrossed", vector) == want, path
    assert (crossed > 0) == (vector in CAN_CROSS)


def test_a_file_move_ending_inside_a_rank_move_is_a_crossing() -> None:
    """The (0,3) leaper: a1-d1 along rank 1, then b4-b1 ends inside it (at b1)."""
    board = Board((4, 4))
    path = [(0, 0), (0, 3), (3, 3), (3, 0), (3, 1)][:4]
    assert _verdict(board, path, "uncrossed", (0, 3))  # a1 d1 d4 a4: a U
    path = [(3, 0), (0, 0), (0, 3), (3, 3), (3, 2), (0, 2)]  # ... c4-c1 meets a1-d1
    assert is_leap(board, (0, 3), (3, 2), (0, 2))
    assert not brute_uncrossed(path)
    assert not _verdict(board, path, "uncrossed", (0, 3))


@pytest.mark.parametrize("vector", [(1, 2), (0, 1), (1, 1)])
def test_induced_checker_equals_plain_definition(vector: tuple[int, int]) -> None:
    """Open paths of 4 and 5 cells on 4x4: every chord found, end to end too."""
    board = Board((4, 4))
    end_chords = 0
    for size in (4, 5):
        for path in _simple_paths(board, vector, size):
            want = brute_induced(board, vector, path)
            end_chords += is_leap(board, vector, path[0], path[-1])
            assert _verdict(board, path, "induced", vector) == want, path
    assert end_chords > 0  # open paths whose two ends are one move apart


def test_the_3x3_ring_is_an_induced_cycle_but_not_an_induced_open_path() -> None:
    """Cut open, the knight's 8-cell ring of 3x3 has its ends one move apart."""
    board = Board((3, 3))
    ring = [(0, 0), (2, 1), (0, 2), (1, 0), (2, 2), (0, 1), (2, 0), (1, 2)]
    assert is_leap(board, (1, 2), ring[0], ring[-1])
    check_longest(board, ring, kind="induced", closed=True)
    with pytest.raises(TourCheckError, match="not consecutive"):
        check_longest(board, ring, kind="induced", closed=False)


def test_crossing_points_with_fractions_are_found() -> None:
    """a1-d2 and c1-b2 (the (1,3) and (1,1) shapes) meet at (1/2, 3/2)."""
    a, b, c, d = (0, 0), (1, 3), (0, 2), (1, 1)
    assert segments_meet_elsewhere(a, b, c, d)
    t = Fraction(1, 2)
    assert (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])) == (t, Fraction(3, 2))
    assert _cross(c, d, (t, Fraction(3, 2))) == 0  # on cd too


@pytest.mark.parametrize("vector", LEAPERS, ids=lambda v: f"{v[0]},{v[1]}")
def test_the_models_crossing_pairs_equal_plain_geometry(
    vector: tuple[int, int],
) -> None:
    """Every pair of moves on 5x6 (moves along ranks and files included)."""
    graph = move_graph(Board((5, 6)), as_piece(vector))
    edges = move_edges(graph)
    found = set(crossing_pairs(graph, edges))
    cells = [graph.cell(v) for v in range(graph.n_nodes)]
    want = {
        (i, j)
        for i, j in itertools.combinations(range(len(edges)), 2)
        if segments_meet_elsewhere(
            cells[edges[i][0]],
            cells[edges[i][1]],
            cells[edges[j][0]],
            cells[edges[j][1]],
        )
    }
    assert found == want


# ------------------------------------------------------ the tiles' joins


def brute_next_cuts(
    cuts: list[tuple[int, int]], entries: list[tuple[int, int]]
) -> list[tuple[bool, int, int]]:
    """For each entry (tile, pos): the first cut of its tile at or after pos,
    else (wrapping) the tile's first cut; with the cut's index."""
    out = []
    for tile, pos in entries:
        mine = sorted((p, k) for k, (t, p) in enumerate(cuts) if t == tile)
        after = [(p, k) for p, k in mine if p >= pos]
        p, k = (after or mine)[0]
        out.append((bool(after), p, k))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_next_cuts_equals_a_plain_scan(seed: int) -> None:
    """Entries past the last cut of their tile wrap, the last tile's too."""
    rng = random.Random(seed)
    tiles, length = rng.randint(1, 4), 12
    positions = {t: rng.sample(range(length), rng.randint(1, 4)) for t in range(tiles)}
    cuts = [(t, p) for t in range(tiles) for p in positions[t]]
    rng.shuffle(cuts)
    entries = [(rng.randrange(tiles), rng.randrange(length)) for _ in range(40)]
    last = max(range(tiles))
    entries.append((last, max(positions[last]) + 1))  # past the end of everything
    same, stop, cut = next_cuts(
        np.array([t for t, _ in cuts]),
        np.array([p for _, p in cuts]),
        np.array([t for t, _ in entries]),
        np.array([p for _, p in entries]),
        length + 1,
    )
    want = brute_next_cuts(cuts, entries)
    got = list(zip(same.tolist(), stop.tolist(), cut.tolist(), strict=True))
    assert got == want


def test_forbidden_and_required_moves_are_checked_beside_visit_numbers(
    closed6: list[Cell],
) -> None:
    """With a visit number the checker reads the sequence: moves checked there too."""
    board, tour = Board((6, 6)), closed6
    via = ((tour[4], 5),)  # honoured
    with pytest.raises(TourCheckError, match="forbidden"):
        check_constraints(
            board,
            tour,
            _constraints(via=via, forbid=((tour[3], tour[4]),)),
            closed=True,
        )
    used = {frozenset(p) for p in itertools.pairwise([*tour, tour[0]])}
    nbrs = brute_neighbours(board, (1, 2))
    unused = next(
        (a, b)
        for a in sorted(nbrs)
        for b in sorted(nbrs[a])
        if frozenset((a, b)) not in used
    )
    with pytest.raises(TourCheckError, match="required"):
        check_constraints(
            board, tour, _constraints(via=via, require=(unused,)), closed=True
        )


@pytest.mark.parametrize("shape", [(3, 8), (8, 3)])
def test_magic_checks_files_as_well_as_ranks(shape: tuple[int, int]) -> None:
    """A 3 x 8 open tour whose ranks share a sum (its files cannot: 300 / 8 is no
    integer) is not magic; turned on its side, the ranks are the ones that differ."""
    from cpknight import iter_tours

    def line_sums(cells: list[Cell], axis: int) -> set[int]:
        order = np.zeros(shape, dtype=np.int64)
        for k, cell in enumerate(cells):
            order[cell] = k + 1
        return set(order.sum(axis=axis).tolist())

    lines = 1 if shape == (3, 8) else 0  # the axis whose sums agree
    for tour in iter_tours(f"{shape[0]}x{shape[1]}", closed=False, time_limit=60):
        cells = [tuple(int(x) for x in c) for c in tour.cells]
        if len(line_sums(cells, lines)) == 1:
            assert len(line_sums(cells, 1 - lines)) > 1
            with pytest.raises(TourCheckError, match="file" if lines else "rank"):
                check_constraints(
                    Board(shape), cells, _constraints(magic=True), closed=False
                )
            return
    pytest.fail("no open tour with one direction magic")
