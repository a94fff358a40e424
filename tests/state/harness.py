"""Run the state components (dedup, output, revisit) as a crawl would, without a reactor.

A :class:`Run` is one crawl run of one spider: it builds the real components through their
``from_crawler`` from the project settings plus overrides, feeds items through the item
pipelines in order and sends the same signals the scraper sends, and closes like the engine
(output pipeline first, then ``spider_closed``). What a killed run leaves behind (lines written
after the last commit, a cut last line) is written by the tests themselves, byte for byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.http import Request, Response
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.request import RequestFingerprinter

import harvest.settings as project_settings
from harvest.fingerprints import content_hash
from harvest.items import DocumentItem, RepoItem, TrendingRepoItem
from harvest.pipelines.dedup import DedupPipeline
from harvest.pipelines.output import OutputPipeline
from harvest.state.crawl import CrawlState
from harvest.util.paths import safe_name


def make_crawler(data_dir: Path, spider: str = "spider", *, reset: bool = False, **settings: Any) -> Crawler:
    merged = Settings()
    merged.setmodule(project_settings, priority="project")
    merged.update({"HARVEST_DATA_DIR": str(data_dir), **settings}, priority="cmdline")

    class TestSpider(Spider):
        name = spider
        reset = False  # what HarvestSpider sets from -a reset=1

    crawler = Crawler(TestSpider, merged)
    crawler.stats = MemoryStatsCollector(crawler)
    crawler.request_fingerprinter = build_from_crawler(RequestFingerprinter, crawler)
    test_spider = TestSpider.from_crawler(crawler)
    test_spider.reset = reset
    crawler.spider = test_spider
    return crawler


class Run:
    """One run of one spider over the real state components (see the module docstring)."""

    def __init__(
        self, data_dir: Path, spider: str = "spider", *, reset: bool = False, **settings: Any
    ) -> None:
        self.crawler = make_crawler(data_dir, spider, reset=reset, **settings)
        state = CrawlState.from_crawler(self.crawler)
        assert state is not None
        self.state = state
        self.dedup = DedupPipeline.from_crawler(self.crawler)
        self.output = OutputPipeline.from_crawler(self.crawler)
        self.dedup.open_spider()
        self.output.open_spider()
        self.drops: list[str] = []

    @property
    def stats(self) -> dict[str, Any]:
        assert self.crawler.stats is not None
        return self.crawler.stats.get_stats()

    def feed(self, item: Any, response: Response | None = None) -> bool:
        """Send ``item`` through dedup and output; True if it was stored."""
        if response is not None:
            self.state.item_started(item, response)
        try:
            self.dedup.process_item(item)
            self.output.process_item(item)
        except DropItem as exc:
            self.drops.append(str(exc))
            self.crawler.signals.send_catch_log(
                signals.item_dropped, item=item, response=response, spider=self.crawler.spider, exception=exc
            )
            return False
        self.crawler.signals.send_catch_log(
            signals.item_scraped, item=item, response=response, spider=self.crawler.spider
        )
        return True

    def close(self, reason: str = "finished") -> None:
        self.output.close_spider()
        self.crawler.signals.send_catch_log(signals.spider_closed, spider=self.crawler.spider, reason=reason)


def document(url: str, text: str, *, source: str = "test") -> DocumentItem:
    return DocumentItem(
        url=url,
        title=url.rsplit("/", 1)[-1],
        path=f"docs/{safe_name(url, suffix='.md')}",
        content_hash=content_hash(text),
        fetched_at="2024-01-01T00:00:00Z",
        source=source,
        content=text,
    )


def trending(
    repo: str, observed_at: str, *, since: str = "daily", language: str | None = None
) -> TrendingRepoItem:
    return TrendingRepoItem(
        repo=repo,
        url=f"https://github.com/{repo}",
        description=None,
        language=None,
        stars=1,
        forks=1,
        period_stars=1,
        since=since,
        language_filter=language,
        rank=1,
        built_by=[],
        observed_at=observed_at,
        source_url="https://github.com/trending",
    )


def search_repo(repo: str, query: str, observed_at: str) -> RepoItem:
    return RepoItem(
        repo=repo,
        url=f"https://github.com/{repo}",
        description=None,
        language=None,
        topics=[],
        stars=1,
        forks=0,
        open_issues=0,
        created_at=None,
        pushed_at=None,
        default_branch="main",
        archived=False,
        fork=False,
        query=query,
        observed_at=observed_at,
    )


def response_for(url: str, **meta: Any) -> Response:
    request = Request(url, meta=meta)
    return Response(url, request=request)
