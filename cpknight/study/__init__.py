"""Studies: many independent solves at once, on a local pool or a Dask cluster.

- :func:`sweep_pairs`: for every pair of open cells, an open tour between them?
- :func:`run_study`: a suite of instances through several engines, summarised,
  cross-checked and profiled (Dolan-More).
- :func:`count_tours_sharded`: a CP-SAT count split by its first moves into
  independent subproblems, summed exactly.

All run on :func:`cpknight.runner.run_tasks`: the same rows in the same order
in this process, on a process pool or on Dask; results files and resume.
"""

from __future__ import annotations

from cpknight.api.counting import ShardedCount, count_tours_sharded
from cpknight.study.pairs import PairCell, PairSweep, sweep_pairs
from cpknight.study.suite import (
    Study,
    SuiteInstance,
    read_named_suite,
    read_suite,
    read_suite_text,
    run_study,
    suite_names,
)

__all__ = [
    "PairCell",
    "PairSweep",
    "ShardedCount",
    "Study",
    "SuiteInstance",
    "count_tours_sharded",
    "read_named_suite",
    "read_suite",
    "read_suite_text",
    "run_study",
    "suite_names",
    "sweep_pairs",
]
