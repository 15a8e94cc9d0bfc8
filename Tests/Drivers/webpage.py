#!/usr/bin/env python3
"""The live page in a real browser (headless Chromium through Selenium), for the tests.

usage: webpage.py [--sky-only SECONDS] ARTEFACTS DEVICE -- SERVE [ARGUMENT...]

Starts SERVE (`nmeastream serve DEVICE ... --listen 127.0.0.1:0 --http 127.0.0.1:0`), opens its
page, and prints one JSON object of what it saw, for the Swift test to judge:

- whether DEVICE was open in the server before the page, with the page, and after it closed
  (counted in /proc/PID/fd);
- the page's fields (`data-field`) and its sky-plot marks (`data-prn`, `data-gnss`,
  `data-used`), once it shows a fix, and the SKY and TPV that a gpsd client of the same server
  gets at the same time;
- whether the page has no horizontal scrolling at a phone's width;
- at each of the widths people use (a phone's 360 px to a desktop's 1920), whether the page
  scrolls sideways, and which values do not lie inside their card (a value cut or spilling
  over its card's edge);
- whether the fix went grey (stale) once the server was gone, and whether the page
  reconnected by itself when the server came back on the same port.

With --sky-only, once the page shows a fix it only watches the sky plot for SECONDS and
reports the fewest and most marks it drew and what it said of the satellites and dilutions
(for a receiver that sends GSV only every few epochs: SKYs with dilutions alone come between).

Screenshots (desktop.png, phone.png, stale.png, and width-W.png for each width) go to
ARTEFACTS.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def start_server(command, log_path):
    """Starts the server; returns it with its gpsd port and its page's address."""
    log = open(log_path, "w")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 20
    while time.time() < deadline:
        text = open(log_path).read()
        page = re.search(r"live page on (http://[^,\s]+/)", text)
        gpsd = re.search(r" on 127\.0\.0\.1:(\d+)", text)
        if page and gpsd:
            return process, int(gpsd.group(1)), page.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise SystemExit(f"webpage.py: the server did not start:\n{open(log_path).read()}")


def open_count(pid, device):
    """How many of the process's descriptors are open on the device."""
    target = os.path.realpath(device)
    count = 0
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{name}") == target:
                    count += 1
            except OSError:
                pass
    except OSError:
        return -1
    return count


