"""Drawing options, in the python-chess spirit: one frozen value every picture reads.

The public drawing functions take these as keyword arguments
(``flipped=True``, ``theme="print"``, ``highlight=["e4"]``,
``arrows=[("a1", "b3")]``, ``coordinates=False``, ``crop="a1:h8"``), typed and
described once here (:class:`DrawArgs`; the animations take
:class:`ViewArgs`), and turn them into one :class:`DrawOptions` with
:func:`draw_options`, which checks every cell against the board.

Examples:
    >>> from cpknight.board import Board
    >>> o = draw_options(Board.parse("8x8"), crop="a1:c3", arrows=[("a1", "b3")])
    >>> o.crop, o.arrows
    (((0, 0), (2, 2)), (((0, 0), (2, 1)),))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias, TypedDict

from cpknight.board import Board, Cell
from cpknight.draw.palette import Theme, theme_of
from cpknight.errors import InvalidInputError

__all__ = [
    "CellSpec",
    "DrawArgs",
    "DrawOptions",
    "ViewArgs",
    "draw_options",
    "parse_crop",
]

CellSpec: TypeAlias = str | Sequence[int]
"""A cell as the board's ``parse_cell`` takes it: ``'e4'``, ``'3,4'`` or ``(3, 4)``."""

Window: TypeAlias = tuple[Cell, Cell]


class ViewArgs(TypedDict, total=False):
    """How a board is shown, as keyword arguments (every picture takes them).

    A drawing function takes them as ``**drawing`` (``Unpack[ViewArgs]``);
    what is not given takes :func:`draw_options`' default.

    Attributes:
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).
        flipped: rank 1 at the top, the files right to left (python-chess's
            ``flipped``; on 3D boards, each layer).
        theme: the colours: a name in :data:`~cpknight.draw.palette.THEMES`
            or a :class:`~cpknight.draw.palette.Theme` (default: classic).
    """

    cell_size: float | None
    flipped: bool
    theme: str | Theme | None


class DrawArgs(ViewArgs, total=False):
    """The drawing options of a board picture, as keyword arguments.

    :class:`ViewArgs` and the marks drawn over the board; a board picture
    (:func:`~cpknight.draw.tour_svg` and the others) takes them as
    ``**drawing`` (``Unpack[DrawArgs]``).

    Attributes:
        coordinates: label the files and ranks (2D boards; default: yes).
        highlight: cells to fill with the theme's highlight colour.
        arrows: (from, to) cell pairs drawn as arrows.
        crop: draw only this window: ``'a1:h8'`` or two corner cells
            (default: the whole board).
    """

    coordinates: bool
    highlight: Iterable[CellSpec]
    arrows: Iterable[tuple[CellSpec, CellSpec]]
    crop: str | Window | None


@dataclass(frozen=True)
class DrawOptions:
    """How to draw a board, whatever is drawn on it.

    Attributes:
        cell_size: pixels per cell (``None``: fit about 800 pixels).
        numbers: draw the numbers in cells (``None``: when they are readable).
        flipped: rank 1 at the top and the files right to left (python-chess's
            ``flipped``; on 3D boards, each layer).
        theme: the colours.
        coordinates: the file letters and rank numbers (2D boards).
        highlight: cells to fill with the theme's highlight colour.
        arrows: moves to draw as arrows (from, to).
        crop: the two corners (lowest row and column, highest) of the window
            to draw (2D boards), or ``None`` for the whole board.
    """

    cell_size: float | None = None
    numbers: bool | None = None
    flipped: bool = False
    theme: Theme = field(default_factory=lambda: theme_of(None))
    coordinates: bool = True
    highlight: tuple[Cell, ...] = ()
    arrows: tuple[tuple[Cell, Cell], ...] = ()
    crop: Window | None = None


def draw_options(
    board: Board,
    *,
    cell_size: float | None = None,
    numbers: bool | None = None,
    flipped: bool = False,
    theme: str | Theme | None = None,
    coordinates: bool = True,
    highlight: Iterable[CellSpec] = (),
    arrows: Iterable[tuple[CellSpec, CellSpec]] = (),
    crop: str | Window | None = None,
) -> DrawOptions:
    """The options checked against ``board``: cells parsed, the theme found.

    The keyword arguments are :class:`DrawArgs` (described there) and
    ``numbers``: draw the numbers in cells (``None``: when they are readable).

    Raises:
        InvalidInputError: a cell size of 0 or less, an unknown theme, a crop
            on a board that is not 2D or whose corners are out of order.
        InvalidCellError: a cell not on the board.

    Examples:
        >>> o = draw_options(Board.parse("5x5"), highlight=["c3"], theme="print")
        >>> o.highlight, o.theme.name
        (((2, 2),), 'print')
    """
    if cell_size is not None and not cell_size > 0:
        raise InvalidInputError(f"expected a cell size above 0 pixels: {cell_size}")
    window = parse_crop(board, crop) if isinstance(crop, str) else crop
    if window is not None and not isinstance(crop, str):
        window = _checked_window(board, window)
    return DrawOptions(
        cell_size=cell_size,
        numbers=numbers,
        flipped=bool(flipped),
        theme=theme_of(theme),
        coordinates=bool(coordinates),
        highlight=tuple(
            board.parse_cell(c, allow_blocked=True) for c in _cells(highlight)
        ),
        arrows=tuple(
            (
                board.parse_cell(a, allow_blocked=True),
                board.parse_cell(b, allow_blocked=True),
            )
            for a, b in arrows
        ),
        crop=window,
    )


def parse_crop(board: Board, text: str) -> Window:
    """A window ``'a1:h8'`` (two corner cells; either order) as its two corners.

    Raises:
        InvalidInputError: not two cells joined by ``:``, or a board not 2D.

    Examples:
        >>> parse_crop(Board.parse("10x10"), "h8:b2")
        ((1, 1), (7, 7))
        >>> parse_crop(Board.parse("10x10"), "b2")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a crop like 'a1:h8' (two \
corner cells): 'b2'
    """
    parts = text.split(":")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise InvalidInputError(
            f"expected a crop like 'a1:h8' (two corner cells): {text!r}"
        )
    if board.dim != 2:
        raise InvalidInputError(f"a crop needs a 2D board, not {board.label}: {text!r}")
    a, b = (board.parse_cell(p.strip(), allow_blocked=True) for p in parts)
    return _checked_window(board, (a, b))


def _checked_window(board: Board, window: Window) -> Window:
    """Corners sorted into (low, high), each on the 2D ``board``."""
    if board.dim != 2:
        raise InvalidInputError(f"a crop needs a 2D board, not {board.label}")
    a, b = (board.parse_cell(c, allow_blocked=True) for c in window)
    low = (min(a[0], b[0]), min(a[1], b[1]))
    high = (max(a[0], b[0]), max(a[1], b[1]))
    return low, high


def _cells(cells: Iterable[CellSpec] | str) -> list[CellSpec]:
    """Cells from a list, or from one string of names (``'e4 d5'``)."""
    if isinstance(cells, str):
        return list(cells.split())
    return list(cells)
