"""The portfolio: CP-SAT and SCIP on one covering question at once, best kept.

Neither solver wins everywhere (``benchmarks/covering.py``): CP-SAT with its LP
on every row proves domination up to 12 x 12 in about a second, but on 16 x 16
it stops at 42 knights with a bound of 37 after 120 s, while SCIP proves the
optimum 40 in 30 s; on small boards with many optimal placements CP-SAT counts
them in one enumeration where SCIP needs one solve a placement. So both run,
each on its own core: CP-SAT in a thread (it releases the interpreter while it
solves), SCIP in a forked worker. The first to *prove* its answer (an optimum,
counted if asked, or that there is none) wins: the other's clock is cancelled
(CP-SAT is told to stop, SCIP's worker is ended) and the answer is returned as
the portfolio's, naming the winner.

When the limit (or Ctrl-C) stops both before either proves, nothing either
found is lost: the answer is the better placement of the two, with the better
of the two proved bounds. Where one's placement meets the other's bound, that
is a proof too (``status`` optimal; a count asked for is then not known).

Where the system cannot fork (Windows), SCIP could not be stopped when CP-SAT
wins, and the portfolio is CP-SAT alone. Where PySCIPOpt is installed (the
``scip`` extra), the SCIP beside CP-SAT is its SCIP 10 (``pyscipopt``), which
breaks the board's symmetries; else the one in the ``ortools`` wheel
(:func:`rivals`).

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> inst = CoverInstance(board=Board.parse("8x8"), piece=KNIGHT,
    ...                      kind="dominating")
    >>> c = solve(inst, SolveOptions(time_limit=30).start())
    >>> c.size, c.optimal, c.method, c.winner in rivals()  # OEIS A006075(8) = 12
    (12, True, 'portfolio', True)
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from cpknight.covering.common import Cover, CoverInstance, maximises
from cpknight.engines import solve_with
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    OutcomeError,
    SolveLimitError,
)
from cpknight.runtime.forked import fork_available
from cpknight.solving import Run
from cpknight.status import Status

__all__ = ["RIVALS", "rivals", "solve"]

RIVALS = ("cpsat", "scip")
"""The engines run side by side without PySCIPOpt (SCIP only where the system
forks)."""


def rivals() -> tuple[str, ...]:
    """The engines run side by side here: CP-SAT and the best SCIP installed.

    Examples:
        >>> rivals()[0]
        'cpsat'
    """
    from cpknight.covering import ENGINES

    names = RIVALS
    if ENGINES["pyscipopt"].available:
        names = ("cpsat", "pyscipopt")
    return names if fork_available() else names[:1]


def solve(instance: CoverInstance, run: Run) -> Cover:
    """Run :data:`RIVALS` side by side; the first proof wins, else the best of both.

    Raises:
        NoPathError: a rival proved that there is no such placement.
        SolveLimitError: neither found a placement by the limit (with the
            better of their bounds).
    """
    from cpknight.covering import ENGINES

    names = rivals()
    engines = [ENGINES.engine(name) for name in names]
    for engine in engines:  # the first imports, off the clock
        began = time.perf_counter()
        engine.load()
        run.clock.exclude(time.perf_counter() - began)
    runs = [run.twin() for _ in names]
    boxes: list[dict[str, Any]] = [{} for _ in names]
    over = [threading.Event() for _ in names]
    proved = threading.Event()

    def rival(i: int) -> None:
        try:
            boxes[i]["value"] = solve_with(engines[i], instance, runs[i])
        except BaseException as exc:  # handed to the caller's thread
            boxes[i]["error"] = exc
        finally:
            over[i].set()
            if _proved(boxes[i], instance.count):
                proved.set()
                for j, other in enumerate(runs):
                    if j != i:
                        other.clock.cancel()

    threads = [
        threading.Thread(target=rival, args=(i,), name=f"cpknight-{n}", daemon=True)
        for i, n in enumerate(names)
    ]
    for thread in threads:
        thread.start()
    try:
        while not all(e.is_set() for e in over):
            proved.wait(0.05)
            if run.clock.interrupted:  # Ctrl-C: every rival hands back what it has
                for r in runs:
                    r.clock.interrupt()
    finally:
        for i, r in enumerate(runs):  # whatever happened here
            while not over[i].is_set():
                r.clock.cancel()
                over[i].wait(0.01)
    return _verdict(instance, names, boxes)


def _proved(box: dict[str, Any], count: bool) -> bool:
    """An optimum (counted, if asked), or a proof that there is none."""
    value = box.get("value")
    if value is not None:
        counted = not count or value.count is not None
        return bool(value.status is Status.OPTIMAL and counted)
    error = box.get("error")
    return isinstance(error, OutcomeError) and not isinstance(error, SolveLimitError)


def _verdict(
    instance: CoverInstance, names: tuple[str, ...], boxes: list[dict[str, Any]]
) -> Cover:
    """The winner's proof, else the best placement with the best bound."""
    for name, box in zip(names, boxes, strict=True):
        if _proved(box, instance.count):
            if "value" in box:
                won: Cover = box["value"]
                return dataclasses.replace(won, method="portfolio", winner=name)
            error: OutcomeError = box["error"]
            error.winner = name
            error.method = None  # solve_with names the portfolio
            raise error
    for box in boxes:  # a failed check (a bug) before anything else
        error_ = box.get("error")
        if error_ is not None and not isinstance(
            error_, SolveLimitError | InvalidInputError
        ):
            raise error_
    maximise = maximises(instance.kind)
    covers: list[tuple[str, Cover]] = [
        (name, box["value"])
        for name, box in zip(names, boxes, strict=True)
        if "value" in box
    ]
    bounds = [
        b["value"].bound if "value" in b else getattr(b["error"], "bound", None)
        for b in boxes
    ]
    known = [b for b in bounds if b is not None]
    bound = (min(known) if maximise else max(known)) if known else None
    if not covers:
        limits = [b["error"] for b in boxes if isinstance(b["error"], SolveLimitError)]
        if not limits:
            raise boxes[0]["error"]  # every rival refused the instance
        first: SolveLimitError = limits[0]
        first.bound = bound
        first.method = None
        raise first
    pick = max if maximise else min
    name, best = pick(covers, key=lambda nc: nc[1].size)
    assert bound is not None  # a cover carries its bound
    wrong = bound < best.size if maximise else bound > best.size
    if wrong:
        raise EngineError(
            f"internal error: the portfolio's bound {bound} is on the wrong side "
            f"of its {best.size}-knight answer"
        )
    return dataclasses.replace(
        best,
        status=Status.OPTIMAL if bound == best.size else Status.FEASIBLE,
        bound=bound,
        method="portfolio",
        winner=name,
        count=best.count if bound == best.size else None,
    )
