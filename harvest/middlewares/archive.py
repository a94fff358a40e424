"""ArchiveMiddleware: the web archive's limits, for every harvest process at once.

Applies to requests under ``HARVEST_ARCHIVE_CDX_URL`` (endpoint ``cdx``) and
``HARVEST_ARCHIVE_WEB_URL`` (endpoint ``web``) of spiders that declare ``uses_archive``. Each waits,
without blocking the reactor, for a grant of the shared limits (:mod:`harvest.state.archive`):
one request at a time per endpoint, at most ``HARVEST_ARCHIVE_CDX_PER_MINUTE`` CDX queries a
minute and ``HARVEST_ARCHIVE_WEB_PER_SECOND`` playbacks a second, summed over every process of the
data folder (or of the Redis state). A 429 or 503 blocks the endpoint for every process for its
``Retry-After`` (or a backoff doubling from ``HARVEST_ARCHIVE_BACKOFF``), and the request goes
back to the scheduler: a wait (stats ``harvest/archive/<endpoint>/waits``), not an error.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import signals
from twisted.internet.defer import Deferred

from harvest.exceptions import NotApplicable
from harvest.meta import META_ARCHIVE_GRANT, META_ARCHIVE_REFUSALS
from harvest.plumbing.capabilities import class_capabilities
from harvest.state import is_redis_url
from harvest.state.archive import ARCHIVE_DIR, ArchiveBudget, ArchiveLimits, RedisArchiveBudget
from harvest.util import waits

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Longest single sleep while waiting, so a closing spider is noticed within a second.
_MAX_SLEEP = 1.0
#: The interval runs from each answer (harvest.state.archive), so arrivals are at least an interval
#: apart whatever a busy process delays; 2% more covers clock reads at the window's edge.
_MARGIN = 1.02


class ArchiveMiddleware:
    """Shared pace and 429/503 handling for the web archive's endpoints (see the module docstring)."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.endpoints = {
            "cdx": settings.get("HARVEST_ARCHIVE_CDX_URL").rstrip("/"),
            "web": settings.get("HARVEST_ARCHIVE_WEB_URL").rstrip("/"),
        }
        cdx_rate = settings.getfloat("HARVEST_ARCHIVE_CDX_PER_MINUTE")
        web_rate = settings.getfloat("HARVEST_ARCHIVE_WEB_PER_SECOND")
        if cdx_rate <= 0 or web_rate <= 0:
            raise NotApplicable(
                "HARVEST_ARCHIVE_CDX_PER_MINUTE and HARVEST_ARCHIVE_WEB_PER_SECOND must be > 0"
            )
        self.intervals = {"cdx": 60.0 / cdx_rate * _MARGIN, "web": 1.0 / web_rate * _MARGIN}
        self.backoff = settings.getfloat("HARVEST_ARCHIVE_BACKOFF")
        self.backoff_max = settings.getfloat("HARVEST_ARCHIVE_BACKOFF_MAX")
        self.refusals_max = settings.getint("HARVEST_ARCHIVE_REFUSALS_MAX")
        self.state_url = settings.get("HARVEST_STATE_URL") or ""
        # A Redis call blocks the event loop: bounded as the crawl state's own calls are.
        self.busy_timeout = settings.getfloat("HARVEST_STATE_BUSY_TIMEOUT")
        self.path = Path(settings.get("HARVEST_DATA_DIR")) / "state" / ARCHIVE_DIR / "archive.sqlite"
        self.limits: ArchiveLimits | None = None
        self._waiters: list[Deferred[None]] = []
        self._closing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Active for spiders that declare ``uses_archive``."""
        if not class_capabilities(crawler.spidercls).uses_archive:
            raise NotApplicable("the spider does not read web archives")
        mw = cls(crawler)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        return mw

    def _open(self) -> ArchiveLimits:
        if self.limits is None:
            if is_redis_url(self.state_url):
                # Only a Redis state needs the client (memory of each process: BENCHMARKS.md,
                # "Figures behind comments").
                import redis

                server = redis.Redis.from_url(
                    self.state_url,
                    socket_timeout=self.busy_timeout,
                    socket_connect_timeout=min(self.busy_timeout, 5.0),
                )
                self.limits = RedisArchiveBudget(server)
            else:
                self.limits = ArchiveBudget(self.path)
        return self.limits

    def spider_closed(self) -> None:
        """Give back this process's grants."""
        self._closing = True
        if self.limits is not None:
            limits, self.limits = self.limits, None
            try:
                limits.close()
            except Exception as exc:  # noqa: BLE001 - a lost grant expires on its own
                logger.info("Could not release this process's archive grants (%s); they expire", exc)

    def endpoint(self, request: Request) -> str | None:
        """``cdx``, ``web`` or None for a request to neither."""
        for name, base in self.endpoints.items():
            if (
                request.url == base
                or request.url.startswith(base + "/")
                or request.url.startswith(base + "?")
            ):
                return name
        return None

    def _inc(self, key: str, value: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/archive/{key}", value)

    async def process_request(self, request: Request) -> None:
        """Wait for a grant of the endpoint's shared limits."""
        endpoint = self.endpoint(request)
        if endpoint is None:
            return
        limits = self._open()
        waited = 0.0
        key = f"archive/{endpoint}"
        announced = False
        try:
            while True:
                decision = limits.acquire(endpoint, self.intervals[endpoint])
                if decision.grant is not None:
                    break
                if decision.reason == "blocked" and not announced:
                    announced = True
                    end = time.strftime("%H:%M:%SZ", time.gmtime(time.time() + decision.wait))
                    until = time.time() + decision.wait
                    text = f"waiting for the archive's {endpoint} limit until {end}"
                    waits.announce(self.crawler, key, text, until)
                started = time.monotonic()
                await waits.pause(min(max(decision.wait, 0.005), _MAX_SLEEP), self._waiters)
                waited += time.monotonic() - started
        finally:
            if announced:
                waits.clear(self.crawler, key)
        request.meta[META_ARCHIVE_GRANT] = decision.grant
        self._inc(f"{endpoint}/requests")
        if waited:
            self._inc(f"{endpoint}/wait_ms", int(waited * 1000))

    def _release(self, request: Request) -> None:
        grant = request.meta.pop(META_ARCHIVE_GRANT, None)
        if grant is not None and self.limits is not None:
            self.limits.release(grant)
        for waiter in list(self._waiters):
            waits.wake(waiter)

    def process_exception(self, request: Request, exception: BaseException) -> None:
        """End the grant; the exception goes on (to RetryMiddleware and the errback)."""
        if self.endpoint(request) is not None:
            self._release(request)

    def process_response(self, request: Request, response: Response) -> Request | Response:
        """End the grant; a 429/503 blocks the endpoint everywhere and requeues the request."""
        endpoint = self.endpoint(request)
        if endpoint is None:
            return response
        self._release(request)
        limits = self._open()
        if response.status not in (429, 503):
            limits.succeeded(endpoint)
            return response
        asked = waits.retry_after(response, time.time())
        seconds, in_a_row = limits.block(endpoint, asked, self.backoff, self.backoff_max)
        self._inc(f"{endpoint}/waits")
        refusals = int(request.meta.get(META_ARCHIVE_REFUSALS, 0)) + 1
        if refusals > self.refusals_max:
            self._inc(f"{endpoint}/gave_up")
            logger.error(
                "The archive refused %s %d times in a row (last: %d); giving up on it",
                request.url,
                refusals,
                response.status,
            )
            return response
        # A wait, not an error: the archive asked us to slow down and we do.
        logger.info(
            "The archive answered %d to %s: nothing goes to its %s endpoint for %.1f s "
            "(%s; refusal %d in a row)",
            response.status,
            request.url,
            endpoint,
            seconds,
            "Retry-After" if asked is not None else "backoff",
            in_a_row,
        )
        retry = request.replace(dont_filter=True)
        retry.meta[META_ARCHIVE_REFUSALS] = refusals
        return retry
