"""The covering puzzles as one 0/1 program: built once, printed, exported, compiled.

The program is plain data (variables, rows, objective), written from the move
graph; the CP-SAT engine and the MIP engines compile the same rows into their
own models, so both formulations are one formulation, printable with the
board's own names (``x[a1]``) and exportable as LP or MPS (through OR-Tools'
``model_builder``) or as a CP-SAT text proto.

With ``x[v] = 1`` when a knight stands on cell ``v`` and ``N(v)`` the cells one
move from ``v``:

- dominating: ``x[v] + sum(x[u] for u in N(v)) >= 1`` for every cell;
  minimise ``sum(x)``;
- total: ``sum(x[u] for u in N(v)) >= 1`` for every cell; minimise;
- independent: the dominating rows and ``x[u] + x[v] <= 1`` for every move;
  minimise;
- independent-set: ``x[u] + x[v] <= 1`` for every move; maximise.

Symmetry breaking (an option) adds, for each symmetry ``p`` of the board
(:func:`~cpknight.covering.common.cell_permutations`), the lex-leader rows
``x <=lex x o p``, linearised with a Boolean ``eq[k,i]`` ("equal before
position i") per compared position: ``x[i] - x[p(i)] + eq[k,i] <= 1``,
``eq[k,next] >= eq[k,i] - x[i] - x[p(i)]``, ``eq[k,next] >= eq[k,i] +
x[i] + x[p(i)] - 2``, and (so that ``eq`` is defined, and a count counts
placements) ``eq[k,next] <= eq[k,i]``, ``eq[k,next] <= 1 - x[i] +
x[p(i)]``, ``eq[k,next] <= 1 + x[i] - x[p(i)]``. A position ``j`` with
``p(p(j)) = j`` and ``p(j) < j`` is left out (it repeats an earlier
comparison). Only the least placement of each class under the board's
symmetries stays feasible.

On a torus where the translations take any cell to any other
(:func:`~cpknight.graph.symmetry.transitive_torus`) one more row is always
there, symmetry breaking or not: ``x[a1] = 1``. Any placement can be shifted so
that a piece stands on the first cell, so the optimum is the same, and the
solvers are spared the n^2 shifted copies of every placement (10 x 10 torus
domination, A279407(10) = 15: CP-SAT proved it in 10 s with the row, and
had not in 120 s without; SCIP 60 s against 86 s). The symmetries then broken
are those that keep the first cell
(:func:`~cpknight.graph.symmetry.stabiliser_permutations`): shifted
placements are one class already. Without the lex-leader rows, the program
also says that no rank, nor slice along an axis as long as the ranks, holds
more pieces than the first rank (the ``heavy`` rows, :func:`_heaviest_rows`;
not for total domination, whose program falls apart into colours the rows
would join). These rows count among the symmetry rows; a count strips them
all (:meth:`CoverProgram.without_symmetry`) and counts every placement.

Examples:
    >>> p = build_cover_program("3x3", kind="dominating")
    >>> p.sizes()
    {'cells': 9, 'variables': 9, 'rows': 9, 'symmetry rows': 0}
    >>> print(p.formulation().splitlines()[0])
    dominating placement of the knight (1,2) on 3x3: minimise the knights
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cpknight.board import Board
from cpknight.covering.common import (
    CLOCK_ROWS,
    CoverInstance,
    cell_permutations,
    covering_kind,
    maximises,
)
from cpknight.errors import InvalidInputError
from cpknight.graph.symmetry import stabiliser_permutations, transitive_torus
from cpknight.pieces import KNIGHT, PieceLike, as_piece
from cpknight.solving import (
    CPSAT_SUFFIXES,
    LINEAR_SUFFIXES,
    export_cpsat_model,
    write_model_text,
)

if TYPE_CHECKING:
    from cpknight.solving import Run

__all__ = [
    "LP_SHARE",
    "MODEL_ROW_BYTES",
    "MODEL_TERM_BYTES",
    "CoverProgram",
    "Row",
    "build_cover_program",
    "model_bytes",
    "program_of",
    "refuse_big_model",
]

PARTS_TEXT_TERMS = 300_000
"""The largest program whose printed form says how it falls apart: looking
takes about a second a million terms, and printing is not under the clock."""

LP_SHARE = 0.25
"""The most of the time left the LP relaxation (a side figure) may take."""


class _GiveUp(Exception):
    """The LP relaxation ran past its share of the time: left out."""


@dataclass(frozen=True)
class Row:
    """One linear row ``lo <= sum(coef * var) <= hi`` (``None``: no side)."""

    name: str
    terms: tuple[tuple[int, int], ...]  # (variable, coefficient)
    lo: int | None = None
    hi: int | None = None


@dataclass(frozen=True, eq=False)
class CoverProgram:
    """The 0/1 program of one covering question (print, export, compile).

    Build with :func:`build_cover_program` (or :func:`program_of` from an
    instance). Variables ``0 .. n - 1`` are the cells (``x[a1]``), in the move
    graph's node order; any after them are the symmetry rows' ``eq`` Booleans.

    Attributes:
        instance: the question.
        names: every variable's name.
        rows: the constraints (the puzzle's rows, then the symmetry rows).
        n_symmetry_rows: how many of ``rows`` break symmetry (the last ones).
        n_symmetries: how many symmetries they break.
        part_cells: set on one independent part of a program
            (:mod:`cpknight.covering.parts`): its cell variables, fewer than
            the board's cells.
    """

    instance: CoverInstance
    names: tuple[str, ...]
    rows: tuple[Row, ...]
    n_symmetry_rows: int = 0
    n_symmetries: int = 0
    part_cells: int | None = None

    @property
    def n_cells(self) -> int:
        """The cell variables (the open cells, or a part's cells)."""
        if self.part_cells is not None:
            return self.part_cells
        return self.instance.graph.n_nodes

    @property
    def maximise(self) -> bool:
        """Whether the objective is maximised (``independent-set``)."""
        return maximises(self.instance.kind)

    def sizes(self) -> dict[str, int]:
        """Cells, variables, rows and symmetry rows."""
        return {
            "cells": self.n_cells,
            "variables": len(self.names),
            "rows": len(self.rows) - self.n_symmetry_rows,
            "symmetry rows": self.n_symmetry_rows,
        }

    def without_symmetry(self) -> CoverProgram:
        """The same program without its symmetry rows (to count every placement)."""
        keep = len(self.rows) - self.n_symmetry_rows
        return CoverProgram(
            instance=self.instance,
            names=self.names[: self.n_cells],
            rows=self.rows[:keep],
            part_cells=self.part_cells,
        )

    # ------------------------------------------------------------- compiling

    def cpsat_model(
        self, *, size: int | None = None, run: Run | None = None
    ) -> tuple[Any, list[Any]]:
        """The program as a CP-SAT model and its Booleans (the cells first).

        Args:
            size: fix the number of knights to ``size`` and leave out the
                objective (to enumerate the optimal placements).
            run: the run whose clock (and Ctrl-C) bounds building, looked at
                every :data:`CLOCK_ROWS` rows.

        Raises:
            SolveLimitError: the limit passed (or Ctrl-C) while building.
        """
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        xs = []
        for i, name in enumerate(self.names):
            if run is not None and i % CLOCK_ROWS == 0:
                run.check("building the CP-SAT model")
            xs.append(model.new_bool_var(name))
        for i, row in enumerate(self.rows):
            if run is not None and i % CLOCK_ROWS == 0:
                run.check("building the CP-SAT model")
            expr = cp_model.LinearExpr.weighted_sum(
                [xs[v] for v, _ in row.terms], [c for _, c in row.terms]
            )
            if row.lo is not None and row.hi is not None and row.lo == row.hi:
                model.add(expr == row.lo).with_name(row.name)
            else:
                if row.lo is not None:
                    model.add(expr >= row.lo).with_name(row.name)
                if row.hi is not None:
                    model.add(expr <= row.hi).with_name(row.name)
        knights = cp_model.LinearExpr.sum(xs[: self.n_cells])
        if size is not None:
            model.add(knights == size).with_name("knights")
        elif self.maximise:
            model.maximize(knights)
        else:
            model.minimize(knights)
        return model, xs

    def builder_model(
        self,
        *,
        relax: bool = False,
        lp_names: bool = False,
        check: Callable[[str], None] | None = None,
    ) -> tuple[Any, list[Any]]:
        """The program as an OR-Tools ``model_builder.Model`` and its variables.

        Args:
            relax: continuous variables in ``[0, 1]`` (the LP relaxation).
            lp_names: names the LP format keeps (no ``+`` or ``-``).
            check: called every :data:`CLOCK_ROWS` rows with what is being
                done (``run.check``: the limit and Ctrl-C bound building).
        """
        from ortools.linear_solver.python import model_builder as mb

        model = mb.Model()  # type: ignore[no-untyped-call]
        model.name = self.instance.describe().replace(" ", "_")
        xs = []
        for i, name in enumerate(self.names):
            if check is not None and i % CLOCK_ROWS == 0:
                check("building the LP relaxation" if relax else "building the model")
            xs.append(
                model.new_var(0.0, 1.0, not relax, _lp(name) if lp_names else name)
            )
        for i, row in enumerate(self.rows):
            if check is not None and i % CLOCK_ROWS == 0:
                check("building the LP relaxation" if relax else "building the model")
            expr = mb.LinearExpr.weighted_sum(
                [xs[v] for v, _ in row.terms], [c for _, c in row.terms]
            )
            name = _lp(row.name) if lp_names else row.name
            if row.lo is not None:
                model.add(expr >= row.lo, name=name if row.hi is None else name + "_lo")
            if row.hi is not None:
                model.add(expr <= row.hi, name=name if row.lo is None else name + "_hi")
        knights = mb.LinearExpr.sum(xs[: self.n_cells])
        if self.maximise:
            model.maximize(knights)
        else:
            model.minimize(knights)
        return model, xs

    def lp_relaxation(self, run: Run | None = None) -> float | None:
        """The LP relaxation's optimum by GLOP (``None`` if GLOP gives none).

        With a ``run``, the relaxation is a side figure that may take at most
        :data:`LP_SHARE` of the time left (building its model included): past
        that it is given up (``None``) and the time goes to the 0/1 program.
        Ctrl-C stops GLOP at once (see :func:`~cpknight.solving.solve_linear`).

        Raises:
            SolveLimitError: the run's limit passed, or Ctrl-C, while building.

        Examples:
            >>> from cpknight.solving import SolveOptions
            >>> p = build_cover_program("5x5", kind="total")
            >>> p.lp_relaxation(SolveOptions(time_limit=10).start())
            5.5
        """
        from ortools.linear_solver.python import model_builder as mb

        from cpknight.solving import SolveOptions
        from cpknight.solving.linear import solve_linear

        run = run or SolveOptions().start()
        left = run.remaining()
        share = None if left is None else left * LP_SHARE
        until = None if share is None else time.perf_counter() + share

        def check(what: str) -> None:
            run.check(what)
            if until is not None and time.perf_counter() > until:
                raise _GiveUp

        try:
            model, xs = self.without_symmetry().builder_model(relax=True, check=check)
        except _GiveUp:
            return None
        limit = None if until is None else max(until - time.perf_counter(), 1e-3)
        answer = solve_linear("glop", model, run, xs[:0], limit=limit)
        if answer.status != mb.SolveStatus.OPTIMAL:  # stopped or given up
            return None
        return float(answer.objective)

    # ------------------------------------------------------ printing, export

    def formulation(self, keep: int = 4) -> str:
        """The program written out with this board's names (a few rows of each kind)."""
        inst = self.instance
        sense = "maximise" if self.maximise else "minimise"
        lines = [
            f"{inst.describe()}: {sense} the knights",
            f"  variables: x[v] in {{0,1}}, a knight on cell v ({self.n_cells} cells)",
            f"  {sense}  " + _abridged(list(self.names[: self.n_cells])),
            "  subject to",
        ]
        groups: dict[str, list[Row]] = {}
        for row in self.rows:
            groups.setdefault(row.name.split("[")[0], []).append(row)
        for group, rows in groups.items():
            lines.append(f"  {group} ({len(rows)} rows): {_MEANING.get(group, '')}")
            lines += [f"    {self.row_text(r)}" for r in rows[:keep]]
            if len(rows) > keep:
                lines.append(f"    ... ({len(rows) - keep} more)")
        if self.n_symmetries:
            lines.append(
                f"  (symmetry: x <=lex x o p for {self.n_symmetries} symmetries of "
                "the board; eq[k,i] is 1 while x and its k-th image agree before i)"
            )
        if self.part_cells is None:
            lines += self._parts_text()
        return "\n".join(lines)

    def _parts_text(self) -> list[str]:
        """A line saying how the program falls apart, when it does.

        Printing has no clock, so the parts are looked for only in a program
        of at most :data:`PARTS_TEXT_TERMS` terms (the solve always looks).
        """
        from cpknight.covering.parts import split

        if sum(len(row.terms) for row in self.rows) > PARTS_TEXT_TERMS:
            return []
        parts = split(self)
        if len(parts) < 2:
            return []
        sizes = [str(part.program.n_cells) for part in parts]
        cells = ", ".join(sizes[:-1]) + " and " + sizes[-1]
        if len(parts) > 6:
            cells = ", ".join(sizes[:5]) + ", ..."
        images = [
            f"part {j + 1} is part {part.image[0] + 1}'s image"
            for j, part in enumerate(parts)
            if part.image is not None
        ]
        mirrored = ""
        if images:
            shown = "; ".join(images[:3]) + ("; ..." if len(images) > 3 else "")
            mirrored = f"; {shown} under a symmetry of the board, not solved"
        return [
            f"  (the program falls apart into {len(parts)} parts that no row "
            f"joins, of {cells} cells, solved apart{mirrored})"
        ]

    def row_text(self, row: Row) -> str:
        """One row as text: ``dom[a1]: x[a1] + x[b3] + x[c2] >= 1``."""
        parts = []
        for i, (v, c) in enumerate(row.terms):
            sign = ("-" if c < 0 else "") if i == 0 else (" - " if c < 0 else " + ")
            size = "" if abs(c) == 1 else f"{abs(c)} "
            parts.append(f"{sign}{size}{self.names[v]}")
        body = "".join(parts) or "0"
        if row.lo is not None and row.hi is not None:
            return f"{row.name}: {row.lo} <= {body} <= {row.hi}"
        if row.lo is not None:
            return f"{row.name}: {body} >= {row.lo}"
        return f"{row.name}: {body} <= {row.hi}"

    def export(self, path: str | Path, *, run: Run | None = None) -> Path:
        """Write the program: LP (``.lp``), MPS (``.mps``) or a CP-SAT text proto.

        Raises:
            InvalidInputError: another suffix, or the file cannot be written.
            SolveLimitError: the time limit passed while writing.

        Examples:
            >>> import tempfile, pathlib
            >>> p = build_cover_program("4x4", kind="independent")
            >>> with tempfile.TemporaryDirectory() as tmp:
            ...     lp = p.export(pathlib.Path(tmp) / "k.lp").read_text()
            ...     mps = p.export(pathlib.Path(tmp) / "k.mps").read_text()
            >>> "dom[a1]" in lp, "x[a1]" in mps
            (True, True)
        """
        target = Path(path)
        suffix = target.suffix.lower()
        if suffix in LINEAR_SUFFIXES:
            lp = suffix == ".lp"
            model, _ = self.builder_model(lp_names=lp)
            text = model.export_to_lp_string() if lp else model.export_to_mps_string()
            write_model_text(target, text, run=run)
        elif suffix in CPSAT_SUFFIXES:
            model, _ = self.cpsat_model()
            export_cpsat_model(model, target, run=run)
        else:
            known = ", ".join((*LINEAR_SUFFIXES, *CPSAT_SUFFIXES))
            raise InvalidInputError(
                f"expected an export file ending in {known}: '{target}'"
            )
        return target

    def __str__(self) -> str:
        return self.formulation()


_MEANING = {
    "dom": "each cell occupied or attacked",
    "att": "each cell attacked",
    "ind": "no two knights one move apart",
    "lex": "x <=lex x o p (symmetry breaking)",
    "eq": "equal so far, carried to the next position",
    "shift": "a piece on the first cell (every placement shifts to one)",
    "heavy": "no rank or slice holds more pieces than the first rank",
    "balance": "no more pieces on one side of a reflection than on the other",
}


def _lp(name: str) -> str:
    return name.replace("+", "p").replace("-", "m").replace(" ", "")


def _abridged(items: Sequence[str], keep: int = 4) -> str:
    if len(items) <= keep + 1:
        return " + ".join(items) or "0"
    return " + ".join(items[:keep]) + f" + ... ({len(items) - keep} more)"


# ------------------------------------------------------------------- building


def build_cover_program(
    board: Board | str,
    *,
    kind: str,
    piece: PieceLike = KNIGHT,
    symmetry: bool = False,
    run: Run | None = None,
) -> CoverProgram:
    """Build the 0/1 program of a covering question, without solving it.

    Args:
        board: a finite board (or a spec like ``'8x8'``).
        kind: one of :data:`~cpknight.covering.common.KINDS`.
        piece: the leaper.
        symmetry: add the lex-leader rows of the board's symmetries.
        run: the run whose clock bounds building.

    Notes:
        Size: one Boolean per open cell (64 on 8x8) and one row per cell
        (dominating, total), one per move (``independent-set``: 168 on 8x8),
        or both (``independent``). Symmetry adds at most ``3 n`` rows and
        ``n`` Booleans per symmetry (7 on a square board).

    Examples:
        >>> build_cover_program("8x8", kind="independent").sizes()["rows"]
        232
        >>> build_cover_program("8x8", kind="dominating", symmetry=True).n_symmetries
        7
    """
    resolved = board if isinstance(board, Board) else Board.parse(board)
    resolved.require_finite("a covering")
    leaper = as_piece(piece)
    leaper.check_dim(resolved.dim, resolved.label)
    instance = CoverInstance(
        board=resolved, piece=leaper, kind=covering_kind(kind), symmetry=symmetry
    )
    return program_of(instance, run)


def program_of(instance: CoverInstance, run: Run | None = None) -> CoverProgram:
    """The 0/1 program of an instance (its ``symmetry`` says whether to break it)."""
    graph = instance.graph
    n = graph.n_nodes
    cell_names = graph.cell_names()
    names = [f"x[{c}]" for c in cell_names]
    rows: list[Row] = []
    kind = instance.kind
    ones = _unit_terms(n)
    for v in range(n):
        if run is not None and v % CLOCK_ROWS == 0:
            run.check("building the model")
        near = [int(u) for u in graph.neighbors(v).tolist()]
        if kind in ("dominating", "independent"):
            rows.append(Row(f"dom[{cell_names[v]}]", ones([v, *near]), lo=1))
        elif kind == "total":
            rows.append(Row(f"att[{cell_names[v]}]", ones(near), lo=1))
    if kind in ("independent", "independent-set"):
        for v in range(n):
            if run is not None and v % CLOCK_ROWS == 0:
                run.check("building the model")
            for u in graph.neighbors(v).tolist():
                if u > v:
                    name = f"ind[{cell_names[v]},{cell_names[u]}]"
                    rows.append(Row(name, ones([v, int(u)]), hi=1))
    n_plain = len(rows)
    board = instance.board
    symmetries: list[tuple[int, ...]] = []
    if n and transitive_torus(board):
        rows.append(Row(f"shift[{cell_names[0]}]", ones([0]), lo=1))
        if instance.symmetry:
            symmetries = stabiliser_permutations(board)
        elif _heavy(instance):
            rows += _heaviest_rows(board, run)
    elif instance.symmetry:
        symmetries = cell_permutations(board)
    for k, perm in enumerate(symmetries):
        if run is not None:
            run.check("building the symmetry rows")
        _add_lex_leader(rows, names, k, perm)
    return CoverProgram(
        instance=instance,
        names=tuple(names),
        rows=tuple(rows),
        n_symmetry_rows=len(rows) - n_plain,
        n_symmetries=len(symmetries),
    )


HEAVIEST = True
"""Give a full torus's program its ``heavy`` rows (:func:`_heaviest_rows`);
the benchmark turns them off for its baseline."""


def _heavy(instance: CoverInstance) -> bool:
    """Whether the program of a full torus gets the ``heavy`` rows.

    Not with the lex-leader rows (their least image need not keep the first
    rank the heaviest), nor for total domination (the rows would join the
    colours the program falls apart into).
    """
    return HEAVIEST and not instance.symmetry and instance.kind != "total"


def _heaviest_rows(board: Board, run: Run | None = None) -> list[Row]:
    """The rows: no rank, nor slice along an axis as long, outweighs the first.

    The first rank is the one through ``a1``.

    With the ``shift`` row they keep one placement of every class under the
    translations and axis swaps: swap the axes so that the heaviest slice of
    any axis as long as the first is across the first axis, shift along it so
    that this slice is the first, then shift along the others so that one of
    its pieces stands on ``a1`` (those shifts keep the first axis's slices).
    12 x 12 torus domination, A279407(12) = 21: (see the records page).
    """
    shape = board.shape
    index = np.arange(int(np.prod(shape))).reshape(shape)
    first = index[0].ravel()
    rows: list[Row] = []
    for axis, size in enumerate(shape):
        if size != shape[0]:
            continue
        for i in range(1 if axis == 0 else 0, size):
            if run is not None:
                run.check("building the symmetry rows")
            other = np.take(index, i, axis=axis).ravel()
            plus = np.setdiff1d(first, other, assume_unique=True).tolist()
            minus = np.setdiff1d(other, first, assume_unique=True).tolist()
            if plus or minus:
                terms = tuple((v, 1) for v in plus) + tuple((v, -1) for v in minus)
                rows.append(Row(f"heavy[{axis},{i}]", terms, lo=0))
    return rows


MODEL_TERM_BYTES = 240
"""What one term of a row costs a solve, the program, the LP and the CP-SAT
model together (measured: ``dominate 3x3x3x3x3x3x3x3x3x3``, 4.8 million terms,
peaked at 1.47 GB; ``dominate 300x300`` at 0.65 GB)."""

MODEL_ROW_BYTES = 4000
"""What one row costs a solve beyond its terms (CP-SAT's LP keeps every row)."""


def model_bytes(instance: CoverInstance) -> int:
    """The memory a solve of the 0/1 program takes (estimated from the graph).

    Examples:
        >>> from cpknight.board import Board
        >>> inst = CoverInstance(board=Board.parse("8x8"), piece=KNIGHT,
        ...                      kind="dominating")
        >>> model_bytes(inst) // 1000
        352
    """
    graph = instance.graph
    cells, arcs = graph.n_nodes, graph.n_arcs
    rows = terms = 0
    if instance.kind in ("dominating", "independent", "total"):
        rows, terms = cells, arcs + (0 if instance.kind == "total" else cells)
    if instance.kind in ("independent", "independent-set"):
        rows, terms = rows + arcs // 2, terms + arcs
    board = instance.board
    if cells and transitive_torus(board) and _heavy(instance):
        lines = sum(size == board.shape[0] for size in board.shape)
        rows += lines * board.shape[0]
        terms += 2 * lines * cells  # each row two slices of cells / shape[0]
    return terms * MODEL_TERM_BYTES + rows * MODEL_ROW_BYTES


def refuse_big_model(instance: CoverInstance) -> None:
    """Refuse, before building, a 0/1 program estimated over the memory budget.

    Raises:
        ModelTooBigError: the estimate (:func:`model_bytes`) is over the budget.
    """
    from cpknight.runtime.memory import refuse_over_budget

    graph = instance.graph
    refuse_over_budget(
        model_bytes(instance),
        f"the {instance.kind} program on {instance.board.label} "
        f"({graph.n_nodes:,} cells, {graph.n_arcs:,} moves)",
        "try a smaller board, or --method search",
    )


def _unit_terms(n: int) -> Callable[[Sequence[int]], tuple[tuple[int, int], ...]]:
    """Rows of ones whose ``(v, 1)`` terms are shared: one pair per variable.

    A cell is in about as many rows as it has moves; sharing its term, not
    making one per row, makes the program of 1000x1000 (9 million terms) a
    fraction of the objects to build and to free.
    """
    unit = [(v, 1) for v in range(n)]

    def ones(variables: Sequence[int]) -> tuple[tuple[int, int], ...]:
        return tuple([unit[v] for v in variables])

    return ones


def _add_lex_leader(
    rows: list[Row], names: list[str], k: int, perm: Sequence[int]
) -> None:
    """Rows for ``x <=lex x o perm`` (see the module's notes)."""
    positions = [
        i
        for i, p in enumerate(perm)
        if p != i and not (perm[p] == i and p < i)  # a 2-cycle's second half
    ]
    eq: int | None = None  # None: "equal so far" is the constant 1
    for step, i in enumerate(positions):
        p = perm[i]
        last = step == len(positions) - 1
        # x[i] <= x[p(i)] while equal so far
        if eq is None:
            rows.append(Row(f"lex[{k},{i}]", ((i, 1), (p, -1)), hi=0))
        else:
            rows.append(Row(f"lex[{k},{i}]", ((i, 1), (p, -1), (eq, 1)), hi=1))
        if last:
            break
        nxt = len(names)
        names.append(f"eq[{k},{positions[step + 1]}]")
        # eq_next >= eq - x[i] - x[p]  and  eq_next >= eq + x[i] + x[p] - 2
        # and, so that eq is defined (a count counts placements, not eq's):
        # eq_next <= eq, eq_next <= 1 - x[i] + x[p], eq_next <= 1 + x[i] - x[p]
        if eq is None:
            rows.append(Row(f"eq[{k},{i}]a", ((nxt, 1), (i, 1), (p, 1)), lo=1))
            rows.append(Row(f"eq[{k},{i}]b", ((nxt, 1), (i, -1), (p, -1)), lo=-1))
        else:
            rows.append(
                Row(f"eq[{k},{i}]a", ((nxt, 1), (eq, -1), (i, 1), (p, 1)), lo=0)
            )
            rows.append(
                Row(f"eq[{k},{i}]b", ((nxt, 1), (eq, -1), (i, -1), (p, -1)), lo=-2)
            )
            rows.append(Row(f"eq[{k},{i}]c", ((nxt, 1), (eq, -1)), hi=0))
        rows.append(Row(f"eq[{k},{i}]d", ((nxt, 1), (i, 1), (p, -1)), hi=1))
        rows.append(Row(f"eq[{k},{i}]e", ((nxt, 1), (i, -1), (p, 1)), hi=1))
        eq = nxt


def ceil_bound(value: float, maximise: bool) -> int:
    """A relaxation's optimum as an integer bound (up when minimising, else down)."""
    eps = 1e-6
    return math.floor(value + eps) if maximise else math.ceil(value - eps)
