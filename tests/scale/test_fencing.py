"""A worker frozen past its lease (SIGSTOP) is fenced on waking (SIGCONT): nothing stored twice."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from scrapy import Spider

from harvest.exceptions import StateError
from harvest.scale.coordinator import RedisCoordinator
from harvest.scale.outputlock import OutputLock
from harvest.state import StateBatch
from harvest.state.redis import RedisStateStore
from tests import PROJECT_ROOT, get_crawler
from tests.scale.conftest import Crawl, Worker
from tests.scale.redis_server import RedisServer
from tests.scale.test_redis_store import store_for
from tests.scale.test_scale_out import assert_every_post_stored_once


def test_a_worker_whose_lease_was_taken_commits_and_writes_nothing(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Store level: once another worker took the lease, commit, heartbeat and writes are refused."""
    a, b = store_for(redis_server, tmp_path), store_for(redis_server, tmp_path)
    a.join()
    b.join()
    assert a.holds_lease()
    a.push_request(b"\x01" + b"k" * 20 + b"payload", 0.0)
    assert a.pop_request() is not None
    now = time.time()
    a.server.zadd(a.keys.workers, {a.worker: now - 100})  # a froze 100 s ago
    assert b.requeue(a.worker, now - 30) == 1
    batch = StateBatch()
    batch.items[b"i" * 16] = now
    with pytest.raises(StateError, match="given up as dead"):
        a.commit(batch)
    assert not a.server.sismember(a.keys.items, b"i" * 16)  # type: ignore[arg-type]
    assert not a.heartbeat() and a.worker not in b.workers()  # not registered again
    assert not a.holds_lease()


def test_a_worker_given_up_pops_no_request_and_is_fenced(redis_server: RedisServer, tmp_path: Path) -> None:
    """A pop sent just before a partition reaches Redis after the others gave its worker up.

    It must take nothing: a request moved into the in-flight hash of a worker no longer
    registered is requeued by nobody, and the round never fetches it (a post lost).
    """
    a, b = store_for(redis_server, tmp_path), store_for(redis_server, tmp_path)
    a.join()
    b.join()
    now = time.time()
    a.server.zadd(a.keys.workers, {a.worker: now - 100})  # a was cut off 100 s ago
    assert b.requeue(a.worker, now - 30) == 0
    b.push_request(b"\x01" + b"k" * 20 + b"payload", 0.0)
    with pytest.raises(StateError, match="pop refused: .*given up as dead"):
        a.pop_request()
    assert a.fenced and not a.holds_lease()
    assert not a.server.exists(a.keys.inflight(a.worker))
    assert b.pop_request() == b"\x01" + b"k" * 20 + b"payload"  # still there for the others


