"""The covering puzzles by CP-SAT: the 0/1 program, optimised, then counted.

The program of :mod:`cpknight.covering.program` compiled into a CP-SAT model.
On one worker CP-SAT is run with ``linearization_level=2`` (its LP on every
row): without it the default single worker finds 12 knights on 8x8 at once
but proves no lower bound in 30 s; with it the proof takes 0.03 s.

Counting (``instance.count``) solves first, then fixes the number of knights
to the optimum and enumerates every placement on one worker (CP-SAT's
``enumerate_all_solutions``). With symmetry breaking the count is of classes
(each placement's lexicographically least image), without it of placements.
The classes are counted from every placement
(:class:`~cpknight.covering.common.PlacementClasses`), enumerated without the
lex-leader rows: with the rows the same count took 89 s on 12 x 12 against
15 s for the two placements without them.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CoverInstance(board=Board.parse("4x4"), piece=KNIGHT,
    ...                      kind="dominating", count=True)
    >>> c = solve(inst, SolveOptions().start())
    >>> c.size, c.count  # OEIS A006075(4) = 4, A103315(4) = 9
    (4, 9)
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

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
from cpknight.solving import Run, configure_cpsat, solve_cpsat
from cpknight.status import Effort

__all__ = ["solve"]


def solve(instance: CoverInstance, run: Run) -> Cover:
    """Solve (and, if asked, count) a covering question with CP-SAT.

    Raises:
        NoPathError: proved that there is no such placement (total
            domination with a cell no move reaches).
        SolveLimitError: no placement by the limit (with the bound).
    """
    started = time.perf_counter()
    refuse_big_model(instance)
    program = program_of(instance, run)
    lp = program.lp_relaxation(run)
    solved = solve_in_parts(program, run, _solve_program)
    effort = solved.effort
    count: int | None = None
    at_least: int | None = None
    if instance.count and solved.optimal:
        count, at_least, seen = _count(program, len(solved.nodes), run)
        effort = Effort(
            branches=effort.branches, conflicts=effort.conflicts, solutions=seen
        )
    return make_cover(
        instance,
        solved.nodes,
        status="optimal" if solved.optimal else "feasible",
        bound=solved.bound,
        method="cpsat",
        started=started,
        effort=effort,
        count=count,
        count_at_least=at_least,
        lp_bound=lp,
    )


def _solve_program(program: CoverProgram, run: Run, limit: float | None) -> Solved:
    """Optimise one program (the whole, or one part) in at most ``limit`` s."""
    model, xs = program.cpsat_model(run=run)
    run.check("building the model")
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run)
    if limit is not None:
        solver.parameters.max_time_in_seconds = min(
            solver.parameters.max_time_in_seconds, max(limit, 1e-3)
        )
    if solver.parameters.num_workers == 1:
        solver.parameters.linearization_level = 2
    status, _ = solve_cpsat(solver, model, run)
    effort = Effort(branches=solver.num_branches, conflicts=solver.num_conflicts)
    instance = program.instance
    n = program.n_cells
    bound = _bound(solver.best_objective_bound, program.maximise, n)
    if status == cp_model.INFEASIBLE:
        raise NoPathError(
            f"no {instance.describe()} exists (CP-SAT proved it)", effort=effort
        )
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolveLimitError(
            f"no {instance.describe()} found by the limit", effort=effort, bound=bound
        )
    nodes = [v for v in range(n) if solver.boolean_value(xs[v])]
    optimal = status == cp_model.OPTIMAL
    return Solved(nodes, optimal, len(nodes) if optimal else bound, effort)


def _bound(value: float, maximise: bool, n: int) -> int:
    """CP-SAT's objective bound as an int on the right side (clamped to 0..n)."""
    bound = ceil_bound(value, maximise)
    return max(0, min(n, bound))


class _Counter:
    """Counts the solutions CP-SAT reports (a callback class made on use)."""

    def __init__(self) -> None:
        self.count = 0
        self.classes: PlacementClasses | None = None

    def result(self) -> int:
        """The placements, or their classes when counting up to symmetry."""
        return self.count if self.classes is None else len(self.classes)


def _count(
    program: CoverProgram, size: int, run: Run
) -> tuple[int | None, int | None, int]:
    """The optimal placements: (count, or None at the limit; partial; seen)."""
    tally = _Counter()
    n = program.n_cells
    if program.instance.symmetry:  # every placement, then their classes
        tally.classes = PlacementClasses(program.instance)
    program = program.without_symmetry()  # a torus's shift row too
    xs: list[Any] = []

    class Callback(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            tally.count += 1
            if tally.classes is not None:
                tally.classes.add([v for v in range(n) if self.boolean_value(xs[v])])

    try:
        model, xs = program.cpsat_model(size=size, run=run)
    except SolveLimitError:  # the limit or Ctrl-C before the count began
        return None, 0, 0
    solver = cp_model.CpSolver()
    configure_cpsat(solver, run, enumerate_all=True)
    solver.parameters.linearization_level = 2
    status, _ = solve_cpsat(solver, model, run, Callback())
    # OPTIMAL after enumerating: every solution seen. FEASIBLE (the limit or
    # Ctrl-C stopped it) or UNKNOWN: the count so far, at least.
    if status == cp_model.OPTIMAL:
        return tally.result(), None, tally.count
    return None, tally.result(), tally.count


def cpsat_values(solver: Any, xs: list[Any]) -> list[int]:
    """The 0/1 values of the Booleans ``xs`` in a solved CP-SAT model."""
    return [int(solver.boolean_value(x)) for x in xs]
