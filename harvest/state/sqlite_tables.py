"""The SQL of the embedded crawl state's tables: a commit's writes and the journal's merge.

:class:`harvest.state.sqlite.SqliteStateStore` decides when to merge or share, the key tables'
part (:mod:`harvest.state.sqlite_journal`) keeps the in-memory mirror of the journal; the
statements that touch the tables are here, by table group (journal and frontier at a commit,
the indexed tables at a merge).
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from harvest.state import StateBatch

#: journal.kind values
ITEM, CONTENT, FETCHED = 0, 1, 2
#: Requests a finished crawl keeps pending by name at most (SQLite's bound on parameters).
_KEEP_MAX = 30_000


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, *, immediate: bool = True) -> Iterator[None]:
    """One transaction on ``conn``, rolled back on any error."""
    # IMMEDIATE takes the write lock up front, so busy_timeout applies to waiting for it
    # (a deferred transaction upgrading its lock can fail with SQLITE_BUSY at once). The
    # shared push starts deferred: IMMEDIATE would also lock the attached spider database,
    # and its single statement writes first, so it never upgrades.
    conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def write_batch(
    conn: sqlite3.Connection,
    batch: StateBatch,
    items: list[tuple[bytes, int]],
    contents: list[tuple[bytes, str, int]],
    fetched: list[tuple[bytes, int]],
) -> None:
    """Append a commit's keys to the journal and write its validators, frontier and offsets."""
    ex = conn.executemany
    journal = "INSERT INTO journal (kind, key, url, ts) VALUES (?, ?, ?, ?)"
    if items:
        ex(journal, ((ITEM, key, None, ts) for key, ts in items))
    if contents:
        ex(journal, ((CONTENT, key, url, ts) for key, url, ts in contents))
    if fetched:
        ex(journal, ((FETCHED, fp, None, ts) for fp, ts in fetched))
    if batch.validators:
        ex(
            "INSERT OR REPLACE INTO validators VALUES (?, ?, ?, ?)",
            ((k, v.etag, v.last_modified, ts) for k, (v, ts) in batch.validators.items()),
        )
    if batch.frontier_clear and batch.frontier_keep:
        keep = list(batch.frontier_keep)
        if len(keep) <= _KEEP_MAX:
            conn.execute(f"DELETE FROM frontier WHERE fp NOT IN ({','.join('?' * len(keep))})", keep)
        # else: too many to name in one statement; all stay (fetched again, never lost)
    elif batch.frontier_clear:
        conn.execute("DELETE FROM frontier")
    elif batch.frontier_done:
        # One statement per few hundred keys: far cheaper than one statement per key.
        done = list(batch.frontier_done)
        for i in range(0, len(done), 500):
            chunk = done[i : i + 500]
            conn.execute(f"DELETE FROM frontier WHERE fp IN ({','.join('?' * len(chunk))})", chunk)
    if batch.frontier_add:
        ex(
            "INSERT OR IGNORE INTO frontier (fp, dont_filter, request) VALUES (?, ?, ?)",
            ((fp, int(df), blob) for fp, (blob, df) in batch.frontier_add.items()),
        )
    if batch.offsets:
        ex('INSERT OR REPLACE INTO output_offsets (file, "offset") VALUES (?, ?)', batch.offsets.items())


def merge_journal(conn: sqlite3.Connection) -> None:
    """Fold the journal into the indexed tables in one sorted pass (the caller's transaction)."""
    conn.execute(
        "INSERT OR IGNORE INTO items (key, stored_at) "
        "SELECT key, min(ts) FROM journal WHERE kind = ? GROUP BY key ORDER BY key",
        (ITEM,),
    )
    # New documents, grouped once in key order; their URLs are appended (ids in that
    # order) and only the small content rows are merged into the index. A hash the
    # content table has already (a replayed line) just leaves an unused URL row.
    conn.execute("DROP TABLE IF EXISTS temp.merge_new")
    conn.execute(
        "CREATE TEMP TABLE merge_new AS SELECT key, min(url) AS url, min(ts) AS ts "
        "FROM journal WHERE kind = ? GROUP BY key ORDER BY key",
        (CONTENT,),
    )
    base = conn.execute("SELECT coalesce(max(id), 0) FROM urls").fetchone()[0]
    conn.execute("INSERT INTO urls (id, url) SELECT ? + rowid, url FROM merge_new ORDER BY rowid", (base,))
    conn.execute(
        "INSERT OR IGNORE INTO content (hash, url_id, stored_at) "
        "SELECT key, ? + rowid, ts FROM merge_new ORDER BY rowid",
        (base,),
    )
    conn.execute("DROP TABLE temp.merge_new")
    conn.execute(
        "INSERT INTO fetched (fp, first_fetched, last_fetched) "
        "SELECT key, min(ts), max(ts) FROM journal WHERE kind = ? GROUP BY key ORDER BY key "
        "ON CONFLICT(fp) DO UPDATE SET "
        "last_fetched = max(last_fetched, excluded.last_fetched)",
        (FETCHED,),
    )
    conn.execute("DELETE FROM journal")
