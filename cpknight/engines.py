"""The engine contract: one record, one call shape and one runner for every question.

cpknight answers five questions (tours, counting tours, distances, routes
through required cells, longest paths), each by several engines. Every engine,
whatever its question, is

* described by an :class:`Engine` record (its name, its question, what it reads,
  whether it can prove, whether it optimises) kept in its question's
  :class:`Registry` (``cpknight.tours.ENGINES``, ``cpknight.counting.ENGINES``,
  ``cpknight.distances.ENGINES``, ``cpknight.routes.ENGINES``,
  ``cpknight.longest.ENGINES``), and
* one function of one shape, imported on first use::

      def solve(instance: TourInstance, run: Run) -> Tour: ...
      def solve(instance: CountInstance, run: Run) -> TourCount: ...
      def solve(instance: DistanceInstance, run: Run) -> Distance: ...
      def solve(instance: RouteInstance, run: Run) -> Route: ...

  typed by a protocol per question (:class:`TourEngine`, :class:`CountEngine`,
  :class:`DistanceEngine`, :class:`RouteEngine`: each a
  :class:`SolveFunction` of its instance and value; the longest paths' types
  live above this layer, in :mod:`cpknight.longest.common`). An :class:`Engine` and
  its :class:`Registry` are generic over the two, set where the question's
  registry is annotated, so that :func:`solve_with` returns the question's
  value type; every value is an :class:`~cpknight.results.Answer` (method,
  status, effort, bound), all :func:`outcome_of` reads.

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
    >>> from cpknight.tours.instance import TourInstance
    >>> inst = TourInstance(Board.parse("4x4"), KNIGHT, closed=True)
    >>> attempt(ENGINES["prune"], inst, SolveOptions().start()).status
    <Status.INFEASIBLE: 'infeasible'>
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol

if TYPE_CHECKING:
    # PEP 696 defaults (typing has them from Python 3.13); ortools requires it.
    from typing_extensions import TypeVar

    # Quoted in the engine protocols below (ruff does not see them there).
    from cpknight.counting.instance import CountInstance  # noqa: F401
    from cpknight.counts import TourCount  # noqa: F401
    from cpknight.distances.instance import DistanceInstance  # noqa: F401
    from cpknight.results import Answer, Distance, Route, Tour  # noqa: F401
    from cpknight.routes.instance import RouteInstance  # noqa: F401
    from cpknight.tours.instance import TourInstance  # noqa: F401
else:  # the defaults speak to type checkers only: typing's TypeVar at run time
    # (typing_extensions costs milliseconds of every command's start-up)
    from typing import TypeVar as _TypeVar

    def TypeVar(name, *constraints, default=None, **kwargs):
        return _TypeVar(name, *constraints, **kwargs)


from cpknight.board import Board
from cpknight.errors import InvalidInputError, OutcomeError
from cpknight.pieces import Leaper, MoveGraph, move_graph
from cpknight.results import Outcome
from cpknight.solving import Run, interruptible

__all__ = [
    "BoardInstance",
    "CountEngine",
    "DistanceEngine",
    "Engine",
    "Question",
    "Registry",
    "RouteEngine",
    "SolveFunction",
    "TourEngine",
    "attempt",
    "outcome_of",
    "outcome_of_error",
    "solve_with",
]

Question = Literal["tour", "distance", "route", "longest", "count", "swap", "cover"]
"""The questions; every engine answers exactly one."""


@dataclass(frozen=True)
class BoardInstance:
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


InstanceT = TypeVar("InstanceT", default=Any)
AnswerT = TypeVar("AnswerT", bound="Answer", default=Any)
_InstanceIn = TypeVar("_InstanceIn", contravariant=True)
_AnswerOut = TypeVar("_AnswerOut", bound="Answer", covariant=True)


class SolveFunction(Protocol[_InstanceIn, _AnswerOut]):
    """The one call shape of every engine: ``solve(instance, run) -> answer``."""

    def __call__(self, instance: _InstanceIn, run: Run, /) -> _AnswerOut:
        """Answer the instance (or raise an :class:`OutcomeError`)."""
        ...


class TourEngine(SolveFunction["TourInstance", "Tour"], Protocol):
    """A tour engine: ``solve(TourInstance, Run) -> Tour``."""


class DistanceEngine(SolveFunction["DistanceInstance", "Distance"], Protocol):
    """A distance engine: ``solve(DistanceInstance, Run) -> Distance``."""


class RouteEngine(SolveFunction["RouteInstance", "Route"], Protocol):
    """A route engine: ``solve(RouteInstance, Run) -> Route``."""


class CountEngine(SolveFunction["CountInstance", "TourCount"], Protocol):
    """A count engine: ``solve(CountInstance, Run) -> TourCount``."""


@dataclass(frozen=True)
class Engine(Generic[InstanceT, AnswerT]):
    """One engine: who it is, what it answers, what it reads and promises.

    Generic over the instance it takes and the answer it gives, both set by
    its question's registry, annotated where the registry lives (an engine
    in ``cpknight.tours.ENGINES`` is an ``Engine[TourInstance, Tour]``);
    :meth:`load` returns its typed solve function.

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
        instant: it answers in microseconds (a closed form): :func:`solve_with`
            calls it without watching for Ctrl-C, which would cost more than
            the answer.
        needs: the optional module it solves with (``'pyscipopt'``), if any:
            without it the engine is left out of ``'all'`` and :meth:`load`
            says in one line which extra installs it.
        extra: the extra that installs :attr:`needs` (``'scip'``).

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
    instant: bool = False
    needs: str = ""
    extra: str = ""

    @property
    def available(self) -> bool:
        """Whether what it solves with is installed (found, not imported)."""
        from cpknight.runtime.optional import installed

        return not self.needs or installed(self.needs)

    def load(self) -> SolveFunction[InstanceT, AnswerT]:
        """Import the engine's solve function (once: later calls look it up).

        Raises:
            MissingDependencyError: the module it :attr:`needs` is missing.
        """
        if self.needs:
            from cpknight.runtime.optional import require

            require(self.needs, f"the {self.name} method", extra=self.extra)
        func: SolveFunction[InstanceT, AnswerT] = _load_target(self.target)
        return func


