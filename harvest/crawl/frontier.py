"""The persisted frontier: pending requests survive ``kill -9``, and a restart resumes them.

:class:`FrontierScheduler` (``SCHEDULER``) is Scrapy's scheduler plus the crawl-state store:
every request it accepts is written to the store's ``frontier`` table (at the next commit
point), keyed by its fingerprint, and a request leaves the table only when it is *done* (see
:mod:`harvest.state.crawl`). On open, the requests a killed run left pending are fed back into
the scheduler, page by page so that a large frontier does not sit in memory at once.

The in-memory queues are bounded too: once they hold ``HARVEST_FRONTIER_MEMORY_MAX`` requests, a
newly accepted request below ``HARVEST_FRONTIER_KEEP_PRIORITY`` is *spilled*: only its frontier
row is written (it passed the duplicate filter like any other), and it is read back, a page at a
time, when the queues run dry: a queued request costs a few KB of memory, and a large site
queues thousands (BENCHMARKS.md, "Issue 18"). The fingerprints of the spilled requests are kept in
the crawl process's scratch database (:class:`harvest.state.seen.ScratchSet`), not in memory: a
million-page site spills hundreds of thousands at once in each worker (BENCHMARKS.md, "Figures
behind comments").

:class:`FrontierMiddleware` (``SPIDER_MIDDLEWARES``, outermost) tells the crawl state which
request every item came from and when a callback's output ended, which is how "done" is known.

Requests must stay serializable with ``Request.to_dict`` (callbacks are
spider methods, meta holds plain data); a request that is not is still crawled but not persisted
(stat ``harvest/frontier/unserializable``).

In a partitioned crawl (``HARVEST_CRAWL_WORKERS`` > 1) a request another worker owns is not
queued here but handed to its owner's spool (:mod:`harvest.crawl.handoff`), once per run and URL
(:mod:`harvest.crawl.foreign`).
"""

from __future__ import annotations

import logging
import pickle
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from scrapy.core.scheduler import Scheduler
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response
from scrapy.utils.request import request_from_dict

from harvest.crawl.foreign import ForeignRequests
from harvest.crawl.handoff import HandoffSpool
from harvest.crawl.serialize import RequestCodec
from harvest.meta import META_FRONTIER_KEY, upgrade
from harvest.state.crawl import CrawlState
from harvest.state.seen import ScratchSet, SeenSet

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from twisted.internet.defer import Deferred
    from typing_extensions import Self

    from harvest.state import FrontierEntry

logger = logging.getLogger(__name__)

#: Each crawler's scheduler, for FrontierMiddleware to hand requests over before they are queued.
_SCHEDULERS: WeakKeyDictionary[Crawler, FrontierScheduler] = WeakKeyDictionary()


