"""The race: ``prune`` and CP-SAT side by side on two threads; the first answer wins.

On shaped boards, tori, cylinders, 3D boards and other leapers no single rule
tells in advance which engine answers first: the pruned search finds most tours
in milliseconds but may wander for minutes where there is none (or on the sparse
graphs of long leapers), while CP-SAT proves "none" and finds tours on small
sparse graphs quickly but needs seconds to build and solve larger models
(``benchmarks/auto.py``). CP-SAT releases the interpreter while it solves, so
the search runs at full speed beside it on the second core. The first engine to
answer (a checked tour, or a proof that there is none) wins; the search has a
head start of :data:`HEAD_START` seconds, and the other's clock is cancelled
(CP-SAT is told to stop its search, the search stops at its next clock check)
and its thread joined before the answer is returned.

Examples:
    >>> from cpknight import find_tour, is_tour
    >>> t = find_tour("6x6", closed=True, piece="knight", method="race")
    >>> is_tour(t.board, t.cells, closed=True), t.method, t.winner in ("prune", "cpsat")
    (True, 'race', True)
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from cpknight.engines import solve_with
from cpknight.errors import InvalidInputError, OutcomeError, SolveLimitError
from cpknight.results import Tour
from cpknight.solving import Run
from cpknight.tours import ENGINES
from cpknight.tours.instance import TourInstance

__all__ = ["RIVALS", "solve"]

RIVALS = ("prune", "cpsat")
"""The engines raced: the first runs in the caller's thread, the second beside it."""

HEAD_START = 0.02
"""Seconds the search runs alone before CP-SAT starts building its model.

Building a CP-SAT model is Python work that shares the interpreter with the
search: on 40x40 with 30 blocked cells it slowed the search from 0.01 s to
0.09 s. Most tours the search finds at all come within this head start; an
instance CP-SAT wins pays it once.
"""


def solve(instance: TourInstance, run: Run) -> Tour:
    """Race :data:`RIVALS` on one instance; the first answer wins.

    Each rival has its own clock, started with the caller's and with the same
    limit. A rival that reaches the limit, or refuses the instance, leaves the
    answer to the other. The answer is the race's (``method='race'``) and
    names the rival that gave it (``winner``, on the tour or on the error).

    Raises:
        NoTourError: a rival proved there is no tour.
        SolveLimitError: neither answered within the limit.
        InvalidInputError: both rivals refused the instance, or one is not
            installed.
    """
    for name in RIVALS:
        if name not in ENGINES:
            raise InvalidInputError(f"the race needs the '{name}' engine")
    front, back = (ENGINES.engine(name) for name in RIVALS)
    began = time.perf_counter()
    back.load()  # the first import (OR-Tools) in this thread, off the clock
    run.clock.exclude(time.perf_counter() - began)
    runs = [run.twin() for _ in RIVALS]
    box: dict[str, Any] = {}
    mine: dict[str, Any] = {}
    done = threading.Event()
    front_over = threading.Event()

    def behind() -> None:
        try:
            # The search's head start: most tours it finds come within it,
            # and then no model is built at all.
            if front_over.wait(HEAD_START) and _answered(mine):
                box["error"] = SolveLimitError("not started: the search answered")
                return
            box["value"] = solve_with(back, instance, runs[1])
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc
        finally:
            done.set()
            if _answered(box):
                runs[0].clock.cancel()

    thread = threading.Thread(target=behind, name="cpknight-race", daemon=True)
    thread.start()
    try:
        try:
            mine["value"] = solve_with(front, instance, runs[0])
        except (OutcomeError, InvalidInputError) as exc:
            mine["error"] = exc
        finally:
            front_over.set()
        if not _answered(mine):
            # The search gave up (limit, refused, or cancelled by the other).
            while not done.wait(0.05):
                pass
    finally:
        _stop(runs[1], done)  # whatever happened here (an answer, Ctrl-C)
        if runs[0].clock.interrupted:  # Ctrl-C reached the search's clock
            run.clock.interrupt()
    return _verdict(mine, box)


def _stop(run: Run, done: threading.Event) -> None:
    """Stop a rival: cancel its clock until it has stopped (it may not have started)."""
    while not done.is_set():
        run.clock.cancel()
        done.wait(0.01)


def _verdict(mine: dict[str, Any], box: dict[str, Any]) -> Tour:
    """The first answer; else a failed check (a bug), the limit, or the refusal."""
    for rival in (mine, box):
        if _answered(rival):
            return _result(rival)
    errors = [mine["error"], box["error"]]
    for error in errors:  # a failed check (a bug) first, then the limit
        if not isinstance(error, SolveLimitError | InvalidInputError):
            raise error
    for error in errors:
        if isinstance(error, SolveLimitError):
            raise _as_race(error, winner=False)
    raise errors[0]  # both refused the instance


def _answered(box: dict[str, Any]) -> bool:
    """A tour, or a proof that there is none (not a limit, not a refusal)."""
    if "value" in box:
        return True
    error = box.get("error")
    return isinstance(error, OutcomeError) and not isinstance(error, SolveLimitError)


def _result(box: dict[str, Any]) -> Tour:
    """The winner's answer, as the race's: ``method='race'``, ``winner`` its name."""
    if "value" in box:
        tour: Tour = box["value"]
        return dataclasses.replace(tour, method="race", winner=tour.method)
    error: OutcomeError = box["error"]
    raise _as_race(error, winner=True)


def _as_race(error: OutcomeError, *, winner: bool) -> OutcomeError:
    """The race's error: it names the race, and the rival whose answer it is."""
    if winner:
        error.winner = error.method
    error.method = None  # solve_with names the race
    return error
