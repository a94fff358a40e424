"""This process as a worker of the shared Redis crawl: the error boundary, its lease, the shared queue.

:class:`RedisWorker` is the part of :class:`harvest.state.redis.RedisStateStore` that
:mod:`harvest.scale` drives: joining and leaving the crawl, the heartbeat that renews the lease
(and the fence once the others took it), and the queue with its per-worker in-flight hashes.
Every Redis call goes through :meth:`RedisWorker._call`, which fails the store at the first error.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from harvest.exceptions import StateError
from harvest.state.redis_keys import RedisKeys, location_id, text
from harvest.util.redaction import mask_url

logger = logging.getLogger(__name__)

#: Seconds before a worker's lease ends (``HARVEST_REDIS_WORKER_TIMEOUT`` after its last
#: heartbeat) from which it renews the lease before writing output (at most a quarter of it).
LEASE_MARGIN = 2.0

# Pop the best request and record it, atomically, in the popping worker's in-flight hash, so a
# kill between the two cannot lose it. Entries are "<score>\n<member>": the score is kept to put
# the request back at its priority. Members start with a version byte and the 20-byte key.
# A joined worker (ARGV[1]) no longer in the registry (KEYS[3]) pops nothing (-1): it was given
# up (a pop sent before a partition arrives after it), and nobody requeues an unregistered
# worker's in-flight hash, so a request popped there would be lost for the round.
_POP = """
if ARGV[1] ~= '' and not redis.call('ZSCORE', KEYS[3], ARGV[1]) then return -1 end
local r = redis.call('ZPOPMIN', KEYS[1])
if #r == 0 then return false end
redis.call('HSET', KEYS[2], string.sub(r[1], 2, 21), r[2] .. '\\n' .. r[1])
return r[1]
"""

# Put a worker's in-flight requests back in the queue and forget the worker. ARGV[2] = 0 for
# the worker itself; else the caller's "dead before" time: skip a worker that has come back.
_REQUEUE = """
if tonumber(ARGV[2]) > 0 then
  local beat = redis.call('ZSCORE', KEYS[3], ARGV[1])
  if (not beat) or tonumber(beat) >= tonumber(ARGV[2]) then return -1 end
end
local entries = redis.call('HVALS', KEYS[2])
for _, v in ipairs(entries) do
  local nl = string.find(v, '\\n', 1, true)
  redis.call('ZADD', KEYS[1], tonumber(string.sub(v, 1, nl - 1)), string.sub(v, nl + 1))
end
redis.call('DEL', KEYS[2], KEYS[4])
redis.call('ZREM', KEYS[3], ARGV[1])
return #entries
"""

# Join the crawl: a new round (clean duplicate filter) when no worker is registered and the
# queue is empty; otherwise this worker joins the round in progress (or resumes a killed one).
_JOIN = """
local others = redis.call('ZCARD', KEYS[1])
local queued = redis.call('ZCARD', KEYS[2])
local new_round = 0
if others == 0 and queued == 0 then
  redis.call('DEL', KEYS[3])
  redis.call('INCR', KEYS[4])
  new_round = 1
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return {new_round, others, queued, tonumber(redis.call('GET', KEYS[4]) or '0')}
"""

# Leave: forget this worker (its in-flight requests go back to the queue, its output offsets
# raise its machine's "all committed up to" baseline); the last worker of a drained round
# clears the round's duplicate filter (the next run is a new round anyway).
_LEAVE = """
local entries = redis.call('HVALS', KEYS[2])
for _, v in ipairs(entries) do
  local nl = string.find(v, '\\n', 1, true)
  redis.call('ZADD', KEYS[1], tonumber(string.sub(v, 1, nl - 1)), string.sub(v, nl + 1))
end
local mine = redis.call('HGETALL', KEYS[4])
for i = 1, #mine, 2 do
  local done = redis.call('HGET', KEYS[6], mine[i])
  if (not done) or tonumber(done) < tonumber(mine[i + 1]) then
    redis.call('HSET', KEYS[6], mine[i], mine[i + 1])
  end
