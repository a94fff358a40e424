"""scrapy-redis's scheduler, duplicate filter and priority queue, fitted to harvest.

Thin subclasses of ``scrapy_redis`` 0.9.1 classes. What each override fixes, and why:

- Scrapy 2.14 deprecated the ``spider`` argument of ``StatsCollector.inc_value`` and
  ``Spider.log``, which scrapy-redis still uses on every request (a warning per request now, an
  error once Scrapy removes them): the stats calls here pass no spider, and messages go through
  ``logging``.
- scrapy-redis fingerprints requests with its own sha1 of method, URL and body and stores 40 hex
  characters: it ignores ``REQUEST_FINGERPRINTER_CLASS`` and the fingerprints the crawl state
  uses. :class:`RedisDupeFilter` uses ``crawler.request_fingerprinter`` and stores the 20-byte
  digest (half the memory per seen URL).
- scrapy-redis builds its own Redis client from ``REDIS_URL`` and lets connection errors escape
  from the engine loop (a traceback per heartbeat). Here the connection is the crawl-state
  store's (``HARVEST_STATE_URL``), and a Redis error stops the crawl once, cleanly, naming the URL.
- scrapy-redis pops a request and forgets it: a worker killed mid-crawl loses every request it
  had popped. :class:`RedisQueue` pops into the worker's in-flight hash (atomically), and the
  crawl state's "request done" retires it there; :mod:`harvest.scale.coordinator` gives a dead
  worker's in-flight requests back to the queue.
- scrapy-redis adds a fingerprint to the filter and the request to the queue in two calls; a
  Redis failure between them loses the request for the round. Here they are one Lua step.
- Every worker's ``start()`` yields the same start requests (``dont_filter=True``): here they go
  through the shared duplicate filter, so a round fetches each start URL once in total.
"""

from __future__ import annotations

import logging
import pickle
from collections import deque
from hashlib import sha1
from typing import TYPE_CHECKING

import redis
from scrapy import signals
from scrapy.exceptions import CloseSpider
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.request import request_from_dict
from scrapy_redis import defaults
from scrapy_redis.connection import get_redis_from_settings
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler

from harvest.exceptions import StateError
from harvest.meta import META_FRONTIER_KEY, upgrade
from harvest.state.crawl import CrawlState
from harvest.state.redis import RedisStateStore

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.utils.request import RequestFingerprinterProtocol
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Close reason when Redis fails mid-crawl (not "finished": scrapy crawl exits with 1).
REDIS_CLOSE_REASON = "redis_unavailable"
#: Close reason of a worker whose lease the others took while it was frozen or cut off.
LEASE_LOST_REASON = "lease_lost"
#: First byte of a queue entry: the entry layout version (then a 20-byte key, then a pickle).
_ENTRY_VERSION = b"\x01"
_KEY_SIZE = 20
#: Same protocol as Scrapy's pickle disk queues and harvest's embedded frontier.
_PICKLE_PROTOCOL = 4


def frontier_key(fingerprint: bytes) -> bytes:
    """The 20-byte frontier key of a fingerprint (Scrapy's are 20 bytes; others are hashed)."""
    return fingerprint if len(fingerprint) == _KEY_SIZE else sha1(fingerprint).digest()  # noqa: S324


def stop_for_redis(crawler: Crawler, store: RedisStateStore | None, error: Exception) -> None:
    """Log once why the crawl stops, and close it with REDIS_CLOSE_REASON (or LEASE_LOST_REASON).

    The crawl state is abandoned (nothing more committed, as after ``kill -9`` here): the store
    refuses every call from now on, so a commit at close, or a pipeline's lookup, would only
    fail again, each with an error of its own (the near-duplicate index's own Redis client
    raised tracebacks at close when a partition outlasted the worker's timeout).
    """
    if getattr(crawler, "_harvest_redis_stopping", False):
        return
    crawler._harvest_redis_stopping = True  # type: ignore[attr-defined]
    if store is not None and store.fenced:
        # Not Redis failing: the others gave this worker up (harvest.scale.coordinator.fenced).
        store.report_fence()
        _close(crawler, LEASE_LOST_REASON)
        return
    where = store.location if store is not None else "Redis"
    logger.error(
        "%s; stopping this crawl cleanly. Nothing is lost: pending requests stay in Redis at %s "
        "and items already written are reconciled. Restart the crawl once Redis is back.",
        error,
        where,
    )
    if crawler.stats is not None:
        crawler.stats.inc_value("harvest/scale/redis_error")
    _close(crawler, REDIS_CLOSE_REASON)


def _close(crawler: Crawler, reason: str) -> None:
    """Abandon the crawl state with ``reason`` (which closes the crawl), else close the crawl."""
    state = CrawlState.from_crawler(crawler)
    if state is not None and state.abandoned is None:
        state.abandon(reason)
    elif crawler.engine is not None and crawler.engine.spider is not None:
        deferred_from_coro(crawler.engine.close_spider_async(reason=reason))


