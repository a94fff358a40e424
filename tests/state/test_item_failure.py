"""A pipeline that fails on an item (a bug, an unexpected exception) loses nothing for good.

Scrapy logs the exception and goes on; the page's request stays in the persisted frontier, not
noted as fetched, so the next run fetches it again and writes it. Through ``scrapy crawl blogs``
against the real Octopress blog, with a test pipeline that raises for one post.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler

import harvest.settings as project_settings
from harvest.state.sqlite import SqliteStateStore
from tests import PROJECT_ROOT, read_jsonl
from tests.servers import LoopbackServer, octo_crawl_command, octo_post_urls


class FailingPipeline:
    """Raises for the page whose URL is the ``TEST_FAIL_URL`` setting."""

    def __init__(self, url: str) -> None:
        self.url = url

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FailingPipeline:
        return cls(crawler.settings.get("TEST_FAIL_URL", ""))

    def process_item(self, item: Any) -> Any:
        if ItemAdapter(item).get("url") == self.url:
            raise RuntimeError(f"a bug in a pipeline, on {self.url}")
        return item


def _crawl(tmp_path: Path, base_url: str, **settings: object) -> subprocess.CompletedProcess[str]:
    command = octo_crawl_command(tmp_path, base_url, HARVEST_CRAWL_WORKERS=1, **settings)
    return subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)


def _written(tmp_path: Path) -> list[str]:
    return [p["url"] for p in read_jsonl(tmp_path / "data" / "blogs" / "page.jsonl")]


def test_a_page_whose_item_failed_is_fetched_again_by_the_next_run(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    post = sorted(octo_post_urls(octopress.base_url))[0]
    pipelines = {**project_settings.ITEM_PIPELINES, f"{__name__}.FailingPipeline": 760}
    first = _crawl(tmp_path, octopress.base_url, ITEM_PIPELINES=json.dumps(pipelines), TEST_FAIL_URL=post)
    assert first.returncode == 0, first.stderr[-3000:]
    assert f"a bug in a pipeline, on {post}" in first.stderr  # Scrapy's error, with the traceback
    assert re.search(r"'harvest/state/item_failed': 1\b", first.stderr), first.stderr[-3000:]
    assert post not in _written(tmp_path)
    store = SqliteStateStore.open(tmp_path / "data" / "state", "blogs", readonly=True)
    try:
        assert store.frontier_size() == 1, "the failed page's request must stay pending"
    finally:
        store.close()
    fetched_before = len(octopress.requests)

    second = _crawl(tmp_path, octopress.base_url)
    assert second.returncode == 0, second.stderr[-3000:]
    written = _written(tmp_path)
    assert post in written
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)
    again = [r.path for r in octopress.requests[fetched_before:]]
    assert post.removeprefix(octopress.base_url) in again
