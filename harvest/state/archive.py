"""The web archive's limits, shared by every harvest process of a data folder (or a Redis state).

The Internet Archive limits each IP, not each process: its CDX API to a few requests a minute,
its playback to a few a second, and it blocks an IP at its firewall when 429s are ignored. So
every request to an archive *endpoint* (``cdx``, ``web``) takes a grant here first:

- one request at a time per endpoint, summed over every process;
- a grant at least ``interval`` seconds (60 / the per-minute limit...) after the previous grant
  *and after its answer*: the archive counts arrivals, and a request that left late (a busy
  process) must not bring the next ones closer to it than the interval;
- none while the endpoint is blocked: a 429/503 blocks it until its ``Retry-After`` (or a backoff
  doubling from the base with each refusal in a row), for every process at once.

SQLite (``HARVEST_DATA_DIR/state/_archive/archive.sqlite``, the plumbing of
:mod:`harvest.state.shared`) or Redis (one Lua step per grant, timed by the Redis server's clock).
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from harvest.state.shared import immediate, open_shared_db, pid_alive

#: Folder of the shared archive limits under ``HARVEST_DATA_DIR/state/``.
ARCHIVE_DIR = "_archive"
#: Redis keys: ``harvest:_archive:<endpoint>:*``.
REDIS_PREFIX = "harvest:_archive"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS endpoints (
    name TEXT PRIMARY KEY, next REAL NOT NULL DEFAULT 0, blocked_until REAL NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0, waits INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inflight (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, pid INTEGER NOT NULL, started REAL NOT NULL,
    interval REAL NOT NULL DEFAULT 0
);
"""

# KEYS: in-flight ZSET, next grant time, blocked-until. ARGV: grant, interval, stale_after, poll.
# Returns {granted, reason, value}: the grant's time, or the seconds to wait (strings).
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local blocked = tonumber(redis.call('GET', KEYS[3]) or '0')
if now < blocked then return {0, 'blocked', tostring(blocked - now)} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= 1 then return {0, 'concurrency', ARGV[4]} end
local nxt = tonumber(redis.call('GET', KEYS[2]) or '0')
if now < nxt then return {0, 'interval', tostring(nxt - now)} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.floor(tonumber(ARGV[3]) * 1000) + 60000)
local interval = tonumber(ARGV[2])
redis.call('SET', KEYS[2], tostring(now + interval), 'PX', math.floor(interval * 1000) + 600000)
return {1, '', tostring(now)}
"""

# The answer came: the next grant waits the interval from now too. KEYS: in-flight ZSET, next.
# ARGV: grant, interval.
_RELEASE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local later = now + tonumber(ARGV[2])
if later > tonumber(redis.call('GET', KEYS[2]) or '0') then
  redis.call('SET', KEYS[2], tostring(later), 'PX', math.floor(tonumber(ARGV[2]) * 1000) + 600000)
end
return 1
"""

# KEYS: blocked-until, failures. ARGV: seconds (nil = backoff), base, max. Returns {seconds, failures}.
_BLOCK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local failures = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], 86400)
local wait = tonumber(ARGV[1])
if wait < 0 then wait = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ (failures - 1)) end
local untl = now + wait
if untl > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], tostring(untl), 'PX', math.floor(wait * 1000) + 60000)
end
return {tostring(wait), failures}
"""


@dataclass(frozen=True)
class ArchiveGrant:
    """A grant for one request to an endpoint, or how long to wait and why."""

    grant: str | None
    wait: float = 0.0
    #: "blocked" (a 429/503's Retry-After or backoff), "interval" or "concurrency".
    reason: str = ""
    #: When the grant was made, by the store's clock (grants are at least the interval apart).
    at: float = 0.0


class ArchiveLimits(Protocol):
    """What :class:`harvest.middlewares.archive.ArchiveMiddleware` needs of the shared limits."""

    def acquire(self, endpoint: str, interval: float) -> ArchiveGrant:
        """A grant for one request to ``endpoint``, or how long to wait."""

    def release(self, grant: str | None) -> None:
        """End a grant (the next one waits its interval from the answer too)."""

    def block(self, endpoint: str, seconds: float | None, base: float, most: float) -> tuple[float, int]:
        """Send nothing to ``endpoint`` for ``seconds`` (None: the doubling backoff from ``base``).

        Returns the seconds blocked and the refusals in a row so far.
        """

    def succeeded(self, endpoint: str) -> None:
        """An answer that was not a refusal: the next backoff starts from the base again."""

    def close(self) -> None:
        """Drop this process's grants and close."""


