"""The playground in a real browser: headless Chromium, driven by Selenium.

The tests start a real ``cpknight serve`` on 127.0.0.1 and use the page as a
person would: click cells to make a holed board, ask for a tour, wait for the
drawing, step through the animation, read the tour back from ``data-result``
and check it with ``check_tour``; ask for a tour that cannot exist and read the
reason; race two engines and cancel the one still running; tour 5x5 by hand
(undo, redo, a dead end, a finished tour checked again here); ask "can I still
finish?" both ways; play three moves with the keyboard alone; read the
distance map's numbers back to see that no cell shows two. No test may leave
an error in the browser's console. With ``CPKNIGHT_SCREENSHOT=1`` they save the
README's screenshot (``docs/playground.png``) of the solved tour, and the new
states at desktop (1280 px) and phone (390 px) width under ``docs/img/``
(``playground-STATE-desktop.png``, ``playground-STATE-phone.png``).

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
SHOTS = SCREENSHOT.parent / "img"
WINDOW = (1100, 760)
"""The window the tests run in (the README's screenshot is taken at it)."""
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
"""The widths the new states are shot at (``CPKNIGHT_SCREENSHOT=1``)."""

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
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
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
    options.add_argument(f"--window-size={WINDOW[0]},{WINDOW[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(autouse=True)
def no_console_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test leaves no error (an exception, a failed request) in the console."""
    yield
    if "browser" not in request.fixturenames:
        return
    driver: Any = request.getfixturevalue("browser")  # Chrome's: it keeps the log
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, errors


def shoot(driver: WebDriver, state: str, focus: str = "#editor") -> None:
    """With CPKNIGHT_SCREENSHOT=1: the page at desktop and phone width."""
    if not os.environ.get("CPKNIGHT_SCREENSHOT"):
        return
    for name, (width, height) in WIDTHS.items():
        driver.set_window_size(width, height)
        time.sleep(0.4)  # the page redraws the board for the width
        driver.execute_script(
            "document.querySelector(arguments[0]).scrollIntoView();", focus
        )
        driver.save_screenshot(str(SHOTS / f"playground-{state}-{name}.png"))
    driver.set_window_size(*WINDOW)
    time.sleep(0.3)


def wait_for(
    what: Callable[[], Any], seconds: float = 20.0, why: str = "the page"
) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            value = what()
        except StaleElementReferenceException:
            # the page redrew between finding an element and reading it: the
            # event has not settled yet, so look again
            value = None
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
    last = f"a{height}" if width <= 26 else f"{height - 1},0"
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-cell="{last}"]'))


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
    browser.execute_script("document.querySelector('#editor').scrollIntoView()")
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
    row_text = browser.execute_script(
        "return document.querySelector('tr[data-method=\"backtrack\"]').innerText;"
    )
    assert "cancelled" in row_text  # the schema's unknown, read as what happened
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

    def knights() -> dict[str, str]:
        # read in one script, so a redraw cannot come between finding and reading
        found: dict[str, str] = browser.execute_script(
            "const out = {};"
            "for (const d of document.querySelectorAll('circle.swap-knight'))"
            "  out[d.dataset.knight] = d.dataset.colour;"
            "return out;"
        )
        return found

    # the puzzle is drawn as soon as it is picked, its knights at the start
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "rect.sq")) == 9)
    wait_for(lambda: knights() == {"a3": "B", "c3": "B", "a1": "W", "c1": "W"})
    shoot(browser, "swap-picked")
    one(browser, '[data-action="solve"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "optimal"
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    assert row["moves"] == len(row["steps"]) == 16  # Guarini (1512): 16 moves
    board, start, goal, _ = named_puzzle("guarini")
    check_swap(board, start, goal, [(tuple(a), tuple(b)) for a, b in row["steps"]])
    # every answer is shown whole (its last step), as a tour is
    assert len(browser.find_elements(By.CSS_SELECTOR, "rect.sq")) == 9
    label = one(browser, '[data-field="step"]')
    assert label.text == "step 16 / 16"
    assert knights() == {"a1": "B", "c1": "B", "a3": "W", "c3": "W"}
    ActionChains(browser).send_keys(Keys.HOME).perform()  # back to the start
    assert label.text == "step 0 / 16"
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


# ------------------------------------------------------------ touring by hand


def page_state(driver: WebDriver) -> dict[str, Any]:
    """The hooks of every cell at once: visits, legal moves, onward counts, knight."""
    found: dict[str, Any] = driver.execute_script(
        """
        const out = {visits: {}, legal: [], onward: {}, knight: null, blocked: []};
        for (const r of document.querySelectorAll('rect[data-cell]')) {
          const d = r.dataset;
          if (d.visit) out.visits[d.cell] = Number(d.visit);
          if (d.legal === 'true') out.legal.push(d.cell);
          if (d.onward) out.onward[d.cell] = Number(d.onward);
          if (d.knight === 'true') out.knight = d.cell;
          if (d.blocked === 'true') out.blocked.push(d.cell);
        }
        const m = document.querySelector('[data-message]');
        out.message = m.textContent; out.verdict = m.dataset.verdict;
        return out;
        """
    )
    return found


def cell(driver: WebDriver, name: str) -> WebElement:
    return one(driver, f'rect[data-cell="{name}"]')


def moves_from(board: Board, name: str, visited: set[str]) -> set[str]:
    from cpknight.pieces import move_graph

    graph = move_graph(board)
    node = graph.node(board.parse_cell(name))
    names = {board.cell_name(graph.cell(int(v))) for v in graph.neighbors(node)}
    return names - visited


def test_tour_5x5_by_hand_with_undo_redo_and_a_dead_end(
    browser: WebDriver, url: str
) -> None:
    from cpknight.api import find_tour

    board = Board.parse("5x5")
    fresh_page(browser, url, 5, 5)
    one(browser, '[data-action="mode-hand"]').click()
    wait_for(lambda: "place the knight" in page_state(browser)["message"])
    # a dead end first: a5's moves, b3 and c4, are both visited
    for name in ("a1", "b3", "d2", "c4", "a5"):
        cell(browser, name).click()
    seen = page_state(browser)
    assert seen["verdict"] == "dead-end", seen["message"]
    assert seen["message"].startswith("dead end: no free cell")
    assert seen["legal"] == []
    for _ in range(4):  # back to a1 alone, by the button
        one(browser, '[data-action="undo"]').click()
    assert page_state(browser)["visits"] == {"a1": 1}
    # then a whole open tour, with three undos and a redo on the way
    tour = find_tour(board, closed=False, start="a1", method="warnsdorff").names()
    for name in tour[1:7]:
        cell(browser, name).click()
    seen = page_state(browser)
    assert seen["knight"] == tour[6]
    visited = set(tour[:7])
    assert set(seen["legal"]) == moves_from(board, tour[6], visited)
    one(browser, '[data-action="undo"]').click()
    one(browser, '[data-action="undo"]').click()
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(
        Keys.CONTROL
    ).perform()
    assert page_state(browser)["visits"] == {n: i + 1 for i, n in enumerate(tour[:4])}
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("y").key_up(
        Keys.CONTROL
    ).perform()
    seen = page_state(browser)
    assert seen["knight"] == tour[4]
    # refused moves say why, and change nothing
    cell(browser, "a1").click()
    seen = page_state(browser)
    assert (seen["verdict"], len(seen["visits"])) == ("refused", 5)
    assert "a1 is visited already (move 1)" in seen["message"]
    far = next(
        n
        for n in board.cell_names(list(board.open_cells()))
        if n not in moves_from(board, tour[4], set()) | set(tour[:5])
    )
    cell(browser, far).click()
    assert (
        f"{far} is not one knight move from {tour[4]}" in page_state(browser)["message"]
    )
    one(browser, '[data-action="hints"]').click()
    shoot(browser, "hand", ".modes")
    for name in tour[5:]:
        cell(browser, name).click()
    seen = wait_for(
        lambda: (s := page_state(browser))["verdict"] not in ("", "refused") and s,
        why="the tour's check",
    )
    assert seen["verdict"] == "open-tour", seen["message"]
    assert "checked by cpknight's tour checker" in seen["message"]
    played = sorted(seen["visits"], key=seen["visits"].get)
    check_tour(board, played, closed=False)
    assert played == tour


def test_can_i_still_finish_both_ways(browser: WebDriver, url: str) -> None:
    board = Board.parse("8x8")
    fresh_page(browser, url, 8, 8)
    one(browser, '[data-action="mode-hand"]').click()
    one(browser, '[data-action="hints"]').click()
    wait_for(lambda: "place the knight" in page_state(browser)["message"])
    cell(browser, "a1").click()
    for _ in range(10):  # Warnsdorff: the legal cell with fewest onward moves
        onward = wait_for(lambda: page_state(browser)["onward"])
        cell(browser, min(sorted(onward), key=onward.get)).click()
    seen = page_state(browser)
    path = sorted(seen["visits"], key=seen["visits"].get)
    assert len(path) == 11
    one(browser, '[data-action="can-finish"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "found"
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    assert [board.cell_name(c) for c in row["cells"][:11]] == path
    check_tour(board, [tuple(c) for c in row["cells"]], closed=True)
    # drawn from the knight's cell on, and played from there
    assert browser.find_elements(By.CSS_SELECTOR, "polyline.completion")
    label = one(browser, '[data-field="step"]')
    assert label.text == "step 64 / 64"
    ActionChains(browser).send_keys(Keys.HOME).perform()
    assert label.text == "step 11 / 64"
    one(browser, '[data-action="step"]').click()
    assert label.text == "step 12 / 64"
    ActionChains(browser).send_keys(Keys.END).perform()
    shoot(browser, "finish-yes", ".modes")
    # a move into a corner trap: a1 keeps one way in, c2, so it must come
    # last, and a closed tour from d2 cannot end there
    one(browser, '[data-action="clear"]').click()
    for name in ("d2", "b3", "d4"):
        cell(browser, name).click()
    assert not browser.find_elements(By.CSS_SELECTOR, "tr[data-method]")
    one(browser, '[data-action="can-finish"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "infeasible"
    answer = one(browser, "[data-result]")
    row = json.loads(answer.get_attribute("data-result") or "")
    assert row["reason"].startswith("cell a1 has one free neighbour left")
    assert answer.text.startswith("why not: cell a1")
    seen = page_state(browser)  # said beside the board too
    assert seen["verdict"] == "cannot-finish"
    assert seen["message"].startswith("no: cell a1 has one free neighbour left")
    outlined = {
        e.get_attribute("data-cell")
        for e in browser.find_elements(By.CSS_SELECTOR, "rect.why")
    }
    assert outlined == {"a1", "d2"}
    shoot(browser, "finish-no", ".modes")


def test_three_moves_by_keyboard_alone_and_undo_of_an_edit(
    browser: WebDriver, url: str
) -> None:
    fresh_page(browser, url, 5, 5)
    one(browser, '[data-action="mode-hand"]').send_keys(Keys.ENTER)
    wait_for(lambda: "place the knight" in page_state(browser)["message"])

    def focused() -> str:
        return str(
            browser.execute_script("return document.activeElement.dataset.cell || '';")
        )

    for _ in range(30):  # Tab on to the board: one stop, on a1
        if focused():
            break
        ActionChains(browser).send_keys(Keys.TAB).perform()
    assert focused() == "a1"
    keys = ActionChains(browser)
    keys.send_keys(Keys.ENTER)  # the knight on a1
    keys.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ENTER)  # b3
    keys.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ENTER)  # c5
    keys.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ENTER)
    keys.perform()
    seen = page_state(browser)
    assert seen["visits"] == {"a1": 1, "b3": 2, "c5": 3, "e4": 4}
    label = one(browser, 'rect[data-cell="e4"]').get_attribute("aria-label") or ""
    assert label.startswith("e4, visited, move 4")
    assert "the knight" in label
    shoot(browser, "keyboard", ".modes")
    # an edit is undone as a move is: block d2 (the hand path goes), undo both
    one(browser, '[data-action="mode-block"]').send_keys(Keys.ENTER)
    cell(browser, "e4").send_keys(Keys.ARROW_LEFT, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert focused() == "d2"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    assert page_state(browser)["blocked"] == ["d2"]
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(
        Keys.CONTROL
    ).perform()
    seen = page_state(browser)
    assert seen["blocked"] == []
    one(browser, '[data-action="mode-hand"]').click()
    wait_for(lambda: len(page_state(browser)["visits"]) == 4)


# ------------------------------------------------------------- one drawing


def numbers(driver: WebDriver) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = driver.execute_script(
        """
        return Array.from(document.querySelectorAll('#board text.num')).map((t) => ({
          cell: t.dataset.cell, role: t.dataset.role, text: t.textContent,
          size: Number(t.getAttribute('font-size')),
        }));
        """
    )
    return found


def test_distance_numbers_one_a_cell_stale_rows_gone_and_the_zoom(
    browser: WebDriver, url: str
) -> None:
    fresh_page(browser, url, 5, 5)
    one(browser, '[data-action="solve"]').click()  # 5x5 closed: none (odd)
    wait_for(lambda: settled(browser), why="the answer")
    assert browser.find_elements(By.CSS_SELECTOR, "tr[data-method]")
    one(browser, '[data-action="question-distance"]').click()
    # the old question's rows, status and answer are gone
    assert not browser.find_elements(By.CSS_SELECTOR, "tr[data-method]")
    assert status(browser) == ""
    assert one(browser, "[data-result]").get_attribute("data-result") == ""
    fresh_page(browser, url, 8, 8)
    one(browser, '[data-action="question-distance"]').click()
    cell(browser, "a1").click()  # the start; then the target
    cell(browser, "h8").click()
    one(browser, '[data-action="solve"]').click()
    assert wait_for(lambda: settled(browser), why="the answer") == "found"
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "polyline.path"))
    # the map of distances comes by a request of its own (/api/map), which
    # may answer after the path: wait for its numbers on every cell
    wait_for(
        lambda: len({n["cell"] for n in numbers(browser)}) == 64,
        why="every cell's distance",
    )
    row = json.loads(one(browser, "[data-result]").get_attribute("data-result") or "")
    drawn = numbers(browser)
    per_cell: dict[str, int] = {}
    for number in drawn:
        per_cell[number["cell"]] = per_cell.get(number["cell"], 0) + 1
    assert set(per_cell.values()) == {1}  # no cell shows two numbers
    assert len(per_cell) == 64  # and every cell shows its distance
    board = Board.parse("8x8")
    on_path = {n["cell"]: int(n["text"]) for n in drawn if n["role"] == "on-path"}
    assert on_path == {board.cell_name(c): i for i, c in enumerate(row["cells"])}
    items = {
        e.get_attribute("data-legend-item")
        for e in browser.find_elements(By.CSS_SELECTOR, "[data-legend-item]")
    }
    assert {"heat", "distance-path", "start", "target", "knight"} <= items
    files = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "text.axis")]
    assert files[:8] == list("abcdefgh")
    shoot(browser, "distance")
    # 30x30: numbers too small to read are left out, until zoomed in
    fresh_page(browser, url, 30, 30)
    one(browser, '[data-action="question-distance"]').click()
    cell(browser, "0,0").click()
    one(browser, '[data-action="solve"]').click()  # the map alone
    wait_for(lambda: settled(browser), why="the map")
    legend = one(browser, "[data-legend]").text
    assert "too small to read" in legend
    assert not numbers(browser)
    one(browser, '[data-action="zoom-in"]').click()
    one(browser, '[data-action="zoom-in"]').click()
    shown = numbers(browser)
    assert len(shown) == 900
    assert min(n["size"] for n in shown) >= 9
    shoot(browser, "zoom", "#board")
