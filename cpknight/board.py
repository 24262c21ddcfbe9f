"""Boards: shape, blocked cells, topology, cell names and the named boards.

A :class:`Board` is a box of cells in any number of dimensions (2D and 3D are
the usual ones), some of them blocked, with each axis either bounded or wrapped
(a torus wraps every axis, a cylinder the last one). It is a frozen value: every
method returns a new board or a plain value.

Cells are tuples of ints indexing the shape: ``(row, col)`` in 2D, with row 0
the first rank (at the bottom of a diagram) and col 0 the a-file, so ``b3`` is
``(2, 1)``; ``(layer, row, col)`` in 3D. Printed grids show the top rank first,
like a chessboard diagram, and 3D boards as their layers one after another.

Examples:
    >>> board = Board.parse("8x8")
    >>> board.label, board.n_open
    ('8x8', 64)
    >>> board.parse_cell("b3")
    (2, 1)
    >>> board.cell_name((2, 1))
    'b3'
    >>> print(Board.parse("cross5"))
    . . . . .
    . . . . .
    . . # . .
    . . . . .
    . . . . .
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, SupportsIndex, get_args

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.ascii_boards import read_drawing
from cpknight.errors import InvalidBoardError, InvalidCellError
from cpknight.runtime.files import LINE_CHUNK, line_blocks

__all__ = [
    "MAX_CELLS",
    "AxisMap",
    "Board",
    "Cell",
    "CellLike",
    "Topology",
]

Cell = tuple[int, ...]
"""A cell: one int per axis, zero-based (``(row, col)`` in 2D)."""

CellLike = str | Sequence[int]
"""Anything :meth:`Board.parse_cell` reads: ``'b3'``, ``'2,1'`` or ``(2, 1)``."""

AxisMap = tuple[tuple[int, ...], tuple[bool, ...]]
"""A symmetry as ``(axes, flips)``: see :meth:`Board.symmetries`."""

Topology = Literal["bounded", "torus", "cylinder"]
TOPOLOGIES: tuple[str, ...] = get_args(Topology)

MAX_CELLS = 25_000_000
"""The largest board (in cells) cpknight builds: 5000x5000.

A knight's move graph on it takes about 2 GB; past that the machines cpknight
is made for run short of memory.
"""

FILES = "abcdefghijklmnopqrstuvwxyz"

_SIZE_RE = re.compile(
    r"^\s*([0-9]+)(?:\s*[x×*]\s*([0-9]+))+\s*$", re.IGNORECASE | re.ASCII
)
_ALGEBRAIC_RE = re.compile(r"^([a-z])(-?\d+)$", re.ASCII)
_COORDS_RE = re.compile(r"^[(\[]?\s*(-?\d+(?:\s*[, ]\s*-?\d+)*)\s*[)\]]?$", re.ASCII)


@dataclass(frozen=True, repr=False)
class Board:
    """A board: a box of cells, some blocked, each axis bounded or wrapped.

    Args:
        shape: the number of cells along each axis (rows, cols in 2D). An axis of
            length 0 is unbounded: the plane (see :meth:`plane`).
        blocked: the cells that cannot be entered.
        wrap: for each axis, whether leaving one side comes back on the other.
            ``None`` means no axis wraps.
        name: the board's name, for named boards and messages.

    Raises:
        InvalidBoardError: a non-positive or too large shape, or a blocked cell
            off the board.

    Examples:
        >>> Board((3, 4)).n_open
        12
        >>> Board((3, 4), topology="torus").wrap
        (True, True)
        >>> Board((0, 0)).unbounded
        True
    """

    shape: tuple[int, ...]
    blocked: frozenset[Cell] = frozenset()
    wrap: tuple[bool, ...] = ()
    name: str | None = None
    start_hint: Cell | None = field(default=None, compare=False)

    def __init__(
        self,
        shape: Sequence[int],
        blocked: Iterable[Sequence[int]] = (),
        *,
        wrap: Sequence[bool] | None = None,
        topology: Topology | None = None,
        name: str | None = None,
        start_hint: Sequence[int] | None = None,
    ) -> None:
        dims = _checked_shape(shape)
        unbounded = dims[0] == 0
        wraps = _checked_wrap(dims, wrap, topology)
        if unbounded and any(wraps):
            raise InvalidBoardError("the unbounded plane cannot wrap")
        cells = _checked_blocked(dims, blocked)
        hint = None if start_hint is None else tuple(int(x) for x in start_hint)
        object.__setattr__(self, "shape", dims)
        object.__setattr__(self, "blocked", cells)
        object.__setattr__(self, "wrap", wraps)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "start_hint", hint)

    # ------------------------------------------------------------------ parsing

    @classmethod
    def parse(
        cls, spec: str | Board | Sequence[int], *, topology: Topology | None = None
    ) -> Board:
        """Read a board from a size, a name, ``plane``, or an ASCII-art file.

        Args:
            spec: ``'8x8'``, ``'5x7'``, ``'4x4x4'`` (sides in ASCII digits,
                joined by ``x``, ``×`` or ``*``; or a shape such as ``(8, 8)``);
                a named board (see :data:`~cpknight.named_boards.NAMED_BOARDS`);
                ``'plane'`` or ``'plane3'`` (unbounded, for distances); or the
                path of a text file of ``.`` (open) and ``#`` (blocked), top
                rank first, 3D layers separated by a blank line.
                A :class:`Board` is returned with the topology applied.
            topology: ``'bounded'``, ``'torus'`` (every axis wraps) or
                ``'cylinder'`` (the last axis wraps); ``None`` keeps the topology
                of a given :class:`Board` and means bounded for a spec.

        Returns:
            The board.

        Raises:
            InvalidBoardError: the spec is none of the above, or the file cannot
                be read or is malformed.

        Examples:
            >>> Board.parse("5x7").shape
            (5, 7)
            >>> Board.parse("holed8").n_open
            48
            >>> Board.parse("4x4x4").dim
            3
            >>> Board.parse("8x8", topology="cylinder").topology
            'cylinder'
            >>> Board.parse((6, 6)) == Board.parse("6x6")
            True
            >>> Board.parse(8)
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidBoardError: expected a board, a spec like '8x8' \
or a shape like (8, 8): 8
            >>> Board.parse("x8")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidBoardError: expected a board like '8x8', '4x4x4', \
