"""benchmarks/turn_covers.py: the fewest turns by cycle covers, SCIP or CP-SAT.

Expected numbers: the minimum over every closed tour listed by the brute force
of ``tests/test_tour_objectives.py`` (plain loops over coordinates), computed
in the test; 8x8's 45 (a 2026 CP-SAT study, which cpknight's circuit model
reproduces in ``tests/test_tour_objectives.py``'s benchmark); and Schwenk's
theorem (1991) for boards with no closed tour at all (3 x 4; and any board of
an odd number of cells, since a closed tour alternates the two colours).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.conftest import load_script
from tests.test_tour_objectives import all_tours, crossings_by_hand, turns_by_hand

turn_covers = load_script("turn_covers")


@pytest.mark.parametrize("solver", ["scip", "cpsat"])
@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (3, 10), (6, 5)])
def test_rectangles_equal_the_brute_force(
    rows: int, cols: int, solver: str, capsys: pytest.CaptureFixture[str]
) -> None:
    want = min(turns_by_hand(t, True) for t in all_tours(rows, cols, closed=True))
    assert turn_covers.main([f"{rows}x{cols}", "--solver", solver]) == 0
    out = capsys.readouterr().out
    said = f"fewest turns of a closed {rows}x{cols} tour: {want}, proved by {solver}"
    assert said in out
    names = out.split("\ntour: ")[1].split()
    cells = [(int(x[1:]) - 1, ord(x[0]) - 97) for x in names]
    assert turns_by_hand(cells, True) == want  # the printed tour, recounted here


@pytest.mark.parametrize("solver", ["scip", "cpsat"])
def test_8x8_takes_45(solver: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert turn_covers.main(["8", "--solver", solver]) == 0
    assert "closed 8x8 tour: 45" in capsys.readouterr().out


@pytest.mark.parametrize("board", ["5x5", "3x4", "3x7"])
def test_boards_without_a_closed_tour(
    board: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert turn_covers.main([board, "--solver", "scip"]) == 0
    assert f"no closed {board} tour" in capsys.readouterr().out


def test_the_limit_reports_a_bound_not_a_tour(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert turn_covers.main(["10", "--solver", "cpsat", "--time-limit", "0.05"]) == 1
    out = capsys.readouterr().out
    assert "not proved by the limit: at least" in out
    bound = int(out.split("at least ")[1].split()[0])
    assert bound <= 62  # 10x10 takes 62 (the 2026 CP-SAT study)


def test_the_recount_refuses_what_is_not_a_tour() -> None:
    # 3x4 numbered rank * 4 + file: a1 b3 ... is not a closed tour of every cell
    with pytest.raises(AssertionError, match="every cell"):
        turn_covers.turns_of(3, 4, [0, 9, 2])
    with pytest.raises(AssertionError, match="knight"):
        turn_covers.turns_of(1, 2, [0, 1])


def test_bad_input_gets_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["2x9"], ["twelve"], ["8", "--time-limit", "0"]):
        assert turn_covers.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3
    assert all(line.startswith("turn_covers.py: ") for line in err)


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (3, 10)])
def test_crossings_equal_the_brute_force(
    rows: int, cols: int, capsys: pytest.CaptureFixture[str]
) -> None:
    tours = all_tours(rows, cols, closed=True)
    want = min(crossings_by_hand(t, True) for t in tours)
    argv = [f"{rows}x{cols}", "--objective", "crossings", "--solver", "cpsat"]
    assert turn_covers.main(argv) == 0
    out = capsys.readouterr().out
    assert f"fewest crossings of a closed {rows}x{cols} tour: {want}," in out
    names = out.split("\ntour: ")[1].split()
    cells = [(int(x[1:]) - 1, ord(x[0]) - 97) for x in names]
    assert crossings_by_hand(cells, True) == want


def test_the_crossing_pairs_equal_a_parametric_test() -> None:
    # every pair of 5x6 moves: the script's orientation signs against the
    # segments' parameters, solved exactly here
    edges = turn_covers.moves(5, 6)
    crossing = {frozenset(pair) for pair in turn_covers.crossing_pairs(edges, 6)}
    assert crossing  # some cross
    for k, (a, b) in enumerate(edges):
        for c, d in edges[k + 1 :]:
            p, q, s, t = (divmod(x, 6) for x in (a, b, c, d))
            assert (frozenset({(a, b), (c, d)}) in crossing) == _cross(p, q, s, t)


def _cross(
    p: tuple[int, int], q: tuple[int, int], s: tuple[int, int], t: tuple[int, int]
) -> bool:
    """Whether segments pq and st share a point that is not a common end."""
    if len({p, q, s, t}) < 4:
        return False  # two knight's moves from one cell never overlap
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = p, q, s, t
    den = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
    if den == 0:
        return False  # parallel: a knight's move holds no lattice point inside
    u = Fraction((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3), den)
    v = Fraction((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1), den)
    return 0 <= u <= 1 and 0 <= v <= 1
