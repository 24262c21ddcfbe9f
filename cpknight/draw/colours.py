"""Colours: scales built on the palette, and text contrast (WCAG 2 ratios).

The colours themselves live in :mod:`cpknight.draw.palette`.

Examples:
    >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1)
    21.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import Board
from cpknight.draw.palette import (
    BLOCKED as BLOCKED,
)
from cpknight.draw.palette import (
    HEAT,
    PROVED,
    RGB,
    THEMES,
    Theme,
    theme_of,
)
from cpknight.draw.palette import (
    UNKNOWN as UNKNOWN,
)

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["contrast_ratio"]

LIGHT: RGB = THEMES["classic"].light
"""The classic theme's light squares."""
DARK: RGB = THEMES["classic"].dark
"""The classic theme's dark squares."""
INFEASIBLE: RGB = PROVED
"""A sweep's start cells proved to start no tour."""
PATH: str = THEMES["classic"].path
"""The classic theme's moves (pictures without a theme of their own)."""
START: str = THEMES["classic"].start
"""The classic theme's first-cell ring."""
END: str = THEMES["classic"].end
"""The classic theme's last-cell ring."""
FOOD: str = THEMES["classic"].food
"""The classic theme's food outline."""
SOURCE: str = THEMES["classic"].source
"""The classic theme's distance-map source."""


def contrast_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    """The WCAG 2 contrast ratio of two sRGB colours (1 to 21).

    Examples:
        >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1)
        21.0
        >>> contrast_ratio((10, 20, 30), (10, 20, 30))
        1.0
    """
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def chess_colours(
    board: Board, theme: Theme | str | None = None
) -> npt.NDArray[np.uint8]:
    """Each cell's colour: dark and light squares (a1 dark), blocked cells."""
    look = theme_of(theme)
    parity = np.indices(board.shape).sum(axis=0) % 2
    colours = np.where(parity[..., None] == 0, look.dark, look.light).astype(np.uint8)
    colours[~board.open_mask] = look.blocked
    return colours


# ------------------------------------------------------------------ colours


def _luminance(rgb: Sequence[int]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(v)) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_colour(rgb: Sequence[int]) -> str:
    """Black or white, whichever contrasts more with ``rgb``."""
    black = contrast_ratio(rgb, (0, 0, 0))
    white = contrast_ratio(rgb, (255, 255, 255))
    return "#000000" if black >= white else "#ffffff"


def mix(a: RGB, b: RGB, t: float) -> RGB:
    t = min(1.0, max(0.0, t))
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def heat_palette(top: int) -> npt.NDArray[np.uint8]:
    """``top + 1`` colours from light (0 moves) to dark (``top`` moves)."""
    out = np.empty((top + 1, 3), dtype=np.uint8)
    stops = len(HEAT) - 1
    for v in range(top + 1):
        where = stops * v / top if top else 0.0
        i = min(int(where), stops - 1)
        out[v] = mix(HEAT[i], HEAT[i + 1], where - i)
    return out


def as_rgb(values: npt.NDArray[np.uint8]) -> RGB:
    r, g, b = (int(v) for v in values)
    return (r, g, b)


def hex_colour(rgb: Sequence[int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(int(v) for v in rgb))
