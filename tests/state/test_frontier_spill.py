"""The bounded in-memory frontier (``HARVEST_FRONTIER_MEMORY_MAX``), in real crawls of a real blog.

With at most 3 requests queued in memory, the Octopress blog of shared/fixtures (109 posts,
hundreds of links) is crawled with most of its frontier waiting in the state's frontier table:
each page is still fetched once and written once, every spilled request is read back, and a
``kill -9`` while requests wait on disk loses none of them (the next run resumes them).
"""

from __future__ import annotations

import re
import signal
import subprocess
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from harvest.state.sqlite import SqliteStateStore
from tests import PROJECT_ROOT, read_committed_jsonl, read_jsonl, wait_for
from tests.servers import OCTO_POST, LoopbackServer, hold_posts_after, octo_crawl_command, octo_post_urls

_STAT = re.compile(r"'harvest/frontier/(spilled|unspilled)': (\d+)")


def _command(tmp_path: Path, base_url: str) -> list[str]:
    # At most 3 requests queued in memory, read back 4 at a time; one process (extraction off is
    # partitioned by default), whose frontier these tests count.
    return octo_crawl_command(
        tmp_path,
        base_url,
        HARVEST_FRONTIER_MEMORY_MAX=3,
        HARVEST_FRONTIER_RESTORE_BATCH=4,
        HARVEST_CRAWL_WORKERS=1,
    )


def _stats(log: str) -> dict[str, int]:
    return {name: int(n) for name, n in _STAT.findall(log)}


def _pending(tmp_path: Path) -> int:
    store = SqliteStateStore.open(tmp_path / "data" / "state", "blogs", readonly=True)
    try:
        return store.frontier_size()
    finally:
        store.close()


def test_a_crawl_with_its_frontier_on_disk_fetches_and_writes_each_page_once(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    result = subprocess.run(
        _command(tmp_path, octopress.base_url), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "'finish_reason': 'finished'" in result.stderr
    stats = _stats(result.stderr)
    assert stats.get("spilled", 0) > 50, result.stderr[-3000:]  # most of the frontier waited on disk
    assert stats["unspilled"] == stats["spilled"]  # and every one of them came back
    written = [p["url"] for p in read_jsonl(tmp_path / "data" / "blogs" / "page.jsonl")]
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)
    fetched = Counter(r.path for r in octopress.requests)
    twice = {path: n for path, n in fetched.items() if n > 1 and path != "/robots.txt"}
    assert twice == {}, f"fetched more than once: {twice}"
    assert _pending(tmp_path) == 0


def test_requests_waiting_on_disk_survive_a_kill_and_are_crawled_by_the_next_run(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    pages = tmp_path / "data" / "blogs" / "page.jsonl"
    log = tmp_path / "first.log"
    with log.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            _command(tmp_path, octopress.base_url), cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=err
        )
        try:
            # After 30 posts the server holds the rest: the kill lands mid-crawl (an event).
            with hold_posts_after(octopress, 30):
                wait_for(
                    lambda: len(read_committed_jsonl(pages)) >= 20 or proc.poll() is not None,
                    "20 pages committed",
                    guard=120,
                )
                assert proc.poll() is None, "the crawl ended before the kill"
                proc.send_signal(signal.SIGKILL)
                proc.wait(30)
        finally:
            if proc.poll() is None:
                proc.kill()
    # Far more than the 3 in memory and the few in flight were pending: the spilled ones.
    assert _pending(tmp_path) > 10, log.read_text(encoding="utf-8")[-3000:]
    result = subprocess.run(
        _command(tmp_path, octopress.base_url), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Resuming" in result.stderr
    written = [p["url"] for p in read_jsonl(pages)]
    assert len(written) == len(set(written)), "a page was written twice"
    posts = [u for u in written if OCTO_POST.search(urlsplit(u).path)]
    assert len(posts) == len(octo_post_urls(octopress.base_url)) == 109
    assert _pending(tmp_path) == 0
