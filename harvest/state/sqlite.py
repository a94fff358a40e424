"""The embedded crawl-state backend: one SQLite database in WAL mode per spider.

Layout under the state root (``HARVEST_DATA_DIR/state`` unless ``HARVEST_STATE_URL`` is
``sqlite:///<dir>``)::

    <spider>/state.sqlite      tables items, content, fetched, validators, frontier, output_offsets
    <spider>.lock              held (flock) by the one crawl of <spider> that may write
    _shared/content.sqlite     content hashes of every spider, for cross-spider dedup
    <spider>.reset-<utc>/      an old state moved aside by a reset
    <spider>.corrupt-<utc>/    an unreadable state moved aside (never deleted)

WAL mode lets readers (status commands, other spiders reading the shared database) run while
a crawl writes; ``busy_timeout`` makes writers of the shared database wait for each other
instead of failing with "database is locked". ``synchronous=NORMAL`` is enough: a process
kill loses nothing committed, and a power loss can at worst lose the last commits, which the
output reconciliation replays from the (fsynced) output files.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from harvest.exceptions import StateError
from harvest.state import FrontierEntry, StateBatch, StateOrigin, Validators

if TYPE_CHECKING:
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Bumped when the schema changes incompatibly; a newer file is refused, not overwritten.
SCHEMA_VERSION = 1
SHARED_DIR = "_shared"
#: Spider names become folder names: keep them to a portable, non-hidden set of characters.
_SPIDER_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
#: SQLite result codes that mean the file itself is damaged (not busy, not a permission issue).
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
#: Page cache per connection, in KiB (negative = KiB for SQLite). Enough for the hot part of the
#: B-tree indexes at a million entries while keeping the process far below 100 MB.
_CACHE_KIB = 16 * 1024

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    key BLOB PRIMARY KEY, stored_at REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS content (
    hash BLOB PRIMARY KEY, url TEXT NOT NULL, stored_at REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fetched (
    fp BLOB PRIMARY KEY, first_fetched REAL NOT NULL, last_fetched REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS validators (
    key BLOB PRIMARY KEY, etag TEXT, last_modified TEXT, fetched_at REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS frontier (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, fp BLOB NOT NULL UNIQUE,
    dont_filter INTEGER NOT NULL, request BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS output_offsets (
    file TEXT PRIMARY KEY, "offset" INTEGER NOT NULL);
"""

_SHARED_SCHEMA = """
CREATE TABLE IF NOT EXISTS content (
    hash BLOB NOT NULL, spider TEXT NOT NULL, url TEXT NOT NULL, stored_at REAL NOT NULL,
    PRIMARY KEY (hash, spider)) WITHOUT ROWID;
"""


def hash_bytes(content_hash: str) -> bytes:
    """A sha256 hex digest as its 32 bytes (anything else is hashed, so it still fits)."""
    try:
        raw = bytes.fromhex(content_hash)
    except ValueError:
        raw = b""
    return raw if len(raw) == 32 else hashlib.sha256(content_hash.encode("utf-8")).digest()


