"""``scrapy crawl blogs`` against a site whose pages misbehave in every way tests/faultserver.py knows.

One crawl covers every fault (one subprocess is far cheaper than one per fault); the assertions
then go fault by fault: the crawl finished on its own, the good pages around the bad ones were
collected, every page that could not be collected is counted in the stats and logged once with
its URL, and memory stayed bounded (the 50 MB bodies dropped at the page size limit, the
100,000-link page followed only up to ``HARVEST_SAFETY_MAX_LINKS_PER_PAGE``).
"""

from __future__ import annotations

import gzip
import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from harvest import settings as project_settings
from tests import read_jsonl, scrapy_crawl
from tests.faultserver import FaultServer, article_html
from tests.peakmemory import PEAK, STARTUP

RETRY_TIMES = 2
TIMEOUT = 3.0
MAX_LINKS = 300
GOOD = [f"/f/good/g{i}" for i in range(5)]
#: Articles that misbehave at first and then recover within the retries.
RECOVER = ["/f/burst/b1/2", "/f/429/q1?retry_after=1", "/f/429/q2"]
#: Plain articles announced as ``Content-Encoding: gzip`` (two on one host: logged once). Not
#: named g<i>: good/g1 has the same text, and the second copy would be dropped as a duplicate.
GZIP_PLAIN = ["/f/gzip-plain/m1", "/f/gzip-plain/m2"]
#: Articles served with a bad encoding or charset: collected all the same, text intact.
ODD_BODIES = [
    *GZIP_PLAIN,
    "/f/gzip-double/d2",
    "/f/charset-wrong/c1",
    "/f/charset-missing/c2",
    "/f/invalid-utf8/u1",
]
#: Real gzip, cut in half, with a Content-Length that matches what is sent (see _Server).
GZIP_CUT = "/f/gzip-cut/z1"
#: Pages that fail for good after the retries (each request retried RETRY_TIMES times).
RETRIED_AWAY = [
    "/f/burst/b2/50",
    "/f/reset/x1",
    "/f/short/s1",
    f"/f/stall/t1?seconds={TIMEOUT * 3}",
    GZIP_CUT,
]
#: Pages that fail at once, without retries.
FAIL_ONCE = ["/f/chain/0"]
OVERSIZE = ["/f/huge/h1", "/f/huge-stream/h2"]
LINK_FARM = "/f/links/100000"
LOOP = "/f/loop/a"
_STAT_RE = re.compile(r"'([a-z_]+/[^']*|memusage/[a-z]+|finish_reason)': ([^,\n}]+)")


class _Server(FaultServer):
    """tests/faultserver.py plus ``gzip-cut/<name>``: a real gzip stream cut in half, sent whole."""

    def fault(
        self, h: BaseHTTPRequestHandler, count: int, target: str, own: tuple[bytes, str] | None
    ) -> None:
        if target.startswith("/f/gzip-cut/"):
            body = gzip.compress(article_html(target.rsplit("/", 1)[1]).encode())
            return self._send(h, 200, body[: len(body) // 2], {"Content-Encoding": "gzip"})
        return super().fault(h, count, target, own)


@dataclass
class Crawl:
    result: subprocess.CompletedProcess[str]
    seconds: float
    docs: dict[str, dict[str, Any]]
    stats: dict[str, Any]
    server: FaultServer
    closed: FaultServer
    data_dir: Path

    def log_lines(self, url_path: str, level: str = "") -> list[str]:
        """Log lines naming ``url_path`` on this server (at ``level`` or above when given)."""
        levels = _levels(level)
        url = self.server.url(url_path)
        return [
            line
            for line in self.result.stderr.splitlines()
            if re.search(rf"\] ({'|'.join(levels)}): ", line) and (url in line)
        ]


def _levels(level: str) -> tuple[str, ...]:
    order = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
    return order[order.index(level) :] if level else order


def _stats(stderr: str) -> dict[str, Any]:
    dump = stderr[stderr.rfind("Dumping Scrapy stats") :]
    out: dict[str, Any] = {}
    for key, value in _STAT_RE.findall(dump):
        value = value.strip()
        out[key] = int(value) if value.isdigit() else value.strip("'")
    return out


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawl]:
    tmp = tmp_path_factory.mktemp("blogs-faults")
    links = [*GOOD, *RECOVER, *ODD_BODIES, *RETRIED_AWAY, *FAIL_ONCE, *OVERSIZE, LINK_FARM, LOOP]
    server = _Server(index_links=links, feeds=["/f/feed-bad.xml"], sitemaps=["/f/sitemap-bad.xml"])
    closed = FaultServer(robots_disallow_all=True, index_links=GOOD)
    with server, closed:
        sites = [
            {
                "name": "faults",
                "start_urls": [server.url("/")],
                # Everything under /f/ is an article except the link farm's tiny pages.
                "article_patterns": ["/f/(?!plain|links)"],
            },
            {"name": "closed", "start_urls": [closed.url("/")]},
        ]
        config = tmp / "config"
        config.mkdir()
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": sites}), encoding="utf-8")
        started = time.monotonic()
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config,
                "HARVEST_DATA_DIR": tmp / "data",
                "AUTOTHROTTLE_ENABLED": False,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
                "DOWNLOAD_TIMEOUT": TIMEOUT,
                "RETRY_TIMES": RETRY_TIMES,
                "HARVEST_SAFETY_MAX_LINKS_PER_PAGE": MAX_LINKS,
                "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
                # The crawl process's peak RSS (VmHWM) in its stats: every peak, however short.
                "EXTENSIONS": {**project_settings.EXTENSIONS, "tests.peakmemory.PeakMemory": 0},
                "CLOSESPIDER_TIMEOUT": 80,
            },
            timeout=110,
        )
        seconds = time.monotonic() - started
        (tmp / "crawl.log").write_text(result.stderr, encoding="utf-8")  # for a failing test's reader
        docs = {urlsplit(d["url"]).path: d for d in read_jsonl(tmp / "data" / "blogs" / "document.jsonl")}
        yield Crawl(result, seconds, docs, _stats(result.stderr), server, closed, tmp / "data")


