"""Close a crawl that sits idle and alive: nothing in flight, nothing handed out, no wait announced.

Scrapy closes a spider once its scheduler says nothing is pending. A scheduler that says
"pending" but hands out nothing (the resumed frontier whose restore count outlived its rows, see
harvest/crawl/frontier.py) keeps the engine polling every 5 s for ever: no request, no error, no end.
:class:`StuckCrawlGuard` checks every :data:`CHECK` seconds (at most the timeout); when for
``HARVEST_CRAWL_STUCK_TIMEOUT`` seconds no request was sent, none is in flight (a request waiting
in a downloader middleware, such as the GitHub rate limit, counts as in flight), the scraper is
idle, the spider's start is over and no component announced a wait (:mod:`harvest.util.waits`), it
logs an ERROR saying so and closes the crawl with reason ``stuck``, which is not an OK reason
(``scrapy crawl`` exits 1; the fleet restarts the spider, which resumes its frontier).

Off for Redis scale-out (there an idle worker waits for work other workers may add, by design).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.utils.asyncio import create_looping_call

from harvest.config.settings_model import retired_value
from harvest.exceptions import NotApplicable
from harvest.plumbing.closing import close_crawl
from harvest.state import is_redis_url
from harvest.util import waits

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Close reason of a crawl that stopped making progress with nothing to wait for.
STUCK_REASON = "stuck"
#: How often the guard looks (seconds; at most ``HARVEST_CRAWL_STUCK_TIMEOUT``): the engine's own
#: heartbeat is 5 s, and a stuck crawl is closed within the timeout plus this.
CHECK = 10.0


class StuckCrawlGuard:
    """Closes the crawl with reason ``stuck`` after ``timeout`` seconds idle and alive."""

    def __init__(self, crawler: Crawler, timeout: float, check_every: float,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.crawler = crawler
        self.timeout = timeout
        self.check_every = check_every
        self.clock = clock
        self._task: Any = None
        self._sent = -1
        self._idle_since: float | None = None
        self.closing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """From ``HARVEST_CRAWL_STUCK_TIMEOUT`` (0 = off), checked every :data:`CHECK` seconds."""
        timeout = crawler.settings.getfloat("HARVEST_CRAWL_STUCK_TIMEOUT")
        if timeout <= 0:
            raise NotApplicable("HARVEST_CRAWL_STUCK_TIMEOUT is 0")
        if is_redis_url(crawler.settings.get("HARVEST_STATE_URL")):
            raise NotApplicable("Redis scale-out: idle workers wait for work on purpose")
        check = min(timeout, retired_value(crawler.settings, "HARVEST_CRAWL_STUCK_CHECK", CHECK))
        guard = cls(crawler, timeout, check)
        crawler.signals.connect(guard.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(guard.spider_closed, signal=signals.spider_closed)
        return guard

    def spider_opened(self) -> None:
        """Start checking."""
        self._task = create_looping_call(self.check)
        self._task.start(self.check_every, now=False)

    def spider_closed(self) -> None:
        """Stop checking."""
        self.closing = True
        if self._task is not None and self._task.running:
            self._task.stop()

    def idle_and_alive(self) -> str | None:
        """What the crawl holds while doing nothing (a description), or None if it is working."""
        engine = self.crawler.engine
        stats = self.crawler.stats
        slot = getattr(engine, "_slot", None)
        if engine is None or slot is None or stats is None or slot.closing:
            return None
        sent = int(stats.get_value("downloader/request_count", 0))
        moved, self._sent = sent != self._sent, sent
        if moved or engine.downloader.active or getattr(engine, "_start", None) is not None:
            return None
        scraper_slot = engine.scraper.slot
        if scraper_slot is not None and not scraper_slot.is_idle():
            return None
        if waits.current(self.crawler):
            return None
        scheduler = slot.scheduler
        if not scheduler.has_pending_requests():
            return None  # the engine closes such a crawl itself
        return f"its scheduler reports {len(scheduler)} pending request(s) but hands none out"

    def check(self) -> None:
        """One look; close the crawl once it was idle and alive for ``timeout`` seconds."""
        if self.closing:
            return
        why = self.idle_and_alive()
        now = self.clock()
        if why is None:
            self._idle_since = None
            return
        if self._idle_since is None:
            self._idle_since = now
            return
        if now - self._idle_since < self.timeout:
            return
        self.closing = True
        logger.error("Nothing sent, nothing in flight and no announced wait for %.0f s: %s. Closing the "
                     "crawl (reason %r); its pending requests stay in the frontier for the next run.",
                     now - self._idle_since, why, STUCK_REASON)  # fmt: skip
        assert self.crawler.stats is not None and self.crawler.engine is not None
        self.crawler.stats.inc_value("harvest/crawl/stuck")
        close_crawl(self.crawler, STUCK_REASON)
