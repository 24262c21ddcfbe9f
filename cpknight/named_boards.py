"""The built-in boards by name: ``Board.parse("holed8")`` and ``cpknight boards``.

Examples:
    >>> NAMED_BOARDS["holed8"].build().n_open
    48
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from cpknight.board import Board, Cell

__all__ = ["NAMED_BOARDS", "NamedBoard"]


@dataclass(frozen=True)
class NamedBoard:
    """A built-in board: its name, a one-line description and how to build it."""

    name: str
    description: str
    builder: Callable[[], Board]

    def build(self) -> Board:
        """Build the board."""
        return self.builder()


def _carve(
    shape: tuple[int, int],
    removed: Iterable[tuple[slice, slice]],
    reopened: Iterable[tuple[slice, slice]] = (),
    extra: Iterable[Cell] = (),
) -> set[Cell]:
    mask = np.zeros(shape, dtype=bool)
    for rows, cols in removed:
        mask[rows, cols] = True
    for rows, cols in reopened:
        mask[rows, cols] = False
    for cell in extra:
        mask[cell] = True
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)}


def _heart9() -> Board:
    rows = {
        8: (0, 1, 3, 4, 5, 7, 8),
        7: (0, 4, 8),
        3: (0, 8),
        2: (0, 1, 7, 8),
        1: (0, 1, 2, 6, 7, 8),
        0: (0, 1, 2, 3, 5, 6, 7, 8),
    }
    blocked = [(y, x) for y, xs in rows.items() for x in xs]
    return Board((9, 9), blocked, name="heart9", start_hint=(0, 4))


def _named(
    name: str, shape: tuple[int, int], *removed: tuple[slice, slice]
) -> Callable[[], Board]:
    return lambda: Board(shape, _carve(shape, removed), name=name)


NAMED_BOARDS: dict[str, NamedBoard] = {
    board.name: board
    for board in (
        NamedBoard(
            "classic8", "the 8x8 chessboard", lambda: Board((8, 8), name="classic8")
        ),
        NamedBoard(
            "holed8",
            "8x8 with the central 4x4 removed",
            _named("holed8", (8, 8), (slice(2, 6), slice(2, 6))),
        ),
        NamedBoard("heart9", "a 9x9 heart; the knight starts at its tip e1", _heart9),
        NamedBoard(
            "ring10",
            "10x10 with the central 4x4 removed",
            _named("ring10", (10, 10), (slice(3, 7), slice(3, 7))),
        ),
        NamedBoard(
            "cross5",
            "5x5 with the centre removed",
            _named("cross5", (5, 5), (slice(2, 3), slice(2, 3))),
        ),
        NamedBoard(
            "ring9",
            "9x9 with a 5x5 ring removed around an open 3x3 missing its centre",
            lambda: Board(
                (9, 9),
                _carve(
                    (9, 9),
                    [(slice(2, 7), slice(2, 7))],
                    [(slice(3, 6), slice(3, 6))],
                    [(4, 4)],
                ),
                name="ring9",
            ),
        ),
        NamedBoard(
            "blocks12",
            "12x12 with five 2x2 blocks removed",
            _named(
                "blocks12",
                (12, 12),
                (slice(3, 5), slice(3, 5)),
                (slice(5, 7), slice(5, 7)),
                (slice(7, 9), slice(7, 9)),
                (slice(10, 12), slice(0, 2)),
                (slice(0, 2), slice(10, 12)),
            ),
        ),
        NamedBoard(
            "frame9",
            "9x9 with a 4x4 frame removed around an open 2x2",
            lambda: Board(
                (9, 9),
                _carve(
                    (9, 9),
                    [(slice(2, 6), slice(2, 6))],
                    [(slice(3, 5), slice(3, 5))],
                ),
                name="frame9",
            ),
        ),
        NamedBoard(
            "cube4",
            "the 4x4x4 cube (try the (1,2,3) leaper)",
            lambda: Board((4, 4, 4), name="cube4"),
        ),
    )
}
"""The built-in boards by name (coordinates (row, col), zero-based)."""
