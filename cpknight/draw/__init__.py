"""Pictures (SVG): boards, tours, routes, heat maps, sweeps, an animated knight.

Every function returns the text of a standalone SVG document (or, for
:func:`tour_html`, a one-file HTML page), built with :mod:`xml.etree.ElementTree`
and nothing outside the standard library but numpy; each picture takes one
value (a Board, Tour, Route, DistanceMap or Sweep). The same drawings back the
``_repr_svg_`` methods that make the values draw themselves in a notebook, and
the ``--svg``, ``--animate`` and ``--html`` options of the command line.

One module per picture: :mod:`~cpknight.draw.board`, :mod:`~cpknight.draw.tour`
(tours and routes), :mod:`~cpknight.draw.heatmap`, :mod:`~cpknight.draw.sweep`,
:mod:`~cpknight.draw.animate`, :mod:`~cpknight.draw.html`; beneath them the
canvas (layout, squares, labels), the walk (paths and wrapped moves), the
colours and a PNG encoder for huge boards. Every colour comes from one
colour-blind-safe palette (:mod:`~cpknight.draw.palette`, Okabe-Ito, with
named themes); the drawing options in the python-chess spirit (``flipped``,
``theme``, ``coordinates``, ``highlight``, ``arrows``, ``crop``) are keyword
arguments of the board pictures (:mod:`~cpknight.draw.options`); PNG comes
through resvg-py, the optional ``png`` extra (:mod:`~cpknight.draw.export`).
Distances, coverings and swaps are drawn by :mod:`~cpknight.draw.values`,
:mod:`~cpknight.draw.covering` and :mod:`~cpknight.draw.swaps`; every legend
by :mod:`~cpknight.draw.legend`.

Examples:
    >>> import xml.etree.ElementTree as ET
    >>> from cpknight.board import Board
    >>> root = ET.fromstring(board_svg(Board.parse("holed8")))
    >>> len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='blocked']"))
    16
"""

from __future__ import annotations

from cpknight.draw.animate import (
    check_animation,
    route_animation_svg,
    tour_animation_svg,
)
from cpknight.draw.board import board_svg, boards_svg
from cpknight.draw.canvas import ANIMATION_LIMIT, CELL_LIMIT, LABEL_LIMIT, MIN_FONT_PX
from cpknight.draw.colours import contrast_ratio
from cpknight.draw.heatmap import distance_map_svg
from cpknight.draw.html import tour_html
from cpknight.draw.options import DrawOptions
from cpknight.draw.palette import THEMES, Theme
from cpknight.draw.sweep import sweep_svg
from cpknight.draw.tour import route_svg, tour_svg

__all__ = [
    "ANIMATION_LIMIT",
    "CELL_LIMIT",
    "LABEL_LIMIT",
    "MIN_FONT_PX",
    "THEMES",
    "DrawOptions",
    "Theme",
    "board_svg",
    "boards_svg",
    "check_animation",
    "contrast_ratio",
    "distance_map_svg",
    "route_animation_svg",
    "route_svg",
    "sweep_svg",
    "tour_animation_svg",
    "tour_html",
    "tour_svg",
]
