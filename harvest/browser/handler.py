"""scrapy-playwright's download handler with harvest's header bounds and one-line failures.

A crawl with a ``render: true`` site installs scrapy-playwright's handler for ``http`` and
``https`` (harvest/browser/install.py). It renders only the requests marked ``playwright`` and hands every
other one to Scrapy's HTTP/1.1 handler, which it extends: without this class the plain pages of
such a crawl (every other site, feeds, sitemaps, robots.txt) would lose the header bounds of
harvest/middlewares/download_handler.py. Rendered pages are fetched by Chromium, which fails a
response whose headers pass its own bound (256 KB, ``net::ERR_RESPONSE_HEADERS_TOO_BIG``).

Each rendered page is metered (harvest/browser/meter.py): past ``HARVEST_BROWSER_MAX_PAGE_BYTES``
received, the page is closed and its request fails with :class:`~harvest.browser.meter.PageTooLarge`
(stat ``harvest/browser/page_too_large``); a page whose renderer crashed (a script past the heap
bound of the launch options) fails with :class:`~harvest.browser.meter.PageCrashed` (stat
``harvest/browser/page_crashed``). Neither is retried, by scrapy-playwright (which retries a
closed page up to three times) nor by RetryMiddleware, and the spider's errback logs each in one
line. scrapy-playwright releases the context's page slot on a page's "crash" and again on its
"close" (which follows when the failed page is closed): here the slot is released once, on
"close", so neither a crash nor the time a crashed page takes to close lets more pages than
``HARVEST_BROWSER_PAGES`` be open at once.

A rendered page that fails (a timeout, Chromium's header bound, a refused connection) fails with
the first line of Playwright's message: the rest is Playwright's call log, which would make the
spider's one line about it several. scrapy-playwright's own WARNING about closing the page, with
a traceback, is not logged: the spider's errback says what failed.

Imported only by a crawl that renders: importing scrapy-playwright imports Playwright.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.async_api import Error as PlaywrightError
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from harvest.browser.meter import PageCrashed, PageMeter, PageTooLarge
from harvest.middlewares.download_handler import BoundedHeaders

if TYPE_CHECKING:
    from playwright.async_api import Page
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: scrapy-playwright's logger.
_PLAYWRIGHT_LOGGER = "scrapy-playwright"


class _NoClosingPageTraceback(logging.Filter):
    """Drops scrapy-playwright's "Closing page due to failed request" (a WARNING with a traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            isinstance(record.msg, str) and record.msg.startswith("Closing page due to failed request")
        )


class BoundedPlaywrightDownloadHandler(BoundedHeaders, ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler: bounded headers on plain downloads, one-line render failures."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.max_page_bytes = crawler.settings.getint("HARVEST_BROWSER_MAX_PAGE_BYTES")
        self._meters: dict[Request, PageMeter] = {}
        self._closing: set[asyncio.Future[None]] = set()
        #: The slot-release callback made for the page being created (see _create_page).
        self._last_release: Callable[[], None] | None = None
        playwright_logger = logging.getLogger(_PLAYWRIGHT_LOGGER)
        if not any(isinstance(f, _NoClosingPageTraceback) for f in playwright_logger.filters):
            playwright_logger.addFilter(_NoClosingPageTraceback())

    async def _create_page(self, request: Request, spider: Spider) -> Page:
        page = await super()._create_page(request, spider)
        # Registered for "crash" and "close" by the call above, with no await between: this
        # page's. A crashed page still counts until it is closed.
        if self._last_release is not None:
            page.remove_listener("crash", self._last_release)
            self._last_release = None
        meter = PageMeter(self.max_page_bytes, lambda: self._too_large(page))
        self._meters[request] = meter
        await meter.attach(page)
        return page

    def _too_large(self, page: Page) -> None:
        """Close a page past the byte bound: its renderer's memory goes, its navigation fails."""
        closing = asyncio.ensure_future(page.close())
        self._closing.add(closing)
        closing.add_done_callback(self._closed)

    def _closed(self, closing: asyncio.Future[None]) -> None:
        self._closing.discard(closing)
        if not closing.cancelled() and closing.exception() is not None:
            logger.debug("Closing a page past its byte bound: %s", closing.exception())

    def _make_close_page_callback(self, context_name: str) -> Callable[[], None]:
        release = super()._make_close_page_callback(context_name)
        released = False

        def release_once() -> None:
            nonlocal released
            if not released:
                released = True
                release()

        self._last_release = release_once
        return release_once

    async def _download_request_with_retry(self, request: Request, spider: Spider) -> Response:
        try:
            response = await super()._download_request_with_retry(request, spider)
        except Exception:
            self._raise_bound(request)
            raise
        self._raise_bound(request)
        return response

    def _raise_bound(self, request: Request) -> None:
        """Raise PageTooLarge or PageCrashed if ``request``'s page passed its bound or crashed."""
        meter = self._meters.pop(request, None)
        if meter is None:
            return
        if meter.over:
            self.stats.inc_value("harvest/browser/page_too_large")
            raise PageTooLarge(request.url, meter.limit) from None
        if meter.crashed:
            self.stats.inc_value("harvest/browser/page_crashed")
            raise PageCrashed(request.url) from None

    async def _download_request(self, request: Request, spider: Spider | None = None) -> Response:
        try:
            return await super()._download_request(request, spider)
        except PlaywrightError as exc:
            message = str(exc)
            first = message.splitlines()[0] if message else ""
            if first == message:
                raise
            raise type(exc)(first) from None
