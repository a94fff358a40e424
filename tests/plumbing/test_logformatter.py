"""The log formatter: per-page DEBUG messages exist at DEBUG and are not built otherwise."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from scrapy import Request, Spider
from scrapy.http import HtmlResponse

from harvest.plumbing.logformatter import HarvestLogFormatter
from tests import get_crawler, scrapy_crawl
from tests.servers import Reply, loopback_server


@pytest.mark.parametrize(
    ("settings", "debug"),
    [
        ({}, False),  # the project's LOG_LEVEL, INFO
        ({"LOG_LEVEL": "DEBUG"}, True),
        ({"LOG_LEVEL": "debug"}, True),
        ({"LOG_LEVEL": logging.DEBUG}, True),
        ({"LOG_LEVEL": "WARNING"}, False),
        ({"LOG_LEVEL": "DEBUG", "LOG_ENABLED": False}, False),
    ],
)
def test_messages_are_built_only_when_logged(settings: dict[str, object], debug: bool) -> None:
    crawler = get_crawler(settings=settings)
    formatter = HarvestLogFormatter.from_crawler(crawler)
    request = Request("https://example.org/post")
    response = HtmlResponse(request.url, body=b"<html></html>", request=request)
    spider = Spider.from_crawler(crawler, "t")
    crawled = formatter.crawled(request, response, spider)
    scraped = formatter.scraped({"url": request.url}, response, spider)
    assert (crawled is not None) is debug
    assert (scraped is not None) is debug
    # Messages Scrapy logs above DEBUG are untouched.
    assert formatter.dropped({"url": request.url}, Exception("dup"), response, spider) is not None


def test_debug_log_of_a_real_crawl_still_names_every_page(tmp_path: Path) -> None:
    with loopback_server() as server:
        server.add("/", Reply(body='<html><body><a href="/2024/01/post">p</a></body></html>'))
        server.add("/2024/01/post", Reply(body="<html><body><p>text</p></body></html>"))
        # One process: one stats dump to read (extraction off is partitioned by default).
        base = {"HARVEST_BLOGS_EXTRACTION": "off", "AUTOTHROTTLE_ENABLED": False, "HARVEST_CRAWL_WORKERS": 1}
        url = server.base_url + "/"
        debug = scrapy_crawl(
            "blogs",
            settings={**base, "LOG_LEVEL": "DEBUG", "HARVEST_DATA_DIR": tmp_path / "debug"},
            args={"url": url},
        )
        assert debug.returncode == 0, debug.stderr[-2000:]
        assert f"Crawled (200) <GET {server.base_url}/2024/01/post>" in debug.stderr
        assert f"Scraped from <200 {server.base_url}/2024/01/post>" in debug.stderr
        info = scrapy_crawl(
            "blogs", settings={**base, "HARVEST_DATA_DIR": tmp_path / "info"}, args={"url": url}
        )
        assert info.returncode == 0, info.stderr[-2000:]
        assert "'item_scraped_count': 2" in info.stderr
        assert "Crawled (200)" not in info.stderr
