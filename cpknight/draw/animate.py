"""The knight walks: SMIL animation of a tour or a route, no script."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING, Unpack

import numpy as np

from cpknight.board import Board
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.pieces import Leaper
    from cpknight.results import Route, Tour

from cpknight.draw.canvas import (
    ANIMATION_LIMIT,
    Layout,
    attr_num,
    chessboard,
    draw_food,
    draw_ring,
    mark_ends,
    route_title,
    stroke_width,
    svg_text,
    tour_title,
)
from cpknight.draw.options import DrawOptions, ViewArgs, draw_options
from cpknight.draw.walk import move_vectors, segments

__all__ = ["check_animation", "route_animation_svg", "tour_animation_svg"]


def tour_animation_svg(
    tour: Tour,
    *,
    speed: float = 4.0,
    **drawing: Unpack[ViewArgs],
) -> str:
    """An animated SVG of the knight walking the tour, one step per move.

    Plays in any browser with no script (SMIL ``<animate>``): the knight glides
    from cell to cell, each move's line and the visit number appear as it
    lands, the picture holds for two moves at the end and starts again. A
    closed tour ends with the move back to the start.

    Args:
        tour: the tour, of at most :data:`ANIMATION_LIMIT` cells.
        speed: moves per second.
        **drawing: the size, orientation and colours
            (:class:`~cpknight.draw.options.ViewArgs`).

    Returns:
        The SVG document: one ``<g class="step">`` per move, each with one
        ``<animate>``.

    Raises:
        InvalidInputError: a speed that is not positive, or a tour too long to
            animate.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import Leaper
        >>> from cpknight.checks import make_tour
        >>> b = Board.parse("2x3")
        >>> cells = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]
        >>> t = make_tour(b, Leaper((0, 1)), cells, closed=True, method="hand")
        >>> root = ET.fromstring(tour_animation_svg(t, speed=2))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='step']"))
        6
    """
    speed = check_speed(speed)
    options = walk_options(tour.board, **drawing)
    root, steps, knight, positions = tour_walk(tour, options)
    animate_steps(steps, knight, positions, speed)
    return svg_text(root)


def route_animation_svg(
    route: Route,
    *,
    speed: float = 4.0,
    **drawing: Unpack[ViewArgs],
) -> str:
    """An animated SVG of the knight walking a route, one step per move.

    As :func:`tour_animation_svg`, for a route that may revisit cells: each
    move's line appears as the knight lands (a move that wraps on a 2D torus
    or cylinder as two stubs), the food cells are outlined, and the picture
    holds for two moves at the end and starts again.

    Args:
        route: the route, at most :data:`ANIMATION_LIMIT` cells.
        speed: moves per second.
        **drawing: the size, orientation and colours
            (:class:`~cpknight.draw.options.ViewArgs`).

    Returns:
        The SVG document: one ``<g class="step">`` per move.

    Raises:
        InvalidInputError: a speed that is not positive, or a route too long.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import collect
        >>> route = collect("3x3", "a1", ["b3"], end="a1", method="search")
        >>> text = route_animation_svg(route)
        >>> root = ET.fromstring(text)
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='step']"))
        2
    """
    speed = check_speed(speed)
    board, piece, food = route.board, route.piece, route.food
    array = np.asarray(route.cells, dtype=np.int64).reshape(-1, board.dim)
    if not 0 < len(array) <= ANIMATION_LIMIT:
        raise InvalidInputError(
            f"a route of {len(array)} cells cannot be animated (1 to "
            f"{ANIMATION_LIMIT}); draw it with route_svg (--svg) instead"
        )
    root, steps, knight, centres = walk_drawing(
        board,
        piece,
        array,
        closed=False,
        title=route_title(board, piece, array),
        options=walk_options(board, **drawing),
        numbered=False,
        food=food,
    )
    animate_steps(steps, knight, centres, speed)
    return svg_text(root)


def check_animation(n_cells: int, speed: float = 4.0) -> None:
    """Refuse, before any solving, a tour too long to animate or a bad speed.

    Args:
        n_cells: the number of cells the tour will have.
        speed: moves per second.

    Raises:
        InvalidInputError: more than :data:`ANIMATION_LIMIT` cells, or a speed
            that is not a positive number.

    Examples:
        >>> check_animation(64, 4.0)
        >>> check_animation(64, 0)
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a speed above 0 moves per \
second: 0
    """
    check_speed(speed)
    if n_cells > ANIMATION_LIMIT:
        raise InvalidInputError(
            f"a tour of {n_cells} cells is too long to animate (at most "
            f"{ANIMATION_LIMIT}); draw it with --svg (tour_svg) instead"
        )


# ---------------------------------------------------------------- animation


def check_speed(speed: float) -> float:
    if not (isinstance(speed, int | float) and math.isfinite(speed) and speed > 0):
        raise InvalidInputError(f"expected a speed above 0 moves per second: {speed!r}")
    return float(speed)


_Walk = tuple[ET.Element, list[list[ET.Element]], ET.Element, list[tuple[float, float]]]


def walk_options(board: Board, **drawing: Unpack[ViewArgs]) -> DrawOptions:
    """The options of an animation: numbers always, sized, flipped and themed."""
    return draw_options(board, numbers=True, **drawing)


def tour_walk(tour: Tour, options: DrawOptions) -> _Walk:
    """:func:`walk_drawing` of a tour, refused if too long to animate."""
    check_animation(len(tour))
    return walk_drawing(
        tour.board,
        tour.piece,
        np.asarray(tour.array, dtype=np.int64),
        closed=tour.closed,
        title=tour_title(tour),
        options=options,
        numbered=True,
    )


def walk_drawing(
    board: Board,
    piece: Leaper,
    array: npt.NDArray[np.int64],
    *,
    closed: bool,
    title: str,
    options: DrawOptions,
    numbered: bool,
    food: Sequence[Sequence[int]] = (),
    origin: int = 1,
    target: bool = False,
) -> _Walk:
    """The board, the elements of each move, the knight, its positions.

    A walk (a tour, or a route that may revisit cells) of the cells ``array``,
    with the move back to the start if ``closed``. ``numbered``: each cell
    shows its visit number (the first, ``origin``, from the start, the others
    as the knight lands) and the knight is a badge; otherwise a plain disc.
    ``food`` cells are outlined; ``target`` rings the last cell in the
    theme's end colour from the start (where the walk is going).
    """
    lay, root = chessboard(board, options, title)
    draw_food(root, lay, food)
    order = np.concatenate([array, array[:1]]) if closed else array
    centres = [(float(x), float(y)) for x, y in lay.px(order).tolist()]
    n = len(array)
    if target:
        mark_ends(root, lay, array)
    else:
        draw_ring(
            root, lay, tuple(int(x) for x in array[0]), lay.options.theme.start, "start"
        )
    lines = _lines_group(root, lay)
    units = lay.unit_xy(order)
    raw = order[1:] - order[:-1]
    moves = move_vectors(board, piece.vector, raw)
    steps_units = units[1:] - units[:-1]
    numbers = _numbers_group(root, lay, n, centres[0], origin) if numbered else None
    steps: list[list[ET.Element]] = []
    for i in range(1, len(order)):
        step = ET.SubElement(lines, "g", {"class": "step", "data-step": str(i)})
        ux, uy = units[i - 1].tolist()
        line = segments(
            lay,
            units[i - 1 : i + 1],
            moves[i - 1 : i],
            steps_units[i - 1 : i],
            raw[i - 1 : i],
        )
        ET.SubElement(step, "path", {"d": f"M{ux + 0.5} {uy + 0.5}{line}"})
        shown = [step]
        if numbers is not None and i < n:
            shown.append(_landing_number(numbers, i, i + origin, centres[i]))
        steps.append(shown)
    knight = _knight(root, lay, centres[0], badge=numbered)
    if numbers is not None:  # above the knight, which never hides a number
        root.remove(numbers)
        root.append(numbers)
    return root, steps, knight, centres


def _landing_number(
    numbers: ET.Element, i: int, label: int, centre: tuple[float, float]
) -> ET.Element:
    """The visit number ``label``, landing with move ``i`` (above every line)."""
    text = ET.SubElement(
        numbers,
        "text",
        {
            "class": "num",
            "data-step": str(i),
            "x": attr_num(centre[0]),
            "y": attr_num(centre[1]),
            "dy": "0.35em",
        },
    )
    text.text = str(label)
    return text


def _lines_group(root: ET.Element, lay: Layout) -> ET.Element:
    """The group of the moves' lines, in cell units.

    So a move that wraps on a 2D torus is drawn as two stubs, as in
    ``tour_svg``; the stroke width is scaled back to pixels.
    """
    return ET.SubElement(
        root,
        "g",
        {
            "class": "walk",
            "transform": (
                f"translate({attr_num(lay.left)} {attr_num(lay.top)}) "
                f"scale({attr_num(lay.s)})"
            ),
            "fill": "none",
            "stroke": lay.options.theme.path,
            "stroke-width": attr_num(stroke_width(lay) / lay.s, 4),
            "stroke-linecap": "round",
            "stroke-opacity": "0.85",
        },
    )


def _numbers_group(
    root: ET.Element,
    lay: Layout,
    n: int,
    first_centre: tuple[float, float],
    origin: int = 1,
) -> ET.Element:
    """The group of the visit numbers (above every line), with the first one."""
    longest = len(str(n + origin - 1))
    font = lay.s * {1: 0.46, 2: 0.42, 3: 0.34, 4: 0.27}.get(longest, 1.1 / longest)
    numbers = ET.SubElement(
        root,
        "g",
        {
            "class": "numbers",
            "font-size": attr_num(font),
            "text-anchor": "middle",
            "fill": "#111111",
            "stroke": "#ffffff",
            "stroke-width": attr_num(max(1.0, font * 0.22)),
            "stroke-linejoin": "round",
            "paint-order": "stroke",
        },
    )
    first = ET.SubElement(
        numbers,
        "text",
        {
            "class": "num",
            "x": attr_num(first_centre[0]),
            "y": attr_num(first_centre[1]),
            "dy": "0.35em",
        },
    )
    first.text = str(origin)
    return numbers


def _knight(
    root: ET.Element, lay: Layout, centre: tuple[float, float], *, badge: bool
) -> ET.Element:
    """The knight: a dark disc on ``centre``; a badge has a white rim and a ♞."""
    knight = ET.SubElement(
        root,
        "g",
        {
            "class": "knight",
            "transform": f"translate({attr_num(centre[0])} {attr_num(centre[1])})",
        },
    )
    radius = max(4.0, lay.s * 0.36)
    disc = {"r": attr_num(radius), "fill": "#111111", "fill-opacity": "0.85"}
    if badge:
        disc.update(
            {"stroke": "#ffffff", "stroke-width": attr_num(max(1.0, radius * 0.1))}
        )
    ET.SubElement(knight, "circle", disc)
    if badge and radius >= 8:
        glyph = ET.SubElement(
            knight,
            "text",
            {
                "font-size": attr_num(radius * 1.35),
                "text-anchor": "middle",
                "dy": "0.35em",
                "fill": "#ffffff",
            },
        )
        glyph.text = "♞"
    return knight


def animate_steps(
    steps: Sequence[Sequence[ET.Element]],
    knight: ET.Element,
    centres: Sequence[tuple[float, float]],
    speed: float,
) -> None:
    """SMIL: step ``i``'s elements appear after ``i`` moves, the knight glides.

    One loop lasts the moves plus two (the picture holds at the end), then
    starts again.
    """
    dt = 1.0 / speed
    n_moves = len(steps)
    total = (n_moves + 2) * dt
    dur = f"{attr_num(total, 3)}s"
    for i, shown in enumerate(steps, start=1):
        for element in shown:
            ET.SubElement(
                element,
                "animate",
                {
                    "attributeName": "opacity",
                    "values": "0;1",
                    "keyTimes": f"0;{attr_num(i * dt / total, 6)}",
                    "calcMode": "discrete",
                    "dur": dur,
                    "repeatCount": "indefinite",
                },
            )
            element.set("opacity", "0")
    values = [*centres, centres[-1]]
    times = [i * dt / total for i in range(n_moves + 1)] + [1.0]
    ET.SubElement(
        knight,
        "animateTransform",
        {
            "attributeName": "transform",
            "type": "translate",
            "values": ";".join(f"{attr_num(x)} {attr_num(y)}" for x, y in values),
            "keyTimes": ";".join(attr_num(t, 6) for t in times),
            "dur": dur,
            "repeatCount": "indefinite",
        },
    )
