"""The canvas every picture draws on: layout, squares, labels, numbers, rings.

Boards show the top rank at the top and a1 at the bottom left, with file
letters and rank numbers on 2D boards of up to 26 files. 3D (and higher) boards
draw as their 2D layers side by side, each headed by its leading coordinates.
Past :data:`LABEL_LIMIT` cells the coordinates are dropped; numbers are drawn
only where their font is at least :data:`MIN_FONT_PX` (the font follows the
cell: :func:`number_font`); past :data:`CELL_LIMIT` cells the cells are one
embedded image (one pixel per cell). :class:`~cpknight.draw.options.DrawOptions`
flips the board, crops it to a window, themes it, highlights cells and draws
arrows.
"""

from __future__ import annotations

import base64
import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import FILES, Board, Cell
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.pieces import Leaper
    from cpknight.results import Tour
    from cpknight.status import Effort

from cpknight.draw.colours import (
    chess_colours,
    hex_colour,
)
from cpknight.draw.options import DrawOptions
from cpknight.draw.png import png_bytes

__all__ = ["ANIMATION_LIMIT", "CELL_LIMIT", "LABEL_LIMIT", "MIN_FONT_PX"]

SVG_NS = "http://www.w3.org/2000/svg"

LABEL_LIMIT = 4096
"""Boards (or crops) with more cells than this are drawn without coordinates."""

MIN_FONT_PX = 7.0
"""The smallest font a number in a cell is drawn with, in CSS pixels (1/96 inch).

7 px at 96 dpi is 5.25 points, about the smallest print a slide or a screen
at 100 % zoom still shows as digits; a number whose font, sized to its cell
(:func:`number_font`), would be smaller is left out unless numbers are forced.
"""

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
    row0: int = 0
    col0: int = 0
    flipped: bool = False
    options: DrawOptions = field(default_factory=DrawOptions)
    numbers_forced: bool | None = None

    @property
    def units(self) -> tuple[int, int]:
        """The drawing's width and height in cells, gaps included."""
        w = self.panel_cols * self.cols + (self.panel_cols - 1) * self.gap
        h = self.panel_rows * self.rows + (self.panel_rows - 1) * self.gap
        return w, h

    def unit_xy(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``(n, 2)`` top-left corners in cell units (x right, y down).

        Cells outside a crop get corners outside the drawing; a flipped board
        puts rank 1 at the top and the last file at the left.
        """
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, self.board.dim)
        dim = self.board.dim
        if dim == 1:
            x = cells[:, 0] - self.col0
            if self.flipped:
                x = self.cols - 1 - x
            return np.stack([x, np.zeros(len(cells), np.int64)], axis=1)
        r, c = cells[:, -2] - self.row0, cells[:, -1] - self.col0
        x, y = (self.cols - 1 - c, r) if self.flipped else (c, self.rows - 1 - r)
        if dim == 2:
            return np.stack([x, y], axis=1)
        lead = np.ravel_multi_index(tuple(cells[:, :-2].T), self.board.shape[:-2])
        pc, pr = lead % self.panel_cols, lead // self.panel_cols
        return np.stack(
            [pc * (self.cols + self.gap) + x, pr * (self.rows + self.gap) + y], axis=1
        )

    def unit_vectors(self, moves: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``(n, 2)`` moves (row, col steps of 2D cells) in drawing units."""
        sign = -1 if self.flipped else 1
        return np.stack([sign * moves[:, -1], -sign * moves[:, -2]], axis=1)

    def inside(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Which cells fall in the drawn window (all of them without a crop)."""
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, self.board.dim)
        if self.options.crop is None:
            return np.ones(len(cells), dtype=bool)
        (r0, c0), (r1, c1) = self.options.crop
        r, c = cells[:, -2], cells[:, -1]
        out: npt.NDArray[np.bool_] = (r >= r0) & (r <= r1) & (c >= c0) & (c <= c1)
        return out

    def box(self) -> tuple[float, float, float, float]:
        """The whole board's box in cell units (x0, y0, x1, y1), crop or not."""
        rows, cols = self.board.shape[-2:] if self.board.dim >= 2 else (1, self.cols)
        if self.flipped:
            x0, y0 = self.col0 + self.cols - cols, -self.row0
        else:
            x0, y0 = -self.col0, self.row0 + self.rows - rows
        return float(x0), float(y0), float(x0 + cols), float(y0 + rows)

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
    options: DrawOptions | float | None = None,
    *,
    numbers: bool | None = None,
    legend: bool = False,
    notes: int = 0,
) -> Layout:
    """Where everything goes: the cells (cropped, flipped), labels, a legend.

    ``options`` may be just a cell size (pixels, or ``None``), and ``numbers``
    overrides the options' own. ``legend`` leaves a row of swatches under the
    board, and ``notes`` lines of text under it (what the numbers in cells
    are). ``Layout.numbers`` says whether numbers as long as the window's cell
    count are readable (or forced); :func:`numbers_fit` asks for other lengths.
    """
    board.require_finite("a drawing")
    opts = as_options(options, numbers)
    dim = board.dim
    rows, cols = (board.shape[-2], board.shape[-1]) if dim >= 2 else (1, board.shape[0])
    row0 = col0 = 0
    if opts.crop is not None:
        (row0, col0), (r1, c1) = opts.crop
        rows, cols = r1 - row0 + 1, c1 - col0 + 1
    panel_cols = board.shape[-3] if dim >= 3 else 1
    panel_rows = math.prod(board.shape[:-3]) if dim >= 4 else 1
    size = rows * cols * panel_cols * panel_rows

    def units(gap: int) -> tuple[int, int]:
        return (
            panel_cols * cols + (panel_cols - 1) * gap,
            panel_rows * rows + (panel_rows - 1) * gap,
        )

    s, gap = _cell_px_and_gap(opts.cell_size, dim, units)
    labels = (
        opts.coordinates
        and dim == 2
        and col0 + cols <= len(FILES)
        and size <= LABEL_LIMIT
    )
    label_px = label_font(s)
    left = (label_px * (len(str(row0 + rows)) * 0.7 + 0.8)) if labels else 6.0
    top = 6.0 + (22.0 if dim >= 3 else 0.0)
    w_units, h_units = units(gap)
    bottom = (label_px * 1.6) if labels else 6.0
    legend_y = top + h_units * s + bottom + 4
    below = (30.0 if legend else 0.0) + 16.0 * notes
    width = max(left + w_units * s + 6.0, 330.0 if legend or notes else 0.0)
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
        height=float(legend_y + below if below else legend_y - 4),
        labels=labels,
        numbers=(
            opts.numbers
            if opts.numbers is not None
            else number_font(s, len(str(size))) >= MIN_FONT_PX
        ),
        vector=size <= CELL_LIMIT,
        legend_y=legend_y,
        row0=row0,
        col0=col0,
        flipped=opts.flipped,
        options=opts,
        numbers_forced=opts.numbers,
    )


