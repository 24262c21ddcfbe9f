"""Side constraints on tours: visit numbers, required and forbidden moves, symmetry.

One frozen value, :class:`TourConstraints`, holds every side constraint a tour
may carry; :func:`tour_constraints` reads and checks them against a board (the
command line's ``--via``, ``--require``, ``--forbid``, ``--symmetric`` and
``--given`` all come through it), and :func:`read_given` reads a board drawing
with some visit numbers filled in (the format tours print in). The engines read
the value (CP-SAT honours every kind, the backtracking searches ``via``,
``require`` and ``forbid``), and :func:`check_constraints`, the value's own
checker, written apart from every model, checks every constrained tour before
it is returned (:func:`cpknight.checks.make_tour` calls it).

Examples:
    >>> c = tour_constraints("8x8", via=["d4@10"], forbid=["a1-b3"])
    >>> c.kinds(), c.via
    (['via', 'forbid'], (((3, 3), 10),))
    >>> c.describe(Board.parse("8x8"))
    'via d4@10; forbid a1-b3'
    >>> tour_constraints("8x8", via=["d4@70"])
    Traceback (most recent call last):
    ...
    cpknight.errors.InvalidInputError: via 'd4@70': the step must be from 1 to 64 \
on board 8x8
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import FILES, Board, Cell
from cpknight.errors import (
    InvalidCellError,
    InvalidInputError,
    TourCheckError,
    specs,
)
from cpknight.pieces import KNIGHT, PieceLike, as_piece, steps_are_moves

__all__ = [
    "MAGIC_LINES",
    "OBJECTIVES",
    "SYMMETRIES",
    "Edge",
    "Symmetry",
    "TourConstraints",
    "check_constraints",
    "edge_key",
    "read_given",
    "symmetry_map",
    "tour_constraints",
]

Symmetry = Literal["rot180", "rot90", "mirror-files", "mirror-ranks"]
SYMMETRIES: tuple[str, ...] = ("rot180", "rot90", "mirror-files", "mirror-ranks")
"""The symmetries ``--symmetric`` takes: half and quarter turns, two mirrors."""

Edge = tuple[Cell, Cell]
"""A move between two cells, either way."""

MAGIC_LINES: dict[str, tuple[int, ...]] = {"ranks": (0,), "files": (1,)}
"""One-direction magic: the lines that share a sum, as the axis held fixed
along them (a rank is a row, axis 0; a file a column, axis 1)."""

OBJECTIVES: tuple[str, ...] = ("turns", "crossings")
"""What ``--min`` may minimise: the turns (cells where the direction changes) or
the crossings (pairs of drawn moves that cross) of a tour."""


@dataclass(frozen=True)
class TourConstraints:
    """Side constraints on a tour, cells already read and checked.

    Build with :func:`tour_constraints`; an empty value (the default) asks for a
    plain tour.

    Attributes:
        via: ``(cell, step)`` pairs: the ``step``-th cell of the tour (from 1)
            is ``cell``. For a closed tour with no fixed start the steps count
            from whichever cell the tour is printed from.
        require: moves the tour must use (either way).
        forbid: moves the tour must not use.
        symmetric: a symmetry that maps the (closed) tour onto itself as a
            cycle, or ``None``.
        magic: semi-magic: the visit numbers of every rank sum to the same
            total, and those of every file (a rectangle with no blocked cell);
            ``'ranks'`` or ``'files'``: only those lines (one direction, as
            on 4 x 2n boards, OEIS A328816).
        minimise: an objective, ``'turns'`` or ``'crossings'`` (see
            :data:`OBJECTIVES`): the tour found is one with the fewest, or the
            best found at the limit with a proved bound.
    """

    via: tuple[tuple[Cell, int], ...] = ()
    require: tuple[Edge, ...] = ()
    forbid: tuple[Edge, ...] = ()
    symmetric: str | None = None
    magic: bool | str = False
    minimise: str | None = None

    @property
    def magic_axes(self) -> tuple[int, ...]:
        """The axes held fixed along the magic lines: ``(0, 1)``, ``(0,)``, ``(1,)``.

        Examples:
            >>> TourConstraints(magic="files").magic_axes
            (1,)
        """
        if not self.magic:
            return ()
        if isinstance(self.magic, str):
            return MAGIC_LINES[self.magic]
        return (0, 1)

    def __bool__(self) -> bool:
        return bool(
            self.via
            or self.require
            or self.forbid
            or self.symmetric
            or self.magic
            or self.minimise
        )

    def kinds(self) -> list[str]:
        """The kinds of constraint present, in a fixed order."""
        present = {
            "via": bool(self.via),
            "require": bool(self.require),
            "forbid": bool(self.forbid),
            "symmetric": self.symmetric is not None,
            "magic": bool(self.magic),
            "min": self.minimise is not None,
        }
        return [kind for kind, on in present.items() if on]

    def describe(self, board: Board) -> str:
        """The constraints in the command line's own spelling.

        Examples:
            >>> b = Board.parse("5x5")
            >>> tour_constraints(b, require=["a1-b3"], symmetric="rot180").describe(b)
            'require a1-b3; symmetric rot180'
        """
        name = board.cell_name
        parts: list[str] = []
        if self.via:
            parts.append("via " + " ".join(f"{name(c)}@{k}" for c, k in self.via))
        for word, edges in (("require", self.require), ("forbid", self.forbid)):
            if edges:
                parts.append(
                    f"{word} " + " ".join(f"{name(a)}-{name(b)}" for a, b in edges)
                )
        if self.symmetric:
            parts.append(f"symmetric {self.symmetric}")
        if self.magic:
            parts.append("magic" + (f" {self.magic}" if self.magic is not True else ""))
        if self.minimise:
            parts.append(f"min {self.minimise}")
        return "; ".join(parts)

    def as_dict(self) -> dict[str, object]:
        """The constraints as JSON keys (cells as coordinate lists)."""
        return {
            "via": [[list(c), k] for c, k in self.via],
            "require": [[list(a), list(b)] for a, b in self.require],
            "forbid": [[list(a), list(b)] for a, b in self.forbid],
            "symmetric": self.symmetric,
            "magic": self.magic,
            "min": self.minimise,
        }

    def anchored(
        self, closed: bool, start: Cell | None, n: int
    ) -> tuple[Cell | None, TourConstraints, int]:
        """Fix the start of a closed tour whose visit numbers float.

        A closed tour with no fixed start can be printed from any cell, so its
        visit numbers only pin positions relative to one another. Start it on
        the cell of the lowest visit number instead, renumbered from 1; the
        tour found is then rotated back by ``shift`` places (``np.roll``).

        Returns:
            ``(start, constraints, shift)``; unchanged with ``shift == 0`` when
            nothing floats.

        Examples:
            >>> c = TourConstraints(via=(((0, 0), 3), ((1, 2), 5)))
            >>> start, moved, shift = c.anchored(True, None, 10)
            >>> start, moved.via, shift
            ((0, 0), (((0, 0), 1), ((1, 2), 3)), 2)
        """
        if not closed or start is not None or not self.via:
            return start, self, 0
        cell, first = min(self.via, key=lambda pair: pair[1])
        via = tuple((c, (k - first) % n + 1) for c, k in self.via)
        return cell, replace(self, via=via), first - 1

    def validate(self, board: Board, piece: PieceLike = KNIGHT) -> TourConstraints:
        """Check the constraints against a board (for values built by hand).

        Raises:
            InvalidInputError: a cell off the board or blocked, a step out of
                range, a move that is not a move, a symmetry that does not map
                the board onto itself.
        """
        name = board.cell_name
        return tour_constraints(
            board,
            piece,
            via=[f"{name(c)}@{k}" for c, k in self.via],
            require=[f"{name(a)}-{name(b)}" for a, b in self.require],
            forbid=[f"{name(a)}-{name(b)}" for a, b in self.forbid],
            symmetric=self.symmetric,
            magic=self.magic,
            minimise=self.minimise,
        )


def tour_constraints(
    board: Board | str,
    piece: PieceLike = KNIGHT,
    *,
    via: Iterable[str] = (),
    require: Iterable[str] = (),
    forbid: Iterable[str] = (),
    symmetric: str | None = None,
    given: Iterable[tuple[Cell, int]] = (),
    magic: bool | str = False,
    minimise: str | None = None,
) -> TourConstraints:
    """Read and check tour side constraints against a board.

    Args:
        board: the board (a :class:`Board` or a spec such as ``'8x8'``).
        piece: the leaper (required and forbidden moves must be its moves).
        via: ``'CELL@K'`` specs: the K-th cell of the tour (from 1) is CELL.
        require: ``'a1-b3'`` specs: moves the tour must use.
        forbid: ``'a1-b3'`` specs: moves the tour must not use.
        symmetric: a name in :data:`SYMMETRIES` (closed tours only).
        given: ``(cell, step)`` pairs already read (from :func:`read_given`).
        magic: ask for a semi-magic tour (every rank, and every file, of
            visit numbers has the same sum); a plain 2D rectangle only.
            ``'ranks'`` or ``'files'`` asks it of those lines only
            (``'both'`` is ``True``).
        minimise: ``'turns'`` (the fewest cells where the move's direction
            changes) or ``'crossings'`` (the fewest pairs of drawn moves that
            cross; a bounded 2D board), answered by CP-SAT.

    Returns:
        The checked :class:`TourConstraints`.

    Raises:
        InvalidInputError: one clear line that echoes the bad spec.

    Examples:
        >>> tour_constraints("8x8", require=["a1-c3"])
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: require 'a1-c3': a1-c3 is not a knight \
(1,2) move
        >>> tour_constraints("8x6", symmetric="rot90")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: symmetric 'rot90' does not map board 8x6 \
