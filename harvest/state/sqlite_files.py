"""The files of the embedded crawl state, and opening one spider's state.

Connections, schemas, the writer's lock, damaged or reset state moved aside (see
:mod:`harvest.state.sqlite` for the layout).

:class:`harvest.state.sqlite.SqliteStateStore` answers the crawl's questions from the tables;
this module only gets it open, the right way round: the lock before any write, a damaged file
moved aside (never deleted) and a fresh one started, a file from a newer harvest refused.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from harvest.exceptions import StateError
from harvest.state import StateOrigin
from harvest.state.shared import retry_locked

logger = logging.getLogger(__name__)

#: Bumped when the schema changes incompatibly; a newer file is refused, not overwritten.
SCHEMA_VERSION = 1
SHARED_DIR = "_shared"
#: Spider names become folder names: keep them to a portable, non-hidden set of characters.
SPIDER_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
#: SQLite result codes that mean the file itself is damaged (not busy, not a permission issue).
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
#: Page cache per connection, in KiB (negative = KiB for SQLite). Holds the inner pages of the
#: B-trees at a million entries (a lookup then reads one leaf from the OS's page cache); a
#: larger cache mostly keeps leaves, fills as the tables grow and so made a long crawl's
#: memory grow with it (issue 36; BENCHMARKS.md), for little CPU.
_CACHE_KIB = 2 * 1024
#: Bytes of WAL kept after a checkpoint (see connect).
_WAL_LIMIT = 32 * 1024 * 1024

SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    key BLOB PRIMARY KEY, stored_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urls (
    id INTEGER PRIMARY KEY, url TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS content (
    hash BLOB PRIMARY KEY, url_id INTEGER NOT NULL, stored_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fetched (
    fp BLOB PRIMARY KEY, first_fetched INTEGER NOT NULL, last_fetched INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS validators (
    key BLOB PRIMARY KEY, etag TEXT, last_modified TEXT, fetched_at REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS frontier (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, fp BLOB NOT NULL UNIQUE,
    dont_filter INTEGER NOT NULL, request BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS output_offsets (
    file TEXT PRIMARY KEY, "offset" INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, key BLOB NOT NULL, url TEXT,
    ts INTEGER NOT NULL);
"""

SHARED_SCHEMA = """
CREATE TABLE IF NOT EXISTS spiders (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS hashes (
    hash BLOB PRIMARY KEY, spider INTEGER NOT NULL, claimed_at INTEGER NOT NULL) WITHOUT ROWID;
"""
#: Seconds between attempts to take a spider's lock while another crawl holds it.
_LOCK_POLL = 0.1


def hash_bytes(content_hash: str) -> bytes:
    """A sha256 hex digest as its 32 bytes (anything else is hashed, so it still fits)."""
    try:
        raw = bytes.fromhex(content_hash)
    except ValueError:
        raw = b""
    return raw if len(raw) == 32 else hashlib.sha256(content_hash.encode("utf-8")).digest()


def key16(content_hash: str) -> bytes:
    """The stored form of a content hash: the first 128 bits of its digest."""
    return hash_bytes(content_hash)[:16]


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


def is_corruption(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says the file itself is damaged (not busy, not a permission problem)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc).lower()  # Python 3.10 has no error codes on exceptions
    return "not a database" in text or "malformed" in text


def connect(path: Path, *, readonly: bool, busy_timeout: float) -> sqlite3.Connection:
    """A connection set up for the crawl state: WAL, NORMAL sync, a bounded page cache."""
    if readonly:
        conn = sqlite3.connect(
            f"file:{path}?mode=ro",
            uri=True,
            timeout=busy_timeout,
            isolation_level=None,
            check_same_thread=False,
        )
    else:
        conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        if not readonly:
            # Persistent in the file; readers opened later use WAL too. Workers starting together
            # switch a new shared file at once: retried while it answers "locked".
            retry_locked(lambda: conn.execute("PRAGMA journal_mode = WAL"), busy_timeout)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        conn.execute("PRAGMA temp_store = FILE")
        # A merge grows the WAL to the size of the tables it rewrites; give that space back
        # after the checkpoint instead of keeping the largest WAL ever seen.
        conn.execute(f"PRAGMA journal_size_limit = {_WAL_LIMIT}")
    except BaseException:
        conn.close()
        raise
    return conn


