"""OptOutPipeline: a document whose site opted out of AI use keeps its metadata, not its text.

With ``HARVEST_RESPECT_OPTOUT`` (default on), a :class:`DocumentItem` whose ``rights`` say
``opted_out`` (TDMRep ``tdm-reservation: 1``, or a ``noai`` robots directive: see
:mod:`harvest.parsers.rights`) is stored with an empty body and ``text_withheld = True``. Its
``content_hash`` stays the hash of the text, so dedup and revisits behave as for any document.
Runs after the near-duplicate pipeline and before the output pipeline.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from harvest.items import DocumentItem

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class OptOutPipeline:
    """Withholds the text of opted-out documents (see the module docstring)."""

    def __init__(self, stats: StatsCollector | None = None) -> None:
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled by ``HARVEST_RESPECT_OPTOUT``."""
        if not crawler.settings.getbool("HARVEST_RESPECT_OPTOUT"):
            raise NotConfigured  # HARVEST_RESPECT_OPTOUT off (bare: a message is logged at WARNING)
        return cls(crawler.stats)

    def process_item(self, item: Any) -> Any:
        """Empty ``content`` and set ``text_withheld`` when the document opted out."""
        if isinstance(item, DocumentItem) and item.rights is not None and item.rights.opted_out:
            item.content = ""
            item.text_withheld = True
            logger.debug("Text of %s withheld: the site opted out (%s)", item.url, item.rights)
            if self.stats is not None:
                self.stats.inc_value("harvest/rights/withheld")
        return item
