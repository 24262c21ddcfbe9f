"""Pictures of boards: one board, or every named board on one sheet."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Unpack

from cpknight.board import Board
from cpknight.draw.canvas import FONT, SVG_NS, attr_num, board_drawing, svg_text
from cpknight.draw.options import DrawArgs, DrawOptions, draw_options
from cpknight.errors import InvalidInputError

__all__ = ["board_svg", "boards_svg"]


# ------------------------------------------------------------------ public API


def board_svg(
    board: Board,
    **drawing: Unpack[DrawArgs],
) -> str:
    """Draw a board: open cells checkered, blocked cells dark, coordinates labelled.

    Args:
        board: a finite board.
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Raises:
        InvalidBoardError: the board is the unbounded plane.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> root = ET.fromstring(board_svg(Board.parse("3x4")))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='cell']"))
        12
    """
    options = draw_options(board, **drawing)
    _, root = board_drawing(board, options)
    return svg_text(root)


def boards_svg(
    boards: Sequence[Board], *, columns: int = 3, cell_size: float = 20.0
) -> str:
    """Draw several boards on one sheet, in rows, each titled with its label.

    Args:
        boards: the boards (each finite, at most :data:`CELL_LIMIT` cells).
        columns: boards per row.
        cell_size: pixels per cell.

    Returns:
        The SVG document: one nested ``<svg class="board">`` per board.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> boards = [Board.parse(s) for s in ("3x3", "cross5", "2x2x2")]
        >>> root = ET.fromstring(boards_svg(boards, columns=2))
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> len(root.findall(f"{ns}svg[@class='board']"))
        3
    """
    if columns < 1:
        raise InvalidInputError(f"expected at least 1 column: {columns}")
    drawings = [board_drawing(b, DrawOptions(cell_size=cell_size))[1] for b in boards]
    sizes = [
        (float(d.get("width", "0")), float(d.get("height", "0"))) for d in drawings
    ]
    rows = [
        list(range(i, min(i + columns, len(boards))))
        for i in range(0, len(boards), columns)
    ]
    col_w = [
        max((sizes[row[c]][0] for row in rows if c < len(row)), default=0.0)
        for c in range(min(columns, len(boards)))
    ]
    caption = 18.0
    sheet = ET.Element("svg", {"xmlns": SVG_NS, "font-family": FONT})
    ET.SubElement(sheet, "title").text = f"{len(boards)} boards"
    ET.SubElement(sheet, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    y = 0.0
    for row in rows:
        x = 0.0
        height = max(sizes[i][1] for i in row)
        for c, i in enumerate(row):
            board = boards[i]
            label = ET.SubElement(
                sheet, "text", {"x": attr_num(x + 6), "y": attr_num(y + 13)}
            )
            label.set("font-size", "13")
            label.text = f"{board.label} ({board.n_open} open cells)"
            inner = drawings[i]
            inner.attrib.pop("xmlns", None)
            inner.set("class", "board")
            inner.set("x", attr_num(x))
            inner.set("y", attr_num(y + caption))
            sheet.append(inner)
            x += col_w[c] + 12
        y += height + caption + 12
    width = sum(col_w) + 12 * (len(col_w) - 1)
    sheet.set("width", str(math.ceil(width)))
    sheet.set("height", str(math.ceil(y)))
    sheet.set("viewBox", f"0 0 {math.ceil(width)} {math.ceil(y)}")
    return svg_text(sheet)