def wait_for(condition, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


def gpsd_reports(port):
    """The first SKY and the first TPV after them that a gpsd client of the server gets."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(b'?WATCH={"enable":true,"json":true};\n')
        buffer, sky, tpv = b"", None, None
        deadline = time.time() + 15
        while time.time() < deadline and tpv is None:
            chunk = client.recv(65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                report = json.loads(line)
                if report.get("class") == "SKY":
                    sky = report
                elif report.get("class") == "TPV" and sky is not None and "lat" in report:
                    tpv = report
        return sky, tpv


# Read in one script, at one moment: the page redraws its marks on every SKY, and elements
# looked up one call at a time may be gone by the next call.
PAGE_STATE = """
const fields = {};
for (const element of document.querySelectorAll("[data-field]")) fields[element.dataset.field] = element.textContent;
const marks = [...document.querySelectorAll("#skyplot [data-prn]")].map((element) => ({
  prn: element.getAttribute("data-prn"), gnss: element.getAttribute("data-gnss"),
  used: element.getAttribute("data-used"), placed: element.getAttribute("data-placed") !== "false"}));
return {fields, marks, connection: document.getElementById("connection").dataset.state,
        stale: document.querySelector("main").classList.contains("stale"),
        age: document.getElementById("age").textContent};
"""


def page_state(driver):
    return driver.execute_script(PAGE_STATE)


# Each value's box against its card's, and the text against its own box (text that spills
# out of a box that does not grow is cut, or runs over its neighbour).
LAYOUT = """
const clipped = [];
for (const element of document.querySelectorAll("[data-field], .panel h2, #device-picker, #connection")) {
  const card = element.closest(".panel, header");
  if (!card) continue;
  const box = element.getBoundingClientRect(), edge = card.getBoundingClientRect();
  const outside = box.left < edge.left - 0.5 || box.right > edge.right + 0.5;
  const spills = element.scrollWidth > element.clientWidth + 1;
  if (outside || spills) clipped.push(element.dataset.field || element.id || element.textContent.trim());
}
return {overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        width: window.innerWidth, clipped};
"""

WIDTHS = (360, 768, 1024, 1280, 1440, 1920)


def layouts(driver, artefacts):
    """The layout at each of WIDTHS, a screenshot of each kept."""
    seen = {}
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        time.sleep(0.4)
        seen[str(width)] = driver.execute_script(LAYOUT)
        driver.save_screenshot(os.path.join(artefacts, f"width-{width}.png"))
    driver.set_window_size(1280, 900)
    return seen


def main():
    arguments = sys.argv[1:]
    sky_only = None
    if arguments[:1] == ["--sky-only"] and len(arguments) > 1:
        sky_only, arguments = float(arguments[1]), arguments[2:]
    if len(arguments) < 4 or arguments[2] != "--":
        raise SystemExit(__doc__)
    artefacts, device, command = arguments[0], arguments[1], arguments[3:]
    os.makedirs(artefacts, exist_ok=True)
    log_path = os.path.join(artefacts, "serve.log")
    report = {}
    server, gpsd_port, page = start_server(command, log_path)
    driver = None
    try:
        time.sleep(0.5)
        report["openBefore"] = open_count(server.pid, device)

        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,900", "--hide-scrollbars"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.get(page)
        def shows_fix():
            state = page_state(driver)
            return state["fields"].get("lat", "–") != "–" and len(state["marks"]) > 0
        report["showedFix"] = wait_for(shows_fix, 30)
        report["openWithPage"] = open_count(server.pid, device)
        if sky_only is not None:
            counts, deadline = [], time.time() + sky_only
            while time.time() < deadline:
                state = page_state(driver)
                counts.append(len(state["marks"]))
                time.sleep(0.1)
            report["marksFewest"], report["marksMost"] = min(counts), max(counts)
            report["page"] = page_state(driver)
            print(json.dumps(report))
            return

        # What a gpsd client gets, then the page once it has drawn the same epoch.
        sky, tpv = gpsd_reports(gpsd_port)
        report["gpsdSky"], report["gpsdTpv"] = sky, tpv
        wait_for(lambda: len(page_state(driver)["marks"]) == len((sky or {}).get("satellites", [])), 10)
        report["page"] = page_state(driver)
        driver.save_screenshot(os.path.join(artefacts, "desktop.png"))
        report["layouts"] = layouts(driver, artefacts)

        driver.set_window_size(390, 844)
        time.sleep(0.5)
        report["phoneOverflow"] = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        driver.save_screenshot(os.path.join(artefacts, "phone.png"))
        driver.set_window_size(1280, 900)

        # The server goes away: the page says so, and its fix goes grey.
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
        report["sawReconnecting"] = wait_for(lambda: page_state(driver)["connection"] != "live", 10)
        report["staleWhenGone"] = wait_for(lambda: page_state(driver)["stale"], 10)
        driver.save_screenshot(os.path.join(artefacts, "stale.png"))

        # The server comes back on the same port: the page reconnects by itself.
        port = page.rstrip("/").rsplit(":", 1)[1]
        again = [("127.0.0.1:" + port) if previous == "--http" and i > 0 else argument
                 for i, (previous, argument) in enumerate(zip([""] + command, command))]
        server, gpsd_port, page = start_server(again, log_path + ".again")
        def live_again():
            state = page_state(driver)
            return state["connection"] == "live" and not state["stale"]
        report["reconnected"] = wait_for(live_again, 30)
        report["openWithPageAgain"] = open_count(server.pid, device)

        driver.quit()
        driver = None
        report["closedAfterPage"] = wait_for(lambda: open_count(server.pid, device) == 0, 10)
    finally:
        if driver is not None:
            driver.quit()
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=20)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
