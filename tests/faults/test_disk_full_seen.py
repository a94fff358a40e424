"""The seen set's scratch file on a disk that fills up: every answer stays exact, said once.

A crawl process keeps every key it has seen in an unlinked scratch SQLite file in the state
folder (:mod:`harvest.state.seen`). On a full disk a write to it failed half-way, and the next
one raised "cannot start a transaction within a transaction" out of the duplicate filter, then
"database disk image is malformed": tracebacks from Scrapy's scheduler, and a two-worker crawl
that never closed. Now the failed write is undone whole, new keys stay in memory, and the
failure is one warning naming the folder.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from harvest.state.seen import SeenSet


def _keys(start: int, count: int) -> list[bytes]:
    return [hashlib.blake2b(str(i).encode(), digest_size=16).digest() for i in range(start, start + count)]


def test_a_seen_set_that_fills_its_disk_keeps_every_key_and_says_so_once(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = small_disk / "state"
    # No Bloom filter and a small memory: every older key is answered by the scratch file.
    seen = SeenSet(folder, recent=64, bloom_keys=0)
    spilled = seen.spill_set("spilled")
    early = _keys(0, 3000)
    for key in early:
        spilled.add(key)  # 2 of 3 flushes reach the file while it has room
    added = _keys(10_000, 100_000)  # ~4 MB of keys: far past the disk's 1 MB
    with caplog.at_level(logging.INFO, logger="harvest.state.seen"):
        for key in added:
            assert not seen.seen_or_add(key)
        assert seen._scratch.failed, "the disk never filled: the test proves nothing"
        # Every key added is seen, before and after the disk filled; a new one is not.
        assert all(key in seen for key in added[::97])
        assert seen.seen_many(added[-500:]) == set(added[-500:])
        assert not any(key in seen for key in _keys(500_000, 2000))
        assert len(seen) == len(added)
        # Keys written before the failure and removed after it are gone; the others stay.
        spilled.discard_many(early[:1500])
        assert not any(key in spilled for key in early[:1500])
        assert spilled.present(early) == set(early[1500:])
        assert len(spilled) == 1500
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert str(folder) in warnings[0].getMessage() and "full" in warnings[0].getMessage()
    seen.close()
