"""A small site crawler for the crash and revisit tests (the real spiders are tested elsewhere).

The site (built by ``tests.test_crash.build_site``): listing pages ``/list/<p>`` chained by a
"next" link, each row a repository-like entry (yields a ``repo`` item) linking to an article
``/a/<n>`` (a document); some articles link to a deeper article ``/deep/<n>`` that nothing else
links to, so it is only reachable through the frontier once its parent is stored.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response

from harvest.config.args import SpiderArgs
from harvest.fingerprints import content_hash, utc_now
from harvest.items import DocumentItem, RepoItem
from harvest.spiders.base import HarvestSpider
from harvest.util.paths import safe_name

logger = logging.getLogger(__name__)


class CrashSiteArgs(SpiderArgs):
    """``-a base_url=... -a observed_at=... [-a ttl=seconds]``."""

    base_url: str | None = None
    observed_at: str | None = None
    ttl: str | None = None


class CrashSiteSpider(HarvestSpider):
    """Crawls the crash-test site: ``-a base_url=... -a observed_at=... [-a ttl=seconds]``."""

    name = "crashsite"
    args_model = CrashSiteArgs

    def _document_meta(self) -> dict[str, Any]:
        ttl = self.spider_arguments.get("ttl")
        return {"harvest_kind": "document", "harvest_ttl": float(ttl) if ttl else None}

    async def start(self) -> AsyncIterator[Any]:
        base = self.spider_arguments["base_url"]
        yield scrapy.Request(f"{base}/list/1", callback=self.parse_list, meta={"harvest_kind": "listing"})

    def parse_list(self, response: Response) -> Iterator[Any]:
        observed_at = self.spider_arguments.get("observed_at") or utc_now()
        for row in response.css("li.row"):
            n = int(row.attrib["data-n"])
            href = row.css("a").attrib["href"]  # every row links its article, as data-n above
            yield RepoItem(
                repo=f"site/repo-{n}",
                url=response.urljoin(href),
                description=f"row {n}",
                language=None,
                topics=[],
                stars=n,
                forks=0,
                open_issues=0,
                created_at=None,
                pushed_at=None,
                default_branch="main",
                archived=False,
                fork=False,
                query="crashsite",
                observed_at=observed_at,
            )
            yield response.follow(href, callback=self.parse_article, meta=self._document_meta())
        next_page = response.css("a.next::attr(href)").get()
        if next_page:
            yield response.follow(next_page, callback=self.parse_list, meta={"harvest_kind": "listing"})

    def parse_article(self, response: Response) -> Iterator[Any]:
        text = "\n\n".join(response.css("article p::text").getall())
        yield DocumentItem(
            url=response.url,
            title=response.css("h1::text").get(),
            path=f"articles/{safe_name(response.url, suffix='.md')}",
            content_hash=content_hash(text),
            fetched_at=utc_now(),
            source=self.name,
            content=text,
        )
        for href in response.css("a.deep::attr(href)").getall():
            # Copies the harvest_* meta on purpose: the frontier key must not leak into children.
            meta = {k: v for k, v in response.meta.items() if k.startswith("harvest_")}
            yield response.follow(href, callback=self.parse_article, meta=meta)
