"""Public names loaded on first use, so that a command imports only what it needs.

A package ``__init__`` lists where each of its public names lives and hands the
table to :func:`exports`; the module behind a name is imported the first time
the name is used (PEP 562 module ``__getattr__``). ``import cpknight`` then costs
a few milliseconds, and ``cpknight distance`` never loads numpy's tour code,
OR-Tools or the study runner. Type checkers read the real imports, which each
``__init__`` keeps under ``TYPE_CHECKING``.

Examples:
    >>> getattr_, dir_ = exports("demo", {"pi": "math", "PI": "math:pi"})
    >>> getattr_("pi") == getattr_("PI") > 3
    True
    >>> dir_()
    ['PI', 'pi']
    >>> getattr_("tau")
    Traceback (most recent call last):
    ...
    AttributeError: module 'demo' has no attribute 'tau'
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs start-up; mypy reads the names
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["exports"]


def exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package with lazy public names.

    Args:
        package: the package's ``__name__``.
        where: each public name and the module that defines it, as
            ``"module"`` or, for a name bound under another one,
            ``"module:attribute"``.

    Returns:
        ``(__getattr__, __dir__)`` for the package's namespace. A name, once
        loaded, is stored in the package so later uses cost nothing.
    """

    def __getattr__(name: str) -> Any:
        place = where.get(name)
        if place is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = place.partition(":")
        # __import__, not importlib: python -X importtime times it too
        value = getattr(__import__(module, fromlist=("_",)), attribute or name)
        owner = sys.modules.get(package)
        if owner is not None:
            setattr(owner, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(where)

    return __getattr__, __dir__
