"""GithubApiMiddleware on real recorded GitHub answers: authorization, budgets, 304s, rate limits.

Waiting itself (a grant refused, then given) needs a running reactor and is covered by the crawl
tests in tests/spiders/test_github_search.py against the emulator.
"""

from __future__ import annotations

import asyncio
import time
from email.utils import formatdate
from pathlib import Path

import pytest
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

import harvest.settings as project_settings
from harvest.github import token_digest
from harvest.github.middleware import GithubApiMiddleware
from harvest.meta import (
    META_GITHUB_CONDITIONAL,
    META_GITHUB_ETAG,
    META_GITHUB_MEMO,
    META_GITHUB_NOT_MODIFIED,
    META_GITHUB_RATE_RETRIES,
    META_GITHUB_RESOURCE,
)
from harvest.spiders.github_search import GithubSearchSpider
from tests import shared_fixture
from tests.github_emulator import Recorded, load_replay

API = "https://api.github.com"
TOKEN = "ghp_exampleTokenThatMustNeverLeak123"
SEARCH = f"{API}/search/repositories?q=topic%3Ax&per_page=100"


def recorded(name: str, index: int) -> Recorded:
    path = shared_fixture("github-api", "pygithub-replaydata", "tests", "ReplayData", name)
    return load_replay(path)[index]


def make(tmp_path: Path, **kwargs: object) -> GithubApiMiddleware:
    mw = GithubApiMiddleware(API, tmp_path, consumer="github_search", token=TOKEN, **kwargs)  # type: ignore[arg-type]
    mw.open()
    return mw


def send(mw: GithubApiMiddleware, request: Request) -> None:
    assert asyncio.run(mw.process_request(request)) is None


def answer(request: Request, rec: Recorded, **overrides: str) -> Response:
    headers = {k: v for k, v in rec.headers if k.lower() not in {"content-encoding", "transfer-encoding"}}
    headers.update(overrides)
    return Response(request.url, status=rec.status, headers=headers, body=rec.body.encode(), request=request)


def test_other_hosts_are_untouched(tmp_path: Path) -> None:
    mw = make(tmp_path)
    request = Request("https://github.com/trending")
    send(mw, request)
    assert b"Authorization" not in request.headers
    assert mw.budget is not None and mw.budget.window(mw.token_key, "core").in_flight == 0


def test_authorizes_on_the_wire_only_and_reads_the_budget(tmp_path: Path) -> None:
    mw = make(tmp_path, api_version="2022-11-28")
    request = Request(SEARCH)
    send(mw, request)
    assert request.headers["Authorization"] == f"Bearer {TOKEN}".encode()
    assert request.headers["Accept"] == b"application/vnd.github+json"
    assert request.headers["X-GitHub-Api-Version"] == b"2022-11-28"
    assert mw.budget is not None and mw.budget.window(mw.token_key, "search").in_flight == 1
    rec = recorded("Search.testSearchRepos.txt", 0)  # x-ratelimit-remaining 29, limit 30
    reset = str(int(time.time()) + 50)
    headers = {"x-ratelimit-reset": reset, "date": formatdate(usegmt=True)}
    result = mw.process_response(request, answer(request, rec, **headers))
    assert isinstance(result, Response)
    assert b"Authorization" not in request.headers  # retries, logs and the frontier never see it
    window = mw.budget.window(mw.token_key, "search")
    assert (window.limit, window.remaining, window.in_flight) == (30, 29, 0)
    assert request.meta[META_GITHUB_NOT_MODIFIED] is False