def check_schema(conn: sqlite3.Connection, path: Path, schema: str, *, readonly: bool) -> None:
    """Create the tables on a new file; refuse a file written by a newer harvest."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StateError(
            str(path),
            f"schema version {version} is newer than this harvest "
            f"understands ({SCHEMA_VERSION}); upgrade harvest",
        )
    # Touch every table so that a damaged schema page fails here, at open, not mid-crawl.
    if not readonly:
        conn.executescript(schema)
        if version < SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in tables:
        if not table.startswith("sqlite_"):
            conn.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchall()


def open_checked(
    path: Path, busy_timeout: float, *, readonly: bool
) -> tuple[sqlite3.Connection, list[tuple[Any, ...]]]:
    """Connect, check the schema and read the journal; any damage raises sqlite3.Error here."""
    conn = connect(path, readonly=readonly, busy_timeout=busy_timeout)
    try:
        check_schema(conn, path, SCHEMA, readonly=readonly)
        journal = conn.execute("SELECT kind, key, url, ts FROM journal ORDER BY seq").fetchall()
    except BaseException:
        conn.close()
        raise
    return conn, journal


def take_lock(path: Path, wait: float = 0.0) -> IO[str]:
    """Hold ``path`` (flock) for one writer, waiting up to ``wait`` seconds for another to finish."""
    fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the store's lifetime
    deadline = time.monotonic() + wait
    waited = False
    while True:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            if time.monotonic() < deadline:
                if not waited:
                    logger.info(
                        "%s is held by pid %s; waiting up to %.0f s for it to finish", path, holder, wait
                    )
                    waited = True
                time.sleep(_LOCK_POLL)
                continue
            fh.close()
            raise StateError(
                str(path),
                f"held by pid {holder}: another crawl of this spider "
                "is running (two writers would duplicate output)",
            ) from None
    fh.seek(0)
    fh.truncate()
    fh.write(str(os.getpid()))
    fh.flush()
    return fh


def open_shared(root: Path, busy_timeout: float, *, readonly: bool) -> sqlite3.Connection | None:
    """The cross-spider content hashes (None read-only when absent); a damaged file is moved aside."""
    shared_dir = root / SHARED_DIR
    path = shared_dir / "content.sqlite"
    if readonly and not path.exists():
        return None
    shared_dir.mkdir(parents=True, exist_ok=True)
    try:
        conn = connect(path, readonly=readonly, busy_timeout=busy_timeout)
        try:
            check_schema(conn, path, SHARED_SCHEMA, readonly=readonly)
        except BaseException:
            conn.close()
            raise
        return conn
    except sqlite3.Error as exc:
        if readonly or not is_corruption(exc):
            raise StateError(str(path), f"cannot open the shared content hashes: {exc}") from None
        moved = [
            move_aside(p, "corrupt")
            for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"))
            if p.exists()
        ]
        logger.error(
            "The shared content hashes %s are unreadable (%s); moved aside to %s, "
            "starting a fresh shared database",
            path,
            exc,
            moved[0] if moved else path,
        )
        conn = connect(path, readonly=False, busy_timeout=busy_timeout)
        check_schema(conn, path, SHARED_SCHEMA, readonly=False)
        return conn


@dataclass
class OpenedState:
    """A spider's state, open: what :class:`harvest.state.sqlite.SqliteStateStore` is built from."""

    conn: sqlite3.Connection
    path: Path
    origin: StateOrigin
    shared: sqlite3.Connection | None
    lock: IO[str] | None
    journal: list[tuple[Any, ...]]


def open_state(
    root: Path,
    spider_name: str,
    *,
    reset: bool,
    cross_spider: bool,
    readonly: bool,
    busy_timeout: float,
    lock_wait: float,
) -> OpenedState:
    """Open (creating, resetting or recovering as needed) the state of ``spider_name`` under ``root``.

    Another writer holding the spider's lock is waited for up to ``lock_wait`` seconds.
    """
    if not SPIDER_NAME_RE.match(spider_name) or spider_name == SHARED_DIR:
        raise StateError(str(root), f"spider name {spider_name!r} cannot name a state folder")
    spider_dir = root / spider_name
    path = spider_dir / "state.sqlite"
    if readonly:
        if reset:
            raise StateError(str(path), "cannot reset a state opened read-only")
        if not path.exists():
            raise StateError(str(path), "no crawl state here yet")
        try:
            conn, journal = open_checked(path, busy_timeout, readonly=True)
        except sqlite3.Error as exc:
            raise StateError(str(path), f"cannot read it: {exc}") from None
        shared = open_shared(root, busy_timeout, readonly=True) if cross_spider else None
        return OpenedState(conn, path, StateOrigin.EXISTING, shared, None, journal)

    root.mkdir(parents=True, exist_ok=True)
    lock = take_lock(root / f"{spider_name}.lock", lock_wait)
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
            conn, journal = open_checked(path, busy_timeout, readonly=False)
        except sqlite3.Error as exc:
            if not is_corruption(exc):
                raise StateError(str(path), f"cannot open it: {exc}") from None
            moved = move_aside(spider_dir, "corrupt")
            logger.error(
                "The crawl state %s is unreadable (%s); moved it aside to %s and starting "
                "from a fresh state rebuilt from the output files",
                path,
                exc,
                moved,
            )
            spider_dir.mkdir(parents=True, exist_ok=True)
            conn, journal = open_checked(path, busy_timeout, readonly=False)
            origin = StateOrigin.RECOVERED
        shared = open_shared(root, busy_timeout, readonly=False) if cross_spider else None
        if shared is not None:
            shared.execute("ATTACH DATABASE ? AS src", (str(path),))
    except BaseException:
        lock.close()
        raise
    return OpenedState(conn, path, origin, shared, lock, journal)
