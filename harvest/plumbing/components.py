"""Log which scheduler and duplicate filter a crawl runs with, next to Scrapy's component lists.

Scrapy logs the enabled extensions, middlewares and pipelines of every crawl, but not its
scheduler or duplicate filter, which decide what is fetched (the persisted frontier, or
scrapy-redis's shared queue with ``HARVEST_STATE_URL=redis://...``). One INFO line at
``engine_started`` completes the picture, so a crawl's log says exactly what ran, whichever
entry point started it (``tests/crawl/test_crawl.py`` compares them).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)


def _path(obj: Any) -> str:
    cls = type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


class CrawlComponentsLog:
    """Logs ``Scheduler: <class> (duplicate filter: <class>)`` once the engine started."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Connect to ``engine_started``."""
        ext = cls(crawler)
        crawler.signals.connect(ext.engine_started, signal=signals.engine_started)
        return ext

    def engine_started(self) -> None:
        """Name the scheduler and its duplicate filter."""
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None)
        scheduler = getattr(slot, "scheduler", None)
        if scheduler is None:  # a Scrapy without the engine slot: nothing to say
            return
        dupefilter = getattr(scheduler, "df", None)
        logger.info("Scheduler: %s (duplicate filter: %s)", _path(scheduler),
                    _path(dupefilter) if dupefilter is not None else "none")  # fmt: skip
