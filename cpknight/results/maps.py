"""Distance maps: the number of moves from a source to every cell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from cpknight.board import Board, Cell, CellLike
from cpknight.pieces import Leaper

__all__ = ["DistanceMap"]


@dataclass(frozen=True, eq=False)
class DistanceMap:
    """The number of moves from a source to every cell.

    Index it by cell: ``m[(r, c)]`` or ``m["b3"]`` gives an int, or ``None`` when
    the cell is blocked or unreachable.

    Attributes:
        board: the board.
        piece: the leaper.
        source: the source cell.
        array: board-shaped int array: moves to each cell, :attr:`UNREACHABLE`
            (-1) if unreachable, :attr:`BLOCKED` (-2) if blocked; ``array < 0``
            is every cell without a distance.
    """

    board: Board
    piece: Leaper
    source: Cell
    array: npt.NDArray[np.int32]
    UNREACHABLE: ClassVar[int] = -1
    BLOCKED: ClassVar[int] = -2

    def __getitem__(self, cell: CellLike) -> int | None:
        where = self.board.parse_cell(cell, allow_blocked=True)
        value = int(self.array[where])
        return None if value < 0 else value

    @property
    def max_distance(self) -> int:
        """The largest distance to a reachable cell (the source's eccentricity)."""
        return int(self.array.max())

    @property
    def n_reachable(self) -> int:
        """The number of cells reachable from the source (the source included)."""
        return int((self.array >= 0).sum())

    def unreachable(self) -> list[Cell]:
        """The open cells that cannot be reached, row-major."""
        where = np.argwhere((self.array < 0) & self.board.open_mask)
        return [tuple(int(x) for x in row) for row in where]

    def to_lists(self) -> Any:
        """Nested lists indexed by coordinates, ``None`` for blocked or unreachable."""
        return _nested(self.array)

    def as_dict(self) -> dict[str, Any]:
        """The map's JSON: board, piece, source and the nested distances.

        Examples:
            >>> from cpknight import distance_map
            >>> distance_map("3x3", "a1").as_dict()["distances"][1]
            [3, None, 1]
        """
        return {
            "board": self.board.label,
            "piece": list(self.piece.vector),
            "source": list(self.source),
            "distances": self.to_lists(),
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per open cell: ``cell``, ``coords``, ``distance``.

        ``distance`` is ``<NA>`` where the cell cannot be reached.
        """
        from cpknight.text.frames import distance_map_frame

        return distance_map_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import distance_map_str

        return distance_map_str(self)

    def _repr_svg_(self) -> str:
        """The distance map as an SVG heat map, for notebooks."""
        from cpknight.draw import distance_map_svg

        return distance_map_svg(self)

    def __repr__(self) -> str:
        return (
            f"<DistanceMap {self.board.label} {self.piece.label} from "
            f"{self.board.cell_name(self.source)}, max {self.max_distance}>"
        )


def _nested(array: npt.NDArray[np.int32]) -> Any:
    if array.ndim == 1:
        return [None if int(v) < 0 else int(v) for v in array]
    return [_nested(sub) for sub in array]
