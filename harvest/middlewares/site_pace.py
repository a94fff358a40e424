"""The pace of each host: its site's delay and concurrency, robots.txt's Crawl-delay, Scrapy's slot delay.

:class:`HostPaces` is :class:`~harvest.middlewares.pace.PaceMiddleware`'s: what one request per
interval and how many at once mean for a host; the middleware holds the grants.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy.utils.httpobj import urlparse_cached

from harvest.plumbing.capabilities import capabilities
from harvest.state.pace import Pace, PaceStore, SitePace

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.robotstxt import RobotParser

logger = logging.getLogger(__name__)


class HostPaces:
    """The pace of every host this process sends to, recorded in the shared store.

    Settings: ``DOWNLOAD_DELAY``, ``CONCURRENT_REQUESTS_PER_DOMAIN``, ``HARVEST_PACE_MAX_DELAY``,
    ``ROBOTSTXT_USER_AGENT`` / ``USER_AGENT``. ``store`` opens the shared store on first use.
    """

    def __init__(self, crawler: Crawler, store: Callable[[], PaceStore]) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self._store = store
        self.default_delay = max(0.0, settings.getfloat("DOWNLOAD_DELAY"))
        self.default_concurrency = max(1, settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"))
        self.max_delay = settings.getfloat("HARVEST_PACE_MAX_DELAY")
        self.user_agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT") or ""
        self._paces: dict[str, Pace] = {}
        self._crawl_delays: dict[str, float | None] = {}
        #: Per download slot: the delay Scrapy (DOWNLOAD_DELAY, AutoThrottle) last asked for.
        self._slot_delays: dict[str, float] = {}

    def _site(self, request: Request) -> tuple[str, float, int]:
        spider = self.crawler.spider
        entry = capabilities(spider).site_pace(request.url)
        host = urlparse_cached(request).hostname or ""
        if entry is None:
            return host, self.default_delay, self.default_concurrency
        name, delay, concurrency = entry
        return (
            name,
            self.default_delay if delay is None else float(delay),
            self.default_concurrency if concurrency is None else int(concurrency),
        )

    def pace(self, host: str, request: Request) -> Pace:
        """The host's configured pace (robots.txt's Crawl-delay included), recorded when first met."""
        pace = self._paces.get(host)
        if pace is None:
            site, configured, concurrency = self._site(request)
            crawl_delay = self._crawl_delays.get(host)
            pace = Pace(max(configured, crawl_delay or 0.0), concurrency)
            self._paces[host] = pace
            self._store().record(SitePace(host, site, configured, crawl_delay, pace.interval, concurrency))
            if crawl_delay:
                logger.info(
                    "robots.txt of %s asks for Crawl-delay: %g s; site %s is paced at one request "
                    "every %g s (configured %g s), at most %d at once, across every process",
                    host,
                    crawl_delay,
                    site,
                    pace.interval,
                    configured,
                    concurrency,
                )
        return pace

    def robots_parsed(self, robotparser: RobotParser, request: Request) -> bool:
        """Note the ``Crawl-delay`` robots.txt asks of our user agent; True when it asks for one."""
        host = urlparse_cached(request).netloc.lower()
        try:
            delay = robotparser.crawl_delay(self.user_agent)
        except Exception:  # a parser without Crawl-delay support
            delay = None
        if delay is not None and delay > self.max_delay:
            logger.info(
                "robots.txt of %s asks for Crawl-delay: %g s; capped at HARVEST_PACE_MAX_DELAY=%g s",
                host,
                delay,
                self.max_delay,
            )
            delay = self.max_delay
        self._crawl_delays[host] = delay if delay and delay > 0 else None
        if delay and delay > 0:
            self._paces.pop(host, None)
            # robots.txt itself went out at the pace known before it: the next request waits.
            self._store().stretch(host, self.pace(host, request).interval)
            return True
        return False

    def _slot_delay(self, request: Request, pace: Pace) -> float:
        """The delay Scrapy's slot wants; the slot itself no longer delays granted requests."""
        try:
            downloader = self.crawler.engine.downloader
        except (AttributeError, RuntimeError):  # no engine: the component is used on its own
            return 0.0
        key = downloader.get_slot_key(request)
        slot = downloader.slots.get(key)
        if slot is None:
            return self._slot_delays.get(key, 0.0)
        if slot.delay:
            # DOWNLOAD_DELAY, or AutoThrottle's latest estimate since the last request.
            self._slot_delays[key] = min(slot.delay, self.max_delay)
            slot.delay = 0.0
        if slot.latercall is not None:
            # Scrapy blocks the slot for a delay after each request even with nothing queued.
            slot.latercall.cancel()
            slot.latercall = None
        slot.concurrency = max(slot.concurrency, pace.concurrency)
        return self._slot_delays.get(key, 0.0)

    def current(self, host: str, request: Request) -> Pace:
        """The host's pace now (AutoThrottle's delay changes with every answer)."""
        base = self.pace(host, request)
        slot_delay = self._slot_delay(request, base)
        return Pace(slot_delay, base.concurrency) if slot_delay > base.interval else base

    def describe(self) -> dict[str, Any]:
        """The paces in use by this process (for tests and debugging)."""
        return {host: (p.interval, p.concurrency) for host, p in self._paces.items()}
