"""cpknight: knight tours, distances and reachability on any board.

The same questions answered two ways side by side: declaratively (OR-Tools
CP-SAT circuit models and integer programs) and by search (BFS, backtracking,
Warnsdorff), every answer verified.

Examples:
    >>> from cpknight import Board, distance_map
    >>> distance_map(Board.parse("8x8"), "a1")["h8"]
    6
"""

from cpknight.api import (
    collect,
    compare_distances,
    compare_tours,
    components,
    count_tours,
    distance_map,
    find_tour,
    iter_tours,
    knight_distance,
    longest_path,
    reachable,
    shortest_path,
    sweep,
    try_collect,
    try_tour,
)
from cpknight.board import Board, Cell
from cpknight.checks import check_route, check_tour, is_route, is_tour
from cpknight.constraints import TourConstraints, tour_constraints
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
    Sweep,
    SweepCell,
    Tour,
    TourCount,
    TourOutcome,
)
from cpknight.solving import SolveOptions
from cpknight.status import Effort, Status

__version__ = "0.1.0"

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
    "Route",
    "SolveLimitError",
    "SolveOptions",
    "Status",
    "Sweep",
    "SweepCell",
    "Tour",
    "TourCheckError",
    "TourConstraints",
    "TourCount",
    "TourOutcome",
    "__version__",
    "check_longest",
    "check_route",
    "check_tour",
    "collect",
    "compare_distances",
    "compare_tours",
    "components",
    "count_tours",
    "distance_map",
    "find_tour",
    "is_route",
    "is_tour",
    "iter_tours",
    "knight_distance",
    "longest_path",
    "move_graph",
    "reachable",
    "shortest_path",
    "sweep",
    "tour_constraints",
    "try_collect",
    "try_tour",
]