def as_options(
    options: DrawOptions | float | None, numbers: bool | None = None
) -> DrawOptions:
    """Options from options, or from a bare cell size; ``numbers`` if given wins."""
    if not isinstance(options, DrawOptions):
        options = DrawOptions(cell_size=options)
    if numbers is not None:
        options = replace(options, numbers=numbers)
    return options


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
    board: Board,
    options: DrawOptions | float | None,
    title: str,
    *,
    numbers: bool | None = None,
    legend: bool = False,
    notes: int = 0,
) -> tuple[Layout, ET.Element]:
    """The layout and a drawing of the checkered board: coordinates, highlights.

    ``options`` may be just a cell size (pixels, or ``None`` to fit).
    """
    lay = make_layout(board, options, numbers=numbers, legend=legend, notes=notes)
    root = svg_root(lay, title)
    draw_cells(root, lay, chess_colours(board, lay.options.theme), "cell")
    draw_labels(root, lay)
    draw_highlights(root, lay)
    return lay, root


def board_drawing(
    board: Board, options: DrawOptions | None
) -> tuple[Layout, ET.Element]:
    """The drawing of :func:`board_svg`: the board, its highlights and arrows."""
    lay, root = chessboard(
        board, options, f"board {board.label}: {board.n_open} open cells"
    )
    draw_arrows(root, lay)
    return lay, root


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
    cells = np.argwhere(np.ones(board.shape, dtype=bool))
    keep = lay.inside(cells)
    cells, flat = cells[keep], colours.reshape(-1, 3)[keep]
    if not lay.vector:
        draw_image(root, lay, cells, flat, "cells")
        return
    group = ET.SubElement(
        root, "g", {"class": "cells", "shape-rendering": "crispEdges"}
    )
    mask = board.open_mask
    corners = lay.unit_xy(cells) * lay.s + np.array([lay.left, lay.top])
    size = attr_num(lay.s)
    for cell, (x, y), colour in zip(
        cells.tolist(), corners.tolist(), flat.tolist(), strict=True
    ):
        ET.SubElement(
            group,
            "rect",
            {
                "class": kind if mask[tuple(cell)] else "blocked",
                "x": attr_num(x),
                "y": attr_num(y),
                "width": size,
                "height": size,
                "fill": hex_colour(colour),
            },
        )


