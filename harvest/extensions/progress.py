"""``scrapy crawl``'s progress line and end summary, as the fleet shows its own.

Scrapy logs one LogStats line a minute (pages and items per minute: no pending count, no
estimate) and ends with a 40-line stats dict that says nothing of where the items went. Outside
the fleet (whose table does this), :class:`CrawlProgress` logs every
``HARVEST_PROGRESS_INTERVAL`` seconds one line: pages, items, requests pending (in the scheduler
and the downloader), errors, rate-limit waits, and at the current page rate the time the pending
requests would take (an estimate: new links add to them). When the crawl closes it logs a short
summary: how it ended and in what time, the items written per file with the file's path, what
was skipped and why. On a terminal Scrapy's stats dump moves to DEBUG
(:class:`harvest.stats.StatsCollector`); piped or redirected it stays at INFO for the scripts that
read it. Every stat is also in the round record (``harvest.extensions.roundrecord``).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from twisted.internet import task

from harvest.exceptions import NotApplicable
from harvest.extensions.fleet import attached
from harvest.util.units import format_duration

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: What a crawl skipped, and why, in the summary: (stat, words).
SKIPPED = (
    ("harvest/dedup/url_seen", "already stored"),
    ("harvest/dedup/content_seen", "same text stored from another URL"),
    ("harvest/dedup/near_duplicate", "near-duplicates"),
    ("harvest/rights/withheld", "texts withheld (the site opted out)"),
    ("harvest/revisit/fresh", "pages still fresh (not due for a revisit)"),
    ("harvest/revisit/not_modified", "pages unchanged (304 Not Modified)"),
)
#: Stats of the output pipeline: lines written per file (harvest.pipelines.output).
WRITTEN = "harvest/output/written/"


def plural(n: int, word: str) -> str:
    """``1 item``, ``2 items``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


class CrawlProgress:
    """Logs a progress line every ``interval`` seconds and a summary at the end (see the module)."""

    def __init__(self, crawler: Crawler, interval: float, data_dir: Path) -> None:
        self.crawler = crawler
        self.interval = interval
        self.data_dir = data_dir
        self.task: task.LoopingCall | None = None
        self.started = time.monotonic()
        self._last: tuple[float, int] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Not in the fleet (its table shows progress); the line off with an interval of 0."""
        if attached() is not None:
            raise NotApplicable("the fleet shows progress in its table")
        ext = cls(
            crawler,
            crawler.settings.getfloat("HARVEST_PROGRESS_INTERVAL"),
            Path(crawler.settings.get("HARVEST_DATA_DIR")),
        )
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def _stat(self, key: str) -> int:
        stats = self.crawler.stats
        return int(stats.get_value(key, 0) or 0) if stats is not None else 0

    def pending(self) -> int:
        """Requests waiting in the scheduler plus those in the downloader."""
        engine = self.crawler.engine
        if engine is None:
            return 0
        slot = getattr(engine, "_slot", None)
        scheduler: Any = getattr(slot, "scheduler", None)
        try:
            queued = len(scheduler) if scheduler is not None else 0
        except TypeError:  # a scheduler without a length
            queued = 0
        return queued + len(getattr(engine.downloader, "active", ()))

    def spider_opened(self, spider: Spider) -> None:
        """Start the progress line."""
        self.started = time.monotonic()
        if self.interval > 0:
            self.task = task.LoopingCall(self.log_progress)
            self.task.start(self.interval, now=False)

    def progress_line(self) -> str:
        """``42 pages, 40 items, 120 pending, 0 errors, 0 rate-limit waits; ~3m left at 40 pages/min``."""
        now = time.monotonic()
        pages = self._stat("response_received_count")
        pending = self.pending()
        line = (
            f"Progress: {plural(pages, 'page')}, {plural(self._stat('item_scraped_count'), 'item')}, "
            f"{pending:,} pending, {plural(self._stat('log_count/ERROR'), 'error')}, "
            f"{plural(self._stat('harvest/github/waits'), 'rate-limit wait')}"
        )
        if self._last is not None:
            then, pages_then = self._last
            rate = (pages - pages_then) / max(now - then, 1e-6)
            if rate > 0 and pending:
                line += (
                    f"; ~{format_duration(pending / rate)} for the pending requests at "
                    f"{rate * 60:,.0f} pages/min (new links add to them)"
                )
        self._last = (now, pages)
        return line

    def log_progress(self) -> None:
        """One progress line."""
        logger.info("%s", self.progress_line())

    def summary(self, spider: Spider, reason: str) -> str:
        """How the crawl ended, the items per file with its path, what was skipped and why."""
        stats = self.crawler.stats
        assert stats is not None
        took = format_duration(time.monotonic() - self.started)
        written = {k[len(WRITTEN) :]: int(v) for k, v in stats.get_stats().items() if k.startswith(WRITTEN)}
        folder = self.data_dir / str(spider.name)
        total = sum(written.values())
        parts = [f"Crawl of {spider.name} ended ({reason}) after {took}"]
        if written:
            files = ", ".join(f"{n:,} to {folder / name}" for name, n in sorted(written.items()))
            parts.append(f"wrote {plural(total, 'item')}: {files}")
        else:
            parts.append(f"wrote no item (output folder {folder})")
        skipped = [f"{self._stat(key):,} {words}" for key, words in SKIPPED if self._stat(key)]
        if skipped:
            parts.append("skipped: " + ", ".join(skipped))
        errors = self._stat("log_count/ERROR")
        parts.append(plural(errors, "error") + (" (see the log above)" if errors else ""))
        return "; ".join(parts)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Stop the line; log the summary."""
        if self.task is not None and self.task.running:
            self.task.stop()
        logger.info("%s", self.summary(spider, reason))
