"""The embedded crawl-state backend: one SQLite database in WAL mode per spider.

Layout under the state root (``HARVEST_DATA_DIR/state`` unless ``HARVEST_STATE_URL`` is
``sqlite:///<dir>``)::

    <spider>/state.sqlite      tables items, content, urls, fetched, journal, validators,
                               frontier, output_offsets
    <spider>.lock              held (flock) by the one crawl of <spider> that may write
    _shared/content.sqlite     content hashes of every spider, for cross-spider dedup
    <spider>.reset-<utc>/      an old state moved aside by a reset
    <spider>.corrupt-<utc>/    an unreadable state moved aside (never deleted)

WAL mode lets readers (status commands, other spiders reading the shared database) run while
a crawl writes; ``busy_timeout`` makes writers of the shared database wait for each other
instead of failing with "database is locked". ``synchronous=NORMAL`` is enough: a process
kill loses nothing committed, and a power loss can at worst lose the last commits, which the
output reconciliation replays from the (fsynced) output files.

Write pattern: a key set of a million entries is a B-tree of thousands of pages, and inserting
a commit's hundred random keys dirties a hundred of them, each written to the WAL at every
commit. So seen keys, content hashes and fetch times are first *appended* to a ``journal`` table
(a few pages per commit) and mirrored in small in-memory maps for lookups; every
``merge_rows`` journal rows they are merged into the indexed tables in one sorted pass (each
page written once per merge), in one transaction. On open the journal (at most ``merge_rows``
rows) is loaded back into memory. In the shared database a document's hash is claimed as the
document passes the dedup pipeline (see :meth:`SqliteStateStore.claim_content`); the journal is
also pushed there in sorted batches (every ``share_seconds`` seconds, at each merge and at
close) for whatever was not claimed that way.

A merge rewrites about every page of the indexed tables, so they are kept small: keys are
16-byte digests (content hashes and fingerprints truncated to 128 bits: a collision needs ~2^64
entries), times are whole seconds, and document URLs live in an append-only ``urls`` table the
content rows point into, which merges never rewrite.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from harvest.exceptions import StateError
from harvest.state import FrontierEntry, StateBatch, StateOrigin, Validators
from harvest.state.sqlite_files import key16, open_state
from harvest.state.sqlite_tables import CONTENT, FETCHED, ITEM, merge_journal, transaction, write_batch

if TYPE_CHECKING:
    from typing_extensions import Self

logger = logging.getLogger(__name__)


#: Journal rows merged into the indexed tables at once: a merge rewrites most of their pages, so
#: larger is cheaper per key; the in-memory mirror costs ~150 bytes a row (~4.5 MB here), memory
#: a crawl reaches after ~10,000 pages and keeps (issue 36: 100,000 rows made it ~15 MB a worker).
MERGE_ROWS = 30_000
#: Seconds between pushes of the journal's content hashes to the shared database. Documents
#: claim theirs at once; this only bounds the delay for hashes replayed from the output.
SHARE_SECONDS = 10.0


class SqliteStateStore:
    """:class:`harvest.state.StateStore` on SQLite (WAL); see the module docstring for the layout.

    Built by :func:`harvest.state.open_store`; ``__init__`` takes open connections so tests can
    build one directly with :meth:`open`.
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        spider_name: str,
        origin: StateOrigin,
        *,
        shared: sqlite3.Connection | None = None,
        lock: IO[str] | None = None,
        journal: list[tuple[Any, ...]] | None = None,
        merge_rows: int = MERGE_ROWS,
        share_seconds: float = SHARE_SECONDS,
    ) -> None:
        journal = journal or []
        self.conn = conn
        self.path = path
        self.location = str(path)
        self.spider_name = spider_name
        self.origin = origin
        self.shared = shared
        self._lock = lock
        self.merge_rows = max(1, merge_rows)
        self.share_seconds = share_seconds
        # In-memory mirror of the journal (see the module docstring).
        self._recent_items: set[bytes] = set()
        self._recent_content: dict[bytes, str] = {}
        self._recent_fetched: dict[bytes, float] = {}
        self._journal_rows = 0
        # Journal rows up to this seq are in the shared table; after a restart, the whole
        # journal is pushed again (INSERT OR IGNORE: idempotent).
        self._shared_upto = 0
        self._unshared = 0
        self._last_share = time.monotonic()
        self._load_journal(journal)
        try:
            self._spider_id = self._shared_spider_id() if shared is not None else 0
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc

    def _shared_spider_id(self) -> int:
        assert self.shared is not None
        row = self.shared.execute("SELECT id FROM spiders WHERE name = ?", (self.spider_name,)).fetchone()
        if row is None and self._lock is not None:
            with transaction(self.shared):
                self.shared.execute("INSERT OR IGNORE INTO spiders (name) VALUES (?)", (self.spider_name,))
            row = self.shared.execute("SELECT id FROM spiders WHERE name = ?", (self.spider_name,)).fetchone()
        return int(row[0]) if row is not None else 0

    def _load_journal(self, rows: list[tuple[Any, ...]]) -> None:
        for kind, key, url, ts in rows:
            key = bytes(key)
            if kind == ITEM:
                self._recent_items.add(key)
            elif kind == CONTENT:
                self._recent_content.setdefault(key, url or "")
                self._unshared += 1
            elif kind == FETCHED:
                self._recent_fetched[key] = float(ts)
        self._journal_rows = len(rows)

    @classmethod
    def from_url(
        cls,
        url: str,
        spider_name: str,
        data_dir: Path,
        *,
        reset: bool = False,
        cross_spider: bool = True,
        readonly: bool = False,
        busy_timeout: float = 30.0,
    ) -> Self:
        """Open from ``HARVEST_STATE_URL`` (``""``, ``sqlite:`` or ``sqlite:///<state root>``)."""
        root_part = unquote(urlsplit(url).path) if url else ""
        root = Path(root_part) if root_part else Path(data_dir) / "state"
        # A crawl opening its state waits for the spider's lock as long as for any SQLite lock:
        # the previous writer may be finishing (the children of a killed supervisor flush their
        # output while the restarted fleet starts new ones).
        return cls.open(
            root,
            spider_name,
            reset=reset,
            cross_spider=cross_spider,
            readonly=readonly,
            busy_timeout=busy_timeout,
            lock_wait=busy_timeout,
        )

    @classmethod
    def open(
        cls,
        root: Path,
        spider_name: str,
        *,
        reset: bool = False,
        cross_spider: bool = True,
        readonly: bool = False,
        busy_timeout: float = 30.0,
        merge_rows: int = MERGE_ROWS,
        share_seconds: float = SHARE_SECONDS,
        lock_wait: float = 0.0,
    ) -> Self:
        """Open (creating, resetting or recovering as needed) the state of ``spider_name``.

        Another writer holding the spider's lock is waited for up to ``lock_wait`` seconds.
        """
        opened = open_state(
            root,
            spider_name,
            reset=reset,
            cross_spider=cross_spider,
            readonly=readonly,
            busy_timeout=busy_timeout,
            lock_wait=lock_wait,
        )
        return cls(
            opened.conn,
            opened.path,
            spider_name,
            opened.origin,
            shared=opened.shared,
            lock=opened.lock,
            journal=opened.journal,
            merge_rows=merge_rows,
            share_seconds=share_seconds,
        )

    # --- lookups ---------------------------------------------------------------------------

    def _one(self, sql: str, args: tuple[object, ...]) -> tuple[object, ...] | None:
        try:
            row: tuple[object, ...] | None = self.conn.execute(sql, args).fetchone()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc
        return row

    def has_item(self, key: bytes) -> bool:
        """Whether an item with this key digest was stored."""
        if key in self._recent_items:
            return True
        return self._one("SELECT 1 FROM items WHERE key = ?", (key,)) is not None

    def content_url(self, content_hash: str) -> str | None:
        """URL of this spider's stored document with this content hash, if any."""
        key = key16(content_hash)
        recent = self._recent_content.get(key)
        if recent is not None:
            return recent
        row = self._one("SELECT u.url FROM content c JOIN urls u ON u.id = c.url_id WHERE c.hash = ?", (key,))
        return None if row is None else str(row[0])

    def claim_content(self, content_hash: str) -> tuple[str, str] | None:
        """(spider, "") of another spider that has this content hash; else claim it for this one.

        Called when this spider is about to store a document: the hash is claimed in the shared
        database at once (one autocommit insert; the first claim wins), so a spider running at the
        same time that meets the same text sees it before either commits. A claim whose item is
        then lost in a crash is harmless: the claimer refetches the page on resume and stores it.
        The shared table keeps no URLs (they would double its size).
        """
        if self.shared is None:
            return None
        key = key16(content_hash)
        try:
            if self._lock is not None and self._spider_id:
                self.shared.execute(
                    "INSERT OR IGNORE INTO hashes (hash, spider, claimed_at) VALUES (?, ?, ?)",
                    (key, self._spider_id, int(time.time())),
                )
            row = self.shared.execute(
                "SELECT s.name, h.spider FROM hashes h JOIN spiders s ON s.id = h.spider WHERE h.hash = ?",
                (key,),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"shared content hashes failed: {exc}") from exc
        if row is None or row[1] == self._spider_id:
            return None
        return (str(row[0]), "")

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document with this request fingerprint was last fetched."""
        key = fingerprint[:16]
        recent = self._recent_fetched.get(key)
        if recent is not None:
            return recent
        row = self._one("SELECT last_fetched FROM fetched WHERE fp = ?", (key,))
        return None if row is None else float(row[0])  # type: ignore[arg-type]

    def validators(self, key: bytes) -> Validators | None:
        """Stored ETag / Last-Modified under a validator key."""
        row = self._one("SELECT etag, last_modified FROM validators WHERE key = ?", (key,))
        if row is None:
            return None
        return Validators(etag=row[0], last_modified=row[1])  # type: ignore[arg-type]

    def output_offsets(self) -> dict[str, int]:
        """Committed byte offset of each output file."""
        try:
            rows = self.conn.execute('SELECT file, "offset" FROM output_offsets').fetchall()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc
        return {str(f): int(o) for f, o in rows}

    def frontier_size(self) -> int:
        """Number of pending requests."""
        row = self._one("SELECT count(*) FROM frontier", ())
        return int(row[0]) if row else 0  # type: ignore[call-overload]

    def frontier_max_seq(self) -> int:
        """Sequence number of the newest pending request (0 when empty)."""
        row = self._one("SELECT coalesce(max(seq), 0) FROM frontier", ())
        return int(row[0]) if row else 0  # type: ignore[call-overload]

    def frontier_page(self, after_seq: int, upto_seq: int, limit: int) -> list[FrontierEntry]:
        """Pending requests with after_seq < seq <= upto_seq, oldest first."""
        try:
            rows = self.conn.execute(
                "SELECT seq, fp, request FROM frontier WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
                (after_seq, upto_seq, limit),
            ).fetchall()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc
        return [FrontierEntry(int(s), bytes(f), bytes(r)) for s, f, r in rows]

    def frontier_dont_filter(self) -> set[bytes]:
        """Fingerprints of pending requests that bypass the duplicate filter."""
        try:
            rows = self.conn.execute("SELECT fp FROM frontier WHERE dont_filter = 1").fetchall()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc
        return {bytes(r[0]) for r in rows}

    # --- writes ----------------------------------------------------------------------------

    def commit(self, batch: StateBatch) -> None:
        """Apply ``batch`` in one transaction; merge the journal or share hashes when due."""
        if self._lock is None:
            raise StateError(self.location, "opened read-only")
        items = [(key, int(ts)) for key, ts in batch.items.items()]
        contents = [(key16(h), url, int(ts)) for h, (url, ts) in batch.contents.items()]
        fetched = [(fp[:16], int(ts)) for fp, ts in batch.fetched.items()]
        try:
            with transaction(self.conn):
                write_batch(self.conn, batch, items, contents, fetched)
        except sqlite3.Error as exc:
            raise StateError(self.location, f"commit failed: {exc}") from exc
        self._recent_items.update(key for key, _ in items)
        for key, url, _ in contents:
            self._recent_content.setdefault(key, url)
        self._unshared += len(contents)
        self._recent_fetched.update((fp, float(ts)) for fp, ts in fetched)
        self._journal_rows += len(items) + len(contents) + len(fetched)
        if self._journal_rows >= self.merge_rows:
            self.merge()
        elif self._unshared and time.monotonic() - self._last_share >= self.share_seconds:
            self.share()

    def share(self) -> None:
        """Push the journal's new content hashes to the shared database, in one sorted statement.

        Documents claim their hash as they pass the dedup pipeline (:meth:`claim_content`);
        this push covers the rest (lines replayed from the output after a crash, a spider that
        switched cross-spider dedup on) and is cheap when everything was claimed already.

        The shared connection has this spider's database attached as ``src`` and reads the
        committed journal directly, so no row passes through Python.
        """
        self._last_share = time.monotonic()
        if self.shared is None or not self._unshared:
            self._unshared = 0
            return
        try:
            upto = self.conn.execute("SELECT coalesce(max(seq), 0) FROM journal").fetchone()[0]
            with transaction(self.shared, immediate=False):
                self.shared.execute(
                    "INSERT OR IGNORE INTO main.hashes (hash, spider, claimed_at) "
                    "SELECT key, ?, min(ts) FROM src.journal WHERE kind = ? AND seq > ? AND seq <= ? "
                    "GROUP BY key ORDER BY key",
                    (self._spider_id, CONTENT, self._shared_upto, upto),
                )
        except sqlite3.Error as exc:
            raise StateError(self.location, f"sharing content hashes failed: {exc}") from exc
        self._shared_upto = upto
        self._unshared = 0

    def merge(self) -> None:
        """Fold the journal into the indexed tables in one sorted pass, in one transaction."""
        # Shared first: a hash reaches the shared table before it leaves the journal, so a
        # crash in between only repeats the (idempotent) push.
        self.share()
        try:
            with transaction(self.conn):
                merge_journal(self.conn)
        except sqlite3.Error as exc:
            raise StateError(self.location, f"merge failed: {exc}") from exc
        self._recent_items.clear()
        self._recent_content.clear()
        self._recent_fetched.clear()
        self._journal_rows = 0
        self._shared_upto = 0  # journal seq numbers start over once it is empty

    def close(self) -> None:
        """Share pending content hashes, close the connections and release the lock."""
        if self._lock is not None and self._unshared:
            try:
                self.share()
            except StateError:
                logger.warning(
                    "Could not share %d content hashes at close; they are shared on the next run",
                    self._unshared,
                    exc_info=True,
                )
        for conn in (self.conn, self.shared):
            if conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def integrity_errors(self) -> list[str]:
        """Problems found by SQLite's integrity check (empty when the file is sound)."""
        rows: Iterable[tuple[str]] = self.conn.execute("PRAGMA integrity_check").fetchall()
        return [r[0] for r in rows if r[0] != "ok"]
