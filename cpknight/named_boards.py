"""The built-in boards by name, as plain data: ``Board.parse("holed8")`` builds one.

This module imports nothing of cpknight: :mod:`cpknight.board` reads it.

Examples:
    >>> NAMED_BOARDS["holed8"].n_open
    48
    >>> NAMED_BOARDS["heart9"].start_hint
    (0, 4)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["NAMED_BOARDS", "NamedBoard"]

Span = tuple[range, range]
"""Rows and columns of a rectangle of cells."""


@dataclass(frozen=True)
class NamedBoard:
    """A built-in board: its name, a one-line description, shape and blocked cells.

    ``Board.parse(name)`` builds it.

    Examples:
        >>> NAMED_BOARDS["cross5"].blocked
        frozenset({(2, 2)})
    """

    name: str
    description: str
    shape: tuple[int, ...]
    blocked: frozenset[tuple[int, ...]] = frozenset()
    start_hint: tuple[int, ...] | None = None

    @property
    def n_open(self) -> int:
        """The number of open cells."""
        return math.prod(self.shape) - len(self.blocked)


def _cells(spans: Iterable[Span]) -> set[tuple[int, ...]]:
    return {(r, c) for rows, cols in spans for r in rows for c in cols}


def _carve(
    removed: Iterable[Span],
    reopened: Iterable[Span] = (),
    extra: Iterable[tuple[int, int]] = (),
) -> frozenset[tuple[int, ...]]:
    """The cells of ``removed`` but not ``reopened``, and the ``extra`` ones."""
    return frozenset((_cells(removed) - _cells(reopened)) | set(extra))


def _square(lo: int, hi: int) -> Span:
    return range(lo, hi), range(lo, hi)


_HEART9_ROWS = {
    8: (0, 1, 3, 4, 5, 7, 8),
    7: (0, 4, 8),
    3: (0, 8),
    2: (0, 1, 7, 8),
    1: (0, 1, 2, 6, 7, 8),
    0: (0, 1, 2, 3, 5, 6, 7, 8),
}

NAMED_BOARDS: dict[str, NamedBoard] = {
    board.name: board
    for board in (
        NamedBoard("classic8", "the 8x8 chessboard", (8, 8)),
        NamedBoard(
            "holed8",
            "8x8 with the central 4x4 removed",
            (8, 8),
            _carve([_square(2, 6)]),
        ),
        NamedBoard(
            "heart9",
            "a 9x9 heart; the knight starts at its tip e1",
            (9, 9),
            frozenset((y, x) for y, xs in _HEART9_ROWS.items() for x in xs),
            start_hint=(0, 4),
        ),
        NamedBoard(
            "ring10",
            "10x10 with the central 4x4 removed",
            (10, 10),
            _carve([_square(3, 7)]),
        ),
        NamedBoard(
            "cross5", "5x5 with the centre removed", (5, 5), _carve([_square(2, 3)])
        ),
        NamedBoard(
            "ring9",
            "9x9 with a 5x5 ring removed around an open 3x3 missing its centre",
            (9, 9),
            _carve([_square(2, 7)], [_square(3, 6)], [(4, 4)]),
        ),
        NamedBoard(
            "blocks12",
            "12x12 with five 2x2 blocks removed",
            (12, 12),
            _carve(
                [
                    _square(3, 5),
                    _square(5, 7),
                    _square(7, 9),
                    (range(10, 12), range(0, 2)),
                    (range(0, 2), range(10, 12)),
                ]
            ),
        ),
        NamedBoard(
            "frame9",
            "9x9 with a 4x4 frame removed around an open 2x2",
            (9, 9),
            _carve([_square(2, 6)], [_square(3, 5)]),
        ),
        NamedBoard("cube4", "the 4x4x4 cube (try the (1,2,3) leaper)", (4, 4, 4)),
    )
}
"""The built-in boards by name (coordinates (row, col), zero-based)."""
