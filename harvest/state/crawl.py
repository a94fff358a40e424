"""CrawlState: one crawl's view of its state store, shared by the components that use it.

The dedup pipeline, the output pipeline, the frontier scheduler, the frontier spider middleware
and the revisit downloader middleware all get the same :class:`CrawlState` through
:meth:`CrawlState.from_crawler`. It holds the uncommitted :class:`~harvest.state.StateBatch`,
decides the commit points and tracks when a request is *done*, which is what makes a crawl
exactly-once across ``kill -9``:

1. An item's keys enter the batch only once its JSON line was written (the output pipeline
   calls :meth:`record_output` right after the write).
2. A request is done when its callback finished and every item it produced was stored or
   dropped (``item_scraped`` / ``item_dropped`` / ``item_error``), or when its download failed
   for good. Only then do its removal from the frontier and its fetch time (which makes a
   document "fresh") enter the batch.
3. At a commit point (every ``HARVEST_STATE_COMMIT_ITEMS`` items, ``HARVEST_STATE_COMMIT_REQUESTS``
   frontier changes or ``HARVEST_STATE_COMMIT_SECONDS`` seconds, and at close) the output files
   are flushed and fsynced first, then the batch, with each file's byte offset, is committed in
   one transaction.

After a crash, lines written past the committed offsets are replayed into the state by the
output pipeline, and requests not done are still in the frontier: they are fetched again and
whatever they produce that was already written is dropped by the dedup pipeline.

This module owns the store's lifecycle (open once, final commit and close) and the crawl's
signals; each concern is a part built from plain values, which :class:`CrawlState` composes:
the batch (:mod:`harvest.state.batches`), the commit points and stopping
(:mod:`harvest.state.commits`), the content claims (:mod:`harvest.state.claims`), request
completion (:mod:`harvest.state.completion`) and the items' outcomes
(:mod:`harvest.state.outcomes`). Its methods are the components' one interface.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response
from scrapy.utils.defer import deferred_from_coro

from harvest.exceptions import NotApplicable, StateError
from harvest.meta import META_FRONTIER_KEY
from harvest.plumbing.capabilities import capabilities
from harvest.state import StateBatch, StateStore, Validators, open_store
from harvest.state.batches import PendingBatch
from harvest.state.claims import ContentClaims, ContentOwner
from harvest.state.commits import CommitPoints, is_disk_full
from harvest.state.completion import FetchNote, ItemOrigin, RequestCompletion
from harvest.state.outcomes import ItemOutcomes
from harvest.state.partition import Partition

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

# Names other modules import from here (they moved to the parts' modules).
__all__ = ["META_FRONTIER_KEY", "ContentOwner", "CrawlState", "ItemOrigin", "is_disk_full"]

logger = logging.getLogger(__name__)

_STATES: weakref.WeakKeyDictionary[Crawler, CrawlState | None] = weakref.WeakKeyDictionary()


def _store_opener(crawler: Crawler) -> Callable[[], StateStore]:
    """Opens the crawl's store from its settings, once the spider exists."""
    settings = crawler.settings

    def opener() -> StateStore:
        assert crawler.spider is not None
        reset = settings.getbool("HARVEST_DEDUP_RESET") or capabilities(crawler.spider).reset
        return open_store(
            settings.get("HARVEST_STATE_URL") or "",
            Partition.from_settings(settings).state_name(crawler.spider.name),
            settings.get("HARVEST_DATA_DIR"),
            reset=reset,
            cross_spider=settings.getbool("HARVEST_DEDUP_CROSS_SPIDER"),
            busy_timeout=settings.getfloat("HARVEST_STATE_BUSY_TIMEOUT"),
        )

    return opener


def _closer(crawler: Crawler) -> Callable[[str], None]:
    """Closes the crawl with a reason (a fatal state error), if its spider is still open."""

    def on_fatal(reason: str) -> None:
        if crawler.engine is not None and crawler.engine.spider is not None:
            deferred_from_coro(crawler.engine.close_spider_async(reason=reason))

    return on_fatal


def _report_pending(store: StateStore, stats: StatsCollector | None) -> None:
    """Count (and log) the requests a closing crawl leaves in its frontier."""
    try:
        pending = store.frontier_size()
    except StateError:
        pending = -1
    if stats is not None:
        stats.set_value("harvest/frontier/pending", pending)
    if pending > 0:
        logger.info("%d requests left pending in the frontier; the next run resumes them", pending)


