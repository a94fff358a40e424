"""The persisted near-duplicate index: MinHash signatures and LSH band keys in SQLite.

One database for every spider (``<state root>/_shared/neardup.sqlite``, WAL), so a near-copy is
found across spiders like an exact content hash. Tables:

- ``docs``: one row per indexed document (spider, URL, content hash, signature);
- ``bands``: (band, key) -> document, the LSH buckets (indexed: a lookup is ``bands`` point
  queries, whatever the number of documents);
- ``progress``: per spider, the byte offset of its ``document.jsonl`` up to which documents are
  indexed, committed with them. After a kill the lines past it are indexed again on open
  (inserts are idempotent), so the index never misses a stored document nor names an unstored one;
- ``meta``: the band layout chosen when the database was created (kept, so that a changed
  threshold still compares like with like; the threshold itself applies at lookup).

With a Redis crawl state (``HARVEST_STATE_URL=redis://...``) the same index lives in that Redis
(:class:`RedisNearDupIndex`), shared by every process and machine.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from harvest.exceptions import StateError
from harvest.parsers.neardup import NUM_PERM, BandLayout, band_keys, from_bytes, similarity, to_bytes
from harvest.state.shared import immediate, open_shared_db
from harvest.util.redaction import mask_url

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)

#: Folder (under the state root) shared by every spider, as the SQLite state backend's.
SHARED_DIR = "_shared"
FILE_NAME = "neardup.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY, spider TEXT NOT NULL, url TEXT NOT NULL, content_hash TEXT NOT NULL,
    signature BLOB NOT NULL, UNIQUE (spider, url, content_hash));
CREATE TABLE IF NOT EXISTS bands (
    band INTEGER NOT NULL, key INTEGER NOT NULL, doc INTEGER NOT NULL,
    PRIMARY KEY (band, key, doc)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS progress (spider TEXT PRIMARY KEY, offset INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class IndexedDoc:
    """A document to index: who stored it, where, its text's hash and signature."""

    spider: str
    url: str
    content_hash: str
    signature: np.ndarray


@dataclass(frozen=True)
class NearMatch:
    """The earlier document a text nearly repeats, and the estimated similarity."""

    url: str
    spider: str
    similarity: float


def state_root(state_url: str, data_dir: str | Path) -> Path:
    """The state root of ``HARVEST_STATE_URL`` as the SQLite backend reads it (Redis: the data dir's)."""
    parts = urlsplit(state_url) if state_url else None
    if parts is not None and parts.scheme == "sqlite" and parts.path:
        return Path(unquote(parts.path))
    return Path(data_dir) / "state"