class ArchiveBudget:
    """The shared archive limits in one SQLite file (see the module docstring)."""

    def __init__(self, path: str | Path, *, stale_after: float = 120.0, poll: float = 0.05) -> None:
        self.path = Path(path)
        self.stale_after = stale_after
        self.poll = poll
        self.pid = os.getpid()
        self._db = open_shared_db(self.path, _SCHEMA, "shared web-archive limits")

    def close(self) -> None:
        """Drop this process's grants and close the file."""
        try:
            self._db.execute("DELETE FROM inflight WHERE pid = ?", (self.pid,))
        finally:
            self._db.close()

    def _busy(self, endpoint: str, now: float) -> bool:
        db = self._db
        db.execute("DELETE FROM inflight WHERE started < ?", (now - self.stale_after,))
        rows = db.execute("SELECT DISTINCT pid FROM inflight WHERE name = ?", (endpoint,)).fetchall()
        for (pid,) in rows:
            if pid != self.pid and not pid_alive(pid):
                db.execute("DELETE FROM inflight WHERE pid = ?", (pid,))
        count = db.execute("SELECT COUNT(*) FROM inflight WHERE name = ?", (endpoint,)).fetchone()[0]
        return int(count) > 0

    def acquire(self, endpoint: str, interval: float, now: float | None = None) -> ArchiveGrant:
        """A grant for one request to ``endpoint``, ``interval`` after the previous one."""
        now = time.time() if now is None else now
        with immediate(self._db) as db:
            row = db.execute(
                "SELECT next, blocked_until FROM endpoints WHERE name = ?", (endpoint,)
            ).fetchone()
            next_at, blocked = (row[0], row[1]) if row is not None else (0.0, 0.0)
            if now < blocked:
                return ArchiveGrant(None, blocked - now, "blocked")
            if self._busy(endpoint, now):
                return ArchiveGrant(None, self.poll, "concurrency")
            if now < next_at:
                return ArchiveGrant(None, next_at - now, "interval")
            grant = uuid.uuid4().hex
            db.execute(
                "INSERT INTO inflight (id, name, pid, started, interval) VALUES (?, ?, ?, ?, ?)",
                (grant, endpoint, self.pid, now, interval),
            )
            db.execute(
                "INSERT INTO endpoints (name, next) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET next = excluded.next",
                (endpoint, now + interval),
            )
        return ArchiveGrant(grant, at=now)

    def release(self, grant: str | None) -> None:
        """End a grant (the answer arrived, or the request failed): the next waits its interval."""
        if not grant:
            return
        now = time.time()
        with immediate(self._db) as db:
            row = db.execute("SELECT name, interval FROM inflight WHERE id = ?", (grant,)).fetchone()
            if row is None:
                return
            db.execute("DELETE FROM inflight WHERE id = ?", (grant,))
            db.execute("UPDATE endpoints SET next = MAX(next, ?) WHERE name = ?", (now + row[1], row[0]))

    def block(self, endpoint: str, seconds: float | None, base: float, most: float) -> tuple[float, int]:
        """Block ``endpoint`` for every process (see :class:`ArchiveLimits`)."""
        now = time.time()
        with immediate(self._db) as db:
            db.execute("INSERT OR IGNORE INTO endpoints (name) VALUES (?)", (endpoint,))
            db.execute("UPDATE endpoints SET failures = failures + 1 WHERE name = ?", (endpoint,))
            failures = int(
                db.execute("SELECT failures FROM endpoints WHERE name = ?", (endpoint,)).fetchone()[0]
            )
            wait = seconds if seconds is not None else min(most, base * 2 ** (failures - 1))
            db.execute(
                "UPDATE endpoints SET blocked_until = MAX(blocked_until, ?), waits = waits + 1 "
                "WHERE name = ?",
                (now + wait, endpoint),
            )
        return wait, failures

    def succeeded(self, endpoint: str) -> None:
        """Reset the endpoint's refusals in a row."""
        self._db.execute("UPDATE endpoints SET failures = 0 WHERE name = ? AND failures != 0", (endpoint,))

    def blocked_until(self, endpoint: str) -> float:
        """Until when ``endpoint`` is blocked (Unix time; 0: never was). For tests and status."""
        row = self._db.execute("SELECT blocked_until FROM endpoints WHERE name = ?", (endpoint,)).fetchone()
        return float(row[0]) if row else 0.0


class RedisArchiveBudget:
    """The shared archive limits in Redis, for processes on several machines."""

    def __init__(self, server: Any, *, stale_after: float = 120.0, poll: float = 0.05) -> None:
        self.server = server
        self.stale_after = stale_after
        self.poll = poll
        self._acquire = server.register_script(_ACQUIRE)
        self._block = server.register_script(_BLOCK)
        self._release = server.register_script(_RELEASE)
        #: grant -> (its endpoint, its interval), for release.
        self._held: dict[str, tuple[str, float]] = {}

    @staticmethod
    def _key(endpoint: str, name: str) -> str:
        return f"{REDIS_PREFIX}:{endpoint}:{name}"

    def acquire(self, endpoint: str, interval: float) -> ArchiveGrant:
        """A grant for one request to ``endpoint``, ``interval`` after the previous one."""
        grant = uuid.uuid4().hex
        inflight = self._key(endpoint, "inflight")
        keys = [inflight, self._key(endpoint, "next"), self._key(endpoint, "blocked")]
        granted, reason, value = self._acquire(keys, [grant, interval, self.stale_after, self.poll])
        if int(granted):
            self._held[grant] = (endpoint, interval)
            return ArchiveGrant(grant, at=float(value))
        text = reason.decode() if isinstance(reason, bytes) else str(reason)
        return ArchiveGrant(None, float(value), text)

    def release(self, grant: str | None) -> None:
        """End a grant: the next waits its interval from now."""
        held = self._held.pop(grant, None) if grant else None
        if held is not None:
            endpoint, interval = held
            self._release([self._key(endpoint, "inflight"), self._key(endpoint, "next")], [grant, interval])

    def block(self, endpoint: str, seconds: float | None, base: float, most: float) -> tuple[float, int]:
        """Block ``endpoint`` for every process (see :class:`ArchiveLimits`)."""
        keys = [self._key(endpoint, "blocked"), self._key(endpoint, "failures")]
        wait, failures = self._block(keys, [-1 if seconds is None else seconds, base, most])
        return float(wait), int(failures)

    def succeeded(self, endpoint: str) -> None:
        """Reset the endpoint's refusals in a row."""
        self.server.delete(self._key(endpoint, "failures"))

    def close(self) -> None:
        """Release this process's grants and close the connection."""
        try:
            for grant, (endpoint, _) in list(self._held.items()):
                self.server.zrem(self._key(endpoint, "inflight"), grant)
        finally:
            self._held.clear()
            self.server.close()
