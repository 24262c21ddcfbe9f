"""Distance heat maps: the number of moves in each cell, coloured by distance."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

import numpy as np

from cpknight.draw.options import DrawArgs, draw_options
from cpknight.draw.palette import BLOCKED, UNREACHABLE

if TYPE_CHECKING:
    from cpknight.results import DistanceMap

from cpknight.draw.canvas import (
    draw_arrows,
    draw_cells,
    draw_highlights,
    draw_labels,
    draw_numbers,
    draw_outline,
    make_layout,
    numbers_fit,
    svg_root,
    svg_text,
)
from cpknight.draw.colours import (
    as_rgb,
    heat_palette,
    text_colour,
)
from cpknight.draw.legend import draw_legend

__all__ = ["distance_map_svg"]


def distance_map_svg(
    dmap: DistanceMap,
    *,
    numbers: bool | None = None,
    **drawing: Unpack[DrawArgs],
) -> str:
    """Draw a distance map as a heat map with the number of moves in each cell.

    Light cells are near the source, dark ones far. The source has a red
    outline; unreachable cells are white with a dash; blocked cells are
    near-black. Each number is black or white, whichever contrasts more with
    its cell (WCAG relative luminance). A legend sits under the board.

    Args:
        dmap: the distance map.
        numbers: draw the numbers in cells (default: when they are readable).
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.api import distance_map
        >>> root = ET.fromstring(distance_map_svg(distance_map("3x3", "a1")))
        >>> texts = root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']")
        >>> sorted(t.text for t in texts)
        ['0', '1', '1', '2', '2', '3', '3', '4', '–']
    """
    board = dmap.board
    array = np.asarray(dmap.array)
    mask = board.open_mask
    reach = array >= 0
    top = max(int(array.max()), 0)
    palette = heat_palette(top)
    colours = np.empty((*board.shape, 3), dtype=np.uint8)
    colours[...] = BLOCKED
    colours[mask & ~reach] = UNREACHABLE
    colours[reach] = palette[array[reach]]
    options = draw_options(board, numbers=numbers, **drawing)
    lay = make_layout(board, options, legend=True, notes=1)
    source = board.cell_name(dmap.source)
    root = svg_root(
        lay,
        f"{dmap.piece.label} distances on {board.label} from {source}: "
        f"{dmap.n_reachable} of {board.n_open} cells reachable, at most {top} moves",
    )
    draw_cells(root, lay, colours, "cell")
    draw_labels(root, lay)
    draw_highlights(root, lay)
    if numbers_fit(lay, len(str(top))):
        cells = np.argwhere(mask)
        values = array[tuple(cells.T)]
        texts = [str(int(v)) if v >= 0 else "–" for v in values]
        fills = [
            text_colour(tuple(int(x) for x in colours[tuple(c)]))
            if v >= 0
            else "#666666"
            for c, v in zip(cells, values, strict=True)
        ]
        draw_numbers(root, lay, cells, texts, fills, halo=False)
    seen = bool(lay.inside(np.array([dmap.source]))[0])  # not cropped away
    if seen:
        draw_outline(root, lay, dmap.source, lay.options.theme.source, "source")
    draw_arrows(root, lay)
    shown = sorted({round(top * i / 9) for i in range(10)}) if top else [0]
    items = [(as_rgb(palette[v]), str(v)) for v in shown]
    if (mask & ~reach).any():
        items.append((UNREACHABLE, "unreachable"))
    if board.blocked:
        items.append((BLOCKED, "blocked"))
    draw_legend(
        root,
        lay,
        "moves:",
        items,
        scale=len(shown),
        notes=[
            f"numbers: the fewest moves from {source}"
            + (" (outlined)" if seen else "")
            + ("; –: unreachable" if (mask & ~reach).any() else "")
        ],
    )
    return svg_text(root)
