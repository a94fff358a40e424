"""RedisStateStore against a real redis-server: the StateStore contract, shared by several workers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from harvest.exceptions import StateError
from harvest.state import STORE_SCHEMES, StateBatch, StateOrigin, StateStore, Validators, open_store
from harvest.state.redis import RedisStateStore
from harvest.util.redaction import mask_url
from tests.scale.redis_server import RedisServer

pytestmark = pytest.mark.redis

FP = bytes(range(20))
KEY = bytes(range(16))
HASH = "ab" * 32


def store_for(server: RedisServer, tmp_path: Path, spider: str = "blogs", **kw: object) -> RedisStateStore:
    store = open_store(server.url, spider, tmp_path / "data", **kw)  # type: ignore[arg-type]
    assert isinstance(store, RedisStateStore)
    return store


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
        ("redis://:s3cret@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
        ("redis://user:s3cret@redis.example.org:6380/2", "redis://user:***@redis.example.org:6380/2"),
        ("rediss://:p%40ss@[::1]:6379/1", "rediss://:***@[::1]:6379/1"),
    ],
)
def test_mask_url_hides_the_password(url: str, masked: str) -> None:
    assert mask_url(url) == masked


def test_redis_urls_select_the_backend() -> None:
    assert STORE_SCHEMES["redis"] == STORE_SCHEMES["rediss"] == "harvest.state.redis.RedisStateStore"


def test_commit_then_reopen(redis_server: RedisServer, tmp_path: Path) -> None:
    store = store_for(redis_server, tmp_path)
    assert isinstance(store, StateStore)
    assert store.origin is StateOrigin.NEW
    store.join()
    batch = StateBatch()
    batch.items[KEY] = 1.0
    batch.contents[HASH] = ("http://blog.example/a/", 1.0)
    batch.fetched[FP] = 1700000000.5
    batch.validators[FP] = (Validators(etag='"v1"', last_modified=None), 1.0)
    batch.offsets["document.jsonl"] = 1234
    store.commit(batch)
    store.close()

    again = store_for(redis_server, tmp_path)
    assert again.origin is StateOrigin.EXISTING
    assert again.has_item(KEY)
    assert not again.has_item(b"\x00" * 16)
    assert again.content_url(HASH) == "http://blog.example/a/"
    assert again.last_fetched(FP) == 1700000000.5
    assert again.validators(FP) == Validators(etag='"v1"', last_modified=None)
    # The worker that committed it left: its offsets became this machine's baseline.
    assert again.output_offsets() == {"document.jsonl": 1234}
    again.close()


def test_claim_content_names_the_other_spider(redis_server: RedisServer, tmp_path: Path) -> None:
    trending = store_for(redis_server, tmp_path, "trending")
    batch = StateBatch()
    batch.contents[HASH] = ("https://raw.example/o/r/HEAD/README.md", 1.0)
    trending.commit(batch)
    search = store_for(redis_server, tmp_path, "github_search")
    assert search.claim_content(HASH) == ("trending", "https://raw.example/o/r/HEAD/README.md")
    assert trending.claim_content(HASH) is None  # its own, not another spider's
    alone = store_for(redis_server, tmp_path, "blogs", cross_spider=False)
    assert alone.claim_content(HASH) is None


def test_a_batch_is_all_or_nothing(redis_server: RedisServer, tmp_path: Path) -> None:
    store = store_for(redis_server, tmp_path)
    batch = StateBatch()
    batch.items[KEY] = 1.0
    batch.add_frontier(FP, b"request", False)  # the embedded scheduler's frontier: refused
    with pytest.raises(StateError, match="RedisScheduler"):
        store.commit(batch)
    assert not store_for(redis_server, tmp_path).has_item(KEY)


def test_two_workers_meeting_one_item_store_it_once(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b = store_for(redis_server, tmp_path), store_for(redis_server, tmp_path)
    a.join()
    b.join()
    assert not a.has_item(KEY)  # a claims it
    assert b.has_item(KEY)  # a is alive and storing it
    assert a.content_url(HASH) is None
    assert b.content_url(HASH) is not None
    batch = StateBatch()
    batch.items[KEY] = 1.0
    batch.contents[HASH] = ("http://blog.example/a/", 1.0)
    a.commit(batch)
    assert b.has_item(KEY)
    assert b.content_url(HASH) == "http://blog.example/a/"


def test_a_dead_workers_claim_is_taken_over_with_its_work(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b = store_for(redis_server, tmp_path), store_for(redis_server, tmp_path)
    a.join()
    b.join()
    assert not a.has_item(KEY)
    assert a.content_url(HASH) is None
    a.server.zadd(a.keys.workers, {a.worker: time.time() - 100})  # a stopped beating long ago
    # Until the others took a's work over (replaying the lines a wrote, which may hold this
    # item or page), its claims hold: taking them at once stored a page a had written twice.
    assert b.has_item(KEY)
    assert b.content_url(HASH) is not None
    assert b.requeue(a.worker, time.time() - 50) >= 0  # the takeover: a leaves the registry
    assert not b.has_item(KEY)  # b claims it: nothing is lost when a never wrote it
    assert b.content_url(HASH) is None


def test_frontier_pop_is_held_in_flight_until_done(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b = store_for(redis_server, tmp_path), store_for(redis_server, tmp_path)
    assert a.join().new_round
    assert not b.join().new_round
    for i, score in ((1, 0.0), (2, -10.0)):
        a.push_request(b"\x01" + bytes([i]) * 20 + b"payload", score)
    assert a.frontier_size() == 2
    first = b.pop_request()
    assert first is not None and first[1:21] == bytes([2]) * 20  # priority 10 first
    assert b.frontier_size() == 2 and b.queue_size() == 1  # still pending: in flight at b
    assert not a.drained()
    done = StateBatch()
    done.retire_frontier(bytes([2]) * 20)
    b.commit(done)
    assert b.frontier_size() == 1


def test_a_dead_workers_requests_go_back(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b = store_for(redis_server, tmp_path), store_for(redis_server, tmp_path)
    a.join()
    b.join()
    a.push_request(b"\x01" + b"k" * 20 + b"payload", 0.0)
    assert a.pop_request() is not None
    now = time.time()
    assert b.requeue(a.worker, now - 30) == -1  # a is alive: left alone
    a.server.zadd(a.keys.workers, {a.worker: now - 100})
    assert b.requeue(a.worker, now - 30) == 1
    assert b.queue_size() == 1 and a.worker not in b.workers()
    assert b.pop_request() == b"\x01" + b"k" * 20 + b"payload"


def test_leaving_gives_back_unfinished_requests(redis_server: RedisServer, tmp_path: Path) -> None:
    a = store_for(redis_server, tmp_path)
    a.join()
    a.push_request(b"\x01" + b"k" * 20 + b"payload", 0.0)
    assert a.pop_request() is not None
    a.close()  # e.g. Ctrl-C with a request in flight
    b = store_for(redis_server, tmp_path)
    assert b.queue_size() == 1
    assert not b.join().new_round  # work is pending: this is the same round, resumed


def test_output_offsets_are_the_smallest_of_live_workers(redis_server: RedisServer, tmp_path: Path) -> None:
    a, b, c = (store_for(redis_server, tmp_path) for _ in range(3))
    for store in (a, b, c):
        store.join()
    for store, offsets in ((a, {"document.jsonl": 500, "repo.jsonl": 10}), (b, {"document.jsonl": 300})):
        batch = StateBatch()
        batch.offsets.update(offsets)
        store.commit(batch)
    # b may have written lines to repo.jsonl it has not committed yet: replay it all.
    assert c.output_offsets() == {"document.jsonl": 300, "repo.jsonl": 0}
    other_machine = store_for(redis_server, tmp_path / "elsewhere")
    assert other_machine.output_offsets() == {}


def test_reset_moves_the_state_aside(redis_server: RedisServer, tmp_path: Path) -> None:
    store = store_for(redis_server, tmp_path)
    batch = StateBatch()
    batch.items[KEY] = 1.0
    store.commit(batch)
    live = store_for(redis_server, tmp_path)
    live.join()
    with pytest.raises(StateError, match="registered"):
        store_for(redis_server, tmp_path, reset=True)
    live.close()
    fresh = store_for(redis_server, tmp_path, reset=True)
    assert fresh.origin is StateOrigin.RESET
    assert not fresh.has_item(KEY)
    kept = [k for k in fresh.server.scan_iter(match="harvest:blogs:items:reset-*")]
    assert len(kept) == 1 and 0 < fresh.server.ttl(kept[0]) <= 7 * 86400


def test_redis_going_away_fails_the_store_naming_the_url(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", password="pw-secret").start()
    store = store_for(server, tmp_path)
    store.join()
    server.stop()
    with pytest.raises(StateError) as lookup:
        store.has_item(KEY)
    message = str(lookup.value)
    assert f"redis://:***@127.0.0.1:{server.port}/0" in message
    assert "pw-secret" not in message
    assert "cannot reach Redis" in message
    # Once failed, nothing more is committed, even if Redis comes back.
    server.start()
    batch = StateBatch()
    batch.retire_frontier(FP)
    with pytest.raises(StateError, match="failed earlier"):
        store.commit(batch)
    server.stop()


def test_the_near_duplicate_index_never_names_the_password(tmp_path: Path) -> None:
    """Its own Redis client fails like the store's: the URL in its errors is masked (a worker's
    log once carried the password when Redis went away during a lookup)."""
    import numpy as np

    from harvest.state.neardup import RedisNearDupIndex

    server = RedisServer(tmp_path / "redis", password="pw-secret").start()
    index = RedisNearDupIndex(server.url)
    server.stop()
    with pytest.raises(StateError) as lookup:
        index.find(np.zeros(128, dtype=np.uint32))
    assert "pw-secret" not in str(lookup.value)
    assert f"redis://:***@127.0.0.1:{server.port}/0" in str(lookup.value)
    with pytest.raises(StateError) as opening:
        RedisNearDupIndex(server.url)
    assert "pw-secret" not in str(opening.value) and "***" in str(opening.value)


def test_an_unknown_state_scheme_never_names_the_password(tmp_path: Path) -> None:
    with pytest.raises(StateError) as error:
        open_store("rediz://:pw-secret@127.0.0.1:1/0", "blogs", tmp_path)
    assert "pw-secret" not in str(error.value) and "unknown scheme 'rediz'" in str(error.value)


def test_unreachable_redis_is_a_clear_error(tmp_path: Path) -> None:
    port = RedisServer(tmp_path).port
    with pytest.raises(StateError, match=rf"redis://:\*\*\*@127.0.0.1:{port}/0: cannot reach Redis"):
        open_store(f"redis://:pw@127.0.0.1:{port}/0", "blogs", tmp_path, busy_timeout=2)


def test_filter_and_queue_are_one_step(redis_server: RedisServer, tmp_path: Path) -> None:
    """A request is either seen and queued, or neither (never seen but lost)."""
    store = store_for(redis_server, tmp_path)
    entry = b"\x01" + FP + b"payload"
    assert store.push_request(entry, 0.0, FP)
    assert not store.push_request(entry, 0.0, FP)  # seen this round
    # redis-py annotates sismember's value as str, but it encodes bytes like every other member.
    assert store.server.sismember(store.keys.dupefilter, FP)  # type: ignore[arg-type]
    assert store.queue_size() == 1
    assert store.push_request(b"\x01" + FP + b"retry", 0.0)  # dont_filter: no check
    assert store.queue_size() == 2
