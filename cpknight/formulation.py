"""What every declarative model bundle offers: print it, export it, solve it.

A builder (``build_tour_model``, ``build_move_count_model``, ...) returns a
frozen bundle: the native model, the variable handles, ``decode(...)``,
``formulation()`` (the model printed with the instance's own numbers, from the
same data the builder used) and ``export(path)``. A model can be printed or
exported without being solved: that is the teaching use. :class:`Formulation`
is the interface they share; the CLI's ``formulation`` commands and the
``models/`` scripts read nothing else.

Examples:
    >>> from cpknight.tours.cpsat import build_tour_model
    >>> from cpknight import move_graph
    >>> isinstance(build_tour_model(move_graph("3x4"), closed=False), Formulation)
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

__all__ = ["Formulation"]


@runtime_checkable
class Formulation(Protocol):
    """A built model that can be printed and exported without being solved."""

    def formulation(self) -> str:
        """The model written out with the instance's own numbers and names."""
        ...

    def export(self, path: str | Path) -> object:
        """Write the model to ``path`` (a text proto, LP or MPS by its suffix)."""
        ...
