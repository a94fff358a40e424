"""The embedded state's shared content-hash table: a spider's claims, and the journal's push to it."""

from __future__ import annotations

import sqlite3
import time

from harvest.exceptions import StateError
from harvest.state.sqlite_tables import CONTENT, transaction


class SharedHashes:
    """This spider's part of ``_shared/content.sqlite`` (cross-spider dedup); see :mod:`harvest.state.sqlite`.

    ``shared`` has the spider's database attached as ``src``; ``writable`` when this process
    holds the spider's lock (a reader claims nothing and pushes nothing).
    """

    def __init__(
        self,
        shared: sqlite3.Connection,
        spider_name: str,
        location: str,
        *,
        writable: bool,
        share_seconds: float,
        unshared: int = 0,
    ) -> None:
        self.shared = shared
        self.spider_name = spider_name
        self.location = location
        self.writable = writable
        self.share_seconds = share_seconds
        # Journal rows up to this seq are in the shared table; after a restart, the whole
        # journal is pushed again (INSERT OR IGNORE: idempotent).
        self.shared_upto = 0
        #: Content hashes committed to the journal and not pushed yet.
        self.unshared = unshared
        self._last_share = time.monotonic()
        try:
            self.spider_id = self._spider_id()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"read failed: {exc}") from exc

    def _spider_id(self) -> int:
        row = self.shared.execute("SELECT id FROM spiders WHERE name = ?", (self.spider_name,)).fetchone()
        if row is None and self.writable:
            with transaction(self.shared):
                self.shared.execute("INSERT OR IGNORE INTO spiders (name) VALUES (?)", (self.spider_name,))
            row = self.shared.execute("SELECT id FROM spiders WHERE name = ?", (self.spider_name,)).fetchone()
        return int(row[0]) if row is not None else 0

    def claim(self, key: bytes) -> tuple[str, str] | None:
        """(spider, "") of another spider that has this (16-byte) hash; else claim it for this one."""
        try:
            if self.writable and self.spider_id:
                self.shared.execute(
                    "INSERT OR IGNORE INTO hashes (hash, spider, claimed_at) VALUES (?, ?, ?)",
                    (key, self.spider_id, int(time.time())),
                )
            row = self.shared.execute(
                "SELECT s.name, h.spider FROM hashes h JOIN spiders s ON s.id = h.spider WHERE h.hash = ?",
                (key,),
            ).fetchone()
        except sqlite3.Error as exc:
            raise StateError(self.location, f"shared content hashes failed: {exc}") from exc
        if row is None or row[1] == self.spider_id:
            return None
        return (str(row[0]), "")

    @property
    def push_due(self) -> bool:
        """Whether hashes wait and ``share_seconds`` passed since the last push."""
        return bool(self.unshared) and time.monotonic() - self._last_share >= self.share_seconds

    def push(self, conn: sqlite3.Connection) -> None:
        """Push the journal's new content hashes (read from ``conn``'s journal) in one sorted statement."""
        self._last_share = time.monotonic()
        if not self.unshared:
            return
        try:
            upto = conn.execute("SELECT coalesce(max(seq), 0) FROM journal").fetchone()[0]
            with transaction(self.shared, immediate=False):
                self.shared.execute(
                    "INSERT OR IGNORE INTO main.hashes (hash, spider, claimed_at) "
                    "SELECT key, ?, min(ts) FROM src.journal WHERE kind = ? AND seq > ? AND seq <= ? "
                    "GROUP BY key ORDER BY key",
                    (self.spider_id, CONTENT, self.shared_upto, upto),
                )
        except sqlite3.Error as exc:
            raise StateError(self.location, f"sharing content hashes failed: {exc}") from exc
        self.shared_upto = upto
        self.unshared = 0
