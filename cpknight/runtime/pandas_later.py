"""OR-Tools' modelling layers without pandas until pandas is used.

``from ortools.sat.python import cp_model`` (and the MIP layer,
``model_builder``) imports pandas at its top for its optional pandas helpers
(``new_int_var_series`` and the like): about a quarter of a second, half the
import, paid by every command that solves, though cpknight never passes a
pandas object. While one of those two modules executes, and only when pandas
is not loaded yet, a stand-in answers for ``pandas``: its ``Index`` and
``Series`` are placeholders that the module's type hints name at import time.
Once the module is loaded its ``pd`` becomes a proxy that imports the real
pandas on first use, so every pandas helper of OR-Tools still works, with
real pandas objects; ``isinstance`` checks against the placeholders ask the
real classes when pandas is loaded (an object cannot be a pandas Series
before pandas is imported). Nothing else changes: a process that imported
pandas first gets OR-Tools untouched, and ``import pandas`` anywhere, during
or after, is the real one.

``cpknight``'s ``__init__`` installs the finder (:func:`install`);
``tests/test_startup.py`` checks that a CP-SAT command loads no pandas and
that OR-Tools' pandas helpers give real pandas objects.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types

TYPE_CHECKING = False  # typing costs start-up; mypy reads the names
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = ["DEFERRED", "install"]

DEFERRED = frozenset(
    {"ortools.sat.python.cp_model", "ortools.linear_solver.python.model_builder"}
)
"""The modules that import pandas at their top for helpers cpknight never uses."""


def _real_pandas() -> types.ModuleType:
    """The real pandas, imported now (a stand-in in its place is put aside)."""
    held = sys.modules.get("pandas")
    if isinstance(held, _StandIn):
        del sys.modules["pandas"]
    return importlib.import_module("pandas")


class _Later(type):
    """The type of a placeholder class: it asks the real pandas class."""

    def __instancecheck__(cls, obj: object) -> bool:
        pandas = sys.modules.get("pandas")
        if pandas is None or isinstance(pandas, _StandIn):
            return False  # pandas is not loaded: nothing can be one of its objects
        return isinstance(obj, getattr(pandas, cls.__name__))

    def __subclasscheck__(cls, other: type) -> bool:
        pandas = sys.modules.get("pandas")
        if pandas is None or isinstance(pandas, _StandIn):
            return other is cls
        return issubclass(other, getattr(pandas, cls.__name__))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return getattr(_real_pandas(), cls.__name__)(*args, **kwargs)


class Index(metaclass=_Later):
    """Stands for ``pandas.Index`` in type hints evaluated at import time."""


class Series(metaclass=_Later):
    """Stands for ``pandas.Series`` in type hints evaluated at import time."""


class _StandIn(types.ModuleType):
    """``pandas`` while an OR-Tools module executes: placeholders, else the real."""

    Index = Index
    Series = Series

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_pandas(), name)


class _PandasWhenUsed(types.ModuleType):
    """The ``pd`` of a loaded OR-Tools module: the real pandas on first use."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_pandas(), name)


class _Loader:
    """Runs the real loader with the stand-in in place, then swaps in the proxy."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, ...
        return getattr(self.loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        stand_in = None
        if "pandas" not in sys.modules:
            stand_in = _StandIn("pandas")
            sys.modules["pandas"] = stand_in
        try:
            self.loader.exec_module(module)
        finally:
            if stand_in is not None and sys.modules.get("pandas") is stand_in:
                del sys.modules["pandas"]
        if stand_in is not None and getattr(module, "pd", None) is stand_in:
            module.pd = _PandasWhenUsed("pandas")  # type: ignore[attr-defined]


class _Finder:
    """The finder first on :data:`sys.meta_path` for the deferred modules.

    It finds them as the path finder does, with a loader that keeps pandas out
    until it is used.
    """

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in DEFERRED or "pandas" in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _Loader(spec.loader)  # type: ignore[assignment]
        return spec


def install() -> None:
    """Put the finder first on :data:`sys.meta_path` (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
