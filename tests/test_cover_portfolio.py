"""The covering portfolio: CP-SAT and SCIP side by side, the first proof wins.

Published values: OEIS A006075 (the fewest knights dominating n x n; checked
in the stored entry: 1, 4, 4, 4, 5, 8, 10, 12, 14, 16, 21, 24, 28, 32, 36, 40
for n = 1..16) and A103315 (the number of minimum dominating placements:
8x8 has 2, 6x6 has 127).
"""

from __future__ import annotations

import threading

import pytest

from cpknight.api import try_cover
from cpknight.board import Board
from cpknight.covering.common import CoverInstance, check_cover, make_cover
from cpknight.covering.portfolio import RIVALS, _verdict, rivals, solve
from cpknight.errors import NoPathError, SolveLimitError
from cpknight.pieces import KNIGHT
from cpknight.solving import SolveOptions
from cpknight.status import Status

A006075 = {6: 8, 8: 12, 12: 24, 16: 40}
A103315 = {6: 127, 8: 2}
FEASIBLE = Status.FEASIBLE


def _instance(spec: str, *, count: bool = False) -> CoverInstance:
    return CoverInstance(
        board=Board.parse(spec), piece=KNIGHT, kind="dominating", count=count
    )


def _rival_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("cpknight-")]


@pytest.mark.parametrize("n", [6, 8, 12])
def test_the_portfolio_proves_the_published_optimum_and_leaves_nothing_running(
    n: int,
) -> None:
    count = n in A103315
    cover = solve(_instance(f"{n}x{n}", count=count), SolveOptions().start())
    assert (cover.size, cover.status) == (A006075[n], Status.OPTIMAL)
    assert cover.method == "portfolio"
    assert cover.winner in rivals()
    if count:
        assert cover.count == A103315[n]
    check_cover(cover.board, cover.cells, kind="dominating")
    # the loser was stopped and joined before the answer came back
    assert _rival_threads() == []


def test_no_placement_is_a_proof_either_rival_may_give() -> None:
    """Total domination of a board with a cell no knight reaches: none."""
    instance = CoverInstance(board=Board.parse("3x3"), piece=KNIGHT, kind="total")
    with pytest.raises(NoPathError) as caught:
        solve(instance, SolveOptions().start())
    assert caught.value.winner in rivals()


def test_at_the_limit_the_best_of_both_is_kept() -> None:
    """16x16 in one second: neither proves 40; the answer lies on both sides."""
    outcome = try_cover("16x16", method="portfolio", time_limit=1.0)
    assert outcome.status in (Status.FEASIBLE, Status.UNKNOWN)
    if outcome.bound is not None:  # the better of the two bounds, never past 40
        assert outcome.bound <= A006075[16]
    cover = outcome.value
    if cover is not None:  # none at all only on a very slow machine
        assert cover.size >= A006075[16] >= cover.bound
        assert cover.method == "portfolio"
    assert outcome.seconds < 1.0 + 10.0  # a generous ceiling on a loaded machine
    assert _rival_threads() == []


def _dominating(spec: str, names: list[str]) -> list[int]:
    instance = _instance(spec)
    board = instance.board
    return [instance.graph.node(board.parse_cell(name)) for name in names]


def test_one_rivals_placement_and_the_others_bound_make_a_proof() -> None:
    """4x4 (A006075(4) = 4): CP-SAT's 4 knights, bounded at 3, meet SCIP's
    bound of 4 (it found no placement): optimal, with no count claimed."""
    instance = _instance("4x4", count=True)
    nodes = _dominating("4x4", ["b2", "c2", "b3", "c3"])
    mine = make_cover(
        instance, nodes, status="feasible", bound=3, method="cpsat", started=0.0
    )
    limit = SolveLimitError("the time limit was reached", bound=4)
    cover = _verdict(instance, RIVALS, [{"value": mine}, {"error": limit}])
    assert (cover.size, cover.bound, cover.status) == (4, 4, Status.OPTIMAL)
    assert (cover.winner, cover.count) == ("cpsat", None)


def test_the_smaller_placement_and_the_larger_bound_are_kept() -> None:
    instance = _instance("4x4")
    four = _dominating("4x4", ["b2", "c2", "b3", "c3"])
    five = [*four, 0]
    a = make_cover(
        instance, five, status=FEASIBLE, bound=3, method="cpsat", started=0.0
    )
    b = make_cover(instance, four, status=FEASIBLE, bound=2, method="scip", started=0.0)
    cover = _verdict(instance, RIVALS, [{"value": a}, {"value": b}])
    assert (cover.size, cover.bound, cover.winner) == (4, 3, "scip")
    assert cover.status is Status.FEASIBLE
    assert cover.method_label == "portfolio (scip won)"


def test_no_placement_from_either_keeps_the_better_bound() -> None:
    instance = _instance("4x4")
    errors = [SolveLimitError("limit", bound=2), SolveLimitError("limit", bound=3)]
    with pytest.raises(SolveLimitError) as caught:
        _verdict(instance, RIVALS, [{"error": e} for e in errors])
    assert caught.value.bound == 3


def test_a_full_torus_puts_a_piece_on_a1_and_a_count_takes_it_off() -> None:
    """Every placement on a full torus shifts to one with a piece on a1; the
    program says so in one row (symmetry breaking or not), and its lex-leader
    rows break only the symmetries that keep a1. A count strips them all."""
    from cpknight.covering.program import program_of
    from cpknight.graph.symmetry import stabiliser_permutations

    torus = Board.parse("5x5", topology="torus")
    for symmetry in (False, True):
        instance = CoverInstance(
            board=torus, piece=KNIGHT, kind="dominating", symmetry=symmetry
        )
        program = program_of(instance)
        shift = [r for r in program.rows if r.name.startswith("shift")]
        assert [(r.terms, r.lo) for r in shift] == [(((0, 1),), 1)]
        assert not any(
            r.name.startswith("shift") for r in program.without_symmetry().rows
        )
        assert program.n_symmetries == (7 if symmetry else 0)
    assert all(p[0] == 0 for p in stabiliser_permutations(torus))
    holed = Board((5, 5), [(2, 2)], topology="torus")
    instance = CoverInstance(board=holed, piece=KNIGHT, kind="dominating")
    assert not any(r.name.startswith("shift") for r in program_of(instance).rows)


def test_a_rival_that_refused_leaves_the_answer_to_the_other() -> None:
    """A refusal carries no bound: the other rival's placement stands alone."""
    from cpknight.errors import InvalidInputError

    instance = _instance("4x4")
    four = _dominating("4x4", ["b2", "c2", "b3", "c3"])
    mine = make_cover(instance, four, status=FEASIBLE, bound=3, method="cp", started=0)
    refused = {"error": InvalidInputError("SCIP is not installed")}
    cover = _verdict(instance, RIVALS, [{"value": mine}, refused])
    assert (cover.size, cover.bound, cover.status) == (4, 3, Status.FEASIBLE)
