"""The start x end table of a pair sweep, as a grid picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cpknight.draw.canvas import FONT, MIN_FONT_PX, SVG_NS, attr_num
from cpknight.draw.colours import hex_colour
from cpknight.draw.legend import widen
from cpknight.draw.palette import (
    CERTIFIED,
    DIAGONAL,
    FOUND,
    PROVED,
    RGB,
    UNKNOWN,
)

if TYPE_CHECKING:
    from cpknight.study.pairs import PairCell, PairSweep

__all__ = ["pairs_svg"]


def pairs_svg(sweep: PairSweep, *, cell_size: float | None = None) -> str:
    """Draw a pair sweep: one square per (start, end), rows starts, columns ends.

    Blue: an open tour joins the two cells; pale orange: a certificate
    (colours, cells of one move, forced cycles) rules the pair out without
    solving; vermillion: the engine proved there is none; yellow: the limit
    was reached (colour-blind-safe: :mod:`~cpknight.draw.palette`). The table is
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
    n = len(sweep.cells)
    size = cell_size or max(3.0, min(24.0, 800.0 / max(n, 1)))
    labelled = size >= 9
    name = board.cell_name
    head = 8.0 * max((len(name(c)) for c in sweep.cells), default=1) + 8
    frame = _Frame(
        left=head if labelled else 8, top=28.0 + (head if labelled else 8), size=size
    )
    width = max(frame.left + n * size + 40.0 + 8, 640.0)
    height = frame.top + n * size + 60
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
    _draw_squares(root, sweep, frame)
    if labelled:
        _draw_heads(root, sweep, frame)
    _draw_end_counts(root, sweep, frame)
    _draw_legend(root, sweep, frame.top + n * size + 12)
    return ET.tostring(root, encoding="unicode")


@dataclass(frozen=True)
class _Frame:
    """Where the table's squares go: its top left corner and pixels a square."""

    left: float
    top: float
    size: float

    def square(self, row: int, col: int) -> dict[str, str]:
        """The position attributes of the square in ``row``, ``col``."""
        return {
            "x": attr_num(self.left + col * self.size),
            "y": attr_num(self.top + row * self.size),
            "width": attr_num(self.size),
            "height": attr_num(self.size),
        }

    @property
    def stroke(self) -> str:
        """The white lines between squares, none when they are small."""
        return "0.5" if self.size >= 6 else "0"


def _pair_colour(pair: PairCell) -> tuple[RGB, str]:
    """A pair's colour and class: found, certified, infeasible or unknown."""
    if pair.status == "found":
        return FOUND, "found"
    if pair.status == "infeasible":
        if pair.method == "certificate":
            return CERTIFIED, "certified"
        return PROVED, "infeasible"
    return UNKNOWN, "unknown"


def _draw_squares(root: ET.Element, sweep: PairSweep, frame: _Frame) -> None:
    """One square per ordered pair, with its tooltip; grey on the diagonal."""
    name = sweep.board.cell_name
    index = {cell: i for i, cell in enumerate(sweep.cells)}
    grid = ET.SubElement(root, "g", {"class": "pairs", "stroke": "#ffffff"})
    for i in range(len(sweep.cells)):
        attrs = {
            "class": "diagonal",
            **frame.square(i, i),
            "fill": hex_colour(DIAGONAL),
            "stroke-width": frame.stroke,
        }
        ET.SubElement(grid, "rect", attrs)
    for pair in sweep.pairs:
        colour, kind = _pair_colour(pair)
        tip = (
            f"{name(pair.start)} to {name(pair.end)}: {pair.status} by {pair.method}"
            f" in {pair.seconds:.3f} s" + (f": {pair.reason}" if pair.reason else "")
        )
        i, j = index[pair.start], index[pair.end]
        for row, col in ((i, j), (j, i)):
            attrs = {
                "class": kind,
                **frame.square(row, col),
                "fill": hex_colour(colour),
                "stroke-width": frame.stroke,
            }
            square = ET.SubElement(grid, "rect", attrs)
            ET.SubElement(square, "title").text = tip


def _draw_heads(root: ET.Element, sweep: PairSweep, frame: _Frame) -> None:
    """The cells' names: at the left of each row, turned above each column."""
    left, top, size = frame.left, frame.top, frame.size
    font = attr_num(min(11.0, size * 0.8))
    labels = ET.SubElement(root, "g", {"class": "labels", "font-size": font})
    for i, cell in enumerate(sweep.cells):
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
        text.text = sweep.board.cell_name(cell)
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
        text.text = sweep.board.cell_name(cell)


def _draw_end_counts(root: ET.Element, sweep: PairSweep, frame: _Frame) -> None:
    """A last column: how many ends each start's open tours reach."""
    size = frame.size
    ends = sweep.ends_from()
    font = min(11.0, size * 0.8)
    tally = ET.SubElement(root, "g", {"class": "ends", "font-size": attr_num(font)})
    if font < MIN_FONT_PX:  # unreadable: left out, as numbers in cells are
        return
    x = frame.left + len(sweep.cells) * size + 4
    y = frame.top - 4
    head = ET.SubElement(
        tally,
        "text",
        {
            "class": "head",
            "x": attr_num(x + 4),
            "y": attr_num(y),
            "dy": "0.35em",
            "transform": f"rotate(-90 {attr_num(x + 4)} {attr_num(y)})",
        },
    )
    head.text = "ends"
    for i, cell in enumerate(sweep.cells):
        text = ET.SubElement(
            tally,
            "text",
            {
                "x": attr_num(x),
                "y": attr_num(frame.top + (i + 0.5) * size),
                "dy": "0.35em",
            },
        )
        text.text = str(ends[cell])


def _draw_legend(root: ET.Element, sweep: PairSweep, y: float) -> None:
    """Swatches in a row under the table, with each kind's count."""
    counts = sweep.counts()
    x = 6.0
    legend = ET.SubElement(root, "g", {"class": "legend", "font-size": "11"})
    counted = root.find(".//g[@class='ends']/text")
    if counted is not None:  # the last column is drawn (a readable font)
        note = ET.SubElement(
            legend, "text", {"class": "note", "x": "6", "y": attr_num(y + 30)}
        )
        note.text = (
            "last column (ends): how many end cells an open tour from the row's "
            "start reaches"
        )
    for colour, label in (
        (FOUND, f"tour ({counts.get('found', 0)})"),
        (CERTIFIED, f"none, by a certificate ({sweep.certified})"),
        (PROVED, f"none, by search ({counts['infeasible'] - sweep.certified})"),
        (UNKNOWN, f"unknown ({counts.get('unknown', 0)})"),
    ):
        ET.SubElement(
            legend,
            "rect",
            {
                "class": "swatch",
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
    widen(root, x)
