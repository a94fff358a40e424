"""The GitHub spiders stay on the configured GitHub hosts, whatever the server points them to.

End to end: ``scrapy crawl github_search`` against the GitHub emulator (tests/github_emulator.py)
turned hostile, with a *canary* on 127.0.0.2 (a real listener recording every connection, as in
tests/test_address_guard.py): one search's first page answers a 302 to the canary, another's
``Link: rel="next"`` points at it, and every README answers a 302 to it; and ``scrapy crawl
trending``, one of whose Trending pages and one API README redirect to it. The canary must see
nothing, each refusal is counted, the log names the canary once, and nothing the canary would
answer reaches the output. Then the rule itself, as a component.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
import yaml
from scrapy import Request, Spider
from scrapy.exceptions import NotConfigured

from harvest.github.hosts import GithubHostGuardMiddleware, OffHostRequest
from tests import get_crawler, read_jsonl, scrapy_crawl
from tests.github_emulator import GithubEmulator, Limits
from tests.servers import LoggedRequest, LoopbackServer, Reply
from tests.spiders.test_trending import ROBOTS, daily_2026
from tests.spiders.test_trending import crawl as trending_crawl
from tests.spiders.test_trending import stat as trending_stat
from tests.test_address_guard import Canary, assert_canary_records

TOKEN = "ghp_HostGuardT0kenThatMustStayHome000001"
TOPIC = "topic:web-scraping"
#: The canary answers this; none of it may reach a log line.
CANARY_BODY = "internal secret"

pytestmark = pytest.mark.timeout(200)


class HostileEmulator(GithubEmulator):
    """The emulator, sending the crawler to ``target``: a 302 for Go, a next page for Rust, READMEs."""

    target = ""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Paths answered with a 302 to the target.
        self.sent_away: list[str] = []

    def resolve(self, request: LoggedRequest) -> Reply:
        parts = urlsplit(request.path)
        query = dict(parse_qsl(parts.query)).get("q", "")
        if parts.path == "/search/repositories" and "language:go" in query:
            self.sent_away.append(parts.path)
            return Reply(status=302, headers={"Location": f"{self.target}/redirected"}, body="")
        if parts.path.endswith("/readme"):
            self.sent_away.append(parts.path)
            return Reply(status=302, headers={"Location": f"{self.target}/readme{parts.path}"}, body="")
        reply = super().resolve(request)
        link = reply.headers.get("Link")
        if link:
            away = f'<{self.target}/linked>; rel="next"'
            reply.headers["Link"] = re.sub(r'<[^>]*>; rel="next"', away, link)
        return reply


@pytest.fixture
def canary() -> Iterator[Canary]:
    listener = Canary()
    try:
        yield listener
    finally:
        listener.close()


@pytest.fixture
def hostile(canary: Canary) -> Iterator[HostileEmulator]:
    emu = HostileEmulator(tokens={TOKEN}, limits=Limits(search_limit=30, search_window=2.0))
    emu.target = f"http://127.0.0.2:{canary.port}"
    emu.start()
    try:
        yield emu
    finally:
        emu.stop()


def _crawl(emu: GithubEmulator, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "config"
    config.mkdir()
    queries = [
        {"query": f"{TOPIC} language:go", "readmes": False},
        {"query": f"{TOPIC} language:rust", "max_results": 150, "readmes": True},
    ]
    (config / "github_search.yaml").write_text(yaml.safe_dump({"queries": queries}), encoding="utf-8")
    settings: dict[str, Any] = {
        "GITHUB_API_URL": emu.base_url,
        "HARVEST_CONFIG_DIR": str(config),
        "HARVEST_DATA_DIR": str(tmp_path / "data"),
        "HARVEST_GITHUB_PER_PAGE": 100,
        "HARVEST_GITHUB_RESET_MARGIN": 0.2,
        "HARVEST_GITHUB_BACKOFF_BASE": 0.5,
        "CLOSESPIDER_TIMEOUT": 120,
    }
    return scrapy_crawl("github_search", settings=settings, env={"GITHUB_TOKEN": TOKEN}, timeout=170)


def _stat(result: subprocess.CompletedProcess[str], key: str) -> int:
    m = re.search(rf"'harvest/{re.escape(key)}': (\d+)", result.stderr)
    return int(m.group(1)) if m else 0


def test_github_search_never_follows_the_api_off_its_host(
    hostile: HostileEmulator, canary: Canary, tmp_path: Path
) -> None:
    rust = hostile.matching(f"{TOPIC} language:rust")
    assert len(rust) > 100  # so the first page names a next page
    result = _crawl(hostile, tmp_path)
    output = result.stdout + result.stderr
    # Nothing reached the canary: not the 302, not the Link, not a README's redirect.
    assert canary.hits == [], canary.hits
    # The searches' own pages did: the Go search's first page, the Rust search's first page,
    # and one README request per stored repository.
    paths = [urlsplit(e.path).path for e in hostile.events] + hostile.sent_away
    assert paths.count("/search/repositories") == 2, paths
    repos = read_jsonl(tmp_path / "data" / "github_search" / "repo.jsonl")
    assert len(repos) == 100  # the Rust search's first page, stored; the rest was off-host
    readmes = sum(p.endswith("/readme") for p in paths)
    assert readmes == 100, paths
    # Every refusal counted: the redirected search page, the linked page, each README redirect.
    assert _stat(result, "github/refused/off_host") == 2 + readmes, result.stderr[-3000:]
    assert _stat(result, "github_search/readme_failed") == readmes
    # One log line names the canary; nothing it would have said, and no token, is in the output.
    canary_lines = [line for line in output.splitlines() if f"127.0.0.2:{canary.port}" in line]
    assert len(canary_lines) == 1, canary_lines
    assert "Refused http://127.0.0.2:" in canary_lines[0]
    assert "not a configured GitHub host" in canary_lines[0]
    assert "Traceback" not in output
    assert CANARY_BODY not in output and TOKEN not in output
    # Both searches failed for it, and the crawl says so in its exit code.
    assert _stat(result, "github_search/queries_failed") == 2
    assert result.returncode == 1, result.stderr[-3000:]
    assert "'finish_reason': 'query_failed'" in result.stderr
    assert_canary_records(canary)


def test_trending_never_follows_github_off_its_hosts(
    server: LoopbackServer, canary: Canary, tmp_path: Path
) -> None:
    """A Trending page and an API README that redirect to the canary: refused, the round goes on."""
    away = f"http://127.0.0.2:{canary.port}"
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending?since=daily", daily_2026())
    server.add("/trending?since=weekly", Reply(status=302, headers={"Location": f"{away}/trending"}))
    server.add(
        "/api/repos/tinyhumansai/openhuman/readme", Reply(status=302, headers={"Location": f"{away}/r"})
    )
    config = "periods: [daily, weekly]\ndevelopers: false\n"
    result, out = trending_crawl(server, tmp_path, config=config, env={"GITHUB_TOKEN": TOKEN})
    output = result.stdout + result.stderr
    assert canary.hits == [], canary.hits
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(read_jsonl(out / "trending_repo.jsonl")) == 11  # the daily page, collected
    assert trending_stat(result, "harvest/github/refused/off_host") == 2
    assert trending_stat(result, "harvest/trending/page_failed") == 1
    canary_lines = [line for line in output.splitlines() if f"127.0.0.2:{canary.port}" in line]
    assert len(canary_lines) == 1, canary_lines
    assert "not a configured GitHub host" in canary_lines[0]
    assert "Traceback" not in output and CANARY_BODY not in output and TOKEN not in output
    assert_canary_records(canary)


# --- the rule, as a component ----------------------------------------------------------------
class _GithubSpider(Spider):
    name = "github_like"
    uses_github_api = True


def _guard(**settings: Any) -> GithubHostGuardMiddleware:
    crawler = get_crawler(
        _GithubSpider,
        {
            "GITHUB_API_URL": "https://api.github.example",
            "GITHUB_WEB_URL": "https://github.example",
            "GITHUB_RAW_URL": "https://raw.github.example:8443",
            **settings,
        },
    )
    return GithubHostGuardMiddleware.from_crawler(crawler)


def _refused(guard: GithubHostGuardMiddleware, url: str, redirected_from: list[str] | None = None) -> bool:
    request = Request(url, meta={"redirect_urls": redirected_from} if redirected_from else {})
    try:
        guard.process_request(request)
    except OffHostRequest:
        return True
    return False


def test_only_the_configured_origins_and_redirects_that_stay_on_theirs() -> None:
    guard = _guard()
    assert not _refused(guard, "https://api.github.example/search/repositories?q=x")
    assert not _refused(guard, "https://API.github.example:443/rate_limit")
    assert not _refused(guard, "https://github.example/trending?since=daily")
    assert not _refused(guard, "https://raw.github.example:8443/o/r/HEAD/README.md")
    assert _refused(guard, "https://raw.github.example/o/r/HEAD/README.md")  # another port
    assert _refused(guard, "http://api.github.example/rate_limit")  # another scheme
    assert _refused(guard, "https://api.github.example.evil.test/")
    assert _refused(guard, "http://127.0.0.2:8080/linked")
    assert _refused(guard, "http://[::127.0.0.2]/")
    assert _refused(guard, "ftp://api.github.example/")
    # A redirect stays on the origin its chain started from, even to another GitHub host.
    api = "https://api.github.example/repos/o/r/readme"
    assert not _refused(guard, "https://api.github.example/repositories/1/readme", [api])
    assert _refused(guard, "https://github.example/o/r", [api])
    assert _refused(guard, "https://api.github.example/x", ["https://github.example/a", api])


def test_the_guard_is_for_github_spiders_only() -> None:
    with pytest.raises(NotConfigured):
        GithubHostGuardMiddleware.from_crawler(get_crawler(Spider, {}))
