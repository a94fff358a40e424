"""The demo sites (``run_all.py --demo``): what they serve is what the spiders read, on loopback."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harvest.config.blogs import BlogsConfig
from harvest.config.github_search import GithubSearchConfig
from harvest.config.loader import load_config
from harvest.config.trending import TrendingConfig
from harvest.demo import DemoSites, write_demo_config
from harvest.parsers.discovery import parse_feed, parse_sitemap, sitemaps_from_robots
from harvest.parsers.trending import parse_trending_repos


@pytest.fixture(scope="module")
def sites() -> Iterator[DemoSites]:
    demo = DemoSites(latency=0).start()
    try:
        yield demo
    finally:
        demo.stop()


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - loopback
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def test_the_demo_configs_load_as_a_users_spiders_config(sites: DemoSites, tmp_path: Path) -> None:
    write_demo_config(tmp_path, sites)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blogs.yaml", "github_search.yaml", "trending.yaml"]
    trending = load_config(TrendingConfig, tmp_path, "trending", required=True)
    assert trending.languages == ["python", "rust"] and trending.readmes
    search = load_config(GithubSearchConfig, tmp_path, "github_search", required=True)
    assert [q.query for q in search.queries] == ["topic:web-scraping", "created:>=2020-01-01"]
    blogs = load_config(BlogsConfig, tmp_path, "blogs", required=True)
    (site,) = blogs.sites
    assert [str(u) for u in site.feeds] == [f"{sites.urls()['blog']}/atom.xml"]


def test_the_trending_page_lists_the_worlds_repositories_of_its_language(sites: DemoSites) -> None:
    url = f"{sites.urls()['web']}/trending/python?since=daily"
    status, _, body = fetch(url)
    assert status == 200
    rows = parse_trending_repos(body.decode("utf-8"), url)
    python = {r.full_name for r in sites.world.by_language("python")}
    assert rows and {r.repo for r in rows} <= python
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert fetch(f"{sites.urls()['web']}/trending/no-such-language")[0] == 404


def test_the_api_search_pages_through_link_headers_and_counts_down_its_rate_limit(sites: DemoSites) -> None:
    api = sites.urls()["api"]
    status, headers, body = fetch(f"{api}/search/repositories?q=created:%3E%3D2020-01-01&per_page=5")
    assert status == 200
    first: dict[str, Any] = json.loads(body)
    assert first["total_count"] > 5 and len(first["items"]) == 5
    assert 'rel="next"' in headers["link"]
    remaining = int(headers["x-ratelimit-remaining"])
    next_url = headers["link"].split(">", 1)[0].lstrip("<")
    status, headers, body = fetch(next_url)
    assert status == 200 and int(headers["x-ratelimit-remaining"]) == remaining - 1
    second = json.loads(body)
    assert {i["full_name"] for i in second["items"]}.isdisjoint(i["full_name"] for i in first["items"])
    # GitHub's 1,000-result cap: a page past it is refused, as GitHub does.
    assert fetch(f"{api}/search/repositories?q=created:%3E%3D2020-01-01&per_page=100&page=11")[0] == 422


def test_the_blog_publishes_every_post_in_its_feed_and_sitemap(sites: DemoSites) -> None:
    blog = sites.urls()["blog"]
    posts = {f"{blog}{p.path}" for p in sites.world.posts}
    _, _, robots = fetch(f"{blog}/robots.txt")
    assert sitemaps_from_robots(robots, blog) == [f"{blog}/sitemap.xml"]
    _, _, sitemap = fetch(f"{blog}/sitemap.xml")
    assert set(parse_sitemap(sitemap, blog).urls) == posts | {f"{blog}/", f"{blog}/blog/"}
    _, _, feed = fetch(f"{blog}/atom.xml")
    assert {e.url for e in parse_feed(feed, blog)} == posts
    status, _, page = fetch(next(iter(sorted(posts))))
    assert status == 200 and b"<article" in page
