"""The framework's ceiling: a bare Scrapy CrawlSpider that follows every link and stores nothing.

Run from outside the project (so harvest's settings do not apply), by bench/crawl_throughput.py:
``scrapy runspider bench/bare_crawlspider.py -a start=URL``.
"""

from __future__ import annotations

from typing import Any

from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class BareCrawlSpider(CrawlSpider):
    name = "bare"
    rules = (Rule(LinkExtractor(), callback="parse_item", follow=True),)

    def __init__(self, start: str = "", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_urls = [start]

    def parse_item(self, response: Any) -> None:
        self.crawler.stats.inc_value("bench/pages")
