"""Study plots: the Dolan-More performance profile and solved versus time."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cpknight.draw.canvas import FONT, SVG_NS, attr_num, svg_label, svg_line
from cpknight.draw.palette import SERIES, SERIES_DASHES

if TYPE_CHECKING:
    from cpknight.study.suite import Study

__all__ = ["nice_ticks", "profile_svg", "solved_time_svg"]

LINES = SERIES
"""One colour per engine (Okabe-Ito), each with its dash pattern (SERIES_DASHES)."""

WIDTH, HEIGHT = 640.0, 420.0
LEFT, RIGHT, TOP, BOTTOM = 60.0, 150.0, 40.0, 50.0


def profile_svg(study: Study) -> str:
    """Draw the performance profile: fraction answered within a factor of the best.

    The x axis is ``tau`` on a log2 scale (1 is the fastest engine on the
    instance), the y axis the fraction of all instances the engine answered
    (a checked tour, or a proof of none no tour contradicts) within ``tau``
    times the best time. The higher and further left, the better; the value
    at ``tau = 1`` is how often the engine was the fastest.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.study import read_suite_text, run_study
        >>> s = run_study(read_suite_text("5x5 --open --start a1"),
        ...               methods="prune,warnsdorff")
        >>> root = ET.fromstring(profile_svg(s))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}polyline"))
        2
    """
    steps = study.profile()
    top = max((t for line in steps.values() for t, _ in line), default=1.0)
    span = max(1.0, math.ceil(math.log2(max(top, 1.0))))
    series = {
        engine: [(math.log2(t) / span, rho) for t, rho in line]
        for engine, line in steps.items()
    }
    ticks = [(k / span, f"{2**k:g}") for k in range(int(span) + 1)]
    if len(ticks) > 9:
        every = math.ceil(len(ticks) / 8)
        ticks = ticks[::every]
    return _plot(
        f"performance profile: {len(study.instances)} instances, limit {_limit(study)}",
        "within this factor of the best time (log scale)",
        "fraction of instances answered",
        series,
        ticks,
        [(k / 4, f"{k / 4:g}") for k in range(5)],
        extend=1.0,
    )


def solved_time_svg(study: Study) -> str:
    r"""Draw how many instances each engine answered within each time (log scale).

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> from cpknight.study import read_suite_text, run_study
        >>> s = run_study(read_suite_text("4x4\n5x5 --open"), methods="prune")
        >>> root = ET.fromstring(solved_time_svg(s))
        >>> len(root.findall(".//{http://www.w3.org/2000/svg}polyline"))
        1
    """
    times = study.answer_times()
    total = len(times)
    finite = [t for line in times for t in line if not math.isinf(t)]
    low = math.floor(math.log10(max(min(finite, default=1e-3), 1e-4)))
    high = math.ceil(math.log10(max(max(finite, default=1.0), 10.0**low * 10)))
    if study.time_limit is not None:
        high = max(high, math.ceil(math.log10(study.time_limit)))
    span = max(1, high - low)

    def x(seconds: float) -> float:
        return (math.log10(max(seconds, 10.0**low)) - low) / span

    series: dict[str, list[tuple[float, float]]] = {}
    for k, engine in enumerate(study.engines):
        points = [(0.0, 0.0)]
        done = sorted(line[k] for line in times if not math.isinf(line[k]))
        for count, seconds in enumerate(done, start=1):
            points.append((x(seconds), count / total))
        series[engine] = points
    return _plot(
        f"answered versus time: {total} instances, limit {_limit(study)}",
        "seconds (log scale)",
        f"instances answered (of {total})",
        series,
        [((k - low) / span, f"{10.0**k:g}") for k in range(low, high + 1)],
        [
            (v / total, f"{v:g}")
            for v in nice_ticks(0, total, integer=True)
            if v <= total
        ]
        if total
        else [(0.0, "0")],
        extend=1.0,
    )


def nice_ticks(
    low: float, high: float, most: int = 8, *, integer: bool = False
) -> list[float]:
    """Ticks from ``low`` to ``high`` at a 1-2-5 step, at most ``most`` intervals.

    The step is the smallest of 1, 2 or 5 times a power of ten that cuts the
    span into at most ``most`` parts (at least 1 when ``integer``: counts);
    the ticks are its multiples that cover the span (the first at or below
    ``low``, the last at or above ``high``).

    Examples:
        >>> nice_ticks(0, 30)
        [0, 5, 10, 15, 20, 25, 30]
        >>> nice_ticks(0, 7)
        [0, 1, 2, 3, 4, 5, 6, 7]
        >>> nice_ticks(0, 1)
        [0, 0.2, 0.4, 0.6, 0.8, 1]
        >>> nice_ticks(0, 3, integer=True)
        [0, 1, 2, 3]
    """
    span = high - low
    if span <= 0:
        return [low]
    power = 10.0 ** math.floor(math.log10(span / most))
    step = next(m * power for m in (1, 2, 5, 10) if span / (m * power) <= most + 1e-9)
    if integer:
        step = max(step, 1.0)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    ticks = [round(k * step, 10) for k in range(first, last + 1)]
    return [int(t) if float(t).is_integer() else t for t in ticks]


def _limit(study: Study) -> str:
    return "none" if study.time_limit is None else f"{study.time_limit:g} s"


def _plot(
    title: str,
    x_label: str,
    y_label: str,
    series: dict[str, list[tuple[float, float]]],
    x_ticks: Sequence[tuple[float, str]],
    y_ticks: Sequence[tuple[float, str]],
    *,
    extend: float,
) -> str:
    """A step plot of series of points in the unit square, axes and a legend."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": attr_num(WIDTH),
            "height": attr_num(HEIGHT),
            "viewBox": f"0 0 {attr_num(WIDTH)} {attr_num(HEIGHT)}",
            "font-family": FONT,
            "font-size": "11",
        },
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    head = ET.SubElement(
        root, "text", {"x": attr_num(LEFT), "y": "22", "font-size": "13"}
    )
    head.text = title
    _draw_axes(root, x_label, y_label, x_ticks, y_ticks)
    for k, (engine, points) in enumerate(series.items()):
        _draw_series(root, k, engine, points, extend)
    return ET.tostring(root, encoding="unicode")


