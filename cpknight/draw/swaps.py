"""Pictures of the knight-swap puzzles: the knights on the board, their moves played.

:func:`swap_svg` draws the solution as a strip of frames, read left to right
and down: the start, then the board after each move, its arrow from where the
knight left to where it landed, numbered and named above the frame. Each
knight is a disc in its letter's colour with the letter on it, each cell's
goal letter stands in its corner, and a legend names the colours.
:func:`swap_html` is a one-file page that plays the moves, each knight gliding
to its new cell (play, pause, step, reset; nothing fetched).
"""

from __future__ import annotations

import html
import json
import math
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from cpknight.draw.animate import check_speed
from cpknight.draw.canvas import (
    FONT,
    MIN_LABEL_PX,
    SVG_NS,
    Layout,
    attr_num,
    chessboard,
    make_layout,
    svg_arrow,
    svg_circle,
    svg_text,
)
from cpknight.draw.colours import hex_colour, mix, text_colour
from cpknight.draw.legend import draw_legend
from cpknight.draw.palette import OKABE_ITO, rgb
from cpknight.errors import InvalidBoardError, InvalidInputError

if TYPE_CHECKING:
    from cpknight.board import Cell
    from cpknight.swaps.common import Swap

__all__ = ["swap_html", "swap_svg"]

PALETTE = tuple(
    rgb(OKABE_ITO[name])
    for name in (
        "blue",
        "bluish green",
        "orange",
        "reddish purple",
        "sky blue",
        "yellow",
    )
)
"""Disc colours for letters other than W (white) and B (black): the palette's
Okabe-Ito hues (colour-blind-safe); black is left to B, vermillion to the
moves' arrows."""

ARROW = OKABE_ITO["vermillion"]
"""The colour of a move's arrow."""

FRAME_CELL_PX = 48.0
"""A frame's cells (pixels), on boards up to 8 cells a side; at least 40."""

FRAMES_WIDE_PX = 1000.0
"""The strip of frames wraps to a new row past this width (pixels)."""


def _fill(colour: str, order: list[str]) -> tuple[int, int, int]:
    """A letter's colour: W white, B black, a hue for each other letter.

    A lower-case letter is its capital's hue, lighter (Guy's pairs: ``A``
    and ``a``).
    """
    if colour in ("W", "B"):
        return (250, 250, 250) if colour == "W" else (30, 30, 30)
    if colour.islower() and colour.upper() in order:
        return mix(_fill(colour.upper(), order), (255, 255, 255), 0.55)
    hues = [c for c in order if c not in ("W", "B") and not c.islower()]
    hues += [c for c in order if c.islower() and c.upper() not in order]
    return PALETTE[hues.index(colour) % len(PALETTE)]


def _title(swap: Swap) -> str:
    proved = "proved fewest" if swap.optimal else f"at least {swap.bound}"
    head = f"{swap.name}: " if swap.name else ""
    return (
        f"{head}swap of {swap.moves} moves on {swap.board.label} "
        f"({swap.piece.label}), {proved}"
    )


