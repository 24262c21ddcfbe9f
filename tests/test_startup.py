"""What a command imports: each loads what it uses, when it uses it.

Behaviour, not timing (``benchmarks/startup.py`` times whole processes against
their floors): each command runs as a whole process, the real entry point
(``python -m cpknight``), under ``python -X importtime``, whose report names
every module the process loaded. The quick commands load neither OR-Tools,
nor pandas, nor numba; the ones that solve with CP-SAT or a MIP load OR-Tools
and not pandas (:mod:`cpknight.runtime.pandas_later`); ``--version`` and
``--help`` load nothing of cpknight's but the command table.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fresh import fresh_output

HEAVY = ("ortools", "pandas", "numba", "llvmlite", "scipy", "networkx", "tqdm")
"""Packages no quick command may load (a module of any of them counts)."""


def loaded(argv: list[str], *, cwd: Path | None = None) -> tuple[int, dict[str, int]]:
    """Run ``python -X importtime ARGV``: its exit code, and each module it
    loaded with its own import time in microseconds."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )
    modules: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            own, _, name = line[len("import time:") :].split("|")
            modules[name.strip()] = int(own)
    return done.returncode, modules


def heavy_in(modules: dict[str, int]) -> list[str]:
    """The heavy packages among ``modules``."""
    return sorted({name.split(".")[0] for name in modules} & set(HEAVY))


def cpknight(*words: str) -> list[str]:
    return ["-m", "cpknight", *words]


@pytest.fixture(scope="module")
def tour_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("startup") / "tour.txt"
    done = subprocess.run(
        [sys.executable, *cpknight("tour", "8x8", "--out", str(path))],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return str(path)


QUICK = [
    pytest.param(["--help"], id="help"),
    pytest.param([], id="no-command"),
    pytest.param(["boards"], id="boards"),
    pytest.param(["map", "8x8", "a1"], id="map"),
    pytest.param(["map", "8x8", "a1", "--json"], id="map-json"),
    pytest.param(["distance", "8x8", "a1", "h8"], id="distance-auto"),
    pytest.param(["distance", "8x8", "a1", "h8", "--method", "bfs"], id="distance-bfs"),
    pytest.param(["distance", "plane", "a1", "h8"], id="distance-plane"),
    pytest.param(
        ["distance", "8x8", "a1", "h8", "--method", "formula"], id="distance-formula"
    ),
    pytest.param(
        ["distance", "8x8", "a1", "h8", "--method", "bidirectional"], id="distance-bidi"
    ),
    pytest.param(["reach", "8x8", "a1"], id="reach"),
    pytest.param(["reach", "4x4", "a1", "--piece", "zebra"], id="reach-zebra"),
    pytest.param(["tour", "8x8"], id="tour-auto"),
    pytest.param(["tour", "6x6", "--open", "--start", "a1"], id="tour-open"),
    pytest.param(["tour", "8x8", "--method", "prune"], id="tour-prune"),
    pytest.param(["tour", "8x8", "--method", "warnsdorff"], id="tour-warnsdorff"),
    pytest.param(
        ["tour", "5x5", "--open", "--start", "a1", "--method", "backtrack"],
        id="tour-backtrack",
    ),
    pytest.param(["tour", "8x8", "--method", "greedy", "--open"], id="tour-greedy"),
    pytest.param(["tour", "40x40", "--method", "tiles"], id="tour-tiles"),
    pytest.param(["tour", "200x200", "--json"], id="tour-huge-auto"),
    pytest.param(["tour", "4x4"], id="tour-none"),
]


@pytest.mark.parametrize("argv", QUICK)
def test_quick_commands_load_no_solver(argv: list[str]) -> None:
    code, modules = loaded(cpknight(*argv))
    assert code in (0, 1), argv  # answered, or proved there is none (4x4)
    assert heavy_in(modules) == []
    assert "cpknight.cli" in modules  # the report is read: the check can fail


# The value modules (cpknight/results/, one kind of value a module) each
# everyday command loads: what it answers with, and no more (each frozen
# dataclass costs about a millisecond of start-up). The instances of the other
# questions live beside their engines; numpy's typing module is for annotations.
VALUES_LOADED = [
    pytest.param(["tour", "8x8"], {"tours"}, {"answer", "outcomes"}, id="tour"),
    pytest.param(
        ["distance", "8x8", "a1", "h8"],
        {"distance"},
        {"answer", "outcomes", "comparisons"},
        id="distance",
    ),
    pytest.param(
        ["map", "8x8", "a1"], {"maps"}, {"answer", "outcomes", "distance"}, id="map"
    ),
]


@pytest.mark.parametrize(("argv", "answers", "beside"), VALUES_LOADED)
def test_a_command_makes_the_values_it_answers_with(
    argv: list[str], answers: set[str], beside: set[str]
) -> None:
    code, modules = loaded(cpknight(*argv))
    assert code == 0
    made = {m.rsplit(".", 1)[1] for m in modules if m.startswith("cpknight.results.")}
    assert answers <= made <= answers | beside
    instances = {m for m in modules if m.endswith(".instance")}
    question = {"tour": "tours", "distance": "distances", "map": "distances"}[argv[0]]
    assert instances == {f"cpknight.{question}.instance"}
    assert "numpy.typing" not in modules


def test_check_loads_no_solver(tour_file: str) -> None:
    code, modules = loaded(cpknight("check", "8x8", tour_file))
    assert code == 0
    assert heavy_in(modules) == []
    assert "cpknight.checks" in modules


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["tour", "8x8", "--method", "cpsat"], id="tour-cpsat"),
        pytest.param(["dominate", "5x5"], id="dominate"),
        pytest.param(["independent", "5x5"], id="independent"),
        pytest.param(["swap", "guarini", "--method", "cpsat"], id="swap-cpsat"),
        pytest.param(["distance", "8x8", "a1", "h8", "--method", "ip"], id="ip"),
        pytest.param(["distance", "8x8", "a1", "h8", "--method", "flow"], id="flow"),
    ],
)
def test_solver_commands_load_the_solver_not_pandas(argv: list[str]) -> None:
    code, modules = loaded(cpknight(*argv))
    assert code == 0, argv
    assert "ortools.sat.python.cp_model" in modules or (
        "ortools.linear_solver.python.model_builder" in modules
    )
    assert heavy_in(modules) == ["ortools"]


