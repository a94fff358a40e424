"""Why harvest.scale subclasses scrapy-redis 0.9.1, and that the subclasses fix it (Scrapy 2.19).

Each test pairs the stock scrapy-redis behaviour with ours. When a scrapy-redis release fixes
one, its "stock" assertion fails: that override can then go.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from scrapy import Request, Spider
from scrapy.exceptions import ScrapyDeprecationWarning
from scrapy.statscollectors import MemoryStatsCollector
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.scheduler import Scheduler

from harvest.scale.coordinator import RedisCoordinator
from harvest.scale.scheduler import RedisDupeFilter, RedisScheduler
from harvest.state.crawl import CrawlState
from tests import get_crawler
from tests.scale.redis_server import RedisServer

pytestmark = pytest.mark.redis


#: Component tests need no reactor (nothing is downloaded).
NO_REACTOR = {"TWISTED_REACTOR_ENABLED": False}


class CompatSpider(Spider):
    name = "compat"

    def parse(self, response: object) -> None:
        pass


@pytest.fixture
def crawler(redis_server: RedisServer, tmp_path: Path) -> Iterator[object]:
    crawler = get_crawler(
        CompatSpider, {**NO_REACTOR, "HARVEST_STATE_URL": redis_server.url, "HARVEST_DATA_DIR": tmp_path}
    )
    crawler.spider = CompatSpider.from_crawler(crawler)
    yield crawler
    state = CrawlState.from_crawler(crawler)
    if state is not None and state.store is not None:
        state.store.close()


def test_the_state_url_alone_switches_to_scrapy_redis(crawler: object, tmp_path: Path) -> None:
    settings = crawler.settings  # type: ignore[attr-defined]
    assert settings["SCHEDULER"] == "harvest.scale.scheduler.RedisScheduler"
    assert settings["DUPEFILTER_CLASS"] == "harvest.scale.scheduler.RedisDupeFilter"
    assert settings.getbool("SCHEDULER_PERSIST")
    assert RedisCoordinator in settings.getdict("EXTENSIONS")
    embedded = get_crawler(CompatSpider, {**NO_REACTOR, "HARVEST_DATA_DIR": tmp_path})
    assert embedded.settings["SCHEDULER"] == "harvest.crawl.frontier.FrontierScheduler"
    assert RedisCoordinator not in embedded.settings.getdict("EXTENSIONS")


def test_another_scheduler_with_redis_is_refused(redis_server: RedisServer, tmp_path: Path) -> None:
    with pytest.raises(Exception, match="cannot share a crawl through Redis"):
        get_crawler(
            CompatSpider,
            {
                **NO_REACTOR,
                "HARVEST_STATE_URL": redis_server.url,
                "HARVEST_DATA_DIR": tmp_path,
                "SCHEDULER": "my.own.Scheduler",
            },
        )


def test_scheduling_raises_no_deprecation_warning(crawler: object, redis_server: RedisServer) -> None:
    """scrapy-redis passes ``spider=`` to StatsCollector.inc_value (deprecated since Scrapy 2.14)."""
    stock = Scheduler(
        server=redis.Redis.from_url(redis_server.url),
        persist=True,
        dupefilter_cls="scrapy_redis.dupefilter.RFPDupeFilter",
    )
    # Scrapy's own collector warns (harvest's skips the shim that does: harvest/plumbing/stats.py).
    stats = MemoryStatsCollector(crawler)  # type: ignore[arg-type]
    stock.stats = stats
    stock.open(crawler.spider)  # type: ignore[attr-defined]
    with pytest.warns(ScrapyDeprecationWarning, match="inc_value"):
        stock.enqueue_request(Request("http://example.invalid/stock"))

    before = stats.get_value("scheduler/enqueued/redis")
    ours = RedisScheduler.from_crawler(crawler)  # type: ignore[arg-type]
    ours.stats = stats
    ours.open(crawler.spider)  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScrapyDeprecationWarning)
        assert ours.enqueue_request(Request("http://example.invalid/ours"))
        assert not ours.enqueue_request(Request("http://example.invalid/ours"))  # seen this round
        request = ours.next_request()
    assert request is not None and request.url == "http://example.invalid/ours"
    assert stats.get_value("scheduler/enqueued/redis") == before + 1


def test_fingerprints_are_scrapys_and_binary(crawler: object, redis_server: RedisServer) -> None:
    """scrapy-redis hashes method+URL+body itself (ignoring REQUEST_FINGERPRINTER_CLASS) as hex."""
    request = Request("http://example.invalid/a?b=1&a=2")
    stock = RFPDupeFilter.from_settings(crawler.settings)  # type: ignore[attr-defined]
    theirs = stock.request_fingerprint(request)
    assert isinstance(theirs, str) and len(theirs) == 40
    fingerprinter = crawler.request_fingerprinter  # type: ignore[attr-defined]
    assert bytes.fromhex(theirs) != fingerprinter.fingerprint(request)

    ours = RedisDupeFilter(stock.server, "harvest:compat:dupefilter", fingerprinter)
    assert ours.request_fingerprint(request) == fingerprinter.fingerprint(request)
    assert not ours.request_seen(request)
    assert ours.request_seen(Request("http://example.invalid/a?a=2&b=1"))  # same canonical URL
    # 20 bytes per seen URL in Redis, not 40 hex characters.
    assert [len(m) for m in ours.server.smembers("harvest:compat:dupefilter")] == [20]


def test_closing_one_worker_keeps_the_shared_fingerprints(crawler: object) -> None:
    """scrapy-redis's dupefilter deletes its key on close: the other workers would refetch all."""
    stock = RFPDupeFilter.from_settings(crawler.settings)  # type: ignore[attr-defined]
    fingerprinter = crawler.request_fingerprinter  # type: ignore[attr-defined]
    for dupefilter in (stock, RedisDupeFilter(stock.server, "harvest:compat:ours", fingerprinter)):
        dupefilter.request_seen(Request("http://example.invalid/"))
        dupefilter.close("finished")
    assert not stock.server.exists(stock.key)
    assert stock.server.exists("harvest:compat:ours")
