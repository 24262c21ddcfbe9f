"""Modules that moved to a room: the old dotted names still import, with a warning.

When a module moves (``cpknight.render`` to ``cpknight.text.render``), code
that imported it by the old name keeps working for one release: the old name
is bound to the very same module object (so a setting changed through either
name is seen by both) and a :class:`DeprecationWarning` says where it went.
No file stands at the old place: one finder on :data:`sys.meta_path`, asked
only after the real places were searched, answers for every moved name.

Examples:
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     from cpknight import render
    >>> import cpknight.text.render
    >>> render is cpknight.text.render
    True
    >>> str(caught[0].message)
    "'cpknight.render' has moved to 'cpknight.text.render'; import it from there"
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings

TYPE_CHECKING = False  # typing costs start-up; mypy reads the names
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from types import ModuleType

__all__ = ["MOVED", "install"]

MOVED: Mapping[str, str] = {
    "cpknight.render": "cpknight.text.render",
    "cpknight.display": "cpknight.text.display",
    "cpknight.reports": "cpknight.text.reports",
    "cpknight.frames": "cpknight.text.frames",
    "cpknight.lazy": "cpknight.runtime.lazy",
    "cpknight.progress": "cpknight.runtime.progress",
    "cpknight.files": "cpknight.runtime.files",
    "cpknight.optional": "cpknight.runtime.optional",
    "cpknight.memory": "cpknight.runtime.memory",
    "cpknight.counting.plan": "cpknight.frontier.plan",
    "cpknight.tours.segments": "cpknight.graph.segments",
    "cpknight.tours.cpsat_arcs": "cpknight.tours.cpsat.arcs",
    "cpknight.tours.cpsat_side": "cpknight.tours.cpsat.side",
    "cpknight.tours.cpsat_objective": "cpknight.tours.cpsat.objective",
    "cpknight.tours.cpsat_magic": "cpknight.tours.cpsat.magic",
}
"""Each old dotted name and the module now behind it (kept for one release)."""


class _Alias:
    """Loads an old name as the module at its new place."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.own: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name!r} has moved to {self.target!r}; import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(self.target)
        self.own = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system has just set the alias's spec on the module; give
        # it back its own, so that the module still knows where it lives.
        if self.own is not None:
            module.__spec__ = self.own


class _MovedFinder:
    """Finds the old names of moved modules (and nothing else)."""

    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = moved

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        new = self.moved.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))  # type: ignore[arg-type]


def install(moved: Mapping[str, str] = MOVED) -> None:
    """Answer for the moved names, after every real finder (once per process)."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder(moved))
