"""DedupPipeline: drop what was stored already, by key and (documents) by content.

Shared by every spider, enabled in ITEM_PIPELINES before the output pipeline. An item is dropped

- when its natural key (:mod:`harvest.identity`) was stored by an earlier run, earlier
  in this run, or is in flight right now; for a document, when the same URL was stored with the
  same content hash (stat ``harvest/dedup/url_seen``);
- for a document, when its content hash (sha256 of the normalized text, so a byte-different
  copy of the same text matches) was stored under another URL by this spider or, with
  ``HARVEST_DEDUP_CROSS_SPIDER``, by any spider (``harvest/dedup/content_seen``).

Everything else passes (``harvest/dedup/stored``). Items from a response whose request has
``meta["harvest_dedup"] = False`` pass untouched (``harvest/dedup/bypassed``).

The keys are not recorded here: the output pipeline records them once the item is written, so
a crash between the two never marks an unwritten item as seen.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from harvest.exceptions import StateError
from harvest.identity import canonical_url, document_hash, is_document, item_key, key_digest
from harvest.state.crawl import CrawlState

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class DedupPipeline:
    """Drops items already stored (see the module docstring). Needs ``HARVEST_STATE_ENABLED``.

    Drops are logged at DEBUG (they are the normal case on every round after the first) unless
    ``HARVEST_DEDUP_DEBUG`` is on.
    """

    def __init__(
        self, state: CrawlState, stats: StatsCollector | None = None, *, debug: bool = False
    ) -> None:
        self.state = state
        self.stats = stats
        self.drop_log_level = "INFO" if debug else "DEBUG"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from the crawl's shared state."""
        state = CrawlState.required(crawler)
        return cls(state, crawler.stats, debug=crawler.settings.getbool("HARVEST_DEDUP_DEBUG"))

    def open_spider(self) -> None:
        """Open the crawl-state store (shared with the other state components)."""
        self.state.open()

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/dedup/{key}")

    def process_item(self, item: Any) -> Any:
        """Pass ``item`` if it is new, else raise DropItem naming the key it matched.

        Once the crawl state is abandoned (a full disk, a lost lease), items are dropped quietly
        while the crawl closes: the next run (or another worker) fetches them again.
        """
        if self.state.abandoned is not None:
            raise DropItem(f"not stored: the crawl is stopping ({self.state.abandoned})", log_level="DEBUG")
        try:
            return self._check(item)
        except StateError as exc:
            stopping = self.state.stop_if_disk_full(exc) or self.state.stop_if_fenced()
            if not (stopping or self.state.shared_store_failed(exc)):
                raise
            # Nothing more commits: the item's request is fetched again (by another worker, or
            # the next run); the reason was said once, by what stops the crawl.
            raise DropItem(f"not stored: {exc}", log_level="DEBUG") from exc

    def _check(self, item: Any) -> Any:
        origin = self.state.item_origin(item)
        if origin is not None and not origin.dedup:
            self._inc("bypassed")
            return item
        record = ItemAdapter(item)
        key = item_key(record)
        if is_document(record):
            content_hash = document_hash(record)
            if not record.get("content_hash"):
                # The JSON line keeps the hash, not the body: output reconciliation needs it.
                record["content_hash"] = content_hash
            url = canonical_url(str(record.get("url") or ""))
            owner = self.state.content_owner(content_hash)
            if owner is not None and owner.spider is None and owner.url == url:
                self._inc("url_seen")
                raise DropItem(f"document already seen: {key}", log_level=self.drop_log_level)
            if owner is not None:
                self._inc("content_seen")
                raise DropItem(
                    f"document content already seen: {content_hash} (stored from {owner})",
                    log_level=self.drop_log_level,
                )
            self.state.claim(item, None, content_hash, url)
        else:
            digest = key_digest(key)
            if self.state.item_seen(digest):
                self._inc("url_seen")
                raise DropItem(
                    f"{record.get('type') or 'item'} already seen: {key}", log_level=self.drop_log_level
                )
            self.state.claim(item, digest, None, None)
        self._inc("stored")
        return item
