"""RedisCoordinator: keeps one worker of a shared crawl in step with the others.

Enabled (by :class:`harvest.scale.addon.RedisScaleAddon`) when ``HARVEST_STATE_URL`` is a Redis
URL. Every ``HARVEST_REDIS_HEARTBEAT`` seconds, and whenever the worker is idle, it:

- renews this worker's heartbeat in the registry;
- gives back the requests of dead workers: a worker silent for ``HARVEST_REDIS_WORKER_TIMEOUT``
  on this machine and data folder (it was killed, or lost its machine) has the output lines it
  wrote but did not commit replayed into the state first, so its requests, fetched again by the
  others, do not store anything twice; a worker of another machine is given up after
  ``HARVEST_REDIS_ABANDON_TIMEOUT`` (long enough for its own restart to do that replay; past
  it, what it wrote there without committing may be stored again: never lost, at worst twice);
- holds this worker's *lease* (its registry entry): a worker given up by the others (frozen by
  SIGSTOP, swapped out, cut off) is fenced. Its heartbeat does not register it again, its
  commits are refused (:meth:`harvest.state.redis.RedisStateStore.commit` checks the lease in
  the same transaction), and the output pipeline writes no line without the lease
  (:meth:`~harvest.state.redis.RedisStateStore.holds_lease`): it stops with reason
  ``lease_lost``, and its requests are fetched again by the others. A takeover waits while the
  worker is between that check and the line's write (:mod:`harvest.scale.outputlock`);
- wakes the engine every ``HARVEST_REDIS_IDLE_POLL`` seconds while it waits for work (Scrapy
  itself looks only every 5 s);
- keeps the spider open while the shared frontier has work anywhere (scrapy-redis's
  ``MAX_IDLE_TIME_BEFORE_CLOSE``, read here: a worker closes once nothing is queued and no
  worker holds a request for that many seconds; 0 = never close, as in scrapy-redis).

A Redis error stops the crawl once, cleanly, naming the URL (:func:`harvest.scale.scheduler.
stop_for_redis`).
"""

from __future__ import annotations

import logging
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from twisted.internet.task import LoopingCall

from harvest.exceptions import NotApplicable, StateError
from harvest.scale.outputlock import OutputLock
from harvest.scale.scheduler import LEASE_LOST_REASON, stop_for_redis
from harvest.state import is_redis_url
from harvest.state.crawl import CrawlState
from harvest.state.redis import RedisStateStore
from harvest.util.jsonlines import replay_lines

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Lines replayed between two commits when taking over a dead worker's output.
_REPLAY_COMMIT_LINES = 10_000


