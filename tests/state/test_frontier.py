"""The persisted frontier in real crawls: what stays pending after kill -9, and the resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from scrapy.http import Request
from scrapy.utils.request import RequestFingerprinter

from harvest.state.sqlite import SqliteStateStore
from tests import PROJECT_ROOT, read_jsonl
from tests.servers import LoggedRequest, LoopbackServer, Reply


class Site:
    """/list/1 links to: a redirect to an article, a 404, an article, and a slow article."""

    def __init__(self, server: LoopbackServer) -> None:
        self.server = server
        self.slow = True
        server.resolve = self.handle  # type: ignore[method-assign]

    def handle(self, request: LoggedRequest) -> Reply:
        path = request.path
        if path == "/list/1":
            targets = {1: "/r/1", 2: "/missing/2", 3: "/a/3", 4: "/slow/4"}
            rows = "".join(
                f'<li class="row" data-n="{n}"><a href="{href}">{n}</a></li>' for n, href in targets.items()
            )
            return Reply(body=f"<html><body><ul>{rows}</ul></body></html>")
        if path == "/r/1":
            return Reply(301, b"", headers={"Location": "/a/1"})
        if path.startswith(("/a/", "/slow/")):
            if path.startswith("/slow/") and self.slow:
                time.sleep(20)
            n = path.rsplit("/", 1)[1]
            page = f"<html><body><h1>{n}</h1><article><p>Article {n} text.</p></article></body></html>"
            return Reply(body=page)
        return Reply(404, "not found", content_type="text/plain")


def crawl_cmd(server: LoopbackServer, data_dir: Path) -> list[str]:
    settings = {
        "SPIDER_MODULES": "tests.spiders_for_tests",
        "HARVEST_DATA_DIR": str(data_dir),
        "ROBOTSTXT_OBEY": "False",
        "AUTOTHROTTLE_ENABLED": "False",
        "RETRY_ENABLED": "False",
        "HARVEST_STATE_COMMIT_SECONDS": "0.2",
        "CLOSESPIDER_TIMEOUT": "60",
    }
    cmd = [sys.executable, "-m", "scrapy", "crawl", "crashsite"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd + ["-a", f"base_url={server.base_url}", "-a", "observed_at=2024-01-01T00:00:00Z"]


def pending(data_dir: Path) -> set[bytes]:
    store = SqliteStateStore.open(data_dir / "state", "crashsite", readonly=True)
    try:
        return {e.fingerprint for e in store.frontier_page(0, store.frontier_max_seq(), 100)}
    finally:
        store.close()


def test_only_unfinished_requests_survive_a_kill_and_are_resumed(
    server: LoopbackServer, tmp_path: Path
) -> None:
    site = Site(server)
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    log = tmp_path / "crawl.log"
    fingerprint = RequestFingerprinter().fingerprint
    slow = {fingerprint(Request(f"{server.base_url}/slow/4"))}
    with log.open("wb") as fh:
        proc = subprocess.Popen(crawl_cmd(server, tmp_path), cwd=PROJECT_ROOT, stdout=fh, stderr=fh, env=env)
        try:
            # Wait for the state, not for a time: both articles written, and a commit point that
            # retired everything but the hanging /slow/4 (the deadline only guards against a hang).
            deadline = time.monotonic() + 60
            while len(read_jsonl(tmp_path / "crashsite" / "document.jsonl")) < 2 or pending(tmp_path) != slow:
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.05)
            assert proc.poll() is None  # the kill lands mid-crawl: /slow/4 is still being answered
            assert "/slow/4" in [r.path for r in server.requests]
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)

    left = pending(tmp_path)
    # Done and retired: the listing, the redirect (replaced by /a/1), the 404, both articles.
    assert left == slow, log.read_text()[-3000:]

    site.slow = False
    mark = len(server.requests)
    result = subprocess.run(
        crawl_cmd(server, tmp_path), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "'harvest/frontier/resumed': 1" in result.stderr
    fetched = [r.path for r in server.requests[mark:]]
    assert fetched.count("/slow/4") == 1  # resumed, and not fetched a second time when rediscovered
    assert "/a/3" not in fetched and "/a/1" not in fetched  # stored documents are fresh
    stored = read_jsonl(tmp_path / "crashsite" / "document.jsonl")
    assert sorted(d["url"].rsplit("/", 2)[-2] for d in stored) == ["a", "a", "slow"]
    assert pending(tmp_path) == set()


def test_persisted_requests_are_what_request_to_dict_gives() -> None:
    """The scheduler names callbacks without ``inspect`` (hot path) but must persist the same dict."""
    from scrapy import Spider
    from scrapy.http import FormRequest

    from harvest.crawl.serialize import RequestCodec, request_dict
    from tests import get_crawler

    class TwoCallbacks(Spider):
        name = "two_callbacks"

        def parse_page(self, response: object) -> None: ...

        def on_error(self, failure: object) -> None: ...

    crawler = get_crawler(TwoCallbacks)
    spider = TwoCallbacks()
    codec = RequestCodec(spider, crawler.stats)  # what the scheduler encodes with (from open())
    requests = [
        Request(
            "http://127.0.0.1/a",
            callback=spider.parse_page,
            errback=spider.on_error,
            meta={"harvest_site": "s", "depth": 2},
            priority=5,
        ),
        Request("http://127.0.0.1/b"),
        FormRequest("http://127.0.0.1/c", formdata={"q": "x"}, callback=spider.parse_page),
    ]
    for request in requests:
        assert request_dict(request, spider) == request.to_dict(spider=spider)

    # A callback that is no method of the spider cannot be persisted, as with to_dict itself.
    def not_a_method(response: object) -> None: ...

    stray = Request("http://127.0.0.1/d", callback=not_a_method)
    assert codec.encode(stray) is None
    assert crawler.stats.get_value("harvest/frontier/unserializable") == 1
