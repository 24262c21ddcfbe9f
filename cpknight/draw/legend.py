"""Legends: swatches in a row under a picture, then notes; text widths.

Every legend is drawn by :func:`draw_legend`, so that ``tests/test_palette.py``
finds its swatches (class ``swatch``) and checks their colours stay apart
under the common colour-vision deficiencies. Labels are laid out by their
width in DejaVu Sans, the pictures' first font (:func:`text_width`).

Examples:
    >>> text_width("12", 10)
    12.72
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpknight.draw.canvas import attr_num
from cpknight.draw.colours import hex_colour, text_colour

if TYPE_CHECKING:
    from cpknight.draw.canvas import Layout
    from cpknight.draw.palette import RGB

__all__ = ["LEGEND_FONT_PX", "draw_legend", "text_width", "widen"]

LEGEND_FONT_PX = 11.0
"""The font of a legend's labels and notes (CSS pixels)."""

_ADVANCE = (
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739,
    651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,
    690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587,
    1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251,
    1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255,
    1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298,
    1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303,
    690, 1303, 1716,
)  # fmt: skip
"""The advance widths of DejaVu Sans's printable ASCII (space to ``~``), in
2048ths of an em (its ``hmtx`` table)."""


def text_width(text: str, font: float) -> float:
    """The width (pixels) of ``text`` in DejaVu Sans at ``font`` pixels.

    Exact for printable ASCII (kerning aside); any other character is taken
    as an em wide.
    """
    units = sum(_ADVANCE[ord(c) - 32] if " " <= c <= "~" else 2048 for c in text)
    return round(units * font / 2048, 2)


def draw_legend(
    root: ET.Element,
    lay: Layout,
    heading: str,
    items: Sequence[tuple[RGB, str]],
    *,
    scale: int = 0,
    notes: Sequence[str] = (),
) -> None:
    """Swatches in a row under the board, then lines of notes.

    Short labels sit inside their swatch. The first ``scale`` items are the
    steps of a sequential scale (class ``swatch step``: told apart by their
    order, lightness and labels), the others categories (class ``swatch``:
    told apart by colour, even under a colour-vision deficiency,
    ``tests/test_palette.py``). The notes say what the numbers in cells are.
    """
    font = LEGEND_FONT_PX
    group = ET.SubElement(root, "g", {"class": "legend", "font-size": attr_num(font)})
    y = lay.legend_y
    x = 6.0
    if items and heading:
        head = ET.SubElement(
            group, "text", {"x": "6", "y": attr_num(y + 10), "dy": "0.35em"}
        )
        head.text = heading
        x += text_width(heading, font) + 8
    for k, (colour, label) in enumerate(items):
        inside = len(label) <= (4 if k < scale else 3)
        width = max(22.0, 8.0 + text_width(label, font)) if inside else 16.0
        ET.SubElement(
            group,
            "rect",
            {
                "class": "swatch step" if k < scale else "swatch",
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
            x += width + 4 + text_width(label, font) + 12
    widest = x
    line_y = y + (30.0 if items else 0.0)
    for note in notes:
        text = ET.SubElement(
            group,
            "text",
            {"class": "note", "x": "6", "y": attr_num(line_y + 6), "dy": "0.35em"},
        )
        text.text = note
        widest = max(widest, 12.0 + text_width(note, font))
        line_y += 16
    widen(root, widest)


def widen(root: ET.Element, width: float) -> None:
    """Make the picture at least ``width`` pixels wide (a long legend)."""
    have = float(root.get("width", "0"))
    if width <= have:
        return
    w = str(math.ceil(width))
    root.set("width", w)
    _, _, _, h = root.get("viewBox", "0 0 0 0").split()
    root.set("viewBox", f"0 0 {w} {h}")