onto itself (a quarter turn needs a square board)
    """
    board = board if isinstance(board, Board) else Board.parse(board)
    leaper = as_piece(piece)
    n = board.n_open
    pairs = [(_via(board, spec, n), spec) for spec in specs(via, "via")]
    pairs += [
        ((cell, k), f"{board.cell_name(cell)}@{k}") for cell, k in _given_pairs(given)
    ]
    steps = _visit_steps(board, pairs)
    required = _edges(board, leaper, "require", specs(require, "require"))
    forbidden = _edges(board, leaper, "forbid", specs(forbid, "forbid"))
    both = set(map(_key, required)) & set(map(_key, forbidden))
    if both:
        a, b = sorted(both)[0]
        raise InvalidInputError(
            f"move {board.cell_name(a)}-{board.cell_name(b)} is both required "
            "and forbidden"
        )
    if symmetric is not None:
        symmetry_map(board, symmetric)  # raises unless it maps the board onto itself
    magic = _magic(magic)
    if magic and (board.dim != 2 or board.blocked):
        raise InvalidInputError(
            f"magic needs a 2D board with no blocked cells: {board.label}"
        )
    _check_objective(board, minimise)
    return TourConstraints(
        via=tuple(sorted(((c, k) for k, c in steps.items()), key=lambda p: p[1])),
        require=tuple(dict.fromkeys(required)),
        forbid=tuple(dict.fromkeys(forbidden)),
        symmetric=symmetric,
        magic=magic,
        minimise=minimise,
    )


def _magic(magic: bool | str | None) -> bool | str:
    """``True`` (both directions), ``'ranks'``, ``'files'`` or ``False``.

    Raises:
        InvalidInputError: anything else.
    """
    if magic is None or magic is False:
        return False
    if magic is True or magic == "both":
        return True
    if isinstance(magic, str) and magic in MAGIC_LINES:
        return magic
    raise InvalidInputError(
        f"expected magic to be true, 'both', 'ranks' or 'files': {magic!r}"
    )


def _check_objective(board: Board, minimise: str | None) -> None:
    """Refuse an objective that is not one, or crossings off a plane board.

    Raises:
        InvalidInputError: an unknown objective; crossings on a board whose
            moves are not plane segments (3D, torus, cylinder).
    """
    if minimise is None:
        return
    if minimise not in OBJECTIVES:
        raise InvalidInputError(
            f"expected an objective in {', '.join(OBJECTIVES)}: {minimise!r}"
        )
    if minimise == "crossings" and (board.dim != 2 or board.topology != "bounded"):
        raise InvalidInputError(
            "crossings need a bounded 2D board, where each move is one segment: "
            f"{board.label!r}"
        )


def _visit_steps(
    board: Board, pairs: list[tuple[tuple[Cell, int], str]]
) -> dict[int, Cell]:
    """The cell of each visit number, each step and each cell given once.

    Raises:
        InvalidInputError: a step off the tour, or a step or cell given twice
            differently (the message echoes the spec).
    """
    n = board.n_open
    steps: dict[int, Cell] = {}
    at: dict[Cell, int] = {}
    for (cell, k), spec in pairs:
        if not 1 <= k <= n:
            raise InvalidInputError(
                f"via {spec!r}: the step must be from 1 to {n} on board {board.label}"
            )
        if steps.get(k, cell) != cell:
            other = board.cell_name(steps[k])
            raise InvalidInputError(f"via {spec!r}: step {k} is already {other}")
        if at.get(cell, k) != k:
            raise InvalidInputError(
                f"via {spec!r}: {board.cell_name(cell)} is already step {at[cell]}"
            )
        steps[k], at[cell] = cell, k
    return steps


def symmetry_map(board: Board, name: str) -> Callable[[Cell], Cell]:
    """The map of a symmetry on a 2D board's cells, checked to keep the board.

    Raises:
        InvalidInputError: not a known symmetry, not a 2D board, or the map
            does not carry the board (its shape, blocked cells and wrap) onto
            itself.

    Examples:
        >>> s = symmetry_map(Board.parse("8x8"), "rot90")
        >>> s((0, 0)), s(s((0, 0))), s((0, 1))
        ((0, 7), (7, 7), (1, 7))
        >>> symmetry_map(Board.parse("heart9"), "mirror-files")((0, 4))
        (0, 4)
    """
    if name not in SYMMETRIES:
        raise InvalidInputError(
            f"expected a symmetry in {', '.join(SYMMETRIES)}: {name!r}"
        )
    if board.dim != 2:
        raise InvalidInputError(
            f"symmetric {name!r} needs a 2D board; board {board.label} has "
            f"{board.dim} axes"
        )
    rows, cols = board.shape
    maps: dict[str, Callable[[Cell], Cell]] = {
        "rot180": lambda c: (rows - 1 - c[0], cols - 1 - c[1]),
        "rot90": lambda c: (c[1], rows - 1 - c[0]),
        "mirror-files": lambda c: (c[0], cols - 1 - c[1]),
        "mirror-ranks": lambda c: (rows - 1 - c[0], c[1]),
    }
    if name == "rot90" and (rows != cols or board.wrap[0] != board.wrap[1]):
        why = "a square board" if rows != cols else "both axes wrapped alike"
        raise InvalidInputError(
            f"symmetric {name!r} does not map board {board.label} onto itself "
            f"(a quarter turn needs {why})"
        )
    image = maps[name]
    moved = {image(c) for c in board.blocked}
    if moved != set(board.blocked):
        lost = sorted(set(board.blocked) - moved)[0]
        raise InvalidInputError(
            f"symmetric {name!r} does not map board {board.label} onto itself "
            f"(blocked {board.cell_name(lost)} is the image of an open cell)"
        )
    return image


def read_given(text: str, board: Board) -> list[tuple[Cell, int]]:
    r"""Read a board drawing where some cells carry their visit numbers.

    The format is the one tours print in: one line per rank, top rank first,
    optionally led by the rank number and ``|``, cells separated by spaces:
    a visit number, ``.`` (to find) or ``#`` (blocked); a last line of file
    letters is optional. Lines starting with ``;`` are comments.

    Returns:
        ``(cell, step)`` pairs, for :func:`tour_constraints` (``given=``).

    Raises:
        InvalidInputError: the drawing does not fit the board (its size or
            blocked cells), or a cell is neither a number, ``.`` nor ``#``.

    Examples:
        >>> b = Board.parse("3x4")
        >>> read_given("3 | . . . 12\n2 | . . . .\n1 | 1 . . .\n    a b c d", b)
        [((2, 3), 12), ((0, 0), 1)]
    """
    if board.dim != 2:
        raise InvalidInputError(
            f"a drawing of visit numbers needs a 2D board: {board.label}"
        )
    rows, cols = board.shape
    lines = []
    for raw in text.removeprefix("\ufeff").splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if "|" in line:
            line = line.split("|", 1)[1]
        elif re.fullmatch(r"[a-z ]+", line) and set(line.split()) <= set(FILES):
            continue  # the file letters under the board
        lines.append(line.split())
    if len(lines) != rows or any(len(tokens) != cols for tokens in lines):
        found = f"{len(lines)} ranks of " + "/".join(
            sorted({str(len(t)) for t in lines}) or ["0"]
        )
        raise InvalidInputError(
            f"the drawing has {found} cells; board {board.label} has {rows} ranks "
            f"of {cols}"
        )
    given: list[tuple[Cell, int]] = []
    for i, tokens in enumerate(lines):
        r = rows - 1 - i
        for c, token in enumerate(tokens):
            cell = (r, c)
            blocked = cell in board.blocked
            if token == "#" or blocked:
                if token != "#" or not blocked:
                    state = "blocked" if blocked else "open"
                    raise InvalidInputError(
                        f"the drawing has {token!r} at {board.cell_name(cell)}, "
                        f"which is {state} on board {board.label}"
                    )
            elif token.isascii() and token.isdigit():
                given.append((cell, int(token)))
            elif token != ".":
                raise InvalidInputError(
                    f"expected a visit number, '.' or '#' at "
                    f"{board.cell_name(cell)}: {token!r}"
                )
    return given


# --------------------------------------------------------------------- private


def _given_pairs(given: object) -> list[tuple[Cell, int]]:
    """``given`` as ``(cell, step)`` pairs, or one clear error."""
    pairs = []
    for item in specs(given, "given"):
        try:
            cell, step = item
            pairs.append((tuple(int(x) for x in cell), operator.index(step)))
        except (TypeError, ValueError):
            raise InvalidInputError(
                f"given must be (cell, step) pairs, as read_given returns: {item!r}"
            ) from None
    return pairs


def _key(edge: Edge) -> Edge:
    a, b = edge
    return (a, b) if a <= b else (b, a)


def _via(board: Board, spec: str, n: int) -> tuple[Cell, int]:
    cell_text, at, step = str(spec).rpartition("@")
    if not at or not (step.strip().isascii() and step.strip().isdigit()):
        raise InvalidInputError(f"expected a via like 'd4@10' (cell@step): {spec!r}")
    try:
        cell = board.parse_cell(cell_text.strip())
    except InvalidCellError as exc:
        raise InvalidInputError(f"via {spec!r}: {exc}") from None
    return cell, int(step)


def _edges(
    board: Board, piece: PieceLike, word: str, specs: Iterable[str]
) -> list[Edge]:
    edges: list[Edge] = []
    for spec in specs:
        parts = re.split(r"\s*-\s*|\s+", str(spec).strip())
        if len(parts) != 2 or not all(parts):
            raise InvalidInputError(
                f"expected a move like 'a1-b3' for {word}: {spec!r}"
            )
        try:
            a, b = (board.parse_cell(p) for p in parts)
        except InvalidCellError as exc:
            raise InvalidInputError(f"{word} {spec!r}: {exc}") from None
        if (
            a == b
            or not steps_are_moves(
                board, piece, np.array([a], np.int64), np.array([b], np.int64)
            )[0]
        ):
            shown = f"{board.cell_name(a)}-{board.cell_name(b)}"
            raise InvalidInputError(
                f"{word} {spec!r}: {shown} is not a {as_piece(piece).label} move"
            )
        edges.append(_key((a, b)))
    return edges


def edge_key(edge: Sequence[Sequence[int]]) -> Edge:
    """A move as a sorted pair of cell tuples (so a-b and b-a are one key)."""
    a, b = (tuple(int(x) for x in cell) for cell in edge)
    return _key((a, b))


def check_constraints(
    board: Board,
    cells: Sequence[Sequence[int]] | npt.NDArray[np.integer[Any]],
    constraints: TourConstraints,
    *,
    closed: bool,
) -> None:
    """Raise unless a tour honours its side constraints.

    Independent of how the engines model them: the visit numbers are read off
    the sequence, the moves used are the consecutive pairs (and the closing
    pair), and a symmetric tour's set of moves must be its own image.

    Args:
        board: the board.
        cells: the tour (already passed by :func:`check_tour`).
        constraints: the constraints it must honour.
        closed: whether the tour is closed.

    Raises:
        TourCheckError: the first constraint broken.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.constraints import tour_constraints
        >>> b = Board.parse("3x4")
        >>> cells = [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1), (0, 2), (1, 0),
        ...          (2, 2), (0, 3), (1, 1), (2, 3)]
        >>> check_constraints(b, cells, tour_constraints(b, via=["c2@2"]),
        ...                   closed=False)
        >>> check_constraints(b, cells, tour_constraints(b, forbid=["c2-a3"]),
        ...                   closed=False)
        Traceback (most recent call last):
        ...
        cpknight.errors.TourCheckError: the tour uses the forbidden move c2-a3
    """
    if not (constraints.via or constraints.magic or constraints.symmetric):
        _check_moves(board, np.asarray(cells), constraints, closed=closed)
        return
    seq = [tuple(int(x) for x in cell) for cell in np.asarray(cells).tolist()]
    _check_visits(board, seq, constraints.via)
    pairs = list(itertools.pairwise(seq))
    if closed and len(seq) > 2:
        pairs.append((seq[-1], seq[0]))
    used = {edge_key(p) for p in pairs}
    _check_used(board, used, constraints)
    if constraints.magic:
        _check_magic(board, seq, constraints.magic_axes)
    if constraints.symmetric is not None:
        if not closed:
            raise TourCheckError("a symmetric tour must be closed", step=None)
        _check_symmetric(board, used, constraints.symmetric)


def _check_visits(
    board: Board, seq: list[Cell], via: tuple[tuple[Cell, int], ...]
) -> None:
    """Each visit number: the cell is the tour's ``k``-th."""
    name = board.cell_name
    for cell, k in via:
        if not 1 <= k <= len(seq) or seq[k - 1] != tuple(cell):
            shown = name(seq[k - 1]) if 1 <= k <= len(seq) else "nothing"
            raise TourCheckError(
                f"step {k} should be {name(cell)}, not {shown}", step=k - 1
            )


