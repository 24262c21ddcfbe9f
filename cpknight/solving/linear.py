"""Linear and integer programs: a ``model_builder`` backend under the run's clock.

:func:`solve_linear` gives a backend what is left of the run's time, stops
GLOP and CP-SAT on Ctrl-C (``stop_search``), and runs SCIP, HiGHS and PDLP
(which do not heed it) in a forked worker (:mod:`cpknight.runtime.forked`)
ended at the limit or on Ctrl-C. Only the integer-program engines load it.

One backend is not ``model_builder``'s: ``'pyscipopt'`` (:data:`SCIPOPT`)
hands the same model, written as MPS, to SCIP through PySCIPOpt (the ``scip``
extra: ``pip install 'cpknight[scip]'``). Its wheel carries SCIP 10 built with
a symmetry detector (nauty and sassy); the SCIP inside the ``ortools`` wheel
has none ("SYM=none" in its log). On the covering programs, whose boards have
eight symmetries, that is the difference between 346 s and 139 s for 17 x 17
domination, side by side (the records page).
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cpknight.runtime.forked import fork_available, run_forked
from cpknight.runtime.optional import require
from cpknight.solving import Run, solve_stoppably

__all__ = [
    "OWN_MARGIN",
    "OWN_MARGIN_CAP",
    "SCIPOPT",
    "SOFT_STOP",
    "STOPPABLE_BACKENDS",
    "STOP_GRACE",
    "LinearAnswer",
    "builder_solver",
    "own_limit",
    "solve_linear",
]


def builder_solver(
    backend: str, run: Run, parameters: str = "", *, limit: float | None = None
) -> Any:
    """A ``model_builder`` solver, silent, given what is left of the run's time.

    Args:
        backend: the solver's name (``'scip'``, ``'highs'``, ``'sat'``, ...).
        run: the started clock (its remaining time becomes the solver's limit).
        parameters: the backend's own parameters, in its own syntax.
        limit: at most this many seconds, if less is left.

    Examples:
        >>> from cpknight.solving import SolveOptions
        >>> solver = builder_solver("scip", SolveOptions(time_limit=5).start())
        >>> solver.solver_is_supported()
        True
    """
    from ortools.linear_solver.python import model_builder as mb

    solver = mb.Solver(backend)
    solver.enable_output(False)
    remaining = run.remaining()
    if limit is not None:
        remaining = limit if remaining is None else min(remaining, limit)
    if remaining is not None:
        solver.set_time_limit_in_seconds(max(own_limit(backend, remaining), 1e-3))
    if parameters:
        solver.set_solver_specific_parameters(parameters)
    return solver


def own_limit(backend: str, seconds: float) -> float:
    """The time limit a backend is given when ``seconds`` are left.

    A backend that ``stop_search`` does not stop (SCIP, HiGHS, PDLP) is
    ended with its worker :data:`STOP_GRACE` s past the run's limit, and what
    it found is lost with it. So it gets its own limit a little earlier:
    :data:`OWN_MARGIN` of the time (at most :data:`OWN_MARGIN_CAP` s), for
    the solver to stop by itself and hand back its best placement and bound.
    SCIP given an hour on 19 x 19 independent domination (it finds the
    optimum, 58, within a minute) came back with nothing: its worker had not
    answered by 0.3 s past the limit, and was ended.

    Examples:
        >>> own_limit("scip", 10.0), own_limit("scip", 3600.0)
        (9.8, 3580.0)
        >>> own_limit("sat", 10.0)  # CP-SAT is stopped, its answer kept
        10.0
    """
    if backend in STOPPABLE_BACKENDS:
        return seconds
    return seconds - min(seconds * OWN_MARGIN, OWN_MARGIN_CAP)


OWN_MARGIN = 0.02
"""The share of the time left that a backend ended with its worker leaves
unused, to stop by its own limit first (see :func:`own_limit`)."""

OWN_MARGIN_CAP = 20.0
"""The most seconds :data:`OWN_MARGIN` takes off a long run."""

STOPPABLE_BACKENDS = frozenset({"glop", "sat", "cp_sat"})
"""The ``model_builder`` backends whose ``stop_search`` stops a solve under way
(measured with OR-Tools 9.15: GLOP and CP-SAT stop within milliseconds; SCIP,
HiGHS and PDLP carry on to their time limit)."""

STOP_GRACE = 0.3
"""Seconds past the run's limit a solver may take to honour its own limit
before it is stopped (or its worker process ended)."""


SCIPOPT = "pyscipopt"
"""The backend that is SCIP through PySCIPOpt, not through ``model_builder``."""

SOFT_STOP = {"scip": 0.4, SCIPOPT: 0.4}
"""Seconds a backend that catches SIGINT may take to answer once asked to stop
(Ctrl-C, or :data:`STOP_GRACE` past the limit) before its worker is ended:
SCIP stops within a fraction of a second and hands back its best solution
and bound (``run_forked``'s ``soft_stop``). The others are ended at once."""


@dataclass(frozen=True)
class LinearAnswer:
    """What one ``model_builder`` solve left: its status, values and figures.

    Attributes:
        status: the solver's ``SolveStatus``.
        values: the values of the variables asked for (empty without a
            solution).
        objective: the objective's value (NaN without a solution).
        bound: the solver's proved bound on the objective (NaN if none).
        interrupted: Ctrl-C (or the run's clock) stopped the solve.
    """

    status: Any
    values: tuple[float, ...]
    objective: float
    bound: float
    interrupted: bool = False

    @property
    def solved(self) -> bool:
        """Whether a solution came back (optimal or feasible)."""
        from ortools.linear_solver.python import model_builder as mb

        return bool(
            self.values
            and self.status in (mb.SolveStatus.OPTIMAL, mb.SolveStatus.FEASIBLE)
        )


def solve_linear(
    backend: str,
    model: Any,
    run: Run,
    variables: Sequence[Any],
    *,
    parameters: str = "",
    limit: float | None = None,
) -> LinearAnswer:
    """Solve a ``model_builder`` model so that the clock and Ctrl-C stop it.

    The solver gets what is left of the run's time (at most ``limit`` s) as
    its own limit. A backend that ``stop_search`` stops
    (:data:`STOPPABLE_BACKENDS`) solves in a thread, stopped on Ctrl-C; the
    others (SCIP, HiGHS, PDLP) solve in a worker process (a fork, where the
    system has one), ended on Ctrl-C or :data:`STOP_GRACE` s past the limit;
    SCIP is first asked to stop with SIGINT and keeps its best solution
    (:data:`SOFT_STOP`).
    Either way the first Ctrl-C (see :func:`interruptible`) stops the solve
    within a fraction of a second, and the call returns; the run's clock is
    then interrupted.

    Args:
        backend: the solver's name (``'glop'``, ``'scip'``, ``'highs'``, ...,
            or :data:`SCIPOPT`).
        model: the ``model_builder.Model``.
        run: the started clock.
        variables: the variables whose values come back.
        parameters: the backend's own parameters, in its own syntax.
        limit: at most this many seconds, if less is left.

    Returns:
        The status, the values (when solved) and the objective and bound.

    Examples:
        >>> from ortools.linear_solver.python import model_builder as mb
        >>> from cpknight.solving import SolveOptions
        >>> m = mb.Model()
        >>> x, y = m.new_bool_var("x"), m.new_bool_var("y")
        >>> _ = m.add(x + y <= 1)
        >>> m.maximize(x + 2 * y)
        >>> a = solve_linear("highs", m, SolveOptions(time_limit=5).start(), [x, y])
        >>> a.status.name, a.values, a.objective
        ('OPTIMAL', (0.0, 1.0), 2.0)

    Raises:
        MissingDependencyError: :data:`SCIPOPT` without PySCIPOpt installed.
    """
    if backend == SCIPOPT:
        return _solve_scipopt(model, run, variables, parameters, limit)
    solver = builder_solver(backend, run, parameters, limit=limit)
    if backend in STOPPABLE_BACKENDS or not fork_available():
        return _solve_linear_here(solver, model, run, variables)
    return _solve_linear_forked(
        solver, model, run, variables, soft_stop=SOFT_STOP.get(backend, 0.0)
    )


def _stop_due(run: Run) -> bool:
    """Whether a native solve still running should be stopped now."""
    return run.clock.interrupted or run.clock.expired(STOP_GRACE)


def _linear_figures(solver: Any, variables: Sequence[Any]) -> tuple[Any, ...]:
    """The values, objective and bound a finished ``model_builder`` solver holds."""
    values: tuple[float, ...] = ()
    objective = bound = math.nan
    with contextlib.suppress(Exception):  # no solution: the solver raises
        values = tuple(float(solver.value(v)) for v in variables)
        objective = float(solver.objective_value)
    with contextlib.suppress(Exception):
        bound = float(solver.best_objective_bound)
    return values, objective, bound


def _solve_linear_here(
    solver: Any, model: Any, run: Run, variables: Sequence[Any]
) -> LinearAnswer:
    """A thread solves; the caller's waits, and stops it on Ctrl-C or the limit."""
    status, interrupted = solve_stoppably(
        lambda: solver.solve(model), solver.stop_search, run, "linear"
    )
    if interrupted:
        run.clock.interrupt()  # the rest of the run stops as at Ctrl-C
    values, objective, bound = _linear_figures(solver, variables)
    return LinearAnswer(status, values, objective, bound, interrupted)


def _solve_linear_forked(
    solver: Any,
    model: Any,
    run: Run,
    variables: Sequence[Any],
    *,
    soft_stop: float = 0.0,
) -> LinearAnswer:
    """A forked worker solves and sends back what it found; ended on Ctrl-C.

    With ``soft_stop``, the worker is sent SIGINT first and given that long to
    answer (SCIP does, with its best solution) before it is ended.
    """

    def work() -> bytes:
        status = solver.solve(model)
        values, objective, bound = _linear_figures(solver, variables)
        return pickle.dumps((status.name, values, objective, bound))

    payload = run_forked(
        work, lambda: _stop_due(run), run.clock.interrupt, soft_stop=soft_stop
    )
    return _worker_answer(payload, run)


def _worker_answer(payload: bytes | None, run: Run) -> LinearAnswer:
    """What a worker sent (its status's name, values, objective and bound)."""
    from ortools.linear_solver.python import model_builder as mb

    interrupted = run.clock.interrupted
    if payload is None:  # ended (Ctrl-C, the limit) or died
        ended = interrupted or _stop_due(run)
        status = mb.SolveStatus.NOT_SOLVED if ended else mb.SolveStatus.ABNORMAL
        return LinearAnswer(status, (), math.nan, math.nan, interrupted)
    name, values, objective, bound = pickle.loads(payload)
    return LinearAnswer(
        getattr(mb.SolveStatus, name), tuple(values), objective, bound, interrupted
    )


_SCIPOPT_STATUS = {
    "optimal": "OPTIMAL",
    "infeasible": "INFEASIBLE",
    "unbounded": "UNBOUNDED",
}
"""PySCIPOpt's final statuses as ``SolveStatus`` names; any other (a limit,
an interrupt) is ``FEASIBLE`` with a solution and ``NOT_SOLVED`` without."""


def _solve_scipopt(
    model: Any,
    run: Run,
    variables: Sequence[Any],
    parameters: str,
    limit: float | None,
) -> LinearAnswer:
    """SCIP through PySCIPOpt, in a forked worker as for ``model_builder``'s SCIP.

    The model goes over as an MPS file with its variables named by index
    (``V000``, ``V001``, ...), written here and read by the worker; a worker
    ended on the way leaves no file behind.
    """
    module = require("pyscipopt", "the pyscipopt backend", extra="scip")
    remaining = run.remaining()
    if limit is not None:
        remaining = limit if remaining is None else min(remaining, limit)
    seconds = None if remaining is None else max(own_limit(SCIPOPT, remaining), 1e-3)
    wanted = [int(v.index) for v in variables]
    text = model.export_to_mps_string(obfuscate=True)
    text = _scip_mps(text)
    with tempfile.TemporaryDirectory(prefix="cpknight-") as folder:
        path = os.path.join(folder, "model.mps")
        with open(path, "w", encoding="ascii") as handle:
            handle.write(text)

        def work() -> bytes:
            answer = _scipopt_answer(module, path, seconds, parameters, wanted)
            return pickle.dumps(answer)

        if fork_available():
            payload = run_forked(
                work,
                lambda: _stop_due(run),
                run.clock.interrupt,
                soft_stop=SOFT_STOP[SCIPOPT],
            )
        else:  # SCIP catches Ctrl-C itself and keeps its best solution
            payload = work()
    return _worker_answer(payload, run)


def _scip_mps(text: str) -> str:
    r"""OR-Tools' MPS as SCIP's reader takes it.

    The model's name becomes one word, and a program without right-hand
    sides (no rows, or every row ``>= 0``) gets the empty ``RHS`` section
    SCIP's reader expects before ``BOUNDS``.

    Examples:
        >>> _scip_mps("NAME          a b\nROWS\nCOLUMNS\nBOUNDS\nENDATA\n")
        'NAME cpknight\nROWS\nCOLUMNS\nRHS\nBOUNDS\nENDATA\n'
    """
    text = re.sub(r"(?m)^NAME .*$", "NAME cpknight", text, count=1)
    if not re.search(r"(?m)^RHS\s*$", text):
        text = re.sub(r"(?m)^(RANGES|BOUNDS|ENDATA)\s*$", r"RHS\n\1", text, count=1)
    return text


def _scipopt_answer(
    module: Any,
    path: str,
    seconds: float | None,
    parameters: str,
    wanted: Sequence[int],
) -> tuple[str, tuple[float, ...], float, float]:
    """Solve the MPS file at ``path``: (status name, values, objective, bound)."""
    scip = module.Model()
    scip.hideOutput()
    scip.readProblem(path)
    for line in parameters.splitlines():
        name, _, value = line.partition("=")
        if name.strip():
            scip.setParam(name.strip(), _parameter_value(value.strip()))
    if seconds is not None:
        scip.setParam("limits/time", seconds)
    scip.optimize()
    values: tuple[float, ...] = ()
    objective = math.nan
    if scip.getNSols() > 0:
        best = scip.getBestSol()
        # the names are V and the index, zero-padded to a common width
        by_index = {int(v.name[1:]): v for v in scip.getVars()}
        # a variable in no row, objective or bound section is not in the file:
        # free within its default bounds, where 0 is
        values = tuple(
            float(scip.getSolVal(best, by_index[i])) if i in by_index else 0.0
            for i in wanted
        )
        objective = float(scip.getSolObjVal(best))
    status = _SCIPOPT_STATUS.get(str(scip.getStatus()))
    if status is None:
        status = "FEASIBLE" if values else "NOT_SOLVED"
    bound = float(scip.getDualbound())
    return status, values, objective, bound


def _parameter_value(text: str) -> bool | int | float | str:
    """A SCIP parameter's value as written in a settings line (``name = value``).

    Examples:
        >>> [_parameter_value(t) for t in ("TRUE", "3", "0.5", "'p'")]
        [True, 3, 0.5, 'p']
    """
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    for kind in (int, float):
        with contextlib.suppress(ValueError):
            return kind(text)
    return text.strip("'\"")
