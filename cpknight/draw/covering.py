"""The picture of a covering: the knights on the board, the cells they attack.

Drawn on the checkered board of :func:`~cpknight.draw.board_svg`: each knight
a black disc with an ``N``, each cell a knight attacks marked by a blue dot,
and cells left neither held nor attacked outlined in vermillion (an
independent set can leave some); a legend under the board names each colour
and counts its cells, and a note says what the puzzle asks.

Examples:
    >>> import xml.etree.ElementTree as ET
    >>> from cpknight import dominate
    >>> root = ET.fromstring(cover_svg(dominate("4x4", method="search")))
    >>> ns = "{http://www.w3.org/2000/svg}"
    >>> len(root.findall(f".//{ns}circle[@class='knight']"))
    4
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Unpack

import numpy as np

from cpknight.draw.canvas import (
    MIN_LABEL_PX,
    attr_num,
    chessboard,
    draw_arrows,
    draw_outline,
    svg_circle,
    svg_text,
)
from cpknight.draw.legend import draw_legend
from cpknight.draw.options import DrawArgs, draw_options
from cpknight.draw.palette import OKABE_ITO, RGB, rgb
from cpknight.pieces import move_graph

if TYPE_CHECKING:
    from cpknight.board import Cell
    from cpknight.covering.common import Cover

__all__ = ["cover_svg"]

KNIGHT_FILL = OKABE_ITO["black"]
"""A knight's disc (its ``N`` in white)."""
ATTACK_FILL = OKABE_ITO["blue"]
"""The dot on a cell a knight attacks."""
FREE_STROKE = OKABE_ITO["vermillion"]
"""The outline of a cell neither held nor attacked."""

ASKS = {
    "dominating": "every open cell holds a knight or is attacked by one",
    "total": "every open cell, a knight's own too, is attacked by a knight",
    "independent": "every open cell is held or attacked; no knight attacks another",
    "independent-set": "no knight attacks another",
}
"""What each kind of covering asks, for the note under the picture."""


def cover_svg(cover: Cover, **drawing: Unpack[DrawArgs]) -> str:
    """Draw a covering: the knights, the cells they attack, the cells left over.

    Args:
        cover: the answer.
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document: ``circle.knight`` per knight, ``circle.attacked``
        per attacked cell without a knight, ``rect.free`` per cell left
        over, and a legend.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import independent
        >>> root = ET.fromstring(cover_svg(independent("3x3", method="search")))
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> [t.text for t in root.findall(f".//{ns}g[@class='legend']/{ns}text")]
        ['knight (5)', 'attacked (4)', 'no knight attacks another']
    """
    board = cover.board
    verdict = "optimal" if cover.optimal else f"best found, bound {cover.bound}"
    title = (
        f"{cover.kind} knights on {board.label} ({cover.piece.label}): "
        f"{cover.size}, {verdict}"
    )
    options = draw_options(board, **drawing)
    lay, root = chessboard(board, options, title, legend=True, notes=1)
    graph = move_graph(board, cover.piece)
    knights = set(cover.cells)
    attacked: set[Cell] = set()
    for cell in cover.cells:
        attacked.update(graph.cell(int(u)) for u in graph.neighbors(graph.node(cell)))
    free = [
        cell
        for cell in (graph.cell(v) for v in range(graph.n_nodes))
        if cell not in attacked and cell not in knights
    ]
    marks = sorted(c for c in attacked - knights if lay.inside(np.array([c]))[0])
    dots = ET.SubElement(root, "g", {"class": "attacks", "fill": ATTACK_FILL})
    for x, y in lay.px(np.array(marks, dtype=np.int64).reshape(-1, board.dim)).tolist():
        svg_circle(dots, "attacked", x, y, max(1.5, lay.s * 0.13))
    for cell in free:
        if lay.inside(np.array([cell]))[0]:
            draw_outline(root, lay, cell, FREE_STROKE, "free")
    shown = [c for c in cover.cells if lay.inside(np.array([c]))[0]]
    where = np.array(shown, dtype=np.int64).reshape(-1, board.dim)
    _draw_knights(root, lay.s, lay.px(where).tolist())
    draw_arrows(root, lay)
    items: list[tuple[RGB, str]] = [
        (rgb(KNIGHT_FILL), f"knight ({cover.size})"),
        (rgb(ATTACK_FILL), f"attacked ({len(attacked - knights)})"),
    ]
    if free:
        items.append((rgb(FREE_STROKE), f"neither ({len(free)}, outlined)"))
    draw_legend(root, lay, "", items, notes=[ASKS[cover.kind]])
    return svg_text(root)


def _draw_knights(root: ET.Element, side: float, centres: list[list[float]]) -> None:
    """A black disc per knight, with a white ``N`` where it is readable."""
    group = ET.SubElement(root, "g", {"class": "knights"})
    font = side * 0.5
    for x, y in centres:
        svg_circle(group, "knight", x, y, max(2.0, side * 0.38), {"fill": KNIGHT_FILL})
        if font >= MIN_LABEL_PX:
            label = ET.SubElement(
                group,
                "text",
                {
                    "class": "knight-label",
                    "x": attr_num(x),
                    "y": attr_num(y),
                    "dy": "0.35em",
                    "font-size": attr_num(font),
                    "text-anchor": "middle",
                    "fill": "#ffffff",
                },
            )
            label.text = "N"
