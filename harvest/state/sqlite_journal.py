"""The embedded state's key tables (items, content, fetched): the journal, its in-memory mirror, merges.

A commit appends its keys to the ``journal`` table and they are mirrored here for lookups; every
``merge_rows`` journal rows they are folded into the indexed tables (see :mod:`harvest.state.sqlite`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from harvest.exceptions import StateError
from harvest.state.sqlite_tables import CONTENT, FETCHED, ITEM, merge_journal, transaction


def read_one(
    conn: sqlite3.Connection, location: str, sql: str, args: tuple[object, ...]
) -> tuple[object, ...] | None:
    """The first row of a query; an SQLite error becomes a StateError naming ``location``."""
    try:
        row: tuple[object, ...] | None = conn.execute(sql, args).fetchone()
    except sqlite3.Error as exc:
        raise StateError(location, f"read failed: {exc}") from exc
    return row


class JournalKeys:
    """Stored item keys, content hashes and fetch times: the journal's mirror, then the indexed tables."""

    def __init__(
        self, conn: sqlite3.Connection, location: str, journal: list[tuple[Any, ...]], merge_rows: int
    ) -> None:
        self.conn = conn
        self.location = location
        self.merge_rows = max(1, merge_rows)
        self._items: set[bytes] = set()
        self._content: dict[bytes, str] = {}
        self._fetched: dict[bytes, float] = {}
        #: Content rows of the journal as opened (the shared table may lack them).
        self.loaded_contents = 0
        for kind, key, url, ts in journal:
            key = bytes(key)
            if kind == ITEM:
                self._items.add(key)
            elif kind == CONTENT:
                self._content.setdefault(key, url or "")
                self.loaded_contents += 1
            elif kind == FETCHED:
                self._fetched[key] = float(ts)
        self.rows = len(journal)

    def has_item(self, key: bytes) -> bool:
        """Whether an item with this key digest was stored."""
        if key in self._items:
            return True
        return read_one(self.conn, self.location, "SELECT 1 FROM items WHERE key = ?", (key,)) is not None

    def content_url(self, key: bytes) -> str | None:
        """URL of the stored document with this (16-byte) content hash, if any."""
        recent = self._content.get(key)
        if recent is not None:
            return recent
        row = read_one(
            self.conn,
            self.location,
            "SELECT u.url FROM content c JOIN urls u ON u.id = c.url_id WHERE c.hash = ?",
            (key,),
        )
        return None if row is None else str(row[0])

    def last_fetched(self, key: bytes) -> float | None:
        """When a document with this (16-byte) fingerprint was last fetched."""
        recent = self._fetched.get(key)
        if recent is not None:
            return recent
        row = read_one(self.conn, self.location, "SELECT last_fetched FROM fetched WHERE fp = ?", (key,))
        return None if row is None else float(row[0])  # type: ignore[arg-type]

    def committed(
        self,
        items: list[tuple[bytes, int]],
        contents: list[tuple[bytes, str, int]],
        fetched: list[tuple[bytes, int]],
    ) -> None:
        """Mirror what a commit just appended to the journal."""
        self._items.update(key for key, _ in items)
        for key, url, _ in contents:
            self._content.setdefault(key, url)
        self._fetched.update((fp, float(ts)) for fp, ts in fetched)
        self.rows += len(items) + len(contents) + len(fetched)

    @property
    def merge_due(self) -> bool:
        """Whether the journal holds enough rows to be merged."""
        return self.rows >= self.merge_rows

    def merge(self) -> None:
        """Fold the journal into the indexed tables in one sorted pass, in one transaction."""
        try:
            with transaction(self.conn):
                merge_journal(self.conn)
        except sqlite3.Error as exc:
            raise StateError(self.location, f"merge failed: {exc}") from exc
        self._items.clear()
        self._content.clear()
        self._fetched.clear()
        self.rows = 0
