"""What the studies share: checking the rows that come back from the workers."""

from __future__ import annotations

from typing import Any

from cpknight.board import Board, Cell
from cpknight.checks import check_tour
from cpknight.errors import TourCheckError
from cpknight.pieces import Leaper

__all__ = ["row_fault"]


def row_fault(
    board: Board,
    piece: Leaper,
    row: dict[str, Any],
    *,
    closed: bool,
    start: Cell | None = None,
    end: Cell | None = None,
) -> str | None:
    """Why a tour row that came back from a worker (or a results file) is wrong.

    A worker checks every tour before it is a row; the parent checks the row's
    cells again, so that nothing a results file says is taken on trust.

    Returns:
        ``None`` when the row is not a found tour, or its cells are a tour of
        the instance with the fixed ends; else what is wrong with it.

    Examples:
        >>> from cpknight.pieces import KNIGHT
        >>> b = Board.parse("3x4")
        >>> row = {"status": "found", "cells": [[0, 0], [2, 1]]}
        >>> row_fault(b, KNIGHT, row, closed=False)
        'the found tour fails the check: the tour has 2 cells; board 3x4 has 12 \
open cells'
        >>> row_fault(b, KNIGHT, {"status": "infeasible"}, closed=False) is None
        True
    """
    if row.get("status") != "found":
        return None
    cells = row.get("cells")
    if not isinstance(cells, list):
        return "a found tour row has no cells"
    try:
        check_tour(
            board,
            [tuple(c) for c in cells],
            piece=piece,
            closed=closed,
            start=start,
            end=end,
        )
    except (TourCheckError, ValueError) as exc:
        return f"the found tour fails the check: {exc}"
    return None