def utc_stamp() -> str:
    """UTC time for names of moved-aside state, sortable and free of ':'."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def move_aside(path: Path, reason: str) -> Path:
    """Rename ``path`` to ``<path>.<reason>-<utc>`` (with a counter if taken); return the new path."""
    stamp = utc_stamp()
    target = path.with_name(f"{path.name}.{reason}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{reason}-{stamp}-{n}")
    path.rename(target)
    return target


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc).lower()  # Python 3.10 has no error codes on exceptions
    return "not a database" in text or "malformed" in text


def _connect(path: Path, *, readonly: bool, busy_timeout: float) -> sqlite3.Connection:
    if readonly:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=busy_timeout,
                               isolation_level=None, check_same_thread=False)
    else:
        conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None,
                               check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        if not readonly:
            # Persistent in the file; readers opened later use WAL too.
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        conn.execute("PRAGMA temp_store = MEMORY")
    except BaseException:
        conn.close()
        raise
    return conn


def _check_schema(conn: sqlite3.Connection, path: Path, schema: str, *, readonly: bool) -> None:
    """Create the tables on a new file; refuse a file written by a newer harvest."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StateError(str(path), f"schema version {version} is newer than this harvest "
                         f"understands ({SCHEMA_VERSION}); upgrade harvest")
    # Touch every table so that a damaged schema page fails here, at open, not mid-crawl.
    if not readonly:
        conn.executescript(schema)
        if version < SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in tables:
        if not table.startswith("sqlite_"):
            conn.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchall()


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
    ) -> None:
        self.conn = conn
        self.path = path
        self.location = str(path)
        self.spider_name = spider_name
        self.origin = origin
        self.shared = shared
        self._lock = lock

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
        return cls.open(root, spider_name, reset=reset, cross_spider=cross_spider,
                        readonly=readonly, busy_timeout=busy_timeout)

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
    ) -> Self:
        """Open (creating, resetting or recovering as needed) the state of ``spider_name``."""
        if not _SPIDER_NAME_RE.match(spider_name) or spider_name == SHARED_DIR:
            raise StateError(str(root), f"spider name {spider_name!r} cannot name a state folder")
        spider_dir = root / spider_name
        path = spider_dir / "state.sqlite"
        if readonly:
            if reset:
                raise StateError(str(path), "cannot reset a state opened read-only")
            if not path.exists():
                raise StateError(str(path), "no crawl state here yet")
            try:
                conn = _connect(path, readonly=True, busy_timeout=busy_timeout)
                _check_schema(conn, path, _SCHEMA, readonly=True)
            except sqlite3.Error as exc:
                raise StateError(str(path), f"cannot read it: {exc}") from None
            shared = cls._open_shared(root, busy_timeout, readonly=True) if cross_spider else None
            return cls(conn, path, spider_name, StateOrigin.EXISTING, shared=shared)

        root.mkdir(parents=True, exist_ok=True)
        lock = cls._take_lock(root / f"{spider_name}.lock")
        try:
            origin = StateOrigin.EXISTING if path.exists() else StateOrigin.NEW
            if reset and spider_dir.exists():
                moved = move_aside(spider_dir, "reset")
                logger.info("Reset the crawl state of %s: the old state is kept at %s", spider_name, moved)
                origin = StateOrigin.RESET
            elif reset:
                origin = StateOrigin.RESET
            spider_dir.mkdir(parents=True, exist_ok=True)
            try:
                conn = _connect(path, readonly=False, busy_timeout=busy_timeout)
                try:
                    _check_schema(conn, path, _SCHEMA, readonly=False)
                except BaseException:
                    conn.close()
                    raise
            except sqlite3.Error as exc:
                if not _is_corruption(exc):
                    raise StateError(str(path), f"cannot open it: {exc}") from None
                moved = move_aside(spider_dir, "corrupt")
                logger.error(
                    "The crawl state %s is unreadable (%s); moved it aside to %s and starting "
                    "from a fresh state rebuilt from the output files",
                    path, exc, moved,
                )
                spider_dir.mkdir(parents=True, exist_ok=True)
                conn = _connect(path, readonly=False, busy_timeout=busy_timeout)
                _check_schema(conn, path, _SCHEMA, readonly=False)
                origin = StateOrigin.RECOVERED
            shared = cls._open_shared(root, busy_timeout, readonly=False) if cross_spider else None
        except BaseException:
            lock.close()
            raise
        return cls(conn, path, spider_name, origin, shared=shared, lock=lock)

    @staticmethod
    def _take_lock(path: Path) -> IO[str]:
        fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the store's lifetime
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            fh.close()
            raise StateError(str(path), f"held by pid {holder}: another crawl of this spider "
                             "is running (two writers would duplicate output)") from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        return fh

    @staticmethod
    def _open_shared(root: Path, busy_timeout: float, *, readonly: bool) -> sqlite3.Connection | None:
        shared_dir = root / SHARED_DIR
        path = shared_dir / "content.sqlite"
        if readonly and not path.exists():
            return None
        shared_dir.mkdir(parents=True, exist_ok=True)
        try:
            conn = _connect(path, readonly=readonly, busy_timeout=busy_timeout)
            try:
                _check_schema(conn, path, _SHARED_SCHEMA, readonly=readonly)
            except BaseException:
                conn.close()
                raise
            return conn
        except sqlite3.Error as exc:
            if readonly or not _is_corruption(exc):
                raise StateError(str(path), f"cannot open the shared content hashes: {exc}") from None
            moved = [move_aside(p, "corrupt") for p in
                     (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"))
                     if p.exists()]
            logger.error("The shared content hashes %s are unreadable (%s); moved aside to %s, "
                         "starting a fresh shared database", path, exc, moved[0] if moved else path)
            conn = _connect(path, readonly=False, busy_timeout=busy_timeout)
            _check_schema(conn, path, _SHARED_SCHEMA, readonly=False)
            return conn

    # --- lookups ---------------------------------------------------------------------------

    def _one(self, sql: str, args: tuple[object, ...]) -> tuple[object, ...] | None:
        try:
            row: tuple[object, ...] | None = self.conn.execute(sql, args).fetchone()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc
        return row

    def has_item(self, key: bytes) -> bool:
        """Whether an item with this key digest was stored."""
        return self._one("SELECT 1 FROM items WHERE key = ?", (key,)) is not None

    def content_url(self, content_hash: str) -> str | None:
        """URL of this spider's stored document with this content hash, if any."""
        row = self._one("SELECT url FROM content WHERE hash = ?", (hash_bytes(content_hash),))
        return None if row is None else str(row[0])

    def shared_content(self, content_hash: str) -> tuple[str, str] | None:
        """(spider, url) of another spider's document with this content hash, if any."""
        if self.shared is None:
            return None
        try:
            row = self.shared.execute(
                "SELECT spider, url FROM content WHERE hash = ? AND spider != ? LIMIT 1",
                (hash_bytes(content_hash), self.spider_name),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"shared content read failed: {exc}") from exc
        return None if row is None else (str(row[0]), str(row[1]))

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document with this request fingerprint was last fetched."""
        row = self._one("SELECT last_fetched FROM fetched WHERE fp = ?", (fingerprint,))
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
        """Apply ``batch`` in one transaction (shared content hashes first, in their own)."""
        if self._lock is None:
            raise StateError(self.location, "opened read-only")
        try:
            if self.shared is not None and batch.contents:
                # Committed first: if the crawl dies between the two, the spider's own state
                # is rebuilt from its output files; a hash in the shared table always belongs
                # to a line that was durably written.
                with self._transaction(self.shared):
                    self.shared.executemany(
                        "INSERT OR IGNORE INTO content VALUES (?, ?, ?, ?)",
                        ((hash_bytes(h), self.spider_name, url, ts)
                         for h, (url, ts) in batch.contents.items()),
                    )
            with self._transaction(self.conn):
                self._apply(batch)
        except sqlite3.Error as exc:
            raise StateError(self.location, f"commit failed: {exc}") from exc

    @staticmethod
    @contextlib.contextmanager
    def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
        # IMMEDIATE takes the write lock up front, so busy_timeout applies to waiting for it
        # (a deferred transaction upgrading its lock can fail with SQLITE_BUSY at once).
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _apply(self, batch: StateBatch) -> None:
        ex = self.conn.executemany
        if batch.items:
            ex("INSERT OR IGNORE INTO items VALUES (?, ?)", batch.items.items())
        if batch.contents:
            ex("INSERT OR IGNORE INTO content VALUES (?, ?, ?)",
               ((hash_bytes(h), url, ts) for h, (url, ts) in batch.contents.items()))
        if batch.fetched:
            ex("INSERT INTO fetched VALUES (?, ?, ?) "
               "ON CONFLICT(fp) DO UPDATE SET last_fetched = excluded.last_fetched",
               ((fp, ts, ts) for fp, ts in batch.fetched.items()))
        if batch.validators:
            ex("INSERT OR REPLACE INTO validators VALUES (?, ?, ?, ?)",
               ((k, v.etag, v.last_modified, ts) for k, (v, ts) in batch.validators.items()))
        if batch.frontier_clear:
            self.conn.execute("DELETE FROM frontier")
        elif batch.frontier_done:
            ex("DELETE FROM frontier WHERE fp = ?", ((fp,) for fp in batch.frontier_done))
        if batch.frontier_add:
            ex("INSERT OR IGNORE INTO frontier (fp, dont_filter, request) VALUES (?, ?, ?)",
               ((fp, int(df), blob) for fp, (blob, df) in batch.frontier_add.items()))
        if batch.offsets:
            ex('INSERT OR REPLACE INTO output_offsets (file, "offset") VALUES (?, ?)',
               batch.offsets.items())

    def close(self) -> None:
        """Close the connections (a final checkpoint folds the WAL back) and release the lock."""
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
