r"""The Redis crawl-state backend: one state shared by every process of a spider, on any machine.

Selected by ``HARVEST_STATE_URL=redis://[:password@]host:port/db`` (or ``rediss://`` for TLS).
:class:`RedisStateStore` implements :class:`harvest.state.StateStore` on these keys (``<s>`` is
the spider; binary members are digests, never URLs, so memory per entry stays small and fixed;
their names are :mod:`harvest.state.redis_keys`'s, and this process's part in the shared crawl,
its lease and the queue, is :class:`harvest.state.redis_worker.RedisWorker`'s):

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
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

import redis

from harvest.exceptions import StateError
from harvest.state import FrontierEntry, StateBatch, StateOrigin, Validators
from harvest.state.redis_keys import RedisKeys, text
from harvest.state.redis_worker import RedisWorker, redis_reason
from harvest.state.sqlite_files import hash_bytes, utc_stamp
from harvest.util.redaction import mask_url

if TYPE_CHECKING:
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Old state moved aside by a reset stays this long (seconds) before Redis drops it.
RESET_KEEP_SECONDS = 7 * 86400
#: A dedup claim lives this long at most (milliseconds); a commit (every few seconds) removes
#: it, and a dead holder's claim is taken over with its work, so this only collects leftovers.
CLAIM_TTL_MS = 600_000
_FLOAT = struct.Struct(">d")

# Check-and-claim for dedup across workers: 1 = stored already, 2 = another registered worker is
# storing it, 0 = not stored, and now claimed by this worker until its commit. A holder that
# stopped beating keeps its claim until the others take its work over (which replays the lines
# it wrote, then removes it from the registry): taken at once, the claim let a worker store the
# same page under another URL, and the replay then committed the dead worker's copy too.
# KEYS: the stored set/hash, the claim key, the registry; ARGV: member, worker, ttl ms,
# and "hash" when KEYS[1] is a hash.
_CLAIM = """
local stored
if ARGV[4] == 'hash' then stored = redis.call('HEXISTS', KEYS[1], ARGV[1])
else stored = redis.call('SISMEMBER', KEYS[1], ARGV[1]) end
if stored == 1 then return 1 end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[2] and redis.call('ZSCORE', KEYS[3], holder) then return 2 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 0
"""


def _reset_state(server: redis.Redis, keys: RedisKeys, url: str) -> None:
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


class RedisStateStore(RedisWorker):
    """:class:`harvest.state.StateStore` in Redis, shared by every process of a spider.

    Built by :func:`harvest.state.open_store` (``HARVEST_STATE_URL=redis://...``); ``__init__``
    takes a client, so tests can build one directly. This process's part in the shared crawl
    (registry, lease, queue) is :class:`~harvest.state.redis_worker.RedisWorker`'s.
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
        super().__init__(server, url, spider_name, data_dir)
        self.origin = origin
        self.cross_spider = cross_spider
        self.readonly = readonly
        self._scripts["claim"] = server.register_script(_CLAIM)

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
                _reset_state(server, keys, url)
                origin = StateOrigin.RESET
        except redis.RedisError as exc:
            server.close()
            raise StateError(mask_url(url), redis_reason(exc)) from None
        return cls(server, url, spider_name, data_dir, origin, cross_spider=cross_spider, readonly=readonly)

    # --- lookups -------------------------------------------------------------------------------

    def _claim(self, stored_key: str, kind: str, member: bytes, *, is_hash: bool) -> int:
        args = [member, self.worker, CLAIM_TTL_MS, "hash" if is_hash else "set"]
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
            others = [text(w) for w in self.server.zrange(self.keys.workers, 0, -1)]
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
        return {text(n): int(v) for n, v in dict(entries).items()}

    def frontier_size(self) -> int:
        """Requests queued plus those held in flight by any worker."""

        def count() -> int:
            total = int(self.server.zcard(self.keys.queue))
            for worker in self.server.zrange(self.keys.workers, 0, -1):
                total += int(self.server.hlen(self.keys.inflight(text(worker))))
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
                if self._joined and pipe.zscore(self.keys.workers, self.worker) is None:
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