end
redis.call('DEL', KEYS[2], KEYS[4])
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('ZCARD', KEYS[3]) == 0 and redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[5])
end
return #entries
"""

# Queue a request unless this round has seen it: the duplicate-filter add and the queue add in
# one step. (scrapy-redis makes them two calls: a Redis failure between them marks a request
# seen that was never queued, and the round loses it.) ARGV: member, score, fingerprint or "".
_ENQUEUE = """
if ARGV[3] ~= '' and redis.call('SADD', KEYS[2], ARGV[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
"""

# Drained: nothing queued and no worker holding an in-flight request.
_DRAINED = """
if redis.call('ZCARD', KEYS[1]) > 0 then return 0 end
for _, w in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('EXISTS', ARGV[1] .. w) == 1 then return 0 end
end
return 1
"""


def redis_reason(exc: BaseException) -> str:
    """A short reason for a Redis error, without the client's internals."""
    if isinstance(exc, redis.AuthenticationError):
        return f"authentication failed ({exc})"
    if isinstance(exc, redis.TimeoutError):
        return f"no answer in time ({exc})"
    if isinstance(exc, redis.ConnectionError):
        return f"cannot reach Redis ({exc})"
    return f"{type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class JoinResult:
    """What :meth:`RedisStateStore.join` found."""

    new_round: bool
    other_workers: int
    queued: int
    round: int


class RedisWorker:
    """One process of a spider's shared crawl in Redis: its registry entry (lease) and the queue.

    ``worker`` names this process in the registry (``<location>.<pid>.<random>``, the location
    being machine + data folder).
    """

    def __init__(self, server: redis.Redis, url: str, spider_name: str, data_dir: Path) -> None:
        self.server = server
        self.url = url
        self.location = mask_url(url)
        self.spider_name = spider_name
        self.data_dir = Path(data_dir)
        self.keys = RedisKeys(spider_name)
        self.place = location_id(self.data_dir)
        self.worker = f"{self.place}.{os.getpid()}.{uuid.uuid4().hex[:6]}"
        #: Set at the first Redis error: from then on nothing is committed (see harvest.state.redis).
        self.failure: str | None = None
        #: Heartbeat age after which a worker is dead (the coordinator sets it from settings).
        self.worker_timeout = 30.0
        #: When this worker's lease was last renewed (its registry entry's score).
        self._beat = 0.0
        #: Whether this worker registered in the crawl (:meth:`join`) and has not left it.
        self._joined = False
        #: Set once the lease was taken by another worker (see :meth:`heartbeat`).
        self.fenced = False
        self._fence_reported = False
        self._scripts = {
            name: server.register_script(src)
            for name, src in (
                ("pop", _POP),
                ("requeue", _REQUEUE),
                ("join", _JOIN),
                ("leave", _LEAVE),
                ("drained", _DRAINED),
                ("enqueue", _ENQUEUE),
            )
        }

    # --- error boundary ------------------------------------------------------------------------

    def _call(self, what: str, fn: Any, *args: Any) -> Any:
        """Run one Redis operation; an error fails the store and becomes a StateError."""
        if self.failure is not None:
            raise StateError(self.location, f"{what} refused: Redis failed earlier ({self.failure})")
        try:
            return fn(*args)
        except redis.RedisError as exc:
            self.failure = redis_reason(exc)
            raise StateError(self.location, f"{what} failed: {self.failure}") from None

    def fail(self, exc: BaseException, what: str) -> StateError:
        """Fail the store on a Redis error raised outside :meth:`_call`.

        Scrapy-redis's own calls, and the near-duplicate index's client of the same Redis.
        """
        self.failure = redis_reason(exc)
        return StateError(self.location, f"{what} failed: {self.failure}")

    # --- the shared crawl (used by harvest.scale) ---------------------------------------------

    def join(self) -> JoinResult:
        """Register this worker; start a new round if the crawl is idle, else join the round."""
        k = self.keys
        now = time.time()
        result = self._call(
            "join", self._scripts["join"], [k.workers, k.queue, k.dupefilter, k.round], [self.worker, now]
        )
        self._joined = True
        self._beat = now
        return JoinResult(bool(result[0]), int(result[1]), int(result[2]), int(result[3]))

    def leave(self) -> int:
        """Unregister: own in-flight requests go back to the queue; returns how many."""
        if not self._joined:
            return 0
        k = self.keys
        count = self._call(
            "leave",
            self._scripts["leave"],
            [
                k.queue,
                k.inflight(self.worker),
                k.workers,
                k.offsets(self.worker),
                k.dupefilter,
                k.place_offsets(self.place),
            ],
            [self.worker],
        )
        self._joined = False
        return int(count)

    def heartbeat(self) -> bool:
        """Renew this worker's lease; False if it was taken (given up as dead): then it is fenced.

        Only an entry still in the registry is renewed (``ZADD XX``): a worker given up while
        it was frozen or cut off never registers itself again, it stops (see :meth:`_fence`).
        """
        if self.fenced:
            return False
        now = time.time()
        renewed = self._call(
            "heartbeat", lambda: self.server.zadd(self.keys.workers, {self.worker: now}, xx=True, ch=True)
        )
        if renewed:
            self._beat = now
            return True
        self._fence()
        return False

    def _fence(self) -> None:
        """This worker's lease was taken: nothing more is committed or written by this process."""
        self.fenced = True
        if self.failure is None:
            self.failure = (
                f"this worker ({self.worker}) was given up as dead by the others (no "
                f"heartbeat for {self.worker_timeout:.0f}s) and its requests given back: "
                "it commits and writes nothing more"
            )

    def report_fence(self) -> None:
        """Log, once, that this worker was fenced and stops (a WARNING: nothing is lost)."""
        if self.fenced and not self._fence_reported:
            self._fence_reported = True
            logger.warning(
                "%s; this worker stops (reason lease_lost), the others fetch its requests", self.failure
            )

    def holds_lease(self) -> bool:
        """Whether this worker may still write output: its lease is held, with a margin.

        Answered from the time of the last renewal (no Redis call) while that is well within
        ``worker_timeout``, the soonest any other worker may take the lease; near the end, the
        lease is renewed first. False once fenced; StateError when Redis cannot say.
        """
        if self.fenced:
            return False
        if self.failure is not None:
            raise StateError(self.location, f"lease check refused: Redis failed earlier ({self.failure})")
        if not self._joined:
            return True
        margin = min(LEASE_MARGIN, self.worker_timeout / 4)
        if time.time() < self._beat + self.worker_timeout - margin:
            return True
        return self.heartbeat()

    def workers(self) -> dict[str, float]:
        """Registered workers and their last heartbeat."""
        rows = self._call("lookup", self.server.zrange, self.keys.workers, 0, -1, False, True)
        return {text(w): float(beat) for w, beat in rows}

    def requeue(self, worker: str, dead_before: float) -> int:
        """Put a dead worker's in-flight requests back; -1 if it came back or is already handled."""
        k = self.keys
        count = self._call(
            "requeue",
            self._scripts["requeue"],
            [k.queue, k.inflight(worker), k.workers, k.offsets(worker)],
            [worker, dead_before],
        )
        return int(count)

    def pop_request(self) -> bytes | None:
        """The best queued entry, now held in this worker's in-flight hash (None when empty).

        Raises StateError, fenced, once the others gave this worker up (see ``_POP``).
        """
        k = self.keys
        joined = self.worker if self._joined else ""
        member = self._call(
            "pop", self._scripts["pop"], [k.queue, k.inflight(self.worker), k.workers], [joined]
        )
        if member == -1:
            self._fence()
            raise StateError(self.location, f"pop refused: {self.failure}")
        return None if member is None else bytes(member)

    def push_request(self, member: bytes, score: float, fingerprint: bytes | None = None) -> bool:
        """Queue an entry; with ``fingerprint``, only if the round's duplicate filter lacks it.

        Returns False when filtered. An identical entry already queued stays one.
        """
        added = self._call(
            "push",
            self._scripts["enqueue"],
            [self.keys.queue, self.keys.dupefilter],
            [member, score, fingerprint or b""],
        )
        return bool(added)

    def queue_size(self) -> int:
        """Requests waiting in the shared queue."""
        return int(self._call("lookup", self.server.zcard, self.keys.queue))

    def clear_inflight(self) -> None:
        """Forget this worker's in-flight entries (only when its engine has nothing in progress)."""
        self._call("commit", self.server.delete, self.keys.inflight(self.worker))

    def drained(self) -> bool:
        """Whether nothing is queued and no worker holds an in-flight request."""
        prefix = self.keys.key("inflight:")
        keys = [self.keys.queue, self.keys.workers]
        return bool(self._call("lookup", self._scripts["drained"], keys, [prefix]))
