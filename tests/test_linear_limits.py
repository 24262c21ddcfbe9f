"""The time limit a ``model_builder`` backend gets (``cpknight/solving/linear.py``).

SCIP, HiGHS and PDLP are not stopped but ended with their worker a little
past the run's limit, and what they found is lost with them; so their own
limit comes a little earlier, for them to stop by themselves and hand back
their best. CP-SAT and GLOP are stopped, their answer kept, and get it all.
"""

from __future__ import annotations

import pytest
from ortools.linear_solver.python import model_builder as mb

from cpknight.solving import SolveOptions
from cpknight.solving.linear import (
    OWN_MARGIN,
    OWN_MARGIN_CAP,
    STOPPABLE_BACKENDS,
    builder_solver,
    own_limit,
)


@pytest.mark.parametrize("backend", ["scip", "highs", "pdlp"])
def test_a_backend_ended_with_its_worker_stops_first(backend: str) -> None:
    assert backend not in STOPPABLE_BACKENDS
    assert own_limit(backend, 10.0) == pytest.approx(10.0 * (1 - OWN_MARGIN))
    assert own_limit(backend, 0.5) == pytest.approx(0.5 * (1 - OWN_MARGIN))
    # a long run leaves at most the cap unused
    assert own_limit(backend, 36_000.0) == pytest.approx(36_000.0 - OWN_MARGIN_CAP)
    assert 0 < OWN_MARGIN < 0.1
    assert OWN_MARGIN_CAP <= 60


@pytest.mark.parametrize("backend", ["sat", "glop"])
def test_a_stoppable_backend_gets_all_the_time(backend: str) -> None:
    assert own_limit(backend, 10.0) == 10.0


@pytest.mark.parametrize(("backend", "share"), [("scip", 1 - OWN_MARGIN), ("sat", 1)])
def test_the_solver_is_given_its_own_limit(
    backend: str, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[float] = []
    real = mb.Solver.set_time_limit_in_seconds

    def spy(self: mb.Solver, seconds: float) -> None:
        given.append(seconds)
        real(self, seconds)

    monkeypatch.setattr(mb.Solver, "set_time_limit_in_seconds", spy)
    run = SolveOptions(time_limit=100.0).start()
    builder_solver(backend, run)
    builder_solver(backend, run, limit=40.0)  # a part's share of the time
    assert given[0] == pytest.approx(100.0 * share, abs=0.5)
    assert given[1] == pytest.approx(40.0 * share, abs=0.01)
