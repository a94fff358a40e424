"""The embedded SQLite crawl-state store: persistence, corruption, reset, locking, concurrency."""

from __future__ import annotations

import fcntl
import hashlib
import logging
import multiprocessing
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from harvest.exceptions import StateError
from harvest.state import StateBatch, StateOrigin, Validators, open_store
from harvest.state.sqlite import SqliteStateStore

FP_A, FP_B, FP_C = b"a" * 20, b"b" * 20, b"c" * 20


def sha(i: int) -> str:
    return hashlib.sha256(str(i).encode()).hexdigest()


HASH_1 = sha(1)
HASH_2 = sha(2)


def full_batch() -> StateBatch:
    batch = StateBatch()
    batch.items[b"k" * 16] = 100.0
    batch.contents[HASH_1] = ("https://example.org/a", 100.0)
    batch.fetched[FP_A] = 100.0
    batch.validators[FP_A] = (Validators('"v1"', "Mon, 01 Jan 2024 00:00:00 GMT"), 100.0)
    batch.add_frontier(FP_B, b"request-b", False)
    batch.add_frontier(FP_C, b"request-c", True)
    batch.offsets["document.jsonl"] = 1234
    return batch


def test_open_add_close_reopen(tmp_path: Path) -> None:
    store = SqliteStateStore.open(tmp_path, "spider")
    assert store.origin is StateOrigin.NEW
    store.commit(full_batch())
    # Lookups see committed data at once (journal mirror), before any merge.
    assert store.has_item(b"k" * 16)
    assert store.content_url(HASH_1) == "https://example.org/a"
    store.close()

    store = SqliteStateStore.open(tmp_path, "spider")
    try:
        assert store.origin is StateOrigin.EXISTING
        assert store.has_item(b"k" * 16) and not store.has_item(b"x" * 16)
        assert store.content_url(HASH_1) == "https://example.org/a"
        assert store.content_url(HASH_2) is None
        assert store.last_fetched(FP_A) == 100.0 and store.last_fetched(FP_B) is None
        assert store.validators(FP_A) == Validators('"v1"', "Mon, 01 Jan 2024 00:00:00 GMT")
        assert store.output_offsets() == {"document.jsonl": 1234}
        assert store.frontier_size() == 2
        assert store.frontier_dont_filter() == {FP_C}
        page = store.frontier_page(0, store.frontier_max_seq(), 10)
        assert [(e.fingerprint, e.request) for e in page] == [(FP_B, b"request-b"), (FP_C, b"request-c")]
        assert store.frontier_page(page[0].seq, store.frontier_max_seq(), 10)[0].fingerprint == FP_C
    finally:
        store.close()


def test_merge_keeps_everything_and_latest_fetch_time(tmp_path: Path) -> None:
    # merge_rows=3 forces merges of the journal into the indexed tables while committing.
    store = SqliteStateStore.open(tmp_path, "spider", merge_rows=3)
    for i in range(10):
        batch = StateBatch()
        batch.items[bytes([i]) * 16] = float(i)
        batch.contents[sha(i)] = (f"https://example.org/{i}", float(i))
        batch.fetched[FP_A] = float(i)  # refetched every time
        store.commit(batch)
    store.close()
    store = SqliteStateStore.open(tmp_path, "spider", merge_rows=3)
    try:
        assert all(store.has_item(bytes([i]) * 16) for i in range(10))
        urls = [store.content_url(sha(i)) for i in range(10)]
        assert urls == [f"https://example.org/{i}" for i in range(10)]
        assert store.last_fetched(FP_A) == 9.0
        journal = store.conn.execute("SELECT count(*) FROM journal").fetchone()[0]
        assert journal < 3 * 3
    finally:
        store.close()


def test_frontier_done_and_readd_in_one_batch(tmp_path: Path) -> None:
    store = SqliteStateStore.open(tmp_path, "spider")
    try:
        first = StateBatch()
        first.add_frontier(FP_A, b"old", False)
        first.add_frontier(FP_B, b"b", False)
        store.commit(first)
        second = StateBatch()
        second.retire_frontier(FP_A)  # done ...
        second.add_frontier(FP_A, b"new", False)  # ... and scheduled again in the same batch
        second.add_frontier(FP_C, b"c", False)
        second.retire_frontier(FP_C)  # scheduled and done before any commit
        store.commit(second)
        pending = {e.fingerprint: e.request for e in store.frontier_page(0, store.frontier_max_seq(), 10)}
        assert pending == {FP_A: b"new", FP_B: b"b"}
        clear = StateBatch()
        clear.frontier_clear = True
        store.commit(clear)
        assert store.frontier_size() == 0
    finally:
        store.close()


