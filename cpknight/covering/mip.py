"""The covering puzzles by a MIP solver: SCIP or HiGHS through ``model_builder``.

The program of :mod:`cpknight.covering.program` compiled into an OR-Tools
``model_builder.Model`` and solved by SCIP (``scip``) or HiGHS (``highs``),
both shipped inside the ``ortools`` wheel, or by SCIP 10 through PySCIPOpt
(``pyscipopt``, the ``scip`` extra), which detects the board's symmetries and
breaks them while it searches (:data:`~cpknight.solving.linear.SCIPOPT`). The
LP relaxation (GLOP) is solved too and reported beside the optimum.

A program that falls apart (:mod:`cpknight.covering.parts`: total
domination by a knight, one part a colour) is solved part by part, and with
several workers (``SolveOptions.workers``; 0: one per core) that many parts
at once, each solver on a core of its own: SCIP and HiGHS solve on one.

Counting: a MIP solver reports one solution, so the optimal placements are
counted by no-good cuts: after each placement ``S`` found with the number of
knights fixed to the optimum, the row ``sum(x[v] for v not in S) >= 1`` cuts it
off, until the model is infeasible. One solve per placement: fine for the
handful of A103315 (8x8: 2), slow for hundreds.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CoverInstance(board=Board.parse("5x5"), piece=KNIGHT,
    ...                      kind="independent-set")
    >>> solve_scip(inst, SolveOptions().start()).size  # OEIS A030978(5) = 13
    13
"""

from __future__ import annotations

import os
import time
from typing import Any

from ortools.linear_solver.python import model_builder as mb

from cpknight.covering.common import (
    Cover,
    CoverInstance,
    PlacementClasses,
    make_cover,
)
from cpknight.covering.parts import Solved, solve_in_parts
from cpknight.covering.program import (
    CoverProgram,
    ceil_bound,
    program_of,
    refuse_big_model,
)
from cpknight.errors import NoPathError, SolveLimitError
from cpknight.solving import Run
from cpknight.solving.linear import SCIPOPT, LinearAnswer, solve_linear
from cpknight.status import Effort

__all__ = ["solve_highs", "solve_pyscipopt", "solve_scip"]


def solve_scip(instance: CoverInstance, run: Run) -> Cover:
    """Solve (and count) a covering question with SCIP."""
    return _solve(instance, run, "scip")


def solve_pyscipopt(instance: CoverInstance, run: Run) -> Cover:
    """Solve (and count) a covering question with SCIP 10 through PySCIPOpt."""
    return _solve(instance, run, SCIPOPT)


def solve_highs(instance: CoverInstance, run: Run) -> Cover:
    """Solve (and count) a covering question with HiGHS."""
    return _solve(instance, run, "highs")


def _parameters(backend: str, run: Run) -> str:
    if backend in ("scip", SCIPOPT):
        return f"randomization/randomseedshift = {run.options.seed}"
    # HiGHS prints its banner to standard output unless told not to
    return "output_flag=false"


def _solve_once(backend: str, model: Any, run: Run, xs: list[Any]) -> LinearAnswer:
    """One solve under the clock: Ctrl-C ends it (a worker process, ended)."""
    return solve_linear(backend, model, run, xs, parameters=_parameters(backend, run))


def _solve(instance: CoverInstance, run: Run, backend: str) -> Cover:

    started = time.perf_counter()
    refuse_big_model(instance)
    program = program_of(instance, run)
    lp = program.lp_relaxation(run)

    def solve_one(part: CoverProgram, run: Run, limit: float | None) -> Solved:
        return _solve_program(part, run, backend, limit)

    workers = run.options.workers or os.cpu_count() or 1  # 0: one per core
    solved = solve_in_parts(program, run, solve_one, side_by_side=workers)
    count: int | None = None
    at_least: int | None = None
    cuts = None
    if instance.count and solved.optimal:
        count, at_least, cuts = _count(program, solved.nodes, run, backend)
    return make_cover(
        instance,
        solved.nodes,
        status="optimal" if solved.optimal else "feasible",
        bound=solved.bound,
        method=backend,
        started=started,
        effort=Effort(cuts=cuts, solutions=None if cuts is None else cuts),
        count=count,
        count_at_least=at_least,
        lp_bound=lp,
    )


def _solve_program(
    program: CoverProgram, run: Run, backend: str, limit: float | None
) -> Solved:
    """Optimise one program (the whole, or one part) in at most ``limit`` s."""
    instance = program.instance
    model, xs = program.builder_model(check=run.check)
    run.check("building the model")
    n = program.n_cells
    answer = solve_linear(
        backend, model, run, xs[:n], parameters=_parameters(backend, run), limit=limit
    )
    status = answer.status
    maximise = program.maximise
    if status == mb.SolveStatus.INFEASIBLE:
        raise NoPathError(f"no {instance.describe()} exists ({backend} proved it)")
    if not answer.solved:
        bound = _bound(answer, maximise, n)
        if answer.interrupted:
            run.check(f"solving ({backend})", bound=bound)  # says "Ctrl-C"
        raise SolveLimitError(
            f"no {instance.describe()} found by the limit ({backend}: "
            f"{status.name.lower()})",
            bound=bound,
        )
    nodes = [v for v in range(n) if answer.values[v] > 0.5]
    optimal = status == mb.SolveStatus.OPTIMAL
    return Solved(
        nodes, optimal, len(nodes) if optimal else _bound(answer, maximise, n), Effort()
    )


def _bound(answer: LinearAnswer, maximise: bool, n: int) -> int:
    value = answer.bound  # NaN: no bound (HiGHS: NA)
    if value != value or abs(value) == float("inf"):
        return n if maximise else 0
    return max(0, min(n, ceil_bound(value, maximise)))


def _count(
    program: CoverProgram, first: list[int], run: Run, backend: str
) -> tuple[int | None, int | None, int]:
    """Count the optimal placements by no-good cuts: (count, partial, cuts).

    The cuts run on the program without its symmetry rows (every placement
    is cut off in turn); up to symmetry, the count is of their classes.
    """
    classes = PlacementClasses(program.instance) if program.instance.symmetry else None
    program = program.without_symmetry()
    try:
        model, xs = program.builder_model(check=run.check)
    except SolveLimitError:  # the limit or Ctrl-C before the count began
        return None, 1, 0
    n = program.n_cells
    size = len(first)
    knights = mb.LinearExpr.sum(xs[:n])
    model.add(knights == size, name="knights")
    found = 0
    placement = first
    while True:
        found += 1
        if classes is not None:
            classes.add(placement)
        chosen = set(placement)
        # at least one knight off this placement's cells: it is cut off
        model.add(
            mb.LinearExpr.sum([xs[v] for v in range(n) if v not in chosen]) >= 1,
            name=f"nogood[{found}]",
        )
        counted = found if classes is None else len(classes)
        if run.expired():
            return None, counted, found
        answer = _solve_once(backend, model, run, xs[:n])
        if answer.status == mb.SolveStatus.INFEASIBLE and not answer.interrupted:
            return counted, None, found
        if not answer.solved:
            return None, counted, found
        placement = [v for v in range(n) if answer.values[v] > 0.5]