class RedisDupeFilter(RFPDupeFilter):
    """scrapy-redis's duplicate filter on Scrapy's request fingerprints (see the module doc)."""

    def __init__(
        self, server: redis.Redis, key: str, fingerprinter: RequestFingerprinterProtocol, debug: bool = False
    ) -> None:
        super().__init__(server, key, debug=debug)
        self.fingerprinter = fingerprinter

    @classmethod
    def from_spider(cls, spider: Spider) -> Self:
        """As scrapy-redis's (its own scheduler builds the filter this way), plus the fingerprinter."""
        settings = spider.settings
        template = settings.get("SCHEDULER_DUPEFILTER_KEY", defaults.SCHEDULER_DUPEFILTER_KEY)
        key = template % {"spider": spider.name}
        return cls(
            get_redis_from_settings(settings),
            key,
            spider.crawler.request_fingerprinter,
            debug=settings.getbool("DUPEFILTER_DEBUG"),
        )

    def request_fingerprint(self, request: Request) -> bytes:
        """``crawler.request_fingerprinter``'s digest (20 bytes), as the crawl state uses."""
        return frontier_key(self.fingerprinter.fingerprint(request))

    def close(self, reason: str = "") -> None:
        """Keep the fingerprints: every worker of the round shares them.

        scrapy-redis deletes them here, which would let other workers fetch everything again.
        """


class RedisQueue(PriorityQueue):
    r"""scrapy-redis's priority queue whose pop is recorded in the worker's in-flight hash.

    Entries are ``\\x01`` + 20-byte frontier key + pickled ``request_to_dict``; the key lets the
    pop script index the in-flight hash without unpickling.
    """

    def __init__(self, store: RedisStateStore, spider: Spider) -> None:
        super().__init__(store.server, spider, store.keys.queue, serializer=pickle)
        self.store = store

    def _encode_request(self, request: Request) -> bytes:
        key = bytes.fromhex(request.meta[META_FRONTIER_KEY])
        data = request.to_dict(spider=self.spider)
        return _ENTRY_VERSION + key + pickle.dumps(data, protocol=_PICKLE_PROTOCOL)

    def _decode_request(self, encoded_request: bytes) -> Request:
        if encoded_request[:1] != _ENTRY_VERSION:
            raise ValueError(f"unknown queue entry version {encoded_request[:1]!r}")
        data = pickle.loads(encoded_request[1 + _KEY_SIZE :])  # noqa: S301 - our own entries
        request = request_from_dict(data, spider=self.spider)
        upgrade(request.meta)  # queued by an older harvest: its meta keys as they are now
        return request

    def __len__(self) -> int:
        return self.store.queue_size()

    def push(self, request: Request) -> None:
        """Queue ``request`` at its priority (higher first)."""
        self.store.push_request(self._encode_request(request), -request.priority)

    def pop(self, timeout: int = 0) -> Request | None:
        """The best queued request, now held in flight by this worker."""
        entry = self.store.pop_request()
        return None if entry is None else self._decode_request(entry)


