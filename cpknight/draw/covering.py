"""The picture of a covering: the knights on the board, the cells they attack.

Drawn on the checkered board of :func:`~cpknight.draw.board_svg`: each knight
a dark disc with an ``N``, each cell a knight attacks tinted, and cells left
neither occupied nor attacked outlined (an independent set leaves some).

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
from typing import TYPE_CHECKING

import numpy as np

from cpknight.draw.canvas import (
    attr_num,
    cell_square,
    chessboard,
    draw_outline,
    svg_circle,
    svg_text,
)
from cpknight.draw.colours import END, PATH
from cpknight.pieces import move_graph

if TYPE_CHECKING:
    from cpknight.board import Cell
    from cpknight.covering.common import Cover

__all__ = ["cover_svg"]

KNIGHT_FILL = "#111827"
ATTACK_FILL = PATH
"""The tint of an attacked cell (the path colour, mostly transparent)."""


def cover_svg(cover: Cover, *, cell_size: float | None = None) -> str:
    """Draw a covering: the knights, the cells they attack, the cells left over.

    Args:
        cover: the answer.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The SVG document.
    """
    board = cover.board
    verdict = "optimal" if cover.optimal else f"best found, bound {cover.bound}"
    title = (
        f"{cover.kind} knights on {board.label} ({cover.piece.label}): "
        f"{cover.size}, {verdict}"
    )
    lay, root = chessboard(board, cell_size, title)
    graph = move_graph(board, cover.piece)
    knights = set(cover.cells)
    attacked: set[Cell] = set()
    for cell in cover.cells:
        attacked.update(graph.cell(int(u)) for u in graph.neighbors(graph.node(cell)))
    tint = ET.SubElement(root, "g", {"class": "attacked"})
    shade = {"fill": ATTACK_FILL, "fill-opacity": "0.28"}
    for cell in sorted(attacked):
        (x, y), *_ = lay.px(np.array([cell])).tolist()
        cell_square(tint, lay, x, y, "attacked", shade)
    for cell in (graph.cell(v) for v in range(graph.n_nodes)):
        if cell not in attacked and cell not in knights:
            draw_outline(root, lay, cell, END, "free")
    group = ET.SubElement(root, "g", {"class": "knights"})
    font = max(8.0, lay.s * 0.5)
    for cell in cover.cells:
        (x, y), *_ = lay.px(np.array([cell])).tolist()
        svg_circle(group, "knight", x, y, max(2.0, lay.s * 0.38), {"fill": KNIGHT_FILL})
        if lay.s >= 12:
            label = ET.SubElement(
                group,
                "text",
                {
                    "class": "knight-label",
                    "x": attr_num(x),
                    "y": attr_num(y + font * 0.35),
                    "font-size": attr_num(font),
                    "text-anchor": "middle",
                    "fill": "#ffffff",
                },
            )
            label.text = "N"
    return svg_text(root)
