"""Pictures of more values: a distance's path, a move graph, a leaper's moves.

And a huge tour as a small PNG.

These back the ``_repr_svg_`` / ``_repr_png_`` methods of
:class:`~cpknight.results.Distance`, :class:`~cpknight.pieces.MoveGraph`,
:class:`~cpknight.pieces.Leaper` and :class:`~cpknight.results.Tour`, built
from the canvas helpers every picture shares.

Examples:
    >>> import xml.etree.ElementTree as ET
    >>> from cpknight import knight_distance
    >>> root = ET.fromstring(distance_svg(knight_distance("8x8", "a1", "b2")))
    >>> len(root.findall(".//{http://www.w3.org/2000/svg}text[@class='num']"))
    5
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import Board
from cpknight.draw.canvas import (
    attr_num,
    chessboard,
    draw_numbers,
    draw_ring,
    mark_ends,
    stroke_width,
    svg_text,
)
from cpknight.draw.colours import BLOCKED, PATH, SOURCE, heat_palette
from cpknight.draw.png import png_bytes
from cpknight.draw.walk import draw_walk

if TYPE_CHECKING:
    from cpknight.pieces import Leaper, MoveGraph
    from cpknight.results import Distance, Tour

__all__ = [
    "GRAPH_LIMIT",
    "PNG_SIDE",
    "distance_svg",
    "graph_svg",
    "leaper_svg",
    "tour_png",
]

GRAPH_LIMIT = 4096
"""Boards with more cells than this get no move-graph picture (a grey blur)."""

PNG_SIDE = 800
"""The longest side, in pixels, of a huge tour's PNG (cells sampled to fit)."""


def distance_svg(distance: Distance, *, cell_size: float | None = None) -> str:
    """A distance: its shortest path drawn and numbered from 0, or its two ends.

    A method that gives no path (the move-count IP) shows the source (green
    ring) and the target (red ring) only; the title says the number of moves
    and whether it is exact or a lower bound.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import knight_distance
        >>> d = knight_distance("5x5", "a1", "e5", method="ip")
        >>> ET.fromstring(distance_svg(d)).find("{http://www.w3.org/2000/svg}title").text
        'a1 -> e5 on 5x5 (knight (1,2)): 4 moves (ip, exact)'
    """
    board = distance.board
    if board.unbounded:
        cells = np.array([distance.source, distance.target], dtype=np.int64)
        low = cells.min(axis=0) - 2
        board = Board(tuple(int(x) for x in cells.max(axis=0) - low + 3))
        shift = low
    else:
        shift = np.zeros(board.dim, dtype=np.int64)
    kind = "exact" if distance.exact else "a lower bound"
    title = (
        f"{_name(distance.board, distance.source)} -> "
        f"{_name(distance.board, distance.target)} on {distance.board.label} "
        f"({distance.piece.label}): {distance.distance} moves ({distance.method}, "
        f"{kind})"
    )
    lay, root = chessboard(board, cell_size, title)
    if distance.board.unbounded:  # a window on the plane: its letters would lie
        for group in root.findall("g[@class='coordinates']"):
            root.remove(group)
    if distance.path is not None and len(distance.path) > 1:
        array = np.asarray(distance.path, dtype=np.int64) - shift
        draw_walk(root, lay, "path", array, distance.piece, closed=False)
        mark_ends(root, lay, array)
        if lay.numbers:
            labels = [str(i) for i in range(len(array))]
            draw_numbers(root, lay, array, labels, ["#111111"] * len(array), halo=True)
    else:
        ends = np.array([distance.source, distance.target], dtype=np.int64) - shift
        mark_ends(root, lay, ends)
    return svg_text(root)


def _name(board: Board, cell: tuple[int, ...]) -> str:
    return board.cell_name(cell)


