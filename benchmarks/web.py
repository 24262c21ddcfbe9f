"""The playground's figures: idle memory, and click to drawn tour in a real browser.

Starts ``cpknight serve`` on 127.0.0.1, reads the server's resident memory
(and its fork server's) once idle, then in headless Chromium clicks Solve on
closed tours of n x n boards and times until the tour is drawn (the status
settled and the path on the board). The baseline, in the same run, is the
same question through the JSON API alone (``POST /api/solve``), so that the
ratio is the page's own cost (rows, drawing).

    python benchmarks/web.py            # 8x8, 30x30, 100x100
    python benchmarks/web.py --quick    # 8x8, 30x30

Needs the web extra, selenium, and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cpknight.web.server import child_pids


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def api_seconds(url: str, n: int) -> float:
    body = json.dumps(
        {"question": "tour", "board": f"{n}x{n}", "methods": "auto", "time_limit": 30}
    ).encode()
    request = urllib.request.Request(
        url + "api/solve", data=body, headers={"Content-Type": "application/json"}
    )
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        document = json.load(response)
    assert document["rows"][0]["status"] == "found", document
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8x8 and 30x30 only")
    args = parser.parse_args(argv)
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver_path):
        print("needs chromium and chromedriver: apt-get install chromium-driver")
        return 1
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    server = subprocess.Popen(
        [sys.executable, "-m", "cpknight", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    match = re.search(r"http://\S+/", server.stdout.readline())
    assert match
    url = match.group(0)
    options = Options()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--window-size=1200,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        urllib.request.urlopen(url + "api/meta", timeout=30).read()  # warm
        time.sleep(1.0)
        mine = rss_mb(server.pid)
        forks = sum(rss_mb(pid) for pid in child_pids(server.pid))
        print(
            f"idle: server {mine:.0f} MB resident, its fork server {forks:.0f} MB "
            f"({mine + forks:.0f} MB in all)"
        )
        sizes = [8, 30] if args.quick else [8, 30, 100]
        for n in sizes:
            baseline = api_seconds(url, n)
            driver.get(url)
            end = time.monotonic() + 20
            while not driver.find_element(By.TAG_NAME, "body").get_attribute(
                "data-ready"
            ):
                assert time.monotonic() < end
                time.sleep(0.05)
            for field in ("width", "height"):
                box = driver.find_element(By.CSS_SELECTOR, f'[data-field="{field}"]')
                box.clear()
                box.send_keys(str(n), Keys.TAB)
            solve = driver.find_element(By.CSS_SELECTOR, '[data-action="solve"]')
            began = time.perf_counter()
            solve.click()
            while True:
                status = driver.find_element(By.CSS_SELECTOR, "[data-status]")
                word = status.get_attribute("data-status")
                if word not in ("", "running") and driver.find_elements(
                    By.CSS_SELECTOR, "polyline.path"
                ):
                    break
                time.sleep(0.01)
            drawn = time.perf_counter() - began
            row = json.loads(
                driver.find_element(By.CSS_SELECTOR, "[data-result]").get_attribute(
                    "data-result"
                )
                or "{}"
            )
            print(
                f"{n}x{n}: click to drawn tour {drawn:.2f} s (API alone {baseline:.2f}"
                f" s, ratio {drawn / baseline:.1f}); engine {row.get('method')} "
                f"{row.get('seconds', 0):.3f} s"
            )
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)
        server.stdout.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
