"""Charts of numbers that are not a board: lines and bars on scaled axes.

The course draws with them what a table would only list: the frontier
program's live states cell by cell, a strip's tour counts as it grows,
seconds against board size. An axis is linear (ticks at a 1-2-5 step,
:func:`~cpknight.draw.study.nice_ticks`) or logarithmic (ticks at powers of
ten, :func:`log_ticks`); on a log axis a value of zero or less has no place
and is left out, which a note under the chart says. Each series takes a
colour, a dash pattern and a marker shape of its own (the study plots'
colours, :data:`~cpknight.draw.palette.SERIES`), so that the lines stay apart
without colour too; the key is drawn at the right.

Examples:
    >>> import xml.etree.ElementTree as ET
    >>> svg = line_chart_svg({"closed": [(10, 16), (12, 176)]}, title="3 x n",
    ...                      x_label="n", y_label="tours", log_y=True)
    >>> ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title").text
    '3 x n'
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cpknight.draw.canvas import FONT, SVG_NS, attr_num, svg_label, svg_line
from cpknight.draw.palette import SERIES, SERIES_DASHES
from cpknight.draw.study import nice_ticks
from cpknight.errors import InvalidInputError

__all__ = ["bar_chart_svg", "line_chart_svg", "log_ticks", "tick_label"]

WIDTH, HEIGHT = 640.0, 380.0
LEFT, TOP, BOTTOM = 72.0, 40.0, 50.0
KEY_WIDTH = 150.0
NOTE_LINE = 16.0
MARKERS = ("circle", "square", "triangle", "diamond")
"""One marker shape per series, after its colour and dashes."""

Point = tuple[float, float]


def line_chart_svg(
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    log_x: bool = False,
    log_y: bool = False,
    markers: bool = True,
    notes: Sequence[str] = (),
) -> str:
    """Draw named series of ``(x, y)`` points as lines, with a key.

    Args:
        series: the points of each series, by name, in the order drawn.
        title: the heading (and the SVG's ``<title>``).
        x_label: what the x axis counts.
        y_label: what the y axis counts.
        log_x: a logarithmic x axis (points with ``x <= 0`` are left out).
        log_y: a logarithmic y axis (points with ``y <= 0`` are left out).
        markers: mark each point (a shape per series).
        notes: lines of text under the chart (what the numbers are).

    Returns:
        The text of a standalone SVG document.

    Raises:
        InvalidInputError: no point to draw.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> svg = line_chart_svg({"a": [(1, 1), (2, 4)], "b": [(1, 2), (2, 0)]},
        ...                      title="t", x_label="x", y_label="y", log_y=True)
        >>> root = ET.fromstring(svg)
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}polyline"))
        2
        >>> [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
        ...  if t.get("class") == "note"]
        ['values of 0 or less are left out (log scale)']
    """
    kept = {
        name: [
            (float(x), float(y))
            for x, y in points
            if (x > 0 or not log_x) and (y > 0 or not log_y)
        ]
        for name, points in series.items()
    }
    dropped = sum(len(points) for points in series.values()) > sum(
        len(points) for points in kept.values()
    )
    xs = [
        float(x) for points in series.values() for x, _ in points if x > 0 or not log_x
    ]
    ys = [y for points in kept.values() for _, y in points]
    if not ys:
        raise InvalidInputError(f"a chart needs a point to draw: {title!r}")
    frame = _Frame.make(xs, ys, log_x=log_x, log_y=log_y, notes=len(notes) + dropped)
    root = _start(title, frame)
    _draw_axes(root, frame, x_label, y_label)
    for k, (name, points) in enumerate(kept.items()):
        _draw_line(root, frame, k, name, points, markers=markers)
    _draw_notes(root, frame, _dropped_note(notes, dropped, log_x or log_y))
    return ET.tostring(root, encoding="unicode")


def bar_chart_svg(
    values: Sequence[float],
    *,
    title: str,
    x_label: str,
    y_label: str,
    first: int = 1,
    log_y: bool = False,
    x_ticks: Sequence[tuple[float, str]] | None = None,
    notes: Sequence[str] = (),
) -> str:
    """Draw one bar per value, numbered from ``first`` along the x axis.

    Args:
        values: the bars' heights, in order.
        title: the heading (and the SVG's ``<title>``).
        x_label: what the bars' numbers are.
        y_label: what the heights count.
        first: the number of the first bar.
        log_y: a logarithmic y axis (bars of 0 or less are left out).
        x_ticks: ``(x, label)`` pairs for the x axis (default: a 1-2-5 step).
        notes: lines of text under the chart (what the numbers are).

    Returns:
        The text of a standalone SVG document.

    Raises:
        InvalidInputError: no bar to draw.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> svg = bar_chart_svg([1, 64, 1658, 0], title="live", x_label="cell",
        ...                     y_label="states", log_y=True)
        >>> root = ET.fromstring(svg)
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}rect[@class='bar']"))
        3
    """
    bars = [(first + k, float(v)) for k, v in enumerate(values) if v > 0 or not log_y]
    if not bars:
        raise InvalidInputError(f"a chart needs a bar to draw: {title!r}")
    dropped = len(bars) < len(values)
    xs = [float(first) - 0.5, float(first + len(values)) - 0.5]
    ys = [v for _, v in bars] + ([] if log_y else [0.0])
    frame = _Frame.make(
        xs, ys, log_x=False, log_y=log_y, notes=len(notes) + dropped, key=False
    )
    if x_ticks is not None:
        frame = frame.with_x_ticks(x_ticks)
    root = _start(title, frame)
    _draw_axes(root, frame, x_label, y_label)
    group = ET.SubElement(root, "g", {"fill": SERIES[0]})
    half = max(0.5, 0.4 * (frame.px(first + 1.0) - frame.px(float(first))))
    base = frame.py(frame.y_low)
    for x, y in bars:
        top = frame.py(y)
        bar = ET.SubElement(
            group,
            "rect",
            {
                "class": "bar",
                "x": attr_num(frame.px(x) - half),
                "y": attr_num(min(top, base)),
                "width": attr_num(2 * half),
                "height": attr_num(abs(base - top)),
            },
        )
        ET.SubElement(bar, "title").text = f"{x}: {tick_label(y)}"
    _draw_notes(root, frame, _dropped_note(notes, dropped, log_y))
    return ET.tostring(root, encoding="unicode")


def log_ticks(low: float, high: float, most: int = 10) -> list[float]:
    """Powers of ten from at or below ``low`` to at or above ``high``.

    Every decade is a tick while there are at most ``most`` of them; past
    that, every second, fifth or tenth.

    Examples:
        >>> log_ticks(3, 147050)
        [1, 10, 100, 1000, 10000, 100000, 1000000]
        >>> log_ticks(1, 1e20)[:3]
        [1, 100, 10000]
    """
    first = math.floor(math.log10(low) + 1e-9)
    last = math.ceil(math.log10(high) - 1e-9)
    last = max(last, first + 1)
    step = next(s for s in (1, 2, 5, 10, 20, 50) if (last - first) / s <= most)
    first = step * math.floor(first / step)
    last = step * math.ceil(last / step)
    return [_power(k) for k in range(first, last + 1, step)]


def tick_label(value: float) -> str:
    """A tick's text: short and exact enough to read off the chart.

    Examples:
        >>> [tick_label(v) for v in (0, 2.5, 1000, 20000, 147050, 1e8, 3e15)]
        ['0', '2.5', '1000', '20k', '147k', '100M', '3e15']
    """
    if abs(value) < 10_000:
        return f"{value:g}"
    for power, suffix in ((10**3, "k"), (10**6, "M"), (10**9, "G")):
        if abs(value) < 1000 * power:
            return f"{value / power:.3g}{suffix}"
    return f"{value:.3g}".replace("e+", "e")


# ------------------------------------------------------------------ the frame


@dataclass(frozen=True)
class _Frame:
    """The plot area, the axes' ranges and ticks, and the picture's size."""

    width: float
    height: float
    right: float
    x_low: float
    x_high: float
    y_low: float
    y_high: float
    log_x: bool
    log_y: bool
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, str], ...]

    @classmethod
    def make(
        cls,
        xs: Sequence[float],
        ys: Sequence[float],
        *,
        log_x: bool,
        log_y: bool,
        notes: int,
        key: bool = True,
    ) -> _Frame:
        """A frame that holds every point, its ticks at round numbers."""
        x_ticks = _ticks(min(xs), max(xs), log_x)
        y_ticks = _ticks(min(ys), max(ys), log_y)
        x_low, x_high = (x_ticks[0], x_ticks[-1]) if log_x else (min(xs), max(xs))
        if x_high == x_low:
            x_low, x_high = x_low - 1, x_high + 1
            x_ticks = _ticks(x_low, x_high, log_x)
        y_low = y_ticks[0]
        if log_y and min(ys) <= y_low * (1 + 1e-9):
            y_low /= math.sqrt(10)  # half a decade below: a bar of the least shows
        right = KEY_WIDTH if key else 24.0
        return cls(
            width=WIDTH + (right - KEY_WIDTH),
            height=HEIGHT + NOTE_LINE * notes,
            right=right,
            x_low=x_low,
            x_high=x_high,
            y_low=y_low,
            y_high=y_ticks[-1],
            log_x=log_x,
            log_y=log_y,
            x_ticks=tuple(
                (t, tick_label(t))
                for t in x_ticks
                if x_low - 1e-9 <= t <= x_high + 1e-9
            ),
            y_ticks=tuple((t, _log_label(t, y_ticks[-1], log_y)) for t in y_ticks),
        )

    def with_x_ticks(self, ticks: Sequence[tuple[float, str]]) -> _Frame:
        """The same frame with the x ticks given."""
        return _Frame(
            self.width,
            self.height,
            self.right,
            self.x_low,
            self.x_high,
            self.y_low,
            self.y_high,
            self.log_x,
            self.log_y,
            tuple((float(x), label) for x, label in ticks),
            self.y_ticks,
        )

    @property
    def bottom(self) -> float:
        """The y pixel of the x axis."""
        return HEIGHT - BOTTOM

    def px(self, x: float) -> float:
        """The x pixel of a value."""
        return LEFT + _share(x, self.x_low, self.x_high, self.log_x) * (
            self.width - LEFT - self.right
        )

    def py(self, y: float) -> float:
        """The y pixel of a value (the low end at the bottom)."""
        return TOP + (1 - _share(y, self.y_low, self.y_high, self.log_y)) * (
            self.bottom - TOP
        )


def _share(v: float, low: float, high: float, log: bool) -> float:
    """Where ``v`` falls from ``low`` (0) to ``high`` (1)."""
    if log:
        return (math.log10(v) - math.log10(low)) / (math.log10(high) - math.log10(low))
    return (v - low) / (high - low)


def _ticks(low: float, high: float, log: bool) -> list[float]:
    """Round ticks covering ``low`` to ``high``, at powers of ten on a log axis."""
    if log:
        return log_ticks(low, high)
    if high == low:
        low, high = (0.0, 1.0) if low == 0 else sorted((0.0, 2 * low))
    return [float(t) for t in nice_ticks(low, high)]


def _log_label(value: float, top: float, log: bool) -> str:
    """A tick's text; ``10^k`` on a log axis that goes past a million."""
    if log and top > 10**6:
        return f"10^{round(math.log10(value))}"
    return tick_label(value)


