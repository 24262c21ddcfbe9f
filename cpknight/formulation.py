"""What every declarative model bundle offers: print it, export it, solve it.

A builder (``build_tour_model``, ``build_move_count_model``, ...) returns a
frozen bundle: the native model, the variable handles, ``decode(...)``,
``formulation()`` (the model printed with the instance's own numbers, from the
same data the builder used) and ``export(path)``. A model can be printed or
exported without being solved: that is the teaching use. :class:`Formulation`
is the interface they share; the CLI's ``formulation`` commands read nothing
else. Tours, tiles and routes build their circuit with the one builder here,
:func:`add_circuit_arcs`, and read it back with :func:`successors`.

Examples:
    >>> from cpknight.tours.cpsat import build_tour_model
    >>> from cpknight import move_graph
    >>> isinstance(build_tour_model(move_graph("3x4"), closed=False), Formulation)
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from cpknight.errors import ModelTooBigError
from cpknight.runtime.memory import refuse_over_budget

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from cpknight.solving import Run

__all__ = [
    "CHUNK",
    "MAX_CIRCUIT_ARCS",
    "CpsatBundle",
    "Formulation",
    "add_circuit_arcs",
    "check_circuit_size",
    "successors",
]


@runtime_checkable
class Formulation(Protocol):
    """A built model that can be printed and exported without being solved."""

    def formulation(self) -> str:
        """The model written out with the instance's own numbers and names."""
        ...

    def export(self, path: str | Path, *, run: Run | None = None) -> object:
        """Write the model to ``path`` (a text proto, LP or MPS by its suffix).

        With ``run``, its time limit covers the writing; nothing is left
        behind when it comes first.
        """
        ...


class CpsatBundle:
    """What every CP-SAT bundle shares: ``export`` its ``model``, print as text.

    A bundle (a frozen dataclass with a ``model`` field) defines
    ``formulation()``; this gives it the text-proto export and ``str()``.
    """

    model: cp_model.CpModel

    def formulation(self) -> str:
        """The model written out with the instance's own numbers and names."""
        raise NotImplementedError

    def export(self, path: str | Path, *, run: Run | None = None) -> None:
        """Write the CP-SAT model as a text proto (variables carry their names).

        With ``run``, its time limit covers the export (see
        :func:`~cpknight.solving.export_cpsat_model`).

        Raises:
            InvalidInputError: the file cannot be written.
            SolveLimitError: the time limit came first; nothing written.
        """
        from cpknight.solving import export_cpsat_model

        export_cpsat_model(self.model, path, run=run)

    def __str__(self) -> str:
        return self.formulation()


CHUNK = 4096
"""Booleans made between two looks at the run's clock while building a circuit."""

MAX_CIRCUIT_ARCS = 4_000_000
"""The most arcs a circuit model is built with: CP-SAT takes about 700 bytes an
arc (a 1000x1000 tour model, 8 million arcs: 5.5 GB)."""


CIRCUIT_ARC_BYTES = 700
"""What CP-SAT holds per circuit arc while it builds and solves (measured)."""


def check_circuit_size(arcs: int, what: str) -> None:
    """Refuse, before building, a circuit model too big to hold in memory.

    Raises:
        ModelTooBigError: more than :data:`MAX_CIRCUIT_ARCS` arcs.

    Examples:
        >>> check_circuit_size(7_976_016, "the tour model of 1000x1000")
        Traceback (most recent call last):
        ...
        cpknight.errors.ModelTooBigError: the tour model of 1000x1000 would have \
7,976,016 arcs (about 5.6 GB); CP-SAT models are built with at most 4,000,000
    """
    if arcs > MAX_CIRCUIT_ARCS:
        raise ModelTooBigError(
            f"{what} would have {arcs:,} arcs (about {arcs * 700 / 1e9:.1f} GB); "
            f"CP-SAT models are built with at most {MAX_CIRCUIT_ARCS:,}"
        )
    refuse_over_budget(
        arcs * CIRCUIT_ARC_BYTES, f"{what} ({arcs:,} arcs)", "try a smaller board"
    )


def add_circuit_arcs(
    model: cp_model.CpModel,
    tails: Sequence[int],
    heads: Sequence[int],
    names: Callable[[int], str] | None = None,
    *,
    run: Run | None = None,
) -> list[cp_model.IntVar]:
    """The one circuit builder: a Boolean per arc, then ``add_circuit`` over them.

    Tours, tiles and routes all build their circuit here. The Booleans are made
    in chunks of :data:`CHUNK`, each after a look at the run's clock, so that a
    huge model stops at the time limit while it is being built. An arc whose
    tail is its head is CP-SAT's "leave this node out" literal.

    Args:
        model: the CP-SAT model to add to.
        tails: the tail node of each arc (nodes are ``0 .. n - 1``).
        heads: the head node of each arc.
        names: the readable name of arc ``i`` (``arc[a1->b3]``), or ``None``
            for unnamed Booleans (faster on huge models).
        run: the run whose clock bounds building, if any.

    Returns:
        The arc Booleans, in arc order.

    Raises:
        SolveLimitError: the run's time limit passed while building.
        ModelTooBigError: more than :data:`MAX_CIRCUIT_ARCS` arcs.

    Examples:
        >>> from ortools.sat.python import cp_model
        >>> model = cp_model.CpModel()
        >>> tails, heads = [0, 1, 2, 1], [1, 2, 0, 0]
        >>> x = add_circuit_arcs(model, tails, heads, lambda i: f"x{i}")
        >>> solver = cp_model.CpSolver()
        >>> solver.solve(model) == cp_model.OPTIMAL
        True
        >>> successors(tails, heads, [solver.value(v) for v in x])
        {0: 1, 1: 2, 2: 0}
    """
    check_circuit_size(len(tails), "the circuit model")
    literals: list[cp_model.IntVar] = []
    for first in range(0, len(tails), CHUNK):
        if run is not None:
            run.check("building the model")
        last = min(first + CHUNK, len(tails))
        literals.extend(
            model.new_bool_var(names(i) if names is not None else "")
            for i in range(first, last)
        )
    model.add_circuit(list(zip(tails, heads, literals, strict=True)))
    return literals


def successors(
    tails: Sequence[int], heads: Sequence[int], values: Sequence[int]
) -> dict[int, int]:
    """Each node's successor on the chosen arcs (0/1 ``values``), self-loops left out.

    Examples:
        >>> successors([0, 1, 1], [1, 0, 1], [1, 1, 0])
        {0: 1, 1: 0}
    """
    return {
        int(t): int(h)
        for t, h, v in zip(tails, heads, values, strict=True)
        if v and t != h
    }
