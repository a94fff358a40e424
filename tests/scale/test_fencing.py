"""A worker frozen past its lease (SIGSTOP) is fenced on waking (SIGCONT): nothing stored twice."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from harvest.exceptions import StateError
from harvest.state import StateBatch
from tests.scale.conftest import Crawl
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
    frozen.process.send_signal(signal.SIGSTOP)
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
