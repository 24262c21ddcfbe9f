"""Drawing a walk of moves (a tour or a route): paths, wrapped moves, layers.

A tour or route is always one ``<path>`` per layer; a move that wraps round a
torus or cylinder is drawn as two stubs, one leaving each edge.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cpknight.board import Board

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.pieces import Leaper

from cpknight.draw.canvas import Layout, attr_num, draw_image, stroke_width, svg_circle
from cpknight.draw.palette import GRADIENT

GRADIENT_BELOW_PX = 2.5
"""Cells smaller than this (pixels) show a tour as a gradient, not as lines.

A knight's move is then under 6 pixels long and the lines, a pixel wide,
touch their neighbours: the path is a grey square. The cells coloured by
their place in the tour (:func:`draw_order`) show where it goes instead.
"""


def _path_group(root: ET.Element, lay: Layout) -> ET.Element:
    """A group drawing in cell units, for paths with a non-scaling stroke.

    Clipped to the window when the board is cropped.
    """
    attrs = {
        "transform": (
            f"translate({attr_num(lay.left)} {attr_num(lay.top)}) "
            f"scale({attr_num(lay.s)})"
        ),
        "fill": "none",
        "stroke": lay.options.theme.path,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
        "stroke-opacity": "0.85",
    }
    if lay.options.crop is not None:
        (r0, c0), (r1, c1) = lay.options.crop
        name = f"crop-{r0}-{c0}-{r1}-{c1}"
        clip = ET.SubElement(ET.SubElement(root, "defs"), "clipPath", {"id": name})
        ET.SubElement(
            clip,
            "rect",
            {"x": "0", "y": "0", "width": str(lay.cols), "height": str(lay.rows)},
        )
        attrs["clip-path"] = f"url(#{name})"
    return ET.SubElement(root, "g", attrs)


# -------------------------------------------------------------------- paths


def move_vectors(
    board: Board, piece_vector: Sequence[int], delta: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The move each step made: the raw difference, unwrapped on wrapping axes.

    A step on a torus from the last file to the first is the move ``+1`` (or
    ``+2``), not ``-7``: among the differences equal modulo each wrapping axis,
    pick the first (the raw one first) whose sorted absolute values are the
    piece's vector.
    """
    if not any(board.wrap) or len(delta) == 0:
        return delta
    want = np.array(
        sorted([0] * (board.dim - len(piece_vector)) + [abs(v) for v in piece_vector]),
        dtype=np.int64,
    )
    axes = [i for i, w in enumerate(board.wrap) if w]
    out = delta.copy()
    done = np.zeros(len(delta), dtype=bool)
    for shifts in itertools.product((0, -1, 1), repeat=len(axes)):
        trial = delta.copy()
        for axis, k in zip(axes, shifts, strict=True):
            trial[:, axis] += k * board.shape[axis]
        ok = ~done & np.all(np.sort(np.abs(trial), axis=1) == want, axis=1)
        out[ok] = trial[ok]
        done |= ok
    return out


def draw_walk(
    root: ET.Element,
    lay: Layout,
    kind: str,
    array: npt.NDArray[np.int64],
    piece: Leaper,
    *,
    closed: bool,
) -> None:
    """The walk's paths: the moves (class ``kind``), between layers, closing."""
    width = stroke_width(lay)

    def unit(px: float) -> str:
        # Widths in cell units (the group scales by the cell size): every
        # renderer draws them alike (CairoSVG has no non-scaling-stroke).
        return attr_num(px / lay.s, 4)

    main, between, closing = _tour_paths(lay, array, piece.vector, closed=closed)
    group = _path_group(root, lay)
    ET.SubElement(
        group,
        "path",
        {
            "class": kind,
            "d": main,
            "stroke-width": unit(width),
        },
    )
    if between is not None:
        # Moves to another layer: dashed, in the theme's arrow colour, at full
        # strength, with a dot where the knight lands.
        colour = lay.options.theme.arrow
        ET.SubElement(
            group,
            "path",
            {
                "class": "between",
                "d": between,
                "stroke": colour,
                "stroke-width": unit(max(1.2, width * 0.8)),
                "stroke-opacity": "1",
                "stroke-dasharray": f"{unit(width * 3)} {unit(width * 2)}",
            },
        )
        _draw_landings(root, lay, array, colour)
    if closing is not None:
        ET.SubElement(
            group,
            "path",
            {
                "class": "closing",
                "d": closing,
                "stroke-width": unit(width),
                "stroke-dasharray": f"{unit(width * 2)} {unit(width * 1.5)}",
            },
        )


def _tour_paths(
    lay: Layout,
    array: npt.NDArray[np.int64],
    vector: Sequence[int],
    *,
    closed: bool,
) -> tuple[str, str | None, str | None]:
    """A walk's paths in cell units: its moves, those between layers, the closing.

    Serves tours and routes alike. On 2D tori and cylinders a move that wraps
    is two stubs; on 3D (and higher) boards the moves from one layer to
    another go in the second path (``None`` if none); the third is the move
    back to the start if ``closed`` (else ``None``).
    """
    units = lay.unit_xy(array)
    head = _move_to(units[0])
    board = lay.board
    moves = move_vectors(board, vector, array[1:] - array[:-1])
    steps = units[1:] - units[:-1]
    between = None
    if board.dim >= 3 and len(array) > 1:
        # Layers side by side: a move to another layer is drawn in a second,
        # fainter path, so the moves within each layer stay readable.
        across = np.any(array[1:, :-2] != array[:-1, :-2], axis=1).tolist()
        parts: list[str] = []
        hops: list[str] = []
        for i, (dx, dy) in enumerate(steps.tolist()):
            if across[i]:
                (ax, ay), (bx, by) = units[i].tolist(), units[i + 1].tolist()
                hops.append(f"M{ax + 0.5} {ay + 0.5}l{dx} {dy}")
                parts.append(f"M{bx + 0.5} {by + 0.5}")
            else:
                parts.append(f"l{dx} {dy}")
        body = "".join(parts)
        between = "".join(hops) or None
    elif lay.options.crop is not None:
        body = _cropped(lay, units, moves, steps, array)
        head = ""
    else:
        body = segments(lay, units, moves, steps, array[1:] - array[:-1])
    main = head + body
    if not closed:
        return main, between, None
    raw = array[:1] - array[-1:]
    back = segments(
        lay,
        np.concatenate([units[-1:], units[:1]]),
        move_vectors(board, vector, raw),
        units[:1] - units[-1:],
        raw,
    )
    return main, between, _move_to(units[-1]) + back


