"""scrapy-playwright's download handler with harvest's header bounds and one-line failures.

A crawl with a ``render: true`` site installs scrapy-playwright's handler for ``http`` and
``https`` (harvest/browser/install.py). It renders only the requests marked ``playwright`` and hands every
other one to Scrapy's HTTP/1.1 handler, which it extends: without this class the plain pages of
such a crawl (every other site, feeds, sitemaps, robots.txt) would lose the header bounds of
harvest/middlewares/download_handler.py. Rendered pages are fetched by Chromium, which fails a
response whose headers pass its own bound (256 KB, ``net::ERR_RESPONSE_HEADERS_TOO_BIG``).

A rendered page that fails (a timeout, Chromium's header bound, a refused connection) fails with
the first line of Playwright's message: the rest is Playwright's call log, which would make the
spider's one line about it several. scrapy-playwright's own WARNING about closing the page, with
a traceback, is not logged: the spider's errback says what failed.

Imported only by a crawl that renders: importing scrapy-playwright imports Playwright.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from playwright.async_api import Error as PlaywrightError
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from harvest.middlewares.download_handler import BoundedHeaders

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

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
        playwright_logger = logging.getLogger(_PLAYWRIGHT_LOGGER)
        if not any(isinstance(f, _NoClosingPageTraceback) for f in playwright_logger.filters):
            playwright_logger.addFilter(_NoClosingPageTraceback())

    async def _download_request(self, request: Request, spider: Spider | None = None) -> Response:
        try:
            return await super()._download_request(request, spider)
        except PlaywrightError as exc:
            message = str(exc)
            first = message.splitlines()[0] if message else ""
            if first == message:
                raise
            raise type(exc)(first) from None
