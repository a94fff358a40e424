"""One pace per site, shared by every harvest process of a data folder (or of a Redis state).

Scrapy's ``DOWNLOAD_DELAY`` and ``CONCURRENT_REQUESTS_PER_DOMAIN`` hold per process: two fleets,
or ``run_all.py --replicas blogs=3``, on one data folder would hit a small site three times as
hard. Here every request to a host takes a *grant* from a budget shared by every process first:

- a grant is refused while the host has ``concurrency`` requests in flight (summed over every
  process), or until ``interval`` seconds have passed since the previous grant for that host
  (the time between two requests *arriving* at the site, whichever process sends them);
- a grant ends with :meth:`PaceBudget.release` (the answer came, or the request failed); a grant
  of a process that died is purged (by pid on this machine, else after ``stale_after``).

The budget lives in ``HARVEST_DATA_DIR/state/_pace/pace.sqlite`` (:class:`PaceBudget`, the
GitHub budget's WAL/``BEGIN IMMEDIATE`` plumbing from :mod:`harvest.state.shared`), or in Redis
when ``HARVEST_STATE_URL`` is a Redis URL (:class:`RedisPaceBudget`: one Lua step per grant,
timed by the Redis server's clock, so machines with different clocks agree). Both also record,
per host, what the pace is made of (the site, its configured delay, robots.txt's
``Crawl-delay``, the delay used): :meth:`PaceBudget.sites`.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from harvest.state.shared import immediate, open_shared_db, pid_alive

#: Folder of the shared pace under ``HARVEST_DATA_DIR/state/``.
PACE_DIR = "_pace"
#: Redis keys: ``harvest:_pace:<host>:*`` (in the state's database).
REDIS_PREFIX = "harvest:_pace"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hosts (
    host TEXT PRIMARY KEY, last REAL NOT NULL DEFAULT 0, next REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inflight (
    id TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, started REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS inflight_host ON inflight (host);
CREATE TABLE IF NOT EXISTS sites (
    host TEXT PRIMARY KEY, site TEXT NOT NULL, configured REAL NOT NULL, crawl_delay REAL,
    interval REAL NOT NULL, concurrency INTEGER NOT NULL, observed REAL NOT NULL
);
"""

# One grant, atomically, by the Redis server's clock. KEYS: in-flight ZSET (grant -> expiry),
# the last grant's time, the next grant's earliest time. ARGV: grant, interval, concurrency,
# stale_after, poll. Returns {granted (0/1), a string}: the grant's time if granted, else the
# seconds to wait (strings, as Lua numbers become integers).
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {0, ARGV[5]} end
local nxt = tonumber(redis.call('GET', KEYS[3]) or '0')
if now < nxt then return {0, tostring(nxt - now)} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
local interval = tonumber(ARGV[2])
redis.call('SET', KEYS[2], tostring(now), 'PX', math.floor(interval * 1000) + 600000)
redis.call('SET', KEYS[3], tostring(now + interval), 'PX', math.floor(interval * 1000) + 600000)
redis.call('PEXPIRE', KEYS[1], math.floor(tonumber(ARGV[4]) * 1000) + 60000)
return {1, tostring(now)}
"""

# Push the next grant of a host to at least its last grant + ARGV[1] seconds.
_STRETCH = """
local last = redis.call('GET', KEYS[1])
if not last then return 0 end
local later = tonumber(last) + tonumber(ARGV[1])
if later > tonumber(redis.call('GET', KEYS[2]) or '0') then
  redis.call('SET', KEYS[2], tostring(later), 'PX', math.floor(tonumber(ARGV[1]) * 1000) + 600000)
end
return 1
"""


@dataclass(frozen=True)
class Pace:
    """How a site may be fetched, in total over every process."""

    #: Seconds between two grants for the host (the larger of the site's delay and Crawl-delay).
    interval: float
    #: Requests in flight at once for the host.
    concurrency: int


@dataclass(frozen=True)
class Grant:
    """The budget's answer: a grant id, or how long to wait before asking again."""

    grant: str | None
    wait: float = 0.0
    reason: str = ""
    #: When the grant was made, by the clock of the store that made it (grants of one host are
    #: at least the interval apart on that clock, whenever the caller gets to run).
    at: float = 0.0


