"""Scrapy's in-memory stats collector, minus a per-call compatibility shim.

Scrapy 2.14+ routes every attribute lookup on a stats collector through ``__getattribute__``
to warn about the deprecated ``spider`` argument of its methods, many times the cost of the call,
and a crawl makes dozens of such calls per page (BENCHMARKS.md, "Figures behind comments").
harvest never passes
``spider``; code that does still works (the methods accept it), it is only not warned about.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from scrapy.statscollectors import MemoryStatsCollector

logger = logging.getLogger("scrapy.statscollectors")


class StatsCollector(MemoryStatsCollector):
    """``MemoryStatsCollector`` with plain attribute lookup (see the module docstring).

    On a terminal the final stats dump is logged at DEBUG: the crawl's end summary
    (harvest.extensions.progress) says what a user needs, and every stat is in the round record
    under ``logs/<spider>/``. Piped or redirected (a fleet child's log, scripts, scrapyd) it stays
    at INFO, where the report and scripts read it.
    """

    __getattribute__ = object.__getattribute__

    def close_spider(self, spider: Any = None, reason: str | None = None) -> None:
        """Dump the stats (at DEBUG on a terminal) and persist them."""
        if self._dump and sys.stderr.isatty():
            logger.debug("Dumping Scrapy stats:\n%s", self, extra={"spider": self._crawler.spider})
            self._persist_stats(self._stats)
            return
        super().close_spider(spider, reason)