'plane', a file of '.' and '#', or a name in classic8, holed8, heart9, ring10, \
cross5, ring9, blocks12, frame9, cube4: 'x8'
        """
        if isinstance(spec, Board):
            return spec if topology is None else spec.with_topology(topology)
        if topology is None:
            topology = "bounded"
        if topology not in TOPOLOGIES:
            raise InvalidBoardError(
                f"expected a topology in {', '.join(TOPOLOGIES)}: {topology!r}"
            )
        if isinstance(spec, tuple | list):
            return cls(spec, topology=topology)  # a shape such as (6, 6)
        if not isinstance(spec, str):
            raise InvalidBoardError(
                f"expected a board, a spec like '8x8' or a shape like (8, 8): {spec!r}"
            )
        text = spec.strip()
        board = _parse_spec(text, topology) if text else None
        if board is not None:
            return board
        path = Path(text)
        if text and (
            path.suffix or "/" in text or "\\" in text or "\0" in text or path.exists()
        ):
            return cls.read(path, topology=topology)
        from cpknight.named_boards import NAMED_BOARDS  # read only when needed

        raise InvalidBoardError(
            "expected a board like '8x8', '4x4x4', 'plane', a file of '.' and '#', "
            f"or a name in {', '.join(NAMED_BOARDS)}: {spec!r}"
        )

    @classmethod
    def _from_spec(cls, spec: str, topology: Topology) -> Board | None:
        """A size, plane or named board from its spec; None for anything else."""
        text = spec.strip()
        key = text.lower()
        if key in ("plane", "plane2", "plane3") or re.fullmatch(r"plane\d+", key):
            dim = 2 if key in ("plane", "plane2") else int(key[5:])
            if dim < 1:
                raise InvalidBoardError(f"a plane needs at least one axis: {spec!r}")
            if topology != "bounded":
                raise InvalidBoardError(
                    f"the unbounded plane cannot be a {topology}: {spec!r}"
                )
            return cls((0,) * dim, name=key if key != "plane2" else "plane")
        match = _SIZE_RE.match(text)
        if match:
            dims = tuple(int(x) for x in re.split(r"\s*[x×*]\s*", text.lower()))
            if any(d < 1 for d in dims):
                raise InvalidBoardError(f"board sides must be at least 1: {spec!r}")
            return cls(dims, topology=topology)
        from cpknight.named_boards import NAMED_BOARDS  # read only for a name

        named = NAMED_BOARDS.get(key)
        if named is not None:
            return cls(
                named.shape,
                named.blocked,
                topology=topology,
                name=named.name,
                start_hint=named.start_hint,
            )
        return None

    @classmethod
    def read(cls, path: str | Path, *, topology: Topology = "bounded") -> Board:
        """Read a board drawn as ASCII art from a file (see :meth:`from_ascii`).

        Raises:
            InvalidBoardError: the file cannot be read or is malformed.

        Examples:
            >>> Board.read("no-such-board.txt")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidBoardError: cannot read board file \
