"""The canvas every picture draws on: layout, squares, labels, numbers, legends.

Boards show the top rank at the top and a1 at the bottom left, with file
letters and rank numbers on 2D boards of up to 26 files. 3D (and higher) boards
draw as their 2D layers side by side, each headed by its leading coordinates.
Past :data:`LABEL_LIMIT` cells the numbers and coordinates are dropped; past
:data:`CELL_LIMIT` cells the cells are one embedded image (one pixel per cell).
"""

from __future__ import annotations

import base64
import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cpknight.board import FILES, Board, Cell
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    from cpknight.pieces import Leaper
    from cpknight.results import Tour
    from cpknight.status import Effort

from cpknight.draw.colours import (
    END,
    FOOD,
    RGB,
    START,
    as_rgb,
    chess_colours,
    hex_colour,
    text_colour,
)
from cpknight.draw.png import png_bytes

__all__ = ["ANIMATION_LIMIT", "CELL_LIMIT", "LABEL_LIMIT"]

SVG_NS = "http://www.w3.org/2000/svg"

LABEL_LIMIT = 4096
"""Boards with more cells than this are drawn without numbers or coordinates."""

CELL_LIMIT = 10_000
"""Boards with more cells than this draw their cells as one embedded image."""

ANIMATION_LIMIT = 10_000
"""The longest tour (in cells) :func:`tour_animation_svg` and :func:`tour_html` draw."""

MAX_CELL_PX = 48.0
TARGET_PX = 800.0
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