@dataclass(frozen=True)
class SitePace:
    """What one host's pace is made of (recorded in the shared state for people and tests)."""

    host: str
    site: str
    configured: float
    crawl_delay: float | None
    interval: float
    concurrency: int


class PaceStore(Protocol):
    """What :class:`harvest.middlewares.pace.PaceMiddleware` needs of a shared pace."""

    def acquire(self, host: str, pace: Pace) -> Grant:
        """A grant for one request to ``host``, or how long to wait."""

    def release(self, grant: str | None) -> None:
        """End a grant."""

    def stretch(self, host: str, interval: float) -> None:
        """Make the next grant of ``host`` wait ``interval`` after its last one."""

    def record(self, entry: SitePace) -> None:
        """Record what ``entry.host``'s pace is made of."""

    def sites(self) -> dict[str, SitePace]:
        """Every recorded host."""

    def close(self) -> None:
        """Drop this process's grants and close."""


class PaceBudget:
    """The shared pace in one SQLite file (see the module docstring).

    Args:
        path: the SQLite file (created with its folder).
        stale_after: a grant older than this is presumed lost (its process hung or was killed).
        poll: seconds to wait when the only obstacle is a request of another process in flight.
    """

    def __init__(self, path: str | Path, *, stale_after: float = 60.0, poll: float = 0.05) -> None:
        self.path = Path(path)
        self.stale_after = stale_after
        self.poll = poll
        self.pid = os.getpid()
        self._db = open_shared_db(self.path, _SCHEMA, "shared site pace")

    def close(self) -> None:
        """Drop this process's grants and close the file."""
        try:
            self._db.execute("DELETE FROM inflight WHERE pid = ?", (self.pid,))
        finally:
            self._db.close()

    def _purge(self, host: str, now: float) -> None:
        self._db.execute("DELETE FROM inflight WHERE started < ?", (now - self.stale_after,))
        query = "SELECT DISTINCT pid FROM inflight WHERE host = ? AND pid != ?"
        pids = self._db.execute(query, (host, self.pid))
        for (pid,) in pids.fetchall():
            if not pid_alive(pid):
                self._db.execute("DELETE FROM inflight WHERE pid = ?", (pid,))

    def _busy(self, host: str) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM inflight WHERE host = ?", (host,)).fetchone()[0])

    def acquire(self, host: str, pace: Pace, now: float | None = None) -> Grant:
        """A grant for one request to ``host`` under ``pace``, or how long to wait."""
        now = time.time() if now is None else now
        with immediate(self._db) as db:
            if self._busy(host) >= pace.concurrency:
                # Before waiting, make sure the requests we wait for still exist.
                self._purge(host, now)
                if self._busy(host) >= pace.concurrency:
                    return Grant(None, self.poll, "concurrency")
            # The next grant's time was set by the last one, with that process's interval: a
            # process asking a longer interval cannot starve while others keep granting.
            row = db.execute("SELECT next FROM hosts WHERE host = ?", (host,)).fetchone()
            if row is not None and now < row[0]:
                return Grant(None, row[0] - now, "interval")
            grant = uuid.uuid4().hex
            row_values = (grant, host, self.pid, now)
            db.execute("INSERT INTO inflight (id, host, pid, started) VALUES (?, ?, ?, ?)", row_values)
            db.execute(
                "INSERT INTO hosts (host, last, next) VALUES (?, ?, ?) "
                "ON CONFLICT (host) DO UPDATE SET last = excluded.last, next = excluded.next",
                (host, now, now + pace.interval),
            )
        return Grant(grant, at=now)

    def release(self, grant: str | None) -> None:
        """End a grant (the answer arrived, or the request failed)."""
        if grant:
            self._db.execute("DELETE FROM inflight WHERE id = ?", (grant,))

    def stretch(self, host: str, interval: float) -> None:
        """The pace of ``host`` grew (robots.txt's Crawl-delay): the next grant waits for it too."""
        self._db.execute("UPDATE hosts SET next = MAX(next, last + ?) WHERE host = ?", (interval, host))

    def in_flight(self, host: str) -> int:
        """Requests to ``host`` holding a grant now (for tests and logs)."""
        return self._busy(host)

    def record(self, entry: SitePace) -> None:
        """Record what ``entry.host``'s pace is made of."""
        self._db.execute(
            "INSERT INTO sites (host, site, configured, crawl_delay, interval, concurrency, observed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (host) DO UPDATE SET site = excluded.site, "
            "configured = excluded.configured, crawl_delay = excluded.crawl_delay, "
            "interval = excluded.interval, concurrency = excluded.concurrency, observed = excluded.observed",
            (
                entry.host,
                entry.site,
                entry.configured,
                entry.crawl_delay,
                entry.interval,
                entry.concurrency,
                time.time(),
            ),
        )

    def sites(self) -> dict[str, SitePace]:
        """Every recorded host."""
        rows = self._db.execute(
            "SELECT host, site, configured, crawl_delay, interval, concurrency FROM sites"
        ).fetchall()
        return {row[0]: SitePace(*row) for row in rows}


