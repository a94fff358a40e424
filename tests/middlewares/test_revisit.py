"""RevisitMiddleware: fresh documents cost nothing, stale ones are asked for conditionally."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request, Response

from harvest.middlewares.revisit import RevisitMiddleware
from harvest.state.crawl import CrawlState
from tests import read_jsonl, scrapy_crawl
from tests.servers import LoggedRequest, LoopbackServer, Reply
from tests.state.harness import make_crawler

DOC = "https://example.org/articles/one"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def middleware(tmp_path: Path, clock: Clock) -> tuple[RevisitMiddleware, CrawlState]:
    crawler = make_crawler(tmp_path)
    state = CrawlState.from_crawler(crawler)
    assert state is not None
    state.open()
    return RevisitMiddleware(state, crawler.stats, clock=clock), state


def fetch(mw: RevisitMiddleware, request: Request, status: int = 200, /, **headers: str) -> Response:
    mw.process_request(request)
    response = Response(request.url, status=status, headers=headers, request=request)
    return mw.process_response(request, response)


def test_listing_pages_are_always_fetched_unconditionally(tmp_path: Path) -> None:
    mw, state = middleware(tmp_path, Clock())
    listing = Request("https://example.org/blog/", meta={"harvest_kind": "listing"})
    fetch(mw, listing, ETag='"v1"')
    state.retire(state.request_key(listing))
    state.commit()
    again = Request("https://example.org/blog/")  # harvest_kind defaults to listing
    mw.process_request(again)  # no IgnoreRequest: fetched, and unconditionally
    assert b"If-None-Match" not in again.headers
    stats = mw.stats.get_stats() if mw.stats else {}
    assert "harvest/revisit/fresh" not in stats and "harvest/revisit/conditional" not in stats


def test_document_lifecycle_fresh_then_conditional_then_not_modified(tmp_path: Path) -> None:
    clock = Clock()
    mw, state = middleware(tmp_path, clock)
    first = Request(DOC, meta={"harvest_kind": "document", "harvest_ttl": 3600})
    fetch(mw, first, ETag='"v1"', **{"Last-Modified": "Mon, 01 Jan 2024 00:00:00 GMT"})
    state.retire(state.request_key(first))  # its items were written: the fetch counts now

    clock.now += 60
    with pytest.raises(IgnoreRequest, match="is fresh"):
        mw.process_request(Request(DOC, meta={"harvest_kind": "document", "harvest_ttl": 3600}))
    with pytest.raises(IgnoreRequest, match="never revisited"):
        mw.process_request(Request(DOC, meta={"harvest_kind": "document", "harvest_ttl": None}))

    clock.now += 3600
    stale = Request(DOC, meta={"harvest_kind": "document", "harvest_ttl": "1h"})
    mw.process_request(stale)  # no IgnoreRequest: fetched again, conditionally
    assert stale.headers[b"If-None-Match"] == b'"v1"'
    assert stale.headers[b"If-Modified-Since"] == b"Mon, 01 Jan 2024 00:00:00 GMT"
    with pytest.raises(IgnoreRequest, match="not modified"):
        mw.process_response(stale, Response(DOC, status=304, request=stale))
    # A 304 is a fetch: the document is fresh again for another hour.
    clock.now += 60
    with pytest.raises(IgnoreRequest, match="is fresh"):
        mw.process_request(Request(DOC, meta={"harvest_kind": "document", "harvest_ttl": 3600}))
    stats = mw.stats.get_stats() if mw.stats else {}
    assert stats["harvest/revisit/fresh"] == 3
    assert stats["harvest/revisit/conditional"] == 1
    assert stats["harvest/revisit/not_modified"] == 1


def test_a_fetch_counts_only_once_its_request_is_done(tmp_path: Path) -> None:
    clock = Clock()
    mw, state = middleware(tmp_path, clock)
    request = Request(DOC, meta={"harvest_kind": "document"})
    fetch(mw, request, ETag='"v1"')
    state.commit()  # a commit point while the callback is still running
    # The process dies here; its item was never written. The restarted crawl must fetch again.
    assert state.store is not None
    state.store.close()
    state.store = None
    mw2, _ = middleware(tmp_path, clock)
    again = Request(DOC, meta={"harvest_kind": "document"})
    mw2.process_request(again)  # no IgnoreRequest: fetched again
    assert "harvest/revisit/fresh" not in (mw2.stats.get_stats() if mw2.stats else {})


def test_validators_are_kept_apart_by_validator_key(tmp_path: Path) -> None:
    clock = Clock()
    mw, state = middleware(tmp_path, clock)
    meta = {"harvest_kind": "document", "harvest_ttl": 0, "harvest_validator_key": "token-1"}
    first = Request(DOC, meta=meta)
    fetch(mw, first, ETag='"etag-for-token-1"')
    state.retire(state.request_key(first))
    clock.now += 1
    same_token = Request(DOC, meta=dict(meta))
    other_token = Request(DOC, meta={**meta, "harvest_validator_key": "token-2"})
    mw.process_request(same_token)
    mw.process_request(other_token)
    assert same_token.headers[b"If-None-Match"] == b'"etag-for-token-1"'
    assert b"If-None-Match" not in other_token.headers


def test_not_configured_without_state(tmp_path: Path) -> None:
    with pytest.raises(NotConfigured):
        RevisitMiddleware.from_crawler(make_crawler(tmp_path, HARVEST_STATE_ENABLED=False))


# --- a real crawl against a server that supports validators --------------------------------------


class ValidatingSite:
    """/list/1 lists two articles: /a/1 answers with an ETag, /a/2 with a Last-Modified date."""

    def __init__(self, server: LoopbackServer) -> None:
        self.server = server
        self.version = {1: "first version of one", 2: "first version of two"}
        self.honor_validators = True
        server.resolve = self.handle  # type: ignore[method-assign]

    def etag(self, n: int) -> str:
        return f'"{abs(hash(self.version[n])) % 10**8}"'

    def handle(self, request: LoggedRequest) -> Reply:
        if request.path == "/list/1":
            rows = "".join(f'<li class="row" data-n="{n}"><a href="/a/{n}">a{n}</a></li>' for n in (1, 2))
            return Reply(body=f"<html><body><ul>{rows}</ul></body></html>")
        n = int(request.path.rsplit("/", 1)[-1])
        page = f"<html><body><h1>{n}</h1><article><p>{self.version[n]}</p></article></body></html>"
        if n == 1:
            if self.honor_validators and request.headers.get("If-None-Match") == self.etag(1):
                return Reply(304, b"")
            return Reply(body=page, headers={"ETag": self.etag(1)})
        stamp = "Mon, 01 Jan 2024 00:00:00 GMT"
        unchanged = "first" in self.version[2]
        if self.honor_validators and request.headers.get("If-Modified-Since") == stamp and unchanged:
            return Reply(304, b"")
        return Reply(body=page, headers={"Last-Modified": stamp})

    def article_requests(self, since: int) -> list[LoggedRequest]:
        return [r for r in self.server.requests[since:] if r.path.startswith("/a/")]


def crawl(server: LoopbackServer, data_dir: Path, **args: str) -> dict[str, str]:
    result = scrapy_crawl(
        "crashsite",
        settings={
            "SPIDER_MODULES": "tests.spiders_for_tests",
            "HARVEST_DATA_DIR": str(data_dir),
            "ROBOTSTXT_OBEY": False,
            "AUTOTHROTTLE_ENABLED": False,
            "CLOSESPIDER_TIMEOUT": 60,
        },
        args={"base_url": server.base_url, "observed_at": "2024-01-01T00:00:00Z", **args},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {
        line.split("'")[1]: line.rsplit(":", 1)[1].strip(" ,")
        for line in result.stderr.splitlines()
        if line.startswith(" 'harvest/")
    }


def test_revisits_in_real_crawls(server: LoopbackServer, tmp_path: Path) -> None:
    site = ValidatingSite(server)
    docs = tmp_path / "crashsite" / "document.jsonl"

    crawl(server, tmp_path)
    assert len(read_jsonl(docs)) == 2

    mark = len(server.requests)
    stats = crawl(server, tmp_path)  # no TTL: stored documents are never fetched again
    assert site.article_requests(mark) == []
    assert stats["harvest/revisit/fresh"] == "2"

    mark = len(server.requests)
    stats = crawl(server, tmp_path, ttl="0")  # stale at once: conditional requests, both 304
    sent = {r.path: r.headers for r in site.article_requests(mark)}
    assert sent["/a/1"]["If-None-Match"] == site.etag(1)
    assert sent["/a/2"]["If-Modified-Since"] == "Mon, 01 Jan 2024 00:00:00 GMT"
    assert stats["harvest/revisit/not_modified"] == "2"
    assert len(read_jsonl(docs)) == 2

    site.version[1] = "second version of one, rewritten"
    site.version[2] = "now changed but the server still says 200 with the same date"
    mark = len(server.requests)
    crawl(server, tmp_path, ttl="0")
    assert {r.path for r in site.article_requests(mark)} == {"/a/1", "/a/2"}
    stored = read_jsonl(docs)
    assert len(stored) == 4  # both changed bodies stored
    site.honor_validators = False  # a server without validators answers 200, same bodies
    mark = len(server.requests)
    stats = crawl(server, tmp_path, ttl="0")
    assert len(site.article_requests(mark)) == 2
    assert stats["harvest/dedup/url_seen"] == "4"  # 2 repo rows + 2 unchanged documents
    assert len(read_jsonl(docs)) == 4  # an unchanged body is not stored again
