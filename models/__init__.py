"""The teaching models: runnable formulation scripts, one question each.

Each module opens with its problem and formulation in mathematics, holds its
own model (plain CP-SAT, ``model_builder`` or a Python search), solves it and
cross-checks the answer against the library. They ship with the package: run
one as ``python -m cpknight.models.tour_closed``, list them with ``cpknight
models`` and print or copy one with ``cpknight models NAME [--out FILE]``.
``README.md`` beside them indexes them.
"""