def _drawing(
    swap: Swap, cell_size: float | None
) -> tuple[Layout, ET.Element, list[ET.Element]]:
    """The board, the goal letters, and one ``<g>`` a knight (at the origin)."""
    if swap.board.dim != 2:
        raise InvalidBoardError(f"a swap is drawn on a 2D board: {swap.board.label!r}")
    lay, root = chessboard(swap.board, cell_size, _title(swap), numbers=False)
    order = [c for c, _ in swap.start]
    goals = ET.SubElement(
        root,
        "g",
        {"class": "goal", "font-size": attr_num(lay.s * 0.26), "fill": "#333333"},
    )
    for colour, cells in swap.goal:
        xy = lay.px(np.array(cells, dtype=np.int64))
        for x, y in xy.tolist():
            mark = ET.SubElement(
                goals,
                "text",
                {
                    "x": attr_num(x + lay.s * 0.3),
                    "y": attr_num(y + lay.s * 0.42),
                    "text-anchor": "middle",
                },
            )
            mark.text = colour
    layer = ET.SubElement(root, "g", {"class": "knights"})
    knights = []
    radius = lay.s * 0.33
    for colour, cells in swap.start:
        rgb = _fill(colour, order)
        for _ in cells:
            g = ET.SubElement(layer, "g", {"class": "knight", "data-colour": colour})
            ET.SubElement(
                g,
                "circle",
                {
                    "r": attr_num(radius),
                    "fill": hex_colour(rgb),
                    "stroke": "#444444",
                    "stroke-width": attr_num(max(1.0, lay.s * 0.03)),
                },
            )
            letter = ET.SubElement(
                g,
                "text",
                {
                    "text-anchor": "middle",
                    "dominant-baseline": "central",
                    "font-size": attr_num(radius * 1.1),
                    "fill": text_colour(rgb),
                },
            )
            letter.text = colour
            knights.append(g)
    return lay, root, knights


def _frames(swap: Swap, lay: Layout) -> list[list[tuple[float, float]]]:
    """Every knight's pixel centre after each move, the start first."""
    where: list[Cell] = [cell for _, cells in swap.start for cell in cells]
    frames = []

    def centres() -> list[tuple[float, float]]:
        xy = lay.px(np.array(where, dtype=np.int64)).tolist()
        return [(round(x, 2), round(y, 2)) for x, y in xy]

    frames.append(centres())
    for a, b in swap.steps:
        where[where.index(a)] = b
        frames.append(centres())
    return frames


