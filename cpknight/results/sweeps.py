"""Sweeps: one question asked from every cell of a board, one cell a row."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpknight.board import Board, Cell, CellLike
from cpknight.pieces import Leaper
from cpknight.results.outcomes import Outcome
from cpknight.status import Effort, Status

__all__ = ["Sweep", "SweepCell"]


@dataclass(frozen=True)
class SweepCell:
    """One start cell of a sweep.

    Attributes:
        cell: the start cell.
        status: ``found``, ``infeasible`` (proved none) or ``unknown``
            (the limit was reached), the words of ``cpknight tour --json``.
        seconds: wall time for this cell.
        effort: what the engine counted.
        reason: why there is none, or why it stopped (``None`` when found).
    """

    cell: Cell
    status: Status
    seconds: float
    effort: Effort = field(default_factory=Effort)
    reason: str | None = None


@dataclass(frozen=True, eq=False)
class Sweep:
    """For every start cell: whether a tour from it exists, its time and effort.

    Attributes:
        board: the board.
        piece: the leaper.
        closed: closed or open tours.
        method: the engine used.
        cells: one :class:`SweepCell` per open cell, row-major (cells that Ctrl-C
            or the sweep's budget left unfinished are ``unknown``, and say so).
        interrupted: whether Ctrl-C stopped the sweep.
    """

    board: Board
    piece: Leaper
    closed: bool
    method: str
    cells: tuple[SweepCell, ...]
    interrupted: bool = False

    def counts(self) -> dict[str, int]:
        """How many cells ended in each status (``found``, ``infeasible``, ...)."""
        out = {"found": 0, "infeasible": 0, "unknown": 0}
        for item in self.cells:
            out[item.status] = out.get(item.status, 0) + 1
        return out

    def __getitem__(self, cell: CellLike) -> SweepCell:
        where = self.board.parse_cell(cell)
        for item in self.cells:
            if item.cell == where:
                return item
        raise KeyError(cell)

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "instance", "counts", "rows"}``: one outcome row a start cell.

        Each row has the keys of :meth:`Outcome.as_dict` and ``start``, the cell.

        Examples:
            >>> from cpknight import sweep
            >>> d = sweep("3x4", closed=False, method="prune").as_dict()
            >>> d["counts"], d["rows"][0]["start"], d["rows"][0]["status"]
            ({'found': 6, 'infeasible': 6, 'unknown': 0}, [0, 0], 'found')
        """
        rows = []
        for item in self.cells:
            row = Outcome(
                "tour",
                self.method,
                Status(item.status),
                item.seconds,
                item.effort,
                reason=item.reason,
            ).as_dict()
            row["start"] = list(item.cell)
            rows.append(row)
        return {
            "question": "sweep",
            "instance": {
                "board": self.board.label,
                "piece": list(self.piece.vector),
                "closed": self.closed,
                "method": self.method,
            },
            "counts": self.counts(),
            "rows": rows,
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per start cell (:mod:`cpknight.text.frames`)."""
        from cpknight.text.frames import sweep_frame

        return sweep_frame(self)

    def __str__(self) -> str:
        from cpknight.text.display import sweep_str

        return sweep_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import sweep_html

        return sweep_html(self)

    def _repr_svg_(self) -> str:
        """The sweep as an SVG picture, for notebooks."""
        from cpknight.draw import sweep_svg

        return sweep_svg(self)

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        counts = ", ".join(f"{k} {v}" for k, v in self.counts().items())
        return f"<Sweep {kind} {self.board.label} by {self.method}: {counts}>"