def _px(u: float) -> float:
    """The x pixel of ``u`` in [0, 1]."""
    return LEFT + u * (WIDTH - LEFT - RIGHT)


def _py(v: float) -> float:
    """The y pixel of ``v`` in [0, 1] (0 at the bottom)."""
    return TOP + (1 - v) * (HEIGHT - TOP - BOTTOM)


def _draw_axes(
    root: ET.Element,
    x_label: str,
    y_label: str,
    x_ticks: Sequence[tuple[float, str]],
    y_ticks: Sequence[tuple[float, str]],
) -> None:
    """The grid lines at the ticks, their labels and the axes' names."""
    px, py = _px, _py
    axes = ET.SubElement(root, "g", {"class": "axes", "stroke": "#cccccc"})
    for u, label in x_ticks:
        svg_line(axes, px(u), px(u), py(0), py(1))
        svg_label(root, px(u), py(0) + 14, label, {"text-anchor": "middle"})
    for v, label in y_ticks:
        svg_line(axes, px(0), px(1), py(v), py(v))
        svg_label(root, px(0) - 6, py(v), label, {"dy": "0.35em", "text-anchor": "end"})
    svg_label(root, px(0.5), HEIGHT - 12, x_label, {"text-anchor": "middle"})
    y_mid = attr_num(py(0.5))
    turn = {"text-anchor": "middle", "transform": f"rotate(-90 16 {y_mid})"}
    svg_label(root, 16, py(0.5), y_label, turn)


def _draw_series(
    root: ET.Element,
    k: int,
    engine: str,
    points: list[tuple[float, float]],
    extend: float,
) -> None:
    """The ``k``-th series as steps carried on to ``extend``, and its key."""
    px, py = _px, _py
    colour = LINES[k % len(LINES)]
    steps: list[tuple[float, float]] = []
    for u, v in points:
        if steps:
            steps.append((u, steps[-1][1]))
        steps.append((u, v))
    if steps:
        steps.append((extend, steps[-1][1]))
    line = ET.SubElement(
        root,
        "polyline",
        {
            "class": "series",
            "points": " ".join(
                f"{attr_num(px(u))},{attr_num(py(v))}" for u, v in steps
            ),
            "fill": "none",
            "stroke": colour,
            "stroke-width": "2",
        },
    )
    dashes = SERIES_DASHES[k % len(SERIES_DASHES)]
    if k >= len(LINES):
        dashes = "6 3" if dashes is None else None
    if dashes:
        line.set("stroke-dasharray", dashes)
    ET.SubElement(line, "title").text = engine
    y = TOP + 10 + 18 * k
    ET.SubElement(
        root,
        "line",
        {
            "x1": attr_num(px(1) + 14),
            "x2": attr_num(px(1) + 38),
            "y1": attr_num(y),
            "y2": attr_num(y),
            "stroke": colour,
            "stroke-width": "2",
            **({"stroke-dasharray": dashes} if dashes else {}),
        },
    )
    key = ET.SubElement(
        root, "text", {"x": attr_num(px(1) + 44), "y": attr_num(y), "dy": "0.35em"}
    )
    key.text = engine
