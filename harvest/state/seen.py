"""What one crawl process has seen in this run, in bounded memory: recent keys in RAM, all on disk.

A crawl asks "seen in this run?" of every link it finds (the spider's requested URLs), every
request it schedules (the duplicate filter) or hands to another worker (the hand-off), and
every request handed to it. Held in Python sets these grew by ~0.5 KB per page crawled (a
million-page crawl's workers held ~200 MB each; BENCHMARKS.md, "Where the memory went").
:class:`SeenSet` answers the same questions exactly with memory that does not grow with the
crawl:

- the most recent ``HARVEST_DEDUP_RECENT_KEYS`` keys in two generations of sets (a site's
  navigation links, found on every page, are answered here);
- a Bloom filter over every key, of ``HARVEST_DEDUP_BLOOM_KEYS`` keys at a 1% false-positive
  rate (9.6 bits and 7 probes a key: 2.4 MB for 2,000,000 keys; the rate rises past that many
  keys). A "no" is certain: a new key costs no disk read;
- every key in a scratch SQLite table, the exact answer behind a "maybe". A false positive costs
  that one lookup, never a page.

The scratch file lives in the state folder, unlinked as soon as it is open: it is this run's
(the seen sets were always per run; the persisted frontier and fetch times carry a crawl across
runs and ``kill -9``), and a killed process leaves nothing behind. It is never synced: nothing
durable depends on it. Its rollback journal is kept in memory, so a write that fails (a full
disk) is undone whole; from then on this run keeps new keys in memory, said once, and every
answer stays exact (a full disk stops the crawl soon anyway: its output cannot be written).

:class:`ScratchSet` is the same table without the memory in front, for keys that are added and
removed again (the frontier's spilled requests).

Keys are digests (request fingerprints, :meth:`SeenSet.url_key`), so their bytes are already
uniform: the Bloom filter's probes are taken from them, not hashed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: Keys written to the scratch table at a time (one transaction each).
_FLUSH = 1024
#: The scratch database's page cache (KiB): its B-tree's inner pages stay cached, so a lookup
#: reads at most a leaf from the OS's page cache.
_CACHE_KIB = 2 * 1024
#: Bloom filter probes and bits per key for a 1% false-positive rate (k = 7, m/n = 9.59).
_PROBES = 7
_BITS_PER_KEY = -math.log(0.01) / math.log(2) ** 2

_SETS: WeakKeyDictionary[Crawler, SeenSet] = WeakKeyDictionary()


class _Scratch:
    """One process's scratch SQLite database (opened on first use, unlinked once open).

    Every write goes through :meth:`write`; once one fails the database is written no more
    (:attr:`failed`) and its callers keep what they would have written in memory.
    """

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._conn: sqlite3.Connection | None = None
        self._tables: set[str] = set()
        #: Why the scratch file could not be written (None while it can).
        self.failed: str | None = None

    def conn(self, table: str) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._open()
        if table not in self._tables:
            self._conn.execute(f"CREATE TABLE IF NOT EXISTS {table} (k BLOB PRIMARY KEY) WITHOUT ROWID")
            self._tables.add(table)
        return self._conn

    def _open(self) -> sqlite3.Connection:
        folders = [self.folder] if self.folder is not None else []
        for folder in [*folders, Path(tempfile.gettempdir())]:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                fd, name = tempfile.mkstemp(prefix=".seen-", suffix=".sqlite", dir=folder)
                os.close(fd)
                conn = sqlite3.connect(name, isolation_level=None, check_same_thread=False)
                # A journal in memory: no file to write, and a failed write is still undone
                # whole (with none, SQLite leaves a half-written transaction in the file).
                conn.execute("PRAGMA journal_mode=MEMORY")
                conn.execute("PRAGMA synchronous=OFF")
                conn.execute(f"PRAGMA cache_size=-{_CACHE_KIB}")
                conn.execute("PRAGMA temp_store=FILE")
                # Open and written to: the file can go (POSIX keeps it while it is open).
                conn.execute("CREATE TABLE IF NOT EXISTS _opened (x)")
                os.unlink(name)
                return conn
            except (OSError, sqlite3.Error) as exc:
                logger.info("No scratch file for the seen set in %s (%s)", folder, exc)
        return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)

    def write(self, table: str, sql: str, rows: Iterable[tuple[bytes, ...]]) -> bool:
        """Run ``sql`` over ``rows`` in one transaction: True if done, False if not (and never again)."""
        if self.failed is not None:
            return False
        try:
            conn = self.conn(table)
            conn.execute("BEGIN")
            conn.executemany(sql, rows)
            conn.execute("COMMIT")
            return True
        except sqlite3.Error as exc:
            self._fail(exc)
            return False

    def read(self, table: str, sql: str, args: Sequence[bytes]) -> list[bytes]:
        """The keys ``sql`` selects, or none once the scratch file failed to answer."""
        try:
            return [row[0] for row in self.conn(table).execute(sql, args)]
        except sqlite3.Error as exc:
            self._fail(exc)
            return []

    def _fail(self, exc: sqlite3.Error) -> None:
        if self._conn is not None and self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
        if self.failed is None:
            self.failed = str(exc)
            logger.warning(
                "The seen set's scratch file in %s failed (%s); this run keeps its new keys in memory",
                self.folder or tempfile.gettempdir(),
                exc,
            )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._tables.clear()


class ScratchSet:
    """A set of bytes keys in a scratch table: add, discard, membership, size (see the module).

    Once the scratch file failed, keys added stay in memory and keys removed from the file are
    remembered as gone, so every answer stays exact.
    """

    def __init__(self, scratch: _Scratch, table: str) -> None:
        self._scratch = scratch
        self.table = table
        self._size = 0
        #: Added, not written yet (written when they reach _FLUSH, or before a read).
        self._pending: set[bytes] = set()
        #: Removed while they are still in the file (it could not be written).
        self._gone: set[bytes] = set()
        #: Whether the file may hold keys of this set (False once cleared without it).
        self._in_file = False

    def add(self, key: bytes) -> None:
        """Add ``key`` (known to be absent: the callers add each key once)."""
        self._pending.add(key)
        self._gone.discard(key)
        self._size += 1
        if len(self._pending) >= _FLUSH:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        if self._scratch.write(
            self.table, f"INSERT OR IGNORE INTO {self.table} VALUES (?)", ((k,) for k in self._pending)
        ):
            self._pending.clear()
            self._in_file = True

    def __contains__(self, key: object) -> bool:
        if key in self._pending:
            return True
        if not self._in_file or not isinstance(key, bytes) or key in self._gone:
            return False
        return bool(self._scratch.read(self.table, f"SELECT k FROM {self.table} WHERE k = ?", (key,)))

    def present(self, keys: list[bytes]) -> set[bytes]:
        """Those of ``keys`` in the set (a query per 500 keys)."""
        found = {key for key in keys if key in self._pending}
        if not self._in_file:
            return found
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            marks = ",".join("?" * len(chunk))
            found.update(
                self._scratch.read(self.table, f"SELECT k FROM {self.table} WHERE k IN ({marks})", chunk)
            )
        return found - self._gone

    def discard_many(self, keys: Iterable[bytes]) -> None:
        """Remove ``keys`` (each present)."""
        written = []
        for key in keys:
            self._size -= 1
            if key in self._pending:
                self._pending.discard(key)
            else:
                written.append(key)
        if written and not self._scratch.write(
            self.table, f"DELETE FROM {self.table} WHERE k = ?", ((k,) for k in written)
        ):
            self._gone.update(written)

    def clear(self) -> None:
        """Remove every key."""
        self._pending.clear()
        self._gone.clear()
        if self._in_file:
            # If this fails, the file is read no more: what it still holds is not in the set.
            self._scratch.write(self.table, f"DELETE FROM {self.table}", [()])
        self._in_file = False
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0


class SeenSet:
    """Keys seen in this run: recent ones in RAM, a Bloom filter, all of them on disk.

    ``recent``: keys per in-memory generation (two are kept); ``bloom_keys``: keys the Bloom
    filter is sized for at 1% false positives (0: none, every older key is looked up).
    """

    def __init__(self, folder: Path | None, *, recent: int = 16_384, bloom_keys: int = 2_000_000) -> None:
        self._scratch = _Scratch(folder)
        self._disk = ScratchSet(self._scratch, "seen")
        self.recent = max(1, recent)
        self._young: set[bytes] = set()
        self._old: set[bytes] = set()
        self._bits = max(64, int(bloom_keys * _BITS_PER_KEY)) if bloom_keys > 0 else 0
        # Zeroed by calloc: the pages count in RSS only once a bit is set in them.
        self._bloom = bytearray((self._bits + 7) // 8)
        #: Lookups that reached the disk, and those that found nothing (the Bloom filter's
        #: false positives when it has one): for tests and the benchmarks.
        self.disk_lookups = 0
        self.disk_misses = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SeenSet:
        """The crawl process's seen set (one per crawler, shared by every component)."""
        seen = _SETS.get(crawler)
        if seen is None:
            settings = crawler.settings
            data_dir = settings.get("HARVEST_DATA_DIR")
            seen = cls(
                Path(data_dir) / "state" if data_dir else None,
                recent=settings.getint("HARVEST_DEDUP_RECENT_KEYS"),
                bloom_keys=settings.getint("HARVEST_DEDUP_BLOOM_KEYS"),
            )
            _SETS[crawler] = seen
        return seen

    @staticmethod
    def url_key(url: str, kind: bytes) -> bytes:
        """The key of ``url`` in the ``kind`` namespace (16 bytes: never a 20-byte fingerprint)."""
        return hashlib.blake2b(url.encode("utf-8", "surrogatepass"), digest_size=16, person=kind).digest()

    def _maybe(self, key: bytes) -> bool:
        # Probes by double hashing over two 64-bit halves of the digest (Kirsch and Mitzenmacher).
        bloom, bits = self._bloom, self._bits
        h1 = int.from_bytes(key[:8], "little")
        h2 = int.from_bytes(key[8:16], "little") | 1
        for i in range(_PROBES):
            j = (h1 + i * h2) % bits
            if not bloom[j >> 3] >> (j & 7) & 1:
                return False  # most new keys stop at the first or second probe
        return True

    def __contains__(self, key: object) -> bool:
        if key in self._young or key in self._old:
            return True
        if not isinstance(key, bytes) or (self._bits and not self._maybe(key)):
            return False
        self.disk_lookups += 1
        found = key in self._disk
        if not found:
            self.disk_misses += 1
        return found

    def add(self, key: bytes) -> None:
        """Remember ``key`` (whether or not it was seen: a set's ``add``)."""
        if key in self:
            return
        self.add_new(key)

    def add_new(self, key: bytes) -> None:
        """Remember ``key``, known to be unseen (the caller just asked)."""
        if self._bits:
            bloom, bits = self._bloom, self._bits
            h1 = int.from_bytes(key[:8], "little")
            h2 = int.from_bytes(key[8:16], "little") | 1
            for i in range(_PROBES):
                j = (h1 + i * h2) % bits
                bloom[j >> 3] |= 1 << (j & 7)
        self._disk.add(key)
        self._young.add(key)
        if len(self._young) >= self.recent:
            # The old generation's keys are all on disk by now (written every _FLUSH keys).
            self._disk._flush()
            self._old = self._young
            self._young = set()

    def seen_many(self, keys: Iterable[bytes]) -> set[bytes]:
        """Those of ``keys`` seen: the recent ones from memory, the others in one disk query.

        No Bloom filter here: a page's links are mostly seen ones, which it cannot answer, and
        one query for all of them costs about what one lookup does.
        """
        young, old = self._young, self._old
        found: set[bytes] = set()
        ask: list[bytes] = []
        for key in keys:
            if key in young or key in old:
                found.add(key)
            else:
                ask.append(key)
        if ask and len(self._disk):
            self.disk_lookups += len(ask)
            hits = self._disk.present(ask)
            self.disk_misses += len(ask) - len(hits)
            found |= hits
        return found

    def seen_or_add(self, key: bytes) -> bool:
        """True if ``key`` was seen; else remember it and return False."""
        if key in self:
            return True
        self.add_new(key)
        return False

    def __len__(self) -> int:
        return len(self._disk)

    def spill_set(self, table: str) -> ScratchSet:
        """A :class:`ScratchSet` in this process's scratch database."""
        return ScratchSet(self._scratch, table)

    def close(self) -> None:
        """Drop the scratch database (the file is already unlinked)."""
        with contextlib.suppress(sqlite3.Error):
            self._scratch.close()


class SeenUrls:
    """A :class:`SeenSet`'s view of URLs in one namespace: ``url in seen``, ``seen.add(url)``."""

    def __init__(self, seen: SeenSet, kind: bytes) -> None:
        self.seen = seen
        self.kind = kind

    def __contains__(self, url: object) -> bool:
        return isinstance(url, str) and SeenSet.url_key(url, self.kind) in self.seen

    def add(self, url: str) -> None:
        """Remember ``url``."""
        self.seen.add(SeenSet.url_key(url, self.kind))

    def seen_or_add(self, url: str) -> bool:
        """True if ``url`` was seen; else remember it and return False."""
        return self.seen.seen_or_add(SeenSet.url_key(url, self.kind))

    def seen_many(self, urls: Iterable[str]) -> set[str]:
        """Those of ``urls`` seen (one disk query for those not recent)."""
        keys = {SeenSet.url_key(url, self.kind): url for url in urls}
        return {keys[key] for key in self.seen.seen_many(keys)}
