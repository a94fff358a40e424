"""Conditional-request validators for GitHub API URLs, per consumer and per token.

GitHub answers ``If-None-Match`` with ``304 Not Modified`` free of the primary rate limit when
the request is authorized, but an ETag is only valid for the token that received it
(github/docs#34689). Validators are therefore keyed by (consumer, token digest, URL). The
consumer is the spider: a 304 means "unchanged *for you*", which holds only if the same spider
stored the items of the earlier 200.

Next to the ETag each row keeps a small ``memo`` (the ``Link`` header's next URL, the
``total_count``...): on a 304 the spider still needs them to walk the same pages and slices as
the previous run, without the body.

A validator is written only once the items of its response are safely stored (the spider calls
:meth:`ValidatorStore.put` after the last item passed the pipelines), so a crash in between
refetches the page instead of losing its items. ``runs`` remembers when each query last finished,
for per-query refresh intervals.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harvest.exceptions import StateError

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS validators (
    consumer TEXT NOT NULL, token TEXT NOT NULL, url TEXT NOT NULL,
    etag TEXT, last_modified TEXT, memo TEXT, stored REAL NOT NULL,
    PRIMARY KEY (consumer, token, url)
);
CREATE TABLE IF NOT EXISTS runs (
    consumer TEXT NOT NULL, query_key TEXT NOT NULL, finished REAL NOT NULL,
    PRIMARY KEY (consumer, query_key)
);
"""


@dataclass(frozen=True)
class Validator:
    """What was stored for one URL."""

    etag: str | None
    last_modified: str | None
    memo: dict[str, Any]


class ValidatorStore:
    """SQLite (WAL) store of validators and query finish times; safe to share between processes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StateError(str(self.path), f"cannot open the GitHub validator store: {exc}") from exc

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def get(self, consumer: str, token: str, url: str) -> Validator | None:
        """The validator stored for ``url`` by ``consumer`` under ``token``, if any."""
        row = self._db.execute(
            "SELECT etag, last_modified, memo FROM validators WHERE consumer = ? AND token = ? AND url = ?",
            (consumer, token, url),
        ).fetchone()
        if row is None:
            return None
        try:
            memo = json.loads(row[2]) if row[2] else {}
        except ValueError:
            memo = {}
        return Validator(row[0], row[1], memo if isinstance(memo, dict) else {})

    def put(
        self,
        consumer: str,
        token: str,
        url: str,
        *,
        etag: str | None,
        last_modified: str | None = None,
        memo: dict[str, Any] | None = None,
    ) -> None:
        """Store (or replace) the validator of ``url``; nothing to validate with: forget it."""
        if not etag and not last_modified:
            self.forget(consumer, token, url)
            return
        self._db.execute(
            "INSERT INTO validators (consumer, token, url, etag, last_modified, memo, stored) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (consumer, token, url) DO UPDATE SET "
            "etag = excluded.etag, last_modified = excluded.last_modified, memo = excluded.memo, "
            "stored = excluded.stored",
            (consumer, token, url, etag, last_modified, json.dumps(memo or {}), time.time()),
        )

    def forget(self, consumer: str, token: str, url: str) -> None:
        """Drop the validator of ``url`` (its content must be fetched in full next time)."""
        self._db.execute(
            "DELETE FROM validators WHERE consumer = ? AND token = ? AND url = ?", (consumer, token, url)
        )

    def reset(self, consumer: str) -> None:
        """Forget every validator and finish time of ``consumer`` (``-a reset=1``)."""
        self._db.execute("DELETE FROM validators WHERE consumer = ?", (consumer,))
        self._db.execute("DELETE FROM runs WHERE consumer = ?", (consumer,))

    def count(self, consumer: str) -> int:
        """Validators stored for ``consumer``."""
        (n,) = self._db.execute("SELECT COUNT(*) FROM validators WHERE consumer = ?", (consumer,)).fetchone()
        return int(n)

    def last_finished(self, consumer: str, query_key: str) -> float | None:
        """Epoch seconds when ``query_key`` last ran to its end without errors."""
        row = self._db.execute(
            "SELECT finished FROM runs WHERE consumer = ? AND query_key = ?", (consumer, query_key)
        ).fetchone()
        return float(row[0]) if row else None

    def mark_finished(self, consumer: str, query_key: str, when: float | None = None) -> None:
        """Record that ``query_key`` ran to its end."""
        self._db.execute(
            "INSERT INTO runs (consumer, query_key, finished) VALUES (?, ?, ?) "
            "ON CONFLICT (consumer, query_key) DO UPDATE SET finished = excluded.finished",
            (consumer, query_key, time.time() if when is None else when),
        )
