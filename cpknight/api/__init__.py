"""The front doors: one function per question, and the method registries.

Every function here validates its input at the boundary (board, piece, cells,
options), then hands plain data to an engine. Boards may be given as
:class:`~cpknight.board.Board` values or as specs (``'8x8'``, ``'holed8'``);
pieces as :class:`~cpknight.pieces.Leaper` values, names or tuples; cells as
names or tuples.

Engines are looked up in :data:`TOUR_METHODS` and :data:`DISTANCE_METHODS` and
imported only when used, so that asking for a distance never loads OR-Tools.

Examples:
    >>> int(knight_distance("8x8", "a1", "h8"))
    6
    >>> len(reachable("3x3", "a1"))
    8
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.runtime.lazy import exports

if TYPE_CHECKING:
    from cpknight.api.common import BoardLike, resolve
    from cpknight.api.counting import (
        COUNT_METHODS,
        count_tours,
        count_tours_sharded,
        tours_up_to_symmetry,
        try_count,
    )
    from cpknight.api.covering import (
        COVER_METHODS,
        compare_covers,
        dominate,
        independent,
        try_cover,
    )
    from cpknight.api.distances import (
        compare_distances,
        components,
        distance_map,
        knight_distance,
        reach_split,
        reachable,
        shortest_path,
    )
    from cpknight.api.formulation import build_model
    from cpknight.api.longest import compare_longest, longest_path, try_longest
    from cpknight.api.routes import collect, try_collect
    from cpknight.api.swaps import compare_swaps, solve_swap, try_swap
    from cpknight.api.tours import (
        compare_tours,
        complete_tour,
        find_tour,
        iter_tours,
        sweep,
        try_tour,
    )
    from cpknight.distances import ENGINES as DISTANCE_METHODS
    from cpknight.longest import ENGINES as LONGEST_METHODS
    from cpknight.routes import ENGINES as ROUTE_METHODS
    from cpknight.swaps import ENGINES as SWAP_METHODS
    from cpknight.tours import ENGINES as TOUR_METHODS
    from cpknight.tours.auto import choose_tour_method

_WHERE = {
    "BoardLike": "cpknight.api.common",
    "resolve": "cpknight.api.common",
    "COUNT_METHODS": "cpknight.api.counting",
    "count_tours": "cpknight.api.counting",
    "count_tours_sharded": "cpknight.api.counting",
    "tours_up_to_symmetry": "cpknight.api.counting",
    "try_count": "cpknight.api.counting",
    "COVER_METHODS": "cpknight.api.covering",
    "compare_covers": "cpknight.api.covering",
    "dominate": "cpknight.api.covering",
    "independent": "cpknight.api.covering",
    "try_cover": "cpknight.api.covering",
    "compare_distances": "cpknight.api.distances",
    "components": "cpknight.api.distances",
    "distance_map": "cpknight.api.distances",
    "knight_distance": "cpknight.api.distances",
    "reach_split": "cpknight.api.distances",
    "reachable": "cpknight.api.distances",
    "shortest_path": "cpknight.api.distances",
    "build_model": "cpknight.api.formulation",
    "compare_longest": "cpknight.api.longest",
    "longest_path": "cpknight.api.longest",
    "try_longest": "cpknight.api.longest",
    "collect": "cpknight.api.routes",
    "try_collect": "cpknight.api.routes",
    "compare_swaps": "cpknight.api.swaps",
    "solve_swap": "cpknight.api.swaps",
    "try_swap": "cpknight.api.swaps",
    "compare_tours": "cpknight.api.tours",
    "complete_tour": "cpknight.api.tours",
    "find_tour": "cpknight.api.tours",
    "iter_tours": "cpknight.api.tours",
    "sweep": "cpknight.api.tours",
    "try_tour": "cpknight.api.tours",
    "DISTANCE_METHODS": "cpknight.distances:ENGINES",
    "LONGEST_METHODS": "cpknight.longest:ENGINES",
    "ROUTE_METHODS": "cpknight.routes:ENGINES",
    "SWAP_METHODS": "cpknight.swaps:ENGINES",
    "TOUR_METHODS": "cpknight.tours:ENGINES",
    "choose_tour_method": "cpknight.tours.auto",
}

__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = [
    "COUNT_METHODS",
    "COVER_METHODS",
    "DISTANCE_METHODS",
    "LONGEST_METHODS",
    "ROUTE_METHODS",
    "SWAP_METHODS",
    "TOUR_METHODS",
    "BoardLike",
    "build_model",
    "choose_tour_method",
    "collect",
    "compare_covers",
    "compare_distances",
    "compare_longest",
    "compare_swaps",
    "compare_tours",
    "complete_tour",
    "components",
    "count_tours",
    "count_tours_sharded",
    "distance_map",
    "dominate",
    "find_tour",
    "independent",
    "iter_tours",
    "knight_distance",
    "longest_path",
    "reach_split",
    "reachable",
    "resolve",
    "shortest_path",
    "solve_swap",
    "sweep",
    "tours_up_to_symmetry",
    "try_collect",
    "try_count",
    "try_cover",
    "try_longest",
    "try_swap",
    "try_tour",
]