def test_the_crawl_finishes_on_its_own(crawl: Crawl) -> None:
    assert crawl.result.returncode == 0, crawl.result.stderr[-3000:]
    assert crawl.stats["finish_reason"] == "finished", crawl.result.stderr[-3000:]
    assert "Traceback" not in crawl.result.stderr, crawl.result.stderr[-5000:]
    assert crawl.stats["harvest/frontier/pending"] == 0


def test_good_and_recovering_pages_are_collected(crawl: Crawl) -> None:
    for path in [*GOOD, *RECOVER]:
        path = urlsplit(path).path
        assert path in crawl.docs, path
        assert Path(crawl.docs[path]["path"]).exists()
    # 503, 500 then 200: three requests, one article; 429 once, then 200.
    assert crawl.server.count("/f/burst/b1/2") == 3
    assert crawl.server.count("/f/429/q2") == 2
    assert crawl.docs["/f/burst/b1/2"]["title"] == "b1"


def test_odd_encodings_are_collected_with_their_text(crawl: Crawl) -> None:
    for path in ODD_BODIES:
        assert path in crawl.docs, path
    text = {p: Path(crawl.docs[p]["path"]).read_text(encoding="utf-8") for p in ODD_BODIES}

    def paragraph(name: str) -> str:
        return (
            f"This is the article called {name}. It has enough words to be extracted as the main "
            "content of the page by a boilerplate remover, which needs a few sentences to decide. "
            "Reliability matters: a crawler must keep going when servers misbehave around it."
        )

    def body(path: str) -> str:
        return text[path].split("\n---\n", 1)[1]

    # Announced as gzip, sent plain: used as it is, every word. (The page repeats its long
    # paragraph; the extractor keeps one copy, as for every page of this server.)
    for path in GZIP_PLAIN:
        name = path.rsplit("/", 1)[1]
        assert body(path) == f"\n# {name}\n\n{paragraph(name)}\n", body(path)
    # Gzipped twice, announced once: decoded twice, not stored as binary.
    assert body("/f/gzip-double/d2") == f"\n# d2\n\n{paragraph('d2')}\n"
    accents = "Café crème brûlée, naïve façade: déjà vu à Zürich."
    # No charset anywhere: UTF-8 recognised from the bytes.
    assert body("/f/charset-missing/c2") == f"\n# c2\n\n{accents}\n\n{accents}\n"
    # Latin-1 bytes announced as UTF-8 by the header alone: read as the Latin-1 they are.
    assert body("/f/charset-wrong/c1") == f"\n# c1\n\n{accents}\n\n{accents}\n"
    assert crawl.stats["harvest/blogs/misdeclared_charset"] == 1
    # UTF-8 (header and <meta> agree) with two bytes that are never UTF-8: those two, and only
    # those, read as U+FFFD, as a browser shows them.
    broken = paragraph("u1").replace("enough", "en\ufffd\ufffdough")
    assert body("/f/invalid-utf8/u1") == f"\n# u1\n\n{broken}\n"


def test_mislabelled_gzip_is_counted_and_logged_once_per_host(crawl: Crawl) -> None:
    assert crawl.stats["harvest/compression/mislabelled"] == len(GZIP_PLAIN)
    lines = [
        line
        for line in crawl.result.stderr.splitlines()
        if "[harvest.middlewares.compression]" in line and crawl.server.base_url in line
    ]
    assert len(lines) == 1, lines
    assert "] INFO: " in lines[0] and "Content-Encoding: gzip but is not encoded" in lines[0]
    for path in GZIP_PLAIN:
        assert crawl.server.count(path) == 1
        assert crawl.log_lines(path, "WARNING") == []


def test_harvest_decompression_replaces_scrapys(crawl: Crawl) -> None:
    log = crawl.result.stderr
    enabled = log[log.index("Enabled downloader middlewares:") : log.index("Enabled spider middlewares:")]
    assert "'harvest.middlewares.compression.HttpCompressionMiddleware'" in enabled
    assert "scrapy.downloadermiddlewares.httpcompression" not in enabled
    # At Scrapy's place: after RetryMiddleware (550), before RedirectMiddleware (600).
    order = re.findall(r"'([\w.]+)'", enabled)
    position = order.index("harvest.middlewares.compression.HttpCompressionMiddleware")
    assert order.index("scrapy.downloadermiddlewares.retry.RetryMiddleware") < position
    assert position < order.index("harvest.plumbing.lean.RedirectMiddleware")


