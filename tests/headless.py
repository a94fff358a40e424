"""Open a page in headless Chromium (through Playwright), collecting console errors and failed loads.

Skips with a reason when no browser is found (fails under CI=true, see tests.require).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests import skip_or_fail

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


@dataclass
class Opened:
    page: Any
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return self.console_errors + self.failed_requests

    def broken_images(self) -> int:
        return int(
            self.page.evaluate(
                "() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length"
            )
        )


@contextmanager
def chromium_page(width: int = 1200, height: int = 900) -> Iterator[Opened]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed (pip install playwright)")
    from harvest.browser.install import find_browser

    browser_info = find_browser()
    if browser_info is None:
        skip_or_fail("no Chromium found (apt-get install chromium, or playwright install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_info.executable, headless=True, args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            opened = Opened(page)
            page.on("console", lambda m: opened.console_errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: opened.console_errors.append(str(e)))
            page.on("requestfailed", lambda r: opened.failed_requests.append(f"{r.url}: {r.failure}"))
            page.on(
                "response",
                lambda r: opened.failed_requests.append(f"{r.url}: {r.status}") if r.status >= 400 else None,
            )
            yield opened
        finally:
            browser.close()
