"""The engine contract: one record, one call shape and one runner for every question.

cpknight answers three questions (tours, distances, routes through required
cells), each by several engines. Every engine, whatever its question, is

* described by an :class:`Engine` record (its name, its question, what it reads,
  whether it can prove, whether it optimises) kept in its question's
  :class:`Registry` (``cpknight.tours.ENGINES``, ``cpknight.distances.ENGINES``,
  ``cpknight.routes.ENGINES``), and
* one function of one shape, imported on first use::

      def solve(instance: TourInstance, run: Run) -> Tour: ...
      def solve(instance: DistanceInstance, run: Run) -> Distance: ...
      def solve(instance: RouteInstance, run: Run) -> Route: ...

The instance is already validated (board, piece, cells); its move graph is built
on first use (``instance.graph``) under the run's clock, so engines that read the
board (``reads="board"``) never pay for it. The :class:`~cpknight.solving.Run`
carries the options and the started clock; ``run.check(what)`` is the only
deadline check. An engine returns a checked value (``make_tour``,
``make_distance``, ``make_route``), raises :class:`~cpknight.errors.NoTourError`
/ :class:`~cpknight.errors.NoPathError` when it proved there is none and
:class:`~cpknight.errors.SolveLimitError` when it ran out of time, each carrying
its effort. It never prints.

:func:`attempt` runs one engine and turns every ending into an
:class:`~cpknight.results.Outcome` in the one status vocabulary
(:class:`~cpknight.status.Status`).

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> from cpknight.solving import SolveOptions
    >>> from cpknight.tours import ENGINES
    >>> inst = TourInstance(Board.parse("4x4"), KNIGHT, closed=True)
    >>> attempt(ENGINES["prune"], inst, SolveOptions().start()).status
    <Status.INFEASIBLE: 'infeasible'>
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from cpknight.board import Board, Cell
from cpknight.constraints import TourConstraints
from cpknight.errors import InvalidInputError, OutcomeError
from cpknight.pieces import Leaper, MoveGraph, move_graph
from cpknight.results import Outcome, Tour
from cpknight.solving import Run, interruptible
from cpknight.status import Effort, Status

__all__ = [
    "DistanceInstance",
    "Engine",
    "Question",
    "Registry",
    "RouteInstance",
    "TourInstance",
    "attempt",
    "solve_with",
]

Question = Literal["tour", "distance", "route", "longest"]
"""The three questions; every engine answers exactly one."""


@dataclass(frozen=True)
class _Instance:
    """What every instance has: a board, a piece and (built once) the move graph."""

    board: Board
    piece: Leaper

    @cached_property
    def graph(self) -> MoveGraph:
        """The move graph, built on first use (under the caller's clock)."""
        return move_graph(self.board, self.piece)

    def build_graph(self, run: Run) -> MoveGraph:
        """Build the move graph now, the run's clock checked as it is built.

        :func:`solve_with` calls this for engines that read the graph, so that
        building it (seconds on 3000x3000) is stopped by the time limit.
        """
        if "graph" not in self.__dict__:
            graph = move_graph(self.board, self.piece, check=run.check)
            object.__setattr__(self, "graph", graph)  # the cached_property's slot
        return self.graph


@dataclass(frozen=True, kw_only=True)
class TourInstance(_Instance):
    """A tour question: every open cell once, closed or open, ends maybe fixed.

    Attributes:
        board: a finite board.
        piece: the leaper.
        closed: whether the last cell must be one move from the first.
        start: the first cell, if fixed.
        end: the last cell, if fixed (open tours only).
        constraints: side constraints (visit numbers, required and forbidden
            moves, symmetry); empty for a plain tour.
    """

    closed: bool = True
    start: Cell | None = None
    end: Cell | None = None
    constraints: TourConstraints = field(default_factory=TourConstraints)


@dataclass(frozen=True, kw_only=True)
class DistanceInstance(_Instance):
    """A distance question: the fewest moves from ``source`` to ``target``."""

    source: Cell
    target: Cell


@dataclass(frozen=True, kw_only=True)
class RouteInstance(_Instance):
    """A route question: the shortest route from ``start`` through every food cell.

    Attributes:
        start: the first cell.
        food: the cells to visit, without repeats, in the order given.
        end: the required last cell (``end == start`` asks for a closed route).
        simple: never use a cell twice (default: a walk, cells may repeat).
    """

    start: Cell
    food: tuple[Cell, ...]
    end: Cell | None = None
    simple: bool = False


@dataclass(frozen=True)
class Engine:
    """One engine: who it is, what it answers, what it reads and promises.

    Attributes:
        name: the method name users type (``'cpsat'``, ``'prune'``, ``'bfs'``).
        question: the question it answers.
        target: ``'module:function'`` of its solve function, imported on use.
        reads: ``'graph'`` (the move graph) or ``'board'`` (the board alone:
            the graph is never built for it).
        proves: whether it can prove that there is none (or that an answer is
            optimal); an engine that cannot only finds.
        optimises: whether it answers an optimisation question (routes,
            distances as integer programs) rather than a feasibility one.
        summary: one line for tables and ``--help``.
        honours: the kinds of tour side constraint it takes (``'via'``,
            ``'require'``, ``'forbid'``, ``'symmetric'``); it refuses an
            instance with any other.

    Examples:
        >>> from cpknight.tours import ENGINES
        >>> e = ENGINES["greedy"]
        >>> e.question, e.reads, e.proves
        ('tour', 'graph', False)
    """

    name: str
    question: Question
    target: str
    reads: Literal["graph", "board"] = "graph"
    proves: bool = True
    optimises: bool = False
    summary: str = ""
    honours: tuple[str, ...] = ()

    def load(self) -> Callable[[Any, Run], Any]:
        """Import the engine's solve function."""
        module, _, name = self.target.partition(":")
        func: Callable[[Any, Run], Any] = getattr(importlib.import_module(module), name)
        return func


class Registry(MutableMapping[str, Engine]):
    """The engines of one question, by name, in the order users see them.

    Examples:
        >>> from cpknight.distances import ENGINES
        >>> list(ENGINES)
        ['bfs', 'ip', 'flow', 'formula', 'bidirectional']
        >>> ENGINES.engine("dijkstra")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a distance method in bfs, ip, \
flow, formula, bidirectional: 'dijkstra'
    """

    def __init__(
        self, question: Question, engines: Iterable[Engine] = (), *, auto: bool = False
    ) -> None:
        self.question = question
        self.auto = auto
        self._engines: dict[str, Engine] = {}
        for engine in engines:
            self.add(engine)

    def add(self, engine: Engine) -> None:
        """Register an engine (a new engine is one module and one such line)."""
        if engine.question != self.question:
            raise ValueError(f"{engine.name} answers {engine.question}, not this")
        self._engines[engine.name] = engine

    def engine(self, name: str) -> Engine:
        """The engine called ``name``.

        Raises:
            InvalidInputError: no such engine; the message lists the names.
        """
        if name not in self._engines:
            known = ", ".join([*self._engines, *(["auto"] if self.auto else [])])
            raise InvalidInputError(
                f"expected a {self.question} method in {known}: {name!r}"
            )
        return self._engines[name]

    def names(self, spec: str) -> list[str]:
        """The engines a comma list names (``'all'`` for every one), checked.

        Examples:
            >>> from cpknight.distances import ENGINES
            >>> ENGINES.names("formula,bfs"), len(ENGINES.names("all"))
            (['formula', 'bfs'], 5)
        """
        if spec == "all":
            return list(self._engines)
        names = [part.strip() for part in spec.split(",") if part.strip()]
        if not names:
            raise InvalidInputError(f"expected one or more {self.question} methods")
        for name in names:
            if name not in self._engines and not (self.auto and name == "auto"):
                known = ", ".join([*self._engines, *(["auto"] if self.auto else [])])
                raise InvalidInputError(
                    f"expected a {self.question} method in {known} or 'all': {name!r}"
                )
        return list(dict.fromkeys(names))

    def __getitem__(self, name: str) -> Engine:
        return self._engines[name]

    def __setitem__(self, name: str, engine: Engine) -> None:
        if engine.name != name:
            raise ValueError(f"engine {engine.name!r} registered as {name!r}")
        self.add(engine)

    def __delitem__(self, name: str) -> None:
        del self._engines[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._engines)

    def __len__(self) -> int:
        return len(self._engines)


def solve_with(engine: Engine, instance: Any, run: Run) -> Any:
    """Run one engine on one instance: its answer, or the error it raised.

    The first import of the engine's module (OR-Tools takes most of a second)
    is not counted against the run's clock; building the graph and the model
    is. Errors that stand for an outcome are tagged with the engine's name.
    """
    constraints = getattr(instance, "constraints", None)
    if constraints:
        refused = [k for k in constraints.kinds() if k not in engine.honours]
        if refused:
            takes = ", ".join(f"--{k}" for k in engine.honours) or "no side constraints"
            raise InvalidInputError(
                f"the {engine.name} engine does not take "
                f"{', '.join(f'--{k}' for k in refused)} (it takes {takes}); "
                "use cpsat"
            )
    began = time.perf_counter()
    solve = engine.load()
    run.clock.exclude(time.perf_counter() - began)
    try:
        # Ctrl-C expires the run's clock: the engine stops at its next deadline
        # check and hands back what it has, as at its time limit.
        with interruptible(run):
            if (
                engine.reads == "graph"
                and isinstance(instance, _Instance)
                and not instance.board.unbounded  # the engine says why not
            ):
                instance.build_graph(run)
            return solve(instance, run)
    except OutcomeError as exc:
        if exc.method is None:
            exc.method = engine.name
        raise


def attempt(engine: Engine, instance: Any, run: Run) -> Outcome:
    """Run one engine and report whatever happened as an :class:`Outcome`.

    "Proved none" and "limit reached" come back as outcomes (``infeasible``,
    ``unknown``) with the effort the engine spent and its bound, instead of an
    exception. Bad input is not an outcome: it raises.
    """
    try:
        value = solve_with(engine, instance, run)
    except OutcomeError as exc:
        return outcome_of_error(engine.question, exc, run, method=engine.name)
    return outcome_of(engine.question, value, run, method=engine.name)


def outcome_of(question: str, value: Any, run: Run, *, method: str) -> Outcome:
    """The outcome of an answer in hand (its status, effort and bound)."""
    status = getattr(value, "status", None)
    if status is None:
        solved = Status.FOUND if getattr(value, "exact", True) else Status.FEASIBLE
    else:
        solved = _STATUS_WORDS.get(str(status), Status(str(status)))
    effort = getattr(value, "effort", None)
    bound = getattr(value, "bound", None)
    return Outcome(
        question=question,
        method=getattr(value, "method", method) or method,
        status=solved,
        seconds=run.elapsed(),
        effort=effort if isinstance(effort, Effort) else Effort(),
        value=value,
        bound=None if bound is None else int(bound),
        interrupted=run.clock.interrupted,
        winner=value.winner if isinstance(value, Tour) else None,
    )


def outcome_of_error(
    question: str, exc: OutcomeError, run: Run, *, method: str
) -> Outcome:
    """The outcome of a proof that there is none, or of the limit reached."""
    return Outcome(
        question=question,
        method=exc.method or method,
        status=exc.status,
        seconds=run.elapsed(),
        effort=exc.effort,
        bound=exc.bound,
        reason=str(exc),
        interrupted=run.clock.interrupted,
        winner=exc.winner,
    )


_STATUS_WORDS = {"complete": Status.FOUND, "partial": Status.UNKNOWN}
