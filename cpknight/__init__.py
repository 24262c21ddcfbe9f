"""cpknight: knight tours, distances and reachability on any board.

The same questions answered two ways side by side: declaratively (OR-Tools
CP-SAT circuit models and integer programs) and by search (BFS, backtracking,
Warnsdorff), every answer verified.

Public names are loaded on first use (:mod:`cpknight.runtime.lazy`): ``import
cpknight`` is quick, and each command loads only the modules it needs.

Examples:
    >>> from cpknight import Board, distance_map
    >>> distance_map(Board.parse("8x8"), "a1")["h8"]
    6
"""

from cpknight.runtime.lazy import exports
from cpknight.runtime.moved import install as _install_moved_modules
from cpknight.runtime.pandas_later import install as _defer_pandas

TYPE_CHECKING = False  # importing typing costs start-up; mypy reads the names

if TYPE_CHECKING:
    from cpknight.api import (
        collect,
        compare_distances,
        compare_tours,
        complete_tour,
        components,
        count_tours,
        distance_map,
        dominate,
        find_tour,
        independent,
        iter_tours,
        knight_distance,
        longest_path,
        reachable,
        shortest_path,
        solve_swap,
        sweep,
        try_collect,
        try_tour,
    )
    from cpknight.board import Board, Cell
    from cpknight.checks import check_route, check_tour, is_route, is_tour
    from cpknight.constraints import TourConstraints, tour_constraints
    from cpknight.covering.common import Cover, check_cover
    from cpknight.errors import (
        CpknightError,
        EngineError,
        InvalidBoardError,
        InvalidCellError,
        InvalidInputError,
        InvalidPieceError,
        NoPathError,
        NoTourError,
        SolveLimitError,
        TourCheckError,
    )
    from cpknight.longest.common import LongestPath, check_longest
    from cpknight.named_boards import NAMED_BOARDS
    from cpknight.pieces import (
        CAMEL,
        GIRAFFE,
        KNIGHT,
        NAMED_PIECES,
        ZEBRA,
        Leaper,
        MoveGraph,
        move_graph,
    )
    from cpknight.results import (
        Comparison,
        Distance,
        DistanceMap,
        Outcome,
        Route,
        ScoredTour,
        Sweep,
        SweepCell,
        Tour,
        TourCount,
        TourOutcome,
    )
    from cpknight.runtime.progress import Progress
    from cpknight.scores import count_crossings, count_turns
    from cpknight.solving import SolveOptions
    from cpknight.status import Effort, Status
    from cpknight.study import PairSweep, Study, run_study, sweep_pairs
    from cpknight.swaps.common import Swap, check_swap

__version__ = "0.1.0"

_WHERE = {
    "collect": "cpknight.api",
    "compare_distances": "cpknight.api",
    "compare_tours": "cpknight.api",
    "components": "cpknight.api",
    "count_tours": "cpknight.api",
    "distance_map": "cpknight.api",
    "dominate": "cpknight.api",
    "independent": "cpknight.api",
    "find_tour": "cpknight.api",
    "iter_tours": "cpknight.api",
    "knight_distance": "cpknight.api",
    "longest_path": "cpknight.api",
    "reachable": "cpknight.api",
    "shortest_path": "cpknight.api",
    "solve_swap": "cpknight.api",
    "sweep": "cpknight.api",
    "try_collect": "cpknight.api",
    "try_tour": "cpknight.api",
    "complete_tour": "cpknight.api",
    "Board": "cpknight.board",
    "Cell": "cpknight.board",
    "check_route": "cpknight.checks",
    "check_tour": "cpknight.checks",
    "is_route": "cpknight.checks",
    "is_tour": "cpknight.checks",
    "TourConstraints": "cpknight.constraints",
    "tour_constraints": "cpknight.constraints",
    "CpknightError": "cpknight.errors",
    "EngineError": "cpknight.errors",
    "InvalidBoardError": "cpknight.errors",
    "InvalidCellError": "cpknight.errors",
    "InvalidInputError": "cpknight.errors",
    "InvalidPieceError": "cpknight.errors",
    "NoPathError": "cpknight.errors",
    "NoTourError": "cpknight.errors",
    "SolveLimitError": "cpknight.errors",
    "TourCheckError": "cpknight.errors",
    "Cover": "cpknight.covering.common",
    "check_cover": "cpknight.covering.common",
    "LongestPath": "cpknight.longest.common",
    "check_longest": "cpknight.longest.common",
    "NAMED_BOARDS": "cpknight.named_boards",
    "CAMEL": "cpknight.pieces",
    "GIRAFFE": "cpknight.pieces",
    "KNIGHT": "cpknight.pieces",
    "NAMED_PIECES": "cpknight.pieces",
    "ZEBRA": "cpknight.pieces",
    "Leaper": "cpknight.pieces",
    "MoveGraph": "cpknight.pieces",
    "move_graph": "cpknight.pieces",
    "Comparison": "cpknight.results",
    "Distance": "cpknight.results",
    "DistanceMap": "cpknight.results",
    "Outcome": "cpknight.results",
    "Route": "cpknight.results",
    "Sweep": "cpknight.results",
    "SweepCell": "cpknight.results",
    "Tour": "cpknight.results",
    "TourCount": "cpknight.results",
    "TourOutcome": "cpknight.results",
    "ScoredTour": "cpknight.results",
    "count_crossings": "cpknight.scores",
    "count_turns": "cpknight.scores",
    "Progress": "cpknight.runtime.progress",
    "SolveOptions": "cpknight.solving",
    "PairSweep": "cpknight.study",
    "Study": "cpknight.study",
    "run_study": "cpknight.study",
    "sweep_pairs": "cpknight.study",
    "Effort": "cpknight.status",
    "Status": "cpknight.status",
    "Swap": "cpknight.swaps.common",
    "check_swap": "cpknight.swaps.common",
}

__getattr__, __dir__ = exports(__name__, _WHERE)
_install_moved_modules()  # the old names of moved modules, for one release
_defer_pandas()  # OR-Tools loads pandas when its pandas helpers are used, not before

__all__ = [
    "CAMEL",
    "GIRAFFE",
    "KNIGHT",
    "NAMED_BOARDS",
    "NAMED_PIECES",
    "ZEBRA",
    "Board",
    "Cell",
    "Comparison",
    "Cover",
    "CpknightError",
    "Distance",
    "DistanceMap",
    "Effort",
    "EngineError",
    "InvalidBoardError",
    "InvalidCellError",
    "InvalidInputError",
    "InvalidPieceError",
    "Leaper",
    "LongestPath",
    "MoveGraph",
    "NoPathError",
    "NoTourError",
    "Outcome",
    "PairSweep",
    "Progress",
    "Route",
    "ScoredTour",
    "SolveLimitError",
    "SolveOptions",
    "Status",
    "Study",
    "Swap",
    "Sweep",
    "SweepCell",
    "Tour",
    "TourCheckError",
    "TourConstraints",
    "TourCount",
    "TourOutcome",
    "__version__",
    "check_cover",
    "check_longest",
    "check_route",
    "check_swap",
    "check_tour",
    "collect",
    "compare_distances",
    "compare_tours",
    "complete_tour",
    "components",
    "count_crossings",
    "count_tours",
    "count_turns",
    "distance_map",
    "dominate",
    "find_tour",
    "independent",
    "is_route",
    "is_tour",
    "iter_tours",
    "knight_distance",
    "longest_path",
    "move_graph",
    "reachable",
    "run_study",
    "shortest_path",
    "solve_swap",
    "sweep",
    "sweep_pairs",
    "tour_constraints",
    "try_collect",
    "try_tour",
]
