"""The crawl-state store: what one spider has seen, stored, fetched and still has to fetch.

A store is opened per spider by :func:`open_store` from ``HARVEST_STATE_URL``; the scheme picks
the backend from :data:`STORE_SCHEMES` (empty or ``sqlite:`` = the embedded SQLite store under
``HARVEST_DATA_DIR/state/<spider>/``; ``redis://`` = :mod:`harvest.state.redis`, shared by many
processes and machines).

Every backend implements :class:`StateStore`: point lookups (never "load the whole set"), and
:meth:`StateStore.commit`, which applies one :class:`StateBatch` atomically. The crawl commits a
batch at each commit point, right after the output files were flushed and fsynced, so the store
never claims more than what is durably on disk (see ``docs/ARCHITECTURE.md``, "Crawl state").
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlsplit

from harvest.exceptions import StateError
from harvest.util.redaction import mask_url

logger = logging.getLogger(__name__)

__all__ = [
    "STORE_SCHEMES",
    "is_redis_url",
    "FrontierEntry",
    "StateBatch",
    "StateOrigin",
    "StateStore",
    "Validators",
    "open_store",
]


class StateOrigin(str, Enum):
    """How the state a store holds came to be, which decides how output files are reconciled."""

    #: State of earlier runs: output lines past the committed offsets are replayed into it.
    EXISTING = "existing"
    #: No state existed: every line of the existing output files is replayed (rebuilds the keys).
    NEW = "new"
    #: The old state was corrupt and moved aside: rebuilt from the output files like NEW.
    RECOVERED = "recovered"
    #: HARVEST_DEDUP_RESET / ``-a reset=1``: start clean; existing output is not replayed.
    RESET = "reset"


@dataclass(frozen=True)
class Validators:
    """HTTP validators of the last stored copy of a document."""

    etag: str | None
    last_modified: str | None


@dataclass(frozen=True)
class FrontierEntry:
    """One pending request of the persisted frontier."""

    seq: int
    fingerprint: bytes
    request: bytes


@dataclass
class StateBatch:
    """Everything one commit point writes, applied in one transaction by :meth:`StateStore.commit`.

    Frontier removals are applied before additions, so a request retired and re-discovered in
    the same batch stays pending.
    """

    #: item key digest -> time stored
    items: dict[bytes, float] = field(default_factory=dict)
    #: content hash (hex) -> (url, time stored)
    contents: dict[str, tuple[str, float]] = field(default_factory=dict)
    #: request fingerprint -> time fetched (documents only)
    fetched: dict[bytes, float] = field(default_factory=dict)
    #: validator key -> (validators, time fetched)
    validators: dict[bytes, tuple[Validators, float]] = field(default_factory=dict)
    #: request fingerprint -> (serialized request, dont_filter)
    frontier_add: dict[bytes, tuple[bytes, bool]] = field(default_factory=dict)
    frontier_done: set[bytes] = field(default_factory=set)
    #: a crawl that finished has nothing pending: drop whatever the frontier still lists
    frontier_clear: bool = False
    #: with ``frontier_clear``, the requests that stay (an item of theirs failed in a pipeline;
    #: the embedded store keeps them, the next run fetches them again)
    frontier_keep: set[bytes] = field(default_factory=set)
    #: output file name (relative to the spider's data folder) -> committed byte offset
    offsets: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return (
            len(self.items)
            + len(self.contents)
            + len(self.fetched)
            + len(self.validators)
            + len(self.frontier_add)
            + len(self.frontier_done)
            + len(self.offsets)
            + int(self.frontier_clear)
        )

    def add_frontier(self, fingerprint: bytes, request: bytes, dont_filter: bool) -> None:
        """Persist a pending request."""
        self.frontier_add[fingerprint] = (request, dont_filter)

    def retire_frontier(self, fingerprint: bytes) -> None:
        """Mark a request done: remove it from the pending frontier."""
        self.frontier_add.pop(fingerprint, None)
        self.frontier_done.add(fingerprint)


@runtime_checkable
class StateStore(Protocol):
    """What the crawl needs from a state backend. All lookups are point queries.

    Keys are bytes digests (request fingerprints from ``crawler.request_fingerprinter``, item
    key digests from :mod:`harvest.identity`); content hashes are sha256 hex strings.
    """

    #: Where the state lives (a path or URL), for messages.
    location: str
    #: How the state came to be (new, existing, reset, recovered from corruption).
    origin: StateOrigin

    def has_item(self, key: bytes) -> bool:
        """Whether an item with this key digest was stored."""

    def content_url(self, content_hash: str) -> str | None:
        """URL of this spider's stored document with this content hash, if any."""

    def claim_content(self, content_hash: str) -> tuple[str, str] | None:
        """Claim this content hash for this spider; (spider, url) of another spider that claimed it first.

        None when cross-spider dedup is off or the hash is this spider's; the url may be "".
        """

    def last_fetched(self, fingerprint: bytes) -> float | None:
        """When a document with this request fingerprint was last fetched (epoch seconds)."""

    def validators(self, key: bytes) -> Validators | None:
        """Stored ETag / Last-Modified under a validator key."""

    def output_offsets(self) -> dict[str, int]:
        """Committed byte offset of each output file."""

    def frontier_size(self) -> int:
        """Number of pending requests."""

    def frontier_max_seq(self) -> int:
        """Sequence number of the newest pending request (0 when empty)."""

    def frontier_page(self, after_seq: int, upto_seq: int, limit: int) -> list[FrontierEntry]:
        """Pending requests with after_seq < seq <= upto_seq, oldest first, at most ``limit``."""

    def frontier_dont_filter(self) -> set[bytes]:
        """Fingerprints of pending requests that bypass the duplicate filter (start requests)."""

    def commit(self, batch: StateBatch) -> None:
        """Apply ``batch`` atomically: after a crash, either all of it is there or none."""

    def close(self) -> None:
        """Release connections and locks."""


