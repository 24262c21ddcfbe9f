"""Pictures of the longest-path puzzles: the path drawn and numbered, or walked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

import numpy as np

from cpknight.draw.options import DrawArgs, ViewArgs, draw_options

if TYPE_CHECKING:
    from cpknight.longest.common import LongestPath

from cpknight.draw.animate import (
    animate_steps,
    check_animation,
    check_speed,
    walk_drawing,
    walk_options,
)
from cpknight.draw.canvas import (
    svg_text,
)
from cpknight.draw.tour import numbered_walk_svg

__all__ = ["longest_animation_svg", "longest_svg"]


def _title(path: LongestPath) -> str:
    shape = "cycle" if path.closed else "path"
    proved = "proved longest" if path.optimal else f"at most {path.bound}"
    return (
        f"{path.kind} {shape} of {path.moves} moves on {path.board.label} "
        f"({path.piece.label}), {proved}"
    )


def longest_svg(
    path: LongestPath,
    *,
    numbers: bool | None = None,
    **drawing: Unpack[DrawArgs],
) -> str:
    """Draw a longest uncrossed or induced path: the moves, the places, the ends.

    Drawn as a tour is (:func:`~cpknight.draw.tour_svg`): one ``<path>`` of
    the moves (a cycle's closing move dashed), each used cell numbered from 1,
    the first cell ringed green and the last red.

    Args:
        path: the answer.
        numbers: draw the place numbers (default: when they are readable).
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import longest_path
        >>> p = longest_path("4x4", kind="uncrossed", closed=False)
        >>> root = ET.fromstring(longest_svg(p))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']"))
        6
    """
    array = np.asarray(path.cells, dtype=np.int64).reshape(-1, path.board.dim)
    options = draw_options(path.board, numbers=numbers, **drawing)
    return numbered_walk_svg(
        path.board, path.piece, array, path.closed, _title(path), options
    )


def longest_animation_svg(
    path: LongestPath,
    *,
    speed: float = 4.0,
    **drawing: Unpack[ViewArgs],
) -> str:
    """An animated SVG of the knight walking the path, one step per move.

    Raises:
        InvalidInputError: a speed that is not positive.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import longest_path
        >>> p = longest_path("3x3", kind="induced", closed=True)
        >>> root = ET.fromstring(longest_animation_svg(p))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='step']"))
        8
    """
    speed = check_speed(speed)
    check_animation(len(path.cells), speed)
    array = np.asarray(path.cells, dtype=np.int64).reshape(-1, path.board.dim)
    root, steps, knight, centres = walk_drawing(
        path.board,
        path.piece,
        array,
        closed=path.closed,
        title=_title(path),
        options=walk_options(path.board, **drawing),
        numbered=True,
    )
    animate_steps(steps, knight, centres, speed)
    return svg_text(root)
