"""A one-file HTML page that plays a tour: play, pause, step and speed.

The page template is package data (``player.html``); it fetches nothing.
"""

from __future__ import annotations

import html
import json
import math
from importlib.resources import files
from typing import TYPE_CHECKING, Unpack

if TYPE_CHECKING:
    from cpknight.results import Tour

from cpknight.draw.animate import check_speed, tour_walk, walk_options
from cpknight.draw.canvas import attr_num, svg_text
from cpknight.draw.options import ViewArgs

__all__ = ["tour_html"]


def tour_html(
    tour: Tour,
    *,
    speed: float = 4.0,
    **drawing: Unpack[ViewArgs],
) -> str:
    """A one-file HTML page: the tour with play, pause, step and reset buttons.

    Self-contained (inline SVG, CSS and script; nothing fetched). Keys: space
    plays or pauses, the arrow keys step, Home resets.

    Args:
        tour: the tour, of at most :data:`ANIMATION_LIMIT` cells.
        speed: moves per second when playing (a slider changes it).
        **drawing: the size, orientation and colours
            (:class:`~cpknight.draw.options.ViewArgs`).

    Returns:
        The HTML page.

    Raises:
        InvalidInputError: a speed that is not positive, or a tour too long to
            animate.

    Examples:
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import Leaper
        >>> from cpknight.checks import make_tour
        >>> t = make_tour(Board.parse("1x3"), Leaper((0, 1)), [(0, 0), (0, 1), (0, 2)],
        ...               closed=False, method="hand")
        >>> page = tour_html(t)
        >>> page.startswith("<!DOCTYPE html>"), page.count('class="step"')
        (True, 2)
    """
    speed = check_speed(speed)
    options = walk_options(tour.board, **drawing)
    root, steps, knight, positions = tour_walk(tour, options)
    for shown in steps:
        for element in shown:
            element.set("visibility", "hidden")
    knight.set("id", "knight")
    title = root.findtext("title") or "tour"
    svg = svg_text(root)
    data = json.dumps([[round(x, 2), round(y, 2)] for x, y in positions])
    return _template().format(
        title=html.escape(title, quote=False),
        svg=svg,
        positions=data,
        speed=attr_num(speed),
        moves=len(steps),
        top=max(30, math.ceil(speed * 3)),
    )


def _template() -> str:
    """The page template (package data: ``cpknight/draw/player.html``)."""
    return (files("cpknight.draw") / "player.html").read_text(encoding="utf-8")
