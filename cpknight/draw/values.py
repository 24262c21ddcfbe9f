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
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Unpack

import numpy as np

from cpknight.board import Board, Cell
from cpknight.draw.animate import (
    animate_steps,
    check_animation,
    check_speed,
    walk_drawing,
    walk_options,
)
from cpknight.draw.canvas import (
    MIN_LABEL_PX,
    attr_num,
    chessboard,
    draw_numbers,
    draw_ring,
    make_layout,
    mark_ends,
    number_font,
    stroke_width,
    svg_text,
)
from cpknight.draw.colours import BLOCKED, PATH, SOURCE, heat_palette
from cpknight.draw.options import (
    DrawArgs,
    DrawOptions,
    ViewArgs,
    draw_options,
    parse_crop,
)
from cpknight.draw.palette import RGB, rgb
from cpknight.draw.png import png_bytes
from cpknight.draw.tour import draw_visits, legend_below
from cpknight.errors import InvalidInputError

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.pieces import Leaper, MoveGraph
    from cpknight.results import Distance, Tour

__all__ = [
    "GRAPH_LIMIT",
    "PNG_SIDE",
    "distance_animation_svg",
    "distance_svg",
    "graph_svg",
    "leaper_svg",
    "tour_png",
]

GRAPH_LIMIT = 4096
"""Boards with more cells than this get no move-graph picture (a grey blur)."""

PNG_SIDE = 800
"""The longest side, in pixels, of a huge tour's PNG (cells sampled to fit)."""


def distance_svg(
    distance: Distance,
    *,
    numbers: bool | None = None,
    **drawing: Unpack[DrawArgs],
) -> str:
    """A distance: its shortest path drawn and numbered from 0, or its two ends.

    The path is drawn as a route's (:func:`~cpknight.draw.tour.route_svg`):
    each cell on it shows the number of moves from the source (0) to it,
    inside the source's ring (the theme's start colour) and the target's (its
    end colour); a legend says which is which. A method that gives no path
    (the knight's formula) shows the two ends only. Where the numbers would
    be under :data:`~cpknight.draw.canvas.MIN_LABEL_PX` pixels, the picture
    is cropped to the path and two cells around it (unless ``crop`` is
    given); on the unbounded plane it is a window around the path (``crop``
    chooses it), without coordinates.

    Args:
        distance: the answer.
        numbers: draw the step numbers (default: when they are readable).
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import knight_distance
        >>> d = knight_distance("5x5", "a1", "e5", method="ip")
        >>> root = ET.fromstring(distance_svg(d))
        >>> root.find("{http://www.w3.org/2000/svg}title").text
        'a1 -> e5 on 5x5 (knight (1,2)): 4 moves (ip, exact)'
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> [t.text for t in root.findall(f".//{ns}text[@class='num']")]
        ['0', '1', '2', '3', '4']
    """
    board, array, given = _drawn(distance, drawing)
    options = draw_options(board, numbers=numbers, **given)
    notes = []
    window = _path_window(board, options, array)
    if window is not None:
        options = replace(options, crop=window)
        corners = ":".join(board.cell_name(c) for c in window)
        notes.append(
            f"cropped to the path: {corners} of {board.label} (--crop chooses)"
        )
    lay, root = chessboard(board, options, _distance_title(distance))
    if distance.board.unbounded:
        notes.append("a window of the unbounded plane (the title names the ends)")
    theme = lay.options.theme
    items: list[tuple[RGB, str]] = []
    if distance.path is not None:
        items.append((rgb(theme.path), "moves"))
        if draw_visits(root, lay, distance.piece, array, "path"):
            notes.insert(0, "numbers: the moves from the source (0) to each cell")
        else:
            notes.insert(0, "numbers left out, too small to read: --crop a window")
    else:
        mark_ends(root, lay, array)
        notes.insert(
            0, f"method {distance.method} gives the number of moves, not a path"
        )
    items += [(rgb(theme.start), "source (ring)"), (rgb(theme.end), "target (ring)")]
    legend_below(root, lay, items, notes)
    return svg_text(root)