class RedisPaceBudget:
    """The shared pace in Redis, for processes on several machines (see the module docstring).

    Args:
        server: a client of the state's Redis (``HARVEST_STATE_URL``).
        stale_after: a grant not released after this long is dropped (its process died).
        poll: seconds to wait when the only obstacle is a request in flight elsewhere.
    """

    def __init__(self, server: Any, *, stale_after: float = 60.0, poll: float = 0.05) -> None:
        self.server = server
        self.stale_after = stale_after
        self.poll = poll
        self._script = server.register_script(_ACQUIRE)
        self._stretch = server.register_script(_STRETCH)
        #: grant -> its host's in-flight key, for release.
        self._held: dict[str, str] = {}

    @staticmethod
    def _key(host: str, name: str) -> str:
        return f"{REDIS_PREFIX}:{host}:{name}"

    def acquire(self, host: str, pace: Pace) -> Grant:
        """A grant for one request to ``host`` under ``pace``, or how long to wait."""
        grant = uuid.uuid4().hex
        inflight = self._key(host, "inflight")
        args = [grant, pace.interval, pace.concurrency, self.stale_after, self.poll]
        keys = [inflight, self._key(host, "last"), self._key(host, "next")]
        granted, wait = self._script(keys, args)
        if int(granted):
            self._held[grant] = inflight
            return Grant(grant, at=float(wait))
        wait_s = float(wait)
        return Grant(None, wait_s, "interval" if wait_s != self.poll else "concurrency")

    def release(self, grant: str | None) -> None:
        """End a grant."""
        key = self._held.pop(grant, None) if grant else None
        if key is not None:
            self.server.zrem(key, grant)

    def stretch(self, host: str, interval: float) -> None:
        """The pace of ``host`` grew (robots.txt's Crawl-delay): the next grant waits for it too."""
        self._stretch([self._key(host, "last"), self._key(host, "next")], [interval])

    def in_flight(self, host: str) -> int:
        """Requests to ``host`` holding a grant now (expired ones included until the next grant)."""
        return int(self.server.zcard(self._key(host, "inflight")))

    def record(self, entry: SitePace) -> None:
        """Record what ``entry.host``'s pace is made of (hash ``harvest:_pace:sites``)."""
        self.server.hset(f"{REDIS_PREFIX}:sites", entry.host, json.dumps(entry.__dict__))

    def sites(self) -> dict[str, SitePace]:
        """Every recorded host."""
        raw = self.server.hgetall(f"{REDIS_PREFIX}:sites")
        out = {}
        for value in raw.values():
            entry = SitePace(**json.loads(value))
            out[entry.host] = entry
        return out

    def close(self) -> None:
        """Release this process's grants and close the connection."""
        try:
            for grant, key in list(self._held.items()):
                self.server.zrem(key, grant)
        finally:
            self._held.clear()
            self.server.close()
