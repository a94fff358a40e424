"""LanguagePipeline: every document gets the language of its text, detected (py3langid).

``language`` is the ISO 639-1 code (ISO 639-3 for a language without one) detected from the
Markdown text (code blocks and URLs left out), ``language_score`` the detector's probability;
``language_declared`` (what the page said, set by the spider) is kept as it is: a page declaring
``lang="en"`` over Portuguese text is common (themes ship with ``en``). Runs after the dedup
pipeline, so a dropped duplicate costs no detection. With extraction in worker processes the
workers detect it (``DocumentItem.language_detected``), off the crawl process: it was a sixth of that
process's CPU (BENCHMARKS.md, issue 34); the pipeline then only counts it.
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

    def __init__(self, stats: StatsCollector | None = None, *, warm: bool = True) -> None:
        self.stats = stats
        #: Load the model when the crawl opens (off when the extraction workers detect).
        self.warm = warm

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled by ``HARVEST_LANGUAGE_DETECT``."""
        if not crawler.settings.getbool("HARVEST_LANGUAGE_DETECT"):
            raise NotConfigured  # HARVEST_LANGUAGE_DETECT is off (bare: a message is logged at WARNING)
        if not capabilities(crawler.spider).writes_text:
            # Not one to load the model for (a second of CPU and tens of MB: BENCHMARKS.md,
            # "Issue 9") when no text comes.
            raise NotApplicable("this run yields no text (blogs with extraction off)")
        return cls(crawler.stats, warm=not capabilities(crawler.spider).detects_language)

    def open_spider(self) -> None:
        """Load the detector's model now (tens of MB), before the crawl starts, not on a first page.

        Not when the spider's extraction workers detect the language: the crawl process then
        needs the model only for a page extracted inline because its worker died.
        """
        if self.warm:
            warm_up()

    def process_item(self, item: Any) -> Any:
        """Detect the language of a document's text (other items pass untouched)."""
        if not isinstance(item, DocumentItem):
            return item
        if not item.language_detected:
            if item.language_score is not None:
                return item  # set by the spider
            guess = detect_language(item.content)
            item.language = guess.language if guess is not None else None
            item.language_score = guess.score if guess is not None else None
        # else detected by the extraction worker, from the same text (None: too little of it)
        if self.stats is not None:
            self.stats.inc_value(f"harvest/language/{'detected' if item.language else 'undetected'}")
        return item
