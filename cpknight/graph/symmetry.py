"""The board's symmetries as permutations of its open cells.

A symmetry sends every open cell to an open cell and every move to a move:
the maps of :meth:`~cpknight.board.Board.symmetries` (axes of one length and
wrap permuted and reflected; every leaper's moves are all signed permutations
of its vector, so each maps the move graph onto itself) and, on a board whose
axes wrap, the translations along them. The covering programs break the
symmetry with the first kind (:func:`cell_permutations`); the counts up to
symmetry (:mod:`cpknight.counting.symmetry`) take the whole group
(:func:`symmetry_group`).

Examples:
    >>> from cpknight.board import Board
    >>> len(symmetry_group(Board.parse("8x8")))  # the square's 8
    8
    >>> len(symmetry_group(Board((4, 5), topology="torus")))  # 20 shifts x 4
    80
"""

from __future__ import annotations

import itertools

import numpy as np

from cpknight.board import Board

__all__ = [
    "cell_permutations",
    "stabiliser_permutations",
    "symmetry_group",
    "transitive_torus",
]

Permutation = tuple[int, ...]
"""``p[i]``: the image of open cell ``i`` (cells numbered in board order, as
the move graph numbers its nodes)."""


def cell_permutations(board: Board) -> list[Permutation]:
    """The board's symmetries other than the identity, as permutations of cells.

    :meth:`~cpknight.board.Board.symmetries` (axes of one length and wrap
    permuted and reflected, the open cells kept; every leaper's moves are all
    signed permutations of its vector, so each also maps the move graph onto
    itself), each given as ``p`` with ``p[i]`` the image of open cell ``i``
    (cells numbered in board order, as the move graph numbers its nodes). The
    translations of a torus are left out.

    Examples:
        >>> len(cell_permutations(Board.parse("8x8")))  # the square's 8, less one
        7
        >>> len(cell_permutations(Board.parse("3x4"))), len(cell_permutations(
        ...     Board.parse("holed8")))
        (3, 7)
        >>> len(cell_permutations(Board.parse("3x3x3")))
        47
    """
    board.require_finite("symmetries")
    return _point_permutations(board, about_origin=False)


def _point_permutations(board: Board, *, about_origin: bool) -> list[Permutation]:
    """The board's point symmetries but the identity, as permutations of cells.

    A reflection sends ``x`` to ``size - 1 - x``, or with ``about_origin`` to
    ``-x`` modulo the size (a torus's, keeping ``x = 0``).
    """
    mask = board.open_mask
    node_of = np.full(board.shape, -1, dtype=np.int64)
    node_of[mask] = np.arange(int(mask.sum()))
    cells = np.argwhere(mask)
    found: list[Permutation] = []
    for axes, flips in board.symmetries():
        image = cells[:, list(axes)]
        for axis, flip in enumerate(flips):
            if flip:
                size, x = board.shape[axis], image[:, axis]
                image[:, axis] = (-x) % size if about_origin else size - 1 - x
        found.append(tuple(int(t) for t in node_of[tuple(image.T)].tolist()))
    return found


def transitive_torus(board: Board) -> bool:
    """Whether the translations alone take any cell to any other.

    That is, every axis wraps and no cell is blocked; then every leaper's move
    graph looks the same from every cell.

    Examples:
        >>> transitive_torus(Board((5, 6), topology="torus"))
        True
        >>> transitive_torus(Board((5, 6), topology="cylinder"))
        False
    """
    return bool(board.wrap and all(board.wrap) and board.open_mask.all())


def stabiliser_permutations(board: Board) -> list[Permutation]:
    """The point symmetries of a full torus that keep its first cell, but one.

    The first cell is the corner ``(0, ..., 0)``; the identity is left out.

    The reflections of :func:`cell_permutations` send ``x`` to
    ``size - 1 - x``; on a torus ``x -> -x`` (modulo the size) is a symmetry
    too, and it keeps ``x = 0``. With the translations they make the whole
    group, so a program may put a piece on the first cell and still break
    these.

    Examples:
        >>> torus = Board((4, 4), topology="torus")
        >>> perms = stabiliser_permutations(torus)
        >>> len(perms), all(p[0] == 0 for p in perms)
        (7, True)
    """
    if not transitive_torus(board):
        raise ValueError("the stabiliser of a cell is taken on a full torus")
    return _point_permutations(board, about_origin=True)


def symmetry_group(board: Board) -> list[Permutation]:
    """Every symmetry of the board, the identity first, as permutations of cells.

    The point symmetries of :func:`cell_permutations` and the identity, each
    followed by every translation along the wrapping axes that keeps the open
    cells (all of them on a board without holes): the group they generate,
    each element once.

    Examples:
        >>> len(symmetry_group(Board.parse("3x4")))
        4
        >>> len(symmetry_group(Board((4, 4), topology="torus")))  # 16 x 8
        128
        >>> len(symmetry_group(Board((3, 4), topology="cylinder")))  # wraps one way
        16
    """
    board.require_finite("symmetries")
    mask = board.open_mask
    node_of = np.full(board.shape, -1, dtype=np.int64)
    node_of[mask] = np.arange(int(mask.sum()))
    cells = np.argwhere(mask)
    shifts = [
        range(s) if w else range(1)
        for s, w in zip(board.shape, board.wrap, strict=True)
    ]
    moves: list[Permutation] = []
    for shift in itertools.product(*shifts):
        image = (cells + np.array(shift, dtype=np.int64)) % np.array(board.shape)
        if mask[tuple(image.T)].all():
            moves.append(tuple(int(t) for t in node_of[tuple(image.T)].tolist()))
    n = len(cells)
    points = [tuple(range(n)), *cell_permutations(board)]
    seen: dict[Permutation, None] = {}
    for point in points:
        for move in moves:
            seen.setdefault(tuple(move[point[i]] for i in range(n)), None)
    return list(seen)