class RedisScheduler(Scheduler):
    """scrapy-redis's scheduler on the crawl-state store's Redis (see the module docstring).

    Set as ``SCHEDULER`` by :class:`harvest.scale.addon.RedisScaleAddon`. Persistence is always
    on: the queue and the duplicate filter belong to every worker of the crawl, so one worker
    closing must not flush them (``SCHEDULER_PERSIST=False`` would).
    """

    def __init__(self, crawler: Crawler, state: CrawlState, *, debug: bool = False) -> None:
        super().__init__(server=None, persist=True, idle_before_close=0)
        self.crawler = crawler
        self.state = state
        self.debug = debug
        self.stats = crawler.stats
        self.store: RedisStateStore | None = None
        #: Requests that cannot be pickled (a lambda callback...): crawled by this worker only.
        self._local: deque[Request] = deque()
        self._unserializable_logged = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Attach to the crawl state, whose store must be Redis."""
        state = CrawlState.from_crawler(crawler)
        if state is None:
            raise StateError(
                crawler.settings.get("HARVEST_STATE_URL") or "redis",
                "the Redis scheduler needs the crawl state (HARVEST_STATE_ENABLED)",
            )
        scheduler = cls(crawler, state, debug=crawler.settings.getbool("DUPEFILTER_DEBUG"))
        crawler.signals.connect(scheduler.spider_opened, signal=signals.spider_opened)
        return scheduler

    def open(self, spider: Spider) -> None:
        """Attach to the shared queue and duplicate filter (joining comes at ``spider_opened``).

        Replaces scrapy-redis's ``open``, which logs through the deprecated ``Spider.log``.
        """
        self.spider = spider
        try:
            store = self.state.open()
        except CloseSpider:
            # Already logged by the crawl state (e.g. Redis unreachable). Raising here would
            # skip opening the scraper; the item pipelines' open raises it again instead.
            return
        if not isinstance(store, RedisStateStore):
            raise StateError(store.location, "the Redis scheduler needs HARVEST_STATE_URL=redis://...")
        self.store = store
        self.server = store.server
        self.queue = RedisQueue(store, spider)
        self.df = RedisDupeFilter(
            store.server, store.keys.dupefilter, self.crawler.request_fingerprinter, debug=self.debug
        )

    def spider_opened(self, spider: Spider) -> None:
        """Join the shared crawl: a new round, or the one in progress.

        Only now, once the item pipelines have opened (a language model, an index: seconds on a
        loaded machine) and the heartbeat starts (harvest.scale.coordinator): joining in
        ``open`` registered a worker that then said nothing while they loaded, and the others
        gave it up as dead.
        """
        store = self.store
        if store is None:
            return
        joined = store.join()
        if joined.new_round:
            logger.info(
                "Started round %d of %s in %s as worker %s",
                joined.round,
                spider.name,
                store.location,
                store.worker,
                extra={"spider": spider},
            )
        else:
            logger.info(
                "Joined round %d of %s in %s as worker %s (%d other workers, %d requests queued)",
                joined.round,
                spider.name,
                store.location,
                store.worker,
                joined.other_workers,
                joined.queued,
                extra={"spider": spider},
            )
        assert self.stats is not None
        self.stats.set_value("harvest/scale/round", joined.round)
        self.stats.set_value("harvest/scale/new_round", joined.new_round)

    def close(self, reason: str) -> None:
        """Nothing to flush: the crawl state commits, and the store leaves the crawl on close."""

    def _failed(self, error: Exception) -> None:
        stop_for_redis(self.crawler, self.store, error)

    def enqueue_request(self, request: Request) -> bool:
        """Queue ``request`` in Redis unless this round has seen it (see the module doc)."""
        assert self.stats is not None
        if self.store is None:  # the crawl state could not be opened: the crawl is closing
            return False
        marker = request.meta.get(META_FRONTIER_KEY)
        fresh_start = marker is None and request.meta.get("is_start_request", False)
        check = not request.dont_filter or fresh_start
        fingerprint = self.df.request_fingerprint(request)
        own = fingerprint.hex()
        request.meta[META_FRONTIER_KEY] = own
        try:
            try:
                encoded = self.queue._encode_request(request)
            except (ValueError, TypeError, AttributeError, pickle.PicklingError) as exc:
                if check and self.df.request_seen(request):
                    self.df.log(request, self.spider)
                    return False
                self._keep_local(request, exc)
            else:
                # The filter check and the queue add are one Redis step (scrapy-redis makes them
                # two, and a failure between them loses the request for the round).
                if not self.store.push_request(encoded, -request.priority, fingerprint if check else None):
                    self.df.log(request, self.spider)
                    return False
                self.stats.inc_value("scheduler/enqueued/redis")
        except StateError as exc:
            self._failed(exc)
            return False
        except redis.RedisError as exc:  # from scrapy-redis's duplicate filter (its own calls)
            self._failed(self.store.fail(exc, "duplicate filter"))
            return False
        if isinstance(marker, str) and marker != own:
            # A downloader middleware replaced the request (a redirect): the original is done
            # once its replacement is queued.
            self.state.retire(bytes.fromhex(marker))
        return True

    def _keep_local(self, request: Request, exc: Exception) -> None:
        assert self.stats is not None
        self._local.append(request)
        self.stats.inc_value("harvest/scale/unserializable")
        if not self._unserializable_logged:
            logger.warning(
                "Cannot share %s through Redis (%s); this worker crawls it itself. No "
                "more unserializable requests will be logged.",
                request,
                exc,
                extra={"spider": self.spider},
            )
            self._unserializable_logged = True

    def next_request(self) -> Request | None:
        """A request kept locally, else the best one of the shared queue."""
        if self._local:
            return self._local.popleft()
        if self.store is None:
            return None
        if self.store.failure is not None:
            self._failed(StateError(self.store.location, self.store.failure))
            return None
        try:
            request = self.queue.pop()
        except StateError as exc:
            self._failed(exc)
            return None
        if request is not None:
            assert self.stats is not None
            self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        """Whether this worker or the shared queue has requests waiting."""
        return len(self) > 0

    def __len__(self) -> int:
        if self.store is None or self.store.failure is not None:
            return len(self._local)
        try:
            return len(self._local) + self.store.queue_size()
        except StateError as exc:
            self._failed(exc)
            return len(self._local)
