"""The covering puzzles: the instance, the answer, the board's symmetries, the checker.

Four classic 0/1 programs over the move graph of a leaper on any board:

- **dominating**: the fewest knights such that every open cell is occupied or
  attacked (the domination number; OEIS A006075 on n x n, A279407 on the
  torus);
- **total**: the fewest knights such that every open cell is attacked, the
  knights' own cells too (total domination; OEIS A261752);
- **independent**: the fewest knights that dominate the board with no two
  attacking each other (independent domination; OEIS A342576);
- **independent-set**: the most knights with no two attacking each other
  (the independence number; OEIS A030978, n^2/2 or (n^2+1)/2).

Every answer leaves an engine through :func:`make_cover`, which runs
:func:`check_cover`, a checker written apart from the models: it recomputes
which cells the knights attack from the move graph's neighbour lists and
tests each condition cell by cell.

Examples:
    >>> from cpknight.board import Board
    >>> b = Board.parse("3x3")
    >>> check_cover(b, ["a3", "b3", "c3", "b2"], kind="dominating")
    >>> check_cover(b, ["a1"], kind="dominating")
    Traceback (most recent call last):
    ...
    cpknight.errors.TourCheckError: cell b1 is neither occupied nor attacked
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np

from cpknight.board import Board, Cell, CellLike
from cpknight.checks import check_cells
from cpknight.errors import EngineError, InvalidInputError, TourCheckError
from cpknight.graph.symmetry import cell_permutations
from cpknight.pieces import KNIGHT, Leaper, MoveGraph, PieceLike, as_piece, move_graph
from cpknight.results.answer import race_label
from cpknight.status import Effort, Status

__all__ = [
    "CLOCK_ROWS",
    "KINDS",
    "Cover",
    "CoverInstance",
    "Kind",
    "PlacementClasses",
    "cell_permutations",
    "check_cover",
    "covering_kind",
    "make_cover",
    "maximises",
]

CLOCK_ROWS = 4096
"""Rows built or read between two looks at the run's clock (the program, its
models and its parts)."""

Kind = Literal["dominating", "total", "independent", "independent-set"]
KINDS: tuple[Kind, ...] = ("dominating", "total", "independent", "independent-set")
"""The four puzzles: three minimise the knights, ``independent-set`` maximises."""


def covering_kind(kind: str) -> Kind:
    """``kind`` checked against :data:`KINDS`.

    Raises:
        InvalidInputError: not a known puzzle.

    Examples:
        >>> covering_kind("total")
        'total'
    """
    for known in KINDS:
        if kind == known:
            return known
    raise InvalidInputError(f"expected a kind in {', '.join(KINDS)}: {kind!r}")


def maximises(kind: str) -> bool:
    """Whether the puzzle asks for the most knights (else the fewest)."""
    return kind == "independent-set"


@dataclass(frozen=True, kw_only=True)
class CoverInstance:
    """A covering question, validated: the board, the piece and the puzzle.

    Attributes:
        board: a finite board.
        piece: the leaper.
        kind: one of :data:`KINDS`.
        count: also count the optimal placements.
        symmetry: break the board's symmetries (reflections, rotations and
            axis swaps that map its open cells onto themselves): the models
            keep only the lexicographically least placement of each class,
            and a count counts classes (placements up to symmetry).
    """

    board: Board
    piece: Leaper
    kind: Kind
    count: bool = False
    symmetry: bool = False

    @cached_property
    def graph(self) -> MoveGraph:
        """The move graph, built on first use (under the caller's clock)."""
        return move_graph(self.board, self.piece)

    def describe(self) -> str:
        """``dominating set of the knight (1,2) on 8x8``."""
        return f"{self.kind} placement of the {self.piece.label} on {self.board.label}"


@dataclass(frozen=True, eq=False)
class Cover:
    """A checked covering answer (build with :func:`make_cover`).

    Attributes:
        board: the board.
        piece: the leaper.
        kind: the puzzle (:data:`KINDS`).
        cells: the knights' cells, in board order.
        status: ``optimal`` (proved) or ``feasible`` (the best found by the
            limit; ``bound`` says how far the optimum can be).
        size: the number of knights.
        bound: a proved bound on the optimum: a lower bound for the three
            minimising puzzles, an upper bound for ``independent-set``
            (``== size`` when optimal).
        method: the engine that found it.
        seconds: wall time, model building included.
        effort: what the engine counted.
        count: the number of optimal placements (when counting finished),
            up to symmetry when ``symmetry`` is set.
        count_at_least: the placements counted when the limit stopped the
            count (``count`` is then ``None``).
        symmetry: whether the board's symmetries were broken.
        lp_bound: the optimum of the LP relaxation (the 0/1 program with
            ``0 <= x <= 1``), where the engine solved it.
        winner: for the portfolio (``method='portfolio'``), the engine whose
            answer it is.
    """

    board: Board
    piece: Leaper
    kind: Kind
    cells: tuple[Cell, ...]
    status: Status
    size: int
    bound: int
    method: str
    seconds: float = 0.0
    effort: Effort = field(default_factory=Effort)
    count: int | None = None
    count_at_least: int | None = None
    symmetry: bool = False
    lp_bound: float | None = None
    winner: str | None = None

    @property
    def optimal(self) -> bool:
        """Whether the size is proved optimal."""
        return self.status is Status.OPTIMAL

    @property
    def method_label(self) -> str:
        """The engine, and for the portfolio whose answer it is."""
        return race_label(self.method, self.winner)

    def names(self) -> list[str]:
        """The knights' cells by name."""
        return self.board.cell_names(self.cells) if self.cells else []

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def as_dict(self) -> dict[str, Any]:
        """The answer's JSON keys (see :meth:`~cpknight.results.Outcome.as_dict`)."""
        row: dict[str, Any] = {
            "cells": [list(c) for c in self.cells],
            "kind": self.kind,
            "size": self.size,
            "symmetry": self.symmetry,
            "lp_bound": None if self.lp_bound is None else round(self.lp_bound, 6),
        }
        if self.count is not None or self.count_at_least is not None:
            row["count"] = self.count
            row["count_at_least"] = self.count_at_least
        return row

    def __str__(self) -> str:
        from cpknight.text.render import cover_text

        return cover_text(self)

    def _repr_svg_(self) -> str:
        from cpknight.draw.covering import cover_svg

        return cover_svg(self)

    def __repr__(self) -> str:
        return (
            f"<Cover {self.status} {self.kind} {self.board.label} "
            f"{self.piece.label} {self.size} knights by {self.method}>"
        )


# ------------------------------------------------------------------ symmetries


class PlacementClasses:
    """The placements seen so far, one a class of the board's symmetries.

    A placement's class is named by its least image (the sorted tuple of its
    cells' nodes) under :func:`cell_permutations`, the symmetries the models'
    lex-leader rows break: counting every placement and then the classes
    gives the count up to symmetry that those rows give, without their cost
    in the search.

    Examples:
        >>> from cpknight.board import Board
        >>> inst = CoverInstance(board=Board.parse("3x3"), piece=KNIGHT,
        ...                      kind="dominating")
        >>> classes = PlacementClasses(inst)
        >>> classes.add([0, 1]); classes.add([2, 1]); classes.add([4])
        >>> len(classes)  # a1 b1 and c1 b1 are mirror images
        2
    """

    def __init__(self, instance: CoverInstance) -> None:
        self.symmetries = cell_permutations(instance.board)
        self.seen: set[tuple[int, ...]] = set()

    def add(self, placement: Sequence[int]) -> None:
        """Count one placement (given by its nodes), once for its class."""
        images = [tuple(sorted(placement))]
        images += [tuple(sorted(p[v] for v in placement)) for p in self.symmetries]
        self.seen.add(min(images))

    def __len__(self) -> int:
        return len(self.seen)


# ------------------------------------------------------------------ the checker


def check_cover(
    board: Board,
    cells: Sequence[CellLike],
    *,
    kind: str,
    piece: PieceLike = KNIGHT,
) -> None:
    """Raise unless the knights on ``cells`` are a placement of the puzzle ``kind``.

    Checks, independently of every engine: each cell open and on the board,
    none twice; then, from the move graph's neighbour lists, which cells the
    knights attack, and cell by cell: ``dominating`` (each open cell occupied
    or attacked), ``total`` (each open cell attacked), ``independent`` (no
    knight attacks another, and dominating), ``independent-set`` (no knight
    attacks another). It checks the placement, not that it is optimal.

    Raises:
        TourCheckError: the first fault found.
        InvalidInputError: an unknown kind, or a piece that does not fit.

    Examples:
        >>> b = Board.parse("4x4")
        >>> check_cover(b, ["a1", "b3"], kind="independent-set")
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: the knights on a1 and b3 attack each other
    """
    which = covering_kind(kind)
    leaper = as_piece(piece)
    board.require_finite("a covering")
    leaper.check_dim(board.dim, board.label)
    array = np.array([board.parse_cell(c) for c in cells], dtype=np.int64).reshape(
        -1, board.dim
    )
    graph = move_graph(board, leaper)
    occupied = np.zeros(graph.n_nodes, dtype=bool)
    if len(array):
        check_cells(board, array, what="placement")
        nodes = [graph.node(row) for row in array.tolist()]
        for i, node in enumerate(nodes):
            if occupied[node]:
                raise TourCheckError(
                    f"cell {board.cell_name(array[i])} holds two knights", step=i
                )
            occupied[node] = True
    attacked = np.zeros(graph.n_nodes, dtype=bool)
    for node in np.flatnonzero(occupied).tolist():
        for other in graph.neighbors(node).tolist():
            if which in ("independent", "independent-set") and occupied[other]:
                first, second = sorted((node, other))
                raise TourCheckError(
                    f"the knights on {board.cell_name(graph.cell(first))} and "
                    f"{board.cell_name(graph.cell(second))} attack each other",
                    step=None,
                )
            attacked[other] = True
    if which == "independent-set":
        return
    covered = attacked if which == "total" else attacked | occupied
    for node in np.flatnonzero(~covered).tolist():
        what = "attacked" if which == "total" else "occupied nor attacked"
        neither = "not" if which == "total" else "neither"
        raise TourCheckError(
            f"cell {board.cell_name(graph.cell(node))} is {neither} {what}",
            step=None,
        )


def make_cover(
    instance: CoverInstance,
    nodes: Sequence[int],
    *,
    status: str | Status,
    bound: int,
    method: str,
    started: float,
    effort: Effort | None = None,
    count: int | None = None,
    count_at_least: int | None = None,
    lp_bound: float | None = None,
) -> Cover:
    """The one way an engine returns an answer: checked first.

    Args:
        instance: the question.
        nodes: the knights as move-graph nodes.
        status: ``'optimal'`` or ``'feasible'``.
        bound: a proved bound on the optimum (lower when minimising, upper
            when maximising).
        method: the engine.
        started: :func:`time.perf_counter` when the engine started.
        effort: what the engine counted.
        count: the number of optimal placements, when counted.
        count_at_least: placements counted before the limit stopped the count.
        lp_bound: the LP relaxation's optimum, when solved.

    Raises:
        EngineError: the answer fails :func:`check_cover`, or its bound is on
            the wrong side of its size (a bug in the engine).
    """
    graph = instance.graph
    cells = tuple(graph.cell(int(n)) for n in sorted({int(n) for n in nodes}))
    try:
        check_cover(instance.board, cells, kind=instance.kind, piece=instance.piece)
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad "
            f"{instance.describe()}: {exc}"
        ) from None
    size = len(cells)
    wrong = bound < size if maximises(instance.kind) else bound > size
    if wrong:
        raise EngineError(
            f"internal error: engine {method!r} claims a bound of {bound} on the "
            f"wrong side of its own {size}-knight answer"
        )
    return Cover(
        board=instance.board,
        piece=instance.piece,
        kind=instance.kind,
        cells=cells,
        status=Status(str(status)),
        size=size,
        bound=bound,
        method=method,
        seconds=time.perf_counter() - started,
        effort=effort or Effort(),
        count=count,
        count_at_least=count_at_least,
        symmetry=instance.symmetry,
        lp_bound=lp_bound,
    )


def isolated_cell(instance: CoverInstance) -> Cell | None:
    """A cell no knight can attack (total domination then has no answer)."""
    degree = instance.graph.degree
    lonely = np.flatnonzero(degree == 0)
    return instance.graph.cell(int(lonely[0])) if len(lonely) else None
