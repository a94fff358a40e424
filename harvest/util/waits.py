"""Announced waits: a component says what its crawl is waiting for, and until when.

A crawl that waits on purpose (for the GitHub rate limit, for the next round) makes no progress
for a long time, and to a watchdog looks like a hung one. A component that starts such a wait
announces it here, per crawler, and clears it when the wait ends::

    waits.announce(crawler, "github/search", "waiting for the GitHub rate limit until 18:42:10Z", until)
    ...
    waits.clear(crawler, "github/search")

Under ``run_all.py`` the fleet extension sends :func:`current` to the supervisor with every
heartbeat: an announced wait is not a hang as long as heartbeats keep coming, and the status
table and ``status.json`` show what each spider waits for. Outside the fleet nothing reads
the registry; announcing costs a dict update.

The registry is keyed by the crawler through weak references, so a finished crawler takes its
waits along.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from twisted.internet.defer import Deferred

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: A wait whose ``until`` passed this many seconds ago is presumed forgotten (never cleared): it
#: no longer shows, and no longer keeps a watchdog from seeing a stalled crawl.
STALE_AFTER = 60.0


@dataclass(frozen=True)
class Wait:
    """One announced wait."""

    #: Who waits (one entry per key; announcing the same key again replaces it).
    key: str
    #: What a person should read, e.g. "waiting for the GitHub rate limit until 18:42:10Z".
    text: str
    #: When it should end (Unix time), or None when it cannot tell.
    until: float | None = None
    #: When it was first announced (Unix time).
    since: float = field(default_factory=time.time)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for a pipe or a JSON file."""
        return asdict(self)


_registry: WeakKeyDictionary[Crawler, dict[str, Wait]] = WeakKeyDictionary()


def announce(crawler: Crawler, key: str, text: str, until: float | None = None) -> None:
    """Say that ``crawler`` waits (for ``text``, until ``until`` if known) under ``key``."""
    waits = _registry.setdefault(crawler, {})
    previous = waits.get(key)
    if previous is None:
        logger.debug("Wait announced: %s", text)
        if crawler.stats is not None:
            crawler.stats.inc_value("harvest/waits/announced")
    since = previous.since if previous is not None else time.time()
    waits[key] = Wait(key, text, until, since)


def clear(crawler: Crawler, key: str) -> None:
    """The wait under ``key`` is over (clearing an unknown key does nothing)."""
    waits = _registry.get(crawler)
    if waits is not None:
        waits.pop(key, None)


def current(crawler: Crawler, now: float | None = None) -> list[Wait]:
    """The waits of ``crawler`` still on, soonest end first (open-ended ones last)."""
    waits = _registry.get(crawler)
    if not waits:
        return []
    now = time.time() if now is None else now
    live = [w for w in waits.values() if w.until is None or w.until + STALE_AFTER >= now]
    return sorted(live, key=lambda w: (w.until is None, w.until or 0.0, w.key))


def wake(waiter: Deferred[None]) -> None:
    """End a :func:`pause` early (a grant it waits for was released)."""
    if not waiter.called:
        waiter.callback(None)


async def pause(seconds: float, waiters: list[Deferred[None]]) -> None:
    """Wait ``seconds`` without blocking the reactor, or less if :func:`wake` is called meanwhile.

    The waiter is listed in ``waiters`` while it waits, so whoever frees what it waits for (a
    shared grant) can wake it instead of letting it poll.
    """
    from scrapy.utils.asyncio import call_later
    from scrapy.utils.defer import maybe_deferred_to_future

    waiter: Deferred[None] = Deferred()
    timer = call_later(seconds, wake, waiter)
    waiters.append(waiter)
    try:
        await maybe_deferred_to_future(waiter)
    finally:
        timer.cancel()
        if waiter in waiters:
            waiters.remove(waiter)


def retry_after(response: Response, now: float) -> float | None:
    """Seconds a response's ``Retry-After`` asks for (seconds or an HTTP date), None without one."""
    raw = response.headers.get("Retry-After")
    if not raw:
        return None
    value = raw.decode("latin-1").strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError):
        return None
