"""Content claims: the items between the dedup pipeline and the output pipeline right now.

The dedup pipeline lets an item through and :meth:`ContentClaims.claim`s its key (or, for a
document, its content hash) at once, so a second copy that arrives before the first one's line is
written is still a duplicate. A claim ends with the item's outcome (``item_scraped`` /
``item_dropped`` / ``item_error``): its identity is then in the pending batch (written) or
forgotten (dropped). Lookups see the pending batch, then the claims, then the store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from harvest.state import StateStore
from harvest.state.batches import PendingBatch


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


class ContentClaims:
    """In-flight item keys and content hashes (see the module docstring).

    ``open_store`` returns the crawl's open store (it may open it); it is only called when the
    pending batch and the claims cannot answer.
    """

    def __init__(self, pending: PendingBatch, open_store: Callable[[], StateStore]) -> None:
        self.pending = pending
        self._open_store = open_store
        # Bounded by the items being processed right now; keyed by id(item), like the signals.
        self._claims: dict[int, _Claim] = {}
        self._claimed_keys: dict[bytes, int] = {}
        self._claimed_hashes: dict[str, str] = {}

    def item_seen(self, key: bytes) -> bool:
        """Whether an item key is stored, written in this batch, or in flight."""
        if key in self.pending.batch.items or key in self._claimed_keys:
            return True
        return self._open_store().has_item(key)

    def content_owner(self, content_hash: str) -> ContentOwner | None:
        """Who stored a document with this content hash already, if anyone."""
        written = self.pending.batch.contents.get(content_hash)
        if written is not None:
            return ContentOwner(written[0])
        claimed = self._claimed_hashes.get(content_hash)
        if claimed is not None:
            return ContentOwner(claimed)
        store = self._open_store()
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

    def record_output(self, record: Mapping[str, Any], item: Any = None) -> None:
        """The output pipeline wrote ``record``'s line: its identity enters the batch (counted)."""
        claim = self._claims.get(id(item)) if item is not None else None
        if claim is not None and claim.key is not None:
            # The dedup pipeline computed this item's key digest from the same fields a moment
            # ago (item keys canonicalize URLs: worth not doing twice per item).
            self.pending.add_item(claim.key)
        else:
            self.pending.add_record(record)
        if claim is not None:
            claim.written = True
        self.pending.count_item()

    def release(self, item: Any, *, stored: bool) -> None:
        """The item's outcome is known: end its claim.

        ``stored``: the item was stored and the state is open; if no output pipeline recorded
        it, its identity still enters the batch.
        """
        claim = self._claims.pop(id(item), None)
        if claim is None:
            return
        if claim.key is not None:
            left = self._claimed_keys.get(claim.key, 0) - 1
            if left > 0:
                self._claimed_keys[claim.key] = left
            else:
                self._claimed_keys.pop(claim.key, None)
        if claim.content_hash is not None:
            self._claimed_hashes.pop(claim.content_hash, None)
        if stored and not claim.written:
            # No output pipeline recorded this item (e.g. a feed export writes it): keep its
            # identity anyway so dedup still works across runs, without the exactly-once promise.
            if claim.content_hash is not None:
                self.pending.add_content(claim.content_hash, claim.url)
            elif claim.key is not None:
                self.pending.add_item(claim.key)
            self.pending.count_item()
