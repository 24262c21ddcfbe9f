"""Every legend's colours stay apart for people with red-green colour blindness.

Each picture is drawn, its legend's swatches read back from the SVG, and their
colours seen as a deuteranope and a protanope see them: the simulation of
Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation
of Color Vision Deficiency", IEEE TVCG 15(6), 2009, whose matrices (severity
1.0, Table 1 of the paper's supplement) act on linear sRGB. The distance is
CIE 1976 Delta E*ab (Euclidean in CIELAB, D65 white): categories must stay at
least :data:`MIN_DELTA_E` apart; the steps of a sequential scale must keep
growing darker (L*) by at least :data:`MIN_STEP_L` a step.

Nothing is hard-coded: the colours come from the pictures, the distances are
computed here.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import numpy as np
import numpy.typing as npt
import pytest

from cpknight import collect
from cpknight.api import distance_map
from cpknight.board import Board
from cpknight.checks import make_tour
from cpknight.draw import distance_map_svg, route_svg, sweep_svg, tour_svg
from cpknight.draw.pairs import pairs_svg
from cpknight.draw.palette import THEMES
from cpknight.draw.study import profile_svg
from cpknight.pieces import KNIGHT
from cpknight.results import Sweep, SweepCell, Tour
from cpknight.status import Effort, Status
from cpknight.study import read_suite_text, run_study, sweep_pairs

NS = "{http://www.w3.org/2000/svg}"

MIN_DELTA_E = 20.0
"""Two categories' least CIE76 distance under each simulation.

About 9 just-noticeable differences (2.3 each, Sharma 2003): two swatches
a few pixels wide read as different colours, not as shades of one.
"""

MIN_STEP_L = 2.0
"""The least change of lightness (L*) between neighbouring steps of a scale."""

# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear sRGB.
MACHADO = {
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "normal vision": np.eye(3),
}

# sRGB (D65) to CIE XYZ, IEC 61966-2-1.
SRGB_TO_XYZ = np.array(
    [
        [0.4124, 0.3576, 0.1805],
        [0.2126, 0.7152, 0.0722],
        [0.0193, 0.1192, 0.9505],
    ]
)
WHITE_D65 = np.array([0.95047, 1.0, 1.08883])

KNIGHT_3X4 = ["a1", "c2", "a3", "b1", "d2", "b3", "c1", "a2", "c3", "d1", "b2", "d3"]


def linear(hex_colour: str) -> npt.NDArray[np.float64]:
    """``'#rrggbb'`` as linear sRGB in [0, 1] (the sRGB transfer undone)."""
    value = int(hex_colour.lstrip("#"), 16)
    c = np.array([value >> 16 & 255, value >> 8 & 255, value & 255]) / 255.0
    out: npt.NDArray[np.float64] = np.where(
        c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4
    )
    return out


def lab(rgb_linear: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """CIELAB (D65) of a linear sRGB colour."""
    t = (SRGB_TO_XYZ @ rgb_linear) / WHITE_D65
    d = 6 / 29
    f = np.where(t > d**3, np.cbrt(t), t / (3 * d * d) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(hex_colour: str, vision: str) -> npt.NDArray[np.float64]:
    """The colour's CIELAB as someone with ``vision`` sees it."""
    simulated = np.clip(MACHADO[vision] @ linear(hex_colour), 0.0, 1.0)
    return lab(simulated)


def legends(text: str) -> list[tuple[list[str], list[str]]]:
    """Each legend of a picture: its category colours and its scale steps."""
    root = ET.fromstring(text)
    out = []
    for group in root.iter(NS + "g"):
        if group.get("class") != "legend":
            continue
        rects = group.findall(NS + "rect")
        kinds = [(r.get("class", ""), r.get("fill", "")) for r in rects]
        out.append(
            (
                [fill for cls, fill in kinds if cls == "swatch"],
                [fill for cls, fill in kinds if cls == "swatch step"],
            )
        )
    assert out, "the picture has no legend"
    return out


