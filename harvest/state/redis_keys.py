"""The Redis state's key names (see :mod:`harvest.state.redis`) and one machine's data folder."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from hashlib import sha1
from pathlib import Path
from typing import Any

#: Namespace of every key; use another Redis database (``/db`` in the URL) to separate deployments.
KEY_PREFIX = "harvest"
SHARED = "_shared"


def text(value: Any) -> str:
    """A Redis reply (bytes) as text."""
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def location_id(data_dir: Path) -> str:
    """Identity of one machine's data folder: writers that share output files share it."""
    where = f"{socket.gethostname()}\0{Path(data_dir).resolve()}"
    return sha1(where.encode("utf-8", "surrogatepass")).hexdigest()[:12]  # noqa: S324 - a name


@dataclass(frozen=True)
class RedisKeys:
    """Names of one spider's keys (see :mod:`harvest.state.redis`)."""

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
