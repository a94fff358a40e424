"""StuckCrawlGuard: a crawl idle and alive is closed with reason "stuck" and says why."""

from __future__ import annotations

import re

from scrapy.utils.test import get_crawler

from harvest.extensions.stuck import CHECK, STUCK_REASON, StuckCrawlGuard
from tests import scrapy_crawl
from tests.servers import LoopbackServer, Reply

#: Guards against a hang only (the guard closes the crawl within a few seconds here).
HANG_GUARD = 120


def _crawl_two_pages(tmp_path, **settings):
    """Crawl /list/1 -> /a/1 with the crashsite spider and a fast stuck guard; the result."""
    server = LoopbackServer().start()
    server.add("/list/1", Reply(body='<ul><li class="row" data-n="1"><a href="/a/1">1</a></li></ul>'))
    server.add("/a/1", Reply(body="<h1>1</h1><article><p>One.</p></article>"))
    try:
        result = scrapy_crawl(
            "crashsite",
            settings={
                "SPIDER_MODULES": "tests.spiders_for_tests",
                "HARVEST_DATA_DIR": tmp_path / "data",
                "ROBOTSTXT_OBEY": False,
                "AUTOTHROTTLE_ENABLED": False,
                "HARVEST_CRAWL_STUCK_TIMEOUT": 2,
                "CLOSESPIDER_TIMEOUT": HANG_GUARD,
                **settings,
            },
            args={"base_url": server.base_url, "observed_at": "2024-01-01T00:00:00Z"},
            timeout=HANG_GUARD * 2,
        )
    finally:
        server.stop()
    return result, server.paths_requested()


def test_a_scheduler_that_hands_nothing_out_closes_the_crawl_as_stuck(tmp_path) -> None:
    scheduler = "tests.spiders_for_tests.stuck.AlwaysPendingScheduler"
    result, paths = _crawl_two_pages(tmp_path, SCHEDULER=scheduler)
    log = result.stderr
    # Everything there was to do was done first, then the guard closed the crawl.
    assert paths == ["/list/1", "/a/1"]
    assert f"'finish_reason': '{STUCK_REASON}'" in log, log[-3000:]
    assert "'harvest/crawl/stuck': 1" in log
    assert re.search(r"ERROR: Nothing sent, nothing in flight and no announced wait for \d+ s: its scheduler "
                     r"reports 1 pending request\(s\) but hands none out", log)  # fmt: skip
    assert result.returncode == 1  # not an OK close reason


def test_a_normal_crawl_is_not_touched(tmp_path) -> None:
    result, _ = _crawl_two_pages(tmp_path)
    assert "'finish_reason': 'finished'" in result.stderr and result.returncode == 0
    assert "harvest/crawl/stuck" not in result.stderr


def test_the_guard_looks_every_ten_seconds_or_its_timeout_and_still_reads_the_retired_setting() -> None:
    def guard(**settings: object) -> StuckCrawlGuard:
        return StuckCrawlGuard.from_crawler(get_crawler(settings_dict=settings))

    assert guard(HARVEST_CRAWL_STUCK_TIMEOUT=120).check_every == CHECK == 10.0
    assert guard(HARVEST_CRAWL_STUCK_TIMEOUT=2).check_every == 2
    # HARVEST_CRAWL_STUCK_CHECK is retired (now the constant): a value set under it is used for one release.
    assert guard(HARVEST_CRAWL_STUCK_TIMEOUT=120, HARVEST_CRAWL_STUCK_CHECK="0.5").check_every == 0.5
