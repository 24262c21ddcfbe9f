"""The CP-SAT tour model: one room for the circuit model and what it grows by.

- :mod:`~cpknight.tours.cpsat.model`: build the bundle, print, export, solve
  (the ``'cpsat'`` tour engine);
- :mod:`~cpknight.tours.cpsat.arcs`: the arc layout of each circuit form
  (closed, closing arc, return arcs, dummy node);
- :mod:`~cpknight.tours.cpsat.side`: the side constraints written on the arcs
  (visit numbers, required and forbidden moves, symmetry);
- :mod:`~cpknight.tours.cpsat.objective`: the optimising tours (fewest turns,
  fewest crossings);
- :mod:`~cpknight.tours.cpsat.magic`: magic and semi-magic tours.

The package exposes the model's public names, so that
``from cpknight.tours.cpsat import build_tour_model`` reads as before.
"""

from __future__ import annotations

from cpknight.tours.cpsat.model import (
    TourModel,
    build_tour_model,
    cell_depths,
    circuit_solver,
    deep_first_order,
    solve,
)

__all__ = [
    "TourModel",
    "build_tour_model",
    "cell_depths",
    "circuit_solver",
    "deep_first_order",
    "solve",
]
