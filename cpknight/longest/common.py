"""The longest-path puzzles: the instance, the answer, and its own checker.

Two classic knight optimisation puzzles, on any board the package reads:

- **uncrossed**: the longest path (or cycle) whose drawn moves never cross
  (Yarbrough 1969; Knuth 2010; OEIS A003192 for paths on n x n, A157416 for
  cycles). Bounded 2D boards only (see :mod:`cpknight.longest.geometry`).
- **induced** (a *snake*): the longest path (or cycle) with no move joining two
  of its cells other than consecutive ones (an induced path of the move graph;
  OEIS A165143 for cycles on n x n; Knuth, TAOCP 4B, 7.2.2.1). Any board.

Length is counted in moves: a path of ``k`` cells has ``k - 1`` moves, a cycle
of ``k`` cells ``k``. Every answer leaves an engine through
:func:`make_longest`, which runs :func:`check_longest`, a checker written apart
from the engines (its crossing test solves for the meeting point in exact
fractions rather than by turn signs).

Examples:
    >>> from cpknight.board import Board
    >>> b = Board.parse("5x5")
    >>> check_longest(b, ["a1", "b3", "c5"], kind="induced", closed=False)
    >>> check_longest(b, ["a1", "b3", "d4", "e2", "c1"], kind="induced", closed=False)
    Traceback (most recent call last):
    ...
    cpknight.errors.TourCheckError: cells 2 and 5 (b3 and c1) are not \
consecutive, yet one move apart
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import Any, Literal

import numpy as np

from cpknight.board import Board, Cell, CellLike
from cpknight.checks import check_cells, check_steps
from cpknight.errors import EngineError, InvalidInputError, TourCheckError
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    move_graph,
)
from cpknight.status import Effort, Status

__all__ = [
    "KINDS",
    "Kind",
    "LongestInstance",
    "LongestPath",
    "check_longest",
    "is_longest_kind",
    "make_longest",
]

Kind = Literal["uncrossed", "induced"]
KINDS: tuple[Kind, ...] = ("uncrossed", "induced")
"""The two puzzles."""


@dataclass(frozen=True, kw_only=True)
class LongestInstance:
    """A longest-path question, validated: the board, piece and puzzle.

    Attributes:
        board: a finite board.
        piece: the leaper.
        kind: ``'uncrossed'`` or ``'induced'``.
        closed: a cycle rather than a path.
        crossings: how the CP-SAT model writes the crossings: ``'cliques'``
            (one at-most-one per clique of mutually crossing moves) or
            ``'pairwise'`` (one constraint per crossing pair).
        cuts: add CP-SAT's optional cuts: the board's reflections (keep one
            image of each answer) and the two colours' balance.
    """

    board: Board
    piece: Leaper
    kind: Kind
    closed: bool = False
    crossings: Literal["cliques", "pairwise"] = "cliques"
    cuts: bool = False

    @cached_property
    def graph(self) -> MoveGraph:
        """The move graph, built on first use (under the caller's clock)."""
        return move_graph(self.board, self.piece)

    def describe(self) -> str:
        """``uncrossed cycle of the knight (1,2) on 3x3``."""
        shape = "cycle" if self.closed else "path"
        return f"{self.kind} {shape} of the {self.piece.label} on {self.board.label}"


@dataclass(frozen=True, eq=False)
class LongestPath:
    """A checked longest-path answer (build with :func:`make_longest`).

    Attributes:
        board: the board.
        piece: the leaper.
        kind: ``'uncrossed'`` or ``'induced'``.
        closed: whether it is a cycle (the last cell one move from the first).
        cells: the cells in order (a cycle's first cell is not repeated).
        status: ``optimal`` (proved longest) or ``feasible`` (the best found by
            the limit; ``bound`` says how long one could be).
        moves: its length in moves.
        bound: a proved upper bound on the length (``== moves`` when optimal).
        method: the engine that found it.
        seconds: wall time, model building included.
        effort: what the engine counted.
    """

    board: Board
    piece: Leaper
    kind: Kind
    closed: bool
    cells: tuple[Cell, ...]
    status: Status
    moves: int
    bound: int
    method: str
    seconds: float = 0.0
    effort: Effort = field(default_factory=Effort)

    @property
    def optimal(self) -> bool:
        """Whether it is proved longest."""
        return self.status is Status.OPTIMAL

    def names(self) -> list[str]:
        """The cells by name."""
        return self.board.cell_names(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def as_dict(self) -> dict[str, Any]:
        """The answer's JSON keys (see :meth:`~cpknight.results.Outcome.as_dict`)."""
        return {
            "cells": [list(c) for c in self.cells],
            "kind": self.kind,
            "closed": self.closed,
            "moves": self.moves,
        }

    def __str__(self) -> str:
        from cpknight.text.display import longest_str

        return longest_str(self)

    def _repr_svg_(self) -> str:
        from cpknight.draw.longest import longest_svg

        return longest_svg(self)

    def __repr__(self) -> str:
        shape = "cycle" if self.closed else "path"
        return (
            f"<LongestPath {self.status} {self.kind} {shape} {self.board.label} "
            f"{self.piece.label} {self.moves} moves by {self.method}>"
        )


def is_longest_kind(kind: str) -> Kind:
    """``kind`` checked against :data:`KINDS`.

    Raises:
        InvalidInputError: not a known puzzle.
    """
    for known in KINDS:
        if kind == known:
            return known
    raise InvalidInputError(f"expected a kind in {', '.join(KINDS)}: {kind!r}")


# ------------------------------------------------------------------ the checker


def check_longest(
    board: Board,
    cells: Sequence[CellLike],
    *,
    kind: str,
    closed: bool = False,
    piece: PieceLike = KNIGHT,
) -> None:
    """Raise unless ``cells`` is an uncrossed / induced path (or cycle).

    Checks, independently of every engine: each cell open and on the board,
    each step a move of the piece (with the closing move of a cycle), no cell
    twice; then, for ``uncrossed``, that no two moves' segments share a point
    other than a common end (solved exactly in fractions), and for
    ``induced``, that no two cells other than consecutive ones are one move
    apart.

    Raises:
        TourCheckError: the first fault found.
        InvalidInputError: an uncrossed path on a board that is not bounded 2D.

    Examples:
        >>> b = Board.parse("3x3")
        >>> check_longest(b, ["a1", "b3", "c1", "a2", "c3", "b1", "a3", "c2"],
        ...               kind="induced", closed=True)
        >>> check_longest(b, ["a1", "b3", "c1", "a2"], kind="uncrossed", closed=False)
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: moves 1 (a1-b3) and 3 (c1-a2) cross
    """
    leaper = as_piece(piece)
    which = is_longest_kind(kind)
    board.require_finite("a longest path")
    leaper.check_dim(board.dim, board.label)
    array = np.array([board.parse_cell(c) for c in cells], dtype=np.int64).reshape(
        -1, board.dim
    )
    if len(array) == 0:
        raise TourCheckError("the path is empty", step=None)
    flat = check_cells(board, array, what="path")
    if len(set(flat.tolist())) != len(flat):
        seen: set[int] = set()
        for i, f in enumerate(flat.tolist()):
            if f in seen:
                raise TourCheckError(
                    f"cell {i + 1} ({board.cell_name(array[i])}) is used twice",
                    step=i,
                )
            seen.add(f)
    if closed and len(array) < 3:
        raise TourCheckError(
            f"a cycle needs at least 3 cells, not {len(array)}", step=None
        )
    walk = np.vstack([array, array[:1]]) if closed else array
    check_steps(board, leaper, walk)
    points = [tuple(int(x) for x in row) for row in walk.tolist()]
    if which == "uncrossed":
        _check_uncrossed(board, points)
    else:
        _check_induced(board, leaper, points[: len(array)], closed)


def _check_uncrossed(board: Board, points: list[tuple[int, ...]]) -> None:
    """Raise unless no two moves of the walk through ``points`` cross.

    Raises:
        TourCheckError: two moves cross (or touch other than at a common end).
        InvalidInputError: a board that is not bounded 2D.
    """
    if board.dim != 2 or board.topology != "bounded":
        raise InvalidInputError(
            "uncrossed paths need a bounded 2D board, where each move is one "
            f"segment: {board.label!r}"
        )
    # Only moves whose boxes share a lattice point can meet: sort them
    # into cells first (a 1000-move path is not a million comparisons).
    near: dict[tuple[int, ...], list[int]] = {}
    for i in range(len(points) - 1):
        (r0, c0), (r1, c1) = points[i], points[i + 1]
        for row in range(min(r0, r1), max(r0, r1) + 1):
            for col in range(min(c0, c1), max(c0, c1) + 1):
                near.setdefault((row, col), []).append(i)
    pairs = {pair for group in near.values() for pair in combinations(group, 2)}
    for i, j in sorted(pairs, key=lambda p: (p[1], p[0])):
        a, b = points[i], points[i + 1]
        c, d = points[j], points[j + 1]
        if _meet_elsewhere(a, b, c, d):
            raise TourCheckError(
                f"moves {i + 1} ({board.cell_name(a)}-{board.cell_name(b)}) "
                f"and {j + 1} ({board.cell_name(c)}-{board.cell_name(d)}) cross",
                step=j,
            )


def _check_induced(
    board: Board, leaper: Leaper, cells: list[tuple[int, ...]], closed: bool
) -> None:
    """Raise unless only consecutive ``cells`` (and the closing pair) are a move apart.

    Raises:
        TourCheckError: two cells not consecutive yet one move apart.
    """
    n = len(cells)
    place = {cell: i for i, cell in enumerate(cells)}
    graph = move_graph(board, leaper)
    for i in range(n):
        for v in graph.neighbors(graph.node(cells[i])).tolist():
            j = place.get(graph.cell(v), -1)
            if j <= i + 1 or (closed and i == 0 and j == n - 1):
                continue  # not on the path, consecutive, or seen from the other end
            raise TourCheckError(
                f"cells {i + 1} and {j + 1} ({board.cell_name(cells[i])} and "
                f"{board.cell_name(cells[j])}) are not consecutive, yet one move "
                "apart",
                step=j,
            )


def _meet_elsewhere(
    a: tuple[int, ...], b: tuple[int, ...], c: tuple[int, ...], d: tuple[int, ...]
) -> bool:
    """Whether segments ab and cd share a point other than an end of both.

    Solves ``a + t (b - a) = c + s (d - c)`` in exact fractions; parallel
    segments are compared as intervals along their common line.
    """
    ux, uy = b[0] - a[0], b[1] - a[1]
    vx, vy = d[0] - c[0], d[1] - c[1]
    wx, wy = c[0] - a[0], c[1] - a[1]
    den = ux * vy - uy * vx
    if den != 0:
        t = Fraction(wx * vy - wy * vx, den)
        s = Fraction(wx * uy - wy * ux, den)
        if not (0 <= t <= 1 and 0 <= s <= 1):
            return False
        return not (t in (0, 1) and s in (0, 1))  # meeting at a common end
    if wx * uy - wy * ux != 0:
        return False  # parallel, on different lines
    length = ux * ux + uy * uy
    s0 = Fraction(wx * ux + wy * uy, length)  # c along ab
    s1 = Fraction((d[0] - a[0]) * ux + (d[1] - a[1]) * uy, length)
    lo, hi = max(Fraction(0), min(s0, s1)), min(Fraction(1), max(s0, s1))
    if lo > hi:
        return False
    if lo < hi:
        return True  # they overlap along a stretch
    return not (lo in (0, 1) and lo in (s0, s1))  # one point: a common end?


def make_longest(
    instance: LongestInstance,
    nodes: Sequence[int],
    *,
    status: str | Status,
    bound: int,
    method: str,
    started: float,
    effort: Effort | None = None,
) -> LongestPath:
    """The one way an engine returns an answer: checked first.

    Args:
        instance: the question.
        nodes: the path as move-graph nodes (a cycle's first node not repeated).
        status: ``'optimal'`` or ``'feasible'``.
        bound: a proved upper bound on the number of moves.
        method: the engine.
        started: :func:`time.perf_counter` when the engine started.
        effort: what the engine counted.

    Raises:
        EngineError: the answer fails :func:`check_longest`, or its bound is
            below its length (a bug in the engine).
    """
    graph = instance.graph
    cells = tuple(graph.cell(int(n)) for n in nodes)
    try:
        check_longest(
            instance.board,
            cells,
            kind=instance.kind,
            closed=instance.closed,
            piece=instance.piece,
        )
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad "
            f"{instance.describe()}: {exc}"
        ) from None
    moves = len(cells) if instance.closed else len(cells) - 1
    if bound < moves:
        raise EngineError(
            f"internal error: engine {method!r} claims a bound of {bound} moves "
            f"below its own {moves}-move answer"
        )
    return LongestPath(
        board=instance.board,
        piece=instance.piece,
        kind=instance.kind,
        closed=instance.closed,
        cells=cells,
        status=Status(str(status)),
        moves=moves,
        bound=bound,
        method=method,
        seconds=time.perf_counter() - started,
        effort=effort or Effort(),
    )


def trivial_bound(instance: LongestInstance) -> int:
    """The cheap upper bound on any answer: every open cell used."""
    n = instance.graph.n_nodes
    return n if instance.closed else max(n - 1, 0)
