"""PaceMiddleware: one pace per site across every process, robots.txt ``Crawl-delay`` included.

Every request to a host waits for a grant from the shared pace (:mod:`harvest.state.pace`): at most
the site's concurrency in flight and one request per interval, summed over every harvest process
of the data folder (fleet spiders, ``--replicas``, a second fleet), or of the Redis state. A
site's pace (:class:`~harvest.middlewares.site_pace.HostPaces`, from
:meth:`harvest.spiders.blogs.BlogsSpider.site_pace`; other spiders: the settings):

- ``concurrency``: the site's ``concurrency``, else ``CONCURRENT_REQUESTS_PER_DOMAIN``;
- ``interval``: the largest of the site's ``download_delay`` (else ``DOWNLOAD_DELAY``), the
  robots.txt ``Crawl-delay`` for our user agent (capped at ``HARVEST_PACE_MAX_DELAY``), and the
  delay AutoThrottle currently asks for the host in this process.

``Crawl-delay`` comes from Scrapy's ``robots_parsed`` signal (Scrapy parses it but does not
enforce it); it is logged once per host at INFO and recorded, with the rest of the pace, per host
in the shared state (``state/_pace/pace.sqlite`` table ``sites``, or Redis hash
``harvest:_pace:sites``). The grant is taken late (order 955, after every built-in middleware), and
the host's Scrapy download slot is told not to delay a granted request again, so the time
between grants is the time between arrivals at the site. Requests with
``meta["harvest_pace"] = False`` are not paced.

A site paced by concurrency alone (no interval: no delay, no Crawl-delay, no AutoThrottle delay)
needs no new grant per request: a grant whose answer came is kept for the next request of the
same host in this process for up to ``HARVEST_PACE_HOLD`` seconds since the store granted it,
then given back (a timer gives back the ones left idle). The slot still counts in the shared
store the whole time, so the total in flight holds, and the store is asked once per slot and
``HARVEST_PACE_HOLD`` instead of twice per request.

Stats: ``harvest/pace/grants``, ``harvest/pace/reused`` (grants kept for a next request),
``harvest/pace/waits``, ``harvest/pace/wait_ms``,
``harvest/pace/crawl_delay``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached

from harvest.config.settings_model import retired_value
from harvest.exceptions import NotApplicable
from harvest.meta import META_PACE, META_PACE_GRANT
from harvest.middlewares.site_pace import HostPaces
from harvest.state.crawl import CrawlState
from harvest.state.pace import PACE_DIR, Pace, PaceBudget, PaceStore, RedisPaceBudget
from harvest.state.partition import Partition
from harvest.util import waits
from harvest.util.redaction import mask_url

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.robotstxt import RobotParser
    from scrapy.utils.asyncio import CallLaterResult
    from twisted.internet.defer import Deferred
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: How often a request waiting for another process's request to end asks again (seconds); the
#: requests of one process wake each other at once. Figures: BENCHMARKS.md ("One pace per site").
POLL = 0.02


@dataclass(frozen=True)
class _Held:
    """A grant of the shared store held by this process."""

    host: str
    #: When the store granted it (time.monotonic()).
    taken: float
    #: Granted under a pace without an interval: it may serve a next request of the host.
    reusable: bool


def _is_redis(url: str | None) -> bool:
    return str(url or "").split(":", 1)[0].lower() in {"redis", "rediss"}


class PaceMiddleware:
    """Downloader middleware holding each site's pace across processes (see the module docstring).

    Settings: ``HARVEST_PACE_ENABLED``, ``HARVEST_PACE_MAX_DELAY``,
    ``HARVEST_PACE_STALE_AFTER``, ``HARVEST_PACE_HOLD``, ``DOWNLOAD_DELAY``,
    ``CONCURRENT_REQUESTS_PER_DOMAIN``,
    ``HARVEST_DATA_DIR``, ``HARVEST_STATE_URL``.
    """

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.poll = retired_value(settings, "HARVEST_PACE_POLL", POLL)
        self.stale_after = settings.getfloat("HARVEST_PACE_STALE_AFTER")
        # Well inside stale_after: a held grant must never look lost to the other processes.
        self.hold = min(max(0.0, settings.getfloat("HARVEST_PACE_HOLD")), self.stale_after / 4)
        self.state_url = settings.get("HARVEST_STATE_URL") or ""
        # A Redis call blocks the event loop: bounded as the crawl state's own calls are.
        self.busy_timeout = settings.getfloat("HARVEST_STATE_BUSY_TIMEOUT")
        #: Why the shared store failed (this process then paces alone, see _pace_alone).
        self.store_failed: str | None = None
        #: A grant could not be given back (said once: it expires on its own).
        self._release_failed = False
        #: The workers of this partitioned crawl (HARVEST_CRAWL_WORKERS), 1 otherwise.
        self.workers = Partition.from_settings(settings).count
        self.path = Path(settings.get("HARVEST_DATA_DIR")) / "state" / PACE_DIR / "pace.sqlite"
        self.store: PaceStore | None = None
        self.hosts = HostPaces(crawler, self._open)
        #: Per host, this process's requests waiting for a grant, oldest first.
        self._waiters: dict[str, list[Deferred[None]]] = {}
        #: Per host, the request of this process that asks the shared store (see process_request).
        self._heads: dict[str, object] = {}
        #: Every grant this process holds, in use or idle.
        self._held: dict[str, _Held] = {}
        #: Per host, grants whose answer came, kept for the next request (see the module docstring).
        self._idle: dict[str, list[str]] = {}
        #: Per host, this process's requests holding a grant (in flight).
        self._busy: dict[str, int] = {}
        self._sweep_call: CallLaterResult | None = None
        #: The crawl's state, if it keeps one: abandoned, its requests are fetched again anyway.
        self.state = CrawlState.from_crawler(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled unless ``HARVEST_PACE_ENABLED`` is off."""
        if not crawler.settings.getbool("HARVEST_PACE_ENABLED"):
            raise NotApplicable("HARVEST_PACE_ENABLED is off")
        mw = cls(crawler)
        crawler.signals.connect(mw.robots_parsed, signal=signals.robots_parsed)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        return mw

    # --- the shared store ----------------------------------------------------------------------
    def _open(self) -> PaceStore:
        if self.store is None:
            if _is_redis(self.state_url):
                import redis

                server = redis.Redis.from_url(
                    self.state_url,
                    socket_timeout=self.busy_timeout,
                    socket_connect_timeout=min(self.busy_timeout, 5.0),
                )
                self.store = RedisPaceBudget(server, stale_after=self.stale_after, poll=self.poll)
            else:
                self.store = PaceBudget(self.path, stale_after=self.stale_after, poll=self.poll)
        return self.store

    def _pace_alone(self, exc: Exception) -> PaceStore:
        """The shared store failed (a full disk, Redis gone): pace this process alone from now on.

        Each site keeps its pace within this process (a private store in memory), so nothing is
        fetched faster than asked; only the sharing with other processes is lost. Raised to the
        request instead, the error failed every page of the crawl with a warning of its own
        (whatever broke the store, a full disk, stops the crawl with its own error).
        """
        if self.store_failed is None:
            self.store_failed = str(exc)
            self._inc("store_failed")
            where = mask_url(self.state_url) if _is_redis(self.state_url) else str(self.path)
            logger.warning(
                "The shared pace of sites in %s failed (%s); this process paces its requests "
                "alone from now on",
                where,
                exc,
            )
        old, self.store = self.store, PaceBudget(":memory:", stale_after=self.stale_after, poll=self.poll)
        if old is not None:
            with contextlib.suppress(Exception):
                old.close()
        return self.store

    def spider_closed(self, spider: Spider) -> None:
        """Give back this process's grants (a failure is not news: stale grants expire)."""
        if self._sweep_call is not None:
            self._sweep_call.cancel()
            self._sweep_call = None
        self._held.clear()
        self._idle.clear()
        self._busy.clear()
        if self.store is not None:
            store, self.store = self.store, None
            try:
                store.close()
            except Exception as exc:  # noqa: BLE001 - a full disk already stopped the crawl, with its error
                logger.info("Could not release this process's pace grants (%s); they expire", exc)

    def _inc(self, key: str, value: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/pace/{key}", value)

    # --- the pace of a host --------------------------------------------------------------------
    def robots_parsed(self, robotparser: RobotParser, request: Request) -> None:
        """Note the ``Crawl-delay`` robots.txt asks of our user agent for this host."""
        try:
            asked = self.hosts.robots_parsed(robotparser, request)
        except Exception as exc:  # noqa: BLE001 - the store's: SQLite's or Redis's
            self._pace_alone(exc)
            asked = self.hosts.robots_parsed(robotparser, request)
        if asked:
            self._inc("crawl_delay")

    # --- requests ------------------------------------------------------------------------------
    async def process_request(self, request: Request) -> None:
        """Wait for a grant of the host's shared pace."""
        if request.meta.get(META_PACE) is False or not request.url.startswith(("http:", "https:")):
            return
        store = self._open()
        host = urlparse_cached(request).netloc.lower()
        waited = 0.0
        token = object()
        try:
            while True:
                if self.state is not None and self.state.abandoned is not None:
                    # The crawl stops as if killed here (Redis gone, the lease lost, a full
                    # disk): nothing fetched now would be kept, and the next run or another
                    # worker fetches it. Waiting for the site's pace made the close take
                    # every waiting request's turn, one after the other.
                    raise IgnoreRequest(f"not fetched: the crawl is stopping ({self.state.abandoned})")
                try:
                    pace = self.hosts.current(host, request)
                except Exception as exc:  # noqa: BLE001 - the store's (SQLite's, Redis's), recording a new host
                    store = self._pace_alone(exc)
                    continue
                if self._busy.get(host, 0) >= self._share(pace):
                    # This worker's share of the site is in flight: wait for one of its own
                    # answers rather than take a grant another worker would hold idle.
                    started = time.monotonic()
                    await waits.pause(1.0, self._waiters.setdefault(host, []))
                    waited += time.monotonic() - started
                    continue
                kept = self._reuse(host, pace)
                if kept is not None:
                    grant = kept
                    self._inc("reused")
                    break
                # One request per host and process asks the shared store; the others of this
                # process wait to be woken (a grant taken or given back here), not polling it.
                head = self._heads.setdefault(host, token)
                try:
                    decision = store.acquire(host, pace) if head is token else None
                except Exception as exc:  # noqa: BLE001 - the store's: SQLite's or Redis's
                    store = self._pace_alone(exc)
                    continue
                if decision is not None and decision.grant is not None:
                    grant = decision.grant
                    self._held[grant] = _Held(host, time.monotonic(), pace.interval <= 0)
                    break
                started = time.monotonic()
                wait = 1.0 if decision is None else min(max(decision.wait, 0.005), 1.0)
                await waits.pause(wait, self._waiters.setdefault(host, []))
                waited += time.monotonic() - started
        finally:
            if self._heads.get(host) is token:
                del self._heads[host]
                self._wake(host)
        if waited:
            self._inc("waits")
            self._inc("wait_ms", int(waited * 1000))
        request.meta[META_PACE_GRANT] = grant
        self._busy[host] = self._busy.get(host, 0) + 1
        self._inc("grants")

    def _share(self, pace: Pace) -> int:
        """How many of a site's requests this process may have in flight.

        The site's whole concurrency, except in a worker of a partitioned crawl: the workers
        split it evenly, each sending its share, so none waits on grants another keeps for its
        next request (the shared store still holds the total).
        """
        if self.workers <= 1:
            return pace.concurrency
        return max(1, -(-pace.concurrency // self.workers))

    def _reuse(self, host: str, pace: Pace) -> str | None:
        """An idle grant of ``host`` this process may use again, if any (none under an interval)."""
        idle = self._idle.get(host)
        if not idle or pace.interval > 0:
            return None
        now = time.monotonic()
        while idle:
            grant = idle.pop()
            if now - self._held[grant].taken < self.hold:
                return grant
            self._give_back(grant)
        return None

    def _give_back(self, grant: str) -> None:
        self._held.pop(grant, None)
        if self.store is None:
            return
        try:
            self.store.release(grant)
        except Exception as exc:  # noqa: BLE001 - SQLite's or Redis's error; either way it expires
            # Not news: an unreleased grant expires (HARVEST_PACE_STALE_AFTER), and what broke the
            # store (a full disk) stops the crawl with its own error. Raised here, it escaped a
            # timer callback as an unhandled traceback.
            if not self._release_failed:
                self._release_failed = True
                logger.info("Could not give back a pace grant (%s); it expires", exc)

    def _release(self, request: Request) -> None:
        grant = request.meta.pop(META_PACE_GRANT, None)
        held = self._held.get(grant) if grant is not None else None
        if held is None or self.store is None:
            return
        busy = self._busy.get(held.host, 0) - 1
        if busy > 0:
            self._busy[held.host] = busy
        else:
            self._busy.pop(held.host, None)
        if held.reusable and time.monotonic() - held.taken < self.hold:
            # Kept for the next request of the host (it still counts in the shared store).
            self._idle.setdefault(held.host, []).append(grant)
            self._schedule_sweep()
        else:
            self._give_back(grant)
        self._wake(held.host)

    def _schedule_sweep(self) -> None:
        if self._sweep_call is None:
            from scrapy.utils.asyncio import call_later

            self._sweep_call = call_later(self.hold, self._sweep)

    def _sweep(self) -> None:
        """Give back the grants left idle since their hold ran out (others may be waiting)."""
        self._sweep_call = None
        now = time.monotonic()
        for host, idle in list(self._idle.items()):
            keep = [g for g in idle if now - self._held[g].taken < self.hold]
            for grant in idle:
                if grant not in keep:
                    self._give_back(grant)
            if keep:
                self._idle[host] = keep
            else:
                del self._idle[host]
        if self._idle:
            self._schedule_sweep()

    def _wake(self, host: str) -> None:
        """Wake the oldest request of ``host`` still waiting: a grant was freed, or its asker left.

        One, not all: every woken request checks again and all but one wait again, so with 16
        requests let in for a site's 4 slots each answer woke ~12 of them. A wake-up that finds
        nothing to take is not lost for long: every wait ends by itself within a second.
        """
        waiters = self._waiters.get(host)
        if not waiters:
            self._waiters.pop(host, None)
            return
        for waiter in waiters:
            if not waiter.called:
                waits.wake(waiter)
                return

    def process_response(self, request: Request, response: Response) -> Request | Response:
        """End the grant."""
        self._release(request)
        return response

    def process_exception(self, request: Request, exception: BaseException) -> None:
        """End the grant; the exception goes on (to RetryMiddleware and the errback)."""
        self._release(request)

    def describe(self) -> dict[str, Any]:
        """The paces in use by this process (for tests and debugging)."""
        return self.hosts.describe()