class FrontierScheduler(Scheduler):
    """Scrapy's scheduler whose pending requests are persisted in the crawl-state store.

    Enabled by ``SCHEDULER = "harvest.crawl.frontier.FrontierScheduler"``; behaves like the stock
    scheduler when ``HARVEST_STATE_ENABLED`` is off. ``HARVEST_FRONTIER_RESTORE_BATCH`` requests
    are restored at a time, when the in-memory queue runs dry.
    """

    state: CrawlState | None = None
    #: The partitioned crawl's spools (None for one worker).
    handoff: HandoffSpool | None = None
    #: Who owns a request, and handing the others theirs (None for one worker).
    foreign: ForeignRequests | None = None
    restore_batch: int = 500
    #: In-memory queue size from which new requests are spilled (0: never).
    memory_max: int = 0
    #: Requests at this priority or above are never spilled (feeds, sitemaps, start pages).
    keep_priority: int = 0
    #: Resume cursor over the frontier table: rows with _restore_after < seq <= _restore_upto
    #: are still to be restored.
    _restore_after = 0
    _restore_upto = 0
    _restore_left = 0
    #: Fingerprints of the spilled requests not read back yet (see the module docstring), and
    #: the frontier row after which the next read looks for them.
    _spilled: ScratchSet
    _spill_after = 0
    #: The crawl process's seen set: requests handed to another worker in this run (each URL
    #: goes once), beside the duplicate filter's fingerprints.
    _seen: SeenSet

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The stock scheduler, attached to the crawl's state."""
        scheduler = super().from_crawler(crawler)
        scheduler.state = CrawlState.from_crawler(crawler)
        scheduler.handoff = HandoffSpool.from_crawler(crawler) if scheduler.state is not None else None
        scheduler.restore_batch = max(1, crawler.settings.getint("HARVEST_FRONTIER_RESTORE_BATCH"))
        scheduler.memory_max = max(0, crawler.settings.getint("HARVEST_FRONTIER_MEMORY_MAX"))
        scheduler.keep_priority = crawler.settings.getint("HARVEST_FRONTIER_KEEP_PRIORITY")
        scheduler._seen = SeenSet.from_crawler(crawler)
        scheduler._spilled = scheduler._seen.spill_set("spilled")
        if scheduler.handoff is not None and scheduler.state is not None:
            scheduler.foreign = ForeignRequests(crawler, scheduler.handoff, scheduler.state, scheduler._seen)
        _SCHEDULERS[crawler] = scheduler
        return scheduler

    def open(self, spider: Spider) -> Deferred[None] | None:
        """Open the queues, then start feeding the requests a previous run left pending."""
        result = super().open(spider)
        self._resumed_dont_filter: set[bytes] = set()
        self.codec = RequestCodec(spider, self.stats)
        self._spilled.clear()
        self._spill_after = 0
        if self.state is not None:
            try:
                store = self.state.open()
            except CloseSpider:
                # Already logged by the crawl state. Raising here would skip opening the scraper
                # (and make closing fail); the item pipelines' open raises it again instead.
                return result
            if self.foreign is not None:
                self.foreign.open(self.df, self.codec)
            self._restore_left = store.frontier_size()
            # Rows up to here are a previous run's (the resume reads them); spilled ones follow.
            self._spill_after = store.frontier_max_seq()
            if self._restore_left:
                self._restore_upto = store.frontier_max_seq()
                self._resumed_dont_filter = store.frontier_dont_filter()
                logger.info(
                    "Resuming %d pending requests from the frontier in %s",
                    self._restore_left,
                    store.location,
                    extra={"spider": spider},
                )
                assert self.stats is not None
                self.stats.set_value("harvest/frontier/resumed", self._restore_left)
                self._restore_page()
        return result

    def _restore_pending(self) -> bool:
        return self._restore_after < self._restore_upto

    def _restore_page(self) -> None:
        """Move the next page of persisted requests into the in-memory queues."""
        assert self.state is not None and self.state.store is not None
        page = self.state.store.frontier_page(self._restore_after, self._restore_upto, self.restore_batch)
        if not page:
            self._restore_after = self._restore_upto
            self._restore_left = 0
            return
        self._restore_after = page[-1].seq
        if len(page) < self.restore_batch:
            # A short page is the last one: rows of the range retired meanwhile (a fresh copy of
            # a pending request, scheduled and done before its row was restored) are gone.
            self._restore_after = self._restore_upto
        self._restore_left = 0 if not self._restore_pending() else max(0, self._restore_left - len(page))
        for entry in page:
            request = self._decode(entry)
            if request is not None:
                # Through the stock path, so the duplicate filter learns it (and drops it if this
                # run already scheduled the same URL afresh; that copy carries the same key).
                super().enqueue_request(request)

    def _decode(self, entry: FrontierEntry) -> Request | None:
        """The request of a frontier row, carrying its key; None (retired) if it cannot be read."""
        assert self.state is not None
        try:
            request = request_from_dict(pickle.loads(entry.request), spider=self.spider)  # noqa: S301
            upgrade(request.meta)  # persisted by an older harvest: its meta keys as they are now
        except Exception:  # a boundary: any undecodable entry is retired, the rest go on
            logger.warning(
                "Dropping a pending request that cannot be restored (fingerprint %s)",
                entry.fingerprint.hex(),
                exc_info=True,
                extra={"spider": self.spider},
            )
            assert self.stats is not None
            self.stats.inc_value("harvest/frontier/unrestorable")
            self.state.retire(entry.fingerprint)
            return None
        request.meta[META_FRONTIER_KEY] = entry.fingerprint.hex()
        return request

    def close(self, reason: str) -> Deferred[None] | None:
        """Close the queues and the spools this worker wrote."""
        if self.foreign is not None:
            self.foreign.close()
        return super().close(reason)

    def hand_off_foreign(self, request: Request) -> bool:
        """Hand ``request`` to its owner if another worker owns it; False if it is this one's.

        Called by FrontierMiddleware for the requests a callback yields: a worker finds about
        as many links for the others as for itself, and handing them over here skips Scrapy's
        scheduling of each (engine, signals, scheduler) only to leave this process at once.
        """
        if self.state is None or self.state.store is None:
            return False
        fingerprint = self.state.fingerprint(request)
        owner = self._foreign_owner(fingerprint)
        if owner is None or self.foreign is None:
            return False
        self.foreign.send(request, fingerprint, owner)
        return True

    def _foreign_owner(self, fingerprint: bytes) -> int | None:
        """The worker owning ``fingerprint`` when that is another one; None for this one's."""
        return None if self.foreign is None else self.foreign.owner(fingerprint)

    def enqueue_request(self, request: Request) -> bool:
        """Schedule ``request`` and persist it; retire the request it replaces (a redirect)."""
        if self.state is None or self.state.store is None:
            return super().enqueue_request(request)
        fingerprint = self.state.fingerprint(request)
        owner = self._foreign_owner(fingerprint)
        if owner is not None and self.foreign is not None:
            return self.foreign.send(request, fingerprint, owner)
        own_key = fingerprint.hex()
        marker = request.meta.get(META_FRONTIER_KEY)
        if marker is None and request.dont_filter and fingerprint in self._resumed_dont_filter:
            # A start request the spider yields again while its pending copy is being resumed.
            self._resumed_dont_filter.discard(fingerprint)
            assert self.stats is not None
            self.stats.inc_value("harvest/frontier/resumed_duplicate")
            return False
        if marker is None and self._spill_wanted(request):
            return self._spill(request, fingerprint)
        accepted = super().enqueue_request(request)
        if accepted and marker != own_key:
            blob = self.codec.encode(request)
            if blob is not None:
                self.state.frontier_add(fingerprint, blob, request.dont_filter)
        if isinstance(marker, str) and marker != own_key:
            # A downloader middleware replaced the request (redirect): the original is done,
            # retired only now, after its replacement is in the batch.
            self.state.retire(bytes.fromhex(marker))
        if accepted:
            request.meta[META_FRONTIER_KEY] = own_key
        return accepted

    def _spill_wanted(self, request: Request) -> bool:
        """Whether a new request stays out of memory (the queues are full, its priority low).

        Never while a resume is being read back (a spilled request whose URL is among the
        resumed rows would find its row taken), nor for ``dont_filter`` requests (their row may
        already exist, for the same reason).
        """
        return (
            self.memory_max > 0
            and request.priority < self.keep_priority
            and not request.dont_filter
            and Scheduler.__len__(self) >= self.memory_max
            and not self._restore_pending()
        )

    def _spill(self, request: Request, fingerprint: bytes) -> bool:
        """Accept ``request`` into the frontier table only; ``_read_spilled`` brings it back."""
        assert self.state is not None and self.stats is not None
        if self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        blob = self.codec.encode(request)
        if blob is None:
            # Cannot be written, so it cannot wait on disk either: queued in memory after all.
            self._mqpush(request)
            self.stats.inc_value("scheduler/enqueued/memory")
        else:
            self.state.frontier_add(fingerprint, blob, request.dont_filter)
            self._spilled.add(fingerprint)
            self.stats.inc_value("harvest/frontier/spilled")
        self.stats.inc_value("scheduler/enqueued")
        return True

    def _read_spilled(self) -> None:
        """Queue the next page of spilled requests, committing first if none is written yet."""
        assert self.state is not None and self.state.store is not None and self.stats is not None
        store = self.state.store
        for attempt in range(2):
            upto = store.frontier_max_seq()
            while self._spill_after < upto:
                page = store.frontier_page(self._spill_after, upto, self.restore_batch)
                if not page:
                    break
                self._spill_after = page[-1].seq
                # Rows of requests queued in memory (or in flight) sit between spilled ones.
                back = [entry for entry in page if entry.fingerprint in self._spilled]
                self._spilled.discard_many(entry.fingerprint for entry in back)
                for entry in back:
                    request = self._decode(entry)
                    if request is not None:
                        # Past the duplicate filter already (when it was spilled).
                        self._mqpush(request)
                self.stats.inc_value("harvest/frontier/unspilled", len(back))
                if back:
                    return
            if attempt == 0 and not self.state.commit_safely():
                return  # the commit failed (logged): the rows are read on a later call
        # Unreachable (a bug): every spilled request has a row once the state has committed.
        logger.error(
            "%d spilled requests have no frontier row; they are not crawled in this run",
            len(self._spilled),
            extra={"spider": self.spider},
        )
        self._spilled.clear()

    def next_request(self) -> Request | None:
        """The next queued request, restoring more persisted ones when the queues run dry."""
        request = super().next_request()
        while request is None and self.state is not None and self._restore_pending():
            self._restore_page()
            request = super().next_request()
        if request is None and self._spilled and self.state is not None:
            self._read_spilled()
            request = super().next_request()
        return request

    def has_pending_requests(self) -> bool:
        """Queued requests, or persisted ones not restored yet.

        Asks the queues and the resume cursor, never ``len(self)``: the count of rows left to
        restore is an estimate (rows of the range may be retired before they are reached), and
        a "pending" answer that ``next_request`` cannot honour keeps the engine idle and alive
        for ever.
        """
        return (
            Scheduler.__len__(self) > 0
            or bool(self._spilled)
            or (self.state is not None and self._restore_pending())
        )

    def __len__(self) -> int:
        """Requests queued in memory plus (an estimate of) those still to restore."""
        left = self._restore_left if self._restore_pending() else 0
        return Scheduler.__len__(self) + len(self._spilled) + left


