"""Pictures of tours and routes: the board with the walk drawn and numbered."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING, Unpack

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.board import Board
    from cpknight.pieces import Leaper
    from cpknight.results import Route, Tour

from cpknight.draw.canvas import (
    Layout,
    chessboard,
    draw_arrows,
    draw_food,
    draw_numbers,
    mark_ends,
    numbers_fit,
    route_title,
    short_count,
    svg_text,
    tour_title,
)
from cpknight.draw.legend import draw_legend
from cpknight.draw.options import DrawArgs, DrawOptions, draw_options
from cpknight.draw.palette import RGB, rgb
from cpknight.draw.walk import GRADIENT_BELOW_PX, draw_order, draw_walk, order_colours

__all__ = ["route_svg", "tour_svg"]


def tour_svg(
    tour: Tour,
    *,
    numbers: bool | None = None,
    gradient: bool | None = None,
    **drawing: Unpack[DrawArgs],
) -> str:
    """Draw a tour: the path, the visit numbers, the start and end marked.

    The path is one ``<path>`` element; the closing move of a closed tour is a
    second, dashed one. On 2D tori and cylinders a move that wraps is drawn as
    two stubs leaving one edge and entering the opposite one. On 3D boards
    (layers side by side) the moves from one layer to another are a third
    path, dashed in the theme's arrow colour, with a dot where each lands.
    The start cell has a ring in the theme's start colour (bluish green), the
    end one in its end colour (vermillion). A huge tour, whose cells would be
    under :data:`~cpknight.draw.walk.GRADIENT_BELOW_PX` pixels, is drawn as a
    gradient along the tour (each cell coloured by its place), or crop it.

    Args:
        tour: the tour.
        numbers: draw the visit numbers (default: when their font is at least
            :data:`~cpknight.draw.canvas.MIN_FONT_PX`).
        gradient: colour the cells by their place in the tour instead of
            drawing the path (default: on cells too small for the path).
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.checks import make_tour
        >>> cells = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1",
        ...          "b2", "d3"]
        >>> b = Board.parse("3x4")
        >>> t = make_tour(b, KNIGHT, [b.parse_cell(c) for c in cells],
        ...               closed=False, method="hand")
        >>> root = ET.fromstring(tour_svg(t))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']"))
        12
        >>> root = ET.fromstring(tour_svg(t, crop="a1:b2", flipped=True))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']"))
        4
    """
    options = draw_options(tour.board, numbers=numbers, **drawing)
    array = np.asarray(tour.array, dtype=np.int64)
    return numbered_walk_svg(
        tour.board,
        tour.piece,
        array,
        tour.closed,
        tour_title(tour),
        options,
        gradient=gradient,
    )


def numbered_walk_svg(
    board: Board,
    piece: Leaper,
    array: npt.NDArray[np.int64],
    closed: bool,
    title: str,
    options: DrawOptions,
    *,
    gradient: bool | None = None,
) -> str:
    """The walk through ``array`` drawn, its ends marked and its steps numbered.

    As a gradient along the walk instead of a path when ``gradient`` (by
    default when cells are under :data:`GRADIENT_BELOW_PX` pixels).
    """
    lay, root = chessboard(board, options, title)
    if gradient is None:
        gradient = lay.s < GRADIENT_BELOW_PX
    notes = []
    if gradient:
        draw_order(root, lay, array)
    else:
        draw_walk(root, lay, "tour", array, piece, closed=closed)
        if board.dim >= 3:
            notes.append(
                "dashed: a move to another layer (a dot where the knight lands)"
            )
    mark_ends(root, lay, array)
    if numbers_fit(lay, len(str(len(array)))):
        shown = np.flatnonzero(lay.inside(array))  # a crop's cells only
        draw_numbers(
            root,
            lay,
            array[shown],
            [str(i + 1) for i in shown.tolist()],
            [lay.options.theme.text] * len(shown),
            halo=True,
        )
        notes.append("numbers: the order of the visits, from 1")
    draw_arrows(root, lay)
    _ends_legend(root, lay, len(array), gradient=gradient, notes=notes)
    return svg_text(root)


def _ends_legend(
    root: ET.Element,
    lay: Layout,
    n: int,
    *,
    gradient: bool,
    notes: list[str],
) -> None:
    """Under the board: the rings' colours, the gradient's ends, the notes."""
    theme = lay.options.theme
    items: list[tuple[RGB, str]] = [
        (rgb(theme.path), "moves"),
        (rgb(theme.start), "first cell (ring)"),
        (rgb(theme.end), "last cell (ring)"),
    ]
    steps = 0
    if gradient:
        # Five stops along the tour, each labelled with its move number.
        places = sorted({round((n - 1) * k / 4) for k in range(5)})
        colours = order_colours(n)
        items = []
        for i in places:
            r, g, b = (int(v) for v in colours[i])
            items.append(((r, g, b), f"{short_count(i + 1)}"))
        steps = len(items)
        notes.append(
            "cells coloured by their place in the tour: the number is the visit"
        )
    extend(root, lay, rows=1 + len(notes))
    draw_legend(root, lay, "", items, scale=steps, notes=notes)


def route_svg(
    route: Route,
    *,
    numbers: bool | None = None,
    title: str | None = None,
    **drawing: Unpack[DrawArgs],
) -> str:
    """Draw a route (a walk that may revisit cells): the path, the food, the ends.

    The path is one ``<path>`` element, drawn as in :func:`tour_svg`: moves
    that wrap on 2D tori and cylinders are two stubs, and on 3D boards the
    moves from one layer to another are a second, dashed path. Each cell on
    the route shows every move at which the knight stands on it (0 = the
    start; a cell passed twice shows both, like ``3,7``); food cells have an
    outline in the theme's food colour (orange), the start a ring in its start
    colour, the last cell one in its end colour; a legend says which is which.

    Args:
        route: the route (its board, piece, cells and food).
        numbers: draw the step numbers (default: when they are readable).
        title: the picture's title (default: the route's length).
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import collect
        >>> text = route_svg(collect("3x3", "a1", ["b3"], end="a1", method="search"))
        >>> root = ET.fromstring(text)
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> sorted(t.text for t in root.findall(f".//{ns}text[@class='num']"))
        ['0,2', '1']
        >>> len(root.findall(f".//{ns}rect[@class='food']"))
        1
    """
    board, piece, food = route.board, route.piece, route.food
    options = draw_options(board, numbers=numbers, **drawing)
    array = np.asarray(route.cells, dtype=np.int64).reshape(-1, board.dim)
    lay, root = chessboard(board, options, title or route_title(board, piece, array))
    draw_food(root, lay, food)
    notes = []
    if draw_visits(root, lay, piece, array, "route"):
        notes.append("numbers: the moves at which the knight stands there (0: start)")
    look = lay.options.theme
    items: list[tuple[RGB, str]] = [
        (rgb(look.path), "moves"),
        (rgb(look.food), f"food ({len(food)}, outlined)"),
        (rgb(look.start), "start (ring)"),
        (rgb(look.end), "last cell (ring)"),
    ]
    legend_below(root, lay, items, notes)
    return svg_text(root)


def draw_visits(
    root: ET.Element,
    lay: Layout,
    piece: Leaper,
    array: npt.NDArray[np.int64],
    kind: str,
) -> bool:
    """A walk's moves (class ``kind``), its end rings and every cell's visits.

    Each cell the walk stands on shows the moves at which it stands there,
    from 0 (a cell passed twice shows both, like ``9,11``), inside the rings
    of the first and last cells (:func:`~cpknight.draw.canvas.mark_ends`).

    Returns:
        Whether the numbers were drawn (they are left out where unreadable:
        :func:`~cpknight.draw.canvas.numbers_fit`).
    """
    draw_walk(root, lay, kind, array, piece, closed=False)
    mark_ends(root, lay, array)
    visits: dict[tuple[int, ...], list[int]] = {}
    for step, cell in enumerate(array.tolist()):
        visits.setdefault(tuple(cell), []).append(step)
    texts = [",".join(str(s) for s in steps) for steps in visits.values()]
    if not numbers_fit(lay, max((len(t) for t in texts), default=1)):
        return False
    where = np.array(list(visits), dtype=np.int64).reshape(-1, lay.board.dim)
    theme_text = lay.options.theme.text
    draw_numbers(root, lay, where, texts, [theme_text] * len(texts), halo=True)
    return True


def legend_below(
    root: ET.Element,
    lay: Layout,
    items: Sequence[tuple[RGB, str]],
    notes: Sequence[str],
) -> None:
    """The options' arrows over the board, then the legend and notes under it."""
    draw_arrows(root, lay)
    extend(root, lay, rows=1 + len(notes))
    draw_legend(root, lay, "", items, notes=notes)


def extend(root: ET.Element, lay: Layout, *, rows: int) -> None:
    """Make room under the board for a legend of ``rows`` lines."""
    height = lay.legend_y + 36.0 + 16.0 * (rows - 1)
    h = str(math.ceil(height))
    root.set("height", h)
    w = root.get("width", "0")
    root.set("viewBox", f"0 0 {w} {h}")