def distance_animation_svg(
    distance: Distance,
    *,
    speed: float = 4.0,
    **drawing: Unpack[ViewArgs],
) -> str:
    """An animated SVG of the knight walking a distance's path, a move at a time.

    As :func:`~cpknight.draw.tour_animation_svg`: the source and the target
    ringed, each move's line and the number of moves so far (0 on the
    source) appearing as the knight lands, drawn above the knight so that it
    never hides one; the picture holds at the end and starts again.

    Args:
        distance: an answer with a path (of at most
            :data:`~cpknight.draw.ANIMATION_LIMIT` cells).
        speed: moves per second.
        **drawing: the size, orientation and colours
            (:class:`~cpknight.draw.options.ViewArgs`).

    Returns:
        The SVG document: one ``<g class="step">`` per move.

    Raises:
        InvalidInputError: no path (the formula gives none), a path too long,
            or a speed that is not positive.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import knight_distance
        >>> text = distance_animation_svg(knight_distance("8x8", "a1", "h8"))
        >>> root = ET.fromstring(text)
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='step']"))
        6
    """
    speed = check_speed(speed)
    if distance.path is None:
        raise InvalidInputError(
            f"method {distance.method!r} gives the number of moves, not a path: "
            "nothing to animate (the other methods give one)"
        )
    check_animation(len(distance.path), speed)
    board, array, view = _drawn(distance, dict(drawing))
    root, steps, knight, centres = walk_drawing(
        board,
        distance.piece,
        array,
        closed=False,
        title=_distance_title(distance),
        options=walk_options(board, **view),
        numbered=True,
        origin=0,
        target=True,
    )
    animate_steps(steps, knight, centres, speed)
    return svg_text(root)


def _distance_title(distance: Distance) -> str:
    kind = "exact" if distance.exact else "a lower bound"
    return (
        f"{distance.board.cell_name(distance.source)} -> "
        f"{distance.board.cell_name(distance.target)} on {distance.board.label} "
        f"({distance.piece.label}): {distance.distance} moves ({distance.method}, "
        f"{kind})"
    )


def _drawn(
    distance: Distance, drawing: Mapping[str, Any]
) -> tuple[Board, npt.NDArray[np.int64], dict[str, Any]]:
    """The board to draw, the path on it (or the two ends), the options.

    On the unbounded plane, a window: the crop given, or the path (with the
    highlighted cells and arrows) and two cells around it; the path, the
    highlights and the arrows moved into it.
    """
    board = distance.board
    cells = distance.path or (distance.source, distance.target)
    array = np.asarray(cells, dtype=np.int64).reshape(-1, board.dim)
    options = dict(drawing)
    if not board.unbounded:
        return board, array, options
    highlight = [board.parse_cell(c) for c in options.pop("highlight", ())]
    arrows = [tuple(map(board.parse_cell, a)) for a in options.pop("arrows", ())]
    crop = options.pop("crop", None)
    if crop is not None:
        corners = parse_crop(board, crop) if isinstance(crop, str) else crop
        window = np.array([board.parse_cell(c) for c in corners], dtype=np.int64)
        low, high = window.min(axis=0), window.max(axis=0)
    else:
        marks = [array, *(np.array(c, dtype=np.int64)[None] for c in highlight)]
        marks += [np.array(a, dtype=np.int64) for a in arrows]
        every = np.concatenate(marks)
        low, high = every.min(axis=0) - 2, every.max(axis=0) + 2
    window_board = Board(tuple(int(x) for x in high - low + 1))
    options["coordinates"] = False  # a window's letters would lie

    def moved(cell: Sequence[int]) -> tuple[int, ...]:
        return tuple(int(x) for x in np.asarray(cell) - low)

    if highlight:
        inside = window_board.shape
        options["highlight"] = [
            moved(c)
            for c in highlight
            if all(0 <= v < n for v, n in zip(moved(c), inside, strict=True))
        ]
    if arrows:
        options["arrows"] = [(moved(a), moved(b)) for a, b in arrows]
    return window_board, array - low, options


def _path_window(
    board: Board, options: DrawOptions, array: npt.NDArray[np.int64]
) -> tuple[Cell, Cell] | None:
    """The crop to the path and two cells around it, where numbers are too small.

    ``None`` when a crop or a cell size is given, the board is not 2D, the
    numbers are readable on the whole board (at least
    :data:`~cpknight.draw.canvas.MIN_LABEL_PX`), or the window would be the
    whole board.
    """
    if options.crop is not None or options.cell_size is not None or board.dim != 2:
        return None
    digits = len(str(len(array) - 1))
    if number_font(make_layout(board, options).s, digits) >= MIN_LABEL_PX:
        return None
    low = np.maximum(array.min(axis=0) - 2, 0)
    high = np.minimum(array.max(axis=0) + 2, np.array(board.shape) - 1)
    if int(np.prod(high - low + 1)) >= board.size:
        return None
    return (int(low[0]), int(low[1])), (int(high[0]), int(high[1]))


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