def _power(k: int) -> float:
    """Ten to the ``k`` (an int where it is one)."""
    return 10**k if k >= 0 else 10.0**k


# ---------------------------------------------------------------- the drawing


def _start(title: str, frame: _Frame) -> ET.Element:
    """The SVG root: white ground, the title as heading and ``<title>``."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": attr_num(frame.width),
            "height": attr_num(frame.height),
            "viewBox": f"0 0 {attr_num(frame.width)} {attr_num(frame.height)}",
            "font-family": FONT,
            "font-size": "11",
        },
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    svg_label(root, LEFT, 22, title, {"font-size": "13"})
    return root


def _draw_axes(root: ET.Element, frame: _Frame, x_label: str, y_label: str) -> None:
    """Grid lines at the ticks, the tick labels, the axes and their names."""
    grid = ET.SubElement(root, "g", {"class": "grid", "stroke": "#dddddd"})
    x0, x1 = frame.px(frame.x_low), frame.px(frame.x_high)
    y0, y1 = frame.py(frame.y_low), frame.py(frame.y_high)
    for x, label in frame.x_ticks:
        svg_line(grid, frame.px(x), frame.px(x), y0, y1)
        _tick(root, frame.px(x), y0 + 15, label, "middle")
    for y, label in frame.y_ticks:
        svg_line(grid, x0, x1, frame.py(y), frame.py(y))
        _tick(root, x0 - 6, frame.py(y) + 4, label, "end")
    axes = ET.SubElement(root, "g", {"class": "axes", "stroke": "#555555"})
    svg_line(axes, x0, x1, y0, y0)
    svg_line(axes, x0, x0, y0, y1)
    scale = " (log scale)"
    svg_label(
        root,
        (x0 + x1) / 2,
        y0 + 34,
        x_label + (scale if frame.log_x else ""),
        {"text-anchor": "middle"},
    )
    mid = (y0 + y1) / 2
    svg_label(
        root,
        16,
        mid,
        y_label + (scale if frame.log_y else ""),
        {"text-anchor": "middle", "transform": f"rotate(-90 16 {attr_num(mid)})"},
    )


def _draw_line(
    root: ET.Element,
    frame: _Frame,
    k: int,
    name: str,
    points: Sequence[Point],
    *,
    markers: bool,
) -> None:
    """The ``k``-th series: its line, its markers and its key."""
    colour = SERIES[k % len(SERIES)]
    dashes = SERIES_DASHES[k % len(SERIES_DASHES)]
    shape = MARKERS[k % len(MARKERS)]
    group = ET.SubElement(root, "g", {"class": "series"})
    ET.SubElement(group, "title").text = name
    pixels = [(frame.px(x), frame.py(y)) for x, y in points]
    line = ET.SubElement(
        group,
        "polyline",
        {
            "points": " ".join(f"{attr_num(x)},{attr_num(y)}" for x, y in pixels),
            "fill": "none",
            "stroke": colour,
            "stroke-width": "2",
        },
    )
    if dashes:
        line.set("stroke-dasharray", dashes)
    if markers:
        for (x, y), (u, v) in zip(points, pixels, strict=True):
            mark = _marker(group, shape, u, v, colour)
            ET.SubElement(mark, "title").text = f"{name}: {x:g}, {tick_label(y)}"
    y = TOP + 10 + 20 * k
    x = frame.width - frame.right + 14
    key = ET.SubElement(root, "g", {"class": "key"})
    sample = ET.SubElement(
        key,
        "line",
        {
            "x1": attr_num(x),
            "x2": attr_num(x + 28),
            "y1": attr_num(y),
            "y2": attr_num(y),
            "stroke": colour,
            "stroke-width": "2",
        },
    )
    if dashes:
        sample.set("stroke-dasharray", dashes)
    if markers:
        _marker(key, shape, x + 14, y, colour)
    svg_label(key, x + 34, y, name, {"dy": "0.35em"})


def _marker(
    parent: ET.Element, shape: str, x: float, y: float, colour: str
) -> ET.Element:
    """A marker of the given shape centred on ``x``, ``y``."""
    r = 3.5
    if shape == "circle":
        attrs = {"cx": attr_num(x), "cy": attr_num(y), "r": attr_num(r)}
        return ET.SubElement(parent, "circle", {**attrs, "fill": colour})
    corners = {
        "square": [(-r, -r), (r, -r), (r, r), (-r, r)],
        "triangle": [(0, -1.2 * r), (1.1 * r, 0.8 * r), (-1.1 * r, 0.8 * r)],
        "diamond": [(0, -1.3 * r), (1.3 * r, 0), (0, 1.3 * r), (-1.3 * r, 0)],
    }[shape]
    points = " ".join(f"{attr_num(x + dx)},{attr_num(y + dy)}" for dx, dy in corners)
    return ET.SubElement(parent, "polygon", {"points": points, "fill": colour})


def _dropped_note(notes: Sequence[str], dropped: bool, log: bool) -> list[str]:
    """The notes, and one that says values were left out of a log axis."""
    extra = ["values of 0 or less are left out (log scale)"] if dropped and log else []
    return [*notes, *extra]


def _draw_notes(root: ET.Element, frame: _Frame, notes: Sequence[str]) -> None:
    """Lines of text under the chart."""
    y = HEIGHT + 6
    for note in notes:
        svg_label(root, 8, y, note, {"class": "note", "fill": "#333333"})
        y += NOTE_LINE


def _tick(parent: ET.Element, x: float, y: float, label: str, anchor: str) -> None:
    """A tick's label ending at (or centred on) ``x``; ``10^k`` as a power.

    The power is two texts placed by their estimated widths (11 px digits
    about 7 px wide, the 8 px exponent's about 5), since a raised ``tspan``
    does not move with the anchor in every renderer.
    """
    base, caret, exponent = label.partition("^")
    if not caret:
        svg_label(parent, x, y, label, {"text-anchor": anchor})
        return
    wide = 5.0 * len(exponent)
    start = x - wide if anchor == "end" else x - (7.0 * len(base) + wide) / 2
    start += 0.0 if anchor == "end" else 7.0 * len(base)
    svg_label(parent, start, y, base, {"text-anchor": "end"})
    svg_label(parent, start + 0.5, y - 5, exponent, {"font-size": "8"})
