"""The documentation site works with no network, and has a page per room.

The site is built (``mkdocs build --strict``, the notebooks not run: the suite
runs them in tests/test_notebooks.py) into a temporary folder, and every page
and stylesheet it wrote is read for references to outside servers: a script,
a stylesheet, a font, an ``@import`` or a preconnect. Plain links (``<a href>``)
are not references: a reader follows them or not. The build needs the docs
extra (``make docs`` installs it and runs this file after the build); without
it the building tests skip, and the checker's own test still runs.

The theme's script bundle holds two loaders that never fire here: a
ResizeObserver polyfill for browsers without one, and mermaid when a page has a
diagram. The test holds the second to its condition (no page has a diagram).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_REFERENCES = [
    re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?(https?:)?//", re.I),
    re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?(https?:)?//", re.I),
    re.compile(
        r"<(img|iframe|source|video|audio|embed)\b[^>]*\bsrc\s*=\s*[\"']?(https?:)?//",
        re.I,
    ),
    re.compile(r"url\(\s*[\"']?(https?:)?//", re.I),
    re.compile(r"@import\s+(url\()?\s*[\"']?(https?:)?//", re.I),
    re.compile(r"\bimport\(\s*[\"'](https?:)?//", re.I),
]


def outside_references(text: str) -> list[str]:
    """Every reference in a page or stylesheet that loads from another server."""
    found = []
    for pattern in _REFERENCES:
        for match in pattern.finditer(text):
            end = text.find(">", match.end())
            found.append(
                text[match.start() : (end if end != -1 else match.end()) + 1][:160]
            )
    return found


def test_the_checker_sees_outside_references() -> None:
    planted = [
        '<script src="https://cdnjs.cloudflare.com/mathjax.js"></script>',
        "<link rel='stylesheet' href='https://fonts.googleapis.com/css?family=Roboto'>",
        '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>',
        "<style>@font-face { src: url(https://x.org/f.woff2) }</style>",
        '<style>@import "https://x.org/a.css";</style>',
        '<script type="module">await import("https://cdn.org/m.mjs")</script>',
        '<img src="//x.org/a.png">',
    ]
    for text in planted:
        assert outside_references(text), text
    plain = [
        '<a href="https://oeis.org/A001230">A001230</a>',
        '<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>n</mi></math>',
        '<script src="../assets/javascripts/bundle.js"></script>',
        '<link rel="stylesheet" href="../assets/stylesheets/main.css">',
    ]
    for text in plain:
        assert not outside_references(text), text


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``make docs`` builds it (notebooks not run)."""
    pytest.importorskip("mkdocs", reason="the docs extra builds the site")
    pytest.importorskip("mkdocs_jupyter", reason="the docs extra builds the site")
    pytest.importorskip("latex2mathml", reason="the docs extra builds the site")
    built = os.environ.get("CPKNIGHT_SITE_DIR")
    if built:  # `make docs` has just built it: that site is the one checked
        return Path(built).resolve()
    folder = tmp_path_factory.mktemp("site") / "site"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(folder)],
        cwd=ROOT,
        env={
            **os.environ,
            "CPKNIGHT_DOCS_EXECUTE": "false",
            "NO_MKDOCS_2_WARNING": "1",
        },
        check=True,
        timeout=600,
    )
    return folder


@pytest.mark.timeout(600)
def test_the_site_references_no_outside_server(site: Path) -> None:
    pages = [*site.rglob("*.html"), *site.rglob("*.css")]
    assert len(pages) > 20
    found = {
        str(page.relative_to(site)): refs
        for page in pages
        if (refs := outside_references(page.read_text(encoding="utf-8")))
    }
    assert found == {}
    # The theme's mermaid loader fires only on a page with a diagram.
    assert not any('class="mermaid"' in p.read_text(encoding="utf-8") for p in pages)


@pytest.mark.timeout(600)
def test_the_notebook_pages_show_formulas_not_tex(site: Path) -> None:
    from cpknight.course import notebook_files

    for name in notebook_files():
        page = site / "course" / name.removesuffix(".ipynb") / "index.html"
        text = page.read_text(encoding="utf-8")
        prose = re.sub(r"<(pre|code|script|style)\b.*?</\1>", "", text, flags=re.S)
        assert "MathJax" not in text, name
        assert not re.search(r"\$[^$<>\n]*\\[a-z]+[^$<>\n]*\$", prose), name
    first = site / "course" / "01-knight-graph-and-distances" / "index.html"
    assert first.read_text(encoding="utf-8").count("<math ") >= 5


@pytest.mark.timeout(600)
def test_the_api_reference_has_a_page_per_room(site: Path) -> None:
    rooms = ["tours", "distances", "counting", "routes", "longest", "covering"]
    rooms += ["swaps", "studies", "drawing", "values", "boards"]
    for room in rooms:
        page = site / "api" / room / "index.html"
        assert page.exists(), room
        assert "doc-heading" in page.read_text(encoding="utf-8"), room


@pytest.mark.timeout(600)
def test_a_notebook_page_draws_its_formulas_offline(site: Path) -> None:
    # In a real headless Chromium that cannot resolve any host: every resource
    # the page loads is a local file, and the formulas take room on the page.
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        pytest.skip("no chromium or chromedriver here (.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(flag)
    options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND")
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        page = site / "course" / "01-knight-graph-and-distances" / "index.html"
        driver.get(page.as_uri())
        loaded = driver.execute_script(
            "return [...document.querySelectorAll('script[src], link[href]')]"
            ".filter(e => e.tagName == 'SCRIPT' || e.rel != 'canonical')"
            ".map(e => e.src || e.href)"
        )
        assert loaded
        assert all(url.startswith("file://") for url in loaded), loaded
        widths = driver.execute_script(
            "return [...document.querySelectorAll('math')]"
            ".map(m => m.getBoundingClientRect().width)"
        )
        assert len(widths) >= 5
        assert min(widths) > 0
        text = driver.execute_script("return document.body.innerText")
        assert "\\times" not in text
    finally:
        driver.quit()