class NearDupIndex:
    """MinHash-LSH over SQLite (see the module docstring). One writer connection per crawl."""

    def __init__(self, path: Path, *, threshold: float = 0.9, busy_timeout: float = 30.0) -> None:
        self.path = path
        self.threshold = threshold
        self.db = open_shared_db(path, _SCHEMA, "near-duplicate index", busy_timeout=busy_timeout)
        try:
            self.layout = self._layout(threshold)
        except sqlite3.Error as exc:
            raise StateError(str(path), f"cannot open the near-duplicate index: {exc}") from exc

    @classmethod
    def open(cls, root: Path, *, threshold: float = 0.9, busy_timeout: float = 30.0) -> NearDupIndex:
        """The shared index under a state root."""
        return cls(root / SHARED_DIR / FILE_NAME, threshold=threshold, busy_timeout=busy_timeout)

    def _layout(self, threshold: float) -> BandLayout:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone()
        if row is not None:
            bands, rows, perm = (int(v) for v in row[0].split(","))
            if perm == NUM_PERM:
                return BandLayout(bands, rows)
        layout = BandLayout.for_threshold(threshold)
        self.db.execute(
            "INSERT OR REPLACE INTO meta VALUES ('layout', ?)", (f"{layout.bands},{layout.rows},{NUM_PERM}",)
        )
        return layout

    def candidates(self, keys: list[int]) -> set[int]:
        """Ids of the documents sharing at least one band key."""
        if not keys:
            return set()
        # One statement for every band (each a primary-key search): a statement per band was half
        # of the lookup's time, once per document.
        query = " UNION ALL ".join(["SELECT doc FROM bands WHERE band = ? AND key = ?"] * len(keys))
        args = [value for band, key in enumerate(keys) for value in (band, key)]
        return {row[0] for row in self.db.execute(query, args)}

    def find(self, sig: np.ndarray, *, exclude_url: str | None = None) -> NearMatch | None:
        """The earliest stored document at least ``threshold`` similar to ``sig`` (not ``exclude_url``)."""
        ids = self.candidates(band_keys(sig, self.layout))
        best: NearMatch | None = None
        for doc_id in sorted(ids):
            row = self.db.execute(
                "SELECT spider, url, signature FROM docs WHERE id = ?", (doc_id,)
            ).fetchone()
            if row is None or row[1] == exclude_url:
                continue
            score = similarity(sig, from_bytes(row[2]))
            if score >= self.threshold:
                best = NearMatch(row[1], row[0], score)
                break
        return best

    def offset(self, spider: str) -> int:
        """Byte offset of ``spider``'s document.jsonl indexed so far."""
        row = self.db.execute("SELECT offset FROM progress WHERE spider = ?", (spider,)).fetchone()
        return int(row[0]) if row else 0

    def add(self, docs: Iterable[IndexedDoc], *, spider: str | None = None, offset: int | None = None) -> int:
        """Index ``docs`` and record ``spider``'s progress ``offset``, in one transaction."""
        count = 0
        try:
            with immediate(self.db):
                for doc in docs:
                    cur = self.db.execute(
                        "INSERT OR IGNORE INTO docs (spider, url, content_hash, signature)"
                        " VALUES (?, ?, ?, ?)",
                        (doc.spider, doc.url, doc.content_hash, to_bytes(doc.signature)),
                    )
                    if not cur.rowcount:
                        continue
                    doc_id = cur.lastrowid
                    self.db.executemany(
                        "INSERT OR IGNORE INTO bands VALUES (?, ?, ?)",
                        [
                            (band, key, doc_id)
                            for band, key in enumerate(band_keys(doc.signature, self.layout))
                        ],
                    )
                    count += 1
                if spider is not None and offset is not None:
                    self.db.execute("INSERT OR REPLACE INTO progress VALUES (?, ?)", (spider, offset))
        except sqlite3.Error as exc:
            raise StateError(str(self.path), f"cannot write the near-duplicate index: {exc}") from exc
        return count

    def size(self) -> int:
        """Number of indexed documents."""
        return int(self.db.execute("SELECT COUNT(*) FROM docs").fetchone()[0])

    def close(self) -> None:
        """Close the connection."""
        self.db.close()


#: Adds a batch atomically: each document once (by spider, URL and hash), its band memberships,
#: and the spider's progress offset. KEYS[1] = key prefix; ARGV = spider, offset ('' = keep),
#: then per document: unique name, id, url, spider, signature, band key 1..n.
_REDIS_ADD = """
local p = KEYS[1]
local nbands = tonumber(ARGV[3])
local added = 0
local i = 4
while i <= #ARGV do
  local uniq, id, url, spider, sig = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  if redis.call('HSETNX', p .. 'uniq', uniq, id) == 1 then
    redis.call('HSET', p .. 'doc:' .. id, 'url', url, 'spider', spider, 'sig', sig)
    for b = 1, nbands do
      redis.call('SADD', p .. 'b:' .. (b - 1) .. ':' .. ARGV[i + 4 + b], id)
    end
    added = added + 1
  end
  i = i + 5 + nbands
end
if ARGV[2] ~= '' then redis.call('HSET', p .. 'progress', ARGV[1], ARGV[2]) end
return added
"""


