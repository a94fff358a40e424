"""The crawl process's seen set: exact answers with bounded memory (harvest/state/seen.py)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from harvest.state.seen import SeenSet, SeenUrls

SEED = 36


def _keys(n: int, salt: str) -> list[bytes]:
    return [hashlib.sha1(f"{salt}{i}".encode()).digest() for i in range(n)]


def test_every_key_added_is_seen_and_no_other_is(tmp_path: Path) -> None:
    # A Bloom filter sized for 1,000 keys holding 20,000: many false positives, each looked up.
    seen = SeenSet(tmp_path, recent=500, bloom_keys=1000)
    added = _keys(20_000, "a")
    for key in added:
        assert not seen.seen_or_add(key)
    rng = random.Random(SEED)
    print(f"seed {SEED}")
    assert all(key in seen for key in rng.sample(added, 2000))
    others = _keys(5000, "b")
    assert not any(key in seen for key in others), "a key never added was reported seen"
    assert seen.disk_misses > 0, "the over-full filter should have let false positives through"
    assert len(seen) == 20_000
    seen.close()


def test_memory_holds_two_generations_of_recent_keys_at_most(tmp_path: Path) -> None:
    seen = SeenSet(tmp_path, recent=100, bloom_keys=0)
    for key in _keys(5000, "c"):
        seen.add(key)
        assert len(seen._young) + len(seen._old) <= 200
        assert len(seen._disk._pending) <= 1024
    before = seen.disk_lookups
    assert all(k in seen for k in _keys(5000, "c"))
    assert seen.disk_lookups - before >= 4800  # all but the last 200 answered from disk
    seen.close()


def test_the_scratch_file_leaves_nothing_in_the_folder(tmp_path: Path) -> None:
    seen = SeenSet(tmp_path, recent=10, bloom_keys=100)
    for key in _keys(3000, "d"):
        seen.add(key)
    assert list(tmp_path.iterdir()) == []  # unlinked once open: a kill -9 leaves nothing either
    assert all(k in seen for k in _keys(3000, "d"))
    seen.close()


def test_urls_of_two_namespaces_do_not_meet(tmp_path: Path) -> None:
    seen = SeenSet(tmp_path, recent=10, bloom_keys=100)
    requested, stored = SeenUrls(seen, b"requested"), SeenUrls(seen, b"stored")
    requested.add("http://127.0.0.1/a")
    assert "http://127.0.0.1/a" in requested
    assert "http://127.0.0.1/a" not in stored
    assert not stored.seen_or_add("http://127.0.0.1/a")
    assert stored.seen_or_add("http://127.0.0.1/a")
    seen.close()


def test_spilled_keys_come_and_go(tmp_path: Path) -> None:
    seen = SeenSet(tmp_path)
    spilled = seen.spill_set("spilled")
    keys = _keys(3000, "e")
    for key in keys:
        spilled.add(key)
    assert len(spilled) == 3000 and keys[0] in spilled and keys[-1] in spilled
    spilled.discard_many(keys[:2500])
    assert len(spilled) == 500
    assert keys[0] not in spilled and keys[2600] in spilled
    spilled.clear()
    assert not spilled and keys[2600] not in spilled
    seen.close()
