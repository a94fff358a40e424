"""Scrapy's duplicate filter with its fingerprints in the crawl's :class:`~harvest.state.seen.SeenSet`.

Scrapy's ``RFPDupeFilter`` keeps every fingerprint scheduled in a Python set: ~90 bytes a request,
for the whole run (45 MB a worker at a million requests). This one answers the same question
from the crawl process's seen set, whose memory does not grow with the crawl; with ``JOBDIR``
it still writes Scrapy's ``requests.seen`` file (and reads it back into the seen set).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.dupefilters import RFPDupeFilter
from scrapy.utils.job import job_dir

from harvest.state.seen import SeenSet

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from scrapy.utils.request import RequestFingerprinterProtocol
    from typing_extensions import Self


class SeenDupeFilter(RFPDupeFilter):
    """``DUPEFILTER_CLASS``: :class:`RFPDupeFilter` over a :class:`SeenSet` (see the module)."""

    def __init__(
        self,
        path: str | None = None,
        debug: bool = False,
        *,
        fingerprinter: RequestFingerprinterProtocol | None = None,
        seen: SeenSet | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        super().__init__(path, debug, fingerprinter=fingerprinter)
        self.seen = seen if seen is not None else SeenSet(None)
        self.stats = stats
        for fp in self._fingerprints:  # JOBDIR's requests.seen, read by RFPDupeFilter
            self.seen.add(fp)
        self._fingerprints = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The crawl process's seen set; ``JOBDIR`` and ``DUPEFILTER_DEBUG`` as Scrapy reads them."""
        return cls(
            job_dir(crawler.settings),
            crawler.settings.getbool("DUPEFILTER_DEBUG"),
            fingerprinter=crawler.request_fingerprinter,
            seen=SeenSet.from_crawler(crawler),
            stats=crawler.stats,
        )

    def request_seen(self, request: Request) -> bool:
        """Whether ``request`` was scheduled in this run; remembered if not."""
        fp = self._fingerprint(request)
        if self.seen.seen_or_add(fp):
            return True
        if self.file:
            self.file.write(len(fp).to_bytes(2, "big") + fp)
        return False

    def close(self, reason: str) -> None:
        """Close JOBDIR's file and the seen set's scratch database; say what it cost."""
        super().close(reason)
        if self.stats is not None:
            # Keys answered from disk, and of those the Bloom filter's false positives.
            self.stats.set_value("harvest/seen/keys", len(self.seen))
            self.stats.set_value("harvest/seen/disk_lookups", self.seen.disk_lookups)
            self.stats.set_value("harvest/seen/disk_misses", self.seen.disk_misses)
        self.seen.close()
