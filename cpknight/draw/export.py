"""Pictures as PNG, for slide tools that dislike SVG: CairoSVG, an optional extra.

``pip install 'cpknight[png]'`` installs `CairoSVG <https://cairosvg.org>`_
(it draws with the cairo library, ``libcairo2`` on Debian, present wherever a
desktop or a browser is). Without it, :func:`require_png` says so in one line.
"""

from __future__ import annotations

import importlib
from typing import Any

from cpknight.errors import InvalidInputError

__all__ = ["require_png", "svg_to_png"]

PNG_MISSING = (
    "PNG pictures need the 'png' extra: pip install 'cpknight[png]' (CairoSVG)"
)


def _cairosvg() -> Any:
    """The ``cairosvg`` module, or a one-line error saying what to install."""
    try:
        return importlib.import_module("cairosvg")
    except ImportError:
        raise InvalidInputError(PNG_MISSING) from None
    except OSError as exc:  # cairocffi could not load libcairo
        raise InvalidInputError(
            f"PNG pictures need the cairo library (libcairo2): {exc}"
        ) from None


def require_png() -> None:
    """Check, before any work, that PNG pictures can be written.

    Raises:
        InvalidInputError: CairoSVG (the ``png`` extra) or the cairo library is
            missing.
    """
    _cairosvg()


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """Render an SVG document (any picture of :mod:`cpknight.draw`) as PNG bytes.

    Args:
        svg: the SVG text.
        scale: pixels per SVG pixel (2 for a sharp picture on a slide).

    Returns:
        The PNG file's bytes.

    Raises:
        InvalidInputError: the ``png`` extra is not installed, or a scale that
            is not positive.
    """
    if not scale > 0:
        raise InvalidInputError(f"expected a scale above 0: {scale}")
    module = _cairosvg()
    out: bytes = module.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return out