#: Backend class per URL scheme, as import paths so optional backends import only when used.
STORE_SCHEMES: dict[str, str] = {
    "": "harvest.state.sqlite.SqliteStateStore",
    "sqlite": "harvest.state.sqlite.SqliteStateStore",
    "redis": "harvest.state.redis.RedisStateStore",
    "rediss": "harvest.state.redis.RedisStateStore",
}


def is_redis_url(url: str | None) -> bool:
    """Whether a ``HARVEST_STATE_URL`` selects the Redis backend (shared by processes and machines)."""
    return STORE_SCHEMES.get(str(url or "").split(":", 1)[0].lower(), "").startswith("harvest.state.redis.")


def open_store(
    url: str,
    spider_name: str,
    data_dir: str | Path,
    *,
    reset: bool = False,
    cross_spider: bool = True,
    readonly: bool = False,
    busy_timeout: float = 30.0,
) -> StateStore:
    """Open the state of ``spider_name`` at ``url`` (``HARVEST_STATE_URL``; empty = SQLite).

    ``reset`` moves the old state aside and starts clean; ``readonly`` opens for inspection
    while a crawl may be writing (no lock taken, nothing created or moved).
    """
    scheme = urlsplit(url).scheme if url else ""
    try:
        path = STORE_SCHEMES[scheme]
    except KeyError:
        known = ", ".join(repr(s) for s in sorted(STORE_SCHEMES) if s) or "(none)"
        raise StateError(
            mask_url(url), f"unknown scheme {scheme!r} in HARVEST_STATE_URL (known: {known})"
        ) from None
    try:
        module, _, name = path.rpartition(".")
        store_cls: Any = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        reason = f"the {scheme!r} backend ({path}) cannot be imported: {exc}"
        raise StateError(mask_url(url), reason) from None
    store: StateStore = store_cls.from_url(
        url,
        spider_name,
        Path(data_dir),
        reset=reset,
        cross_spider=cross_spider,
        readonly=readonly,
        busy_timeout=busy_timeout,
    )
    return store
