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
"""

from __future__ import annotations

import errno
import logging
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response
from scrapy.utils.defer import deferred_from_coro
from twisted.python.failure import Failure

from harvest.exceptions import NotApplicable, StateError
from harvest.identity import canonical_url, document_hash, is_document, item_key, key_digest
from harvest.partition import Partition
from harvest.state import StateBatch, StateStore, Validators, open_store

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.internet.task import LoopingCall

logger = logging.getLogger(__name__)

#: Request meta key (internal) naming the frontier entry a request belongs to, as hex. A
#: redirect or retry keeps it (it copies meta), which is how a replaced request gets retired.
FRONTIER_KEY_META = "harvest_frontier_key"
#: After this many failed commits in a row the crawl stops: it can no longer promise anything.
_MAX_COMMIT_FAILURES = 3

#: Errors that mean the disk (or quota) is full: retrying a commit cannot help.
_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it was raised from) says the disk or quota is full."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in _DISK_FULL_ERRNOS:
            return True
        # SQLite reports SQLITE_FULL as "database or disk is full".
        if "disk is full" in str(seen) or "No space left" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


_STATES: weakref.WeakKeyDictionary[Crawler, CrawlState | None] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class ItemOrigin:
    """Where an item came from: the frontier key of its request, and whether to dedup it."""

    request_key: bytes | None
    dedup: bool


@dataclass(frozen=True)
class ContentOwner:
    """Where a content hash is stored: a URL, and the spider when it is another spider."""

    url: str
    spider: str | None = None

    def __str__(self) -> str:
        return self.url if self.spider is None else f"{self.url} (spider {self.spider})"


@dataclass
class _Claim:
    key: bytes | None
    content_hash: str | None
    url: str
    #: set once the output pipeline wrote the item (its identity is then in the batch)
    written: bool = False


@dataclass
class _FetchNote:
    fingerprint: bytes
    fetched_at: float
    validator_key: bytes | None = None
    validators: Validators | None = None


class CrawlState:
    """Batch, commit points and request completion for one crawl (see the module docstring)."""

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
        if fingerprint is None:
            from scrapy.utils.request import RequestFingerprinter

            fingerprint = RequestFingerprinter().fingerprint
        self._fingerprint = fingerprint
        self.commit_items = max(1, commit_items)
        self.commit_requests = max(1, commit_requests)
        self.stats = stats
        self._on_fatal = on_fatal
        self.store: StateStore | None = None
        self._open_error: StateError | None = None
        self.batch = StateBatch()
        self._items_pending = 0
        self._requests_pending = 0
        self._commit_failures = 0
        self._pre_commit: list[Callable[[], Mapping[str, int]]] = []
        # In-flight bookkeeping, bounded by what is being processed right now.
        self._claims: dict[int, _Claim] = {}
        self._claimed_keys: dict[bytes, int] = {}
        self._claimed_hashes: dict[str, str] = {}
        self._origins: dict[int, ItemOrigin] = {}
        self._outstanding: dict[bytes, int] = {}
        self._callback_done: set[bytes] = set()
        self._fetch_notes: dict[bytes, list[_FetchNote]] = {}
        self._timer: LoopingCall | None = None
        self.closed_reason: str | None = None
        #: Set by :meth:`abandon`: nothing more is committed in this crawl.
        self.abandoned: str | None = None

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

            def opener() -> StateStore:
                assert crawler.spider is not None
                reset = settings.getbool("HARVEST_DEDUP_RESET") or bool(
                    getattr(crawler.spider, "reset", False)
                )
                return open_store(
                    settings.get("HARVEST_STATE_URL") or "",
                    Partition.from_settings(settings).state_name(crawler.spider.name),
                    settings.get("HARVEST_DATA_DIR"),
                    reset=reset,
                    cross_spider=settings.getbool("HARVEST_DEDUP_CROSS_SPIDER"),
                    busy_timeout=settings.getfloat("HARVEST_STATE_BUSY_TIMEOUT"),
                )

            def on_fatal(reason: str) -> None:
                if crawler.engine is not None and crawler.engine.spider is not None:
                    deferred_from_coro(crawler.engine.close_spider_async(reason=reason))

            state = cls(
                opener,
                fingerprint=crawler.request_fingerprinter.fingerprint,
                commit_items=settings.getint("HARVEST_STATE_COMMIT_ITEMS"),
                commit_requests=settings.getint("HARVEST_STATE_COMMIT_REQUESTS"),
                stats=crawler.stats,
                on_fatal=on_fatal,
            )
            state.connect(crawler, settings.getfloat("HARVEST_STATE_COMMIT_SECONDS"))
        _STATES[crawler] = state
        return state

    def connect(self, crawler: Crawler, commit_seconds: float) -> None:
        """Follow the crawl's signals: item outcomes, the commit timer, the final commit."""
        crawler.signals.connect(self._item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self._item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(self._item_error, signal=signals.item_error)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)
        if commit_seconds > 0:

            def start_timer() -> None:
                from twisted.internet.task import LoopingCall

                self._timer = LoopingCall(self.commit_safely)
                self._timer.start(commit_seconds, now=False)

            crawler.signals.connect(start_timer, signal=signals.spider_opened, weak=False)

    def open(self) -> StateStore:
        """Open the store (once; every component calls this from its own open).

        A store that cannot be opened (locked by another crawl of the spider, unwritable, from a
        newer harvest) closes the crawl with reason ``state_error`` before any request.
        """
        if self.store is None:
            if self._open_error is not None:
                raise CloseSpider("state_error")
            try:
                self.store = self._opener()
            except StateError as exc:
                self._open_error = exc
                logger.error("Cannot open the crawl state: %s", exc)
                raise CloseSpider("state_error") from exc
            logger.info("Crawl state: %s (%s)", self.store.location, self.store.origin.value)
        return self.store

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/{key}", count)

    # --- commits -------------------------------------------------------------------------------

    def add_pre_commit(self, hook: Callable[[], Mapping[str, int]]) -> None:
        """Run ``hook`` before each commit: it makes outputs durable and returns their offsets."""
        self._pre_commit.append(hook)

    def remove_pre_commit(self, hook: Callable[[], Mapping[str, int]]) -> None:
        """Stop calling ``hook`` (its files are closed)."""
        if hook in self._pre_commit:
            self._pre_commit.remove(hook)

    def abandon(self, reason: str) -> None:
        """Commit nothing more and close the crawl with ``reason``, as if it was killed here.

        For a failure that makes the outputs or the state unwritable (a full disk): what was
        committed stays consistent, the lines written since are replayed on the next start
        and the requests not committed as done are fetched again, as after ``kill -9``.
        """
        if self.abandoned is not None:
            return
        self.abandoned = reason
        if self._timer is not None and self._timer.running:
            self._timer.stop()
        if self._on_fatal is not None:
            self._on_fatal(reason)

    def holds_lease(self) -> bool:
        """Whether this process may write output now (False: :meth:`abandon` with ``lease_lost``).

        Always true for a store of one writer; a shared store (Redis) answers whether this
        worker still holds its lease on the shared crawl, so a worker that other workers gave
        up while it was frozen writes nothing they will write again.
        """
        check = getattr(self.store, "holds_lease", None)
        try:
            if check is None or check():
                return True
        except StateError as exc:
            # The shared store cannot say (unreachable): not a lost lease but a failed store.
            if self.abandoned is None:
                logger.error(
                    "%s; stopping this crawl cleanly. Nothing is lost: what was committed "
                    "stays, and the next run resumes from it.",
                    exc,
                )
                self.abandon("state_error")
            return False
        if self.abandoned is None:
            report = getattr(self.store, "report_fence", None)
            if report is not None:
                report()
            self.abandon("lease_lost")
        return False

    def stop_if_disk_full(self, exc: BaseException) -> bool:
        """If ``exc`` says the disk is full: log it (once), :meth:`abandon` the crawl, True."""
        if not is_disk_full(exc):
            return False
        if self.abandoned is None:
            logger.error(
                "No space left on device for the crawl state: %s. Stopping the crawl: "
                "what was committed is intact and the next run resumes from it.",
                exc,
            )
        self.abandon("disk_full")
        return True

    def commit(self) -> None:
        """Make outputs durable, then commit the batch with their offsets (raises StateError)."""
        if self.store is None or self.abandoned is not None:
            return
        for hook in list(self._pre_commit):
            self.batch.offsets.update(hook())
        if not len(self.batch):
            return
        self.store.commit(self.batch)
        self.batch = StateBatch()
        self._items_pending = 0
        self._requests_pending = 0
        self._commit_failures = 0
        self._inc("state/commits")

    def commit_safely(self) -> bool:
        """Commit at a commit point; a failure is logged, kept for the next try, and counted."""
        try:
            self.commit()
        except (StateError, OSError) as exc:
            self._commit_failures += 1
            self._inc("state/commit_failed")
            if self.stop_if_disk_full(exc):
                return False
            logger.error(
                "Commit of the crawl state failed (%d in a row): %s",
                self._commit_failures,
                exc,
                exc_info=True,
            )
            if self._commit_failures >= _MAX_COMMIT_FAILURES and self._on_fatal is not None:
                self._on_fatal("state_error")
            return False
        return True

    def _maybe_commit(self) -> None:
        if self._items_pending >= self.commit_items or self._requests_pending >= self.commit_requests:
            self.commit_safely()

    def close(self, reason: str = "finished") -> None:
        """Final commit and close. A finished crawl has nothing pending: the frontier is cleared."""
        if self._timer is not None and self._timer.running:
            self._timer.stop()
        self._timer = None
        if self.store is None:
            return
        self.closed_reason = reason
        if reason == "finished":
            # The engine only finishes when the scheduler is empty and nothing is in flight, so
            # whatever the frontier still lists (requests whose failure no component saw) is done.
            self.batch.frontier_add.clear()
            self.batch.frontier_clear = True
        self.commit_safely()
        try:
            pending = self.store.frontier_size()
        except StateError:
            pending = -1
        if self.stats is not None:
            self.stats.set_value("harvest/frontier/pending", pending)
        if pending > 0:
            logger.info("%d requests left pending in the frontier; the next run resumes them", pending)
        self.store.close()
        self.store = None

    def _spider_closed(self, spider: Any, reason: str) -> None:
        self.close(reason)

    # --- dedup and output ----------------------------------------------------------------------

    def item_seen(self, key: bytes) -> bool:
        """Whether an item key is stored, written in this batch, or in flight."""
        if key in self.batch.items or key in self._claimed_keys:
            return True
        return self.open().has_item(key)

    def content_owner(self, content_hash: str) -> ContentOwner | None:
        """Who stored a document with this content hash already, if anyone."""
        written = self.batch.contents.get(content_hash)
        if written is not None:
            return ContentOwner(written[0])
        claimed = self._claimed_hashes.get(content_hash)
        if claimed is not None:
            return ContentOwner(claimed)
        store = self.open()
        url = store.content_url(content_hash)
        if url is not None:
            return ContentOwner(url)
        shared = store.claim_content(content_hash)
        if shared is not None:
            return ContentOwner(shared[1], spider=shared[0])
        return None

    def claim(self, item: Any, key: bytes | None, content_hash: str | None, url: str | None) -> None:
        """Mark an item's key or content as in flight between the dedup and output pipelines."""
        self._claims[id(item)] = _Claim(key, content_hash, url or "")
        if key is not None:
            self._claimed_keys[key] = self._claimed_keys.get(key, 0) + 1
        if content_hash is not None:
            self._claimed_hashes[content_hash] = url or ""

    def _release(self, item: Any) -> _Claim | None:
        claim = self._claims.pop(id(item), None)
        if claim is None:
            return None
        if claim.key is not None:
            left = self._claimed_keys.get(claim.key, 0) - 1
            if left > 0:
                self._claimed_keys[claim.key] = left
            else:
                self._claimed_keys.pop(claim.key, None)
        if claim.content_hash is not None:
            self._claimed_hashes.pop(claim.content_hash, None)
        return claim

    def add_record(self, record: Mapping[str, Any], when: float | None = None) -> None:
        """Put a written record's identity into the batch (it commits with the file's offset).

        A document is identified by its content hash (with its URL): "this URL with this text"
        and "this text under another URL" both follow from it, so it needs no item key.
        """
        when = time.time() if when is None else when
        if is_document(record):
            url = canonical_url(str(record.get("url") or ""))
            self.batch.contents[document_hash(record)] = (url, when)
        else:
            self.batch.items[key_digest(item_key(record))] = when

    def record_output(self, record: Mapping[str, Any], item: Any = None) -> None:
        """Called by the output pipeline right after it wrote ``record``'s line."""
        claim = self._claims.get(id(item)) if item is not None else None
        if claim is not None and claim.key is not None:
            # The dedup pipeline computed this item's key digest from the same fields a moment
            # ago (item keys canonicalize URLs: worth not doing twice per item).
            self.batch.items[claim.key] = time.time()
        else:
            self.add_record(record)
        if claim is not None:
            claim.written = True
        self._items_pending += 1
        self._maybe_commit()

    # --- request completion ----------------------------------------------------------------------

    def request_key(self, request: Request) -> bytes:
        """The frontier key of a request: its original fingerprint (kept across redirects)."""
        marker = request.meta.get(FRONTIER_KEY_META)
        if isinstance(marker, str):
            try:
                return bytes.fromhex(marker)
            except ValueError:
                pass
        return self._fingerprint(request)

    def fingerprint(self, request: Request) -> bytes:
        """The request's own fingerprint (``crawler.request_fingerprinter``)."""
        return self._fingerprint(request)

    def item_origin(self, item: Any) -> ItemOrigin | None:
        """The origin recorded for an item by the frontier spider middleware, if any."""
        return self._origins.get(id(item))

    def item_started(self, item: Any, response: Response) -> None:
        """A callback yielded ``item``: it counts against its request until its outcome is known."""
        key = self.request_key(response.request) if response.request is not None else None
        dedup = response.meta.get("harvest_dedup", True) is not False if response.request else True
        self._origins[id(item)] = ItemOrigin(key, dedup)
        if key is not None:
            self._outstanding[key] = self._outstanding.get(key, 0) + 1

    def callback_finished(self, response: Response) -> None:
        """A callback's output ended; the request is done once its items are all through."""
        if response.request is None:
            return
        key = self.request_key(response.request)
        if self._outstanding.get(key, 0) > 0:
            self._callback_done.add(key)
        else:
            self.retire(key)

    def note_fetch(self, request_key: bytes, note: _FetchNote) -> None:
        """Remember a document fetch; it enters the batch when the request is done."""
        self._fetch_notes.setdefault(request_key, []).append(note)

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
        when = time.time() if when is None else when
        self.note_fetch(request_key, _FetchNote(fingerprint, when, validator_key, validators))
        if request_key != fingerprint:
            # Redirected: the URL the spider asks for is fresh too.
            self.note_fetch(request_key, _FetchNote(request_key, when))

    def retire(self, key: bytes) -> None:
        """The request is done: drop it from the frontier and commit its fetch notes."""
        self._callback_done.discard(key)
        self._outstanding.pop(key, None)
        for note in self._fetch_notes.pop(key, ()):
            self.batch.fetched[note.fingerprint] = note.fetched_at
            if note.validator_key is not None and note.validators is not None:
                self.batch.validators[note.validator_key] = (note.validators, note.fetched_at)
        self.batch.retire_frontier(key)
        self._requests_pending += 1
        self._inc("frontier/done")
        self._maybe_commit()

    def frontier_add(self, key: bytes, request: bytes, dont_filter: bool) -> None:
        """Persist a newly scheduled request."""
        self.batch.add_frontier(key, request, dont_filter)
        self._requests_pending += 1
        self._inc("frontier/persisted")
        self._maybe_commit()

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document was last fetched (this batch first, then the store)."""
        pending = self.batch.fetched.get(fingerprint)
        if pending is not None:
            return pending
        return self.open().last_fetched(fingerprint)

    def validators(self, key: bytes) -> Validators | None:
        """Stored validators under ``key`` (this batch first, then the store)."""
        pending = self.batch.validators.get(key)
        if pending is not None:
            return pending[0]
        return self.open().validators(key)

    # --- item outcomes (signals) ------------------------------------------------------------------

    def _item_done(self, item: Any, response: Response | Failure | None, *, stored: bool) -> None:
        claim = self._release(item)
        if stored and claim is not None and not claim.written and self.store is not None:
            # No output pipeline recorded this item (e.g. a feed export writes it): keep its
            # identity anyway so dedup still works across runs, without the exactly-once promise.
            if claim.content_hash is not None:
                self.batch.contents[claim.content_hash] = (claim.url, time.time())
            elif claim.key is not None:
                self.batch.items[claim.key] = time.time()
            self._items_pending += 1
        origin = self._origins.pop(id(item), None)
        key = origin.request_key if origin is not None else None
        if key is None and response is not None:
            request = (
                response.request if isinstance(response, Response) else getattr(response, "request", None)
            )
            key = self.request_key(request) if isinstance(request, Request) else None
        if key is None:
            self._maybe_commit()
            return
        left = self._outstanding.get(key, 0) - 1
        if left > 0:
            self._outstanding[key] = left
            self._maybe_commit()
        else:
            self._outstanding.pop(key, None)
            if key in self._callback_done:
                self.retire(key)
            else:
                self._maybe_commit()

    def _item_scraped(self, item: Any, response: Response | Failure | None = None, **_: Any) -> None:
        self._item_done(item, response, stored=True)

    def _item_dropped(self, item: Any, response: Response | Failure | None = None, **_: Any) -> None:
        self._item_done(item, response, stored=False)

    def _item_error(self, item: Any, response: Response | Failure | None = None, **_: Any) -> None:
        self._item_done(item, response, stored=False)