class Registry(MutableMapping[str, Engine[InstanceT, AnswerT]]):
    """The engines of one question, by name, in the order users see them.

    Generic like its engines: ``cpknight.tours.ENGINES`` is a
    ``Registry[TourInstance, Tour]``, so that ``solve_with(ENGINES.engine(name),
    instance, run)`` is a :class:`~cpknight.results.Tour` to the type checker.

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
        self,
        question: Question,
        engines: Iterable[Engine[InstanceT, AnswerT]] = (),
        *,
        auto: bool = False,
    ) -> None:
        self.question = question
        self.auto = auto
        self._engines: dict[str, Engine[InstanceT, AnswerT]] = {}
        for engine in engines:
            self.add(engine)

    def add(self, engine: Engine[InstanceT, AnswerT]) -> None:
        """Register an engine (a new engine is one module and one such line)."""
        if engine.question != self.question:
            raise ValueError(f"{engine.name} answers {engine.question}, not this")
        self._engines[engine.name] = engine

    def engine(self, name: str) -> Engine[InstanceT, AnswerT]:
        """The engine called ``name``.

        Raises:
            InvalidInputError: no such engine; the message lists the names.
        """
        if not isinstance(name, str) or name not in self._engines:
            known = ", ".join([*self._engines, *(["auto"] if self.auto else [])])
            raise InvalidInputError(
                f"expected a {self.question} method in {known}: {name!r}"
            )
        return self._engines[name]

    def names(self, spec: str) -> list[str]:
        """The engines a comma list names, checked.

        ``'all'`` is every engine that can run here: one whose optional
        module is not installed (:attr:`Engine.available`) is left out.

        Examples:
            >>> from cpknight.distances import ENGINES
            >>> ENGINES.names("formula,bfs"), len(ENGINES.names("all"))
            (['formula', 'bfs'], 5)
        """
        if not isinstance(spec, str):
            raise InvalidInputError(
                f"expected {self.question} methods as a comma list: {spec!r}"
            )
        if spec == "all":
            return [name for name, e in self._engines.items() if e.available]
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

    def __getitem__(self, name: str) -> Engine[InstanceT, AnswerT]:
        return self._engines[name]

    def __setitem__(self, name: str, engine: Engine[InstanceT, AnswerT]) -> None:
        if engine.name != name:
            raise ValueError(f"engine {engine.name!r} registered as {name!r}")
        self.add(engine)

    def __delitem__(self, name: str) -> None:
        del self._engines[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._engines)

    def __len__(self) -> int:
        return len(self._engines)

    def __repr__(self) -> str:
        """The question and its engines' names, as a notebook shows them.

        Examples:
            >>> from cpknight.counting import ENGINES
            >>> ENGINES
            Registry('count', ['frontier', 'subsets', 'cpsat'], auto=True)
        """
        auto = ", auto=True" if self.auto else ""
        return f"Registry({self.question!r}, {list(self._engines)!r}{auto})"


@functools.cache
def _load_target(target: str) -> Any:
    """The function a ``'module:function'`` target names, imported on first use."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def solve_with(
    engine: Engine[InstanceT, AnswerT], instance: InstanceT, run: Run
) -> AnswerT:
    """Run one engine on one instance: its answer, or the error it raised.

    The first import of the engine's module (OR-Tools takes most of a second)
    is not counted against the run's clock; building the graph and the model
    is. Errors that stand for an outcome are tagged with the engine's name.
    """
    constraints = getattr(instance, "constraints", None)  # tours and counts
    if constraints:
        honours = engine.honours
        refused = [k for k in constraints.kinds() if k not in honours]
        if refused:
            takes = ", ".join(f"--{k}" for k in honours) or "no side constraints"
            raise InvalidInputError(
                f"the {engine.name} engine does not take "
                f"{', '.join(f'--{k}' for k in refused)} (it takes {takes}); "
                "use cpsat"
            )
    began = time.perf_counter()
    solve = engine.load()
    run.clock.exclude(time.perf_counter() - began)
    try:
        if engine.instant:  # microseconds: nothing for Ctrl-C to stop
            return solve(instance, run)
        # Ctrl-C expires the run's clock: the engine stops at its next deadline
        # check and hands back what it has, as at its time limit.
        with interruptible(run):
            if (
                engine.reads == "graph"
                and isinstance(instance, BoardInstance)
                and not instance.board.unbounded  # the engine says why not
            ):
                instance.build_graph(run)
            return solve(instance, run)
    except OutcomeError as exc:
        if exc.method is None:
            exc.method = engine.name
        raise


def attempt(
    engine: Engine[InstanceT, AnswerT], instance: InstanceT, run: Run
) -> Outcome:
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


def outcome_of(question: str, value: Answer, run: Run, *, method: str) -> Outcome:
    """The outcome of an answer in hand: its status, effort and bound, as it says.

    Examples:
        >>> from cpknight import find_tour
        >>> from cpknight.solving import SolveOptions
        >>> o = outcome_of("tour", find_tour("5x5", closed=False, method="prune"),
        ...                SolveOptions().start(), method="prune")
        >>> str(o.status), o.method, o.bound
        ('found', 'prune', None)
    """
    return Outcome(
        question=question,
        method=value.method or method,
        status=value.status,
        seconds=run.elapsed(),
        effort=value.effort,
        value=value,
        bound=value.bound,
        interrupted=run.clock.interrupted,
        winner=getattr(value, "winner", None),  # a race's or a portfolio's
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
