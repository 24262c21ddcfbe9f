"""What a command imports: the quick commands load neither OR-Tools nor pictures.

Behaviour, not timing (``benchmarks/startup.py`` times them): each command runs
in a fresh interpreter, which then lists the heavy modules it loaded.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from tests.fresh import fresh_output

HEAVY = ("ortools", "cpknight.tiling.tiles", "cpknight.draw", "tqdm")

SCRIPT = """
import contextlib, io, sys
from cpknight.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
heavy = sorted({m for m in sys.modules if m.split(".")[0] == "ortools"}
               | {m for m in sys.modules if m in HEAVY})
print(code, ",".join(heavy))
"""


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["tour", "8x8"], id="tour-8x8-auto"),
        pytest.param(["tour", "6x6", "--open", "--start", "a1"], id="tour-open"),
        pytest.param(["distance", "8x8", "a1", "h8"], id="distance"),
        pytest.param(["map", "8x8", "a1"], id="map"),
    ],
)
def test_quick_commands_import_no_solver(argv: list[str]) -> None:
    script = f"HEAVY = {HEAVY!r}\n" + SCRIPT
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    fields = done.stdout.strip().split(" ", 1)
    code = fields[0]
    heavy = fields[1] if len(fields) > 1 else ""
    assert code == "0"
    assert heavy == ""


def test_import_cli_loads_no_solver() -> None:
    script = (
        "import sys, cpknight.cli; "
        "print(sorted(m for m in sys.modules if m.startswith(('ortools', "
        "'cpknight.draw', 'cpknight.tiling.tiles'))))"
    )
    assert fresh_output(script) == "[]"


def test_the_tiling_face_loads_no_tiles() -> None:
    # auto asks the tiling face before the tiles (and their catalogue) load.
    script = (
        "import sys, cpknight.tiling; "
        "print(sorted(m for m in sys.modules if m.startswith('cpknight.tiling.')))"
    )
    assert fresh_output(script) == "[]"


def test_import_cpknight_loads_nothing_heavy() -> None:
    # Public names load on first use (cpknight.runtime.lazy): the bare import is quick.
    script = (
        "import sys, cpknight, cpknight.api; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'ortools', 'cpknight')))"
    )
    assert fresh_output(script) == str(
        [
            "cpknight",
            "cpknight.api",
            "cpknight.runtime",
            "cpknight.runtime.lazy",
            "cpknight.runtime.moved",
        ]
    )


@pytest.mark.parametrize("package", ["cpknight", "cpknight.api"])
def test_every_public_name_loads(package: str) -> None:
    # Each lazy name resolves to the object of the module the table names.
    module = importlib.import_module(package)
    where = module._WHERE
    for name in module.__all__:
        if name == "__version__":
            continue
        source, _, attribute = where[name].partition(":")
        owner = importlib.import_module(source)
        assert getattr(module, name) is getattr(owner, attribute or name), name
    assert set(module.__all__) <= set(dir(module)) | {"__version__"}
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        module.nonesuch  # noqa: B018


def test_distance_loads_no_tour_code() -> None:
    # cpknight distance imports neither the tour front door nor the runner.
    script = (
        "import contextlib, io, sys\n"
        "from cpknight.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['distance', '8x8', 'a1', 'h8'])\n"
        "print(sorted(m for m in sys.modules if m in "
        "('cpknight.api.tours', 'cpknight.runner', 'cpknight.api.longest')))\n"
    )
    assert fresh_output(script) == "[]"
