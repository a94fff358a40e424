"""``scrapy crawl trending`` with GitHub's pages and READMEs served by a misbehaving server.

One crawl: the daily page answers 503 and 500 before the real page; the weekly page resets the
connection on every try; one README announces gzip on a plain body, another stalls past the
download timeout, a third comes after a 429. The crawl must finish on its own, keep everything
the good answers hold (the READMEs labelled gzip included, as sent), and count and log each
failure once with its URL.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TypeAlias

import pytest

from tests import read_jsonl, scrapy_crawl, shared_fixture
from tests.faultserver import FaultServer

RETRY_TIMES = 2
TIMEOUT = 3.0
TEXT = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
DAILY = "/trending?since=daily"
WEEKLY = "/trending?since=weekly"
#: Repositories of the daily page (a real GitHub Trending page, shared fixture) and their README.
READMES = {
    "/tinyhumansai/openhuman/HEAD/README.md": "/f/gzip-plain/r1",
    "/rohitg00/agentmemory/HEAD/README.md": f"/f/stall/r2?seconds={TIMEOUT * 3}",
    "/mattpocock/skills/HEAD/README.md": "/f/429/r3",
    "/CloakHQ/CloakBrowser/HEAD/README.md": "/f/gzip-plain/r4",
}
#: READMEs sent plain with ``Content-Encoding: gzip`` (two on one host: one log line).
GZIP_PLAIN = ["/tinyhumansai/openhuman/HEAD/README.md", "/CloakHQ/CloakBrowser/HEAD/README.md"]


Run: TypeAlias = tuple[subprocess.CompletedProcess[str], Path, FaultServer]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    tmp = tmp_path_factory.mktemp("trending-faults")
    daily = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html").read_bytes()
    pages = {
        "/robots.txt": (b"User-agent: *\nDisallow:\n", "text/plain"),
        DAILY: (daily, HTML),
        **{path: (f"# {path.split('/')[2]}\n\nA README.\n".encode(), TEXT) for path in READMES},
    }
    faults = {DAILY: "/f/burst/daily/2", WEEKLY: "/f/reset/weekly", **READMES}
    with FaultServer(pages=pages, faults=faults) as server:
        config = tmp / "config"
        config.mkdir()
        (config / "trending.yaml").write_text("periods: [daily, weekly]\ndevelopers: false\n")
        result = scrapy_crawl(
            "trending",
            settings={
                "GITHUB_WEB_URL": server.base_url,
                "GITHUB_RAW_URL": server.base_url,
                "GITHUB_API_URL": f"{server.base_url}/api",
                "HARVEST_DATA_DIR": tmp / "data",
                "HARVEST_CONFIG_DIR": config,
                "AUTOTHROTTLE_ENABLED": False,
                "DOWNLOAD_DELAY": 0,
                "DOWNLOAD_TIMEOUT": TIMEOUT,
                "RETRY_TIMES": RETRY_TIMES,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            timeout=90,
        )
        (tmp / "crawl.log").write_text(result.stderr, encoding="utf-8")
        yield result, tmp / "data" / "trending", server


def stat(result: subprocess.CompletedProcess[str], key: str) -> int:
    m = re.search(rf"'{re.escape(key)}': (\d+)", result.stderr)
    return int(m.group(1)) if m else 0


def lines_naming(result: subprocess.CompletedProcess[str], url: str) -> list[str]:
    """Warnings and errors naming ``url``, except Scrapy's one-off note on the first body that
    was cut short in the whole crawl ("Got data loss ... won't be shown in further requests")."""
    return [
        line
        for line in result.stderr.splitlines()
        if re.search(r"\] (WARNING|ERROR|CRITICAL): ", line) and url in line and "Got data loss" not in line
    ]


def test_finishes_with_what_the_good_answers_hold(crawl: Run) -> None:
    result, out, server = crawl
    assert result.returncode == 0, result.stderr[-3000:]
    assert "'finish_reason': 'finished'" in result.stderr
    assert "Traceback" not in result.stderr, result.stderr[-4000:]
    # 503, 500, then the page: all eleven daily repositories.
    assert server.count(DAILY) == 3
    repos = read_jsonl(out / "trending_repo.jsonl")
    assert sorted(r["rank"] for r in repos if r["since"] == "daily") == list(range(1, 12))
    # The README after a 429 and those labelled gzip but sent plain are collected, with the
    # exact text sent; the stalled one is not.
    docs = {d["repo"]: d for d in read_jsonl(out / "document.jsonl")}
    assert {"mattpocock/skills", "tinyhumansai/openhuman", "CloakHQ/CloakBrowser"} <= set(docs)
    assert "rohitg00/agentmemory" not in docs
    for path in GZIP_PLAIN:
        repo = "/".join(path.split("/")[1:3])
        stored = Path(docs[repo]["path"]).read_text(encoding="utf-8")
        assert stored.endswith(f"\n# {path.split('/')[2]}\n\nA README.\n"), stored


def test_mislabelled_gzip_is_counted_and_logged_once_per_host(crawl: Run) -> None:
    result, _, server = crawl
    assert stat(result, "harvest/compression/mislabelled") == len(GZIP_PLAIN)
    lines = [
        line
        for line in result.stderr.splitlines()
        if "[harvest.middlewares.compression]" in line and server.base_url in line
    ]
    assert len(lines) == 1 and "] INFO: " in lines[0], lines
    for path in GZIP_PLAIN:
        assert lines_naming(result, server.url(path)) == []
        assert server.count(path) == 1


def test_each_failure_is_counted_and_logged_once(crawl: Run) -> None:
    result, _, server = crawl
    assert server.count(WEEKLY) == RETRY_TIMES + 1
    assert stat(result, "harvest/trending/page_failed") == 1
    assert len(lines_naming(result, server.url(WEEKLY))) == 1, lines_naming(result, server.url(WEEKLY))
    stall_url = server.url(list(READMES)[1])
    assert stat(result, "harvest/trending/readme_failed") == 1
    assert server.count(list(READMES)[1]) == RETRY_TIMES + 1
    assert len(lines_naming(result, stall_url)) == 1, lines_naming(result, stall_url)
