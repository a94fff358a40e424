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
