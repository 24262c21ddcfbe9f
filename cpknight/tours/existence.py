"""Which rectangular boards have knight tours: the existence theorems.

* Closed tours (Schwenk 1991): an m x n board (m <= n) has a closed knight's
  tour unless m and n are both odd; m is 1, 2 or 4; or m is 3 and n is 4, 6 or 8.
* Open tours (Conrad et al. 1994): an m x n board (m <= n) has an open knight's
  tour unless m is 1 or 2 (1 x 1 aside); m is 3 and n is 3, 5 or 6; or m is 4
  and n is 4.

The certificates, the tiles engine and ``auto`` read these.

Examples:
    >>> closed_tour_exists(8, 8), closed_tour_exists(4, 9), open_tour_exists(3, 4)
    (True, False, True)

References:
    Schwenk, A. J. (1991). Which rectangular chessboards have a knight's tour?
    Mathematics Magazine 64(5), 325-332.
    Conrad, A., Hindrichs, T., Morsy, H., Wegener, I. (1994). Solution of the
    knight's Hamiltonian path problem on chessboards. Discrete Applied
    Mathematics 50, 125-134.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpknight.errors import NoTourError

if TYPE_CHECKING:
    from cpknight.board import Board

__all__ = ["closed_tour_exists", "no_tour_error", "open_tour_exists"]


# ------------------------------------------------------------------- theorems


def closed_tour_exists(m: int, n: int) -> bool:
    """Whether the m x n board has a closed knight's tour (Schwenk 1991).

    With ``m <= n``: yes unless m and n are both odd, m is 1, 2 or 4, or
    m = 3 and n is 4, 6 or 8.

    Examples:
        >>> closed_tour_exists(8, 8), closed_tour_exists(4, 100)
        (True, False)
        >>> closed_tour_exists(3, 10), closed_tour_exists(5, 5)
        (True, False)
    """
    a, b = sorted((m, n))
    if a * b % 2 or a in (1, 2, 4):
        return False
    return not (a == 3 and b in (4, 6, 8))


def open_tour_exists(m: int, n: int) -> bool:
    """Whether the m x n board has an open knight's tour (Conrad et al. 1994).

    With ``m <= n``: 1 x 1 yes; otherwise no when m is 1 or 2, m = 3 and n is
    3, 5 or 6, or m = n = 4; yes otherwise.

    Examples:
        >>> open_tour_exists(3, 4), open_tour_exists(4, 4), open_tour_exists(5, 5)
        (True, False, True)
    """
    a, b = sorted((m, n))
    if a == b == 1:
        return True
    if a in (1, 2):
        return False
    if a == 3:
        return b == 4 or b >= 7
    return not (a == 4 and b == 4)


def no_tour_error(board: Board, *, closed: bool) -> NoTourError | None:
    """Why a plain knight rectangle has no closed (or no open) tour, or None.

    The one wording of the theorems' answer, for ``auto``
    (:func:`cpknight.tours.auto.check_theorems`) and the tiles.

    Examples:
        >>> from cpknight.board import Board
        >>> print(no_tour_error(Board((4, 8)), closed=True))
        board 4x8 has no closed knight's tour: a 4 x n board never has one \
(Schwenk 1991)
        >>> no_tour_error(Board((3, 4)), closed=False) is None
        True
    """
    m, n = sorted(board.shape)
    if closed and not closed_tour_exists(m, n):
        if m * n % 2:
            why = "both sides are odd"
        elif m in (1, 2, 4):
            why = f"a {m} x n board never has one"
        else:
            why = f"3 x {n} has none"
        return NoTourError(
            f"board {board.label} has no closed knight's tour: {why} (Schwenk 1991)",
            certificate="schwenk",
        )
    if not closed and not open_tour_exists(m, n):
        return NoTourError(
            f"board {board.label} has no open knight's tour (Conrad et al. 1994)",
            certificate="conrad",
        )
    return None
