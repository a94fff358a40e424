"""scrapy-playwright's download handler with harvest's bound on response headers.

A crawl with a ``render: true`` site installs scrapy-playwright's handler for ``http`` and
``https`` (harvest/browser.py). It renders only the requests marked ``playwright`` and hands every
other one to Scrapy's HTTP/1.1 handler, which it extends: without this class, the plain pages of
such a crawl (every other site, feeds, sitemaps, robots.txt) would lose the header bounds of
harvest/middlewares/download_handler.py. Rendered pages are fetched by Chromium, which fails a
response whose headers pass its own bound (256 KB, ``ERR_RESPONSE_HEADERS_TOO_BIG``).

Imported only by a crawl that renders: importing scrapy-playwright imports Playwright.
"""

from __future__ import annotations

from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from harvest.middlewares.download_handler import BoundedHeaders


class BoundedPlaywrightDownloadHandler(BoundedHeaders, ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler; its plain (not rendered) downloads have bounded headers."""
