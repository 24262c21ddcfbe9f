"""The knight-swap puzzles: the instance, the answer, and its own checker.

Knights of several colours stand on a board; move them, one knight a move,
each onto an empty cell a move of the piece away, until they stand as in a
goal placement, in the fewest moves. Knights of one colour are
interchangeable (an *ordered* puzzle, such as Guy's, gives every knight its
own colour).

A placement maps each colour (one letter) to the cells of its knights. Every
answer leaves an engine through :func:`make_swap`, which runs
:func:`check_swap`, a checker written apart from the engines: it replays the
steps on a dictionary of cells, and tests each step with
:func:`~cpknight.pieces.steps_are_moves` (the move vectors, not the move graph
the engines read).

Examples:
    >>> from cpknight.board import Board
    >>> b = Board.parse("3x3")
    >>> start = placement({"W": ["a1"], "B": ["c3"]}, b)
    >>> goal = placement({"W": ["b3"], "B": ["c3"]}, b)
    >>> check_swap(b, start, goal, [("a1", "b3")])
    >>> check_swap(b, start, goal, [("a1", "c2")])
    Traceback (most recent call last):
    ...
    cpknight.errors.TourCheckError: after 1 moves the knights stand as \
B c3, W c2, not as the goal B c3, W b3
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from cpknight.board import Board, Cell, CellLike
from cpknight.errors import (
    EngineError,
    InvalidInputError,
    ModelTooBigError,
    TourCheckError,
)
from cpknight.pieces import (
    KNIGHT,
    Leaper,
    MoveGraph,
    PieceLike,
    as_piece,
    move_graph,
    steps_are_moves,
)
from cpknight.status import Effort, Status

__all__ = [
    "MAX_SWAP_STATES",
    "Placement",
    "Swap",
    "SwapInstance",
    "check_swap",
    "make_swap",
    "placement",
    "placement_text",
    "state_count",
]

Placement = tuple[tuple[str, tuple[Cell, ...]], ...]
"""Each colour with the cells of its knights: colours sorted, cells sorted."""

MAX_SWAP_STATES = 150_000_000
"""The most placements a breadth-first search is started on (the multinomial
count of the instance's colours on the open cells): the layered search keeps
every placement it reaches as 8 bytes, and sorts levels several times as large."""


def placement(
    knights: Mapping[str, Sequence[CellLike]] | Placement, board: Board
) -> Placement:
    """A placement, checked: colours one character, cells open and distinct.

    Args:
        knights: each colour's cells (names like ``'a1'`` or coordinates).
        board: the board they stand on.

    Returns:
        The canonical placement (colours sorted, each colour's cells sorted).

    Raises:
        InvalidInputError: a colour that is not one letter, a colour without
            knights, or a cell used twice.
        InvalidCellError: a cell off the board or blocked.

    Examples:
        >>> placement({"W": ["c1", "a1"], "B": ["a3"]}, Board.parse("3x3"))
        (('B', ((2, 0),)), ('W', ((0, 0), (0, 2))))
    """
    pairs = knights.items() if isinstance(knights, Mapping) else knights
    seen: dict[Cell, str] = {}
    out: list[tuple[str, tuple[Cell, ...]]] = []
    for colour, cells in pairs:
        if not (isinstance(colour, str) and len(colour) == 1 and colour.isalpha()):
            raise InvalidInputError(f"expected a colour of one letter: {colour!r}")
        parsed = tuple(sorted(board.parse_cell(c) for c in cells))
        if not parsed:
            raise InvalidInputError(f"colour {colour!r} has no knights")
        for cell in parsed:
            if cell in seen:
                raise InvalidInputError(
                    f"cell {board.cell_name(cell)} holds two knights "
                    f"({seen[cell]} and {colour})"
                )
            seen[cell] = colour
        out.append((colour, parsed))
    if len({c for c, _ in out}) != len(out):
        raise InvalidInputError("a colour is given twice")
    return tuple(sorted(out))


def placement_text(board: Board, where: Placement) -> str:
    """``'B a3 c3, W a1 c1'``: each colour and its cells by name.

    Examples:
        >>> b = Board.parse("3x3")
        >>> placement_text(b, placement({"W": ["a1", "c1"]}, b))
        'W a1 c1'
    """
    return ", ".join(
        f"{colour} {' '.join(board.cell_name(c) for c in cells)}"
        for colour, cells in where
    )


def state_count(n_cells: int, counts: Sequence[int]) -> int:
    """The placements of knights of these colour counts on ``n_cells`` cells.

    The multinomial ``n! / (k_1! ... k_m! (n - k)!)``: the size of the state
    space a search over placements may have to hold.

    Examples:
        >>> state_count(8, [2, 2])  # Guarini's ring: 8!/(2! 2! 4!)
        420
        >>> state_count(12, [1] * 8)  # Guy's 3x4, eight distinct knights
        19958400
    """
    left = n_cells
    total = 1
    for k in counts:
        total *= math.comb(left, k)
        left -= k
    return total


@dataclass(frozen=True, kw_only=True)
class SwapInstance:
    """A swap question, validated: the board, the piece, start and goal.

    Attributes:
        board: a finite board.
        piece: the leaper.
        start: where the knights stand.
        goal: where they must stand (the same colours, as many of each).
        name: the puzzle's name (``'guarini'``), if it has one.
    """

    board: Board
    piece: Leaper
    start: Placement
    goal: Placement
    name: str | None = None

    @cached_property
    def graph(self) -> MoveGraph:
        """The move graph, built on first use (under the caller's clock)."""
        return move_graph(self.board, self.piece)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours, sorted."""
        return tuple(colour for colour, _ in self.start)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many knights each colour has, in colour order."""
        return tuple(len(cells) for _, cells in self.start)

    @property
    def states(self) -> int:
        """How many placements of these knights the open cells hold."""
        return state_count(self.board.n_open, self.counts)

    def nodes(self, where: Placement) -> tuple[tuple[int, ...], ...]:
        """Each colour's cells as sorted move-graph nodes, in colour order."""
        graph = self.graph
        return tuple(tuple(sorted(graph.node(c) for c in cells)) for _, cells in where)

    def require_states(self, limit: int = MAX_SWAP_STATES) -> None:
        """Refuse a search over more placements than memory holds.

        Raises:
            ModelTooBigError: more than ``limit`` placements (one line, with
                the estimate).
        """
        states = self.states
        if states > limit:
            raise ModelTooBigError(
                f"the swap on {self.board.label} has {states:,} placements of its "
                f"{sum(self.counts)} knights (about {states * 24 / 1e9:,.1f} GB "
                f"to search); breadth-first search takes at most {limit:,}: "
                "use --method cpsat"
            )

    def describe(self) -> str:
        """``guarini: 4 knights of 2 colours on 3x3 (knight (1,2))``."""
        head = f"{self.name}: " if self.name else ""
        return (
            f"{head}{sum(self.counts)} knights of {len(self.counts)} colours on "
            f"{self.board.label} ({self.piece.label})"
        )


@dataclass(frozen=True, eq=False)
class Swap:
    """A checked answer to a swap puzzle (build with :func:`make_swap`).

    Attributes:
        board: the board.
        piece: the leaper.
        start: where the knights stood.
        goal: where they stand after the steps.
        steps: the moves in order, each ``(from, to)``.
        status: ``optimal`` (proved fewest) or ``feasible`` (``bound`` says
            how few there could be).
        moves: the number of moves, ``len(steps)``.
        bound: a proved lower bound on the number of moves (``== moves`` when
            optimal).
        method: the engine that found it.
        seconds: wall time, model building included.
        effort: what the engine counted.
        name: the puzzle's name, if it has one.
    """

    board: Board
    piece: Leaper
    start: Placement
    goal: Placement
    steps: tuple[tuple[Cell, Cell], ...]
    status: Status
    moves: int
    bound: int
    method: str
    seconds: float = 0.0
    effort: Effort = field(default_factory=Effort)
    name: str | None = None

    @property
    def optimal(self) -> bool:
        """Whether it is proved to take the fewest moves."""
        return self.status is Status.OPTIMAL

    def names(self) -> list[str]:
        """The steps by name, ``'a1-c2'``."""
        cell = self.board.cell_name
        return [f"{cell(a)}-{cell(b)}" for a, b in self.steps]

    def placements(self) -> Iterator[dict[Cell, str]]:
        """The board after each step, the start first: each knight's colour by cell."""
        now = {cell: colour for colour, cells in self.start for cell in cells}
        yield dict(now)
        for a, b in self.steps:
            now[b] = now.pop(a)
            yield dict(now)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[tuple[Cell, Cell]]:
        return iter(self.steps)

    def as_dict(self) -> dict[str, Any]:
        """The answer's JSON keys (see :meth:`~cpknight.results.Outcome.as_dict`).

        ``moves`` (the number), ``steps`` (``[from, to]`` coordinate pairs),
        ``colours``, and the two placements as ``start_knights`` and
        ``goal_knights`` (each colour's cells).
        """
        return {
            "moves": int(self.moves),
            "steps": [[list(a), list(b)] for a, b in self.steps],
            "colours": [colour for colour, _ in self.start],
            "start_knights": {c: [list(x) for x in cells] for c, cells in self.start},
            "goal_knights": {c: [list(x) for x in cells] for c, cells in self.goal},
        }

    def __str__(self) -> str:
        from cpknight.swaps.drawings import swap_text

        return swap_text(self)

    def _repr_svg_(self) -> str:
        from cpknight.draw.swaps import swap_svg

        svg: str = swap_svg(self)
        return svg

    def __repr__(self) -> str:
        head = f"{self.name} " if self.name else ""
        return (
            f"<Swap {self.status} {head}{self.board.label} {self.piece.label} "
            f"{self.moves} moves by {self.method}>"
        )


# ------------------------------------------------------------------ the checker


def check_swap(
    board: Board,
    start: Placement,
    goal: Placement,
    steps: Sequence[tuple[CellLike, CellLike]],
    *,
    piece: PieceLike = KNIGHT,
) -> None:
    """Raise unless ``steps`` take the knights from ``start`` to ``goal``.

    Checks, independently of every engine: each step starts on a cell that
    holds a knight and ends on an open cell of the board that is empty at
    that moment, one move of the piece away; after the last step every colour
    stands on exactly its goal cells.

    Raises:
        TourCheckError: the first fault found (``step`` its index).
        InvalidInputError: start and goal do not have the same knights.

    Examples:
        >>> b = Board.parse("3x3")
        >>> s = placement({"W": ["a1"], "B": ["c2"]}, b)
        >>> check_swap(b, s, s, [("a1", "c2")])
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: step 1 (a1-c2) lands on c2, which holds a \
knight
    """
    leaper = as_piece(piece)
    leaper.check_dim(board.dim, board.label)
    if [(c, len(x)) for c, x in start] != [(c, len(x)) for c, x in goal]:
        raise InvalidInputError(
            f"start ({placement_text(board, start)}) and goal "
            f"({placement_text(board, goal)}) need the same knights"
        )
    now: dict[Cell, str] = {}
    for colour, cells in start:
        for cell in cells:
            now[tuple(int(x) for x in cell)] = colour
    for i, (a_spec, b_spec) in enumerate(steps):
        try:
            a = board.parse_cell(a_spec)
            b = board.parse_cell(b_spec)
        except InvalidInputError as exc:
            raise TourCheckError(f"step {i + 1}: {exc}", step=i) from None
        name = f"{board.cell_name(a)}-{board.cell_name(b)}"
        if a not in now:
            raise TourCheckError(
                f"step {i + 1} ({name}) starts on {board.cell_name(a)}, which is empty",
                step=i,
            )
        if b in now:
            raise TourCheckError(
                f"step {i + 1} ({name}) lands on {board.cell_name(b)}, which holds "
                "a knight",
                step=i,
            )
        tails = np.array([a], dtype=np.int64)
        heads = np.array([b], dtype=np.int64)
        if not bool(steps_are_moves(board, leaper, tails, heads)[0]):
            raise TourCheckError(
                f"step {i + 1} ({name}) is not a {leaper.label} move", step=i
            )
        now[b] = now.pop(a)
    reached: dict[str, list[Cell]] = {}
    for cell, colour in now.items():
        reached.setdefault(colour, []).append(cell)
    final = tuple(sorted((c, tuple(sorted(x))) for c, x in reached.items()))
    if final != tuple((c, tuple(x)) for c, x in goal):
        raise TourCheckError(
            f"after {len(steps)} moves the knights stand as "
            f"{placement_text(board, final)}, not as the goal "
            f"{placement_text(board, goal)}",
            step=None,
        )


def make_swap(
    instance: SwapInstance,
    steps: Sequence[tuple[int, int]],
    *,
    status: str | Status,
    bound: int,
    method: str,
    started: float,
    effort: Effort | None = None,
    least: int = 0,
) -> Swap:
    """The one way an engine returns an answer: checked first.

    Args:
        instance: the question.
        steps: the moves as move-graph node pairs ``(from, to)``.
        status: ``'optimal'`` or ``'feasible'``.
        bound: a proved lower bound on the number of moves.
        method: the engine.
        started: :func:`time.perf_counter` when the engine started.
        effort: what the engine counted.
        least: a lower bound proved apart (the matched distances): an
            answer shorter than it is a bug.

    Raises:
        EngineError: the answer fails :func:`check_swap`, its bound is above
            its length, or it is shorter than ``least`` (a bug).
    """
    graph = instance.graph
    cells = tuple((graph.cell(int(a)), graph.cell(int(b))) for a, b in steps)
    try:
        check_swap(
            instance.board, instance.start, instance.goal, cells, piece=instance.piece
        )
    except TourCheckError as exc:
        raise EngineError(
            f"internal error: engine {method!r} returned a bad swap for "
            f"{instance.describe()}: {exc}"
        ) from None
    if bound > len(cells) or len(cells) < least:
        raise EngineError(
            f"internal error: engine {method!r} claims a bound of {bound} moves "
            f"(the distances prove {least}) against its own {len(cells)}-move "
            "answer"
        )
    return Swap(
        board=instance.board,
        piece=instance.piece,
        start=instance.start,
        goal=instance.goal,
        steps=cells,
        status=Status(str(status)),
        moves=len(cells),
        bound=bound,
        method=method,
        seconds=time.perf_counter() - started,
        effort=effort or Effort(),
        name=instance.name,
    )
