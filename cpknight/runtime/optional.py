"""Optional dependencies (pandas, networkx, scipy), imported on first use.

cpknight needs none of them to solve; the conversions that hand a value to
them (``to_dataframe()``, ``MoveGraph.to_networkx()``, ``to_scipy_sparse()``)
import them here, with one clear line when one is missing. They come with
the ``interop`` extra: ``pip install 'cpknight[interop]'`` (pandas also comes
with OR-Tools).

Examples:
    >>> require("math", "a test").sqrt(4.0)
    2.0
    >>> require("no_such_module_here", "this example")
    Traceback (most recent call last):
    ...
    cpknight.runtime.optional.MissingDependencyError: this example needs \
no_such_module_here: pip install 'cpknight[interop]'
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

from cpknight.errors import CpknightError

__all__ = [
    "MissingDependencyError",
    "data_frame",
    "installed",
    "numba_threads",
    "require",
]


class MissingDependencyError(CpknightError, ImportError):
    """An optional library a conversion needs is not installed."""


def require(module: str, what: str, extra: str = "interop") -> ModuleType:
    """Import ``module``, or say in one line what needs it and how to install it.

    Raises:
        MissingDependencyError: the module cannot be imported.
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise MissingDependencyError(
            f"{what} needs {top}: pip install 'cpknight[{extra}]'"
        ) from None


@contextlib.contextmanager
def numba_threads(count: int) -> Iterator[int]:
    """Run numba's parallel loops on ``count`` threads (at most numba's own).

    The setting is the process's, so it is put back after the block.

    Yields:
        The threads set (0 or less: numba's own count, left as it is).
    """
    import numba

    before = numba.get_num_threads()
    top = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    threads = min(count, top) if count > 0 else before
    numba.set_num_threads(threads)
    try:
        yield threads
    finally:
        numba.set_num_threads(before)


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (found, not imported: cheap).

    Examples:
        >>> installed("math"), installed("no_such_module_here")
        (True, False)
    """
    return importlib.util.find_spec(module) is not None


def data_frame(rows: Iterable[Sequence[Any]], columns: Sequence[str]) -> Any:
    """A pandas DataFrame of ``rows`` under ``columns`` (pandas imported here).

    Examples:
        >>> data_frame([(1, "a")], ["n", "s"]).to_dict("records")
        [{'n': 1, 's': 'a'}]
    """
    pandas = require("pandas", "to_dataframe()")
    return pandas.DataFrame(list(rows), columns=list(columns))