# ------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Where each cell goes: panels (2D layers) side by side, pixels per cell."""

    board: Board
    rows: int
    cols: int
    panel_cols: int
    panel_rows: int
    gap: int
    s: float
    left: float
    top: float
    width: float
    height: float
    labels: bool
    numbers: bool
    vector: bool
    legend_y: float

    @property
    def units(self) -> tuple[int, int]:
        """The drawing's width and height in cells, gaps included."""
        w = self.panel_cols * self.cols + (self.panel_cols - 1) * self.gap
        h = self.panel_rows * self.rows + (self.panel_rows - 1) * self.gap
        return w, h

    def unit_xy(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``(n, 2)`` top-left corners in cell units (x right, y down)."""
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, self.board.dim)
        dim = self.board.dim
        if dim == 1:
            return np.stack([cells[:, 0], np.zeros(len(cells), np.int64)], axis=1)
        r, c = cells[:, -2], cells[:, -1]
        if dim == 2:
            return np.stack([c, self.rows - 1 - r], axis=1)
        lead = np.ravel_multi_index(tuple(cells[:, :-2].T), self.board.shape[:-2])
        pc, pr = lead % self.panel_cols, lead // self.panel_cols
        x = pc * (self.cols + self.gap) + c
        y = pr * (self.rows + self.gap) + self.rows - 1 - r
        return np.stack([x, y], axis=1)

    def px(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """``(n, 2)`` pixel centres of cells."""
        units = self.unit_xy(cells).astype(np.float64) + 0.5
        out: npt.NDArray[np.float64] = units * self.s + np.array([self.left, self.top])
        return out

    def panels(self) -> list[tuple[tuple[int, ...], float, float]]:
        """Each 2D layer: its leading coordinates and its top-left pixel."""
        lead_shape = self.board.shape[:-2] if self.board.dim >= 2 else ()
        out = []
        for k, lead in enumerate(itertools.product(*(range(n) for n in lead_shape))):
            pc, pr = k % self.panel_cols, k // self.panel_cols
            x = self.left + pc * (self.cols + self.gap) * self.s
            y = self.top + pr * (self.rows + self.gap) * self.s
            out.append((lead, x, y))
        return out


def make_layout(
    board: Board,
    cell_size: float | None,
    *,
    numbers: bool | None = None,
    legend: bool = False,
) -> Layout:
    board.require_finite("a drawing")
    dim = board.dim
    rows, cols = (board.shape[-2], board.shape[-1]) if dim >= 2 else (1, board.shape[0])
    panel_cols = board.shape[-3] if dim >= 3 else 1
    panel_rows = math.prod(board.shape[:-3]) if dim >= 4 else 1
    size = board.size

    def units(gap: int) -> tuple[int, int]:
        return (
            panel_cols * cols + (panel_cols - 1) * gap,
            panel_rows * rows + (panel_rows - 1) * gap,
        )

    s, gap = _cell_px_and_gap(cell_size, dim, units)
    labels = dim == 2 and cols <= len(FILES) and size <= LABEL_LIMIT
    show = size <= LABEL_LIMIT if numbers is None else numbers
    label_px = max(10.0, min(14.0, s * 0.32))
    left = (label_px * (len(str(rows)) * 0.7 + 0.8)) if labels else 6.0
    top = 6.0 + (22.0 if dim >= 3 else 0.0)
    w_units, h_units = units(gap)
    bottom = (label_px * 1.6) if labels else 6.0
    legend_y = top + h_units * s + bottom + 4
    height = legend_y + (30.0 if legend else 0.0)
    width = max(left + w_units * s + 6.0, 330.0 if legend else 0.0)
    return Layout(
        board=board,
        rows=rows,
        cols=cols,
        panel_cols=panel_cols,
        panel_rows=panel_rows,
        gap=gap,
        s=float(s),
        left=float(left),
        top=top,
        width=float(width),
        height=float(height if legend else legend_y - 4),
        labels=labels,
        numbers=bool(show),
        vector=size <= CELL_LIMIT,
        legend_y=legend_y,
    )


def _cell_px_and_gap(
    cell_size: float | None, dim: int, units: Callable[[int], tuple[int, int]]
) -> tuple[float, int]:
    """A cell's side in pixels, and the gap between 2D panels in cells (3D up).

    Unless ``cell_size`` is given, the drawing's longer side is fitted to
    :data:`TARGET_PX` (a cell between 1 and :data:`MAX_CELL_PX` pixels); with
    panels, fitted again with the gap the first fit gives (about 22 pixels).
    ``units(gap)`` is the drawing's width and height in cells.

    Raises:
        InvalidInputError: a cell size of 0 pixels or less.
    """
    if cell_size is not None and not cell_size > 0:
        raise InvalidInputError(f"expected a cell size above 0 pixels: {cell_size}")
    s = cell_size or min(MAX_CELL_PX, max(1.0, TARGET_PX / max(units(1))))
    gap = max(1, math.ceil(22 / s)) if dim >= 3 else 0
    if cell_size is None and dim >= 3:
        s = min(MAX_CELL_PX, max(1.0, TARGET_PX / max(units(gap))))
        gap = max(1, math.ceil(22 / s))
    return s, gap


# ----------------------------------------------------------------- elements


def svg_root(lay: Layout, title: str) -> ET.Element:
    w, h = math.ceil(lay.width), math.ceil(lay.height)
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": str(w),
            "height": str(h),
            "viewBox": f"0 0 {w} {h}",
            "font-family": FONT,
        },
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(
        root, "rect", {"class": "background", "width": "100%", "height": "100%"}
    ).set("fill", "#ffffff")
    return root


def svg_text(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def chessboard(
    board: Board, cell_size: float | None, title: str, *, numbers: bool | None = None
) -> tuple[Layout, ET.Element]:
    """The layout and a drawing of the checkered board with its coordinates."""
    lay = make_layout(board, cell_size, numbers=numbers)
    root = svg_root(lay, title)
    draw_cells(root, lay, chess_colours(board), "cell")
    draw_labels(root, lay)
    return lay, root


def board_drawing(board: Board, cell_size: float | None) -> tuple[Layout, ET.Element]:
    """The drawing of :func:`board_svg`."""
    return chessboard(
        board, cell_size, f"board {board.label}: {board.n_open} open cells"
    )


def tour_title(tour: Tour) -> str:
    kind = "closed" if tour.closed else "open"
    return f"{kind} tour of {tour.board.label} ({tour.piece.label}), {len(tour)} cells"


def route_title(board: Board, piece: Leaper, array: npt.NDArray[np.int64]) -> str:
    return f"route of {len(array) - 1} moves on {board.label} ({piece.label})"


def draw_cells(
    root: ET.Element, lay: Layout, colours: npt.NDArray[np.uint8], kind: str
) -> None:
    """One rect per cell (class ``kind`` or ``blocked``), or one image if large."""
    board = lay.board
    if lay.vector:
        group = ET.SubElement(
            root, "g", {"class": "cells", "shape-rendering": "crispEdges"}
        )
        mask = board.open_mask
        cells = np.array(list(np.ndindex(*board.shape)), dtype=np.int64).reshape(
            -1, board.dim
        )
        corners = lay.unit_xy(cells) * lay.s + np.array([lay.left, lay.top])
        size = attr_num(lay.s)
        for cell, (x, y) in zip(cells.tolist(), corners.tolist(), strict=True):
            key = tuple(cell)
            ET.SubElement(
                group,
                "rect",
                {
                    "class": kind if mask[key] else "blocked",
                    "x": attr_num(x),
                    "y": attr_num(y),
                    "width": size,
                    "height": size,
                    "fill": hex_colour(as_rgb(colours[key])),
                },
            )
        return
    w_units, h_units = lay.units
    image = np.zeros((h_units, w_units, 4), dtype=np.uint8)
    cells = np.argwhere(np.ones(board.shape, dtype=bool))
    xy = lay.unit_xy(cells)
    image[xy[:, 1], xy[:, 0], :3] = colours.reshape(-1, 3)
    image[xy[:, 1], xy[:, 0], 3] = 255
    ET.SubElement(
        root,
        "image",
        {
            "class": "cells",
            "x": attr_num(lay.left),
            "y": attr_num(lay.top),
            "width": attr_num(w_units * lay.s),
            "height": attr_num(h_units * lay.s),
            "preserveAspectRatio": "none",
            "style": "image-rendering:pixelated",
            "href": "data:image/png;base64,"
            + base64.b64encode(png_bytes(image)).decode("ascii"),
        },
    )


def draw_labels(root: ET.Element, lay: Layout) -> None:
    """File letters and rank numbers (2D), or a heading over each layer (3D+)."""
    font = max(10.0, min(14.0, lay.s * 0.32))
    if lay.board.dim >= 3:
        heading = max(9.0, min(14.0, lay.s * 0.5, (lay.gap * lay.s) * 0.7))
        group = ET.SubElement(
            root,
            "g",
            {"class": "layers", "font-size": attr_num(heading), "fill": "#333333"},
        )
        for lead, x, y in lay.panels():
            label = ET.SubElement(
                group, "text", {"x": attr_num(x), "y": attr_num(y - 5)}
            )
            label.text = "layer " + ",".join(str(i) for i in lead)
        return
    if not lay.labels:
        return
    group = ET.SubElement(
        root,
        "g",
        {
            "class": "coordinates",
            "font-size": attr_num(font),
            "fill": "#444444",
            "text-anchor": "middle",
        },
    )
    bottom = lay.top + lay.rows * lay.s
    for c in range(lay.cols):
        text = ET.SubElement(
            group,
            "text",
            {
                "x": attr_num(lay.left + (c + 0.5) * lay.s),
                "y": attr_num(bottom + font * 1.15),
            },
        )
        text.text = FILES[c]
    for r in range(lay.rows):
        text = ET.SubElement(
            group,
            "text",
            {
                "x": attr_num(lay.left / 2),
                "y": attr_num(lay.top + (lay.rows - 1 - r + 0.5) * lay.s),
                "dy": "0.35em",
            },
        )
        text.text = str(r + 1)


def draw_numbers(
    root: ET.Element,
    lay: Layout,
    cells: npt.NDArray[np.int64],
    texts: Sequence[str],
    fills: Sequence[str],
    *,
    halo: bool,
) -> list[ET.Element]:
    """One ``<text class="num">`` per cell, centred, sized to its longest text."""
    longest = max((len(t) for t in texts), default=1)
    font = lay.s * {1: 0.46, 2: 0.42, 3: 0.34, 4: 0.27}.get(longest, 1.1 / longest)
    attrs = {
        "class": "numbers",
        "font-size": attr_num(font),
        "text-anchor": "middle",
    }
    if halo:
        attrs.update(
            {
                "stroke": "#ffffff",
                "stroke-width": attr_num(max(1.0, font * 0.22)),
                "stroke-linejoin": "round",
                "paint-order": "stroke",
            }
        )
    group = ET.SubElement(root, "g", attrs)
    out = []
    for (x, y), text, fill in zip(lay.px(cells).tolist(), texts, fills, strict=True):
        element = ET.SubElement(
            group,
            "text",
            {
                "class": "num",
                "x": attr_num(x),
                "y": attr_num(y),
                "dy": "0.35em",
                "fill": fill,
            },
        )
        element.text = text
        out.append(element)
    return out


def draw_ring(
    root: ET.Element, lay: Layout, cell: Cell, colour: str, kind: str
) -> None:
    (x, y), *_ = lay.px(np.array([cell])).tolist()
    ET.SubElement(
        root,
        "circle",
        {
            "class": kind,
            "cx": attr_num(x),
            "cy": attr_num(y),
            "r": attr_num(max(3.0, lay.s * 0.4)),
            "fill": "none",
            "stroke": colour,
            "stroke-width": attr_num(max(1.5, min(3.5, lay.s * 0.08))),
        },
    )


def mark_ends(root: ET.Element, lay: Layout, array: npt.NDArray[np.int64]) -> None:
    """A green ring on the first cell, a red one on the last."""
    draw_ring(root, lay, tuple(int(x) for x in array[0]), START, "start")
    draw_ring(root, lay, tuple(int(x) for x in array[-1]), END, "end")


def draw_food(root: ET.Element, lay: Layout, food: Sequence[Sequence[int]]) -> None:
    for cell in food:
        draw_outline(root, lay, tuple(int(x) for x in cell), FOOD, "food")


def draw_outline(
    root: ET.Element, lay: Layout, cell: Cell, colour: str, kind: str
) -> None:
    (x, y), *_ = lay.px(np.array([cell])).tolist()
    width = max(1.5, min(4.0, lay.s * 0.09))
    half = lay.s / 2 - width / 2
    ET.SubElement(
        root,
        "rect",
        {
            "class": kind,
            "x": attr_num(x - half),
            "y": attr_num(y - half),
            "width": attr_num(2 * half),
            "height": attr_num(2 * half),
            "fill": "none",
            "stroke": colour,
            "stroke-width": attr_num(width),
        },
    )


def draw_legend(
    root: ET.Element, lay: Layout, heading: str, items: Sequence[tuple[RGB, str]]
) -> None:
    """Swatches in a row under the board; short labels sit inside their swatch."""
    group = ET.SubElement(root, "g", {"class": "legend", "font-size": "11"})
    y = lay.legend_y
    head = ET.SubElement(
        group, "text", {"x": "6", "y": attr_num(y + 10), "dy": "0.35em"}
    )
    head.text = heading
    x = 6.0 + 7.0 * len(heading) + 6
    for colour, label in items:
        inside = len(label) <= 3
        width = 22.0 if inside else 16.0
        ET.SubElement(
            group,
            "rect",
            {
                "x": attr_num(x),
                "y": attr_num(y + 1),
                "width": attr_num(width),
                "height": "18",
                "fill": hex_colour(colour),
                "stroke": "#999999",
                "stroke-width": "0.5",
            },
        )
        if inside:
            text = ET.SubElement(
                group,
                "text",
                {
                    "x": attr_num(x + width / 2),
                    "y": attr_num(y + 10),
                    "dy": "0.35em",
                    "text-anchor": "middle",
                    "fill": text_colour(colour),
                },
            )
            text.text = label
            x += width + 2
        else:
            text = ET.SubElement(
                group,
                "text",
                {"x": attr_num(x + width + 4), "y": attr_num(y + 10), "dy": "0.35em"},
            )
            text.text = label
            x += width + 10 + 6.5 * len(label)


def stroke_width(lay: Layout) -> float:
    return max(0.2, min(3.0, lay.s * 0.07))


# ------------------------------------------------------------------- helpers


def attr_num(x: float, places: int = 2) -> str:
    """A number for an attribute: few digits, no trailing zeros."""
    text = f"{x:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def short_count(n: int) -> str:
    """``999``, ``1.5k``, ``12k``, ``3.4M``: an effort that fits a cell."""
    for limit, suffix in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= limit:
            value = n / limit
            return f"{value:.1f}{suffix}" if value < 10 else f"{round(value)}{suffix}"
    return str(n)


def seconds_label(s: float) -> str:
    if s < 0.001:
        return "<1ms"
    return f"{s * 1000:.0f}ms" if s < 1 else f"{s:.1f}s" if s < 100 else f"{s:.0f}s"


def effort_amount(effort: Effort) -> int | None:
    counted = effort.as_dict()
    for key in ("attempts", "branches", "conflicts"):
        if key in counted:
            return int(counted[key])
    return None