def graph_svg(graph: MoveGraph, *, cell_size: float | None = None) -> str | None:
    """The move graph: every edge a line, each cell's degree written in it.

    Moves that wrap (on a torus or cylinder) are left out of the drawing (the
    title says how many); boards over :data:`GRAPH_LIMIT` cells get no picture
    (``None``).

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import move_graph
        >>> root = ET.fromstring(graph_svg(move_graph("3x3")))
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> len(root.findall(f".//{ns}line[@class='edge']"))
        8
    """
    board = graph.board
    if board.size > GRAPH_LIMIT:
        return None
    tails, heads = graph.arcs()
    keep = tails < heads
    tails, heads = tails[keep], heads[keep].astype(np.int64)
    a, b = graph.cells[tails], graph.cells[heads]
    moves = b - a
    # a move that wraps is longer than the piece's longest component
    flat = np.abs(moves).max(axis=1, initial=0) <= max(graph.piece.vector)
    wrapped = int((~flat).sum())
    title = (
        f"move graph of the {graph.piece.label} on {board.label}: "
        f"{graph.n_nodes} cells, {graph.n_edges} edges; numbers: each cell's degree"
    )
    if wrapped:
        title += f" ({wrapped} wrapping edges not drawn)"
    lay, root = chessboard(board, cell_size, title)
    group = ET.SubElement(
        root,
        "g",
        {
            "class": "edges",
            "stroke": PATH,
            "stroke-opacity": "0.55",
            "stroke-width": attr_num(stroke_width(lay) * 0.6),
            "stroke-linecap": "round",
        },
    )
    for (x1, y1), (x2, y2) in zip(
        lay.px(a[flat]).tolist(), lay.px(b[flat]).tolist(), strict=True
    ):
        ET.SubElement(
            group,
            "line",
            {
                "class": "edge",
                "x1": attr_num(x1),
                "y1": attr_num(y1),
                "x2": attr_num(x2),
                "y2": attr_num(y2),
            },
        )
    if lay.numbers and graph.n_nodes:
        texts = [str(int(d)) for d in graph.degree]
        draw_numbers(
            root, lay, graph.cells, texts, ["#111111"] * graph.n_nodes, halo=True
        )
    return svg_text(root)


def leaper_svg(leaper: Leaper, *, cell_size: float | None = None) -> str | None:
    """A leaper's moves in the plane: the piece in the centre, a ring where it lands.

    A leaper with more than two non-zero components moves in three or more
    dimensions only: it has no plane picture (``None``).

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.pieces import KNIGHT
        >>> root = ET.fromstring(leaper_svg(KNIGHT))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}circle[@class='lands']"))
        8
    """
    if sum(1 for x in leaper.vector if x) > 2:
        return None
    reach = max(leaper.vector)
    side = 2 * reach + 1
    board = Board((side, side))
    moves = leaper.moves(2)
    lay, root = chessboard(
        board,
        cell_size or min(48.0, 320.0 / side),
        f"the moves of the {leaper.label}: {len(moves)} landing cells",
    )
    centre = np.array([reach, reach], dtype=np.int64)
    group = ET.SubElement(
        root,
        "g",
        {"class": "moves", "stroke": PATH, "stroke-width": attr_num(stroke_width(lay))},
    )
    (cx, cy), *_ = lay.px(centre[None, :]).tolist()
    for x, y in lay.px(centre + moves).tolist():
        ET.SubElement(
            group,
            "line",
            {
                "x1": attr_num(cx),
                "y1": attr_num(cy),
                "x2": attr_num(x),
                "y2": attr_num(y),
            },
        )
    for move in moves.tolist():
        cell = (reach + move[0], reach + move[1])
        draw_ring(root, lay, cell, PATH, "lands")
    draw_ring(root, lay, (reach, reach), SOURCE, "piece")
    return svg_text(root)


def tour_png(tour: Tour, *, side: int = PNG_SIDE) -> bytes:
    """A huge tour as a small PNG: each cell coloured by when it is visited.

    The colour runs along a light-to-dark scale from the first cell to the
    last; blocked cells are dark grey. Boards with more than ``side`` cells
    on an axis are shrunk (a pixel is the mean visit time of a k x k block),
    so the image stays small. 3D and higher boards show their first layer.

    Examples:
        >>> from cpknight import find_tour
        >>> png = tour_png(find_tour("6x6", method="prune"))
        >>> png[1:4], len(png) < 2000
        (b'PNG', True)
    """
    order = tour.order()
    while order.ndim > 2:
        order = order[0]
    if order.ndim == 1:
        order = order[None, :]
    step = max(1, -(-max(order.shape) // side))
    rows, cols = (-(-n // step) * step for n in order.shape)
    padded = np.zeros((rows, cols), dtype=np.float64)
    padded[: order.shape[0], : order.shape[1]] = order[::-1]  # top rank first
    blocks = padded.reshape(rows // step, step, cols // step, step)
    visited = (blocks > 0).sum(axis=(1, 3))
    mean = blocks.sum(axis=(1, 3)) / np.maximum(visited, 1)  # each block's mean
    palette = heat_palette(255).astype(np.uint8)
    index = (mean * (len(palette) - 1) / max(1, len(tour))).astype(np.int64)
    rgba = np.empty((*mean.shape, 4), dtype=np.uint8)
    rgba[..., :3] = palette[np.clip(index, 0, len(palette) - 1)]
    rgba[..., 3] = 255
    rgba[visited == 0, :3] = BLOCKED
    return png_bytes(rgba)
