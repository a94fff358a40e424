"""``scrapy crawl blogs`` end to end, as a user runs it, against sites served on 127.0.0.1.

- The real Octopress blog of shared/fixtures (its host http://1up4dev.org/ rewritten to the
  test server): every post found, through sitemap + feed + links and through links alone; titles
  and dates right; tag, category, author, archive and pagination pages not stored; a second
  round stores nothing again.
- A real MkDocs documentation site (Debian's mkdocs-doc): every page stored, code fenced.
- A JavaScript page: collected with ``render: true``, not without (needs Chromium).
- Traps and safety: calendars stop at the limits; a loopback server that is not a configured site
  is never contacted, through links or redirects; legacy encodings; an oversized page.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from harvest.middlewares.safety import is_public_address
from harvest.parsers.discovery import CONVENTIONAL_FEEDS, CONVENTIONAL_SITEMAPS, parse_feed
from tests import (
    OWN_FIXTURES,
    PROJECT_ROOT,
    read_committed_jsonl,
    read_jsonl,
    scrapy_crawl,
    shared_fixture,
    skip_or_fail,
    wait_for,
)
from tests.servers import (
    OCTO,
    OCTO_HOST,
    OCTO_POST,
    LoggedRequest,
    LoopbackServer,
    Reply,
    hold_posts_after,
    loopback_server,
    octo_post_urls,
    serve_tree,
)

MKDOCS = Path("/usr/share/doc/mkdocs/html")
_STAT_RE = re.compile(r"'((?:harvest|downloader|item)[^']*)': (\d+)")


def crawl(
    tmp_path: Path,
    sites: list[dict[str, Any]],
    *,
    settings: dict[str, Any] | None = None,
    args: dict[str, str] | None = None,
    timeout: float = 150,
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]], dict[str, int]]:
    """Run ``scrapy crawl blogs`` with ``sites`` as its YAML; return result, documents, stats."""
    config_dir = tmp_path / "config"
    config_dir.mkdir(exist_ok=True)
    (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": sites}), encoding="utf-8")
    data_dir = tmp_path / "data"
    result = scrapy_crawl(
        "blogs",
        settings={
            "HARVEST_CONFIG_DIR": config_dir,
            "HARVEST_DATA_DIR": data_dir,
            "AUTOTHROTTLE_ENABLED": False,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
            "CLOSESPIDER_TIMEOUT": timeout - 30,
            "HARVEST_BLOGS_EXTRACT_WORKERS": 2,
            **(settings or {}),
        },
        args=args,
        timeout=timeout,
    )
    stats = {k: int(v) for k, v in _STAT_RE.findall(result.stderr)}
    return result, read_jsonl(data_dir / "blogs" / "document.jsonl"), stats


def assert_finished(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stderr[-3000:]
    assert "'finish_reason': 'finished'" in result.stderr, result.stderr[-3000:]


def test_octopress_every_post_found_once(octopress: LoopbackServer, tmp_path: Path) -> None:
    base = octopress.base_url
    site = {"name": "1up4dev", "start_urls": [base + "/"], "feeds": [base + "/atom.xml"]}
    result, docs, stats = crawl(tmp_path, [site])
    assert_finished(result)
    expected = octo_post_urls(base)
    assert len(expected) == 109  # SOURCE.md
    assert {d["url"] for d in docs} == expected
    assert len(docs) == 109
    # Discovery went through every channel: robots.txt -> sitemap, the feed, and links.
    assert stats["harvest/blogs/sitemaps"] == 1
    assert stats["harvest/blogs/feeds"] >= 1
    assert stats["harvest/blogs/discovered/link"] > 0
    # Tag, category, author, archive and pagination pages were fetched, never stored.
    fetched = set(octopress.paths_requested())
    for listing in ("/categories/ruby/", "/author/rodrigopanachi/", "/blog/archives/", "/page/2/"):
        assert listing in fetched
    assert stats["harvest/blogs/listing_pages"] >= 40
    feed = {e.url: e for e in parse_feed(octopress.routes["/atom.xml"].encoded(), base)}  # type: ignore[union-attr]
    by_url = {d["url"]: d for d in docs}
    for url, entry in feed.items():
        assert by_url[url]["title"] == entry.title
        assert by_url[url]["published"] == (entry.published or "")[:10]
    for doc in docs:
        year, month = re.search(r"/(\d{4})/(\d{2})/", doc["url"]).groups()  # type: ignore[union-attr]
        assert doc["published"].startswith(f"{year}-{month}-")
        assert doc["site"] == "1up4dev" and doc["source"] == "blog" and doc["type"] == "document"
        assert doc["canonical_url"] == doc["url"]
        assert doc["path"].startswith(str(tmp_path / "data" / "blogs" / "1up4dev") + "/")
    one = by_url[base + "/2012/03/quick-tips-habilitando-auth-basic-nginx-e-como-gerar-senhas-htpasswd/"]
    text = Path(one["path"]).read_text(encoding="utf-8")
    assert text.startswith("---\n")
    assert "title: '[QuickTips] Habilitando auth_basic no Nginx e como gerar senhas do htpasswd'" in text
    assert "author: Rodrigo Panachi" in text
    assert '```\nlocation ~ / {\n        auth_basic            "Restricted";' in text
    # Links to other loopback services in the posts (localhost:4000, localhost:9292) are off-site.
    assert not any("localhost" in p for p in fetched)

    # Second round: listing pages, the sitemap and the feed are fetched again; the articles are
    # fresh (article_revisit) and not even requested; nothing is stored twice.
    before = len(octopress.requests)
    result2, docs2, stats2 = crawl(tmp_path, [site])
    assert_finished(result2)
    assert len(docs2) == 109
    assert stats2.get("harvest/dedup/stored", 0) == 0
    again = [r.path for r in octopress.requests[before:]]
    assert {"/", "/sitemap.xml", "/atom.xml", "/page/2/", "/blog/archives/"} <= set(again)
    assert not expected & {base + p for p in again}


def test_octopress_found_through_links_alone(tmp_path: Path) -> None:
    """No robots.txt, no sitemap, no feed: pagination, archives and post links still reach all."""
    root = shared_fixture(*OCTO)
    with loopback_server() as server:
        serve_tree(
            server, root, rewrite=OCTO_HOST, skip=frozenset({"/robots.txt", "/sitemap.xml", "/atom.xml"})
        )
        result, docs, stats = crawl(tmp_path, [{"name": "octo", "start_urls": [server.base_url + "/"]}])
        assert_finished(result)
        assert {d["url"] for d in docs} == octo_post_urls(server.base_url)
        assert "harvest/blogs/sitemaps" not in stats


def test_octopress_feed_alone_gives_its_entries(tmp_path: Path) -> None:
    """Only the feed, and no link followed from what it lists: exactly its 20 entries."""
    root = shared_fixture(*OCTO)
    with loopback_server() as server:
        serve_tree(server, root, rewrite=OCTO_HOST, skip=frozenset({"/robots.txt", "/sitemap.xml"}))
        site = {"name": "octo", "feeds": [server.base_url + "/atom.xml"], "max_depth": 1}
        result, docs, stats = crawl(tmp_path, [site])
        assert_finished(result)
        entries = parse_feed(server.routes["/atom.xml"].encoded(), server.base_url)  # type: ignore[union-attr]
        assert len(entries) == 20
        assert sorted(d["url"] for d in docs) == sorted(e.url for e in entries)


def test_docs_site_every_document_with_fenced_code(tmp_path: Path) -> None:
    if not (MKDOCS / "index.html").exists():
        skip_or_fail("mkdocs-doc is not installed (apt-get install mkdocs-doc)")
    with loopback_server() as server:
        serve_tree(server, MKDOCS, rewrite=b"https://www.mkdocs.org")
        site = {"name": "mkdocs", "start_urls": [server.base_url + "/index.html"], "source": "docs"}
        result, docs, stats = crawl(tmp_path, [site])
        assert_finished(result)
    # A folder URL and its index.html are one page (stored once, under whichever came first).
    by_path = {re.sub(r"/$", "/index.html", urlsplit(d["url"]).path): d for d in docs}
    assert len(by_path) == len(docs)
    pages = {
        "/" + p.relative_to(MKDOCS).as_posix()
        for p in MKDOCS.rglob("*.html")
        # 404.html is linked from nowhere; three pages are <meta refresh> stubs to moved ones.
        if p.name != "404.html" and 'http-equiv="refresh"' not in p.read_text(encoding="utf-8")
    }
    # The home page is never stored, under / or /index.html alike (the start page here), nor the
    # guides' index pages (a sentence over the list of their pages: listings, followed).
    pages.discard("/index.html")
    indexes = {"/user-guide/index.html", "/dev-guide/index.html"}
    assert len(pages) == 18 and indexes <= pages
    assert stats["harvest/blogs/home_pages"] >= 1
    assert set(by_path) == pages - indexes
    config = Path(by_path["/user-guide/configuration.html"]["path"]).read_text(encoding="utf-8")
    assert "```yaml\nsite_name: Marshmallow Generator\n```" in config
    assert config.count("```yaml\n") >= 30
    assert by_path["/user-guide/configuration.html"]["source"] == "docs"
    started = Path(by_path["/getting-started.html"]["path"]).read_text(encoding="utf-8")
    assert "```bash\n" in started or "```console\n" in started


def _browser_or_skip() -> None:
    from harvest.browser.install import find_browser

    if find_browser() is None:
        skip_or_fail("no Chromium found (apt-get install chromium, or playwright install chromium)")


@pytest.mark.playwright
@pytest.mark.parametrize("render", [True, False])
def test_javascript_page_needs_render(tmp_path: Path, render: bool) -> None:
    if render:
        _browser_or_skip()
    page = (OWN_FIXTURES / "blogs" / "js_article.html").read_bytes()
    with loopback_server() as server:
        server.add(
            "/", Reply(body=f'<html><body><a href="{server.base_url}/posts/keeper">post</a></body></html>')
        )
        server.add("/posts/keeper", Reply(body=page))
        site = {"name": "spa", "start_urls": [server.base_url + "/"], "render": render}
        result, docs, stats = crawl(tmp_path, [site], timeout=120)
        assert_finished(result)
        assert "/posts/keeper" in server.paths_requested()
    if render:
        assert [urlsplit(d["url"]).path for d in docs] == ["/posts/keeper"]
        text = Path(docs[0]["path"]).read_text(encoding="utf-8")
        assert "The lighthouse keeper counted seventeen ships" in text
        assert "blue ledger" in text
        assert docs[0]["title"] == "The keeper's ledger"  # the heading the script wrote
    else:
        # The HTML alone holds only "Loading…": nothing worth storing, and no browser started.
        # The site stored nothing because of it: one WARNING names the page and the fix.
        assert docs == []
        assert stats["harvest/blogs/needs_script"] == 1
        assert "playwright" not in result.stderr.lower()
        warnings = [line for line in result.stderr.splitlines() if " WARNING" in line]
        assert len(warnings) == 1, warnings
        assert "Site spa stored nothing" in warnings[0]
        assert f"({server.base_url}/posts/keeper)" in warnings[0]
        assert "render: true" in warnings[0]


def test_a_docsify_site_says_it_needs_a_browser(tmp_path: Path) -> None:
    """A Docsify site as ``docsify init`` writes it (docsify-cli 4.4.4): a mount point and scripts.

    Every page is the same shell (its Markdown is fetched and rendered by the script): without a
    browser nothing is stored, and the crawl ends with one WARNING saying to set ``render: true``;
    the exit code is 0 (a crawl that worked, of a site that needs another setting).
    """
    with loopback_server() as server:
        serve_tree(server, OWN_FIXTURES / "blogs" / "docsify")
        result, docs, stats = crawl(tmp_path, [{"name": "docs", "start_urls": [server.base_url + "/"]}])
    assert_finished(result)
    assert docs == []
    assert stats["harvest/blogs/needs_script"] == 1
    warnings = [line for line in result.stderr.splitlines() if " WARNING" in line]
    assert len(warnings) == 1, warnings
    assert "Site docs stored nothing: 1 of its pages show no text without JavaScript" in warnings[0]
    assert "render: true" in warnings[0]


def _calendar(request: LoggedRequest) -> Reply:
    date = parse_qs(urlsplit(request.path).query).get("date", ["2024-01-01"])[0]
    y, m, d = (int(x) for x in date.split("-"))
    links = [
        f"/calendar?date={y}-{m:02d}-{d + 1:02d}",
        f"/calendar?date={y}-{m + 1:02d}-{d:02d}",
        f"/calendar?date={y + 1}-{m:02d}-{d:02d}",
    ]
    body = "".join(f'<a href="{u}">next</a>' for u in links)
    return Reply(body=f"<html><body><h1>Events on {date}</h1>{body}</body></html>")


def _months(request: LoggedRequest) -> Reply:
    y, m = (int(x) for x in urlsplit(request.path).path.strip("/").split("/")[1:3])
    nxt = f"/events/{y + (m // 12)}/{m % 12 + 1:02d}/"
    return Reply(body=f'<html><body><h1>{y}-{m}</h1><a href="{nxt}">next month</a></body></html>')


def _loop(request: LoggedRequest) -> Reply:
    # A relative link to itself one level down: /loop/, /loop/loop/, /loop/loop/loop/, ...
    return Reply(body='<html><body><a href="loop/">again</a><a href="x/../loop/">and again</a></body></html>')


def test_traps_stop_at_the_limits(tmp_path: Path) -> None:
    with loopback_server() as server:
        server.add(
            "/",
            Reply(
                body='<html><body><a href="/calendar?date=2024-01-01">calendar</a>'
                '<a href="/events/2024/01/">events</a><a href="/loop/">loop</a>'
                # Longer than HARVEST_SAFETY_MAX_URL_LENGTH (2048), shorter than
                # Scrapy's own URLLENGTH_LIMIT (2083), so ours is what stops it.
                '<a href="/' + "long/" * 410 + '">long</a></body></html>'
            ),
        )
        server.add("/calendar", _calendar)
        for y in range(2024, 2040):
            for m in range(1, 13):
                server.add(f"/events/{y}/{m:02d}/", _months)
        server.routes.update({"/loop/" + "loop/" * i: _loop for i in range(30)})
        site = {"name": "traps", "start_urls": [server.base_url + "/"], "max_depth": 12, "max_pages": 60}
        result, docs, stats = crawl(
            tmp_path, [site], settings={"HARVEST_SAFETY_MAX_QUERY_VARIANTS": 25}, timeout=120
        )
        assert_finished(result)
        paths = server.paths_requested()
    calendar = [p for p in paths if p.startswith("/calendar")]
    events = [p for p in paths if p.startswith("/events/")]
    loops = [p for p in paths if p.startswith("/loop/")]
    assert len(calendar) == 25  # HARVEST_SAFETY_MAX_QUERY_VARIANTS
    assert stats["harvest/safety/query_variants"] > 0
    assert 1 <= len(events) <= 12  # max_depth: the chain of months ends there
    assert max(p.count("loop") for p in loops) == 3  # HARVEST_SAFETY_MAX_SEGMENT_REPEATS
    assert stats["harvest/safety/repeated_segments"] > 0
    assert not any(p.startswith("/long/") for p in paths)
    assert stats["harvest/safety/url_too_long"] == 1
    assert len([p for p in paths if p not in {"/robots.txt", "/sitemap.xml"}]) <= 60  # max_pages
    assert docs == []


@pytest.mark.parametrize("extraction", ["pool", "off"])
def test_killed_crawl_resumes_and_stores_each_post_once(
    octopress: LoopbackServer, tmp_path: Path, extraction: str
) -> None:
    """kill -9 in the middle of a round; the next run finishes it without duplicates.

    With extraction off every HTML page is written as fetched, to page.jsonl: once each as well.
    """
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    site = {"name": "octo", "start_urls": [octopress.base_url + "/"]}
    (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    data = tmp_path / "data"
    jsonl = data / "blogs" / ("page.jsonl" if extraction == "off" else "document.jsonl")
    cmd = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "blogs",
        "-s",
        f"HARVEST_CONFIG_DIR={config_dir}",
        "-s",
        f"HARVEST_DATA_DIR={data}",
        "-s",
        "AUTOTHROTTLE_ENABLED=False",
        "-s",
        "CONCURRENT_REQUESTS_PER_DOMAIN=2",
        "-s",
        "HARVEST_STATE_COMMIT_ITEMS=5",
        "-s",
        "CLOSESPIDER_TIMEOUT=60",
        "-s",
        f"HARVEST_BLOGS_EXTRACTION={extraction}",
        # One process (extraction off is partitioned by default): a kill of one of several
        # workers is tests/crawl/test_partition.py's.
        "-s",
        "HARVEST_CRAWL_WORKERS=1",
    ]
    # The kill must land half-way however fast this machine is: after 40 posts, the server holds
    # every further post until the kill (an event, not a delay).
    with hold_posts_after(octopress, 40):
        proc = subprocess.Popen(cmd, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            written = lambda: len(read_committed_jsonl(jsonl)) >= 30 or proc.poll() is not None  # noqa: E731
            wait_for(written, "30 lines written", guard=120)
            assert proc.poll() is None, "the crawl ended before 30 lines: the kill must land mid-crawl"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    first = read_committed_jsonl(jsonl)
    first_posts = [line for line in first if OCTO_POST.search(urlsplit(line["url"]).path)]
    assert 30 <= len(first) and len(first_posts) <= 40 < 109, "the crawl must be killed half-way"
    result, docs, stats = crawl(tmp_path, [site], settings={"HARVEST_BLOGS_EXTRACTION": extraction})
    assert_finished(result)
    if extraction == "off":
        pages = read_jsonl(jsonl)
        urls = [p["url"] for p in pages]
        assert len(urls) == len(set(urls)), "a page was written twice"
        assert octo_post_urls(octopress.base_url) <= set(urls)
        # Every HTML page the server answered is in the output (robots.txt, feeds, sitemaps aren't).
        served = {octopress.base_url + r.path for r in octopress.requests}
        assert set(urls) <= served
        assert {p["status"] for p in pages} == {200}
        for page in pages:
            assert hashlib.sha256(page["html"].encode("utf-8")).hexdigest() == page["body_sha256"]
            assert "<html" in page["html"].lower()
        assert docs == [], "extraction off writes no articles"
        return
    urls = [d["url"] for d in docs]
    assert set(urls) == octo_post_urls(octopress.base_url)
    assert len(urls) == len(set(urls)) == 109


def test_site_refresh_interval_skips_a_fresh_site(tmp_path: Path) -> None:
    with loopback_server() as server:
        server.add("/", Reply(body="<html><body><p>index</p></body></html>"))
        sites = [{"name": "slow", "start_urls": [server.base_url + "/"], "refresh_interval": "1h"}]
        assert_finished(crawl(tmp_path, sites)[0])
        assert "/" in server.paths_requested()
        before = len(server.requests)
        result, _, stats = crawl(tmp_path, sites)
        assert_finished(result)
        assert len(server.requests) == before  # crawled less than an hour ago: not touched
        assert stats["harvest/blogs/site_skipped_fresh"] == 1
        # Asking for the site by name crawls it anyway.
        assert_finished(crawl(tmp_path, sites, args={"site": "slow"})[0])
        assert len(server.requests) > before


def test_max_pages_per_site(tmp_path: Path) -> None:
    with loopback_server() as server:
        links = "".join(f'<a href="/posts/{i}">{i}</a>' for i in range(100))
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
        for i in range(100):
            server.add(
                f"/posts/{i}",
                Reply(
                    body=f"<html><body><article><h1>Post {i}</h1><p>{'word ' * 60}"
                    f"number {i}.</p></article></body></html>"
                ),
            )
        # Ad hoc: one URL from the command line, nothing from the YAML.
        result, docs, stats = crawl(tmp_path, [], args={"url": server.base_url + "/", "max_pages": "10"})
        assert_finished(result)
        # Not pages: not counted (robots.txt, the conventional sitemaps and feeds, TDMRep).
        lists = {"/robots.txt", "/.well-known/tdmrep.json", *CONVENTIONAL_SITEMAPS, *CONVENTIONAL_FEEDS}
        pages = [p for p in server.paths_requested() if p not in lists]
    assert len(pages) == 10
    assert stats["harvest/safety/max_pages"] > 0
    assert len(docs) == 9  # the start page counts too (robots.txt and sitemaps do not)
    assert {d["site"] for d in docs} == {f"127.0.0.1:{server.port}"}


@pytest.fixture
def other_service() -> Iterator[LoopbackServer]:
    """A loopback service that is not a configured site: it must never see a request."""
    with loopback_server() as server:
        server.add("/secret", Reply(body="<html><body>internal admin</body></html>"))
        yield server


def test_private_addresses_never_fetched(tmp_path: Path, other_service: LoopbackServer) -> None:
    port = other_service.port
    hostname = socket.gethostname()
    try:
        host_resolves_private = not is_public_address(socket.gethostbyname(hostname))
    except OSError:
        host_resolves_private = False
    hosts = [f"127.0.0.1:{port}", f"localhost:{port}"]
    if host_resolves_private:
        # A name with nothing private in it: only the resolved address gives it away.
        hosts.append(f"{hostname}:{port}")
    with loopback_server() as server:
        links = "".join(f'<a href="http://{h}/secret">x</a>' for h in hosts)
        links += "".join(f'<a href="/go/{i}">redirect {i}</a>' for i in range(len(hosts)))
        server.add("/", Reply(body=f"<html><body>{links}<a href='/posts/ok'>ok</a></body></html>"))
        for i, host in enumerate(hosts):
            server.add(f"/go/{i}", Reply(302, headers={"Location": f"http://{host}/secret-redirected"}))
        server.add(
            "/posts/ok",
            Reply(
                body="<html><body><article><h1>Fine</h1><p>"
                + "An ordinary post on the configured site. " * 5
                + "</p></article></body></html>"
            ),
        )
        site = {
            "name": "site",
            "start_urls": [server.base_url + "/"],
            # In scope by name, so only the address check stands between the crawl and them.
            "allowed_domains": ["127.0.0.1", "localhost", hostname.lower()],
        }
        result, docs, stats = crawl(tmp_path, [site])
        assert_finished(result)
        fetched = server.paths_requested()
    assert other_service.requests == []
    assert sorted(f"/go/{i}" for i in range(len(hosts))) == sorted(p for p in fetched if p.startswith("/go/"))
    # Each host refused twice: its link, and the redirect to it.
    assert stats["harvest/safety/private_address"] == 2 * len(hosts)
    assert [urlsplit(d["url"]).path for d in docs] == ["/posts/ok"]


def test_encodings_and_oversized_page(tmp_path: Path) -> None:
    fixtures = OWN_FIXTURES / "blogs"
    with loopback_server() as server:
        server.add(
            "/",
            Reply(
                body="<html><head><meta charset='utf-8'></head><body>"
                + "".join(f'<a href="/posts/{n}">{n}</a>' for n in ("latin1", "gbk", "sjis", "big", "日本語"))
                + "</body></html>"
            ),
        )
        # The charset only in the HTTP header; only in a <meta http-equiv>; only in <meta charset>.
        server.add(
            "/posts/latin1",
            Reply(body=(fixtures / "latin1.html").read_bytes(), content_type="text/html; charset=iso-8859-1"),
        )
        server.add("/posts/gbk", Reply(body=(fixtures / "gbk.html").read_bytes(), content_type="text/html"))
        server.add(
            "/posts/sjis", Reply(body=(fixtures / "shift_jis.html").read_bytes(), content_type="text/html")
        )
        server.add(
            "/posts/big",
            Reply(body="<html><body><article><p>" + "big page " * 40_000 + "</p></article></body></html>"),
        )
        # A non-ASCII path, linked as raw UTF-8: requested percent-encoded.
        server.add(
            "/posts/%E6%97%A5%E6%9C%AC%E8%AA%9E",
            Reply(
                body="<html><body><article><h1>日本語のパス</h1><p>"
                + "パスに日本語を含むページも正しく取得できます。" * 4
                + "</p></article></body></html>"
            ),
        )
        server.add(
            "/robots.txt", Reply(body="User-agent: *\nDisallow: /posts/hidden\n", content_type="text/plain")
        )
        server.add(
            "/posts/hidden",
            Reply(body="<html><body><article><p>" + "not for robots " * 20 + "</p></article></body></html>"),
        )
        site = {"name": "enc", "start_urls": [server.base_url + "/"]}
        result, docs, stats = crawl(tmp_path, [site], settings={"HARVEST_SAFETY_MAX_PAGE_BYTES": 100_000})
        assert_finished(result)
        assert "/posts/hidden" not in server.paths_requested()  # robots.txt is obeyed
    by_path = {urlsplit(d["url"]).path: d for d in docs}
    assert set(by_path) == {
        "/posts/latin1",
        "/posts/gbk",
        "/posts/sjis",
        "/posts/%E6%97%A5%E6%9C%AC%E8%AA%9E",
    }
    assert by_path["/posts/latin1"]["title"] == "Crème brûlée et façades naïves"
    assert by_path["/posts/gbk"]["title"] == "中文编码测试：网页抓取"
    assert by_path["/posts/sjis"]["title"] == "文字コードのテスト記事"
    gbk = Path(by_path["/posts/gbk"]["path"]).read_text(encoding="utf-8")
    assert "爬虫必须根据页面声明的字符集正确解码" in gbk
    latin = Path(by_path["/posts/latin1"]["path"]).read_text(encoding="utf-8")
    assert "les accents (é, è, à, ç, ô, ï, û)" in latin
    assert stats["harvest/safety/oversize"] == 1
    # One line says it (harvest's, naming the page and the limit), not Scrapy's as well.
    oversize = [line for line in result.stderr.splitlines() if "larger than" in line]
    assert len(oversize) == 1 and "Not fetching" in oversize[0], oversize


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"site": "nope"}, "no site named 'nope'"),
        ({"url": "not-a-url"}, "expected an absolute http(s) URL"),
        ({"url": "http://127.0.0.1:9/", "site": "x"}, "give one of them, not both"),
        ({"url": "http://127.0.0.1:9/", "render": "maybe"}, "-a render: expected true or false"),
        ({"colour": "blue"}, "unknown argument"),
    ],
)
def test_bad_arguments_exit_2_before_any_request(tmp_path: Path, args: dict[str, str], message: str) -> None:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "blogs.yaml").write_text("sites:\n  - name: one\n    start_urls: [http://127.0.0.1:9/]\n")
    result = scrapy_crawl(
        "blogs",
        settings={"HARVEST_CONFIG_DIR": config_dir, "HARVEST_DATA_DIR": tmp_path / "d"},
        args=args,
        timeout=60,
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "d").exists()


def test_bad_yaml_names_the_key(tmp_path: Path) -> None:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    (config_dir / "blogs.yaml").write_text(
        "sites:\n  - name: one\n    start_urls: [http://127.0.0.1:9/]\n    article_patterns: ['(']\n"
        "  - name: two\n    start_url: [http://127.0.0.1:9/]\n"
    )
    result = scrapy_crawl("blogs", settings={"HARVEST_CONFIG_DIR": config_dir}, timeout=60)
    assert result.returncode == 2
    assert "sites[0].article_patterns" in result.stderr and "not a valid regular expression" in result.stderr
    assert "sites[1].start_url" in result.stderr and "unknown key" in result.stderr


def test_a_link_with_a_bad_port_or_host_loses_nothing(tmp_path: Path) -> None:
    """``http://host:4000.`` (a port with a trailing dot, as a post of the Octopress blog writes
    one) in scope: the link is dropped and counted; the page holding it is stored. Links whose
    host does not parse (Vim's help writes netrw's syntax as links: ``ftp://[user@]host/path``;
    an unclosed ``http://[::1``), a canonical among them: dropped, and the page stored under
    its own address (each ended the page's parse with a spider error)."""
    post = "<p>" + "Run the server and open the page it prints, then read on. " * 6 + "</p>"
    hosts = (
        '<p>Read <a href="ftp://[user@]host/path">ftp://[user@]host/path</a>,'
        ' <a href="http://[user@]host[[:#]port]/path">that</a>, <a href="http://[::1">this</a>.</p>'
    )
    with loopback_server() as server:
        server.add(
            "/",
            Reply(
                body='<html><body><a href="/posts/odd/">odd</a> <a href="/posts/netrw/">n</a></body></html>'
            ),
        )
        server.add(
            "/posts/odd/",
            Reply(
                body=f"<html><body><article><h1>Odd link</h1>{post}"
                f'<p>See <a href="{server.base_url}./later">{server.base_url}.</a></p>'
                "</article></body></html>"
            ),
        )
        server.add(
            "/posts/netrw/",
            Reply(
                body='<html><head><link rel="canonical" href="http://[user@]host/netrw/"></head>'
                f"<body><article><h1>Netrw</h1>{post}{hosts}</article></body></html>"
            ),
        )
        site = {"name": "odd", "start_urls": [server.base_url + "/"]}
        result, docs, stats = crawl(tmp_path, [site])
    assert_finished(result)
    assert "Spider error" not in result.stderr and " ERROR: " not in result.stderr, result.stderr[-3000:]
    paths = sorted(urlsplit(d["url"]).path for d in docs)
    assert paths == ["/posts/netrw/", "/posts/odd/"], result.stderr[-6000:]
    assert stats["harvest/blogs/bad_url"] == 1


def test_a_feed_no_page_links_gives_the_posts_author(tmp_path: Path) -> None:
    """vuepress-theme-reco (held-out set): its ``/rss.xml`` is linked from no page; each entry's
    ``dc:creator`` is the only machine-readable author (the page shows it beside an icon).

    The start page declares no feed, so the conventional feed paths are tried; the feed's author
    goes to each post the page names none for. Before: the feed was never read, no author.
    """
    root = OWN_FIXTURES / "heldout" / "vuepress-reco" / "site"
    with loopback_server() as server:
        serve_tree(server, root, rewrite=b"https://vuepress-reco.heldout.example")
        site = {"name": "reco", "start_urls": [server.base_url + "/"]}
        result, docs, stats = crawl(tmp_path, [site])
        assert_finished(result)
        probed = set(server.paths_requested())
    assert {"/feed.xml", "/rss.xml"} <= probed
    assert stats["harvest/blogs/feeds"] == 1
    assert len(docs) == 17
    assert {d.get("author") for d in docs} == {"Ana Lima"}
    assert " WARNING" not in result.stderr


def test_a_page_too_big_to_parse_is_judged_by_its_beginning(tmp_path: Path) -> None:
    """A docs site's table of contents of 2.1 MB (Python's ``contents.html`` is 2.5 MB): over what
    the crawl process parses, it was judged by its hints alone and stored, a document of link
    fragments. Its first 2,000,000 characters are its contents: a listing. A page as big that
    begins with its text is still stored (the extraction reads all of it)."""
    # Each of 300 pages and its sections, as Sphinx writes its master toctree (fewer pages than
    # the crawl's cap of new links a page).
    items = "".join(
        f'<li class="toctree-l2 toctree-entry"><a class="reference internal"'
        f' href="/docs/page-{n // 30}.html#section-{n}">'
        f'<span class="section-number">{n // 30}.{n % 30}. </span>'
        f"Section {n % 30} of chapter {n // 30} of the guide to the library, its modules and their use"
        "</a></li>\n"
        for n in range(9_000)
    )
    contents = (
        "<html><head><title>Contents</title></head><body><div role='main'><h1>Contents</h1>"
        f"<ul>{items}</ul></div></body></html>"
    )
    prose = (
        "<p>" + "A long chapter of the manual, every word of it worth keeping for the dataset. " * 30 + "</p>"
    )
    chapter = (
        "<html><head><title>The whole manual</title></head><body><main><h1>The whole manual</h1>"
        f"{prose * 1150}</main></body></html>"
    )
    assert len(contents) > 2_100_000 and len(chapter) > 2_100_000
    links = '<a href="/docs/contents.html">Contents</a> <a href="/docs/manual.html">Manual</a>'
    with loopback_server() as server:
        server.add(
            "/docs/",
            Reply(body="<html><body>" + links + "</body></html>"),
        )
        server.add("/docs/contents.html", Reply(body=contents))
        server.add("/docs/manual.html", Reply(body=chapter))
        site = {"name": "big", "start_urls": [server.base_url + "/docs/"], "source": "docs", "max_pages": 5}
        result, docs, stats = crawl(tmp_path, [site], settings={"HARVEST_SAFETY_MAX_PAGE_BYTES": 10_000_000})
        assert_finished(result)
    stored = {urlsplit(d["url"]).path for d in docs}
    assert stored == {"/docs/manual.html"}, stored
    assert stats["harvest/blogs/classified_by_beginning"] == 2, stats
    assert stats["harvest/blogs/listing_by_content"] >= 1