def _check_used(
    board: Board, used: set[tuple[Cell, Cell]], constraints: TourConstraints
) -> None:
    """The required moves are among the moves used, the forbidden ones are not."""
    name = board.cell_name
    for a, b in constraints.require:
        if edge_key((a, b)) not in used:
            raise TourCheckError(
                f"the tour does not use the required move {name(a)}-{name(b)}",
                step=None,
            )
    for a, b in constraints.forbid:
        if edge_key((a, b)) in used:
            first, second = edge_key((a, b))
            raise TourCheckError(
                f"the tour uses the forbidden move {name(first)}-{name(second)}",
                step=None,
            )


def _check_magic(board: Board, seq: list[Cell], axes: tuple[int, ...]) -> None:
    """The visit numbers of every rank (axis 0), or file (axis 1), add up alike."""
    order = np.zeros(board.shape, dtype=np.int64)
    for i, cell in enumerate(seq):
        order[cell] = i + 1
    for axis, what in ((0, "rank"), (1, "file")):
        if axis not in axes:
            continue
        sums = order.sum(axis=1 - axis).tolist()
        if len(set(sums)) > 1:
            raise TourCheckError(
                f"the tour is not magic: the {what} sums differ ({sums})",
                step=None,
            )


def _check_symmetric(
    board: Board, used: set[tuple[Cell, Cell]], symmetric: str
) -> None:
    """The moves used are their own image under the symmetry."""
    name = board.cell_name
    image = symmetry_map(board, symmetric)
    for a, b in sorted(used):
        if edge_key((image(a), image(b))) not in used:
            raise TourCheckError(
                f"{symmetric} maps the move {name(a)}-{name(b)} to "
                f"{name(image(a))}-{name(image(b))}, which the tour does not use",
                step=None,
            )


