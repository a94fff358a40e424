r"""The Redis crawl-state backend: one state shared by every process of a spider, on any machine.

Selected by ``HARVEST_STATE_URL=redis://[:password@]host:port/db`` (or ``rediss://`` for TLS).
:class:`RedisStateStore` implements :class:`harvest.state.StateStore` on these keys (``<s>`` is
the spider; binary members are digests, never URLs, so memory per entry stays small and fixed):

================================ ====== ===========================================================
``harvest:<s>:items``            SET    16-byte item key digests of stored items
``harvest:<s>:content``          HASH   32-byte content hash -> URL of the stored document
``harvest:_shared:content``      HASH   32-byte content hash -> ``<spider>\0<url>`` (cross-spider)
``harvest:<s>:fetched``          HASH   20-byte request fingerprint -> last fetch (8-byte double)
``harvest:<s>:validators``       HASH   validator key -> JSON ``[etag, last_modified]``
``harvest:<s>:requests``         ZSET   the shared frontier (scrapy-redis queue; see below)
``harvest:<s>:dupefilter``       SET    20-byte fingerprints scheduled this round (scrapy-redis)
``harvest:<s>:workers``          ZSET   worker id -> last heartbeat (epoch seconds)
``harvest:<s>:inflight:<w>``     HASH   frontier key -> queue entry, popped by worker ``<w>``
``harvest:<s>:offsets:<w>``      HASH   output file -> byte offset committed by worker ``<w>``
``harvest:<s>:offsets-left:<m>`` HASH   output file -> offset committed by workers that left
``harvest:<s>:round``            STRING round counter (a round = one drain of the frontier)
================================ ====== ===========================================================

Guarantees, as the SQLite store's, with several writers:

- :meth:`RedisStateStore.commit` applies a whole :class:`~harvest.state.StateBatch` in one
  MULTI/EXEC transaction.
- The frontier is scrapy-redis's queue plus one in-flight hash per worker: a request popped by a
  worker moves atomically (a Lua script) into that worker's in-flight hash and leaves it only
  when the crawl state retires it (``frontier_done``, committed after its items were written and
  fsynced). A worker killed with ``kill -9`` leaves its in-flight requests behind; the
  coordinator (:mod:`harvest.scale.coordinator`) puts them back in the queue once the worker's
  heartbeat is stale, so the others or a restart finish its work.
- Output offsets are kept per worker. Several processes on one machine (``<m>``: machine and
  data folder) append to the same JSON Lines files, so the offset a restart may trust is the
  smallest one committed by a worker of that machine still registered (or, with none, the
  largest left by those gone): every line before it is committed.
- A worker's registry entry is its *lease*: the commit checks it in the same transaction
  (``WATCH``), a heartbeat renews only an entry still there, and the output pipeline writes a
  line only while :meth:`RedisStateStore.holds_lease`. A worker given up by the others (frozen
  past ``worker_timeout``) is *fenced*: it commits and writes nothing more, and stops.
- A Redis error makes the store *fail*: the error names the URL (password masked), and nothing
  more is committed by this process, so a request whose output could not be recorded is never
  retired; it is fetched again after a restart.

The frontier methods of the protocol that page through pending requests
(``frontier_page``, ``frontier_max_seq``, ``frontier_dont_filter``) serve the embedded
``FrontierScheduler``; with Redis the scheduler is :class:`harvest.scale.scheduler.RedisScheduler`
and pending requests never leave Redis, so they return nothing, and a batch that adds frontier
entries (i.e. the wrong scheduler) is refused.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import struct
import time
import uuid
from dataclasses import dataclass
from hashlib import sha1
from pathlib import Path
from typing import TYPE_CHECKING, Any

import redis

from harvest.exceptions import StateError
from harvest.state import FrontierEntry, StateBatch, StateOrigin, Validators
from harvest.state.sqlite_files import hash_bytes, utc_stamp
from harvest.util.redaction import mask_url

if TYPE_CHECKING:
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Namespace of every key; use another Redis database (``/db`` in the URL) to separate deployments.
KEY_PREFIX = "harvest"
SHARED = "_shared"
#: Old state moved aside by a reset stays this long (seconds) before Redis drops it.
RESET_KEEP_SECONDS = 7 * 86400
#: Seconds before a worker's lease ends (``HARVEST_REDIS_WORKER_TIMEOUT`` after its last
#: heartbeat) from which it renews the lease before writing output (at most a quarter of it).
LEASE_MARGIN = 2.0
#: A dedup claim lives this long at most (milliseconds); a commit (every few seconds) removes
#: it, and a dead holder's claim is taken over at once, so this only collects leftovers.
CLAIM_TTL_MS = 600_000
_FLOAT = struct.Struct(">d")

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

# Check-and-claim for dedup across workers: 1 = stored already, 2 = another live worker is
# storing it right now, 0 = not stored, and now claimed by this worker until its commit.
# KEYS: the stored set/hash, the claim key, the registry; ARGV: member, worker, ttl ms,
# "alive after" time, and "hash" when KEYS[1] is a hash.
_CLAIM = """
local stored
if ARGV[5] == 'hash' then stored = redis.call('HEXISTS', KEYS[1], ARGV[1])
else stored = redis.call('SISMEMBER', KEYS[1], ARGV[1]) end
if stored == 1 then return 1 end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[2] then
  local beat = redis.call('ZSCORE', KEYS[3], holder)
  if beat and tonumber(beat) >= tonumber(ARGV[4]) then return 2 end
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 0
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