class CrawlState:
    """Batch, commit points, claims and request completion for one crawl, composed from its parts.

    See the module docstring; each method delegates to the part that owns the concern.
    """

    def __init__(
        self,
        opener: Callable[[], StateStore],
        *,
        fingerprint: Callable[[Request], bytes] | None = None,
        commit_items: int = 100,
        commit_requests: int = 1000,
        stats: StatsCollector | None = None,
        on_fatal: Callable[[str], None] | None = None,
    ) -> None:
        self._opener = opener
        self.stats = stats
        self._open_error: StateError | None = None
        self.closed_reason: str | None = None
        self.pending = PendingBatch(stats)
        self.commits = CommitPoints(
            self.pending,
            commit_items=commit_items,
            commit_requests=commit_requests,
            stats=stats,
            on_fatal=on_fatal,
        )
        self.claims = ContentClaims(self.pending, self.open)
        self.completion = RequestCompletion(self.pending, fingerprint)
        self.outcomes = ItemOutcomes(self.claims, self.completion, self.commits, stats)

    # The parts own these; the components keep reading (and the coordinator and tests setting)
    # them here.

    @property
    def store(self) -> StateStore | None:
        """The open store (None before :meth:`open` and after :meth:`close`)."""
        return self.commits.store

    @store.setter
    def store(self, store: StateStore | None) -> None:
        self.commits.store = store

    @property
    def batch(self) -> StateBatch:
        """The uncommitted batch (a new one after each commit)."""
        return self.pending.batch

    @property
    def abandoned(self) -> str | None:
        """Set by :meth:`abandon`: nothing more is committed in this crawl."""
        return self.commits.abandoned

    @abandoned.setter
    def abandoned(self, reason: str | None) -> None:
        self.commits.abandoned = reason

    @property
    def commit_items(self) -> int:
        """Items stored between two commits."""
        return self.commits.commit_items

    @property
    def commit_requests(self) -> int:
        """Frontier changes between two commits."""
        return self.commits.commit_requests

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def required(cls, crawler: Crawler) -> CrawlState:
        """The crawl's shared instance, for components that only make sense with it.

        Raises :class:`~harvest.exceptions.NotApplicable` (off without a warning) when
        ``HARVEST_STATE_ENABLED`` is off.
        """
        state = cls.from_crawler(crawler)
        if state is None:
            raise NotApplicable("HARVEST_STATE_ENABLED is off")
        return state

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlState | None:
        """The crawl's shared instance (None when ``HARVEST_STATE_ENABLED`` is off)."""
        if crawler in _STATES:
            return _STATES[crawler]
        settings = crawler.settings
        state: CrawlState | None = None
        if settings.getbool("HARVEST_STATE_ENABLED"):
            state = cls(
                _store_opener(crawler),
                fingerprint=crawler.request_fingerprinter.fingerprint,
                commit_items=settings.getint("HARVEST_STATE_COMMIT_ITEMS"),
                commit_requests=settings.getint("HARVEST_STATE_COMMIT_REQUESTS"),
                stats=crawler.stats,
                on_fatal=_closer(crawler),
            )
            state.connect(crawler, settings.getfloat("HARVEST_STATE_COMMIT_SECONDS"))
        _STATES[crawler] = state
        return state

    def connect(self, crawler: Crawler, commit_seconds: float) -> None:
        """Follow the crawl's signals: item outcomes, the commit timer, the final commit."""
        crawler.signals.connect(self.outcomes.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.outcomes.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(self.outcomes.item_error, signal=signals.item_error)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)
        if commit_seconds > 0:

            def start_timer() -> None:
                # A LoopingCall needs the running reactor: start it once the spider opened.
                self.commits.start_timer(commit_seconds)

            crawler.signals.connect(start_timer, signal=signals.spider_opened, weak=False)

    def open(self) -> StateStore:
        """Open the store (once; every component calls this from its own open).

        A store that cannot be opened (locked by another crawl of the spider, unwritable, from a
        newer harvest) closes the crawl with reason ``state_error`` before any request.
        """
        store = self.store
        if store is None:
            if self._open_error is not None:
                raise CloseSpider("state_error")
            try:
                store = self.store = self._opener()
            except StateError as exc:
                self._open_error = exc
                logger.error("Cannot open the crawl state: %s", exc)
                raise CloseSpider("state_error") from exc
            logger.info("Crawl state: %s (%s)", store.location, store.origin.value)
        return store

    def close(self, reason: str = "finished") -> None:
        """Final commit and close. A finished crawl has nothing pending: the frontier is cleared."""
        self.commits.stop_timer()
        store = self.store
        if store is None:
            return
        self.closed_reason = reason
        if reason == "finished":
            # The engine only finishes when the scheduler is empty and nothing is in flight, so
            # whatever the frontier still lists (requests whose failure no component saw) is done.
            self.batch.frontier_add.clear()
            self.batch.frontier_clear = True
            # But not the requests whose items failed in a pipeline: the next run fetches them.
            self.batch.frontier_keep = set(self.completion.kept)
        self.commits.commit_safely()
        _report_pending(store, self.stats)
        store.close()
        self.store = None

    def _spider_closed(self, spider: Any, reason: str) -> None:
        self.close(reason)

    # --- commits and stopping (harvest.state.commits) --------------------------------------------

    def add_pre_commit(self, hook: Callable[[], Mapping[str, int]]) -> None:
        """Run ``hook`` before each commit: it makes outputs durable and returns their offsets."""
        self.commits.add_pre_commit(hook)

    def remove_pre_commit(self, hook: Callable[[], Mapping[str, int]]) -> None:
        """Stop calling ``hook`` (its files are closed)."""
        self.commits.remove_pre_commit(hook)

    def commit(self) -> None:
        """Make outputs durable, then commit the batch with their offsets (raises StateError)."""
        self.commits.commit()

    def commit_safely(self) -> bool:
        """Commit at a commit point; a failure is logged, kept for the next try, and counted."""
        return self.commits.commit_safely()

    def abandon(self, reason: str) -> None:
        """Commit nothing more and close the crawl with ``reason``, as if it was killed here."""
        self.commits.abandon(reason)

    def holds_lease(self) -> bool:
        """Whether this process may write output now (False: :meth:`abandon` with ``lease_lost``)."""
        return self.commits.holds_lease()

    def stop_if_disk_full(self, exc: BaseException) -> bool:
        """If ``exc`` says the disk is full: log it (once), :meth:`abandon` the crawl, True."""
        return self.commits.stop_if_disk_full(exc)

    def stop_if_fenced(self) -> bool:
        """If this worker's lease on a shared crawl was taken: :meth:`abandon` (``lease_lost``), True."""
        return self.commits.stop_if_fenced()

    def shared_store_failed(self, exc: BaseException | None = None) -> bool:
        """Whether a shared store (Redis) failed, ``exc`` included: nothing more commits.

        Its coordinator stops the crawl with the reason and the one line saying so
        (:func:`harvest.scale.scheduler.stop_for_redis`); what was not committed is fetched again.
        """
        return self.commits.shared_store_failed(exc)

    # --- dedup and output (harvest.state.claims, harvest.state.batches) ---------------------------

    def item_seen(self, key: bytes) -> bool:
        """Whether an item key is stored, written in this batch, or in flight."""
        return self.claims.item_seen(key)

    def content_owner(self, content_hash: str) -> ContentOwner | None:
        """Who stored a document with this content hash already, if anyone."""
        return self.claims.content_owner(content_hash)

    def claim(self, item: Any, key: bytes | None, content_hash: str | None, url: str | None) -> None:
        """Mark an item's key or content as in flight between the dedup and output pipelines."""
        self.claims.claim(item, key, content_hash, url)

    def add_record(self, record: Mapping[str, Any], when: float | None = None) -> None:
        """Put a written record's identity into the batch (it commits with the file's offset)."""
        self.pending.add_record(record, when)

    def record_output(self, record: Mapping[str, Any], item: Any = None) -> None:
        """Called by the output pipeline right after it wrote ``record``'s line."""
        self.claims.record_output(record, item)
        self.commits.maybe_commit()

    # --- request completion (harvest.state.completion) --------------------------------------------

    def request_key(self, request: Request) -> bytes:
        """The frontier key of a request: its original fingerprint (kept across redirects)."""
        return self.completion.request_key(request)

    def fingerprint(self, request: Request) -> bytes:
        """The request's own fingerprint (``crawler.request_fingerprinter``)."""
        return self.completion.fingerprint(request)

    def item_origin(self, item: Any) -> ItemOrigin | None:
        """The origin recorded for an item by the frontier spider middleware, if any."""
        return self.completion.item_origin(item)

    def item_started(self, item: Any, response: Response) -> None:
        """A callback yielded ``item``: it counts against its request until its outcome is known."""
        self.completion.item_started(item, response)

    def callback_finished(self, response: Response) -> None:
        """A callback's output ended; the request is done once its items are all through."""
        if self.completion.callback_finished(response):
            self.commits.maybe_commit()

    def note_fetch(self, request_key: bytes, note: FetchNote) -> None:
        """Remember a document fetch; it enters the batch when the request is done."""
        self.completion.note_fetch(request_key, note)

    def note_document_fetch(
        self,
        request_key: bytes,
        fingerprint: bytes,
        *,
        validator_key: bytes | None = None,
        validators: Validators | None = None,
        when: float | None = None,
    ) -> None:
        """Record (at done time) that a document was fetched, with its HTTP validators."""
        self.completion.note_document_fetch(
            request_key, fingerprint, validator_key=validator_key, validators=validators, when=when
        )

    def retire(self, key: bytes) -> None:
        """The request is done: drop it from the frontier and commit its fetch notes."""
        self.completion.retire(key)
        self.commits.maybe_commit()

    def frontier_add(self, key: bytes, request: bytes, dont_filter: bool) -> None:
        """Persist a newly scheduled request."""
        self.pending.add_frontier(key, request, dont_filter)
        self.commits.maybe_commit()

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document was last fetched (this batch first, then the store)."""
        pending = self.pending.last_fetched(fingerprint)
        if pending is not None:
            return pending
        return self.open().last_fetched(fingerprint)

    def validators(self, key: bytes) -> Validators | None:
        """Stored validators under ``key`` (this batch first, then the store)."""
        pending = self.pending.validators(key)
        if pending is not None:
            return pending
        return self.open().validators(key)