@pytest.mark.parametrize("path", RETRIED_AWAY)
def test_a_page_failing_for_good_is_retried_counted_and_logged_once(crawl: Crawl, path: str) -> None:
    assert urlsplit(path).path not in crawl.docs
    assert crawl.server.count(path) == RETRY_TIMES + 1
    errors = crawl.log_lines(path, "ERROR")
    assert len(errors) == 1, crawl.log_lines(path)
    assert "Gave up retrying" in errors[0]
    # Nothing else about it above INFO, except Scrapy's one-off note on the first truncated body.
    others = [line for line in crawl.log_lines(path, "WARNING") if line not in errors]
    assert all("Got data loss" in line for line in others), others


def test_failures_are_counted(crawl: Crawl) -> None:
    stats = crawl.stats
    assert stats["retry/max_reached"] == len(RETRIED_AWAY)
    # The cut gzip: retried like a cut connection, then given up (not stored as half a page).
    assert stats["harvest/blogs/failed/TruncatedBody"] == 1
    assert stats["harvest/compression/truncated"] == RETRY_TIMES + 1
    assert stats["harvest/blogs/failed/HttpError"] == 1  # the burst that never recovers
    assert stats["harvest/blogs/failed/DownloadTimeoutError"] == 1
    assert stats["harvest/blogs/failed/ResponseDataLossError"] == 2  # reset, short
    assert "harvest/blogs/failed/BadGzipFile" not in stats
    assert stats["harvest/blogs/failed/too_many_redirects"] == 1
    assert stats["harvest/safety/oversize"] == len(OVERSIZE)
    assert stats["harvest/safety/links_per_page"] == 1


@pytest.mark.parametrize("path", FAIL_ONCE)
def test_a_page_that_cannot_be_read_is_logged_once(crawl: Crawl, path: str) -> None:
    assert path not in crawl.docs
    warnings = crawl.log_lines(path, "WARNING")
    assert len(warnings) == 1, crawl.log_lines(path)


def test_redirects_end(crawl: Crawl) -> None:
    # A chain of 30 stops at REDIRECT_MAX_TIMES (10): the first hop and ten more.
    assert crawl.server.count("/f/chain/11") == 0
    assert crawl.server.count("/f/chain/10") == 1
    # A loop ends at the first URL seen again (Scrapy's duplicate filter).
    assert crawl.server.count("/f/loop/a") == 1
    assert crawl.server.count("/f/loop/b") == 1
    assert crawl.stats["dupefilter/filtered"] >= 1


@pytest.mark.parametrize("path", OVERSIZE)
def test_huge_bodies_are_dropped_at_the_size_limit(crawl: Crawl, path: str) -> None:
    assert path not in crawl.docs
    assert crawl.server.count(path) == 1  # a size refusal is not retried
    warnings = crawl.log_lines(path, "WARNING")
    assert any("larger than" in line for line in warnings), crawl.log_lines(path)


def test_memory_stays_bounded(crawl: Crawl) -> None:
    # Two 50 MB bodies and a 100,000-link page (~30 MB of parsing here) went by: the crawl
    # process's peak RSS (its VmHWM, which no short peak escapes) grew by less than one of those
    # bodies over the peak it had reached when the engine started.
    startup, peak = crawl.stats[STARTUP], crawl.stats[PEAK]
    assert 0 < startup <= peak, (startup, peak)
    growth = peak - startup
    assert growth < 48 * 1024 * 1024, growth


def test_a_link_farm_is_followed_only_up_to_the_cap(crawl: Crawl) -> None:
    farm_pages = [p for p in crawl.server.requested() if p.startswith("/f/plain/")]
    assert len(farm_pages) == MAX_LINKS
    # The frontier held the cap, not 100,000 requests.
    assert crawl.stats["harvest/frontier/persisted"] < MAX_LINKS + 100
    assert len(crawl.log_lines(LINK_FARM, "WARNING")) == 1


def test_malformed_sitemap_and_feed_give_what_they_can(crawl: Crawl) -> None:
    # Each holds one complete entry before the XML breaks off.
    assert "/f/good/s1" in crawl.docs
    assert "/f/good/r1" in crawl.docs
    assert crawl.server.count("/f/sitemap-bad.xml") == 1
    assert crawl.server.count("/f/feed-bad.xml") == 1


def test_robots_disallowing_everything_is_obeyed(crawl: Crawl) -> None:
    assert crawl.closed.requested() == {"/robots.txt"}
    assert crawl.stats["robotstxt/forbidden"] >= 1
    assert not [d for d in crawl.docs.values() if d["site"] == "closed"]


def test_the_crawl_takes_what_the_timeouts_allow(crawl: Crawl) -> None:
    # Bounded by the retries of the stalled page, not by the server: it never answers in time.
    assert crawl.seconds < 60, crawl.seconds
