"""Sweep grids: from which start cells a tour exists, with time and effort."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Unpack

import numpy as np

from cpknight.draw.options import DrawArgs, draw_options
from cpknight.draw.palette import (
    BLOCKED,
    FOUND_HIGH,
    FOUND_LOW,
    PROVED,
    UNKNOWN,
)

if TYPE_CHECKING:
    import numpy.typing as npt

    from cpknight.board import Board
    from cpknight.results import Sweep, SweepCell

from cpknight.draw.canvas import (
    draw_arrows,
    draw_cells,
    draw_highlights,
    draw_labels,
    draw_numbers,
    effort_amount,
    make_layout,
    numbers_fit,
    seconds_label,
    short_count,
    svg_root,
    svg_text,
)
from cpknight.draw.colours import (
    as_rgb,
    mix,
    text_colour,
)
from cpknight.draw.legend import draw_legend

__all__ = ["sweep_svg"]


def sweep_svg(
    sweep: Sweep,
    *,
    numbers: bool | None = None,
    **drawing: Unpack[DrawArgs],
) -> str:
    """Draw a sweep: each start cell coloured by status, with the effort it cost.

    Blue cells start a tour (darker: more effort), vermillion ones were
    proved to start none, yellow ones reached the limit (colour-blind-safe:
    :mod:`~cpknight.draw.palette`). The number in a cell is the
    effort (moves tried, else CP-SAT branches or conflicts, shortened like
    ``12k``); when the engine counts nothing, the time on found cells, ``×``
    on proved ones and ``?`` on unknown ones. Each number carries a tooltip
    with the status, time, effort and reason.

    Args:
        sweep: the sweep.
        numbers: draw the numbers in cells (default: when they are readable).
        **drawing: the drawing options (:class:`~cpknight.draw.options.DrawArgs`).

    Returns:
        The SVG document.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.board import Board
        >>> from cpknight.pieces import KNIGHT
        >>> from cpknight.results import Sweep, SweepCell
        >>> from cpknight.status import Effort, Status
        >>> b = Board.parse("1x2")
        >>> s = Sweep(b, KNIGHT, False, "hand", (
        ...     SweepCell((0, 0), Status.INFEASIBLE, 0.01, Effort(attempts=3)),
        ...     SweepCell((0, 1), Status.UNKNOWN, 1.0, Effort(attempts=1500))))
        >>> root = ET.fromstring(sweep_svg(s))
        >>> [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
        ...  if t.get("class") == "num"]
        ['3', '1.5k']
    """
    board = sweep.board
    amounts = [effort_amount(item.effort) for item in sweep.cells]
    colours = _cell_colours(sweep, amounts)
    labels = [
        _cell_label(item, amount)
        for item, amount in zip(sweep.cells, amounts, strict=True)
    ]
    tips = [_cell_tip(board, item) for item in sweep.cells]
    options = draw_options(board, numbers=numbers, **drawing)
    lay = make_layout(board, options, legend=True, notes=2)
    kind = "closed" if sweep.closed else "open"
    counts = sweep.counts()
    root = svg_root(
        lay,
        f"{kind} tours of {board.label} ({sweep.piece.label}) from each start "
        f"by {sweep.method}: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v),
    )
    draw_cells(root, lay, colours, "cell")
    draw_labels(root, lay)
    draw_highlights(root, lay)
    marks = sorted({t for t in labels if t in ("×", "?")})
    notes = [
        _number_note(sweep)
        + (
            f"; {' and '.join(marks)}: nothing counted (the tooltip says why)"
            if marks and any(a is not None for a in amounts)
            else ""
        )
    ]
    longest = max((len(t) for t in labels), default=1)
    if sweep.cells and numbers_fit(lay, longest):
        cells = np.array([item.cell for item in sweep.cells], dtype=np.int64)
        fills = [text_colour(as_rgb(colours[c])) for c in map(tuple, cells.tolist())]
        texts = draw_numbers(root, lay, cells, labels, fills, halo=False)
        for text, tip in zip(texts, tips, strict=True):
            ET.SubElement(text, "title").text = tip
    draw_legend(
        root,
        lay,
        "start:",
        [
            (mix(FOUND_LOW, FOUND_HIGH, 0.5), f"tour ({counts.get('found', 0)})"),
            (PROVED, f"none ({counts.get('infeasible', 0)})"),
            (UNKNOWN, f"unknown ({counts.get('unknown', 0)})"),
        ],
        notes=[
            *notes,
            "tour cells: the darker, the more search it cost (log scale)",
        ],
    )
    draw_arrows(root, lay)
    return svg_text(root)


def _cell_colours(sweep: Sweep, amounts: list[int | None]) -> npt.NDArray[np.uint8]:
    """Each cell's colour: found cells from light (cheapest) to dark (dearest).

    The shade follows a log scale of the effort, or of the time when the
    engine counts nothing; proved cells are red, unknown ones amber.
    """
    board = sweep.board
    colours = np.empty((*board.shape, 3), dtype=np.uint8)
    colours[...] = BLOCKED
    colours[board.open_mask] = (255, 255, 255)
    costs = [
        math.log1p(a if a is not None else item.seconds * 1000)
        for a, item in zip(amounts, sweep.cells, strict=True)
    ]
    found = [
        c for c, item in zip(costs, sweep.cells, strict=True) if item.status == "found"
    ]
    low, high = (min(found), max(found)) if found else (0.0, 0.0)
    for item, cost in zip(sweep.cells, costs, strict=True):
        if item.status == "found":
            share = (cost - low) / (high - low) if high > low else 0.5
            colours[item.cell] = mix(FOUND_LOW, FOUND_HIGH, share)
        elif item.status == "infeasible":
            colours[item.cell] = PROVED
        else:
            colours[item.cell] = UNKNOWN
    return colours


def _number_note(sweep: Sweep) -> str:
    """What the numbers in the cells are: the effort the engine counts, or time."""
    words = {
        "attempts": "moves tried (attempts)",
        "branches": "CP-SAT branches",
        "conflicts": "CP-SAT conflicts",
    }
    for key, word in words.items():
        if any(key in item.effort.as_dict() for item in sweep.cells):
            return f"numbers: the search effort, {word}; k = 1,000, M = 1,000,000"
    return "numbers: the time to a tour; × proved none, ? unknown"


def _cell_label(item: SweepCell, amount: int | None) -> str:
    """The number in a cell: its effort, else its time, ``×`` or ``?``."""
    if amount is not None:
        return short_count(amount)
    if item.status == "found":
        return seconds_label(item.seconds)
    return "×" if item.status == "infeasible" else "?"


def _cell_tip(board: Board, item: SweepCell) -> str:
    """A cell's tooltip: status, time, effort and reason."""
    detail = ", ".join(f"{k} {v}" for k, v in item.effort.as_dict().items())
    tip = f"{board.cell_name(item.cell)}: {item.status} in {item.seconds:.3f} s"
    tip += f" ({detail})" if detail else ""
    return tip + (f": {item.reason}" if item.reason else "")