def _check_moves(
    board: Board,
    cells: npt.NDArray[np.integer[Any]],
    constraints: TourConstraints,
    *,
    closed: bool,
) -> None:
    """Required and forbidden moves alone, read off each cell's place in the tour.

    Two cells make a move of the tour when their places differ by one (or,
    closed, are the first and the last): a numpy pass, for million-cell tours.
    """
    size = len(cells)
    place = np.full(int(np.prod(board.shape)), -1, dtype=np.int64)
    place[np.ravel_multi_index(tuple(cells.T), board.shape)] = np.arange(size)
    name = board.cell_name

    def uses(a: Cell, b: Cell) -> bool:
        i = int(place[np.ravel_multi_index(a, board.shape)])
        j = int(place[np.ravel_multi_index(b, board.shape)])
        if i < 0 or j < 0:
            return False
        return abs(i - j) == 1 or (closed and size > 2 and {i, j} == {0, size - 1})

    for a, b in constraints.require:
        if not uses(a, b):
            raise TourCheckError(
                f"the tour does not use the required move {name(a)}-{name(b)}",
                step=None,
            )
    for a, b in constraints.forbid:
        if uses(a, b):
            first, second = edge_key((a, b))
            raise TourCheckError(
                f"the tour uses the forbidden move {name(first)}-{name(second)}",
                step=None,
            )
