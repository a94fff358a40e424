"""Conditional-request validators for GitHub API URLs, per consumer and per token.

GitHub answers ``If-None-Match`` with ``304 Not Modified`` free of the primary rate limit when
the request is authorized, but an ETag is only valid for the token that received it
(github/docs#34689). Validators are therefore keyed by (consumer, token digest, URL). The
consumer is the spider: a 304 means "unchanged *for you*", which holds only if the same spider
stored the items of the earlier 200.

Next to the ETag each row keeps a small ``memo`` (for search pages a
:class:`harvest.github.planner.SearchMemo`: the ``Link`` header's next URL, the
``total_count``, the slices...): on a 304 the spider still needs them to walk the same pages and
slices as the previous run, without the body.

A validator is written only once the items of its response are safely stored
(:class:`PageValidators` calls :meth:`ValidatorStore.put` after the last item passed the
pipelines), so a crash in between refetches the page instead of losing its items. ``runs``
remembers when each query last finished, for per-query refresh intervals.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harvest.github.planner import SearchMemo
from harvest.state.shared import open_shared_db

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
        # Statements run one by one in autocommit mode (each is its own transaction).
        self._db = open_shared_db(self.path, _SCHEMA, "GitHub validator store")

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


@dataclass
class _Pending:
    """A page's validator, waiting for the page's items to be stored."""

    url: str
    etag: str | None
    last_modified: str | None
    memo: SearchMemo
    remaining: int
    failed: bool = False


class PageValidators:
    """One consumer's search-page validators under one token, stored once the page's items are.

    The store is opened on first use. A page whose items are still in the pipelines keeps its
    validator here; the consumer reports each item's fate (:meth:`item_done`), and the validator
    is stored when the last one was stored or dropped as already stored, and never when one
    failed (the page must then be fetched in full next time).
    """

    def __init__(self, path: str | Path, consumer: str, token: str) -> None:
        self.path = Path(path)
        self.consumer = consumer
        self.token = token
        self._store: ValidatorStore | None = None
        self._pending: dict[str, _Pending] = {}
        self._item_page: dict[int, str] = {}

    @property
    def store(self) -> ValidatorStore:
        """The validator store (opened now if it was not)."""
        if self._store is None:
            self._store = ValidatorStore(self.path)
        return self._store

    def open(self) -> None:
        """Open the store now, so that a state folder it cannot use fails before any request."""
        _ = self.store

    def reset(self) -> None:
        """Forget the consumer's validators and finish times (``-a reset=1``)."""
        self.store.reset(self.consumer)

    def last_finished(self, query_key: str) -> float | None:
        """Epoch seconds when ``query_key`` last ran to its end without errors."""
        return self.store.last_finished(self.consumer, query_key)

    def mark_finished(self, query_key: str) -> None:
        """Record that ``query_key`` ran to its end (now)."""
        self.store.mark_finished(self.consumer, query_key)

    def remembered(self, url: str) -> SearchMemo | None:
        """The memo stored with ``url``'s validator, if one is stored."""
        stored = self.store.get(self.consumer, self.token, url)
        return SearchMemo.from_dict(stored.memo) if stored is not None else None

    def store_after(
        self, url: str, etag: str | None, last_modified: str | None, memo: SearchMemo, items: Sequence[object]
    ) -> None:
        """Store ``url``'s validator once ``items`` are stored (at once when there are none)."""
        if not etag and not last_modified:
            return
        if not items:
            self._put(url, etag, last_modified, memo)
            return
        self._pending[url] = _Pending(url, etag, last_modified, memo, len(items))
        for item in items:
            # Items are matched by identity: the signals hand back the very object yielded.
            self._item_page[id(item)] = url

    def item_done(self, item: object, ok: bool) -> None:
        """``item`` left the pipelines: stored (or already stored) when ``ok``, failed if not."""
        url = self._item_page.pop(id(item), None)
        pending = self._pending.get(url) if url else None
        if pending is None:
            return
        pending.remaining -= 1
        pending.failed = pending.failed or not ok
        if pending.remaining <= 0:
            del self._pending[pending.url]
            if not pending.failed:
                self._put(pending.url, pending.etag, pending.last_modified, pending.memo)

    def _put(self, url: str, etag: str | None, last_modified: str | None, memo: SearchMemo) -> None:
        self.store.put(self.consumer, self.token, url, etag=etag, last_modified=last_modified,
                       memo=memo.to_dict())  # fmt: skip

    def close(self) -> None:
        """Close the store if it was opened (pages still pending are fetched in full next time)."""
        if self._store is not None:
            self._store.close()
            self._store = None
