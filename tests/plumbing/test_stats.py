"""harvest's stats collector keeps Scrapy's MemoryStatsCollector's behaviour, call for call."""

from __future__ import annotations

from typing import Any

from scrapy.statscollectors import MemoryStatsCollector

from harvest.plumbing.stats import StatsCollector
from tests import get_crawler


def exercise(stats: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    stats.open_spider()
    stats.inc_value("harvest/dedup/stored")
    stats.inc_value("harvest/dedup/stored", 4)
    stats.inc_value("downloader/response_body_bytes", 10, start=100)
    stats.max_value("max", 3)
    stats.max_value("max", 2)
    stats.min_value("min", 3)
    stats.min_value("min", 5)
    stats.set_value("finish_reason", "finished")
    stats.inc_value("legacy", spider=None)  # the deprecated argument still works
    during = dict(stats.get_stats())
    assert stats.get_value("missing", "default") == "default"
    stats.close_spider(reason="finished")
    return during, dict(stats.spider_stats)


def test_same_results_as_scrapys_collector() -> None:
    crawler = get_crawler()
    ours, scrapys = exercise(StatsCollector(crawler)), exercise(MemoryStatsCollector(crawler))
    assert ours == scrapys
    assert ours[0]["harvest/dedup/stored"] == 5
    assert ours[0]["downloader/response_body_bytes"] == 110
    assert (ours[0]["max"], ours[0]["min"]) == (3, 3)


def test_the_project_uses_it() -> None:
    # What a crawl built from the project's settings collects its stats with (not the setting's text).
    crawler = get_crawler()
    assert isinstance(crawler.stats, StatsCollector)
    crawler.stats.inc_value("harvest/dedup/stored")
    assert crawler.stats.get_value("harvest/dedup/stored") == 1
