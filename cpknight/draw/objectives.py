"""Pictures of optimising tours: the turns, or the crossings, marked.

A :class:`~cpknight.results.ScoredTour` (``cpknight tour --min turns|crossings
--svg``) is drawn as any tour is (the path, the numbers, the ends ringed),
with its score marked on top: an orange dot on every cell where the knight
turns, or a red ring on every point where two drawn moves cross. The marks are
read off the tour by the checker's own counters (:mod:`cpknight.scores`), so
the picture shows exactly what was counted.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import numpy as np

from cpknight.draw.canvas import (
    attr_num,
    chessboard,
    draw_numbers,
    mark_ends,
    svg_circle,
    svg_text,
)
from cpknight.draw.walk import draw_walk
from cpknight.scores import crossing_moves, turn_cells

if TYPE_CHECKING:
    from cpknight.results import ScoredTour

__all__ = ["scored_tour_svg"]

TURN = "#e67e22"
"""The colour of a turn's dot."""

CROSSING = "#c0392b"
"""The colour of a crossing's ring."""


def _title(tour: ScoredTour) -> str:
    kind = "closed" if tour.closed else "open"
    proved = "optimal" if tour.optimal else f"at least {tour.lower} for any"
    return (
        f"{kind} tour of {tour.board.label} ({tour.piece.label}) with "
        f"{tour.value} {tour.objective} ({proved}), marked"
    )


def scored_tour_svg(
    tour: ScoredTour, *, cell_size: float | None = None, numbers: bool | None = None
) -> str:
    """Draw an optimising tour with its turns or its crossings marked.

    Args:
        tour: the tour, with its objective.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).
        numbers: draw the visit numbers (default: on small boards).

    Returns:
        The SVG document: a ``circle`` of class ``turn`` on each turn, or of
        class ``crossing`` on each crossing point.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import find_tour
        >>> t = find_tour("5x5", closed=False, minimise="turns")
        >>> root = ET.fromstring(scored_tour_svg(t))
        >>> marks = root.findall(".//{http://www.w3.org/2000/svg}circle[@class='turn']")
        >>> len(marks) == t.value
        True
    """
    board = tour.board
    array = np.asarray(tour.array, dtype=np.int64)
    lay, root = chessboard(board, cell_size, _title(tour), numbers=numbers)
    draw_walk(root, lay, "tour", array, tour.piece, closed=tour.closed)
    centres = lay.px(array).tolist()
    radius = max(2.0, lay.s * 0.16)
    if tour.objective == "turns":
        for i in turn_cells(board, array, closed=tour.closed):
            x, y = centres[i]
            _dot(root, "turn", x, y, radius, fill=TURN)
    else:
        n = len(array)
        for i, j in crossing_moves(board, array, closed=tour.closed):
            point = _meeting(
                centres[i], centres[(i + 1) % n], centres[j], centres[(j + 1) % n]
            )
            if point is not None:
                _dot(root, "crossing", *point, radius, stroke=CROSSING)
    mark_ends(root, lay, array)
    if lay.numbers:
        draw_numbers(
            root,
            lay,
            array,
            [str(i) for i in range(1, len(array) + 1)],
            ["#111111"] * len(array),
            halo=True,
        )
    return svg_text(root)


def _meeting(
    p: list[float], q: list[float], s: list[float], t: list[float]
) -> tuple[float, float] | None:
    """Where segments pq and st meet (their midpoint of overlap if collinear)."""
    rx, ry, sx, sy = q[0] - p[0], q[1] - p[1], t[0] - s[0], t[1] - s[1]
    denom = rx * sy - ry * sx
    if abs(denom) < 1e-12:
        return ((p[0] + q[0] + s[0] + t[0]) / 4, (p[1] + q[1] + s[1] + t[1]) / 4)
    u = ((s[0] - p[0]) * sy - (s[1] - p[1]) * sx) / denom
    return (p[0] + u * rx, p[1] + u * ry)


def _dot(
    root: ET.Element,
    kind: str,
    x: float,
    y: float,
    radius: float,
    *,
    fill: str = "none",
    stroke: str = "none",
) -> None:
    width = attr_num(max(1.0, radius * 0.5))
    paint = {"fill": fill, "stroke": stroke, "stroke-width": width}
    svg_circle(root, kind, x, y, radius, paint)
