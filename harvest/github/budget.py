"""The rate-limit budget of each token, shared by every process through one SQLite file.

GitHub limits each token per *resource* (``search``, ``core``...) to ``x-ratelimit-limit``
requests per window ending at ``x-ratelimit-reset``, and across resources by secondary limits
(concurrency, bursts) answered with 403/429 and often ``Retry-After``. One token is commonly shared
by several harvest processes (the fleet), so the budget lives in ``budget.sqlite`` under the
GitHub state folder, and every request takes a *grant* from it before it is sent:

- a grant is refused while the token is blocked (``Retry-After`` or a backoff), while the
  token has ``concurrency`` requests in flight in any process, or when the last known
  ``remaining`` minus the requests already in flight reaches 0 (then until the reset);
- when nothing is known about the current window (first use, or the reset time passed) only one
  request goes out: its answer's headers tell the new budget before others follow;
- answers update the budget (``observe``); a grant ends with ``release``.

Rows are keyed by :func:`harvest.github.token_digest`, never by the token. Transactions are
``BEGIN IMMEDIATE`` and tiny, so processes serialize on the file lock for microseconds.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harvest.state.shared import open_shared_db, pid_alive

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS budget (
    token TEXT NOT NULL, resource TEXT NOT NULL,
    lim INTEGER, remaining INTEGER, reset REAL, observed REAL,
    PRIMARY KEY (token, resource)
);
CREATE TABLE IF NOT EXISTS blocks (
    token TEXT PRIMARY KEY, until REAL NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inflight (
    id TEXT PRIMARY KEY, token TEXT NOT NULL, resource TEXT NOT NULL,
    pid INTEGER NOT NULL, started REAL NOT NULL
);
"""


@dataclass(frozen=True)
class Decision:
    """The budget's answer to a request: a grant id, or how long to wait and why."""

    grant: str | None
    wait: float = 0.0
    reason: str = ""


@dataclass(frozen=True)
class Window:
    """What is known of one token's budget for one resource."""

    limit: int | None
    remaining: int | None
    reset: float | None
    in_flight: int