def _text(value: Any) -> str:
    """A Redis reply (bytes) as text."""
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def location_id(data_dir: Path) -> str:
    """Identity of one machine's data folder: writers that share output files share it."""
    where = f"{socket.gethostname()}\0{Path(data_dir).resolve()}"
    return sha1(where.encode("utf-8", "surrogatepass")).hexdigest()[:12]  # noqa: S324 - a name


@dataclass(frozen=True)
class RedisKeys:
    """Names of one spider's keys (see the module docstring)."""

    spider: str

    def key(self, name: str) -> str:
        """``harvest:<spider>:<name>``."""
        return f"{KEY_PREFIX}:{self.spider}:{name}"

    @property
    def items(self) -> str:
        """Stored item keys."""
        return self.key("items")

    @property
    def content(self) -> str:
        """This spider's content hashes."""
        return self.key("content")

    @property
    def shared_content(self) -> str:
        """Every spider's content hashes."""
        return f"{KEY_PREFIX}:{SHARED}:content"

    @property
    def fetch_times(self) -> str:
        """Last fetch per document."""
        return self.key("fetched")

    @property
    def validators(self) -> str:
        """ETag / Last-Modified per document."""
        return self.key("validators")

    @property
    def queue(self) -> str:
        """scrapy-redis's queue."""
        return self.key("requests")

    @property
    def dupefilter(self) -> str:
        """scrapy-redis's duplicate filter (this round)."""
        return self.key("dupefilter")

    @property
    def workers(self) -> str:
        """The worker registry."""
        return self.key("workers")

    @property
    def round(self) -> str:
        """The round counter."""
        return self.key("round")

    def inflight(self, worker: str) -> str:
        """Requests held by one worker."""
        return self.key(f"inflight:{worker}")

    def offsets(self, worker: str) -> str:
        """Offsets committed by one worker."""
        return self.key(f"offsets:{worker}")

    def claim(self, kind: str, member: bytes) -> str:
        """Claim on an item key or content hash being stored by one worker right now."""
        return self.key(f"claim:{kind}:{member.hex()}")

    def place_offsets(self, place: str) -> str:
        """Offsets left by the workers of one machine and folder that left."""
        return self.key(f"offsets-left:{place}")

    def state_keys(self) -> list[str]:
        """The fixed keys of the spider's state (what a reset moves aside)."""
        return [
            self.items,
            self.content,
            self.fetch_times,
            self.validators,
            self.queue,
            self.dupefilter,
            self.workers,
            self.round,
        ]


@dataclass(frozen=True)
class JoinResult:
    """What :meth:`RedisStateStore.join` found."""

    new_round: bool
    other_workers: int
    queued: int
    round: int


