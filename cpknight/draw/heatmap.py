"""Distance heat maps: the number of moves in each cell, coloured by distance."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from cpknight.results import DistanceMap

from cpknight.draw.canvas import (
    draw_cells,
    draw_labels,
    draw_legend,
    draw_numbers,
    draw_outline,
    make_layout,
    svg_root,
    svg_text,
)
from cpknight.draw.colours import (
    BLOCKED,
    SOURCE,
    UNREACHABLE,
    as_rgb,
    heat_palette,
    text_colour,
)

__all__ = ["distance_map_svg"]


def distance_map_svg(dmap: DistanceMap, *, cell_size: float | None = None) -> str:
    """Draw a distance map as a heat map with the number of moves in each cell.

    Light cells are near the source, dark ones far. The source has a red
    outline; unreachable cells are white with a dash; blocked cells are
    near-black. Each number is black or white, whichever contrasts more with
    its cell (WCAG relative luminance). A legend sits under the board.

    Args:
        dmap: the distance map.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

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
    lay = make_layout(board, cell_size, legend=True)
    source = board.cell_name(dmap.source)
    root = svg_root(
        lay,
        f"{dmap.piece.label} distances on {board.label} from {source}: "
        f"{dmap.n_reachable} of {board.n_open} cells reachable, at most {top} moves",
    )
    draw_cells(root, lay, colours, "cell")
    draw_labels(root, lay)
    if lay.numbers:
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
    draw_outline(root, lay, dmap.source, SOURCE, "source")
    shown = sorted({round(top * i / 9) for i in range(10)}) if top else [0]
    items = [(as_rgb(palette[v]), str(v)) for v in shown]
    if (mask & ~reach).any():
        items.append((UNREACHABLE, "unreachable"))
    if board.blocked:
        items.append((BLOCKED, "blocked"))
    draw_legend(root, lay, "moves:", items)
    return svg_text(root)