def _cropped(
    lay: Layout,
    units: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    steps: npt.NDArray[np.int64],
    array: npt.NDArray[np.int64],
) -> str:
    """Only the moves with an end in the crop's window, one subpath per run."""
    inside = lay.inside(array)
    keep = (inside[:-1] | inside[1:]).astype(np.int8)
    edges = np.diff(np.concatenate([[0], keep, [0]]))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    parts: list[str] = []
    for i, j in zip(starts.tolist(), stops.tolist(), strict=True):
        parts.append(_move_to(units[i]))
        parts.append(
            segments(
                lay,
                units[i : j + 1],
                moves[i:j],
                steps[i:j],
                array[i + 1 : j + 1] - array[i:j],
            )
        )
    return "".join(parts)


def _draw_landings(
    root: ET.Element, lay: Layout, array: npt.NDArray[np.int64], colour: str
) -> None:
    """A dot on each cell a move from another layer lands on."""
    if len(array) < 2:
        return
    across = np.any(array[1:, :-2] != array[:-1, :-2], axis=1)
    landed = array[1:][across]
    group = ET.SubElement(root, "g", {"class": "landings", "fill": colour})
    radius = max(1.5, lay.s * 0.09)
    for x, y in lay.px(landed).tolist():
        svg_circle(group, "landing", x + lay.s * 0.28, y - lay.s * 0.28, radius)


def _move_to(unit: npt.NDArray[np.int64]) -> str:
    """``M x y`` to the centre of the cell whose top-left corner is ``unit``."""
    x, y = unit.astype(np.float64) + 0.5
    return f"M{attr_num(x)} {attr_num(y)}"


def segments(
    lay: Layout,
    units: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    steps: npt.NDArray[np.int64],
    raw: npt.NDArray[np.int64],
) -> str:
    """Relative path commands: ``l dx dy`` per move; a wrapped move as two stubs."""
    if len(steps) == 0:
        return ""
    wrapped = np.any(moves != raw, axis=1)
    if not wrapped.any() or lay.board.dim != 2:
        return "l" + " ".join(f"{dx} {dy}" for dx, dy in steps.tolist())
    parts: list[str] = []
    pending: list[str] = []
    for i, (dx, dy) in enumerate(steps.tolist()):
        if not wrapped[i]:
            pending.append(f"{dx} {dy}")
            continue
        if pending:
            parts.append("l" + " ".join(pending))
            pending = []
        # The move in drawing units (+x right, +y down; flipped or not).
        vx, vy = (int(v) for v in lay.unit_vectors(moves[i : i + 1])[0])
        ax, ay = units[i].tolist()
        bx, by = units[i + 1].tolist()
        box = lay.box()
        t_out = _exit(ax + 0.5, ay + 0.5, vx, vy, box)
        t_in = _exit(bx + 0.5, by + 0.5, -vx, -vy, box)
        parts.append(f"l{attr_num(vx * t_out, 3)} {attr_num(vy * t_out, 3)}")
        parts.append(
            f"M{attr_num(bx + 0.5 - vx * t_in, 3)} {attr_num(by + 0.5 - vy * t_in, 3)}"
            f"l{attr_num(vx * t_in, 3)} {attr_num(vy * t_in, 3)}"
        )
    if pending:
        parts.append("l" + " ".join(pending))
    return "".join(parts)


def _exit(
    x: float, y: float, vx: int, vy: int, box: tuple[float, float, float, float]
) -> float:
    """How far along (x, y) + t (vx, vy) the segment leaves the board's box."""
    x0, y0, x1, y1 = box
    ts = [1.0]
    if vx > 0:
        ts.append((x1 - x) / vx)
    elif vx < 0:
        ts.append((x0 - x) / vx)
    if vy > 0:
        ts.append((y1 - y) / vy)
    elif vy < 0:
        ts.append((y0 - y) / vy)
    return max(0.0, min(ts))


def order_colours(n: int) -> npt.NDArray[np.uint8]:
    """``n`` colours along :data:`~cpknight.draw.palette.GRADIENT`, first to last."""
    stops = np.array(GRADIENT, dtype=np.float64)
    where = np.linspace(0.0, len(stops) - 1, n) if n > 1 else np.zeros(1)
    low = np.minimum(where.astype(np.int64), len(stops) - 2)
    t = (where - low)[:, None]
    out: npt.NDArray[np.uint8] = np.rint(
        stops[low] * (1 - t) + stops[low + 1] * t
    ).astype(np.uint8)
    return out


def draw_order(root: ET.Element, lay: Layout, array: npt.NDArray[np.int64]) -> None:
    """Each cell of the walk coloured by its place in it (a huge tour's picture).

    One embedded image over the board; the first cell dark purple, the last
    yellow (viridis), so that the tour's course reads as a gradient.
    """
    keep = lay.inside(array)
    draw_image(root, lay, array[keep], order_colours(len(array))[keep], "order")