def test_version_loads_only_the_package_face() -> None:
    code, modules = loaded(cpknight("--version"))
    floor_code, floor = loaded(["-c", "pass"])
    assert code == floor_code == 0
    ours = set(modules) - set(floor)
    assert "cpknight" in ours
    allowed = {"runpy", "cpknight", "cpknight.runtime", "cpknight.runtime.lazy"}
    allowed |= {"cpknight.runtime.moved", "cpknight.runtime.pandas_later"}
    assert ours <= allowed, sorted(ours - allowed)


def test_help_loads_only_the_command_table() -> None:
    code, modules = loaded(cpknight("--help"))
    assert code == 0
    ours = {name for name in modules if name.startswith("cpknight")}
    assert ours == {
        "cpknight",
        "cpknight.cli",
        "cpknight.cli.parser",
        "cpknight.runtime",
        "cpknight.runtime.lazy",
        "cpknight.runtime.moved",
        "cpknight.runtime.pandas_later",
    }
    assert "numpy" not in modules
    assert "shutil" not in modules  # argparse's terminal width, read without it


def test_the_command_line_imports_within_its_budget() -> None:
    # The import-time budget of the command line's own import: what ``cpknight
    # --help`` loads beyond a bare interpreter costs less than that
    # interpreter's own start-up modules (``site`` and what it loads),
    # measured in the same run. Fastest of five of each: the least disturbed.
    runs = [
        (loaded(cpknight("--help"))[1], loaded(["-c", "pass"])[1]) for _ in range(5)
    ]
    ours = min(
        sum(us for name, us in help_.items() if name not in floor)
        for help_, floor in runs
    )
    interpreter = min(sum(floor.values()) for _, floor in runs)
    assert 0 < ours < interpreter, (ours, interpreter)


def test_every_command_is_in_the_table_and_registers_itself() -> None:
    # The table names each command's module and function; its help is the
    # parser's (one source), and no module outside the table registers one.
    from cpknight.cli import build_parser
    from cpknight.cli.parser import COMMANDS

    def listed(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
        sub = next(a for a in parser._actions if a.dest == "command")
        assert isinstance(sub, argparse._SubParsersAction)
        return [(action.dest, action.help) for action in sub._choices_actions]

    full = listed(build_parser())
    assert full == [(command.name, command.help) for command in COMMANDS]
    assert listed(build_parser("")) == full


def test_a_command_line_builds_only_its_command() -> None:
    script = (
        "import sys\n"
        "from cpknight.cli import build_parser\n"
        "build_parser('map')\n"
        "print(sorted(m for m in sys.modules if m.startswith('cpknight.cli.')))\n"
    )
    assert fresh_output(script) == str(
        ["cpknight.cli.common", "cpknight.cli.distances", "cpknight.cli.parser"]
    )


def test_version_fast_path_says_what_the_parser_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cpknight.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    parsed = capsys.readouterr().out
    done = subprocess.run(
        [sys.executable, *cpknight("--version")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout == parsed


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
            "cpknight.runtime.pandas_later",
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
    _, modules = loaded(cpknight("distance", "8x8", "a1", "h8"))
    assert "cpknight.api.common" in modules
    assert {"cpknight.api.tours", "cpknight.runner", "cpknight.api.longest"}.isdisjoint(
        modules
    )


def test_tour_loads_no_runner() -> None:
    # The runner (studies, sweeps, clusters) is loaded by the commands that run one.
    _, modules = loaded(cpknight("tour", "8x8"))
    assert "cpknight.tours.auto" in modules
    assert "cpknight.runner" not in modules
    assert "logging" not in modules


@pytest.mark.parametrize(
    "words",
    [
        pytest.param(["boards"], id="a command"),
        pytest.param(["tour", "8x8", "--no-such-option"], id="a bad option"),
    ],
)
def test_the_collector_runs_again_once_the_command_is_parsed(words: list[str]) -> None:
    # The console script pauses the garbage collector while the modules load;
    # the command itself runs with it on, start-up's objects frozen.
    probe = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('collector', gc.isenabled(),"
        " gc.get_freeze_count() > 10000))\n"
        f"sys.argv = ['cpknight', *{words!r}]\n"
        "from cpknight.__main__ import run\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert done.returncode in (0, 2), done.stderr
    assert done.stdout.splitlines()[-1] == "collector True True"