def test_corrupt_state_is_moved_aside_and_reported(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = SqliteStateStore.open(tmp_path, "spider")
    store.commit(full_batch())
    store.close()
    state_file = tmp_path / "spider" / "state.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{state_file}{extra}").unlink(missing_ok=True)
    garbage = b"this is not a database, it was overwritten by something else " * 100
    state_file.write_bytes(garbage)

    with caplog.at_level(logging.ERROR, logger="harvest.state.sqlite"):
        store = SqliteStateStore.open(tmp_path, "spider")
    try:
        assert store.origin is StateOrigin.RECOVERED
        assert not store.has_item(b"k" * 16)
        store.commit(full_batch())  # and the fresh store works
    finally:
        store.close()
    moved = list(tmp_path.glob("spider.corrupt-*"))
    assert len(moved) == 1
    assert (moved[0] / "state.sqlite").read_bytes() == garbage  # kept, never deleted
    assert str(state_file) in caplog.text and str(moved[0]) in caplog.text


def test_truncated_state_file_is_recovered(tmp_path: Path) -> None:
    store = SqliteStateStore.open(tmp_path, "spider", merge_rows=1)
    batch = StateBatch()
    for i in range(5000):
        batch.items[i.to_bytes(16, "big")] = 1.0
    store.commit(batch)
    store.close()
    state_file = tmp_path / "spider" / "state.sqlite"
    data = state_file.read_bytes()
    state_file.write_bytes(data[:100] + b"\xff" * 200 + data[300:])  # damage the header page
    store = SqliteStateStore.open(tmp_path, "spider")
    try:
        assert store.origin is StateOrigin.RECOVERED
    finally:
        store.close()
    assert len(list(tmp_path.glob("spider.corrupt-*"))) == 1


def test_reset_moves_the_old_state_aside(tmp_path: Path) -> None:
    store = SqliteStateStore.open(tmp_path, "spider")
    store.commit(full_batch())
    store.close()

    store = SqliteStateStore.open(tmp_path, "spider", reset=True)
    try:
        assert store.origin is StateOrigin.RESET
        assert not store.has_item(b"k" * 16)
        assert store.frontier_size() == 0 and store.output_offsets() == {}
    finally:
        store.close()
    old = list(tmp_path.glob("spider.reset-*"))
    assert len(old) == 1
    kept = SqliteStateStore.open(tmp_path, old[0].name, readonly=True)
    try:
        assert kept.has_item(b"k" * 16)  # the old state is intact, just moved
    finally:
        kept.close()


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    store = SqliteStateStore.open(tmp_path, "spider")
    try:
        with pytest.raises(StateError, match="another crawl of this spider is running"):
            SqliteStateStore.open(tmp_path, "spider")
        reader = SqliteStateStore.open(tmp_path, "spider", readonly=True)  # readers are fine
        reader.close()
    finally:
        store.close()
    SqliteStateStore.open(tmp_path, "spider").close()  # released on close


def test_a_crawl_waits_for_the_previous_writer_to_finish(tmp_path: Path) -> None:
    # The previous crawl (e.g. a child of a killed supervisor, flushing) holds the lock a while.
    (tmp_path / "state").mkdir()
    holder = open(tmp_path / "state" / "spider.lock", "a+")  # noqa: SIM115
    fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
    released = threading.Event()

    def release() -> None:
        holder.close()
        released.set()

    timer = threading.Timer(0.5, release)
    timer.start()
    store = open_store("", "spider", tmp_path, busy_timeout=10)  # what a crawl opens
    try:
        assert released.is_set()  # it opened only once the previous writer let go, not before
        with pytest.raises(StateError, match="another crawl of this spider is running"):
            open_store("", "spider", tmp_path, busy_timeout=0.3)  # still refused after the wait
    finally:
        store.close()
        timer.join()


def test_newer_schema_is_refused_not_moved(tmp_path: Path) -> None:
    SqliteStateStore.open(tmp_path, "spider").close()
    conn = sqlite3.connect(tmp_path / "spider" / "state.sqlite")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StateError, match="newer"):
        SqliteStateStore.open(tmp_path, "spider")
    assert not list(tmp_path.glob("spider.*-*"))


def test_open_store_by_url(tmp_path: Path) -> None:
    store = open_store("", "spider", tmp_path)
    assert store.location == str(tmp_path / "state" / "spider" / "state.sqlite")
    store.close()
    store = open_store(f"sqlite://{tmp_path}/elsewhere", "spider", tmp_path)
    assert store.location == str(tmp_path / "elsewhere" / "spider" / "state.sqlite")
    store.close()
    with pytest.raises(StateError, match="unknown scheme 'ftp'"):
        open_store("ftp://host/x", "spider", tmp_path)
    with pytest.raises(StateError, match="cannot name a state folder"):
        open_store("", "../escape", tmp_path)