def swap_svg(
    swap: Swap, *, cell_size: float | None = None, columns: int | None = None
) -> str:
    """Draw a swap as a strip of frames: the start, then the board after each move.

    Each frame after the start draws its move as an arrow (in vermillion,
    from a dot where the knight stood to the knight where it landed) and is
    headed by its number and name (``3. c1-b3``). The knights are discs in
    their letters' colours with the letter on them; each cell's goal letter
    stands in its lower right corner. A legend under the frames names the
    colours and says what the corner letters are.

    Args:
        swap: the answer (a 2D board).
        cell_size: pixels per cell (default 48, down to 40 on boards wider
            than 8 cells).
        columns: frames per row (default: as many as fit 1000 pixels).

    Returns:
        The SVG document: one nested ``<svg class="frame">`` per frame (the
        moves plus one), each with ``<g class="move">`` (but the start's).

    Raises:
        InvalidBoardError: the board is not 2D.
        InvalidInputError: a cell size or a number of columns under 1.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import solve_swap
        >>> root = ET.fromstring(swap_svg(solve_swap("guarini")))
        >>> ns = "{http://www.w3.org/2000/svg}"
        >>> len(root.findall(f"{ns}svg[@class='frame']"))
        17
        >>> len(root.findall(f".//{ns}g[@class='move']"))
        16
    """
    if swap.board.dim != 2:
        raise InvalidBoardError(f"a swap is drawn on a 2D board: {swap.board.label!r}")
    if columns is not None and columns < 1:
        raise InvalidInputError(f"expected at least 1 column of frames: {columns}")
    side = cell_size or max(40.0, min(FRAME_CELL_PX, 384.0 / max(swap.board.shape)))
    order = [c for c, _ in swap.start]
    frames = []
    for k, where in enumerate(swap.placements()):
        step = swap.steps[k - 1] if k else None
        frames.append(_frame(swap, where, step, side, order))
    sizes = [(float(f.get("width", "0")), float(f.get("height", "0"))) for f in frames]
    width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
    gap, caption = 14.0, 20.0
    if columns is None:
        columns = max(1, int((FRAMES_WIDE_PX + gap) // (width + gap)))
    columns = min(columns, len(frames))
    sheet = ET.Element(
        "svg", {"xmlns": SVG_NS, "font-family": FONT, "class": "swap-frames"}
    )
    ET.SubElement(sheet, "title").text = f"{_title(swap)}: {' '.join(swap.names())}"
    ET.SubElement(
        sheet, "rect", {"class": "background", "width": "100%", "height": "100%"}
    ).set("fill", "#ffffff")
    names = swap.names()
    for k, frame in enumerate(frames):
        x = 6 + (k % columns) * (width + gap)
        y = 6 + (k // columns) * (height + caption + gap)
        head = "start" if k == 0 else f"{k}. {names[k - 1]}"
        if k == len(frames) - 1 and k:
            head += ": the goal"
        label = ET.SubElement(
            sheet,
            "text",
            {
                "class": "caption",
                "x": attr_num(x + 6),
                "y": attr_num(y + caption - 6),
                "font-size": "13",
                "fill": "#222222",
            },
        )
        label.text = head
        frame.attrib.pop("xmlns", None)
        frame.set("class", "frame")
        frame.set("x", attr_num(x))
        frame.set("y", attr_num(y + caption))
        sheet.append(frame)
    rows = -(-len(frames) // columns)
    bottom = 6 + rows * (height + caption + gap)
    lay = make_layout(swap.board, side, legend=True, notes=2)
    items = [(_fill(colour, order), colour) for colour in order]
    items.append((rgb(ARROW), "a move (arrow)"))
    notes = [
        "letters in a corner: the knight each cell holds at the goal",
        "the frames read left to right, then down; knights of one letter "
        "are interchangeable",
    ]
    sheet.set("width", str(math.ceil(12 + columns * (width + gap) - gap)))
    total = bottom + 30 + 16 * len(notes) + 6
    sheet.set("height", str(math.ceil(total)))
    sheet.set("viewBox", f"0 0 {sheet.get('width')} {sheet.get('height')}")
    draw_legend(sheet, replace(lay, legend_y=bottom), "knights", items, notes=notes)
    return svg_text(sheet)


def _frame(
    swap: Swap,
    where: dict[Cell, str],
    step: tuple[Cell, Cell] | None,
    side: float,
    order: list[str],
) -> ET.Element:
    """One frame: the board, the goal letters, the knights, the move's arrow."""
    lay, root = chessboard(swap.board, side, _title(swap), numbers=False)
    font = max(MIN_LABEL_PX, side * 0.24)
    goals = ET.SubElement(
        root,
        "g",
        {
            "class": "goal",
            "font-size": attr_num(font),
            "fill": "#111111",
            "text-anchor": "end",
        },
    )
    for colour, cells in swap.goal:
        for x, y in lay.px(np.array(cells, dtype=np.int64)).tolist():
            mark = ET.SubElement(
                goals,
                "text",
                {"x": attr_num(x + side / 2 - 3), "y": attr_num(y + side / 2 - 4)},
            )
            mark.text = colour
    radius = side * 0.27
    layer = ET.SubElement(root, "g", {"class": "knights"})
    for cell, colour in sorted(where.items()):
        (x, y), *_ = lay.px(np.array([cell], dtype=np.int64)).tolist()
        fill = _fill(colour, order)
        g = ET.SubElement(
            layer,
            "g",
            {
                "class": "knight",
                "data-colour": colour,
                "transform": f"translate({attr_num(x)},{attr_num(y)})",
            },
        )
        ET.SubElement(
            g,
            "circle",
            {
                "r": attr_num(radius),
                "fill": hex_colour(fill),
                "stroke": "#444444",
                "stroke-width": attr_num(max(1.0, side * 0.03)),
            },
        )
        letter = ET.SubElement(
            g,
            "text",
            {
                "text-anchor": "middle",
                "dy": "0.35em",
                "font-size": attr_num(radius * 1.1),
                "fill": text_colour(fill),
            },
        )
        letter.text = colour
    if step is not None:
        _move_arrow(root, lay, step, radius)
    return root


def _move_arrow(
    root: ET.Element, lay: Layout, step: tuple[Cell, Cell], radius: float
) -> None:
    """An arrow from a dot on the cell left to the edge of the knight that landed."""
    (ax, ay), (bx, by) = lay.px(np.array(step, dtype=np.int64)).tolist()
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    tip_x, tip_y = bx - ux * (radius + 2), by - uy * (radius + 2)
    head = lay.s * 0.32
    group = ET.SubElement(
        root,
        "g",
        {
            "class": "move",
            "stroke": ARROW,
            "fill": ARROW,
            "stroke-width": attr_num(max(2.0, lay.s * 0.08)),
            "stroke-linecap": "round",
        },
    )
    svg_circle(group, "left", ax, ay, lay.s * 0.08, {"stroke": "none"})
    svg_arrow(group, (ax, ay), (tip_x, tip_y), head)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; color: #222; }}
h1 {{ font-size: 1.1em; font-weight: normal; }}
.controls {{ margin: 0.5em 0; display: flex; gap: 0.4em; align-items: center; }}
button {{ font-size: 1em; min-width: 4.5em; }}
#counter {{ margin-left: 0.8em; font-variant-numeric: tabular-nums; }}
.knight {{ transition: transform {glide}s ease-in-out; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="controls">
<button id="play" type="button">Play</button>
<button id="back" type="button">&#9664; Step</button>
<button id="step" type="button">Step &#9654;</button>
<button id="reset" type="button">Reset</button>
<span id="counter"></span>
</div>
{svg}
<p id="moves">{moves}</p>
<script>
"use strict";
(function () {{
  const frames = {frames};
  const names = {names};
  const knights = document.querySelectorAll(".knight");
  const counter = document.getElementById("counter");
  const play = document.getElementById("play");
  let at = 0, timer = null;
  function show(k) {{
    at = Math.max(0, Math.min(frames.length - 1, k));
    frames[at].forEach(function (p, i) {{
      knights[i].style.transform = "translate(" + p[0] + "px," + p[1] + "px)";
    }});
    counter.textContent = "move " + at + " of " + (frames.length - 1) +
      (at > 0 ? ": " + names[at - 1] : "");
  }}
  function stop() {{ clearInterval(timer); timer = null; play.textContent = "Play"; }}
  play.onclick = function () {{
    if (timer) {{ stop(); return; }}
    if (at === frames.length - 1) show(0);
    play.textContent = "Pause";
    timer = setInterval(function () {{
      if (at >= frames.length - 1) {{ stop(); return; }}
      show(at + 1);
    }}, {interval});
  }};
  document.getElementById("step").onclick = function () {{ stop(); show(at + 1); }};
  document.getElementById("back").onclick = function () {{ stop(); show(at - 1); }};
  document.getElementById("reset").onclick = function () {{ stop(); show(0); }};
  show(0);
}})();
</script>
</body>
</html>
"""


def swap_html(swap: Swap, *, speed: float = 2.0, cell_size: float | None = None) -> str:
    """A one-file HTML page that plays the swap, the knights gliding move by move.

    Args:
        swap: the answer (a 2D board).
        speed: moves per second when playing.
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The HTML page (inline SVG, CSS and script; nothing fetched).

    Raises:
        InvalidInputError: a speed that is not positive.

    Examples:
        >>> from cpknight import solve_swap
        >>> page = swap_html(solve_swap("guarini"))
        >>> page.startswith("<!DOCTYPE html>"), page.count('class="knight"')
        (True, 4)
    """
    speed = check_speed(speed)
    lay, root, knights = _drawing(swap, cell_size)
    frames = _frames(swap, lay)
    for g, (x, y) in zip(knights, frames[0], strict=True):
        g.set("transform", f"translate({attr_num(x)},{attr_num(y)})")
    interval = max(20, math.floor(1000 / speed))
    return _PAGE.format(
        title=html.escape(_title(swap), quote=False),
        svg=svg_text(root),
        moves=html.escape(" ".join(swap.names()), quote=False),
        frames=json.dumps(frames),
        names=json.dumps(swap.names()),
        interval=interval,
        glide=attr_num(min(0.6, 0.8 / speed)),
    )
