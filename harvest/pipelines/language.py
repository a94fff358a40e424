"""LanguagePipeline: every document gets the language of its text, detected (py3langid).

``language`` is the ISO 639-1 code (ISO 639-3 for a language without one) detected from the
Markdown text (code blocks and URLs left out), ``language_score`` the detector's probability;
``language_declared`` (what the page said, set by the spider) is kept as it is: a page declaring
``lang="en"`` over Portuguese text is common (themes ship with ``en``). Runs after the dedup
pipeline, so a dropped duplicate costs no detection.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from harvest.exceptions import NotApplicable
from harvest.items import DocumentItem
from harvest.parsers.language import detect_language, warm_up
from harvest.plumbing.capabilities import capabilities

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class LanguagePipeline:
    """Sets ``language`` and ``language_score`` of each :class:`DocumentItem` from its text."""

    def __init__(self, stats: StatsCollector | None = None) -> None:
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled by ``HARVEST_LANGUAGE_DETECT``."""
        if not crawler.settings.getbool("HARVEST_LANGUAGE_DETECT"):
            raise NotConfigured  # HARVEST_LANGUAGE_DETECT is off (bare: a message is logged at WARNING)
        if not capabilities(crawler.spider).writes_text:
            # Not one to load the model for (a second of CPU and tens of MB: BENCHMARKS.md,
            # "Issue 9") when no text comes.
            raise NotApplicable("this run yields no text (blogs with extraction off)")
        return cls(crawler.stats)

    def open_spider(self) -> None:
        """Load the detector's model now (tens of MB), before the crawl starts, not on a first page."""
        warm_up()

    def process_item(self, item: Any) -> Any:
        """Detect the language of a document's text (other items pass untouched)."""
        if not isinstance(item, DocumentItem) or item.language_score is not None:
            return item
        guess = detect_language(item.content)
        if guess is None:
            item.language = None
            if self.stats is not None:
                self.stats.inc_value("harvest/language/undetected")
            return item
        item.language = guess.language
        item.language_score = guess.score
        if self.stats is not None:
            self.stats.inc_value("harvest/language/detected")
        return item
