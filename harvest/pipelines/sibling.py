"""SiblingDedupPipeline: one observation per identity across spiders that write the same items.

``trending`` (live) and ``trending_history`` (archived captures) write the same item types with
the same identity (:mod:`harvest.identity`: repo or developer, period, language filter, spoken
language, UTC day), each in its own dataset. A spider that declares
``shares_items_with = ("<other spider>", ...)`` has an item dropped when one of those spiders
stored its key already: the first stored wins, live or archived (stat
``harvest/dedup/sibling_seen``). The siblings' crawl states are read read-only (SQLite or Redis,
whatever ``HARVEST_STATE_URL`` says); a sibling that never ran has stored nothing.

Two siblings storing the same key in the same seconds both keep it (the check is not one
transaction across two states); a live and an archived observation of one day meet only when a
history window includes today.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from harvest.exceptions import NotApplicable, StateError
from harvest.identity import is_document, item_key, key_digest
from harvest.plumbing.capabilities import class_capabilities
from harvest.state import StateStore, open_store

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: A sibling without a state yet is looked for again after this many seconds.
_RETRY_OPEN = 30.0


class SiblingDedupPipeline:
    """Drops an item a sibling spider stored already (see the module docstring)."""

    def __init__(
        self, siblings: tuple[str, ...], state_url: str, data_dir: str, stats: StatsCollector | None
    ) -> None:
        self.siblings = siblings
        self.state_url = state_url
        self.data_dir = data_dir
        self.stats = stats
        self._stores: dict[str, StateStore] = {}
        self._missing_since: dict[str, float] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Active for spiders that declare ``shares_items_with`` (and a crawl state)."""
        siblings = tuple(class_capabilities(crawler.spidercls).shares_items_with)
        if not siblings or not crawler.settings.getbool("HARVEST_STATE_ENABLED"):
            raise NotApplicable("the spider shares its items with no other spider")
        settings = crawler.settings
        return cls(
            siblings, settings.get("HARVEST_STATE_URL") or "", settings.get("HARVEST_DATA_DIR"), crawler.stats
        )

    def _store(self, name: str) -> StateStore | None:
        store = self._stores.get(name)
        if store is not None:
            return store
        missing = self._missing_since.get(name)
        if missing is not None and time.monotonic() - missing < _RETRY_OPEN:
            return None
        try:
            store = open_store(self.state_url, name, self.data_dir, cross_spider=False, readonly=True)
        except StateError as exc:
            logger.debug("No state of %s to compare with (%s)", name, exc)
            self._missing_since[name] = time.monotonic()
            return None
        self._stores[name] = store
        return store

    def process_item(self, item: Any) -> Any:
        """Pass ``item`` unless a sibling stored its key."""
        record = ItemAdapter(item)
        if is_document(record):
            return item
        digest = key_digest(item_key(record))
        for name in self.siblings:
            store = self._store(name)
            if store is not None and store.has_item(digest):
                if self.stats is not None:
                    self.stats.inc_value("harvest/dedup/sibling_seen")
                raise DropItem(f"stored by {name} already: {item_key(record)}", log_level="DEBUG")
        return item

    def close_spider(self) -> None:
        """Close the siblings' states."""
        for store in self._stores.values():
            try:
                store.close()
            except Exception as exc:  # noqa: BLE001 - read-only: nothing to lose
                logger.debug("Closing a sibling's state failed: %s", exc)
        self._stores.clear()
