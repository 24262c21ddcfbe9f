"""A covering program's independent parts: the split, its images, and the answers.

Total domination by a knight splits into the two colours' set covers (a move
changes colour); a board in pieces splits under every puzzle. Every engine
that solves in parts is held to the brute force of ``tests/test_covering.py``
(the attacks from the leaper's vector, every placement tried), on the rare
shapes too: a hole where a1 was, odd and even tori, a board in two pieces,
three dimensions, leapers whose graph is not bipartite.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest

from cpknight.api.covering import dominate, independent
from cpknight.board import Board, Topology
from cpknight.covering import ENGINES
from cpknight.covering.common import CoverInstance, Kind, check_cover
from cpknight.covering.parts import Part, Solved, SolveOne, solve_in_parts, split
from cpknight.covering.program import CoverProgram, build_cover_program, program_of
from cpknight.errors import NoPathError, SolveLimitError
from cpknight.pieces import KNIGHT, Leaper
from cpknight.solving import Run, SolveOptions
from cpknight.status import Effort, Status
from tests.test_covering import _attacks, _brute, _valid

OPTIONS = SolveOptions(time_limit=60, workers=1, seed=0)

# OEIS A261752 (total domination of n x n, from n = 4), read 2026-11-30:
# 6, 7, 8, 10, 14, 18, 22, 25, 28, 32, 36, 43, 48, 54, 58, 66, 70, ...
A261752 = {13: 32, 14: 36, 15: 43, 16: 48, 17: 54, 18: 58}

TWO_PIECES = Board(
    (3, 9), [(r, c) for r in range(3) for c in (3, 4, 5)] + [(1, 1), (1, 7)]
)
"""3x9 with its middle three files and the two 3x3 centres gone: two rings of
eight cells (each a knight's 8-cycle) that no move joins (a move crosses at most
two files)."""


def _term_sets(
    program: CoverProgram, variables: tuple[int, ...], *, plain: bool = False
) -> set[frozenset[int]]:
    """The program's rows as sets of the whole program's variables.

    ``plain``: the puzzle's rows only, not a torus's ``x[a1] = 1``, which
    holds in one part and not in its image (the optimum is the same).
    """
    rows = program.rows[
        : len(program.rows) - program.n_symmetry_rows if plain else None
    ]
    return {frozenset(variables[v] for v, _ in row.terms) for row in rows}


@pytest.mark.parametrize(
    ("board", "kind", "parts", "images"),
    [
        (Board.parse("8x8"), "total", 2, 1),
        (Board.parse("9x9"), "total", 2, 0),  # 41 and 40 cells: no image
        (Board((8, 8), [(0, 0)]), "total", 2, 0),  # a hole where a1 was
        (Board.parse("4x6", topology="torus"), "total", 2, 1),  # a shift
        (Board.parse("5x5", topology="torus"), "total", 1, 0),  # not bipartite
        (Board.parse("2x3x4"), "total", 2, 1),
        (Board.parse("8x8"), "dominating", 1, 0),
        (Board.parse("8x8"), "independent", 1, 0),
        (TWO_PIECES, "dominating", 2, 1),
        (TWO_PIECES, "independent-set", 2, 1),
        (TWO_PIECES, "total", 4, 2),  # each ring's two colours
    ],
    ids=[
        "8x8",
        "9x9",
        "8x8-hole-a1",
        "4x6-torus",
        "5x5-torus",
        "2x3x4",
        "8x8-dominating",
        "8x8-independent",
        "two-pieces-dominating",
        "two-pieces-independent-set",
        "two-pieces-total",
    ],
)
def test_the_split_keeps_every_row_and_variable_once(
    board: Board, kind: str, parts: int, images: int
) -> None:
    whole = build_cover_program(board, kind=kind)
    pieces = split(whole)
    assert len(pieces) == parts
    assert sum(p.image is not None for p in pieces) == images
    seen = sorted(v for p in pieces for v in p.variables)
    assert seen == list(range(len(whole.names)))
    rows = [r for p in pieces for r in _term_sets(p.program, p.variables, plain=True)]
    plain = whole.rows[: len(whole.rows) - whole.n_symmetry_rows]
    assert sorted(map(sorted, rows)) == sorted(
        sorted(v for v, _ in r.terms) for r in plain
    )
    kept = [  # the whole's symmetry rows (a torus's a1 row), each in one part
        r.name for p in pieces for r in p.program.rows if r.name.startswith("shift")
    ]
    assert kept == [r.name for r in whole.rows if r.name.startswith("shift")]
    for p in pieces:  # each part's cells first, and named as in the whole
        assert p.program.n_cells == len(p.variables)
        assert p.program.names == tuple(whole.names[v] for v in p.variables)
        if p.image is not None:  # the symmetry maps the rows onto the rows
            k, perm = p.image
            source = pieces[k]
            mapped = {
                frozenset(perm[v] for v in r)
                for r in _term_sets(source.program, source.variables, plain=True)
            }
            assert mapped == _term_sets(p.program, p.variables, plain=True)


def _cases() -> Iterator[tuple[str, Board, tuple[int, ...]]]:
    rng = random.Random(40)
    for i in range(8):
        rows, cols = rng.choice([(3, 4), (4, 4), (3, 5), (4, 5), (2, 6), (3, 6)])
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        holes = [(0, 0)] if i % 3 == 0 else rng.sample(cells, rng.randint(0, 3))
        topology: Topology = "torus" if i % 4 == 1 else "bounded"
        yield f"random{i}", Board((rows, cols), holes, topology=topology), (1, 2)
    yield "two-pieces", TWO_PIECES, (1, 2)
    yield "odd-torus-3x5", Board.parse("3x5", topology="torus"), (1, 2)
    yield "even-torus-4x4", Board.parse("4x4", topology="torus"), (1, 2)
    yield "camel-4x5", Board.parse("4x5"), (1, 3)  # four colours of cells
    yield "alfil-4x4", Board.parse("4x4"), (2, 2)  # four 4-cycles
    yield "knight-2x2x4", Board.parse("2x2x4"), (1, 2)


CASES = list(_cases())


# camel-4x5's total domination takes every engine 4 to 8 s (its optima are
# counted one cut at a time): run with -m slow; the other boards' stay
PARTS_CASES = [
    pytest.param(
        name,
        board,
        vector,
        kind,
        method,
        id=f"{name}-{kind}-{method}",
        marks=[pytest.mark.slow] if (name, kind) == ("camel-4x5", "total") else [],
    )
    for name, board, vector in CASES
    for kind in ["total", "dominating", "independent-set"]
    for method in ["cpsat", "scip", "highs", "portfolio", "scip-2w"]
]


@pytest.mark.parametrize(("name", "board", "vector", "kind", "method"), PARTS_CASES)
def test_engines_in_parts_against_brute_force(
    name: str, board: Board, vector: tuple[int, ...], kind: Kind, method: str
) -> None:
    expected = _brute(board, vector, kind)
    leaper = Leaper(vector)
    instance = CoverInstance(board=board, piece=leaper, kind=kind)
    solve = ENGINES[method.removesuffix("-2w")].load()
    options = OPTIONS if method != "scip-2w" else SolveOptions(time_limit=60, workers=2)
    if expected is None:
        with pytest.raises(NoPathError):
            solve(instance, options.start())
        return
    cover = solve(instance, options.start())
    assert cover.status is Status.OPTIMAL
    assert cover.size == cover.bound == expected[0]
    assert _valid(kind, tuple(cover.cells), _attacks(board, vector))
    check_cover(board, cover.cells, kind=kind, piece=leaper)


def _spy(calls: list[tuple[int, float | None]], stop_at: int | None = None):  # type: ignore[no-untyped-def]
    """A part solver that takes every cell, records its share, or runs out."""

    def solve_one(program: CoverProgram, run: Run, limit: float | None) -> Solved:
        calls.append((program.n_cells, limit))
        if stop_at is not None and len(calls) == stop_at:
            raise SolveLimitError("no placement in the share", bound=5)
        return Solved(list(range(program.n_cells)), True, 3, Effort(branches=7))

    return solve_one


def test_an_image_is_not_solved_and_the_figures_add_up() -> None:
    program = build_cover_program("8x8", kind="total")
    calls: list[tuple[int, float | None]] = []
    solved = solve_in_parts(program, OPTIONS.start(), _spy(calls))
    assert [n for n, _ in calls] == [32]  # the other colour is its mirror image
    assert sorted(solved.nodes) == list(range(64))
    assert solved.bound == 6
    assert solved.optimal
    assert solved.effort.branches == 7  # the image's effort is not counted twice


def test_each_part_gets_its_share_of_the_time_left() -> None:
    program = build_cover_program("9x9", kind="total")  # 41 and 40 cells
    calls: list[tuple[int, float | None]] = []
    solve_in_parts(program, SolveOptions(time_limit=50).start(), _spy(calls))
    (first, share1), (second, share2) = calls
    assert (first, second) == (41, 40)
    assert share1 is not None
    assert 50 * 41 / 81 - 1 < share1 <= 50 * 41 / 81
    assert share2 is not None
    assert 49 < share2 <= 50  # all that is left: the first took no time
    calls.clear()
    solve_in_parts(program, SolveOptions().start(), _spy(calls))
    assert [s for _, s in calls] == [None, None]  # no limit: no share


def test_a_part_that_runs_out_gives_the_parts_bounds_added() -> None:
    program = build_cover_program("9x9", kind="total")
    with pytest.raises(SolveLimitError) as caught:
        solve_in_parts(program, OPTIONS.start(), _spy([], stop_at=2))
    assert caught.value.bound == 3 + 5  # the first part's 3, the stopped one's 5
    pieces = build_cover_program(TWO_PIECES, kind="independent-set")
    with pytest.raises(SolveLimitError) as caught:
        solve_in_parts(pieces, OPTIONS.start(), _spy([], stop_at=1))
    assert caught.value.bound == 5 + 5  # maximising: the stopped part and its image


def test_counting_and_symmetry_rows_keep_the_program_whole() -> None:
    counted = CoverInstance(
        board=Board.parse("6x6"), piece=KNIGHT, kind="total", count=True
    )
    calls: list[tuple[int, float | None]] = []
    solve_in_parts(program_of(counted), OPTIONS.start(), _spy(calls))
    assert [n for n, _ in calls] == [36]
    assert len(split(build_cover_program("6x6", kind="total", symmetry=True))) == 1


@pytest.mark.parametrize(
    "n", [13, 14, 16, *(pytest.param(n, marks=pytest.mark.slow) for n in (15, 17, 18))]
)
def test_total_domination_a261752_in_halves(n: int) -> None:
    cover = dominate(f"{n}x{n}", kind="total", method="scip", options=OPTIONS)
    assert (cover.size, cover.status) == (A261752[n], Status.OPTIMAL)


def test_a_board_in_pieces_is_solved_piece_by_piece() -> None:
    # an 8-cycle holds at most 4 pieces no two adjacent, and 4 alternate cells do
    assert independent(TWO_PIECES, method="scip", options=OPTIONS).size == 8
    assert dominate(TWO_PIECES, method="highs", options=OPTIONS).size == 6  # 3 + 3


# ----------------------------------------------------------- side by side


def _nine() -> CoverProgram:
    return build_cover_program("9x9", kind="total")  # two parts, no image


def test_parts_side_by_side_run_at_once_on_clocks_of_their_own() -> None:
    both = threading.Barrier(2, timeout=30)  # passes only if both are running
    seen: list[Run] = []

    def solve_one(program: CoverProgram, run: Run, limit: float | None) -> Solved:
        seen.append(run)
        both.wait()
        return Solved(list(range(program.n_cells)), True, 3, Effort())

    main = OPTIONS.start()
    solved = solve_in_parts(_nine(), main, solve_one, side_by_side=2)
    assert solved.bound == 6
    assert len(seen) == 2
    assert all(r is not main and r.clock is not main.clock for r in seen)


def _waits_for(flag: str, outcome: BaseException | None) -> SolveOne:
    """The first part fails at once; the second waits until its clock is
    cancelled or interrupted, then fails (or returns a feasible answer)."""

    def solve_one(program: CoverProgram, run: Run, limit: float | None) -> Solved:
        if program.n_cells == 41 and outcome is not None:
            raise outcome
        began = time.monotonic()
        while not getattr(run.clock, flag):
            assert time.monotonic() - began < 30, "never told to stop"
            time.sleep(0.01)
        if flag == "cancelled":
            raise SolveLimitError("stopped: another part failed", bound=2)
        return Solved(list(range(program.n_cells)), False, 1, Effort())

    return solve_one


def test_a_part_with_no_placement_stops_the_others() -> None:
    solve_one = _waits_for("cancelled", NoPathError("none on this colour"))
    with pytest.raises(NoPathError, match="none on this colour"):
        solve_in_parts(_nine(), OPTIONS.start(), solve_one, side_by_side=2)


def test_a_part_out_of_time_side_by_side_adds_the_bounds() -> None:
    solve_one = _waits_for("cancelled", SolveLimitError("no placement", bound=30))
    with pytest.raises(SolveLimitError, match="no placement") as caught:
        solve_in_parts(_nine(), OPTIONS.start(), solve_one, side_by_side=2)
    assert caught.value.bound == 30 + 2


def test_ctrl_c_reaches_every_part_side_by_side() -> None:
    main = OPTIONS.start()
    threading.Timer(0.2, main.clock.interrupt).start()
    solve_one = _waits_for("interrupted", None)
    solved = solve_in_parts(_nine(), main, solve_one, side_by_side=2)
    assert not solved.optimal
    assert solved.bound == 1 + 1


def test_the_printed_program_says_how_it_falls_apart() -> None:
    text = build_cover_program("8x8", kind="total").formulation()
    assert "falls apart into 2 parts that no row joins, of 32 and 32 cells" in text
    assert "part 2 is part 1's image" in text
    odd = build_cover_program("9x9", kind="total").formulation()
    assert "of 41 and 40 cells, solved apart)" in odd
    assert (
        "falls apart" not in build_cover_program("8x8", kind="dominating").formulation()
    )


@pytest.mark.parametrize(
    ("spec", "rows"), [("9x9", [3, 3]), ("8x8", [2]), ("7x9", [2, 2])]
)
def test_each_part_solved_gets_its_balance_rows(spec: str, rows: list[int]) -> None:
    pieces = [p for p in split(build_cover_program(spec, kind="total")) if not p.image]
    assert [p.program.n_symmetry_rows for p in pieces] == rows
    for part in pieces:
        balance = part.program.rows[-part.program.n_symmetry_rows :]
        assert all(r.name.startswith("balance[") and r.hi == 0 for r in balance)
        for row in balance:  # as many cells on each side, each cell once
            signs = [c for _, c in row.terms]
            assert signs.count(1) == signs.count(-1)
            assert len({v for v, _ in row.terms}) == len(row.terms)


def test_a_program_too_big_to_split_while_printing_says_nothing_of_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cpknight.covering import program as programs

    spy: list[CoverProgram] = []
    real = split

    def counted(program: CoverProgram, run: Run | None = None) -> list[Part]:
        spy.append(program)
        return real(program, run)

    monkeypatch.setattr("cpknight.covering.parts.split", counted)
    monkeypatch.setattr(programs, "PARTS_TEXT_TERMS", 100)  # 8x8 total: 336
    text = build_cover_program("8x8", kind="total").formulation()
    assert "falls apart" not in text
    assert spy == []  # printing did not look
    monkeypatch.setattr(programs, "PARTS_TEXT_TERMS", 336)
    assert "falls apart" in build_cover_program("8x8", kind="total").formulation()
    assert len(spy) == 1