def test_a_lease_redis_cannot_confirm_is_a_failed_store_not_a_lost_lease(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Redis unreachable near the lease's end: the check raises (the crawl fails, exit 1),
    it does not answer "lease taken" (which ends a worker with exit 0 as if all were well)."""
    a = store_for(redis_server, tmp_path)
    a.join()
    a._beat -= 3600  # the lease needs renewing: the check must ask Redis
    a.server.connection_pool.disconnect()
    redis_server.stop()
    with pytest.raises(StateError, match="failed"):
        a.holds_lease()
    with pytest.raises(StateError, match="Redis failed earlier"):
        a.holds_lease()
    assert not a.fenced


def _freeze_outside_a_write(worker: Worker, folder: Path) -> None:
    """SIGSTOP ``worker`` at a moment it is not between a lease check and that line's write.

    Frozen there, it holds the output folder's shared lock, and no takeover happens until it
    runs again (by design, tested below): the fencing under test needs it frozen elsewhere.
    """
    stat = Path(f"/proc/{worker.process.pid}/stat")
    for _ in range(20):
        worker.process.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 10  # hang guard only: a stop takes microseconds
        while stat.read_text().rpartition(")")[2].split()[0] != "T":
            assert time.monotonic() < deadline, "SIGSTOP did not stop the worker"
            time.sleep(0.001)
        with OutputLock(folder).taking_over() as free:
            if free:
                return
        worker.process.send_signal(signal.SIGCONT)
        time.sleep(0.05)
    raise AssertionError("the worker was mid-write at each of 20 tries")


def test_a_worker_frozen_past_the_timeout_is_fenced_and_stores_nothing_twice(crawl: Crawl) -> None:
    """SIGSTOP one of two workers mid-crawl past ``HARVEST_REDIS_WORKER_TIMEOUT``, then SIGCONT it.

    The other one takes its lease (replays its written lines, requeues its requests) and
    finishes the crawl; the frozen one, on waking, commits and writes nothing more and stops
    with ``lease_lost``. Every post is stored exactly once.
    """
    crawl.site.delay = 0.1
    # Pace grants of the frozen worker expire soon, so the other is not held back for long.
    frozen, other = crawl.start(2, HARVEST_PACE_STALE_AFTER=2, HARVEST_RIGHTS_ENABLED=False)
    crawl.wait_for(lambda: len(crawl.documents()) >= 15, 90, "15 documents stored")
    crawl.wait_for(lambda: " round " in frozen.text(), 30, "the first worker joining the crawl")
    _freeze_outside_a_write(frozen, crawl.data_dir / "blogs")
    try:
        # Past the worker timeout (3 s) and the other's next heartbeat tick.
        crawl.wait_for(
            lambda: "stopped" in other.text() and "requests back" in other.text(),
            30,
            "the other worker taking the frozen one's requests back",
        )
        time.sleep(1.0)
    finally:
        frozen.process.send_signal(signal.SIGCONT)
    codes = crawl.wait([other, frozen], timeout=150)
    assert codes[0] == 0, other.text()[-3000:]
    log = frozen.text()
    assert "Closing spider (lease_lost)" in log, log[-3000:]
    assert codes[1] == 0  # a clean stop: nothing lost, its requests done by the other
    assert_every_post_stored_once(crawl)


def _writer(code: str, folder: Path) -> subprocess.Popen[str]:
    """Another worker of this machine, as a process running ``code`` on the output ``folder``."""
    return subprocess.Popen(
        [sys.executable, "-c", code, str(folder)],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


_HOLD_WRITING = """
import sys
from pathlib import Path
from harvest.scale.outputlock import OutputLock

lock = OutputLock(Path(sys.argv[1]))
with lock.writing():
    print("checked", flush=True)  # its lease check passed; frozen here until told to write
    sys.stdin.readline()
    with open(Path(sys.argv[1]) / "page.jsonl", "a") as fh:
        fh.write('{"url": "late"}\\n')
"""


def test_a_takeover_waits_for_a_worker_between_its_lease_check_and_its_write(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """The race behind a post stored twice: a worker frozen after its lease check and before its
    line's write. The others must not take it over (replay its lines, requeue its requests)
    until that line is written, or they fetch and store the page again."""
    data = tmp_path / "data"
    crawler = get_crawler(
        type("blogs", (Spider,), {"name": "blogs"}),
        {"HARVEST_STATE_URL": redis_server.url, "HARVEST_DATA_DIR": str(data)},
    )
    crawler.spider = crawler.spidercls()
    coordinator = RedisCoordinator.from_crawler(crawler)
    store = coordinator.state.open()
    assert isinstance(store, RedisStateStore)
    coordinator.store = store
    store.join()
    frozen = store_for(redis_server, tmp_path)  # another worker of this machine and folder
    frozen.join()
    frozen.push_request(b"\x01" + b"k" * 20 + b"payload", 0.0)
    assert frozen.pop_request() is not None
    frozen.server.zadd(frozen.keys.workers, {frozen.worker: time.time() - 100})  # silent 100 s
    writer = _writer(_HOLD_WRITING, data / "blogs")
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "checked\n"
        assert coordinator.recover() == 0, "taken over between the lease check and the write"
        assert frozen.server.hlen(frozen.keys.inflight(frozen.worker)) == 1
        assert writer.communicate("write\n", timeout=30)[0] == ""
        assert writer.returncode == 0
    finally:
        if writer.poll() is None:
            writer.kill()
    # Written: the takeover goes ahead, with that line in the file it replays.
    assert coordinator.recover() == 1
    assert frozen.server.hlen(frozen.keys.inflight(frozen.worker)) == 0
    assert (data / "blogs" / "page.jsonl").read_text(encoding="utf-8") == '{"url": "late"}\n'
    coordinator.spider_closed(crawler.spider, "finished")


_HOLD_HALF_WRITTEN = """
import os, sys
from pathlib import Path
from harvest.scale.outputlock import OutputLock

folder = Path(sys.argv[1])
lock = OutputLock(folder)
with lock.writing():
    (folder / "octopress").mkdir(parents=True, exist_ok=True)
    temp = folder / "octopress" / ".tmp-post.md"
    temp.write_text("# Post\\n", encoding="utf-8")
    with open(folder / "document.jsonl", "ab", buffering=0) as fh:
        fh.write(b'{"type": "document", "url": "http://blog.invalid/post/", ')
        print("half", flush=True)  # its line half written, its Markdown file not renamed yet
        sys.stdin.readline()
        fh.write(b'"title": "Post"}\\n')
    os.replace(temp, folder / "octopress" / "post.md")
"""


def test_a_worker_joining_the_crawl_cuts_no_line_another_is_writing(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """A worker starting while another of its machine is half-way through a line (and its Markdown
    file) must not take them for a killed writer's leftovers: it cut the line's first half off
    and deleted the temporary file, so the writer's rename failed and its record was lost. It
    waits for the write to end, then finds the line whole and nothing to clean up."""
    from harvest.pipelines.output import OutputPipeline

    data = tmp_path / "data"
    folder = data / "blogs"
    folder.mkdir(parents=True)
    writer = _writer(_HOLD_HALF_WRITTEN, folder)
    crawler = get_crawler(
        type("blogs", (Spider,), {"name": "blogs"}),
        {"HARVEST_STATE_URL": redis_server.url, "HARVEST_DATA_DIR": str(data)},
    )
    crawler.spider = crawler.spidercls()
    pipeline = OutputPipeline.from_crawler(crawler)
    failed: list[BaseException] = []

    def open_spider() -> None:
        try:
            pipeline.open_spider()
        except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
            failed.append(exc)

    opened = threading.Thread(target=open_spider)
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "half\n"
        opened.start()
        # Long enough for a start that does not wait to be done with the file (then the test
        # fails below); a start that waits is still waiting.
        opened.join(timeout=5)
        assert writer.communicate("go on\n", timeout=30)[0] == ""
        assert writer.returncode == 0
        opened.join(timeout=60)
        assert not opened.is_alive() and not failed, failed
    finally:
        if writer.poll() is None:
            writer.kill()
    text = (folder / "document.jsonl").read_text(encoding="utf-8")
    assert text == '{"type": "document", "url": "http://blog.invalid/post/", "title": "Post"}\n'
    assert (folder / "octopress" / "post.md").read_text(encoding="utf-8") == "# Post\n"
    pipeline.close_spider()
