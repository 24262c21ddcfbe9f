"""The linear-model base the move-count and flow integer programs share.

A linear model is built once as a frozen bundle and solved after: the bundle holds
the native model, the variable handles, ``decode``, ``formulation()`` (the model
printed with the instance's numbers) and ``export(path)`` (LP or MPS through
OR-Tools' ``model_builder``, with readable names such as ``n[+1,+2]``). Backends:
``cpsat`` (CP-SAT called directly), ``scip`` (SCIP through ``model_builder``),
``sat`` (CP-SAT through ``model_builder``), and for the flow also ``glop`` (the LP
relaxation). No backend prints.

Examples:
    >>> linear_text([(1, "x"), (-2, "y")])
    'x - 2 y'
"""

from __future__ import annotations

from typing import TYPE_CHECKING as _TYPE_CHECKING

if _TYPE_CHECKING:
    from cpknight.solving import Run


from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpknight.errors import (
    InvalidInputError,
    SolveLimitError,
)
from cpknight.runtime.memory import path_bytes, refuse_over_budget
from cpknight.solving import Run, write_model_text
from cpknight.solving.linear import builder_solver

__all__ = [
    "BACKENDS",
    "FLOW_BACKENDS",
    "LinearModel",
    "move_label",
]

BACKENDS: tuple[str, ...] = ("cpsat", "scip", "sat")
"""Backends of the integer programs: CP-SAT directly, SCIP or CP-SAT through
``model_builder``."""

FLOW_BACKENDS: tuple[str, ...] = (*BACKENDS, "glop")
"""The flow model also takes ``glop``: its LP relaxation, integral (TU matrix)."""

Values = Sequence[float]
"""Solver values of a bundle's variables, in the order of its handles."""


# ----------------------------------------------------------------------- names


def move_label(vector: Sequence[int]) -> str:
    """A move vector as text with its signs: ``'+1,+2'``, ``'-2,+1'``, ``'0,+1,-2'``.

    Examples:
        >>> move_label((1, -2)), move_label((0, 2, -1))
        ('+1,-2', '0,+2,-1')
    """
    return ",".join(f"{int(x):+d}" if x else "0" for x in vector)


def axis_names(dim: int) -> tuple[str, ...]:
    if dim == 2:
        return ("row", "col")
    if dim == 3:
        return ("layer", "row", "col")
    return tuple(f"axis{a}" for a in range(dim))


def lp_name(name: str) -> str:
    """A name the LP format keeps as it is (no ``+``, ``-`` or ``>``)."""
    return name.replace("->", ",").replace("+", "p").replace("-", "m")


def _term(coef: int, name: str, first: bool) -> str:
    sign = "-" if coef < 0 else ("" if first else "+")
    size = abs(coef)
    body = name if size == 1 else f"{size} {name}"
    return f"{sign}{body}" if first else f"{sign} {body}"


def linear_text(terms: Sequence[tuple[int, str]]) -> str:
    parts = [(c, n) for c, n in terms if c]
    if not parts:
        return "0"
    return " ".join(_term(c, n, i == 0) for i, (c, n) in enumerate(parts))


def _write_model(model: Any, path: str | Path, run: Run | None = None) -> Path:
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".lp":
        text = model.export_to_lp_string()
    elif suffix == ".mps":
        text = model.export_to_mps_string()
    else:
        raise InvalidInputError(
            f"expected an export file ending in .lp or .mps: '{target}'"
        )
    write_model_text(target, text, run=run)
    return target


def check_backend(backend: str, allowed: Sequence[str]) -> None:
    if backend not in allowed:
        raise InvalidInputError(
            f"expected a backend in {', '.join(allowed)}: {backend!r}"
        )


def load_backend(backend: str) -> None:
    """Import the solver's module now, so that timings leave the import out."""
    if backend == "cpsat":
        from ortools.sat.python import cp_model  # noqa: F401
    else:
        from ortools.linear_solver.python import model_builder  # noqa: F401


