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
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from harvest.exceptions import StateError
from harvest.state import FrontierEntry, StateBatch, StateOrigin, Validators
from harvest.state.sqlite_files import key16, open_state
from harvest.state.sqlite_hashes import SharedHashes
from harvest.state.sqlite_journal import JournalKeys, read_one
from harvest.state.sqlite_tables import transaction, write_batch

if TYPE_CHECKING:
    from typing_extensions import Self

logger = logging.getLogger(__name__)


#: Journal rows merged into the indexed tables at once: a merge rewrites most of their pages, so
#: larger is cheaper per key; the in-memory mirror of that many rows is memory a crawl reaches
#: early and keeps, so it is kept small (BENCHMARKS.md, issue 36: "where the memory went").
MERGE_ROWS = 30_000
#: Seconds between pushes of the journal's content hashes to the shared database. Documents
#: claim theirs at once; this only bounds the delay for hashes replayed from the output.
SHARE_SECONDS = 10.0


def named_root(url: str) -> Path | None:
    """The state folder a ``sqlite:///<dir>`` state URL names; None when it names none."""
    root = unquote(urlsplit(url).path) if url else ""
    return Path(root) if root else None


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
        self.conn = conn
        self.path = path
        self.location = str(path)
        self.spider_name = spider_name
        self.origin = origin
        self.shared = shared
        self._lock = lock
        #: The key tables and the in-memory mirror of the journal (see the module docstring).
        self.keys = JournalKeys(conn, self.location, journal or [], merge_rows)
        #: This spider's part of the shared content hashes (None without cross-spider dedup).
        self.hashes = (
            SharedHashes(
                shared,
                spider_name,
                self.location,
                writable=lock is not None,
                share_seconds=share_seconds,
                unshared=self.keys.loaded_contents,
            )
            if shared is not None
            else None
        )

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
        root = named_root(url) or Path(data_dir) / "state"
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
        return read_one(self.conn, self.location, sql, args)

    def has_item(self, key: bytes) -> bool:
        """Whether an item with this key digest was stored."""
        return self.keys.has_item(key)

    def content_url(self, content_hash: str) -> str | None:
        """URL of this spider's stored document with this content hash, if any."""
        return self.keys.content_url(key16(content_hash))

    def claim_content(self, content_hash: str) -> tuple[str, str] | None:
        """(spider, "") of another spider that has this content hash; else claim it for this one.

        Called when this spider is about to store a document: the hash is claimed in the shared
        database at once (one autocommit insert; the first claim wins), so a spider running at the
        same time that meets the same text sees it before either commits. A claim whose item is
        then lost in a crash is harmless: the claimer refetches the page on resume and stores it.
        The shared table keeps no URLs (they would double its size).
        """
        return None if self.hashes is None else self.hashes.claim(key16(content_hash))

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document with this request fingerprint was last fetched."""
        return self.keys.last_fetched(fingerprint[:16])

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
        self.keys.committed(items, contents, fetched)
        if self.hashes is not None:
            self.hashes.unshared += len(contents)
        if self.keys.merge_due:
            self.merge()
        elif self.hashes is not None and self.hashes.push_due:
            self.share()

    def share(self) -> None:
        """Push the journal's new content hashes to the shared database, in one sorted statement.

        Documents claim their hash as they pass the dedup pipeline (:meth:`claim_content`);
        this push covers the rest (lines replayed from the output after a crash, a spider that
        switched cross-spider dedup on) and is cheap when everything was claimed already.

        The shared connection has this spider's database attached as ``src`` and reads the
        committed journal directly, so no row passes through Python.
        """
        if self.hashes is not None:
            self.hashes.push(self.conn)

    def merge(self) -> None:
        """Fold the journal into the indexed tables in one sorted pass, in one transaction."""
        # Shared first: a hash reaches the shared table before it leaves the journal, so a
        # crash in between only repeats the (idempotent) push.
        self.share()
        self.keys.merge()
        if self.hashes is not None:
            self.hashes.shared_upto = 0  # journal seq numbers start over once it is empty

    def close(self) -> None:
        """Share pending content hashes, close the connections and release the lock."""
        if self._lock is not None and self.hashes is not None and self.hashes.unshared:
            try:
                self.share()
            except StateError:
                logger.warning(
                    "Could not share %d content hashes at close; they are shared on the next run",
                    self.hashes.unshared,
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