def test_sends_stored_validators_and_passes_304_with_memo(tmp_path: Path) -> None:
    mw = make(tmp_path)
    assert mw.validators is not None
    mw.validators.put("github_search", token_digest(TOKEN), SEARCH, etag='W/"e1"', memo={"total": 7})
    request = Request(SEARCH)
    send(mw, request)
    assert request.headers["If-None-Match"] == b'W/"e1"'
    response = Response(SEARCH, status=304, headers={"ETag": 'W/"e1"'}, request=request)
    assert mw.process_response(request, response) is response
    assert request.meta[META_GITHUB_NOT_MODIFIED] is True and request.meta[META_GITHUB_MEMO] == {"total": 7}
    # Not for requests that opt out (RevisitMiddleware owns those), nor under another token.
    opted_out = Request(SEARCH, meta={META_GITHUB_CONDITIONAL: False})
    send(mw, opted_out)
    assert b"If-None-Match" not in opted_out.headers
    other = GithubApiMiddleware(API, tmp_path, consumer="github_search", token="another-token")
    other.open()
    request2 = Request(SEARCH)
    send(other, request2)
    assert b"If-None-Match" not in request2.headers


def test_fresh_etag_is_handed_to_the_spider_not_stored(tmp_path: Path) -> None:
    mw = make(tmp_path)
    request = Request(f"{API}/repos/PyGithub/PyGithub/readme")
    send(mw, request)
    rec = recorded("ContentFile.setUp.txt", 1)
    mw.process_response(request, answer(request, rec))
    assert request.meta[META_GITHUB_ETAG] == 'W/"0d9df5bfb7d4b93443c130bc8f4eea5dd3f01205"'
    assert mw.validators is not None and mw.validators.count("github_search") == 0


def test_secondary_limit_with_retry_after_blocks_the_token(tmp_path: Path) -> None:
    mw = make(tmp_path)
    request = Request(f"{API}/search/code?q=jacquev6")
    send(mw, request)
    rec = recorded("SpecificExceptions.testAuthenticatedRateLimitExceeded.txt", 1)  # Retry-After: 60
    before = time.time()
    retry = mw.process_response(request, answer(request, rec))
    assert isinstance(retry, Request) and retry is not request
    assert retry.dont_filter and retry.meta[META_GITHUB_RATE_RETRIES] == 1
    assert b"Authorization" not in retry.headers
    assert mw.budget is not None
    assert mw.budget.blocked_until(mw.token_key) == pytest.approx(before + 60, abs=2)
    decision = mw.budget.acquire(mw.token_key, "core")
    assert decision.grant is None and decision.reason == "blocked"


def test_primary_limit_waits_for_the_reset(tmp_path: Path) -> None:
    mw = make(tmp_path, reset_margin=1.0)
    request = Request(f"{API}/users/jacquev6")
    send(mw, request)
    rec = recorded("SpecificExceptions.testRateLimitExceeded.txt", 1)  # remaining 0, no reset header
    reset = int(time.time()) + 30
    # The recording's 2013 Date says nothing about today's clock: ignored as stale.
    retry = mw.process_response(request, answer(request, rec, **{"x-ratelimit-reset": str(reset)}))
    assert isinstance(retry, Request)
    assert mw.budget is not None
    decision = mw.budget.acquire(mw.token_key, "core")
    assert decision.reason == "exhausted" and decision.wait == pytest.approx(reset + 1.0 - time.time(), abs=1)
    # Only that resource: the search budget of the token is not touched.
    assert mw.budget.acquire(mw.token_key, "search").grant is not None


def test_secondary_limit_without_retry_after_backs_off_exponentially(tmp_path: Path) -> None:
    mw = make(tmp_path, backoff_base=10.0, backoff_max=25.0)
    assert mw.budget is not None
    # GitHub's 2021-2022 wording, which came without Retry-After.
    body = (
        b'{"documentation_url":"https://docs.github.com/...#secondary-rate-limits","message":'
        b'"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}'
    )
    waits = []
    for _ in range(3):
        request = Request(SEARCH)
        mw.budget.block(mw.token_key, 0, failure=False)
        send(mw, request)
        now = time.time()
        mw.process_response(request, Response(SEARCH, status=403, body=body, request=request))
        waits.append(round(mw.budget.blocked_until(mw.token_key) - now))
        mw.budget._db.execute("UPDATE blocks SET until = 0")  # let the next one through
    assert waits == [10, 20, 25]
    ok = Request(SEARCH)
    send(mw, ok)
    mw.process_response(ok, Response(SEARCH, status=200, body=b"{}", request=ok))
    assert mw.budget.failures(mw.token_key) == 0


