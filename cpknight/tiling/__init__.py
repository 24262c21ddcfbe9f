"""The huge-board tiler: knight's tours of plain rectangles from structured tiles.

The one public face of the folder, behind the ``tiles`` tour engine:

* what it solves: :func:`solve` (the engine) and :func:`tile_tour`, a checked
  knight's tour of a plain rectangle, closed or open, through required moves,
  built from CP-SAT-made structured tiles joined in numpy (Parberry 1997);
* what it suits: :func:`suits` (what ``method='auto'`` hands it) and
  :func:`takes` (the constrained instances it accepts: required moves only),
  on :func:`plain_knight` boards;
* whether it can fix ends: :func:`fixes_ends` (both sides at least
  :data:`AUTO_MIN_SIDE`: a chain of path tiles between the two ends).

What it suits is decided in :mod:`cpknight.tours.tiles_scope` (cheap, and
read by the tour engines' ``auto``, a layer below the tiler). The modules
behind the face are internal: ``layout`` (how a
board is cut into tiles, and where two tiles join), ``build`` (the structured
tiles, by CP-SAT, and ``catalogue.json``), ``join`` (the numpy steps that join
tiles into one tour), ``strips`` (boards 3 or 4 cells high), ``tiles`` (the
tiled tour and the engine), ``chain`` (both ends fixed: a chain of path tiles)
and ``repair`` (a tiled tour rebuilt in small windows by CP-SAT). Importing
this face is cheap: the tiles load on first use.

Examples:
    >>> from cpknight.board import Board
    >>> from cpknight.pieces import KNIGHT
    >>> suits(Board((100, 100)), KNIGHT), fixes_ends(Board((11, 200)))
    (True, False)
    >>> t = tile_tour(Board((30, 40)))
    >>> t.closed, len(t.cells)
    (True, 1200)

References:
    Parberry, I. (1997). An efficient algorithm for the Knight's tour problem.
    Discrete Applied Mathematics 73, 251-260.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.runtime.lazy import exports
from cpknight.tours.tiles_scope import (
    AUTO_MIN_SIDE,
    fixes_ends,
    plain_knight,
    suits,
    takes,
)

if TYPE_CHECKING:
    from cpknight.tiling.tiles import solve, tile_tour

__all__ = [
    "AUTO_MIN_SIDE",
    "fixes_ends",
    "plain_knight",
    "solve",
    "suits",
    "takes",
    "tile_tour",
]

__getattr__, _ = exports(
    __name__,
    {"solve": "cpknight.tiling.tiles", "tile_tour": "cpknight.tiling.tiles"},
)


def __dir__() -> list[str]:
    return sorted(__all__)