class LinearModel:
    """What the move-count and arc-flow models share: LP/MPS export.

    A subclass is a bundle with a ``backend`` and its native ``model``, and
    builds the same model as a ``model_builder.Model`` in ``_builder``.
    """

    backend: str
    model: Any

    def _builder(self, *, lp_names: bool) -> Any:
        raise NotImplementedError

    def builder_model(self, *, lp_names: bool = False) -> Any:
        """The same model as an OR-Tools ``model_builder.Model`` (for LP/MPS).

        Args:
            lp_names: spell ``+`` as ``p``, ``-`` as ``m`` and ``->`` as ``,``
                in names (the LP format has no room for them): ``n[p1,p2]``.

        Examples:
            >>> from cpknight.distances.flow import build_flow_model
            >>> from cpknight.distances.moves import build_move_count_model
            >>> build_move_count_model("8x8", "a1", "b2").builder_model().num_variables
            8
            >>> build_flow_model("3x3", "a1", "c2").builder_model().num_constraints
            9
        """
        if self.backend != "cpsat" and not lp_names:
            return self.model
        return self._builder(lp_names=lp_names)

    def export(self, path: str | Path, *, run: Run | None = None) -> Path:
        """Write the model to ``path``: LP (``.lp``) or MPS (``.mps``).

        With ``run``, the clock is looked at while writing.

        Raises:
            InvalidInputError: another suffix, or the file cannot be written.
            SolveLimitError: the time limit passed while writing.

        Examples:
            >>> import tempfile, pathlib
            >>> from cpknight.distances.flow import build_flow_model
            >>> from cpknight.distances.moves import build_move_count_model
            >>> m = build_move_count_model("8x8", "a1", "b2")
            >>> f = build_flow_model("3x3", "a1", "c2")
            >>> with tempfile.TemporaryDirectory() as tmp:
            ...     lp = m.export(pathlib.Path(tmp) / "a1b2.lp").read_text()
            ...     mps = f.export(pathlib.Path(tmp) / "flow.mps").read_text()
            >>> "n[p1,p2]" in lp, "arc[a1->c2]" in mps
            (True, True)
        """
        lp = Path(path).suffix.lower() == ".lp"
        return _write_model(self.builder_model(lp_names=lp), path, run)


def solve_builder(
    model: Any,
    handles: Sequence[Any],
    backend: str,
    run: Run,
) -> list[float] | None:
    from ortools.linear_solver.python import model_builder as mb

    parameters = ""
    if backend == "sat":
        workers, seed = max(run.options.workers, 1), run.options.seed
        parameters = f"num_workers:{workers} random_seed:{seed}"
    solver = builder_solver(backend, run, parameters)
    status = solver.solve(model)
    if status == mb.SolveStatus.OPTIMAL:
        return [float(solver.value(h)) for h in handles]
    if status == mb.SolveStatus.INFEASIBLE:
        return None
    raise SolveLimitError(
        f"the {backend} backend stopped without an optimum ({status.name.lower()})"
    )


def abridge(items: Sequence[str], sep: str, keep: int = 3) -> str:
    if len(items) <= keep + 1:
        return sep.join(items)
    return sep.join(items[:keep]) + f"{sep}... ({len(items) - keep} more)"


def abridge_linear(terms: Sequence[tuple[int, str]], keep: int = 6) -> str:
    if len(terms) <= keep + 1:
        return linear_text(terms)
    return linear_text(terms[:keep]) + f" ... ({len(terms) - keep} more terms)"


CLOCK_CHUNK = 8192
"""Arcs or rows added to a model between two looks at the clock."""


def check_time(run: Run | None, what: str) -> None:
    """``run.check(what)`` when building under a clock (builders also run without)."""
    if run is not None:
        run.check(what)


PATH_CELL_SECONDS = 4e-6
"""What one cell of a path costs to make, check and hand back as a tuple (a
plane path of 1.5 million cells: about 4 s on a loaded machine): a path that
would not fit in the time left is not started."""


def refuse_long_path(moves: int, label: str, run: Run) -> None:
    """Stop before a path of ``moves`` moves that cannot be made in budget or time.

    Raises:
        ModelTooBigError: its cells would not fit in the memory budget.
        SolveLimitError: they would not be made in the time left (estimated at
            :data:`PATH_CELL_SECONDS` a cell); ``moves`` is the bound.

    Examples:
        >>> from cpknight.solving import SolveOptions
        >>> refuse_long_path(1000, "plane", SolveOptions(time_limit=5).start())
        >>> refuse_long_path(10**7, "plane", SolveOptions(time_limit=5).start())
        Traceback (most recent call last):
        ...
        cpknight.errors.SolveLimitError: the move counts give 10,000,000 moves, \
but a path of 10,000,001 cells takes about 40.0 s; the time limit leaves less: \
raise --time-limit, or use --method formula (no path)
    """
    refuse_over_budget(
        path_bytes(moves + 1),
        f"a path of {moves:,} moves on {label}",
        "ask for a nearer target",
    )
    left = run.remaining()
    needed = (moves + 1) * PATH_CELL_SECONDS
    if left is not None and needed > left:
        run.check("ordering the moves into a path", bound=moves)
        raise SolveLimitError(
            f"the move counts give {moves:,} moves, but a path of {moves + 1:,} "
            f"cells takes about {needed:.1f} s; the time limit leaves less: "
            "raise --time-limit, or use --method formula (no path)",
            bound=moves,
        )
