"""Request completion: when a request is *done*, and what enters the batch at that moment.

A request is done when its callback finished and every item it produced was stored or dropped,
or when its download failed for good (or a redirect replaced it). Only then do its removal from
the persisted frontier and its fetch notes (the fetch time that makes a document fresh, and its
HTTP validators) enter the :class:`~harvest.state.batches.PendingBatch`: a request whose items
are not all committed stays pending and is fetched again after a crash. An item that failed in
a pipeline (an unexpected exception, which Scrapy logs as an error) leaves its request pending
too: it is not retired in this run, so the next run fetches it again instead of losing the item
for good.

:class:`RequestCompletion` only fills the batch; when it commits is :mod:`harvest.state.commits`'s
business (the crawl state asks after each change).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scrapy.http import Request, Response
from twisted.python.failure import Failure

from harvest.meta import META_DEDUP, META_FRONTIER_KEY
from harvest.state import Validators
from harvest.state.batches import PendingBatch


@dataclass(frozen=True)
class ItemOrigin:
    """Where an item came from: the frontier key of its request, and whether to dedup it."""

    request_key: bytes | None
    dedup: bool


@dataclass
class FetchNote:
    """A document fetch waiting for its request to be done."""

    fingerprint: bytes
    fetched_at: float
    validator_key: bytes | None = None
    validators: Validators | None = None


class RequestCompletion:
    """Items outstanding per request, and the fetch notes they hold back (see the module docstring).

    ``fingerprint`` is ``crawler.request_fingerprinter.fingerprint`` (default: Scrapy's
    fingerprinter with default settings).
    """

    def __init__(self, pending: PendingBatch, fingerprint: Callable[[Request], bytes] | None = None) -> None:
        self.pending = pending
        if fingerprint is None:
            from scrapy.utils.request import RequestFingerprinter

            fingerprint = RequestFingerprinter().fingerprint
        self._fingerprint = fingerprint
        # Bounded by the requests and items being processed right now.
        self._origins: dict[int, ItemOrigin] = {}
        self._outstanding: dict[bytes, int] = {}
        self._callback_done: set[bytes] = set()
        #: Requests with an item that failed in a pipeline: never retired in this run.
        self._failed: set[bytes] = set()
        #: Those of them that are over for this run: they stay in the frontier for the next one.
        self.kept: set[bytes] = set()
        self._fetch_notes: dict[bytes, list[FetchNote]] = {}

    def request_key(self, request: Request) -> bytes:
        """The frontier key of a request: its original fingerprint (kept across redirects)."""
        marker = request.meta.get(META_FRONTIER_KEY)
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
        dedup = response.meta.get(META_DEDUP, True) is not False if response.request else True
        self._origins[id(item)] = ItemOrigin(key, dedup)
        if key is not None:
            self._outstanding[key] = self._outstanding.get(key, 0) + 1

    def callback_finished(self, response: Response) -> bool:
        """A callback's output ended; True if that made its request done (it was retired)."""
        if response.request is None:
            return False
        key = self.request_key(response.request)
        if self._outstanding.get(key, 0) > 0:
            self._callback_done.add(key)
            return False
        return self._finish(key)

    def item_finished(self, item: Any, response: Response | Failure | None, *, failed: bool = False) -> None:
        """An item's outcome is known; its request is retired if that was the last one.

        ``failed``: the item failed in a pipeline, so its request stays pending (see the module
        docstring).
        """
        key = self._request_key_of(item, response)
        if key is None:
            return
        if failed:
            self._failed.add(key)
        left = self._outstanding.get(key, 0) - 1
        if left > 0:
            self._outstanding[key] = left
            return
        self._outstanding.pop(key, None)
        if key in self._callback_done:
            self._finish(key)

    def _finish(self, key: bytes) -> bool:
        """The request is over for this run: retired (True), or kept pending if an item failed."""
        if key not in self._failed:
            self.retire(key)
            return True
        # Not done: it stays in the frontier, without its fetch notes.
        self._callback_done.discard(key)
        self._failed.discard(key)
        self._fetch_notes.pop(key, None)
        self.kept.add(key)
        return False

    def _request_key_of(self, item: Any, response: Response | Failure | None) -> bytes | None:
        origin = self._origins.pop(id(item), None)
        if origin is not None and origin.request_key is not None:
            return origin.request_key
        if response is None:
            return None
        # Items no frontier middleware saw start: the signal's response (or failure) names it.
        request = response.request if isinstance(response, Response) else getattr(response, "request", None)
        return self.request_key(request) if isinstance(request, Request) else None

    def note_fetch(self, request_key: bytes, note: FetchNote) -> None:
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
        self.note_fetch(request_key, FetchNote(fingerprint, when, validator_key, validators))
        if request_key != fingerprint:
            # Redirected: the URL the spider asks for is fresh too.
            self.note_fetch(request_key, FetchNote(request_key, when))

    def retire(self, key: bytes) -> None:
        """The request is done: its fetch notes and its removal from the frontier enter the batch."""
        self._callback_done.discard(key)
        self._outstanding.pop(key, None)
        for note in self._fetch_notes.pop(key, ()):
            self.pending.add_fetch(note.fingerprint, note.fetched_at, note.validator_key, note.validators)
        self.pending.retire_frontier(key)