class RedisNearDupIndex:
    """The same index in Redis (``HARVEST_STATE_URL=redis://...``): shared by every machine.

    Keys under ``harvest:neardup:``: ``doc:<id>`` (hash: url, spider, sig), ``b:<band>:<key>``
    (set of ids), ``uniq`` (hash: spider/url/hash -> id), ``progress``, ``layout``, ``next``.
    A batch is added by one Lua script, atomically.
    """

    PREFIX = "harvest:neardup:"

    def __init__(self, url: str, *, threshold: float = 0.9) -> None:
        import redis

        #: The URL without its password: errors name it, and they end up in logs.
        self.path = mask_url(url)
        self.threshold = threshold
        try:
            # Any: redis-py's replies are typed bytes | str | None whatever the decoding.
            self.db: Any = redis.Redis.from_url(url)
            stored: Any = self.db.get(self.PREFIX + "layout")
            if stored is not None:
                bands, rows, perm = (int(v) for v in stored.decode().split(","))
            if stored is None or perm != NUM_PERM:
                layout = BandLayout.for_threshold(threshold)
                self.db.set(self.PREFIX + "layout", f"{layout.bands},{layout.rows},{NUM_PERM}", nx=True)
                stored = self.db.get(self.PREFIX + "layout")
                bands, rows, _ = (int(v) for v in stored.decode().split(","))
            self.layout = BandLayout(bands, rows)
            self._add = self.db.register_script(_REDIS_ADD)
        except redis.RedisError as exc:
            raise StateError(self.path, f"cannot open the near-duplicate index: {exc}") from exc

    @contextmanager
    def _failing(self, what: str) -> Iterator[None]:
        """A Redis error in the block becomes a StateError naming the URL (never a raw one)."""
        import redis

        try:
            yield
        except redis.RedisError as exc:
            raise StateError(self.path, f"cannot {what} the near-duplicate index: {exc}") from exc

    def find(self, sig: np.ndarray, *, exclude_url: str | None = None) -> NearMatch | None:
        """The earliest stored document at least ``threshold`` similar to ``sig`` (not ``exclude_url``)."""
        keys = band_keys(sig, self.layout)
        with self._failing("read"):
            pipe = self.db.pipeline(transaction=False)
            for band, key in enumerate(keys):
                pipe.smembers(f"{self.PREFIX}b:{band}:{key}")
            ids = sorted({int(i) for members in pipe.execute() for i in members})
            for doc_id in ids:
                row = self.db.hmget(f"{self.PREFIX}doc:{doc_id}", "spider", "url", "sig")
                if row[2] is None or row[1].decode() == exclude_url:
                    continue
                score = similarity(sig, from_bytes(row[2]))
                if score >= self.threshold:
                    return NearMatch(row[1].decode(), row[0].decode(), score)
        return None

    def offset(self, spider: str) -> int:
        """Byte offset of ``spider``'s document.jsonl indexed so far."""
        with self._failing("read"):
            value = self.db.hget(self.PREFIX + "progress", spider)
        return int(value) if value is not None else 0

    def add(self, docs: Iterable[IndexedDoc], *, spider: str | None = None, offset: int | None = None) -> int:
        """Index ``docs`` and record ``spider``'s progress ``offset``, atomically."""
        batch = list(docs)
        # The ids are taken before the script runs (it needs them as arguments).
        with self._failing("write"):
            first = int(self.db.incrby(self.PREFIX + "next", len(batch))) - len(batch) if batch else 0
        args: list[Any] = [
            spider or "",
            "" if offset is None or spider is None else offset,
            self.layout.bands,
        ]
        for n, doc in enumerate(batch):
            args += [
                f"{doc.spider}\x00{doc.url}\x00{doc.content_hash}",
                first + n,
                doc.url,
                doc.spider,
                to_bytes(doc.signature),
                *band_keys(doc.signature, self.layout),
            ]
        with self._failing("write"):
            return int(self._add(keys=[self.PREFIX], args=args))

    def size(self) -> int:
        """Number of indexed documents."""
        with self._failing("read"):
            return int(self.db.hlen(self.PREFIX + "uniq"))

    def close(self) -> None:
        """Close the connection."""
        self.db.close()
