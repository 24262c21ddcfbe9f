"""The playground in a real browser: headless Chromium, driven by Selenium.

The tests start a real ``cpknight serve`` on 127.0.0.1 and use the page as a
person would: click cells to make a holed board, ask for a tour, wait for the
drawing, step through the animation, read the tour back from ``data-result``
and check it with ``check_tour``; ask for a tour that cannot exist and read the
reason; race two engines and cancel the one still running. With
``CPKNIGHT_SCREENSHOT=1`` they save the README's screenshot
(``docs/playground.png``) of the solved tour.

They need Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs
them when missing). Without them they skip here, and fail under CI.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cpknight.board import Board
from cpknight.checks import check_tour

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "playground.png"

if not (CHROMIUM and DRIVER):
    if os.environ.get("CI"):
        pytest.fail(
            "the browser tests need chromium and chromedriver (.ci/run installs them)",
            pytrace=False,
        )
    pytest.skip(
        "no chromium or chromedriver here: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )
pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """A real ``cpknight serve`` on a free loopback port, stopped by Ctrl-C."""
    import signal

    server = subprocess.Popen(
        [sys.executable, "-m", "cpknight", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert match, line
    try:
        yield match.group(0)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stdout.close()


@pytest.fixture(scope="module")
def browser(url: str) -> Iterator[WebDriver]:
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(flag)
    options.add_argument("--window-size=1100,760")
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(
    what: Callable[[], Any], seconds: float = 20.0, why: str = "the page"
) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {why}")


def one(driver: WebDriver, selector: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, selector)


def fresh_page(driver: WebDriver, url: str, width: int, height: int) -> None:
    driver.get(url)
    wait_for(
        lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
    )
    for field, value in (("width", width), ("height", height)):
        box = one(driver, f'[data-field="{field}"]')
        box.clear()
        box.send_keys(str(value), Keys.TAB)
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-cell="a{height}"]'))


def status(driver: WebDriver) -> str:
    return one(driver, "[data-status]").get_attribute("data-status") or ""


def settled(driver: WebDriver) -> str:
    word = status(driver)
    return word if word not in ("", "running") else ""


def test_click_a_holed_board_solve_step_and_check_the_tour(
    browser: WebDriver, url: str, tmp_path: Path
) -> None:
    fresh_page(browser, url, 8, 8)
    holes = ["d4", "e4", "d5", "e5"]
    for name in holes:
        one(browser, f'[data-cell="{name}"]').click()
    blocked = browser.find_elements(By.CSS_SELECTOR, '[data-blocked="true"]')
    assert sorted(e.get_attribute("data-cell") or "" for e in blocked) == sorted(holes)
    one(browser, '[data-action="question-tour"]').click()
    began = time.monotonic()
    one(browser, '[data-action="solve"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "found"
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "polyline.path"))
    drawn = time.monotonic() - began
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    board = Board((8, 8), [(3, 3), (3, 4), (4, 3), (4, 4)])
    check_tour(board, [tuple(c) for c in row["cells"]], closed=True)
    assert row["status"] == "found"
    assert len(row["cells"]) == 60
    # the animation: back, back, step (buttons), then the keyboard
    label = one(browser, '[data-field="step"]')
    assert label.text == "step 60 / 60"
    one(browser, '[data-action="back"]').click()
    one(browser, '[data-action="back"]').click()
    one(browser, '[data-action="step"]').click()
    assert label.text == "step 59 / 60"
    knight = one(browser, "[data-knight]").get_attribute("data-knight")
    assert knight == board.cell_name(row["cells"][58])
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert label.text == "step 58 / 60"
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
    assert label.text == "step 60 / 60"
    browser.execute_script("window.scrollTo(0, 0)")
    # CPKNIGHT_SCREENSHOT=1 refreshes the README's picture; else a scratch copy
    shot = SCREENSHOT if os.environ.get("CPKNIGHT_SCREENSHOT") else tmp_path / "p.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    print(f"click to drawn tour on 8x8 with a hole: {drawn:.2f} s")


def test_an_impossible_tour_shows_the_reason_and_its_cells(
    browser: WebDriver, url: str
) -> None:
    # 4x4 has no closed knight's tour (Schwenk 1991): the forced cycle shows it
    fresh_page(browser, url, 4, 4)
    one(browser, '[data-action="solve"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "infeasible"
    answer = one(browser, "[data-result]")
    row = json.loads(answer.get_attribute("data-result") or "")
    assert row["status"] == "infeasible"
    assert answer.text.startswith("why not: ")
    outlined = browser.find_elements(By.CSS_SELECTOR, "rect.why")
    names = {e.get_attribute("data-cell") for e in outlined}
    assert names
    assert all(name in row["reason"] for name in names)


def test_race_two_engines_and_cancel_the_one_still_running(
    browser: WebDriver, url: str
) -> None:
    fresh_page(browser, url, 8, 8)
    one(browser, '[data-field="engine-auto"]').click()  # off
    one(browser, '[data-field="engine-cpsat"]').click()
    one(browser, '[data-field="engine-backtrack"]').click()  # runs for ages on 8x8
    one(browser, '[data-action="solve"]').click()

    def row_status(method: str) -> str:
        # read in one script: the rows are redrawn as each engine finishes
        selector = f'tr[data-method="{method}"] td[data-row-status]'
        word = browser.execute_script(
            "const e = document.querySelector(arguments[0]);"
            "return e ? e.dataset.rowStatus : '';",
            selector,
        )
        return str(word or "")

    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "tr[data-method]"))
    wait_for(
        lambda: row_status("cpsat") not in ("", "running"),
        seconds=60,  # a loaded machine: CP-SAT shares two cores with backtrack
        why="the cpsat row",
    )
    row_text = browser.execute_script(
        "const e = document.querySelector('tr[data-method=\"cpsat\"]');"
        "return e ? e.innerText : '';"
    )
    assert row_status("cpsat") == "found", row_text
    assert status(browser) == "running"
    assert row_status("backtrack") == "running"
    began = time.monotonic()
    one(browser, '[data-action="cancel"]').click()
    wait_for(lambda: settled(browser), seconds=5, why="the cancel")
    assert time.monotonic() - began < 2.0  # the run stops within a second
    assert row_status("backtrack") == "unknown"
    assert status(browser) == "found"
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    check_tour("8x8", [tuple(c) for c in row["cells"]], closed=True)


def test_drag_paints_cells_and_the_board_file_round_trips(
    browser: WebDriver, url: str
) -> None:
    fresh_page(browser, url, 5, 5)
    first, last = one(browser, '[data-cell="a1"]'), one(browser, '[data-cell="c1"]')
    ActionChains(browser).click_and_hold(first).move_to_element(
        one(browser, '[data-cell="b1"]')
    ).move_to_element(last).release().perform()
    blocked = browser.find_elements(By.CSS_SELECTOR, '[data-blocked="true"]')
    assert sorted(e.get_attribute("data-cell") or "" for e in blocked) == [
        "a1",
        "b1",
        "c1",
    ]
    one(browser, "details summary").click()
    one(browser, '[data-action="show-text"]').click()
    text = one(browser, '[data-field="board-text"]').get_attribute("value") or ""
    assert Board.from_ascii(text) == Board((5, 5), [(0, 0), (0, 1), (0, 2)])
    # a drawing typed in the box becomes the board
    box = one(browser, '[data-field="board-text"]')
    box.clear()
    box.send_keys(". . #\n. . .")
    one(browser, '[data-action="load-text"]').click()
    wait_for(lambda: one(browser, '[data-field="width"]').get_attribute("value") == "3")
    blocked = browser.find_elements(By.CSS_SELECTOR, '[data-blocked="true"]')
    assert [e.get_attribute("data-cell") for e in blocked] == ["c2"]


def test_swap_guarini_solved_and_stepped(browser: WebDriver, url: str) -> None:
    from cpknight.swaps.common import check_swap
    from cpknight.swaps.drawings import named_puzzle

    fresh_page(browser, url, 8, 8)
    one(browser, '[data-action="question-swap"]').click()
    one(browser, '[data-field="puzzle"]').send_keys("guarini")
    one(browser, '[data-action="solve"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "optimal"
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    assert row["moves"] == len(row["steps"]) == 16  # Guarini (1512): 16 moves
    board, start, goal, _ = named_puzzle("guarini")
    check_swap(board, start, goal, [(tuple(a), tuple(b)) for a, b in row["steps"]])
    # the puzzle's board is drawn with its four knights at the start
    assert len(browser.find_elements(By.CSS_SELECTOR, "rect.sq")) == 9
    label = one(browser, '[data-field="step"]')
    assert label.text == "step 0 / 16"

    def knights() -> dict[str, str]:
        dots = browser.find_elements(By.CSS_SELECTOR, "circle.swap-knight")
        return {
            d.get_attribute("data-knight") or "": d.get_attribute("data-colour") or ""
            for d in dots
        }

    assert knights() == {"a3": "B", "c3": "B", "a1": "W", "c1": "W"}
    one(browser, '[data-action="step"]').click()
    assert label.text == "step 1 / 16"
    first_from, first_to = (board.cell_name(tuple(c)) for c in row["steps"][0])
    assert first_to in knights()
    assert first_from not in knights()
    for _ in range(15):
        ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert label.text == "step 16 / 16"
    assert knights() == {"a1": "B", "c1": "B", "a3": "W", "c3": "W"}


def test_dominate_draws_the_knights_and_shades_what_they_attack(
    browser: WebDriver, url: str
) -> None:
    fresh_page(browser, url, 5, 5)
    one(browser, '[data-action="question-dominate"]').click()
    one(browser, '[data-action="solve"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "optimal"
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    board = Board((5, 5))
    knights = {board.cell_name(c) for c in row["cells"]}
    drawn = browser.find_elements(By.CSS_SELECTOR, "circle.cover-knight")
    assert {d.get_attribute("data-knight") for d in drawn} == knights
    shaded = browser.find_elements(By.CSS_SELECTOR, "rect.dominated")
    # plain domination: every other cell is attacked
    assert {e.get_attribute("data-cell") for e in shaded} == {
        board.cell_name(c) for c in board.open_cells()
    } - knights