def test_cross_spider_content(tmp_path: Path) -> None:
    one = SqliteStateStore.open(tmp_path, "one", share_seconds=0)
    two = SqliteStateStore.open(tmp_path, "two")
    try:
        batch = StateBatch()
        batch.contents[HASH_1] = ("https://example.org/readme", 1.0)
        one.commit(batch)
        assert two.claim_content(HASH_1) == ("one", "")  # the shared table keeps no URLs
        assert one.claim_content(HASH_1) is None  # its own hashes are not "another spider's"
        assert two.content_url(HASH_1) is None
    finally:
        one.close()
        two.close()
    # Claims: the first spider to ask about a new hash owns it, before anything is committed.
    three = SqliteStateStore.open(tmp_path, "three")
    four = SqliteStateStore.open(tmp_path, "four")
    try:
        assert three.claim_content(HASH_2) is None  # claimed by three
        assert four.claim_content(HASH_2) == ("three", "")
        assert three.claim_content(HASH_2) is None  # still its own
    finally:
        three.close()
        four.close()
    lonely = SqliteStateStore.open(tmp_path, "five", cross_spider=False)
    try:
        assert lonely.claim_content(HASH_1) is None
    finally:
        lonely.close()


# --- concurrency: processes reading while one writes -------------------------------------------


def _writer(root: str, spider: str, seconds: float, result: Any) -> None:
    errors: list[str] = []
    commits = 0
    store = SqliteStateStore.open(Path(root), spider, merge_rows=2000, share_seconds=0)
    deadline = time.monotonic() + seconds
    i = 0
    try:
        while time.monotonic() < deadline:
            batch = StateBatch()
            for _ in range(50):
                batch.items[i.to_bytes(16, "big")] = 1.0
                batch.contents[f"{spider}-{i}"] = (f"https://example.org/{i}", 1.0)
                batch.fetched[i.to_bytes(20, "big")] = 1.0
                i += 1
            batch.offsets["document.jsonl"] = i
            try:
                store.commit(batch)
                commits += 1
            except StateError as exc:
                errors.append(str(exc))
    finally:
        store.close()
    result.put(("writer", spider, commits, errors))


def _reader(root: str, spider: str, seconds: float, result: Any) -> None:
    errors: list[str] = []
    reads = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            store = SqliteStateStore.open(Path(root), spider, readonly=True)
            try:
                for i in range(0, 2000, 7):
                    store.has_item(i.to_bytes(16, "big"))
                    store.claim_content(f"other-{i}")
                store.output_offsets()
                reads += 1
            finally:
                store.close()
        except StateError as exc:
            errors.append(str(exc))
    result.put(("reader", spider, reads, errors))


def test_readers_and_writers_in_parallel_never_see_database_is_locked(tmp_path: Path) -> None:
    SqliteStateStore.open(tmp_path, "main").close()
    SqliteStateStore.open(tmp_path, "other").close()
    ctx = multiprocessing.get_context("spawn")
    result = ctx.Queue()
    seconds = 3.0
    procs = [
        ctx.Process(target=_writer, args=(str(tmp_path), "main", seconds, result)),
        # A second spider writes the shared content database at the same time.
        ctx.Process(target=_writer, args=(str(tmp_path), "other", seconds, result)),
        ctx.Process(target=_reader, args=(str(tmp_path), "main", seconds, result)),
        ctx.Process(target=_reader, args=(str(tmp_path), "main", seconds, result)),
    ]
    for p in procs:
        p.start()
    outcomes = [result.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(10)
    for role, spider, count, errors in outcomes:
        assert errors == [], f"{role} of {spider}: {errors[:3]}"
        assert count > 0, f"{role} of {spider} did nothing"
    store = SqliteStateStore.open(tmp_path, "main", readonly=True)
    try:
        assert store.integrity_errors() == []
    finally:
        store.close()


def _open_in_rounds(root: str, spider: str, rounds: int, barrier: Any, result: Any) -> None:
    errors = []
    for r in range(rounds):
        barrier.wait(60)
        try:
            SqliteStateStore.open(Path(root) / str(r), spider).close()
        except StateError as exc:
            errors.append(str(exc))
    result.put(errors)


def test_processes_opening_a_new_data_folder_together_all_open_it(tmp_path: Path) -> None:
    # The workers of a partitioned crawl start together and each creates the shared content
    # database if it is new: switching a new file to WAL answered "database is locked" at once
    # (without SQLite's busy wait) to ~1 open in 7 before the switch waited.
    ctx = multiprocessing.get_context("spawn")
    barrier, result = ctx.Barrier(3), ctx.Queue()
    rounds = 30
    procs = [
        ctx.Process(target=_open_in_rounds, args=(str(tmp_path), f"spider{i}", rounds, barrier, result))
        for i in range(3)
    ]
    for p in procs:
        p.start()
    outcomes = [result.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(10)
    assert outcomes == [[], [], []]
    assert all((tmp_path / str(r) / "_shared" / "content.sqlite").exists() for r in range(rounds))