class RateBudget:
    """Shared per-token, per-resource budget (see the module docstring for the rules).

    Args:
        path: the SQLite file (created with its folder).
        concurrency: requests in flight per token, summed over every process.
        margin: seconds added to ``x-ratelimit-reset`` before a new window is assumed (clock
            skew and the reset's one-second resolution).
        poll: seconds to wait when the only obstacle is another request in flight.
        stale_after: a grant older than this is presumed lost (its process hung or was killed).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        concurrency: int = 1,
        margin: float = 1.0,
        poll: float = 0.05,
        stale_after: float = 300.0,
    ) -> None:
        self.path = Path(path)
        self.concurrency = max(1, concurrency)
        self.margin = margin
        self.poll = poll
        self.stale_after = stale_after
        self.pid = os.getpid()
        self._db = open_shared_db(self.path, _SCHEMA, "GitHub rate-limit budget")

    def close(self) -> None:
        """Drop this process's grants and close the file."""
        try:
            self._db.execute("DELETE FROM inflight WHERE pid = ?", (self.pid,))
        finally:
            self._db.close()

    def _tx(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def _purge(self, db: sqlite3.Connection, now: float) -> None:
        db.execute("DELETE FROM inflight WHERE started < ?", (now - self.stale_after,))
        for (pid,) in db.execute("SELECT DISTINCT pid FROM inflight WHERE pid != ?", (self.pid,)).fetchall():
            if not pid_alive(pid):
                db.execute("DELETE FROM inflight WHERE pid = ?", (pid,))

    def acquire(self, token: str, resource: str | None, now: float | None = None) -> Decision:
        """A grant for one request on ``resource`` (None: free of the primary limit)."""
        now = time.time() if now is None else now
        db = self._tx()
        try:
            decision = self._decide(db, token, resource, now)
            if decision.grant is None and decision.reason in {"concurrency", "probe"}:
                # Before polling again, make sure the requests we wait for still exist.
                self._purge(db, now)
                decision = self._decide(db, token, resource, now)
            if decision.grant is not None:
                db.execute(
                    "INSERT INTO inflight (id, token, resource, pid, started) VALUES (?, ?, ?, ?, ?)",
                    (decision.grant, token, resource or "", self.pid, now),
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return decision

    def _decide(self, db: sqlite3.Connection, token: str, resource: str | None, now: float) -> Decision:
        row = db.execute("SELECT until FROM blocks WHERE token = ?", (token,)).fetchone()
        if row and row[0] > now:
            return Decision(None, row[0] - now, "blocked")
        (busy,) = db.execute("SELECT COUNT(*) FROM inflight WHERE token = ?", (token,)).fetchone()
        if busy >= self.concurrency:
            return Decision(None, self.poll, "concurrency")
        grant = uuid.uuid4().hex
        if resource is None:
            return Decision(grant)
        (in_flight,) = db.execute(
            "SELECT COUNT(*) FROM inflight WHERE token = ? AND resource = ?", (token, resource)
        ).fetchone()
        budget = db.execute(
            "SELECT remaining, reset FROM budget WHERE token = ? AND resource = ?", (token, resource)
        ).fetchone()
        remaining, reset = budget if budget else (None, None)
        if remaining is not None and reset is not None:
            if now < reset:
                if remaining - in_flight > 0:
                    return Decision(grant)
                return Decision(None, reset + self.margin - now, "exhausted")
            if now < reset + self.margin and remaining - in_flight <= 0:
                return Decision(None, reset + self.margin - now, "exhausted")
        # Nothing known of the current window: one request finds out.
        if in_flight:
            return Decision(None, self.poll, "probe")
        return Decision(grant)

    def release(self, grant: str | None) -> None:
        """End a grant (the answer arrived, or the request failed)."""
        if grant:
            self._db.execute("DELETE FROM inflight WHERE id = ?", (grant,))

    def observe(
        self,
        token: str,
        resource: str,
        *,
        limit: int | None,
        remaining: int | None,
        reset: float | None,
        now: float | None = None,
    ) -> None:
        """Fold one answer's ``x-ratelimit-*`` values into the budget.

        A later reset time starts a new window; within a window, ``remaining`` only goes down,
        so answers arriving out of order cannot raise it.
        """
        if remaining is None:
            return
        now = time.time() if now is None else now
        db = self._tx()
        try:
            row = db.execute(
                "SELECT remaining, reset FROM budget WHERE token = ? AND resource = ?", (token, resource)
            ).fetchone()
            if row is None or row[1] is None or reset is None or reset > row[1]:
                values = (limit, remaining, reset)
            elif reset == row[1]:
                values = (limit, min(remaining, row[0]) if row[0] is not None else remaining, reset)
            else:
                values = None  # a late answer from a window already over
            if values is not None:
                db.execute(
                    "INSERT INTO budget (token, resource, lim, remaining, reset, observed) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (token, resource) DO UPDATE SET "
                    "lim = excluded.lim, remaining = excluded.remaining, reset = excluded.reset, "
                    "observed = excluded.observed",
                    (token, resource, *values, now),
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def exhaust(self, token: str, resource: str, reset: float) -> None:
        """Record that ``resource`` has nothing left until ``reset`` (a primary-limit answer)."""
        db = self._tx()
        try:
            db.execute(
                "INSERT INTO budget (token, resource, remaining, reset, observed) VALUES (?, ?, 0, ?, ?) "
                "ON CONFLICT (token, resource) DO UPDATE SET remaining = 0, reset = excluded.reset, "
                "observed = excluded.observed",
                (token, resource, reset, time.time()),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def block(self, token: str, until: float, *, failure: bool) -> int:
        """Send nothing on ``token`` before ``until``; returns the consecutive-failure count.

        ``failure`` counts this answer toward the exponential backoff (cleared by ``succeeded``).
        """
        db = self._tx()
        try:
            row = db.execute("SELECT until, failures FROM blocks WHERE token = ?", (token,)).fetchone()
            old_until, failures = row if row else (0.0, 0)
            failures = failures + 1 if failure else failures
            db.execute(
                "INSERT INTO blocks (token, until, failures) VALUES (?, ?, ?) ON CONFLICT (token) "
                "DO UPDATE SET until = excluded.until, failures = excluded.failures",
                (token, max(old_until, until), failures),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return int(failures)

    def failures(self, token: str) -> int:
        """Consecutive rate-limit answers on ``token`` since its last success."""
        row = self._db.execute("SELECT failures FROM blocks WHERE token = ?", (token,)).fetchone()
        return int(row[0]) if row else 0

    def succeeded(self, token: str) -> None:
        """A normal answer arrived: the backoff starts over."""
        self._db.execute("UPDATE blocks SET failures = 0 WHERE token = ? AND failures != 0", (token,))

    def window(self, token: str, resource: str) -> Window:
        """What is known of one budget (for logs, stats and tests)."""
        row = self._db.execute(
            "SELECT lim, remaining, reset FROM budget WHERE token = ? AND resource = ?", (token, resource)
        ).fetchone()
        (in_flight,) = self._db.execute(
            "SELECT COUNT(*) FROM inflight WHERE token = ? AND resource = ?", (token, resource)
        ).fetchone()
        lim, remaining, reset = row if row else (None, None, None)
        return Window(lim, remaining, reset, int(in_flight))

    def blocked_until(self, token: str) -> float:
        """Epoch seconds before which nothing may be sent on ``token`` (0: not blocked)."""
        row = self._db.execute("SELECT until FROM blocks WHERE token = ?", (token,)).fetchone()
        return float(row[0]) if row else 0.0


def rate_limit_snapshot(data: Any) -> dict[str, tuple[int | None, int | None, float | None]]:
    """``resource`` -> (limit, remaining, reset) from a ``GET /rate_limit`` body."""
    out: dict[str, tuple[int | None, int | None, float | None]] = {}
    resources = data.get("resources") if isinstance(data, dict) else None
    if not isinstance(resources, dict):
        return out
    for name, values in resources.items():
        if isinstance(values, dict) and isinstance(values.get("remaining"), int):
            reset = values.get("reset")
            limit = values.get("limit")
            out[str(name)] = (
                limit if isinstance(limit, int) else None,
                values["remaining"],
                float(reset) if isinstance(reset, (int, float)) else None,
            )
    return out
