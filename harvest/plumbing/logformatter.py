"""Scrapy's log messages, without building the per-page ones nobody will see.

Scrapy formats a "Crawled (200) <GET ...>" record for every response and a "Scraped from ..."
record for every item at DEBUG level, then its log handler drops them when ``LOG_LEVEL`` is
INFO or above (the default here): CPU for nothing (BENCHMARKS.md, "Second round of CPU cuts").
This formatter returns ``None`` for those two when ``LOG_LEVEL`` would drop them,
which Scrapy documents as "do not log". With ``LOG_LEVEL=DEBUG`` every message is as Scrapy's.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.logformatter import LogFormatter, LogFormatterResult

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class HarvestLogFormatter(LogFormatter):
    """Scrapy's LogFormatter; per-response and per-item DEBUG messages skipped when not logged.

    (Scrapy's engine and scraper check for ``None``; its type hints do not say so yet.)
    """

    def __init__(self, debug: bool = True) -> None:
        self.debug = debug

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """``debug`` when the log would show DEBUG records (``LOG_ENABLED`` and ``LOG_LEVEL``)."""
        settings = crawler.settings
        level = settings.get("LOG_LEVEL") or "DEBUG"
        numeric = level if isinstance(level, int) else logging.getLevelName(str(level).upper())
        debug = settings.getbool("LOG_ENABLED") and (not isinstance(numeric, int) or numeric <= logging.DEBUG)
        return cls(debug=debug)

    def crawled(  # type: ignore[override]
        self, request: Request, response: Response, spider: Spider
    ) -> LogFormatterResult | None:
        """Scrapy's "Crawled (status)" message, or None when DEBUG is not logged."""
        return super().crawled(request, response, spider) if self.debug else None

    def scraped(  # type: ignore[override]
        self, item: Any, response: Response | Failure | None, spider: Spider
    ) -> LogFormatterResult | None:
        """Scrapy's "Scraped from" message, or None when DEBUG is not logged."""
        return super().scraped(item, response, spider) if self.debug else None
