"""The frontier toolkit that both frontier programs read.

Counting tours (:mod:`cpknight.counting`) and the longest uncrossed and
induced paths (:mod:`cpknight.longest`) sweep the board cell by cell, keeping
one state per way the cells already placed can meet the cells still to come.
What they share lives here, so that neither question reads the other:

- :mod:`~cpknight.frontier.plan`: the step plan (the order of the cells, the
  frontier after each step, where a count can be cut and met in the middle);
- :mod:`~cpknight.frontier.slots`: the slot codes of a state (``DEG0``,
  ``FULL``, ``DANGLING``, ``MATE + p``, ``OUT``), how the compiled kernels
  pack them in 64-bit words, and their algebra in plain Python (``partner``,
  ``join``, ``end_at``, ``renumber``) that the reference kernels apply. The
  compiled kernels import the same constants (numba reads a module's int
  globals as constants).
"""