def test_429_is_a_rate_limit_and_other_403s_are_not(tmp_path: Path) -> None:
    mw = make(tmp_path, backoff_base=1.0)
    request = Request(SEARCH)
    send(mw, request)
    assert isinstance(mw.process_response(request, Response(SEARCH, status=429, request=request)), Request)
    mw.budget._db.execute("UPDATE blocks SET until = 0")  # type: ignore[union-attr]
    bad_ua = Request(f"{API}/user")
    send(mw, bad_ua)
    rec = recorded("SpecificExceptions.testBadUserAgent.txt", 0)
    result = mw.process_response(bad_ua, answer(bad_ua, rec))
    assert isinstance(result, Response) and result.status == 403


def test_gives_up_after_the_configured_retries(tmp_path: Path) -> None:
    mw = make(tmp_path, rate_limit_retries=2)
    request = Request(SEARCH, meta={META_GITHUB_RATE_RETRIES: 2})
    send(mw, request)
    response = Response(SEARCH, status=429, headers={"Retry-After": "1"}, request=request)
    assert mw.process_response(request, response) is response


def test_clock_skew_from_the_date_header(tmp_path: Path) -> None:
    mw = make(tmp_path)
    request = Request(SEARCH)
    send(mw, request)
    server_now = time.time() + 600  # the server's clock is ten minutes ahead
    headers = {
        "Date": formatdate(server_now, usegmt=True),
        "X-RateLimit-Limit": "30",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": str(int(server_now) + 20),
    }
    mw.process_response(request, Response(SEARCH, status=200, headers=headers, body=b"{}", request=request))
    assert mw.budget is not None
    window = mw.budget.window(mw.token_key, "search")
    assert window.reset == pytest.approx(time.time() + 20, abs=2)  # in our clock


def test_rate_limit_endpoint_primes_every_budget(tmp_path: Path) -> None:
    mw = make(tmp_path)
    request = Request(f"{API}/rate_limit", meta={META_GITHUB_RESOURCE: None})
    send(mw, request)
    rec = recorded("RateLimiting.testGetRateLimit.txt", 0)
    mw.process_response(request, answer(request, rec, Date=formatdate(1734071300, usegmt=True)))
    assert mw.budget is not None
    assert mw.budget.window(mw.token_key, "search").limit == 30
    assert mw.budget.window(mw.token_key, "code_search").remaining == 10
    assert mw.budget.window(mw.token_key, "core").remaining == 4988


def test_failed_download_gives_the_grant_back(tmp_path: Path) -> None:
    mw = make(tmp_path)
    request = Request(SEARCH)
    send(mw, request)
    mw.process_exception(request, TimeoutError("stalled"))
    assert mw.budget is not None and mw.budget.window(mw.token_key, "search").in_flight == 0
    assert b"Authorization" not in request.headers


def crawler_for(settings: dict[str, object]) -> Crawler:
    """A Crawler of the github_search spider with a stats collector; no reactor, no engine."""
    merged = Settings()
    merged.setmodule(project_settings, priority="project")
    merged.update(settings, priority="cmdline")
    crawler = Crawler(GithubSearchSpider, merged)
    crawler.stats = MemoryStatsCollector(crawler)
    return crawler


def test_from_crawler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    crawler = crawler_for({"HARVEST_DATA_DIR": str(tmp_path), "HARVEST_GITHUB_CONCURRENCY": 3})
    mw = GithubApiMiddleware.from_crawler(crawler)
    assert mw.token_key == token_digest(TOKEN) and TOKEN not in mw.token_key
    assert mw.concurrency == 3 and str(mw.state_path) == str(tmp_path / "state" / "_github")
    with pytest.raises(NotConfigured):
        GithubApiMiddleware.from_crawler(crawler_for({"GITHUB_API_URL": ""}))
