"""Pictures as PNG, for slide tools that dislike SVG: resvg, an optional extra.

``pip install 'cpknight[png]'`` installs `resvg-py <https://pypi.org/project/resvg-py/>`_,
the Python binding of `resvg <https://github.com/linebender/resvg>`_ (an SVG
renderer in Rust): one self-contained wheel of about 3 MB for Linux, macOS and
Windows, with no system library to find (CairoSVG, the renderer before it,
needs the cairo library, which no wheel brings). Text is drawn with the
system's fonts, the first of the pictures' families found (DejaVu Sans,
Verdana, Arial, Helvetica). ``benchmarks/png.py`` compares the two.

A PNG is the picture's own size times a scale: by default 1, or more for a
board whose cells are under :data:`CELL_PX` pixels, so that they reach it (at
most :data:`AUTO_SCALE_CAP` times, and :data:`AUTO_SIDE_CAP` pixels a side).
Without the extra, :func:`require_png` says what to install in one line.

Examples:
    >>> auto_scale('<svg width="411" height="469"><rect class="cell" x="0" '
    ...            'y="0" width="48" height="48"/></svg>')
    1.0
    >>> auto_scale('<svg width="822" height="877"><rect class="cell" x="0" '
    ...            'y="0" width="26.67" height="26.67"/></svg>')
    1.5
"""

from __future__ import annotations

import importlib
import math
import re
from typing import Any

from cpknight.errors import InvalidInputError

__all__ = [
    "AUTO_SCALE_CAP",
    "AUTO_SIDE_CAP",
    "CELL_PX",
    "MAX_PNG_SIDE",
    "auto_scale",
    "check_scale",
    "picture_size",
    "png_size",
    "require_png",
    "svg_to_png",
]

PNG_MISSING = (
    "PNG pictures need the 'png' extra: pip install 'cpknight[png]' (resvg-py)"
)

CELL_PX = 40.0
"""The side (PNG pixels) a cell gets by default: small cells are scaled up to it."""

AUTO_SCALE_CAP = 4.0
"""The largest scale chosen by default (a 100x100 board's 8-pixel cells: 4x)."""

AUTO_SIDE_CAP = 8192
"""The longest side (pixels) a scale chosen by default may give."""

MAX_PNG_SIDE = 16384
"""The longest side (pixels) of any PNG: a larger one is refused before drawing."""

_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')
_CELL = re.compile(r'<rect class="cell"[^>]*?\swidth="([0-9.]+)"')


def _resvg() -> Any:
    """The ``resvg_py`` module, or a one-line error saying what to install."""
    try:
        return importlib.import_module("resvg_py")
    except ImportError:
        raise InvalidInputError(PNG_MISSING) from None


def require_png() -> None:
    """Check, before any work, that PNG pictures can be written.

    Raises:
        InvalidInputError: resvg-py (the ``png`` extra) is missing.
    """
    _resvg()


def check_scale(scale: object) -> float:
    """A PNG scale: a finite number above 0, as a float.

    Raises:
        InvalidInputError: anything else.

    Examples:
        >>> check_scale(2)
        2.0
        >>> check_scale(0)
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a scale above 0 (PNG pixels \
per SVG pixel): 0
    """
    if (
        isinstance(scale, bool)
        or not isinstance(scale, int | float)
        or not math.isfinite(scale)
        or not scale > 0
    ):
        raise InvalidInputError(
            f"expected a scale above 0 (PNG pixels per SVG pixel): {scale!r}"
        )
    return float(scale)


def picture_size(svg: str) -> tuple[float, float]:
    """The width and height (pixels) of an SVG picture of :mod:`cpknight.draw`.

    Examples:
        >>> picture_size('<svg xmlns="x" width="411" height="469">')
        (411.0, 469.0)
    """
    found = _SIZE.search(svg)
    if found is None:
        raise InvalidInputError("expected an SVG picture with a width and a height")
    return float(found.group(1)), float(found.group(2))


def auto_scale(svg: str) -> float:
    """The scale a PNG of ``svg`` gets by default.

    1, or the scale that brings a cell under :data:`CELL_PX` pixels up to it
    (rounded up to a quarter), at most :data:`AUTO_SCALE_CAP` and what keeps
    the longest side within :data:`AUTO_SIDE_CAP` pixels (never under 1).
    A picture without cells (a chart) stays at 1.
    """
    cell = _CELL.search(svg)
    if cell is None:
        return 1.0
    side = float(cell.group(1))
    if side <= 0 or side >= CELL_PX:
        return 1.0
    scale = min(AUTO_SCALE_CAP, math.ceil(4 * CELL_PX / side) / 4)
    longest = max(picture_size(svg))
    return max(1.0, min(scale, math.floor(4 * AUTO_SIDE_CAP / longest) / 4))


def svg_to_png(svg: str, *, scale: float | None = None) -> bytes:
    """Render an SVG document (any picture of :mod:`cpknight.draw`) as PNG bytes.

    Args:
        svg: the SVG text.
        scale: PNG pixels per SVG pixel: the PNG is the picture's width and
            height times ``scale``, rounded up (default :func:`auto_scale`:
            1, more for small cells).

    Returns:
        The PNG file's bytes (8-bit RGBA).

    Raises:
        InvalidInputError: the ``png`` extra is not installed, a scale that is
            not a positive number, or one that makes a side longer than
            :data:`MAX_PNG_SIDE` pixels.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.draw import board_svg
        >>> svg = board_svg(Board.parse("2x2"), cell_size=20)
        >>> png = svg_to_png(svg, scale=2)
        >>> png_size(png) == tuple(2 * int(v) for v in picture_size(svg))
        True
    """
    k = auto_scale(svg) if scale is None else check_scale(scale)
    width, height = picture_size(svg)
    if max(width, height) * k > MAX_PNG_SIDE:
        raise InvalidInputError(
            f"a scale of {k:g} makes a {math.ceil(width * k)} x "
            f"{math.ceil(height * k)} PNG; at most {MAX_PNG_SIDE} pixels a side"
        )
    module = _resvg()
    return bytes(module.svg_to_bytes(svg_string=svg, zoom=k))


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height of a PNG, read from its header.

    Examples:
        >>> from cpknight.draw.png import png_bytes
        >>> import numpy as np
        >>> png_size(png_bytes(np.zeros((2, 3, 4), dtype=np.uint8)))
        (3, 2)
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise InvalidInputError("expected a PNG file")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