class FrontierMiddleware:
    """Spider middleware that links items to their request for the crawl state.

    It must be the outermost spider middleware (lowest order) so it sees the final output of
    every callback, including the empty output of a response filtered by HttpErrorMiddleware.
    It also removes the internal frontier key from requests a callback yields, since callbacks
    often copy ``response.meta`` into new requests.
    """

    def __init__(self, state: CrawlState, crawler: Crawler | None = None) -> None:
        self.state = state
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled with the crawl state (``HARVEST_STATE_ENABLED``)."""
        state = CrawlState.required(crawler)
        return cls(state, crawler)

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """Start requests are new requests: no frontier key."""
        async for output in start:
            if isinstance(output, Request):
                output.meta.pop(META_FRONTIER_KEY, None)
            yield output

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        """Count the items of ``response``'s request and report when its output ends.

        In a partitioned crawl a request another worker owns is handed to it here, not yielded.
        """
        scheduler = _SCHEDULERS.get(self.crawler) if self.crawler is not None else None
        foreign = scheduler.hand_off_foreign if scheduler is not None and scheduler.handoff else None
        try:
            async for output in result:
                if isinstance(output, Request):
                    output.meta.pop(META_FRONTIER_KEY, None)
                    if foreign is not None and foreign(output):
                        continue
                elif output is not None:
                    self.state.item_started(output, response)
                yield output
        except Exception:
            self.state.callback_finished(response)
            raise
        self.state.callback_finished(response)
