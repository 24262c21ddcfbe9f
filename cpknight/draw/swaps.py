"""Pictures of the knight-swap puzzles: the knights on the board, their moves played.

:func:`swap_svg` draws the start: each knight a disc in its colour with its
letter, each goal cell marked in a corner by the letter that must end there,
the moves listed in the title. :func:`swap_html` is a one-file page that plays
the moves, each knight gliding to its new cell (play, pause, step, reset;
nothing fetched).
"""

from __future__ import annotations

import html
import json
import math
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import numpy as np

from cpknight.draw.animate import check_speed
from cpknight.draw.canvas import Layout, attr_num, chessboard, svg_text
from cpknight.draw.colours import hex_colour, text_colour
from cpknight.draw.palette import OKABE_ITO, rgb
from cpknight.errors import InvalidBoardError

if TYPE_CHECKING:
    from cpknight.board import Cell
    from cpknight.swaps.common import Swap

__all__ = ["swap_html", "swap_svg"]

PALETTE = tuple(
    rgb(OKABE_ITO[name])
    for name in (
        "blue",
        "vermillion",
        "bluish green",
        "orange",
        "reddish purple",
        "sky blue",
        "yellow",
    )
)
"""Disc colours for letters other than W (white) and B (black): the palette's
Okabe-Ito hues (colour-blind-safe), black left to B."""


def _fill(colour: str, order: list[str]) -> tuple[int, int, int]:
    if colour == "W":
        return (250, 250, 250)
    if colour == "B":
        return (30, 30, 30)
    return PALETTE[order.index(colour) % len(PALETTE)]


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


def swap_svg(swap: Swap, *, cell_size: float | None = None) -> str:
    """Draw a swap's start: the knights, the goal letters, the moves in the title.

    Args:
        swap: the answer (a 2D board).
        cell_size: pixels per cell (default: fit about 800 pixels, at most 48).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight import solve_swap
        >>> root = ET.fromstring(swap_svg(solve_swap("guarini")))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}circle"))
        4
    """
    lay, root, knights = _drawing(swap, cell_size)
    for g, (x, y) in zip(knights, _frames(swap, lay)[0], strict=True):
        g.set("transform", f"translate({attr_num(x)},{attr_num(y)})")
    title = root.find("title")
    if title is not None:
        title.text = f"{title.text}: {' '.join(swap.names())}"
    return svg_text(root)


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
