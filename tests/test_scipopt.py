"""SCIP 10 through PySCIPOpt (``cpknight/solving/linear.py``'s ``pyscipopt``).

The backend hands a ``model_builder`` model to another SCIP as an MPS file
and reads the values back by the variables' indices. Each case here is solved
by ``model_builder``'s own SCIP too, the independent route, and the two must
agree; the covering engine built on it is held to a brute force with every
other engine in ``tests/test_covering.py``.
"""

from __future__ import annotations

import itertools
import math
import sys
import time

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from ortools.linear_solver.python import model_builder as mb

from cpknight.cli import main
from cpknight.covering import ENGINES
from cpknight.solving import SolveOptions
from cpknight.solving.linear import SCIPOPT, LinearAnswer, own_limit, solve_linear
from tests.conftest import load_script

pytest.importorskip("pyscipopt")  # the 'scip' extra; the test extra has it


def _both(
    model: mb.Model, variables: list[mb.Variable]
) -> tuple[LinearAnswer, LinearAnswer]:
    run = SolveOptions(time_limit=30).start()
    mine = solve_linear(SCIPOPT, model, run, variables)
    theirs = solve_linear("scip", model, SolveOptions(time_limit=30).start(), variables)
    return mine, theirs


def test_a_mixed_program_with_an_offset_agrees_with_model_builders_scip() -> None:
    m = mb.Model()  # type: ignore[no-untyped-call]
    x, y = m.new_bool_var("x"), m.new_bool_var("y")
    z = m.new_int_var(0, 5, "")  # unnamed: the file names every variable anew
    unused = m.new_int_var(0, 3, "unused")  # in no row and not in the objective
    absent = m.new_num_var(0.0, math.inf, "absent")  # default bounds: not written
    c = m.new_num_var(-1.0, 2.5, "c")
    m.add(x + y <= 1)
    m.add(x + z >= 2)
    m.add(c <= x + 1)
    m.add(2 * y + z <= 6)
    m.maximize(x + 2 * y + z + c + 0.5)
    mine, theirs = _both(m, [x, y, z, unused, c, absent])
    assert mine.status == theirs.status == mb.SolveStatus.OPTIMAL
    assert mine.objective == pytest.approx(theirs.objective)
    # x = 1 lets z reach 5 and c 2: 8.5, against 7.5 with y = 1 (z = 4, c = 1)
    assert mine.objective == pytest.approx(8.5)
    assert mine.values == pytest.approx((1.0, 0.0, 5.0, 0.0, 2.0, 0.0))
    assert "V005" not in m.export_to_mps_string(obfuscate=True)
    assert mine.bound == pytest.approx(8.5)


def test_values_come_back_in_the_order_asked_on_a_large_program() -> None:
    # more than ten variables: the file pads the names (V000, V001, ...)
    m = mb.Model()  # type: ignore[no-untyped-call]
    xs = [m.new_bool_var(f"x{i}") for i in range(150)]
    for i in range(149):
        m.add(xs[i] + xs[i + 1] <= 1)
    m.maximize(mb.LinearExpr.weighted_sum(xs, [1 + (i % 7) for i in range(150)]))
    mine, theirs = _both(m, xs[::-1])
    assert mine.status == theirs.status == mb.SolveStatus.OPTIMAL
    assert mine.objective == pytest.approx(theirs.objective)
    asked = range(149, -1, -1)
    chosen = sorted(i for i, v in zip(asked, mine.values, strict=True) if v > 0.5)
    assert all(b - a > 1 for a, b in itertools.pairwise(chosen))
    weight = sum(1 + (i % 7) for i in chosen)
    assert weight == pytest.approx(mine.objective)


def test_an_infeasible_program_is_infeasible() -> None:
    m = mb.Model()  # type: ignore[no-untyped-call]
    x, y = m.new_bool_var("x"), m.new_bool_var("y")
    m.add(x + y >= 3)
    m.minimize(x)
    mine, theirs = _both(m, [x, y])
    assert mine.status == theirs.status == mb.SolveStatus.INFEASIBLE
    assert mine.values == ()


def test_the_limit_holds_and_the_best_placement_comes_back() -> None:
    # 21 x 21 domination takes SCIP hours; given 1 s it answers with its best
    from cpknight.covering.program import build_cover_program

    program = build_cover_program("21x21", kind="dominating")
    model, xs = program.builder_model()
    run = SolveOptions(time_limit=1.0).start()
    began = time.monotonic()
    answer = solve_linear(SCIPOPT, model, run, xs)
    assert time.monotonic() - began < 20.0  # generous: a loaded machine
    assert answer.status in (mb.SolveStatus.FEASIBLE, mb.SolveStatus.NOT_SOLVED)
    if answer.values:
        assert sum(answer.values) == pytest.approx(answer.objective)
        assert answer.objective >= 68  # A006075(21) = 68 (Huchala 2021)
    assert math.isnan(answer.bound) or answer.bound <= 68 + 1e-6
    assert own_limit(SCIPOPT, 10.0) == own_limit("scip", 10.0) < 10.0


