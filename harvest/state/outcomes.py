"""An item's outcome (stored, dropped, failed in a pipeline): its claim ends, its request counts it down.

:class:`ItemOutcomes` follows Scrapy's ``item_scraped`` / ``item_dropped`` / ``item_error``
signals for :class:`harvest.state.crawl.CrawlState`: the item's claim is released (its identity
stays in the batch when it was stored), its request is told (done once all its items are through)
and then one commit point, so the item's identity and its request's retirement commit together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harvest.state.claims import ContentClaims
from harvest.state.commits import CommitPoints
from harvest.state.completion import RequestCompletion

if TYPE_CHECKING:
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector
    from twisted.python.failure import Failure


class ItemOutcomes:
    """The crawl's item signals, applied to the claims, the request completion and the commit points."""

    def __init__(
        self,
        claims: ContentClaims,
        completion: RequestCompletion,
        commits: CommitPoints,
        stats: StatsCollector | None = None,
    ) -> None:
        self.claims = claims
        self.completion = completion
        self.commits = commits
        self.stats = stats

    def item_done(
        self, item: Any, response: Response | Failure | None, *, stored: bool, failed: bool = False
    ) -> None:
        """An item's outcome is known: release its claim, count it against its request, commit point."""
        # Both parts first, then one commit point: the item's identity and its request's
        # retirement commit together.
        self.claims.release(item, stored=stored and self.commits.store is not None)
        self.completion.item_finished(item, response, failed=failed)
        self.commits.maybe_commit()

    def item_scraped(self, item: Any, response: Response | Failure | None = None, **_: Any) -> None:
        """``item_scraped``: the item was stored."""
        self.item_done(item, response, stored=True)

    def item_dropped(self, item: Any, response: Response | Failure | None = None, **_: Any) -> None:
        """``item_dropped``: a pipeline dropped it (a duplicate, filtered)."""
        self.item_done(item, response, stored=False)

    def item_error(self, item: Any, response: Response | Failure | None = None, **_: Any) -> None:
        """``item_error``: a pipeline failed on it; its request stays pending, fetched again next run."""
        # Scrapy logged the exception.
        if self.stats is not None:
            self.stats.inc_value("harvest/state/item_failed")
        self.item_done(item, response, stored=False, failed=True)
