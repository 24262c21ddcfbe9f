"""Comparisons and sweeps: several engines on one instance, or on many."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpknight.board import Board, Cell, CellLike
from cpknight.pieces import Leaper
from cpknight.results.outcomes import Outcome
from cpknight.status import Effort, Status

__all__ = ["Comparison", "Sweep", "SweepCell"]


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
class Comparison:
    """The same instance through several engines: one outcome each, cross-checked.

    Attributes:
        question: ``'tour'`` or ``'distance'``.
        instance: the instance as plain data (board label, piece vector, cells,
            time limit), as the JSON shows it.
        rows: one :class:`Outcome` per engine, in the order asked.
    """

    question: str
    instance: dict[str, Any]
    rows: tuple[Outcome, ...]

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the comparison (rows after it were not run)."""
        return any(row.interrupted for row in self.rows)

    def statuses(self) -> list[str]:
        """Each engine's status word, in row order."""
        return [str(o.status) for o in self.rows]

    @property
    def fastest(self) -> Outcome | None:
        """The fastest outcome that answered (found, optimal or proved none)."""
        answered = [o for o in self.rows if o.status.proved]
        return min(answered, key=lambda o: o.seconds) if answered else None

    def as_dict(self) -> dict[str, Any]:
        """``{"question", "instance", "rows"}``, each row an :meth:`Outcome.as_dict`."""
        return {
            "question": self.question,
            "instance": dict(self.instance),
            "rows": [o.as_dict() for o in self.rows],
        }

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, a row per engine (see :mod:`cpknight.text.frames`)."""
        from cpknight.text.frames import outcomes_frame

        return outcomes_frame(self.rows)

    def __str__(self) -> str:
        from cpknight.text.display import comparison_str

        return comparison_str(self)

    def _repr_html_(self) -> str:
        from cpknight.text.display import comparison_html

        return comparison_html(self)

    def __repr__(self) -> str:
        return f"<Comparison {self.question}: {', '.join(self.statuses())}>"


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
