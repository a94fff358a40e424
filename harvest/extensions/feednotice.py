"""Say what a crawl's feed exports (``-o``/``-O``/``FEEDS``) got, and what they did not.

Feeds receive the items that passed the pipelines: on a data folder already crawled today, the
dedup pipeline drops every observation already stored, and ``-O out.csv`` was a 0-byte file
with exit code 0 and not a word. At the end of a crawl with feeds this logs one line per feed
URI: rows written, and when items were dropped as already stored, how many, why, and how to get
every stored row (``scrapy export``). When a feed got nothing while items were dropped, that is a
WARNING (the file is empty and the user asked for rows); otherwise INFO.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import signals

from harvest.exceptions import NotApplicable

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Dedup stats of items dropped because they were already stored (harvest.pipelines.dedup).
ALREADY_STORED = ("harvest/dedup/url_seen", "harvest/dedup/content_seen")


class FeedNotice:
    """Logs, at the end of a crawl with feed exports, what each feed got and what was left out."""

    def __init__(self, crawler: Crawler, uris: list[str], data_dir: str) -> None:
        self.crawler = crawler
        self.uris = uris
        self.data_dir = data_dir

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Not configured without feeds."""
        feeds = crawler.settings.getdict("FEEDS")
        if not feeds:
            raise NotApplicable("no feed exports")
        ext = cls(crawler, [str(uri) for uri in feeds], crawler.settings.get("HARVEST_DATA_DIR"))
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_closed(self, spider: Spider) -> None:
        """One line per feed: rows written, and the rows dropped as already stored."""
        stats = self.crawler.stats
        assert stats is not None
        dropped = sum(int(stats.get_value(key, 0) or 0) for key in ALREADY_STORED)
        rows = int(stats.get_value("item_scraped_count", 0) or 0)
        for uri in self.uris:
            message = f"Feed {uri}: {rows:,} row{'' if rows == 1 else 's'} written"
            if dropped:
                message += (
                    f"; {dropped:,} item{'' if dropped == 1 else 's'} this crawl found "
                    f"{'was' if dropped == 1 else 'were'} already stored in {self.data_dir}/{spider.name} "
                    "and not written again (a feed gets what a crawl adds). Every stored row: "
                    f"scrapy export {spider.name} --output DIR"
                )
            (logger.warning if dropped and not rows else logger.info)("%s", message)
