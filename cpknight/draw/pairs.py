"""The start x end table of a pair sweep, as a grid picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from cpknight.draw.canvas import FONT, SVG_NS, attr_num
from cpknight.draw.colours import (
    FOUND_HIGH,
    FOUND_LOW,
    RGB,
    UNKNOWN,
    hex_colour,
    mix,
)

if TYPE_CHECKING:
    from cpknight.study.pairs import PairSweep

__all__ = ["pairs_svg"]

CERTIFIED: RGB = (245, 222, 222)
"""Pairs a certificate answered without solving: a paler red than proved by search."""
DIAGONAL: RGB = (200, 200, 200)


def pairs_svg(sweep: PairSweep, *, cell_size: float | None = None) -> str:
    """Draw a pair sweep: one square per (start, end), rows starts, columns ends.

    Green: an open tour joins the two cells; pale red: a certificate (colours,
    cells of one move, forced cycles) rules the pair out without solving; red:
    the engine proved there is none; amber: the limit was reached. The table is
    symmetric (a tour read backwards). Each square has a tooltip with the
    pair, the status, the time and the reason; the row and column heads name
    the cells; a last column counts each start's ends.

    Args:
        sweep: the pair sweep.
        cell_size: pixels per square (default: fit about 800 pixels, 3 to 24).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.study import sweep_pairs
        >>> root = ET.fromstring(pairs_svg(sweep_pairs("3x4", method="prune")))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='found']"))
        14
    """
    board = sweep.board
    cells = sweep.cells
    n = len(cells)
    size = cell_size or max(3.0, min(24.0, 800.0 / max(n, 1)))
    labelled = size >= 9
    name = board.cell_name
    head = 8.0 * max((len(name(c)) for c in cells), default=1) + 8 if labelled else 8
    top = 28.0 + head
    left = head
    count_width = 40.0
    width = max(left + n * size + count_width + 8, 640.0)
    height = top + n * size + 40
    counts = sweep.counts()
    title = (
        f"open tours of {board.label} ({sweep.piece.label}) from each start to "
        f"each end, by {sweep.method}: "
        + ", ".join(f"{v} {k}" for k, v in counts.items() if v)
        + f" pairs; {sweep.certified} answered by a certificate"
    )
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": attr_num(width),
            "height": attr_num(height),
            "viewBox": f"0 0 {attr_num(width)} {attr_num(height)}",
            "font-family": FONT,
        },
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    heading = ET.SubElement(root, "text", {"x": "6", "y": "18", "font-size": "13"})
    heading.text = f"open tours of {board.label} ({sweep.piece.label}): start x end"
    index = {cell: i for i, cell in enumerate(cells)}
    grid = ET.SubElement(root, "g", {"class": "pairs", "stroke": "#ffffff"})
    stroke = "0.5" if size >= 6 else "0"
    for i in range(n):
        ET.SubElement(
            grid,
            "rect",
            {
                "class": "diagonal",
                "x": attr_num(left + i * size),
                "y": attr_num(top + i * size),
                "width": attr_num(size),
                "height": attr_num(size),
                "fill": hex_colour(DIAGONAL),
                "stroke-width": stroke,
            },
        )
    middle = mix(FOUND_LOW, FOUND_HIGH, 0.6)
    proved = (200, 80, 80)
    for pair in sweep.pairs:
        if pair.status == "found":
            colour, kind = middle, "found"
        elif pair.status == "infeasible":
            certified = pair.method == "certificate"
            colour = CERTIFIED if certified else proved
            kind = "certified" if certified else "infeasible"
        else:
            colour, kind = UNKNOWN, "unknown"
        tip = (
            f"{name(pair.start)} to {name(pair.end)}: {pair.status} by {pair.method}"
            f" in {pair.seconds:.3f} s" + (f": {pair.reason}" if pair.reason else "")
        )
        i, j = index[pair.start], index[pair.end]
        for row, col in ((i, j), (j, i)):
            square = ET.SubElement(
                grid,
                "rect",
                {
                    "class": kind,
                    "x": attr_num(left + col * size),
                    "y": attr_num(top + row * size),
                    "width": attr_num(size),
                    "height": attr_num(size),
                    "fill": hex_colour(colour),
                    "stroke-width": stroke,
                },
            )
            ET.SubElement(square, "title").text = tip
    if labelled:
        font = attr_num(min(11.0, size * 0.8))
        labels = ET.SubElement(root, "g", {"class": "labels", "font-size": font})
        for i, cell in enumerate(cells):
            text = ET.SubElement(
                labels,
                "text",
                {
                    "x": attr_num(left - 4),
                    "y": attr_num(top + (i + 0.5) * size),
                    "dy": "0.35em",
                    "text-anchor": "end",
                },
            )
            text.text = name(cell)
            x, y = left + (i + 0.5) * size, top - 4
            text = ET.SubElement(
                labels,
                "text",
                {
                    "x": attr_num(x),
                    "y": attr_num(y),
                    "dy": "0.35em",
                    "transform": f"rotate(-90 {attr_num(x)} {attr_num(y)})",
                },
            )
            text.text = name(cell)
    ends = sweep.ends_from()
    tally = ET.SubElement(
        root,
        "g",
        {"class": "ends", "font-size": attr_num(min(11.0, max(size * 0.8, 6)))},
    )
    for i, cell in enumerate(cells):
        if size >= 6:
            text = ET.SubElement(
                tally,
                "text",
                {
                    "x": attr_num(left + n * size + 4),
                    "y": attr_num(top + (i + 0.5) * size),
                    "dy": "0.35em",
                },
            )
            text.text = str(ends[cell])
    y = top + n * size + 12
    x = 6.0
    legend = ET.SubElement(root, "g", {"class": "legend", "font-size": "11"})
    for colour, label in (
        (middle, f"tour ({counts.get('found', 0)})"),
        (CERTIFIED, f"none, by a certificate ({sweep.certified})"),
        (proved, f"none, by search ({counts['infeasible'] - sweep.certified})"),
        (UNKNOWN, f"unknown ({counts.get('unknown', 0)})"),
    ):
        ET.SubElement(
            legend,
            "rect",
            {
                "x": attr_num(x),
                "y": attr_num(y),
                "width": "14",
                "height": "14",
                "fill": hex_colour(colour),
                "stroke": "#999999",
                "stroke-width": "0.5",
            },
        )
        text = ET.SubElement(
            legend,
            "text",
            {"x": attr_num(x + 18), "y": attr_num(y + 7), "dy": "0.35em"},
        )
        text.text = label
        x += 18 + 6.5 * len(label) + 12
    return ET.tostring(root, encoding="unicode")