def draw_image(
    root: ET.Element,
    lay: Layout,
    cells: npt.NDArray[np.int64],
    colours: npt.NDArray[np.uint8],
    kind: str,
) -> ET.Element:
    """The cells as one embedded PNG, one pixel per cell, scaled to the layout."""
    w_units, h_units = lay.units
    image = np.zeros((h_units, w_units, 4), dtype=np.uint8)
    xy = lay.unit_xy(cells)
    image[xy[:, 1], xy[:, 0], :3] = colours
    image[xy[:, 1], xy[:, 0], 3] = 255
    return ET.SubElement(
        root,
        "image",
        {
            "class": kind,
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
    font = label_font(lay.s)
    if lay.board.dim >= 3:
        heading = max(MIN_LABEL_PX, min(14.0, lay.s * 0.5, (lay.gap * lay.s) * 0.7))
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
            "fill": lay.options.theme.label,
            "text-anchor": "middle",
        },
    )
    bottom = lay.top + lay.rows * lay.s
    for c in range(lay.cols):
        x = lay.cols - 1 - c if lay.flipped else c
        text = ET.SubElement(
            group,
            "text",
            {
                "x": attr_num(lay.left + (x + 0.5) * lay.s),
                "y": attr_num(bottom + font * 1.15),
            },
        )
        text.text = FILES[lay.col0 + c]
    for r in range(lay.rows):
        y = r if lay.flipped else lay.rows - 1 - r
        text = ET.SubElement(
            group,
            "text",
            {
                "x": attr_num(lay.left / 2),
                "y": attr_num(lay.top + (y + 0.5) * lay.s),
                "dy": "0.35em",
            },
        )
        text.text = str(lay.row0 + r + 1)


MIN_LABEL_PX = 11.0
"""The smallest font of any words or coordinates in a picture (CSS pixels)."""


def label_font(cell_px: float) -> float:
    """The font of the file letters and rank numbers: a third of a cell, 11-14 px."""
    return max(MIN_LABEL_PX, min(14.0, cell_px * 0.32))


def number_font(cell_px: float, longest: int) -> float:
    """The font size (pixels) of numbers of ``longest`` characters in a cell.

    About half the cell for one digit, shrinking so that the longest number
    fits across the cell.

    Examples:
        >>> number_font(48, 2), number_font(10, 4)
        (20.16, 2.7)
    """
    share = {1: 0.46, 2: 0.42, 3: 0.34, 4: 0.27}.get(longest, 1.1 / max(longest, 1))
    return round(cell_px * share, 2)


def numbers_fit(lay: Layout, longest: int) -> bool:
    """Whether to draw numbers of ``longest`` characters: forced, or readable.

    ``numbers=True`` draws them at any size, ``False`` never; by default they
    are drawn when their font is at least :data:`MIN_FONT_PX`.
    """
    if lay.numbers_forced is not None:
        return lay.numbers_forced
    return number_font(lay.s, longest) >= MIN_FONT_PX


