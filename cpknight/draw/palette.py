"""The one palette every picture draws with: colour-blind-safe, themed.

The hues are Okabe and Ito's eight colours (*Color Universal Design*, 2008),
chosen so that people with the common red-green deficiencies (deuteranopia,
protanopia) still tell them apart; the sequential scales are ColorBrewer's
YlGnBu (distances) and Blues (effort), which keep growing darker under every
deficiency because they vary most in lightness. ``tests/test_palette.py``
simulates deuteranopia and protanopia (Machado, Oliveira and Fernandes, 2009)
on every legend of every picture and checks the colours stay apart.

A :class:`Theme` holds the colours of the board itself and of what is drawn on
it; :data:`THEMES` names the built-in ones (the ``--theme`` option).

Examples:
    >>> theme_of("classic").path
    '#0072b2'
    >>> sorted(THEMES)
    ['blue', 'classic', 'print']
"""

from __future__ import annotations

from dataclasses import dataclass

from cpknight.errors import InvalidInputError

__all__ = ["OKABE_ITO", "THEMES", "Theme", "theme_of"]

RGB = tuple[int, int, int]


def rgb(text: str) -> RGB:
    """``'#0072b2'`` as ``(0, 114, 178)``.

    Examples:
        >>> rgb("#0072b2")
        (0, 114, 178)
    """
    value = int(text.lstrip("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#e69f00",
    "sky blue": "#56b4e9",
    "bluish green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermillion": "#d55e00",
    "reddish purple": "#cc79a7",
}
"""Okabe and Ito's colour-universal-design palette (2008), by name."""

# Statuses (sweeps and pair sweeps): a tour is blue, "none" is vermillion
# (proved by search) or a pale orange (ruled out by a certificate), "unknown"
# is yellow; blue against orange-red is the pair every deficiency keeps.
FOUND_LOW: RGB = (198, 219, 239)
"""The cheapest start that has a tour (ColorBrewer Blues, light)."""
FOUND_HIGH: RGB = (8, 69, 148)
"""The dearest start that has a tour (ColorBrewer Blues, dark)."""
FOUND: RGB = (66, 146, 198)
"""A tour, in a legend (ColorBrewer Blues, middle)."""
PROVED: RGB = rgb(OKABE_ITO["vermillion"])
"""Proved to have none, by search or CP-SAT."""
CERTIFIED: RGB = (253, 208, 162)
"""Ruled out by a certificate without solving (ColorBrewer Oranges, light)."""
UNKNOWN: RGB = rgb(OKABE_ITO["yellow"])
"""The limit came first."""
DIAGONAL: RGB = (200, 200, 200)
"""A pair sweep's diagonal (a cell with itself)."""

BLOCKED: RGB = (50, 50, 50)
"""Blocked cells on pictures that colour the cells by a value (near-black)."""
UNREACHABLE: RGB = (255, 255, 255)
"""Cells no walk from the source reaches (a distance map)."""

HEAT: tuple[RGB, ...] = (
    (255, 255, 217),
    (199, 233, 180),
    (127, 205, 187),
    (65, 182, 196),
    (29, 145, 192),
    (34, 94, 168),
    (12, 44, 132),
)
"""A light-to-dark sequential scale for distances (ColorBrewer YlGnBu)."""

GRADIENT: tuple[RGB, ...] = (
    (68, 1, 84),
    (59, 82, 139),
    (33, 145, 140),
    (94, 201, 98),
    (253, 231, 37),
)
"""The order along a huge tour, first to last (viridis: monotone in lightness)."""

SERIES: tuple[str, ...] = (
    OKABE_ITO["blue"],
    OKABE_ITO["orange"],
    OKABE_ITO["bluish green"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["sky blue"],
    OKABE_ITO["reddish purple"],
    OKABE_ITO["black"],
)
"""One colour per engine in the study plots (Okabe-Ito, yellow left out)."""

SERIES_DASHES: tuple[str | None, ...] = (None, "6 3", None, "2 2", "6 3", None, "2 2")
"""A dash pattern per series, so that lines stay apart without colour."""


@dataclass(frozen=True)
class Theme:
    """The colours of a picture: the board's squares and what is drawn on them.

    Attributes:
        name: the theme's name.
        light: the light squares (a1 is dark, as on a chessboard).
        dark: the dark squares.
        blocked: blocked cells.
        path: the moves of a tour or route.
        start: the ring on the first cell.
        end: the ring on the last cell.
        food: the outline of a route's food cells.
        source: the outline of a distance map's source.
        highlight: the fill of highlighted cells.
        arrow: arrows drawn over the board.
        text: numbers in cells.
        label: coordinates.
    """

    name: str
    light: RGB
    dark: RGB
    blocked: RGB
    path: str
    start: str
    end: str
    food: str
    source: str
    highlight: str
    arrow: str
    text: str = "#111111"
    label: str = "#444444"


THEMES: dict[str, Theme] = {
    "classic": Theme(
        name="classic",
        light=(240, 217, 181),
        dark=(181, 136, 99),
        blocked=(50, 50, 50),
        path=OKABE_ITO["blue"],
        start=OKABE_ITO["bluish green"],
        end=OKABE_ITO["vermillion"],
        food=OKABE_ITO["black"],
        source=OKABE_ITO["reddish purple"],
        highlight=OKABE_ITO["yellow"],
        arrow=OKABE_ITO["vermillion"],
    ),
    "blue": Theme(
        name="blue",
        light=(222, 227, 230),
        dark=(140, 162, 173),
        blocked=(40, 44, 52),
        path=OKABE_ITO["blue"],
        start=OKABE_ITO["bluish green"],
        end=OKABE_ITO["vermillion"],
        food=OKABE_ITO["black"],
        source=OKABE_ITO["vermillion"],
        highlight=OKABE_ITO["yellow"],
        arrow=OKABE_ITO["orange"],
    ),
    "print": Theme(
        name="print",
        light=(255, 255, 255),
        dark=(222, 222, 222),
        blocked=(60, 60, 60),
        path="#000000",
        start=OKABE_ITO["bluish green"],
        end=OKABE_ITO["vermillion"],
        food=OKABE_ITO["sky blue"],
        source=OKABE_ITO["vermillion"],
        highlight=OKABE_ITO["sky blue"],
        arrow=OKABE_ITO["vermillion"],
    ),
}
"""The built-in themes: ``classic`` (brown board), ``blue``, ``print`` (grey)."""


def theme_of(theme: str | Theme | None) -> Theme:
    """A theme: by name (one of :data:`THEMES`), as given, or the classic one.

    Raises:
        InvalidInputError: an unknown name.

    Examples:
        >>> theme_of(None).name, theme_of("print").path
        ('classic', '#000000')
        >>> theme_of("pink")
        Traceback (most recent call last):
        ...
        cpknight.errors.InvalidInputError: expected a theme in blue, classic, \
print: 'pink'
    """
    if theme is None:
        return THEMES["classic"]
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        names = ", ".join(sorted(THEMES))
        raise InvalidInputError(f"expected a theme in {names}: {theme!r}") from None