def knight_3x4_tour() -> Tour:
    board = Board.parse("3x4")
    cells = [board.parse_cell(c) for c in KNIGHT_3X4]
    return make_tour(board, KNIGHT, cells, closed=False, method="hand")


def pictures() -> dict[str, str]:
    """One drawing of every picture with a legend, in every theme."""
    board = Board.parse("1x3")
    sweep = Sweep(
        board,
        KNIGHT,
        False,
        "hand",
        (
            SweepCell((0, 0), Status.FOUND, 0.01, Effort(attempts=3)),
            SweepCell((0, 1), Status.INFEASIBLE, 0.01, Effort(attempts=30)),
            SweepCell((0, 2), Status.UNKNOWN, 1.0, Effort(attempts=1500)),
        ),
    )
    tour = knight_3x4_tour()
    route = collect("3x3", "a1", ["b3"], end="a1", method="search")
    out = {
        "sweep": sweep_svg(sweep),
        "pairs": pairs_svg(sweep_pairs("3x4", method="prune")),
        "distance map": distance_map_svg(distance_map("holed8", "a1")),
        "tour as a gradient": tour_svg(tour, gradient=True),
    }
    for name in THEMES:
        out[f"tour, {name}"] = tour_svg(tour, theme=name)
        out[f"route, {name}"] = route_svg(route, theme=name)
    return out


PICTURES = pictures()


@pytest.mark.parametrize("vision", list(MACHADO))
@pytest.mark.parametrize("picture", list(PICTURES))
def test_legend_categories_stay_apart(picture: str, vision: str) -> None:
    for categories, _ in legends(PICTURES[picture]):
        for a, b in itertools.combinations(categories, 2):
            distance = float(np.linalg.norm(seen(a, vision) - seen(b, vision)))
            assert distance >= MIN_DELTA_E, (picture, vision, a, b, distance)


@pytest.mark.parametrize("vision", list(MACHADO))
@pytest.mark.parametrize("picture", ["distance map", "tour as a gradient"])
def test_legend_scales_keep_their_order(picture: str, vision: str) -> None:
    (_, steps), *_ = legends(PICTURES[picture])
    assert len(steps) >= 2
    lightness = [float(seen(c, vision)[0]) for c in steps]
    changes = np.diff(lightness)
    # One direction all along (light to dark, or dark to light), never flat.
    assert np.all(changes <= -MIN_STEP_L) or np.all(changes >= MIN_STEP_L), (
        picture,
        vision,
        lightness,
    )


def test_old_pairs_colours_failed_the_check() -> None:
    """The colours the pairs picture had before issue 24 fail for a deuteranope.

    "tour" (a mid green) and "none, by search" (a red) became one olive: the
    check above would have caught it.
    """
    tour, by_search = "#659f6e", "#c85050"
    distance = float(
        np.linalg.norm(seen(tour, "deuteranopia") - seen(by_search, "deuteranopia"))
    )
    assert distance < MIN_DELTA_E
    normal = float(
        np.linalg.norm(seen(tour, "normal vision") - seen(by_search, "normal vision"))
    )
    assert normal > 3 * MIN_DELTA_E


def test_study_lines_differ_in_colour_or_dashes() -> None:
    """Engines' lines: two too alike in colour for a deuteranope are dashed apart."""
    methods = "prune,warnsdorff,backtrack,cpsat"
    study = run_study(read_suite_text("3x4 --open"), methods=methods)
    root = ET.fromstring(profile_svg(study))
    lines = [
        (e.get("stroke", ""), e.get("stroke-dasharray"))
        for e in root.iter(NS + "polyline")
        if e.get("class") == "series"
    ]
    assert len(lines) == 4
    for vision in MACHADO:
        for (a, dash_a), (b, dash_b) in itertools.combinations(lines, 2):
            distance = float(np.linalg.norm(seen(a, vision) - seen(b, vision)))
            assert distance >= MIN_DELTA_E or dash_a != dash_b, (vision, a, b)