'no-such-board.txt': No such file or directory
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:  # not text, or a name with a NUL in it
            reason = getattr(exc, "strerror", None) or type(exc).__name__
            if type(exc) is ValueError:
                reason = str(exc)
            raise InvalidBoardError(
                f"cannot read board file {str(path)!r}: {reason}"
            ) from None
        return cls.from_ascii(text, topology=topology, source=str(path))

    @classmethod
    def from_ascii(
        cls,
        text: str,
        *,
        topology: Topology = "bounded",
        name: str | None = None,
        source: str = "board",
    ) -> Board:
        """Build a board from ASCII art: ``.`` open, ``#`` blocked, top rank first.

        Cells may be separated by spaces. A 3D board is its layers (layer 0 first),
        separated by blank lines. Lines starting with ``;`` are comments. A board
        as cpknight prints one reads back too: each rank may be led by its number
        and ``|`` (``5 | . . # . .``), lines of file letters (``a b c d e``) and
        layer titles (``layer 0:``) are skipped, and a UTF-8 byte-order mark at
        the start is ignored.

        Args:
            text: the drawing.
            topology: as for :meth:`parse`.
            name: a name for the board.
            source: where the text came from, for error messages.

        Returns:
            The board.

        Raises:
            InvalidBoardError: an unknown character, ragged rows or layers, or
                nothing drawn.

        Examples:
            >>> b = Board.from_ascii('''
            ... # . .
            ... . . .
            ... ''')
            >>> b.shape, sorted(b.blocked)
            ((2, 3), [(1, 0)])
            >>> Board.from_ascii(str(b)) == b
            True
        """
        shape, blocked = read_drawing(text, source)
        return cls(shape, blocked, topology=topology, name=name)

    @classmethod
    def from_mask(cls, mask: npt.ArrayLike, topology: Topology | None = None) -> Board:
        """A board from a boolean array of any axes: ``True`` open, ``False`` blocked.

        The inverse of :attr:`open_mask` (:class:`InvalidBoardError` otherwise).

        Examples:
            >>> Board.from_mask(np.array([[True, True, False], [True, True, True]]))
            Board('2x3', blocked=1)
        """
        if (array := np.asarray(mask)).dtype != np.bool_ or array.ndim == 0:
            raise InvalidBoardError(f"expected booleans, True open: {array.dtype}")
        return cls(array.shape, np.argwhere(~array).tolist(), topology=topology)

    @classmethod
    def plane(cls, dim: int = 2) -> Board:
        """The unbounded board in ``dim`` dimensions, for distance questions.

        Examples:
            >>> Board.plane().label
            'plane'
        """
        return cls((0,) * dim, name="plane" if dim == 2 else f"plane{dim}")

    def with_topology(self, topology: Topology) -> Board:
        """This board with another topology (``bounded``, ``torus``, ``cylinder``).

        Examples:
            >>> Board.parse("6x6").with_topology("torus").label
            '6x6 torus'
        """
        if topology not in TOPOLOGIES:
            raise InvalidBoardError(
                f"expected a topology in {', '.join(TOPOLOGIES)}: {topology!r}"
            )
        if self.unbounded:
            if topology != "bounded":
                raise InvalidBoardError(
                    f"the unbounded plane cannot be a {topology}: {self.label!r}"
                )
            return self
        return Board(
            self.shape,
            self.blocked,
            topology=topology,
            name=self.name,
            start_hint=self.start_hint,
        )

    # --------------------------------------------------------------- properties

    @property
    def dim(self) -> int:
        """The number of axes."""
        return len(self.shape)

    @property
    def unbounded(self) -> bool:
        """Whether this is the unbounded plane (every axis infinite)."""
        return self.shape[0] == 0

    @property
    def topology(self) -> Topology:
        """``'bounded'``, ``'torus'`` or ``'cylinder'`` (some but not all axes wrap)."""
        if all(self.wrap) and self.dim > 1:
            return "torus"
        if any(self.wrap):
            return "cylinder" if self.dim > 1 else "torus"
        return "bounded"

    @property
    def size(self) -> int:
        """The number of cells, open or blocked."""
        self.require_finite("counting its cells")
        return math.prod(self.shape)

    @property
    def n_open(self) -> int:
        """The number of open cells."""
        return self.size - len(self.blocked)

    @cached_property
    def label(self) -> str:
        """A short name for messages: ``'8x8'``, ``'holed8'``, ``'6x6 torus'``."""
        base = self.name or _size(self.shape)
        if self.name is None and self.blocked:
            base += f" ({len(self.blocked)} blocked)"
        return base if self.topology == "bounded" else f"{base} {self.topology}"

    @property
    def size_label(self) -> str:
        """The shape as text: ``'8x8'``, ``'4x4x4'``."""
        return _size(self.shape)

    @cached_property
    def open_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean array of the board's shape, True on open cells."""
        self.require_finite("drawing its cells")
        mask = np.ones(self.shape, dtype=bool)
        if self.blocked:
            index = np.array(sorted(self.blocked), dtype=np.int64).T
            mask[tuple(index)] = False
        mask.setflags(write=False)
        return mask

    def require_finite(self, purpose: str) -> None:
        """Refuse the unbounded plane for a question that needs a finite board.

        Raises:
            InvalidBoardError: the board is the plane.

        Examples:
            >>> Board.plane().require_finite("a tour")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidBoardError: board 'plane' is unbounded; \
a tour needs a finite board
        """
        if self.unbounded:
            raise InvalidBoardError(
                f"board '{self.label}' is unbounded; {purpose} needs a finite board"
            )

    def symmetries(self) -> list[AxisMap]:
        """The board's symmetries but the identity, as maps ``(axes, flips)``.

        A map sends cell ``c`` to the cell whose axis ``a`` reads ``c[axes[a]]``,
        reversed where ``flips[a]``; it swaps only axes of one length and wrap,
        and keeps the open cells (a torus's translations are left out).

        Examples:
            >>> Board.parse("3x4").symmetries()  # mirror the files, the ranks, both
            [((0, 1), (False, True)), ((0, 1), (True, False)), ((0, 1), (True, True))]
            >>> [len(Board.parse(b).symmetries()) for b in ("8x8", "3x4", "3x3x3")]
            [7, 3, 47]
        """
        mask, identity = self.open_mask, tuple(range(self.dim))
        found: list[AxisMap] = []
        for axes in itertools.permutations(identity):
            kept = [(self.shape[b], self.wrap[b]) for b in axes]
            if kept != list(zip(self.shape, self.wrap, strict=True)):
                continue
            for flips in itertools.product((False, True), repeat=self.dim):
                steps = tuple(slice(None, None, -1 if f else 1) for f in flips)
                turned = mask.transpose(axes)[steps]
                if (axes != identity or any(flips)) and (turned == mask).all():
                    found.append((axes, flips))
        return found

    # -------------------------------------------------------------------- cells

    def contains(self, cell: Sequence[int]) -> bool:
        """Whether ``cell`` lies on the board (open or blocked).

        Examples:
            >>> b = Board.parse("cross5")
            >>> b.contains((2, 2)), b.contains((5, 0)), b.contains((0, 0, 0))
            (True, False, False)
        """
        if len(cell) != self.dim:
            return False
        if self.unbounded:
            return True
        return all(0 <= x < s for x, s in zip(cell, self.shape, strict=True))

    def is_open(self, cell: Sequence[int]) -> bool:
        """Whether ``cell`` lies on the board and is not blocked.

        Examples:
            >>> b = Board.parse("cross5")
            >>> b.is_open((2, 2)), b.is_open((0, 0)), b.is_open((5, 0))
            (False, True, False)
        """
        return self.contains(cell) and tuple(cell) not in self.blocked

    def open_cells(self) -> Iterator[Cell]:
        """The open cells in row-major order (the order of move-graph nodes).

        Examples:
            >>> list(Board((2, 2), [(0, 1)]).open_cells())
            [(0, 0), (1, 0), (1, 1)]
        """
        flat = np.flatnonzero(self.open_mask.ravel())
        coords = np.stack(np.unravel_index(flat, self.shape), axis=1)
        for row in coords.tolist():
            yield tuple(row)

    def parse_cell(self, spec: CellLike, *, allow_blocked: bool = False) -> Cell:
        """Read a cell name or coordinates and check it is an open cell.

        Args:
            spec: algebraic ``'b3'`` (2D), coordinates ``'2,1'`` or ``'(2, 1)'``
                (any board), or a sequence of ints.
            allow_blocked: accept a blocked cell (for drawing).

        Returns:
            The cell as a tuple of ints.

        Raises:
            InvalidCellError: unparseable, the wrong number of coordinates, off
                the board, or blocked.

        Examples:
            >>> b = Board.parse("8x8")
            >>> b.parse_cell("h8"), b.parse_cell("7,0"), b.parse_cell((0, 1))
            ((7, 7), (7, 0), (0, 1))
            >>> b.parse_cell("i9")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidCellError: cell 'i9' is not on board 8x8
            >>> Board.parse("holed8").parse_cell("c3")
            Traceback (most recent call last):
            ...
            cpknight.errors.InvalidCellError: cell 'c3' is blocked on board holed8
        """
        if type(spec) is tuple and len(spec) == 2 == len(self.shape):
            # The common case first: a cell already read, on a 2D board.
            r, c = spec
            rows, cols = self.shape
            if (
                type(r) is int
                and type(c) is int
                and (rows == 0 or (0 <= r < rows and 0 <= c < cols))
                and (allow_blocked or not self.blocked or spec not in self.blocked)
            ):
                return (r, c)
        if isinstance(spec, str):  # a name read once per board (boards are frozen)
            return _parse_named_cell(self, spec, allow_blocked)
        return self._check_cell(spec, allow_blocked)

    def _check_cell(self, spec: CellLike, allow_blocked: bool) -> Cell:
        """:meth:`parse_cell` without its fast paths."""
        cell, shown = self.read_cell(spec)
        if len(cell) != self.dim:
            raise InvalidCellError(
                f"cell '{shown}' has {len(cell)} coordinate"
                f"{'s' if len(cell) != 1 else ''}; board {self.label} has {self.dim}"
            )
        if not self.contains(cell):
            raise InvalidCellError(f"cell '{shown}' is not on board {self.label}")
        if not allow_blocked and cell in self.blocked:
            raise InvalidCellError(f"cell '{shown}' is blocked on board {self.label}")
        return cell

    def read_cell(self, spec: CellLike) -> tuple[Cell, str]:
        """Read a cell's spelling, not checked against the board: the cell, as shown.

        Examples:
            >>> Board.parse("8x8").read_cell("z9")
            ((8, 25), 'z9')
        """
        if isinstance(spec, str):
            text = spec.strip().lower()
            match = _ALGEBRAIC_RE.match(text)
            if match:
                if self.dim != 2:
                    raise InvalidCellError(
                        f"cell '{spec}' is algebraic, which names cells on 2D boards "
                        f"only; board {self.label} has {self.dim} axes: give "
                        "coordinates like '0,0,0'"
                    )
                col = FILES.index(match.group(1))
                return (int(match.group(2)) - 1, col), spec.strip()
            match = _COORDS_RE.match(text)
            if match:
                parts = re.split(r"\s*[, ]\s*", match.group(1).strip())
                return tuple(int(p) for p in parts), spec.strip()
            if self.dim == 2 and re.fullmatch(r"[a-z]{2,}-?\d+", text):
                raise InvalidCellError(
                    f"letters name only the first {len(FILES)} files (a to z); "
                    f"name cells past them by zero-based coordinates 'row,col' "
                    f"like '0,{len(FILES)}': {spec!r}"
                )
            raise InvalidCellError(
                f"expected a cell like 'a1' or '0,0': {spec!r}"
                if self.dim == 2
                else f"expected a cell like '0,0,0': {spec!r}"
            )
        try:
            cell = tuple(_as_int(x) for x in spec)
        except (TypeError, ValueError):
            raise InvalidCellError(
                f"expected a cell as a tuple of ints: {spec!r}"
            ) from None
        return cell, ",".join(str(x) for x in cell)

    def cell_name(self, cell: Sequence[int]) -> str:
        """The name of a cell: algebraic on 2D boards of up to 26 files, else ``r,c``.

        Examples:
            >>> Board.parse("8x8").cell_name((0, 0))
            'a1'
            >>> Board.parse("4x4x4").cell_name((0, 1, 2))
            '0,1,2'
            >>> Board.parse("30x30").cell_name((0, 27))
            '0,27'
        """
        cell = tuple(int(x) for x in cell)
        if (
            self.dim == 2
            and not self.unbounded
            and self.shape[1] <= len(FILES)
            and 0 <= cell[1] < len(FILES)
        ):
            return f"{FILES[cell[1]]}{cell[0] + 1}"
        return _coords(cell)

    def cell_names(self, cells: npt.ArrayLike) -> list[str]:
        r"""The names of many cells at once, as :meth:`cell_name` names each row.

        Vectorised: the names are assembled as bytes in numpy (a million cells in
        about 0.1 s). Each name is laid out in a fixed-width row (digits looked
        up in a table of the numbers up to the largest coordinate, padded with
        zero bytes), and the padding is then squeezed out.

        Args:
            cells: an ``(n, d)`` int array (or a sequence of cells).

        Returns:
            One name per row.

        Examples:
            >>> Board.parse("8x8").cell_names([(0, 0), (2, 1)])
            ['a1', 'b3']
            >>> Board.parse("30x30").cell_names([(0, 27), (12, 3)])
            ['0,27', '12,3']
            >>> Board.plane().cell_names([(-1, 2)])
            ['-1,2']
        """
        array = np.asarray(cells, dtype=np.int64).reshape(-1, self.dim)
        if len(array) < 32:
            return [self.cell_name(c) for c in array.tolist()]
        return self.cell_lines(array).decode("ascii").split("\n")[:-1]

    def cell_lines(self, cells: npt.ArrayLike) -> bytes:
        r"""The names of many cells, one a line, as the bytes of a tour file.

        What :meth:`cell_names` joins with newlines, without making a Python
        string per cell: a million cells in a few hundredths of a second
        (:meth:`cell_line_blocks`, joined).

        Examples:
            >>> Board.parse("8x8").cell_lines([(0, 0), (2, 1)])
            b'a1\nb3\n'
        """
        return b"".join(self.cell_line_blocks(cells))

    def cell_line_blocks(
        self, cells: npt.ArrayLike, chunk: int = LINE_CHUNK
    ) -> Iterator[bytes]:
        r""":meth:`cell_lines` in pieces of ``chunk`` cells, for writing as made.

        Assembled in numpy (:func:`~cpknight.runtime.files.line_blocks`); a
        block of ``chunk`` cells stays in the processor's cache.

        Examples:
            >>> list(Board.parse("30x30").cell_line_blocks([(0, 27), (12, 3)], 1))
            [b'0,27\n', b'12,3\n']
        """
        array = np.asarray(cells, dtype=np.int64).reshape(-1, self.dim)
        algebraic = self.dim == 2 and not self.unbounded and self.shape[1] <= len(FILES)
        yield from line_blocks(
            array, FILES if algebraic else None, self.cell_name, chunk
        )

    def index(self, cell: Sequence[int]) -> int:
        """The row-major position of ``cell`` among all cells (open or blocked).

        Examples:
            >>> Board.parse("8x8").index((1, 2))
            10
        """
        return int(np.ravel_multi_index(tuple(int(x) for x in cell), self.shape))

    # ----------------------------------------------------------------- drawing

    def to_ascii(self) -> str:
        """The board as ASCII art, ``.`` open and ``#`` blocked, top rank first.

        3D boards are their 2D layers, one after another, separated by a blank
        line: what :meth:`from_ascii` reads back.

        Examples:
            >>> print(Board((2, 3), [(1, 2)]).to_ascii())
            . . #
            . . .
            >>> Board.from_ascii(Board.parse("2x2x3").to_ascii()).shape
            (2, 2, 3)
        """
        mask = self.open_mask
        layers = (
            mask.reshape(1, 1, -1)
            if self.dim == 1
            else mask.reshape(-1, *self.shape[-2:])
        )
        return "\n\n".join(
            "\n".join(
                " ".join("." if v else "#" for v in row) for row in layer[::-1].tolist()
            )
            for layer in layers
        )

    def __str__(self) -> str:
        from cpknight.text.display import board_str

        return board_str(self)

    def _repr_svg_(self) -> str | None:
        """The board as an SVG picture, for notebooks (None for the plane)."""
        if self.unbounded:
            return None
        from cpknight.draw import board_svg

        return board_svg(self)

    def __repr__(self) -> str:
        parts = [repr(self.size_label if not self.unbounded else self.label)]
        if self.blocked:
            parts.append(f"blocked={len(self.blocked)}")
        if self.topology != "bounded":
            parts.append(f"topology={self.topology!r}")
        if self.name:
            parts.append(f"name={self.name!r}")
        return f"Board({', '.join(parts)})"


