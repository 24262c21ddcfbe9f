"""What a pip install brings: the suites, the teaching models, one version, the licence.

Everything the README names must be there after ``pip install cpknight``
(read through ``importlib.resources``, as an installed package is read).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata, resources
from pathlib import Path

import pytest

import cpknight
from cpknight.cli import main
from cpknight.cli.models import model_files
from cpknight.study import read_named_suite, suite_names

ROOT = Path(__file__).resolve().parent.parent


def test_the_small_suite_ships_and_reads() -> None:
    assert "small" in suite_names()
    text = (resources.files("cpknight") / "suites" / "small.txt").read_text()
    # an instance a line, comments and blank lines aside (counted here apart)
    lines = [s for s in (r.split("#", 1)[0].strip() for r in text.splitlines()) if s]
    suite = read_named_suite("small")
    assert [i.text for i in suite] == lines
    assert len(suite) == 306  # the README's figure


def test_every_model_ships_with_its_index() -> None:
    names = set(model_files())
    readme = (resources.files("cpknight.models") / "README.md").read_text()
    assert set(re.findall(r"`([a-z_]+)\.py`", readme)) == names
    assert {"tour_closed", "distance_moves", "tour_search"} <= names


def test_models_lists_prints_and_writes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["models"]) == 0
    listed = capsys.readouterr().out
    for name in model_files():
        assert re.search(rf"^{name}\s+\S", listed, re.MULTILINE), name
    assert main(["models", "tour_closed"]) == 0
    source = (resources.files("cpknight.models") / "tour_closed.py").read_text()
    assert capsys.readouterr().out.rstrip("\n") == source.rstrip("\n")
    copy = tmp_path / "mine.py"
    assert main(["models", "tour_closed.py", "--out", str(copy)]) == 0
    assert copy.read_text() == source
    assert main(["models", "tour_closed", "--out", str(copy)]) == 2  # no --force
    assert main(["models", "tour_closed", "--json"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out.splitlines()[-1])["models"][0]["source"] == source


def test_unknown_model_and_suite_are_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["models", "nope"]) == 2
    assert main(["study", "--suite", "nope"]) == 2
    assert main(["study"]) == 2
    err = capsys.readouterr().err
    assert "expected a model name in collect_route" in err
    assert "expected a suite name in small: 'nope'" in err


def test_one_version() -> None:
    assert metadata.version("cpknight") == cpknight.__version__
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"]
    assert pyproject["project"]["dynamic"] == ["version"]
    dynamic = pyproject["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "cpknight.__version__"}


def test_the_licence_is_the_one_pyproject_names() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert metadata.metadata("cpknight")["License-Expression"] == "MIT"


def test_the_package_list_matches_the_folders() -> None:
    # pyproject lists the packages (the models folder is mapped, which
    # discovery cannot find) and the data folders: a new room must be listed,
    # or it will not ship.
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        ".".join(p.relative_to(ROOT).parts)
        for p in [ROOT / "cpknight", *(ROOT / "cpknight").rglob("*")]
        if p.is_dir() and p.name != "__pycache__"
    }
    assert set(tool["packages"]) == folders | {"cpknight.models"}
    assert tool["package-dir"]["cpknight.models"] == "models"


@pytest.mark.timeout(600)
def test_a_built_wheel_holds_the_models_and_lists_them(tmp_path: Path) -> None:
    # The teaching models stand in models/ at the top of the repository; the
    # wheel ships them as cpknight.models. Build it from a copy of the sources
    # (the build writes beside them), install it apart from the checkout and
    # run 'cpknight models' from there.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for name in ("cpknight", "models"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    build = [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels)]
    subprocess.run([*build, str(source)], check=True, timeout=300, cwd=tmp_path)
    (wheel,) = wheels.glob("cpknight-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.removeprefix("cpknight/models/") for n in names}
    for path in (ROOT / "models").iterdir():
        if path.suffix in (".py", ".md"):
            assert path.name in shipped, path.name
    assert not any(n.startswith("models/") for n in names), "models/ outside cpknight"
    data = ("suites/small.txt", "web/static/index.html", "tiling/catalogue.json")
    notebooks = sorted(p.name for p in (ROOT / "cpknight" / "course").glob("*.ipynb"))
    assert len(notebooks) == 8
    for name in (*data, *(f"course/{book}" for book in notebooks)):
        assert f"cpknight/{name}" in names, name

    site = tmp_path / "site"
    install = [*pip, "install", "--no-deps", "--no-index", "--target", str(site)]
    subprocess.run([*install, str(wheel)], check=True, timeout=300)
    script = (
        "import sys, cpknight, cpknight.models; from cpknight.cli import main; "
        "print(cpknight.__file__); print(cpknight.models.__file__); "
        "sys.exit(main(['models', '--json']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    first, models, document = done.stdout.splitlines()[-3:]
    assert Path(first).is_relative_to(site)
    assert Path(models).is_relative_to(site / "cpknight" / "models")
    listed = [row["name"] for row in json.loads(document)["models"]]
    expected = sorted(
        p.stem for p in (ROOT / "models").glob("*.py") if not p.stem.startswith("_")
    )
    assert listed == expected
    assert len(listed) == 10  # the ten teaching models of models/README.md
    # The course, written out by the installed package, away from the checkout.
    course = tmp_path / "my course"
    script = "import sys; from cpknight.cli import main; "
    script += f"sys.exit(main(['course', {str(course)!r}]))"
    subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        check=True,
        timeout=120,
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert sorted(p.name for p in course.iterdir()) == notebooks
    for book in notebooks:
        written = (course / book).read_bytes()
        assert written == (ROOT / "cpknight" / "course" / book).read_bytes(), book


def test_the_extras_match_their_users() -> None:
    # `all` is every user feature, `dev` everything to work on cpknight; each
    # extra has its row in the README's table of install costs.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"
    ]["optional-dependencies"]
    tools = {"test", "docs", "all", "dev"}
    features = set(extras) - tools
    assert features == {"dask", "web", "png", "fast", "scip", "interop", "course"}
    assert extras["all"] == [
        f"cpknight[{','.join(sorted(features, key=list(extras).index))}]"
    ]
    assert extras["dev"] == ["cpknight[test,docs]"]
    # The test extra brings every feature the suite exercises; the course's
    # front end (JupyterLab) is not one: the suite runs the notebooks headless
    # (nbclient and ipykernel, in the test extra).
    wanted = {req for name in features - {"course"} for req in extras[name]}
    assert wanted <= set(extras["test"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| install |") :]
    for name in extras:
        assert f"`cpknight[{name}]`" in table, name
