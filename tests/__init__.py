"""The test suite: a package, so ``from tests.conftest import ...`` works however
pytest is started (``pytest`` or ``python -m pytest``) and mypy sees one module."""
