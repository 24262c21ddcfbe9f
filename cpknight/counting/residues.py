"""Exact counts as residues modulo a few primes, put back together by the CRT.

The dense kernel (:mod:`cpknight.counting.dense_kernel`) keeps every count
modulo ``k`` primes just under ``2**62`` (:func:`primes`): a sum of two
residues stays under ``2**63``, so one add and one compare keep it reduced,
with no carry to follow. The count is rebuilt by the Chinese remainder theorem
(:func:`crt`), exact when the true count is below the product of the primes.
Intermediate counts may be any size: only the final number must fit.

How many primes a count needs is decided before it runs, from a bound on the
answer (:func:`tour_bound_bits`): every directed Hamiltonian cycle of a graph
is a permutation of its cells inside the adjacency matrix, so their number is
at most the matrix's permanent, and by Brégman's theorem (the Minc
conjecture, Brégman 1973) a 0-1 matrix with row sums ``r_i`` has permanent at
most ``prod (r_i!)**(1/r_i)``. Open tours are the cycles of the graph with one
more cell joined to every cell. The 8 x 8 knight graph's bound is about
``2**88`` (closed) and ``2**99`` (open): two primes (``2**123``).

Examples:
    >>> p = primes(2)
    >>> all(2**61 < q < 2**62 for q in p)
    True
    >>> n = 13_267_364_410_532 * 10**20
    >>> crt([n % q for q in p], p) == n
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

__all__ = ["PRIME_BITS", "crt", "is_prime", "primes", "primes_for", "tour_bound_bits"]

PRIME_BITS = 62
"""The primes are the largest below ``2**PRIME_BITS``."""

_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
"""Miller-Rabin with these bases is exact below 3.3e24 (Sorenson and Webster
2015), far past ``2**62``."""


def is_prime(n: int) -> bool:
    """Whether ``n`` is prime (deterministic Miller-Rabin, ``n < 3.3e24``).

    Examples:
        >>> [q for q in range(30) if is_prime(q)]
        [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    for q in _WITNESSES:
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def primes(k: int) -> tuple[int, ...]:
    """The ``k`` largest primes below ``2**PRIME_BITS``, largest first."""
    found: list[int] = []
    n = 2**PRIME_BITS - 1
    while len(found) < k:
        if is_prime(n):
            found.append(n)
        n -= 2
    return tuple(found)


def primes_for(bits: float) -> tuple[int, ...]:
    """Enough primes for a count below ``2**bits`` (at least one).

    Examples:
        >>> len(primes_for(88)), len(primes_for(130))
        (2, 3)
    """
    k = 1
    while math.log2(math.prod(primes(k))) <= bits:
        k += 1
    return primes(k)


def crt(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """The number in ``[0, prod(moduli))`` with these residues.

    Examples:
        >>> crt([2, 3], [3, 5])
        8
    """
    total, m = 0, 1
    for r, q in zip(residues, moduli, strict=True):
        # solve total + m * t = r (mod q)
        t = (int(r) - total) * pow(m, -1, q) % q
        total += m * t
        m *= q
    return total


def tour_bound_bits(degrees: Sequence[int], *, closed: bool) -> float:
    """``log2`` of Brégman's bound on the directed tours of a graph.

    Args:
        degrees: every cell's degree in the move graph.
        closed: cycles; else paths (each a cycle through one more cell
            joined to every cell: every degree one more, and that cell's).

    Examples:
        >>> round(tour_bound_bits([2, 2, 2], closed=True), 3)  # a triangle
        1.5
    """
    extra = 0 if closed else 1
    bits = sum(_log2_root_factorial(d + extra) for d in degrees)
    if not closed:
        bits += _log2_root_factorial(len(degrees))
    return bits


def _log2_root_factorial(r: int) -> float:
    """``log2((r!)**(1/r))`` (0 for a row of zeros, whose permanent is 0)."""
    return math.lgamma(r + 1) / math.log(2) / r if r > 0 else 0.0