def draw_numbers(
    root: ET.Element,
    lay: Layout,
    cells: npt.NDArray[np.int64],
    texts: Sequence[str],
    fills: Sequence[str],
    *,
    halo: bool,
) -> list[ET.Element]:
    """One ``<text class="num">`` per cell in the window, sized to its longest text.

    Draws nothing when the font would be under :data:`MIN_FONT_PX` (unless
    numbers are forced): see :func:`numbers_fit`.
    """
    longest = max((len(t) for t in texts), default=1)
    if not numbers_fit(lay, longest):
        return []
    font = number_font(lay.s, longest)
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, lay.board.dim)
    keep = lay.inside(cells).tolist()
    places = [
        (x, y, text, fill)
        for (x, y), text, fill, shown in zip(
            lay.px(cells).tolist(), texts, fills, keep, strict=True
        )
        if shown
    ]
    attrs = {"font-size": attr_num(font), "text-anchor": "middle"}
    if halo:
        # A white outline under each number, drawn as a copy beneath it (not
        # paint-order, which some renderers, CairoSVG among them, ignore).
        under = ET.SubElement(
            root,
            "g",
            {
                "class": "halos",
                **attrs,
                "fill": "#ffffff",
                "stroke": "#ffffff",
                "stroke-width": attr_num(max(1.0, font * 0.22)),
                "stroke-linejoin": "round",
            },
        )
        for x, y, text, _ in places:
            element = ET.SubElement(
                under,
                "text",
                {"x": attr_num(x), "y": attr_num(y), "dy": "0.35em"},
            )
            element.text = text
    group = ET.SubElement(root, "g", {"class": "numbers", **attrs})
    out = []
    for x, y, text, fill in places:
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
    root: ET.Element,
    lay: Layout,
    cell: Cell,
    colour: str,
    kind: str,
    share: float = 0.4,
) -> ET.Element:
    """A ring round a cell, ``share`` of the cell's side in radius."""
    (x, y), *_ = lay.px(np.array([cell])).tolist()
    width = attr_num(max(1.5, min(3.5, lay.s * 0.08)))
    paint = {"fill": "none", "stroke": colour, "stroke-width": width}
    return svg_circle(root, kind, x, y, max(3.0, lay.s * share), paint)


def svg_circle(
    parent: ET.Element,
    kind: str,
    x: float,
    y: float,
    radius: float,
    paint: dict[str, str] | None = None,
) -> ET.Element:
    """A circle of class ``kind`` centred on (x, y), with its ``paint`` attributes.

    Examples:
        >>> root = ET.Element("svg")
        >>> svg_circle(root, "dot", 1, 2.5, 3, {"fill": "red"}).attrib["cy"]
        '2.5'
    """
    centre = {"class": kind, "cx": attr_num(x), "cy": attr_num(y)}
    return ET.SubElement(
        parent, "circle", {**centre, "r": attr_num(radius), **(paint or {})}
    )


def cell_square(
    parent: ET.Element,
    lay: Layout,
    x: float,
    y: float,
    kind: str,
    paint: dict[str, str] | None = None,
) -> ET.Element:
    """A square of class ``kind``, one cell in size, centred on (x, y)."""
    half = lay.s / 2
    corner = {"class": kind, "x": attr_num(x - half), "y": attr_num(y - half)}
    side = attr_num(lay.s)
    return ET.SubElement(
        parent, "rect", {**corner, "width": side, "height": side, **(paint or {})}
    )


RING_SHARE = 0.44
"""The radius of the first and last cells' rings, in cells: a number drawn in
the cell (:func:`number_font`, at most 0.7 of the cell wide) fits inside."""


def mark_ends(root: ET.Element, lay: Layout, array: npt.NDArray[np.int64]) -> None:
    """A ring on the first cell (the theme's start), another on the last (end).

    Both rings have the radius :data:`RING_SHARE`, so a number in the cell
    stays inside; when the walk ends where it started, the one ring is half
    the start's colour (the top), half the end's (the bottom).
    """
    theme = lay.options.theme
    first, last = (tuple(int(x) for x in array[i]) for i in (0, -1))
    half = math.pi * max(3.0, lay.s * RING_SHARE)  # half the circumference
    for cell, colour, kind in ((first, theme.start, "start"), (last, theme.end, "end")):
        if not lay.inside(np.array([cell]))[0]:
            continue
        ring = draw_ring(root, lay, cell, colour, kind, RING_SHARE)
        if first == last:  # a dash from 3 o'clock: the end's half, then the start's
            ring.set("stroke-dasharray", f"{attr_num(half, 3)} {attr_num(half, 3)}")
            if kind == "start":
                ring.set("stroke-dashoffset", attr_num(half, 3))


def draw_food(root: ET.Element, lay: Layout, food: Sequence[Sequence[int]]) -> None:
    """An outline, in the theme's food colour, on each food cell in the window."""
    for cell in food:
        key = tuple(int(x) for x in cell)
        if lay.inside(np.array([key]))[0]:
            draw_outline(root, lay, key, lay.options.theme.food, "food")


