"""The uncommitted batch of one crawl, and how much went into it since the last commit.

:class:`PendingBatch` owns the :class:`~harvest.state.StateBatch` the next commit point applies:
the identities of written items, frontier additions and removals, fetch times and validators.
It counts the items and frontier changes added since the last commit, which is what the commit
points (:mod:`harvest.state.commits`) compare with their thresholds. It never talks to a store.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from harvest.identity import canonical_url, document_hash, is_document, item_key, key_digest
from harvest.state import StateBatch, Validators

if TYPE_CHECKING:
    from scrapy.statscollectors import StatsCollector


class PendingBatch:
    """The batch the next commit applies, and what was added to it since the last commit."""

    def __init__(self, stats: StatsCollector | None = None) -> None:
        self.stats = stats
        self.batch = StateBatch()
        #: Items stored since the last commit (against ``HARVEST_STATE_COMMIT_ITEMS``).
        self.items = 0
        #: Frontier changes since the last commit (against ``HARVEST_STATE_COMMIT_REQUESTS``).
        self.requests = 0

    def committed(self) -> None:
        """The batch was committed: start an empty one."""
        self.batch = StateBatch()
        self.items = 0
        self.requests = 0

    # --- items -------------------------------------------------------------------------------------

    def add_record(self, record: Mapping[str, Any], when: float | None = None) -> None:
        """Put a written record's identity into the batch (not counted: replays use it too).

        A document is identified by its content hash (with its URL): "this URL with this text"
        and "this text under another URL" both follow from it, so it needs no item key.
        """
        when = time.time() if when is None else when
        if is_document(record):
            url = canonical_url(str(record.get("url") or ""))
            self.batch.contents[document_hash(record)] = (url, when)
        else:
            self.batch.items[key_digest(item_key(record))] = when

    def add_item(self, key: bytes, when: float | None = None) -> None:
        """Put an item key digest into the batch (not counted; see :meth:`count_item`)."""
        self.batch.items[key] = time.time() if when is None else when

    def add_content(self, content_hash: str, url: str, when: float | None = None) -> None:
        """Put a document's content hash, stored under ``url``, into the batch (not counted)."""
        self.batch.contents[content_hash] = (url, time.time() if when is None else when)

    def count_item(self) -> None:
        """One more item was stored in this crawl: it counts towards the next commit point."""
        self.items += 1

    # --- frontier and fetches ----------------------------------------------------------------------

    def add_frontier(self, key: bytes, request: bytes, dont_filter: bool) -> None:
        """Persist a newly scheduled request."""
        self.batch.add_frontier(key, request, dont_filter)
        self.requests += 1
        self._inc("frontier/persisted")

    def retire_frontier(self, key: bytes) -> None:
        """A request is done: remove it from the persisted frontier."""
        self.batch.retire_frontier(key)
        self.requests += 1
        self._inc("frontier/done")

    def add_fetch(
        self,
        fingerprint: bytes,
        fetched_at: float,
        validator_key: bytes | None = None,
        validators: Validators | None = None,
    ) -> None:
        """Record a document fetch (it makes the document fresh) and its HTTP validators."""
        self.batch.fetched[fingerprint] = fetched_at
        if validator_key is not None and validators is not None:
            self.batch.validators[validator_key] = (validators, fetched_at)

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When this batch says a document was fetched (None: ask the store)."""
        return self.batch.fetched.get(fingerprint)

    def validators(self, key: bytes) -> Validators | None:
        """The validators this batch holds under ``key`` (None: ask the store)."""
        pending = self.batch.validators.get(key)
        return pending[0] if pending is not None else None

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/{key}")