def test_without_pyscipopt_the_method_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyscipopt", None)  # not importable
    assert not ENGINES["pyscipopt"].available
    assert "pyscipopt" not in ENGINES.names("all")
    assert main(["dominate", "5x5", "--method", "pyscipopt"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "cpknight: error: the pyscipopt method needs pyscipopt: "
        "pip install 'cpknight[scip]'\n"
    )


def test_with_pyscipopt_all_runs_it() -> None:
    assert ENGINES["pyscipopt"].available
    assert "pyscipopt" in ENGINES.names("all")


TOLERANCE = 1e-4
"""How far apart two MIP solvers' answers to one small program may be."""


@st.composite
def _programs(draw: st.DrawFn) -> tuple[mb.Model, list[mb.Variable]]:
    """Small mixed programs of every shape the MPS file has a section for.

    Binary, integer (bounded, or below only) and continuous variables (free,
    negative, fixed), rows with one side, two (a range) or equal sides, rows
    whose right-hand side is 0 (or no rows: no RHS section), minimised or
    maximised, with an objective offset.
    """
    m = mb.Model()  # type: ignore[no-untyped-call]
    xs: list[mb.Variable] = []
    for i in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["bool", "int", "int-below", "num", "num-free"]))
        lo = draw(st.integers(-3, 2))
        hi = lo + draw(st.integers(0, 4))
        if kind == "bool":
            xs.append(m.new_bool_var(f"b{i}"))
        elif kind == "int":
            xs.append(m.new_int_var(lo, hi, f"i{i}"))
        elif kind == "int-below":  # bounded by the rows
            xs.append(m.new_int_var(lo, math.inf, f"j{i}"))
        elif kind == "num":
            xs.append(m.new_num_var(lo, hi, f"n{i}"))
        else:
            xs.append(m.new_num_var(-math.inf, math.inf, f"f{i}"))
    coefficient = st.integers(-3, 3)
    for _ in range(draw(st.integers(0, 5))):
        weights = [float(draw(coefficient)) for _ in xs]
        expr = mb.LinearExpr.weighted_sum(xs, weights)
        side = draw(st.sampled_from(["<=", ">=", "==", "range"]))
        rhs = draw(st.integers(-4, 6))
        if side == "<=":
            m.add(expr <= rhs)
        elif side == ">=":
            m.add(expr >= rhs)
        elif side == "==":
            m.add(expr == rhs)
        else:
            m.add(mb.BoundedLinearExpression(expr, rhs, rhs + 3))
    # every variable bounded both ways, so that neither solver is unbounded
    for x in xs:
        m.add(x <= 8)
        m.add(x >= -8)
    objective = mb.LinearExpr.weighted_sum(xs, [draw(coefficient) for _ in xs])
    objective += draw(st.integers(-2, 2)) / 2
    if draw(st.booleans()):
        m.maximize(objective)
    else:
        m.minimize(objective)
    return m, xs


@settings(max_examples=30, deadline=None)
@given(_programs())
def test_random_programs_agree_with_model_builders_scip(
    program: tuple[mb.Model, list[mb.Variable]],
) -> None:
    model, xs = program
    mine, theirs = _both(model, xs)
    assert mine.status == theirs.status
    event(mine.status.name)
    if mine.status == mb.SolveStatus.OPTIMAL:
        # within the solvers' tolerances (SCIP's feasibility tolerance is
        # 1e-6, relative: model_builder's SCIP has answered -8.0000038)
        assert mine.objective == pytest.approx(theirs.objective, abs=TOLERANCE)
        # the values are a solution of the program, with that objective
        for x, value in zip(xs, mine.values, strict=True):
            assert x.lower_bound - TOLERANCE <= value <= x.upper_bound + TOLERANCE
            if x.is_integral:
                assert value == pytest.approx(round(value), abs=TOLERANCE)
        proto = model.export_to_proto()
        values = dict(zip((x.index for x in xs), mine.values, strict=True))
        for row in proto.constraint:
            terms = zip(row.var_index, row.coefficient, strict=True)
            total = sum(c * values[i] for i, c in terms)
            assert row.lower_bound - TOLERANCE <= total <= row.upper_bound + TOLERANCE
        offset = proto.objective_offset
        objective = offset + sum(
            v.objective_coefficient * values[i] for i, v in enumerate(proto.variable)
        )
        assert objective == pytest.approx(mine.objective, abs=TOLERANCE)


@pytest.mark.parametrize(
    ("n", "kind", "torus", "published"),
    [
        (6, "dominating", False, 8),  # OEIS A006075(6)
        (6, "total", False, 8),  # OEIS A261752(6)
        (5, "independent", False, 5),  # OEIS A342576(5)
        (6, "dominating", True, 6),  # OEIS A279407(6)
    ],
)
def test_the_benchmarks_plain_scip_10_script(
    n: int, kind: str, torus: bool, published: int
) -> None:
    # the baseline of the record rows (benchmarks/covering.py --records): the
    # textbook model straight into PySCIPOpt, held to the published tables
    # and to the same model by model_builder's SCIP
    cover_records = load_script("cover_records")
    covering = load_script("covering")
    table = {
        ("dominating", False): "A006075",
        ("total", False): "A261752",
        ("independent", False): "A342576",
        ("dominating", True): "A279407",
    }[kind, torus]
    assert cover_records.TABLES[table].values[n] == published
    size, proved, _ = covering.plain_scipopt(n, kind, torus, 60.0)
    assert (size, proved) == (published, True)
    assert covering.plain_scip(n, kind, torus, 60.0)[:2] == (published, True)
