"""Test spiders for the watchdog: a crawl that waits on purpose, and one that idles for nothing.

Both fetch TEST_PAGES pages of ``<site>/alpha/<i>`` (the loopback site serves the ``alpha``
pages), then keep their crawl open with nothing in flight and nothing scheduled:

- ``announces`` announces a wait (harvest.util.waits) until TEST_WAIT_SECONDS from then, keeps its
  reactor turning (heartbeats go on), and closes normally once the wait is over;
- ``idles`` announces nothing and never closes: stuck, as far as anyone can tell.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider

from harvest.util import waits
from tests.runner.spiders_for_tests.pages import PagesSpider

logger = logging.getLogger(__name__)

#: The text the tests look for in status.json.
WAIT_TEXT = "waiting for the test's pretend rate limit"


class _IdleSpider(PagesSpider):
    """Fetches its pages, then stays open through every idle signal until ``keep_open`` says no."""

    name = ""  # not a spider of its own

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> Any:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.on_idle, signal=signals.spider_idle)
        return spider

    async def start(self) -> AsyncIterator[Any]:
        site = self.settings.get("TEST_SITE_URL").rstrip("/")
        for i in range(self.settings.getint("TEST_PAGES", 2)):
            yield scrapy.Request(f"{site}/alpha/{i}", meta={"harvest_kind": "document", "harvest_ttl": None})

    def on_idle(self, spider: Any) -> None:
        if self.keep_open():
            raise DontCloseSpider

    def keep_open(self) -> bool:
        return True


class AnnouncesSpider(_IdleSpider):
    """Waits TEST_WAIT_SECONDS with the wait announced, then closes with reason ``finished``."""

    name = "announces"
    wait_until: float | None = None

    def keep_open(self) -> bool:
        now = time.time()
        if self.wait_until is None:
            self.wait_until = now + self.settings.getfloat("TEST_WAIT_SECONDS", 10.0)
            waits.announce(self.crawler, "test", WAIT_TEXT, self.wait_until)
            logger.info("Announced a wait of %.1f s", self.wait_until - now)
        if now < self.wait_until:
            return True
        waits.clear(self.crawler, "test")
        logger.info("The announced wait is over; closing")
        return False


class IdlesSpider(_IdleSpider):
    """Never closes, never announces anything: nothing in flight, no progress, no wait."""

    name = "idles"
