"""Pictures of tours and routes: the board with the walk drawn and numbered."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.board import Board
    from cpknight.pieces import Leaper
    from cpknight.results import Route, Tour

from cpknight.draw.canvas import (
    chessboard,
    draw_food,
    draw_numbers,
    mark_ends,
    route_title,
    svg_text,
    tour_title,
)
from cpknight.draw.walk import draw_walk

__all__ = ["route_svg", "tour_svg"]


def tour_svg(
    tour: Tour, *, cell_size: float | None = None, numbers: bool | None = None
) -> str:
    """Draw a tour: the path, the visit numbers, the start and end marked.

    The path is one ``<path>`` element; the closing move of a closed tour is a
    second, dashed one. On 2D tori and cylinders a move that wraps is drawn as
    two stubs leaving one edge and entering the opposite one. On 3D boards
    (layers side by side) the moves from one layer to another are a third,
    fainter path. The start cell has a green ring, the end cell a red one.

    Args:
        tour: the tour.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).
        numbers: draw the visit numbers (default: on boards of at most
            :data:`LABEL_LIMIT` cells).

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
    """
    array = np.asarray(tour.array, dtype=np.int64)
    return numbered_walk_svg(
        tour.board,
        tour.piece,
        array,
        tour.closed,
        tour_title(tour),
        cell_size,
        numbers,
    )


def numbered_walk_svg(
    board: Board,
    piece: Leaper,
    array: npt.NDArray[np.int64],
    closed: bool,
    title: str,
    cell_size: float | None,
    numbers: bool | None,
) -> str:
    """The walk through ``array`` drawn, its ends marked and its steps numbered."""
    lay, root = chessboard(board, cell_size, title, numbers=numbers)
    draw_walk(root, lay, "tour", array, piece, closed=closed)
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


def route_svg(
    route: Route,
    *,
    cell_size: float | None = None,
    numbers: bool | None = None,
    title: str | None = None,
) -> str:
    """Draw a route (a walk that may revisit cells): the path, the food, the ends.

    The path is one ``<path>`` element, drawn as in :func:`tour_svg`: moves
    that wrap on 2D tori and cylinders are two stubs, and on 3D boards the
    moves from one layer to another are a second, fainter path. Each cell on
    the route shows the move at which it is first reached (0 = the start);
    food cells have an amber outline, the start a green ring, the last cell a
    red one.

    Args:
        route: the route (its board, piece, cells and food).
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).
        numbers: draw the step numbers (default: on boards of at most
            :data:`LABEL_LIMIT` cells).
        title: the picture's title (default: the route's length).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import collect
        >>> text = route_svg(collect("3x3", "a1", ["b3"], end="a1", method="search"))
        >>> root = ET.fromstring(text)
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> len(root.findall(f".//{ns}text[@class='num']"))  # a1 and b3
        2
        >>> len(root.findall(f".//{ns}rect[@class='food']"))
        1
    """
    board, piece, food = route.board, route.piece, route.food
    array = np.asarray(route.cells, dtype=np.int64).reshape(-1, board.dim)
    lay, root = chessboard(
        board, cell_size, title or route_title(board, piece, array), numbers=numbers
    )
    draw_food(root, lay, food)
    draw_walk(root, lay, "route", array, piece, closed=False)
    mark_ends(root, lay, array)
    if lay.numbers:
        first: dict[tuple[int, ...], int] = {}
        for step, cell in enumerate(array.tolist()):
            first.setdefault(tuple(cell), step)
        where = np.array(list(first), dtype=np.int64).reshape(-1, board.dim)
        texts = [str(step) for step in first.values()]
        draw_numbers(root, lay, where, texts, ["#111111"] * len(texts), halo=True)
    return svg_text(root)
