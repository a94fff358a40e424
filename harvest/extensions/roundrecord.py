"""Each ``scrapy crawl`` leaves its round record: the final stats, where the report reads rounds.

A fleet child's log (``logs/<spider>/<stamp>-N.log``) ends with Scrapy's stats dump, which the
report's crawl-health section reads. A plain ``scrapy crawl`` logs to the terminal: its rounds
were nowhere, and the section stayed empty for anyone not running the fleet. This extension
writes ``logs/<spider>/<stamp>-crawl-<pid>.stats.json`` when such a crawl closes (the newest
``HARVEST_FLEET_LOG_KEEP`` are kept, as the fleet keeps its logs). Under the fleet it is not
configured: the child's log already holds the dump.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals

from harvest.exceptions import NotApplicable
from harvest.extensions.fleet import attached
from harvest.util.files import atomic_write_text

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: The name a round record ends with (``harvest.report.health`` reads these).
RECORD_SUFFIX = ".stats.json"


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


class RoundRecord:
    """Writes the crawl's final stats under ``logs/<spider>/`` when it closes."""

    def __init__(self, crawler: Crawler, folder: Path, keep: int) -> None:
        self.crawler = crawler
        self.folder = folder
        self.keep = keep

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Not configured under the fleet (its child's log holds the stats) or with no spider name."""
        if attached() is not None:
            raise NotApplicable("the fleet child's log records the round")
        spider = getattr(crawler.spidercls, "name", None)
        if not spider:
            raise NotApplicable("a spider without a name has no logs/<spider>/ folder")
        folder = Path(crawler.settings.get("HARVEST_DATA_DIR")) / "logs" / spider
        ext = cls(crawler, folder, crawler.settings.getint("HARVEST_FLEET_LOG_KEEP"))
        # After Scrapy's CoreStats set finish_reason and elapsed time (spider_closed, same signal:
        # extensions connect after CoreStats, so they run after it).
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Write the record; a folder that cannot be written costs the record, not the crawl."""
        assert self.crawler.stats is not None
        stats = {k: _plain(v) for k, v in self.crawler.stats.get_stats().items()}
        stats.setdefault("finish_reason", reason)
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
        path = self.folder / f"{stamp}-crawl-{os.getpid()}{RECORD_SUFFIX}"
        try:
            atomic_write_text(path, json.dumps({"spider": spider.name, "stats": stats}, indent=1))
            records = sorted(self.folder.glob(f"*{RECORD_SUFFIX}"), key=lambda p: p.stat().st_mtime)
            for old in records[: max(0, len(records) - self.keep)]:
                old.unlink(missing_ok=True)
        except OSError as exc:
            logger.info(
                "The round record %s was not written (%s): the report will not show this round", path, exc
            )