def _int_tuple(values: object, what: str) -> tuple[int, ...]:
    """A tuple of ints, or an error: floats and bools are not truncated.

    Examples:
        >>> _int_tuple((8.5, 8), "board sides")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidBoardError: board sides must be ints: (8.5, 8)
    """
    try:
        return tuple(_as_int(x) for x in values)  # type: ignore[attr-defined]
    except TypeError:
        raise InvalidBoardError(f"{what} must be ints: {values!r}") from None


@lru_cache(maxsize=4096)
def _parse_named_cell(board: Board, spec: str, allow_blocked: bool) -> Cell:
    """:meth:`Board.parse_cell` of a name such as ``'b3'``, cached."""
    return board._check_cell(spec, allow_blocked)


@lru_cache(maxsize=128)
def _parse_spec(spec: str, topology: Topology) -> Board | None:
    """:meth:`Board.parse` of a size, plane or name, cached (boards are frozen)."""
    return Board._from_spec(spec, topology)


def _as_int(x: object) -> int:
    # type() first: isinstance against the SupportsIndex protocol is slow.
    if type(x) is int:
        return x
    if isinstance(x, bool) or not isinstance(x, SupportsIndex):
        raise TypeError(x)
    return operator.index(x)


def _checked_shape(shape: Sequence[int]) -> tuple[int, ...]:
    """A board's sides: all positive and at most :data:`MAX_CELLS` cells, or all 0."""
    dims = _int_tuple(shape, "board sides")
    if not dims:
        raise InvalidBoardError("a board needs at least one axis")
    if any(s < 0 for s in dims):
        raise InvalidBoardError(f"board sides must be positive: {_size(dims)}")
    unbounded = any(s == 0 for s in dims)
    if unbounded and not all(s == 0 for s in dims):
        raise InvalidBoardError(
            f"a board is either bounded on every axis or the plane: {_size(dims)}"
        )
    if not unbounded and math.prod(dims) > MAX_CELLS:
        raise InvalidBoardError(
            f"board {_size(dims)} has {math.prod(dims)} cells; "
            f"cpknight builds boards of at most {MAX_CELLS} cells"
        )
    return dims


