"""A resumed crawl closes when its work is done, even when its frontier changed under the resume.

The state that hung a resumed github_search for 7 minutes, rebuilt with events: a crawl is
killed with pending requests; the next run schedules a fresh copy of one of them (the same
search page asked again), which is fetched and retired before its persisted row is restored.
The resume cursor then ends with rows "left" that no longer exist, and a scheduler that said
"pending" for them kept the engine idle and alive for ever.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harvest.exceptions import StateError
from harvest.state.sqlite import SqliteStateStore
from tests import PROJECT_ROOT, read_jsonl
from tests.servers import LoggedRequest, LoopbackServer, Reply

ARTICLES = 6
#: Guards against a hang only: every wait below ends on an event long before this.
HANG_GUARD = 60.0
FIFO = "scrapy.squeues.FifoMemoryQueue"


def pending_urls(data_dir: Path) -> list[str]:
    """URLs of the persisted pending requests, oldest first (nothing if the state is not there)."""
    try:
        store = SqliteStateStore.open(data_dir / "state", "crashsite", readonly=True)
    except StateError:  # not created yet by the crawl that is starting
        return []
    try:
        entries = store.frontier_page(0, store.frontier_max_seq(), 1000)
    finally:
        store.close()
    return [pickle.loads(e.request)["url"] for e in entries]  # noqa: S301


class Site:
    """``/list/1`` links to articles; which ones, and which article waits, the test decides."""

    def __init__(self, server: LoopbackServer, data_dir: Path) -> None:
        self.server = server
        self.data_dir = data_dir
        self.listed = [(n, f"/a/{n}") for n in range(1, ARTICLES + 1)]
        self.release = threading.Event()
        self.first_run = True
        #: Second run: the article listed afresh; /b/ pages wait until its persisted row is retired.
        self.fresh: int | None = None
        server.resolve = self.handle  # type: ignore[method-assign]

    def handle(self, request: LoggedRequest) -> Reply:
        if request.path == "/list/1":
            rows = "".join(
                f'<li class="row" data-n="{n}"><a href="{href}">{n}</a></li>' for n, href in self.listed
            )
            return Reply(body=f"<html><body><ul>{rows}</ul></body></html>")
        if request.path.startswith(("/a/", "/b/")):
            n = int(request.path.rsplit("/", 1)[1])
            if self.first_run:
                self.release.wait(HANG_GUARD)  # stays in flight until the test has killed the crawl
            elif request.path.startswith("/b/") and self.fresh is not None:
                self._wait_until_retired(self.fresh)
            return Reply(body=f"<html><body><h1>{n}</h1><article><p>Article {n}.</p></article></body></html>")
        return Reply(404, "not found", content_type="text/plain")

    def _wait_until_retired(self, n: int) -> None:
        url = f"{self.server.base_url}/a/{n}"
        deadline = time.monotonic() + HANG_GUARD
        while url in pending_urls(self.data_dir) and time.monotonic() < deadline:
            time.sleep(0.05)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    server = LoopbackServer().start()
    s = Site(server, tmp_path / "data")
    yield s
    s.release.set()
    server.stop()


def crawl_cmd(site: Site, *extra: str) -> list[str]:
    settings = {
        "SPIDER_MODULES": "tests.spiders_for_tests",
        "HARVEST_DATA_DIR": str(site.data_dir),
        "ROBOTSTXT_OBEY": "False",
        "AUTOTHROTTLE_ENABLED": "False",
        "RETRY_ENABLED": "False",
        "HARVEST_STATE_COMMIT_SECONDS": "0.2",
        "HARVEST_FRONTIER_RESTORE_BATCH": "1",
        "CLOSESPIDER_TIMEOUT": str(int(HANG_GUARD)),
        "LOG_LEVEL": "INFO",
    }
    cmd = [sys.executable, "-m", "scrapy", "crawl", "crashsite"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    return [*cmd, "-a", f"base_url={site.server.base_url}", "-a", "observed_at=2024-01-01T00:00:00Z", *extra]


def test_a_resume_whose_rows_were_retired_meanwhile_closes_finished(site: Site) -> None:
    # Run 1: the listing is stored, its six articles stay in flight; kill -9 once all six are
    # persisted as pending.
    proc = subprocess.Popen(
        crawl_cmd(site), cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + HANG_GUARD
    while len(pending_urls(site.data_dir)) < ARTICLES and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.05)
    pending = pending_urls(site.data_dir)
    assert pending == [f"{site.server.base_url}/a/{n}" for n in range(1, ARTICLES + 1)], pending
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first_run = len(site.server.paths_requested())
    site.release.set()

    # Run 2: one request at a time, first in first out. The listing now links article 3 (a
    # fresh copy of a pending request), then a new page /b/100, which is answered only once
    # article 3 was stored and its persisted row retired. The resume cursor moves only when
    # the queue runs dry, so it meets the range with article 3's row gone while the last row
    # (article 6) is still there.
    site.first_run = False
    site.listed = [(3, "/a/3"), (100, "/b/100")]
    site.fresh = 3
    cmd = crawl_cmd(site, "-s", "CONCURRENT_REQUESTS=1", "-s", f"SCHEDULER_MEMORY_QUEUE={FIFO}")
    done = subprocess.run(cmd, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=HANG_GUARD * 2)
    log = done.stderr
    assert "Resuming 6 pending requests" in log
    assert "'finish_reason': 'finished'" in log, log[-3000:]
    assert "'harvest/frontier/resumed': 6" in log
    assert done.returncode == 0
    assert pending_urls(site.data_dir) == []
    fetched = [p for p in site.server.paths_requested()[first_run:] if p.startswith(("/a/", "/b/"))]
    # Run 2 asked for each article once (article 3 once only, though listed and pending) and /b/.
    assert sorted(fetched) == [*(f"/a/{n}" for n in range(1, ARTICLES + 1)), "/b/100"]
    docs = read_jsonl(site.data_dir / "crashsite" / "document.jsonl")
    assert sorted(d["title"] for d in docs) == sorted([*(str(n) for n in range(1, ARTICLES + 1)), "100"])
