"""The frontier toolkit that both frontier programs read.

Counting tours (:mod:`cpknight.counting`) and the longest uncrossed and
induced paths (:mod:`cpknight.longest`) sweep the board cell by cell, keeping
one state per way the cells already placed can meet the cells still to come.
What they share lives here:

- :mod:`~cpknight.frontier.plan`: the step plan (the order of the cells, the
  frontier after each step, where a count can be cut and met in the middle).
"""
