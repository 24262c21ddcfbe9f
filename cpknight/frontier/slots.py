"""The slot codes of a frontier state, and their algebra in plain Python.

A state of the frontier program holds one code per frontier cell (a *slot*):

- :data:`DEG0`: the cell has no move yet (a path of one cell, its own other
  end);
- :data:`FULL`: the cell takes no more moves (degree 2, or a tour end);
- :data:`DANGLING`: one end of a path whose other end is already a tour end;
- :data:`MATE` ``+ p``: one end of a path whose other end is slot ``p``;
- :data:`OUT` (induced paths, :mod:`cpknight.longest`): the cell is not on
  the path.

Both frontier programs read them: counting tours (:mod:`cpknight.counting`)
and the longest uncrossed and induced paths (:mod:`cpknight.longest`). Their
plain-Python kernels (the references the compiled ones are held to) share the
algebra here: :func:`partner`, :func:`join`, :func:`end_at` and
:func:`renumber`. The compiled kernels pack the codes in 64-bit words,
:data:`PER_WORD` to a word, :data:`CODE_BITS` bits each (:data:`OUT_CODE`
for a cell off the path), and read these constants as module globals: numba
takes a global int as a constant when it compiles (a compiled kernel's cache
is keyed on its own file, so a change of a code here wants its cache cleared).

Examples:
    >>> codes = [DEG0, DEG0, DEG0]  # three cells, no move yet
    >>> join(codes, 0, 2), codes  # slots 0 and 2 joined: ends of one path
    (0, [5, 0, 3])
    >>> join(codes, 1, 2), codes  # slot 2 then full, the path runs 0..1
    (0, [4, 3, 1])
    >>> renumber(codes, (2,))  # slot 2 leaves
    (4, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CODE_BITS",
    "CODE_MASK",
    "CYCLE",
    "DANGLING",
    "DEG0",
    "ENDS_SHIFT",
    "FULL",
    "JOINED",
    "MATE",
    "OUT",
    "OUT_CODE",
    "PER_WORD",
    "WHOLE",
    "end_at",
    "join",
    "partner",
    "renumber",
]

DEG0 = 0
"""Slot code: the cell has no move yet (a path of one cell, its own other end)."""
FULL = 1
"""Slot code: the cell takes no more moves (degree 2, or a tour end)."""
DANGLING = 2
"""Slot code: one end of a path whose other end is already a tour end."""
MATE = 3
"""Slot codes ``MATE + p``: one end of a path whose other end is slot ``p``."""
OUT = -1
"""Slot code (induced paths): the cell is not on the path."""

CODE_BITS = 5
"""Bits of a packed slot code (the compiled kernels' words)."""
CODE_MASK = (1 << CODE_BITS) - 1
"""The mask of one packed slot code (31)."""
PER_WORD = 12
"""Packed slot codes a 64-bit word holds (12 of 5 bits: bits 0-59)."""
ENDS_SHIFT = 60
"""The path ends placed (free ends used) sit in a word's bits 60-61."""
OUT_CODE = CODE_MASK
"""The packed code of a cell off the path (induced): above every ``MATE + p``."""

JOINED = 0
"""What :func:`join` made: a path grown or two paths joined into one."""
CYCLE = 1
"""What :func:`join` made: the two ends of one path met, a cycle closed."""
WHOLE = 2
"""What :func:`join` made: two paths whose other ends are tour ends met, a
whole path (both its ends placed)."""


def partner(codes: Sequence[int], x: int) -> int:
    """The other end of the path ending at slot ``x`` (-1: a tour end, dangling).

    Examples:
        >>> partner([DEG0, MATE + 2, MATE + 1], 1), partner([DEG0], 0)
        (2, 0)
        >>> partner([DANGLING], 0)
        -1
    """
    c = codes[x]
    if c == DEG0:
        return x
    if c == DANGLING:
        return -1
    return c - MATE


def join(codes: list[int], u: int, v: int) -> int:
    """Join slots ``u`` and ``v`` by a move, in place; what that made.

    Both take the move (a cell with a move already is then full); the far
    ends of their paths become each other's partners, or dangle where the
    other path ended at a tour end.

    Returns:
        :data:`JOINED`, :data:`CYCLE` (``u`` and ``v`` were the two ends of
        one path: both now full; a caller refuses it unless a cycle may
        close here) or :data:`WHOLE` (both paths ended at tour ends).

    Examples:
        >>> codes = [MATE + 1, MATE + 0]  # the two ends of one path
        >>> join(codes, 0, 1) == CYCLE, codes
        (True, [1, 1])
        >>> codes = [DANGLING, DANGLING]  # two paths from tour ends
        >>> join(codes, 0, 1) == WHOLE, codes
        (True, [1, 1])
    """
    pu, pv = partner(codes, u), partner(codes, v)
    if pu == v:
        codes[u] = codes[v] = FULL
        return CYCLE
    if codes[u] != DEG0:
        codes[u] = FULL
    if codes[v] != DEG0:
        codes[v] = FULL
    if pu >= 0:
        codes[pu] = DANGLING if pv < 0 else MATE + pv
    if pv >= 0:
        codes[pv] = DANGLING if pu < 0 else MATE + pu
    return WHOLE if pu < 0 and pv < 0 else JOINED


def end_at(codes: list[int], x: int) -> bool:
    """Make the path end at slot ``x`` a tour end, in place; True if it is whole.

    Slot ``x`` (a path end: :data:`DANGLING` or :data:`MATE` ``+ p``) becomes
    full; its path's other end now dangles, or, if it was dangling already,
    the path has both its ends placed.

    Examples:
        >>> codes = [MATE + 1, MATE + 0]
        >>> end_at(codes, 0), codes
        (False, [1, 2])
        >>> end_at(codes, 1), codes
        (True, [1, 1])
    """
    whole = codes[x] == DANGLING
    if not whole:
        codes[codes[x] - MATE] = DANGLING
    codes[x] = FULL
    return whole


def renumber(codes: Sequence[int], leaving: Sequence[int]) -> tuple[int, ...]:
    """The codes without the slots leaving, partners renumbered to match.

    Examples:
        >>> renumber([FULL, MATE + 3, DEG0, MATE + 1], (0, 2))
        (4, 3)
    """
    gone = set(leaving)
    new_pos = []
    k = 0
    for s in range(len(codes)):
        new_pos.append(k)
        if s not in gone:
            k += 1
    return tuple(
        c if c < MATE else MATE + new_pos[c - MATE]
        for s, c in enumerate(codes)
        if s not in gone
    )