class RedisCoordinator:
    """Extension: heartbeat, dead-worker recovery and closing on a drained frontier (see above)."""

    def __init__(
        self,
        crawler: Crawler,
        state: CrawlState,
        *,
        heartbeat: float,
        worker_timeout: float,
        abandon_timeout: float,
        max_idle: float,
        idle_poll: float = 0.0,
    ) -> None:
        self.crawler = crawler
        self.state = state
        self.heartbeat = max(0.1, heartbeat)
        self.worker_timeout = worker_timeout
        self.abandon_timeout = max(abandon_timeout, worker_timeout)
        self.max_idle = max_idle
        self.idle_poll = idle_poll
        self.store: RedisStateStore | None = None
        self._drained_since: float | None = None
        self._timer: LoopingCall | None = None
        self._poller: LoopingCall | None = None
        #: Set while the engine is idle but other workers still have work (it may come here).
        self._waiting = False
        self._takeover_lock: OutputLock | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled for ``HARVEST_STATE_URL=redis://...`` with the crawl state on."""
        settings = crawler.settings
        if not is_redis_url(settings.get("HARVEST_STATE_URL")):
            raise NotApplicable("HARVEST_STATE_URL is not a Redis URL")
        state = CrawlState.required(crawler)
        coordinator = cls(
            crawler,
            state,
            heartbeat=settings.getfloat("HARVEST_REDIS_HEARTBEAT"),
            worker_timeout=settings.getfloat("HARVEST_REDIS_WORKER_TIMEOUT"),
            abandon_timeout=settings.getfloat("HARVEST_REDIS_ABANDON_TIMEOUT"),
            max_idle=settings.getfloat("MAX_IDLE_TIME_BEFORE_CLOSE"),
            idle_poll=settings.getfloat("HARVEST_REDIS_IDLE_POLL"),
        )
        crawler.signals.connect(coordinator.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(coordinator.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(coordinator.spider_closed, signal=signals.spider_closed)
        return coordinator

    def _inc(self, key: str, count: int = 1) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"harvest/scale/{key}", count)

    def spider_opened(self, spider: Spider) -> None:
        """Start the heartbeat (the scheduler has joined the crawl by now)."""
        store = self.state.open()
        if not isinstance(store, RedisStateStore):
            return
        self.store = store
        store.worker_timeout = self.worker_timeout
        self._timer = LoopingCall(self.tick)
        self._timer.start(self.heartbeat, now=False)
        if self.idle_poll > 0:
            self._poller = LoopingCall(self.poll)
            self._poller.start(self.idle_poll, now=False)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Stop the heartbeat; leaving the registry is the store's close."""
        for timer in (self._timer, self._poller):
            if timer is not None and timer.running:
                timer.stop()
        self._timer = self._poller = None
        if self._takeover_lock is not None:
            self._takeover_lock.close()

    def poll(self) -> None:
        """Wake an idle engine so it asks the shared queue again.

        Scrapy asks an idle scheduler for requests only every 5 s (its engine heartbeat); with a
        shared queue, another worker may have filled it meanwhile, and a worker that waits 5 s
        misses work on a short crawl. There is no public way to wake the engine, so this uses
        its ``_slot.nextcall`` when present (else the 5 s heartbeat still applies).
        """
        if not self._waiting:
            return
        self._waiting = False
        nextcall = getattr(getattr(self.crawler.engine, "_slot", None), "nextcall", None)
        if nextcall is not None:
            nextcall.schedule()

    def tick(self) -> None:
        """Heartbeat, then recover dead workers; a Redis error stops the crawl."""
        store = self.store
        if store is None:
            return
        if store.failure is not None:
            # Seen by another component (a pipeline's lookup): stop now, not when the engine
            # next asks the scheduler for a request.
            stop_for_redis(self.crawler, store, StateError(store.location, store.failure))
            return
        try:
            if not store.heartbeat():
                self.fenced()
                return
            self.recover()
        except StateError as exc:
            stop_for_redis(self.crawler, store, exc)

    def fenced(self) -> None:
        """This worker's lease was taken while it was frozen or cut off: stop, committing nothing.

        Its requests were given back and are fetched by the others; the output lines it wrote
        after its last commit were replayed by a worker of this machine before the takeover
        (see the module docstring), and it writes none after.
        """
        store = self.store
        assert store is not None
        self._inc("fenced")
        stop_for_redis(self.crawler, store, StateError(store.location, store.failure or "lease taken"))
        self.state.abandoned = self.state.abandoned or LEASE_LOST_REASON

    def recover(self) -> int:
        """Give back the requests of every dead worker; returns how many were requeued."""
        store = self.store
        assert store is not None
        now = time.time()
        total = 0
        for worker, beat in store.workers().items():
            if worker == store.worker:
                continue
            same_place = worker.startswith(f"{store.place}.")
            limit = self.worker_timeout if same_place else self.abandon_timeout
            if now - beat <= limit:
                continue
            # Only this machine's output is replayed, and only here can a worker be mid-write.
            with self._takeover.taking_over() if same_place else nullcontext(True) as taken:
                if not taken:
                    # It froze between a lease check and that line's write: next time.
                    logger.debug("Worker %s is writing a line; taking it over later", worker)
                    continue
                replayed = self._replay_output() if same_place else 0
                count = store.requeue(worker, now - limit)
            if count < 0:
                continue  # it came back, or another worker handled it first
            total += count
            self._inc("requeued", count)
            self._inc("dead_workers")
            if same_place:
                logger.info(
                    "Worker %s stopped %.0fs ago; put its %d requests back in the queue "
                    "(%d output lines it wrote were committed first)",
                    worker,
                    now - beat,
                    count,
                    replayed,
                )
            else:
                logger.warning(
                    "Worker %s of another machine stopped %.0fs ago; put its %d requests "
                    "back in the queue. Items it wrote there without committing may be "
                    "stored again",
                    worker,
                    now - beat,
                    count,
                )
        return total

    @property
    def _takeover(self) -> OutputLock:
        """The output folder's takeover lock (:mod:`harvest.scale.outputlock`)."""
        if self._takeover_lock is None:
            assert self.crawler.spider is not None
            folder = Path(self.crawler.settings.get("HARVEST_DATA_DIR")) / self.crawler.spider.name
            self._takeover_lock = OutputLock(folder)
        return self._takeover_lock

    def _replay_output(self) -> int:
        """Commit the keys of output lines written on this machine after the committed offsets."""
        store = self.store
        assert store is not None and self.crawler.spider is not None
        folder = Path(self.crawler.settings.get("HARVEST_DATA_DIR")) / self.crawler.spider.name
        offsets = store.output_offsets()
        total = 0
        for path in sorted(folder.glob("*.jsonl")):
            count, _ = replay_lines(path, offsets.get(path.name, 0), self.state.add_record)
            total += count
        if not self.state.commit_safely():
            raise StateError(store.location, "could not commit the output of a dead worker")
        self._inc("replayed_lines", total)
        return total

    def spider_idle(self, spider: Spider) -> None:
        """Stay open while the shared frontier has work; close once it stayed drained."""
        store = self.store
        if store is None:
            return
        if store.failure is not None:
            # Redis failed under another component (a pipeline's lookup): an empty queue here
            # means "unknown", not "finished".
            stop_for_redis(self.crawler, store, StateError(store.location, store.failure))
            raise DontCloseSpider
        try:
            # Nothing is in progress here: retire what is done, drop what nobody will retire.
            if not self.state.commit_safely():
                return
            store.clear_inflight()
            self.recover()
            drained = store.drained()
        except StateError as exc:
            stop_for_redis(self.crawler, store, exc)
            return
        now = time.monotonic()
        if not drained:
            self._drained_since = None
            self._waiting = True
            raise DontCloseSpider
        if self._drained_since is None:
            self._drained_since = now
            logger.info(
                "The shared frontier is drained; closing in %.0fs unless work appears",
                self.max_idle,
                extra={"spider": spider},
            )
        if self.max_idle <= 0 or now - self._drained_since < self.max_idle:
            self._waiting = True
            raise DontCloseSpider
