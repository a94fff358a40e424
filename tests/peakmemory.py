"""A Scrapy extension for tests: the crawl process's own peak RSS, from /proc/self/status.

``-s EXTENSIONS=...`` with ``tests.peakmemory.PeakMemory`` adds two stats (bytes):
``tests/rss_hwm_startup`` (VmHWM when the engine starts) and ``tests/rss_hwm_peak`` (VmHWM when
the spider closes, after the downloader, scraper and scheduler closed).

VmHWM is the kernel's high-water mark of this process's resident set: one reading at the end
sees every peak, however short, where sampling RSS misses what comes and goes between samples.
It is not Scrapy's ``memusage/*`` (``getrusage(RUSAGE_SELF).ru_maxrss``): on Linux ru_maxrss also
keeps the high-water mark of the image the process was exec'd from, here the pytest process
that spawned the crawl, so a crawl smaller than its test runner would show no growth at all.
``getrusage(RUSAGE_CHILDREN)`` in the test process has the same floor and, besides, the largest
of every child it ever waited for. Linux only (/proc).
"""

from __future__ import annotations

from pathlib import Path

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.statscollectors import StatsCollector

STARTUP = "tests/rss_hwm_startup"
PEAK = "tests/rss_hwm_peak"


def status_bytes(field: str, status: Path = Path("/proc/self/status")) -> int:
    """A ``kB`` field of a /proc/<pid>/status file (``VmHWM``, ``VmRSS``), in bytes."""
    for line in status.read_text(encoding="ascii").splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return int(value.split()[0]) * 1024
    raise LookupError(f"no {field} in {status}")


class PeakMemory:
    """Puts the process's VmHWM in the stats at engine start and at spider close."""

    def __init__(self, stats: StatsCollector) -> None:
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PeakMemory:
        assert crawler.stats is not None
        ext = cls(crawler.stats)
        crawler.signals.connect(ext.engine_started, signal=signals.engine_started)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def engine_started(self) -> None:
        self.stats.set_value(STARTUP, status_bytes("VmHWM"))

    def spider_closed(self) -> None:
        self.stats.set_value(PEAK, status_bytes("VmHWM"))


RESET_RSS = "tests/rss_at_engine_start"
CRAWL_PEAK = "tests/rss_hwm_since_engine_start"


class CrawlPeakMemory:
    """The crawl's own peak: VmHWM reset when the engine starts, read when the spider closes.

    Writing ``5`` to /proc/self/clear_refs sets the high-water mark to the current RSS (Linux
    4.0+), so the peak read at the end is the crawl's, not one of start-up (imports, forking the
    extraction pool) that :class:`PeakMemory`'s reading at engine start would hide a smaller
    growth under. Stats: ``tests/rss_at_engine_start`` (VmRSS right after the reset) and
    ``tests/rss_hwm_since_engine_start`` (bytes); neither is set where the reset fails.
    """

    def __init__(self, stats: StatsCollector) -> None:
        self.stats = stats
        self.reset = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlPeakMemory:
        assert crawler.stats is not None
        ext = cls(crawler.stats)
        crawler.signals.connect(ext.engine_started, signal=signals.engine_started)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def engine_started(self) -> None:
        try:
            Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
        except OSError:
            return
        self.reset = True
        self.stats.set_value(RESET_RSS, status_bytes("VmRSS"))

    def spider_closed(self) -> None:
        if self.reset:
            self.stats.set_value(CRAWL_PEAK, status_bytes("VmHWM"))