class RedisStateStore:
    """:class:`harvest.state.StateStore` in Redis, shared by every process of a spider.

    Built by :func:`harvest.state.open_store` (``HARVEST_STATE_URL=redis://...``); ``__init__``
    takes a client, so tests can build one directly. ``worker`` names this process in the
    registry (``<location>.<pid>.<random>``, the location being machine + data folder).
    """

    def __init__(
        self,
        server: redis.Redis,
        url: str,
        spider_name: str,
        data_dir: Path,
        origin: StateOrigin,
        *,
        cross_spider: bool = True,
        readonly: bool = False,
    ) -> None:
        self.server = server
        self.url = url
        self.location = mask_url(url)
        self.spider_name = spider_name
        self.data_dir = Path(data_dir)
        self.origin = origin
        self.cross_spider = cross_spider
        self.readonly = readonly
        self.keys = RedisKeys(spider_name)
        self.place = location_id(self.data_dir)
        self.worker = f"{self.place}.{os.getpid()}.{uuid.uuid4().hex[:6]}"
        #: Set at the first Redis error: from then on nothing is committed (see the module doc).
        self.failure: str | None = None
        #: Heartbeat age after which a worker is dead (the coordinator sets it from settings).
        self.worker_timeout = 30.0
        #: When this worker's lease was last renewed (its registry entry's score).
        self._beat = 0.0
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
                ("claim", _CLAIM),
                ("enqueue", _ENQUEUE),
            )
        }

    # --- opening -------------------------------------------------------------------------------

    @classmethod
    def from_url(
        cls,
        url: str,
        spider_name: str,
        data_dir: Path,
        *,
        reset: bool = False,
        cross_spider: bool = True,
        readonly: bool = False,
        busy_timeout: float = 30.0,
    ) -> Self:
        """Connect to ``url`` (``HARVEST_STATE_URL``); ``busy_timeout`` bounds every Redis call.

        No retries: a Redis that does not answer stops this crawl cleanly (the frontier and the
        state stay consistent in Redis), and a restart resumes.
        """
        if not spider_name or any(c in spider_name for c in ": \0\n"):
            raise StateError(mask_url(url), f"spider name {spider_name!r} cannot name Redis keys")
        try:
            server = redis.Redis.from_url(
                url,
                socket_timeout=busy_timeout,
                socket_connect_timeout=min(busy_timeout, 10.0),
                health_check_interval=30,
            )
        except ValueError as exc:
            raise StateError(mask_url(url), f"not a Redis URL: {exc}") from None
        keys = RedisKeys(spider_name)
        try:
            server.ping()
            existing = any(server.exists(k) for k in (keys.items, keys.fetch_times, keys.content, keys.queue))
            origin = StateOrigin.EXISTING if existing else StateOrigin.NEW
            if reset:
                if readonly:
                    raise StateError(mask_url(url), "cannot reset a state opened read-only")
                cls._reset(server, keys, url)
                origin = StateOrigin.RESET
        except redis.RedisError as exc:
            server.close()
            raise StateError(mask_url(url), redis_reason(exc)) from None
        return cls(server, url, spider_name, data_dir, origin, cross_spider=cross_spider, readonly=readonly)

    @staticmethod
    def _reset(server: redis.Redis, keys: RedisKeys, url: str) -> None:
        """Move the spider's state aside (renamed, kept RESET_KEEP_SECONDS), refusing if in use."""
        live = server.zcard(keys.workers)
        if live:
            raise StateError(
                mask_url(url),
                f"cannot reset {keys.spider!r}: {live} crawl process(es) "
                "of it are registered (stop them first, or wait for a dead one to expire)",
            )
        stamp = utc_stamp()
        moved = []
        pattern = [keys.key(f"{kind}:*") for kind in ("inflight", "offsets", "offsets-left", "claim")]
        names = keys.state_keys() + [k.decode() for p in pattern for k in server.scan_iter(match=p)]
        for name in names:
            if server.exists(name):
                target = f"{name}:reset-{stamp}"
                server.rename(name, target)
                server.expire(target, RESET_KEEP_SECONDS)
                moved.append(target)
        logger.info(
            "Reset the crawl state of %s in %s: %d keys moved aside (kept %d days as *:reset-%s)",
            keys.spider,
            mask_url(url),
            len(moved),
            RESET_KEEP_SECONDS // 86400,
            stamp,
        )

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

    def fail(self, exc: redis.RedisError, what: str) -> StateError:
        """Fail the store on a Redis error raised outside :meth:`_call` (scrapy-redis's own calls)."""
        self.failure = redis_reason(exc)
        return StateError(self.location, f"{what} failed: {self.failure}")

    # --- lookups -------------------------------------------------------------------------------

    def _claim(self, stored_key: str, kind: str, member: bytes, *, is_hash: bool) -> int:
        alive_after = time.time() - self.worker_timeout
        args = [member, self.worker, CLAIM_TTL_MS, alive_after, "hash" if is_hash else "set"]
        keys = [stored_key, self.keys.claim(kind, member), self.keys.workers]
        return int(self._call("lookup", self._scripts["claim"], keys, args))

    def has_item(self, key: bytes) -> bool:
        """Whether an item with this key digest was stored, or is being stored by another worker.

        Several workers may meet the same item at once (one page under two URLs): the first to
        ask claims it until its commit, so exactly one of them stores it.
        """
        if self.readonly:
            return bool(self._call("lookup", self.server.sismember, self.keys.items, key))
        return self._claim(self.keys.items, "item", key, is_hash=False) != 0

    def content_url(self, content_hash: str) -> str | None:
        """URL of this spider's stored document with this content hash, if any.

        Claims the hash when it is not stored (as :meth:`has_item`); a hash another worker is
        storing right now gives ``"(being stored by another worker)"``.
        """
        digest = hash_bytes(content_hash)
        if not self.readonly and self._claim(self.keys.content, "content", digest, is_hash=True) == 2:
            return "(being stored by another worker)"
        value = self._call("lookup", self.server.hget, self.keys.content, digest)
        return None if value is None else bytes(value).decode("utf-8", "replace")

    def claim_content(self, content_hash: str) -> tuple[str, str] | None:
        """(spider, url) of another spider that claimed this content hash, if cross-spider.

        This spider's own claim is written with its batch (``HSETNX`` at commit: the first wins).
        """
        if not self.cross_spider:
            return None
        value = self._call("lookup", self.server.hget, self.keys.shared_content, hash_bytes(content_hash))
        if value is None:
            return None
        spider, _, url = bytes(value).decode("utf-8", "replace").partition("\0")
        return None if spider == self.spider_name else (spider, url)

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document with this request fingerprint was last fetched (epoch seconds)."""
        value = self._call("lookup", self.server.hget, self.keys.fetch_times, fingerprint)
        return None if value is None else float(_FLOAT.unpack(value)[0])

    def validators(self, key: bytes) -> Validators | None:
        """Stored ETag / Last-Modified under a validator key."""
        value = self._call("lookup", self.server.hget, self.keys.validators, key)
        if value is None:
            return None
        etag, last_modified = json.loads(value)
        return Validators(etag=etag, last_modified=last_modified)

    def output_offsets(self) -> dict[str, int]:
        """Per output file, an offset before which every line of this machine's folder is committed.

        Several workers on one machine append to the same files; each commits its own offset
        (its lines before it are committed). With other workers of this machine registered, the
        smallest of theirs is safe (one lacking a file may have written to it: 0); with none,
        the baseline the last ones left. Lines after it are replayed (idempotently) by the
        output pipeline's reconciliation.
        """

        def compute() -> dict[str, int]:
            prefix = f"{self.place}."
            others = [_text(w) for w in self.server.zrange(self.keys.workers, 0, -1)]
            others = [w for w in others if w.startswith(prefix) and w != self.worker]
            left = self._decode_offsets(self.server.hgetall(self.keys.place_offsets(self.place)))
            if not others:
                return left
            entries = [self._decode_offsets(self.server.hgetall(self.keys.offsets(w))) for w in others]
            files = set(left).union(*entries)
            return {f: min(e.get(f, 0) for e in entries) for f in files}

        return dict(self._call("lookup", compute))

    @staticmethod
    def _decode_offsets(entries: Any) -> dict[str, int]:
        return {_text(n): int(v) for n, v in dict(entries).items()}

    def frontier_size(self) -> int:
        """Requests queued plus those held in flight by any worker."""

        def count() -> int:
            total = int(self.server.zcard(self.keys.queue))
            for worker in self.server.zrange(self.keys.workers, 0, -1):
                total += int(self.server.hlen(self.keys.inflight(_text(worker))))
            return total

        return int(self._call("lookup", count))

    def frontier_max_seq(self) -> int:
        """0: pending requests stay in Redis (the Redis scheduler serves them, nothing to page)."""
        return 0

    def frontier_page(self, after_seq: int, upto_seq: int, limit: int) -> list[FrontierEntry]:
        """Nothing: see :meth:`frontier_max_seq`."""
        return []

    def frontier_dont_filter(self) -> set[bytes]:
        """Nothing: see :meth:`frontier_max_seq`."""
        return set()

    # --- writes --------------------------------------------------------------------------------

    def commit(self, batch: StateBatch) -> None:
        """Apply ``batch`` in one MULTI/EXEC transaction (all of it or none)."""
        if self.readonly:
            raise StateError(self.location, "opened read-only")
        if batch.frontier_add:
            raise StateError(
                self.location,
                "the Redis backend keeps pending requests in the "
                "scrapy-redis queue: SCHEDULER must be harvest.scale.scheduler.RedisScheduler "
                "(set by harvest.scale.addon.RedisScaleAddon in ADDONS)",
            )
        self._call("commit", self._commit, batch)

    def _commit(self, batch: StateBatch) -> None:
        """The batch in one transaction, fenced: applied only while this worker holds its lease.

        The lease is this worker's entry in the registry (the coordinator of another worker
        removes it when it takes the worker's requests back). ``WATCH`` on the registry makes
        "still registered" and the writes one atomic step: a takeover between them aborts the
        transaction, and the check runs again (another worker's heartbeat also aborts it).
        """
        for _attempt in range(20):
            with self.server.pipeline(transaction=True) as pipe:
                pipe.watch(self.keys.workers)
                if getattr(self, "_joined", False) and pipe.zscore(self.keys.workers, self.worker) is None:
                    self._fence()
                    raise StateError(self.location, f"commit refused: {self.failure}")
                pipe.multi()
                self._queue_batch(pipe, batch)
                try:
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue
        raise redis.RedisError("the worker registry kept changing during 20 commit attempts")

    def _queue_batch(self, pipe: Any, batch: StateBatch) -> None:
        k = self.keys
        if batch.items:
            pipe.sadd(k.items, *batch.items)
            pipe.delete(*(k.claim("item", key) for key in batch.items))
        for content_hash, (url, _) in batch.contents.items():
            digest = hash_bytes(content_hash)
            pipe.hsetnx(k.content, digest, url)
            pipe.delete(k.claim("content", digest))
            if self.cross_spider:
                pipe.hsetnx(k.shared_content, digest, f"{self.spider_name}\0{url}")
        if batch.fetched:
            pipe.hset(k.fetch_times, mapping={fp: _FLOAT.pack(ts) for fp, ts in batch.fetched.items()})
        if batch.validators:
            pipe.hset(
                k.validators,
                mapping={
                    key: json.dumps([v.etag, v.last_modified]) for key, (v, _) in batch.validators.items()
                },
            )
        if batch.frontier_clear:
            pipe.delete(k.inflight(self.worker))
        elif batch.frontier_done:
            pipe.hdel(k.inflight(self.worker), *batch.frontier_done)
        if batch.offsets:
            pipe.hset(k.offsets(self.worker), mapping=dict(batch.offsets.items()))

    def close(self) -> None:
        """Leave the crawl (if joined) and close the connection."""
        try:
            if self.failure is None and not self.readonly:
                self.leave()
        except StateError as exc:
            logger.error("Could not leave the crawl cleanly: %s", exc)
        self.server.close()

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
        if not getattr(self, "_joined", False):
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
        if not getattr(self, "_joined", False):
            return True
        margin = min(LEASE_MARGIN, self.worker_timeout / 4)
        if time.time() < self._beat + self.worker_timeout - margin:
            return True
        return self.heartbeat()

    def workers(self) -> dict[str, float]:
        """Registered workers and their last heartbeat."""
        rows = self._call("lookup", self.server.zrange, self.keys.workers, 0, -1, False, True)
        return {_text(w): float(beat) for w, beat in rows}

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
        joined = self.worker if getattr(self, "_joined", False) else ""
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