def _checked_wrap(
    dims: tuple[int, ...], wrap: Sequence[bool] | None, topology: Topology | None
) -> tuple[bool, ...]:
    """Which axes wrap, from ``wrap`` or ``topology`` (neither: none)."""
    if topology is not None and wrap is not None:
        raise InvalidBoardError("give either wrap or topology, not both")
    if topology is not None:
        return _wrap_for(topology, len(dims))
    if wrap is None:
        return (False,) * len(dims)
    wraps = tuple(bool(w) for w in wrap)
    if len(wraps) != len(dims):
        raise InvalidBoardError(
            f"wrap has {len(wraps)} axes; board {_size(dims)} has {len(dims)}"
        )
    return wraps


def _checked_blocked(
    dims: tuple[int, ...], blocked: Iterable[Sequence[int]]
) -> frozenset[Cell]:
    """The blocked cells, each on the board (the plane has none)."""
    cells = frozenset(_int_tuple(c, "blocked cell coordinates") for c in blocked)
    if cells and dims[0] == 0:
        raise InvalidBoardError("the unbounded plane has no blocked cells")
    for cell in cells:
        if len(cell) != len(dims) or not all(
            0 <= x < s for x, s in zip(cell, dims, strict=True)
        ):
            raise InvalidBoardError(
                f"blocked cell {_coords(cell)} is not on board {_size(dims)}"
            )
    return cells


def _size(shape: Sequence[int]) -> str:
    return "x".join(str(s) for s in shape)


def _coords(cell: Sequence[int]) -> str:
    return ",".join(str(x) for x in cell)


def _wrap_for(topology: str, dim: int) -> tuple[bool, ...]:
    if topology == "bounded":
        return (False,) * dim
    if topology == "torus":
        return (True,) * dim
    if topology == "cylinder":
        return (False,) * (dim - 1) + (True,)
    raise InvalidBoardError(
        f"expected a topology in {', '.join(TOPOLOGIES)}: {topology!r}"
    )