def draw_highlights(root: ET.Element, lay: Layout) -> None:
    """The highlighted cells, filled with the theme's highlight colour."""
    cells = [c for c in lay.options.highlight if lay.inside(np.array([c]))[0]]
    if not cells:
        return
    group = ET.SubElement(
        root,
        "g",
        {
            "class": "highlights",
            "fill": lay.options.theme.highlight,
            "fill-opacity": "0.75",
        },
    )
    for x, y in lay.px(np.array(cells, dtype=np.int64)).tolist():
        cell_square(group, lay, x, y, "highlight")


def draw_arrows(root: ET.Element, lay: Layout) -> None:
    """Each arrow of the options: a line from one cell's centre, a head at the other.

    Cells are drawn where they are, crop or not (an arrow out of the window is
    cut at its edge by the picture).
    """
    arrows = lay.options.arrows
    if not arrows:
        return
    colour = lay.options.theme.arrow
    width = max(2.0, lay.s * 0.14)
    group = ET.SubElement(
        root,
        "g",
        {
            "class": "arrows",
            "stroke": colour,
            "fill": colour,
            "stroke-width": attr_num(width),
            "stroke-linecap": "round",
            "opacity": "0.85",
        },
    )
    if lay.options.crop is not None:  # cut at the window's edge
        w_units, h_units = lay.units
        # An id unique to this window's pixels (several pictures may share a page).
        box = (lay.left, lay.top, w_units * lay.s, h_units * lay.s)
        name = "arrows-" + "-".join(attr_num(v).replace(".", "_") for v in box)
        clip = ET.SubElement(ET.SubElement(root, "defs"), "clipPath", {"id": name})
        ET.SubElement(
            clip,
            "rect",
            {
                "x": attr_num(lay.left),
                "y": attr_num(lay.top),
                "width": attr_num(w_units * lay.s),
                "height": attr_num(h_units * lay.s),
            },
        )
        group.set("clip-path", f"url(#{name})")
    for a, b in arrows:
        (ax, ay), (bx, by) = lay.px(np.array([a, b], dtype=np.int64)).tolist()
        length = math.hypot(bx - ax, by - ay)
        if length == 0:
            continue
        ux, uy = (bx - ax) / length, (by - ay) / length
        head = min(length * 0.5, max(6.0, lay.s * 0.35))
        tip_x, tip_y = bx - ux * lay.s * 0.15, by - uy * lay.s * 0.15
        arrow = ET.SubElement(group, "g", {"class": "arrow"})
        svg_arrow(arrow, (ax, ay), (tip_x, tip_y), head)


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


def stroke_width(lay: Layout) -> float:
    return max(0.2, min(3.0, lay.s * 0.07))


# ------------------------------------------------------------------- helpers


def svg_arrow(
    parent: ET.Element,
    tail: tuple[float, float],
    tip: tuple[float, float],
    head: float,
) -> None:
    """A shaft from ``tail`` and a triangular head ``head`` long ending at ``tip``.

    The stroke and fill come from ``parent``; the head is not stroked.
    """
    (ax, ay), (tip_x, tip_y) = tail, tip
    length = math.hypot(tip_x - ax, tip_y - ay) or 1.0
    ux, uy = (tip_x - ax) / length, (tip_y - ay) / length
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    svg_line(parent, ax, base_x, ay, base_y)
    spread = head * 0.55
    points = [
        (tip_x, tip_y),
        (base_x - uy * spread, base_y + ux * spread),
        (base_x + uy * spread, base_y - ux * spread),
    ]
    ET.SubElement(
        parent,
        "polygon",
        {
            "points": " ".join(f"{attr_num(x)},{attr_num(y)}" for x, y in points),
            "stroke": "none",
        },
    )


def svg_line(parent: ET.Element, x1: float, x2: float, y1: float, y2: float) -> None:
    """A straight line from ``(x1, y1)`` to ``(x2, y2)``."""
    ET.SubElement(
        parent,
        "line",
        {
            "x1": attr_num(x1),
            "x2": attr_num(x2),
            "y1": attr_num(y1),
            "y2": attr_num(y2),
        },
    )


def svg_label(
    parent: ET.Element, x: float, y: float, label: str, attrs: dict[str, str]
) -> None:
    """A label at ``x``, ``y``, with more attributes."""
    text = ET.SubElement(parent, "text", {"x": attr_num(x), "y": attr_num(y), **attrs})
    text.text = label


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
