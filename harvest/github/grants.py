"""Waiting for a grant of the shared rate budget, without blocking the reactor, and telling of it.

A request of the GitHub API waits until :class:`~harvest.github.budget.RateBudget` grants it.
:class:`GrantWaits` polls the budget in short pauses; a grant this process gives back wakes its
own waiting requests at once (polling is only needed for grants other processes hold). A long
wait is logged once per request and announced to the fleet's watchdog
(:mod:`harvest.util.waits`), which leaves a spider waiting for the rate limit alone.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest

from harvest.util import waits

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request
    from scrapy.statscollectors import StatsCollector
    from twisted.internet.defer import Deferred

    from harvest.github.budget import Decision, RateBudget

logger = logging.getLogger(__name__)

#: Longest single sleep while waiting, so a closing spider is noticed within a second.
_MAX_SLEEP_CHUNK = 1.0
#: Waits shorter than this are routine pacing and are not logged.
LOG_WAIT_AFTER = 2.0

_wake = waits.wake
_pause = waits.pause


class WaitInterrupted(IgnoreRequest):
    """The spider closed while a request waited for the rate limit (not a failure of the request)."""


class GrantWaits:
    """The requests of this process waiting for a grant of one token's budget."""

    def __init__(
        self, token_key: str, *, stats: StatsCollector | None = None, crawler: Crawler | None = None
    ) -> None:
        self.token_key = token_key
        self.stats = stats
        self.crawler = crawler
        # Requests of this process waiting for a grant: woken when one of ours ends, since
        # polling is only needed for grants held by other processes.
        self._waiters: list[Deferred[None]] = []

    def _inc(self, key: str, value: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/github/{key}", value)

    def _closing(self) -> bool:
        engine = getattr(self.crawler, "engine", None)
        slot = getattr(engine, "_slot", None)
        return engine is not None and (slot is None or getattr(slot, "closing", None) is not None)

    def release(self, budget: RateBudget, grant: str | None) -> None:
        """Give ``grant`` back and wake this process's waiting requests."""
        budget.release(grant)
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            _wake(waiter)

    async def wait(self, request: Request, budget: RateBudget, resource: str | None) -> str:
        """Poll the shared budget (without blocking the reactor) until it grants ``request``."""
        waited = 0.0
        # One announced wait per resource (harvest.util.waits): the fleet's watchdog leaves a spider
        # that waits for the rate limit alone, and its status shows until when. Concurrent
        # waiters re-announce it on their next pass if another one's grant cleared it.
        wait_key = f"github/{resource or 'free'}"
        announced = False
        try:
            while True:
                decision = budget.acquire(self.token_key, resource)
                if decision.grant is not None:
                    break
                if self._closing():
                    raise WaitInterrupted(
                        f"spider closing while {request.url} waited for the GitHub rate limit"
                    )
                pause = min(max(decision.wait, 0.01), _MAX_SLEEP_CHUNK)
                if decision.wait >= LOG_WAIT_AFTER:
                    self._tell_wait(request, resource, decision, wait_key, first=waited == 0.0)
                    announced = announced or self.crawler is not None
                started = time.monotonic()
                await _pause(pause, self._waiters)
                waited += time.monotonic() - started
        finally:
            if announced and self.crawler is not None:
                waits.clear(self.crawler, wait_key)
        if waited:
            self._inc("waits")
            self._inc("wait_ms", int(waited * 1000))
        return decision.grant

    def _tell_wait(
        self, request: Request, resource: str | None, decision: Decision, wait_key: str, *, first: bool
    ) -> None:
        """Log a long wait (on a request's first pass) and announce it to the fleet's watchdog."""
        if first:
            logger.info(
                "GitHub %s budget of token %s: waiting %.1f s (%s) before %s",
                resource or "free",
                self.token_key,
                decision.wait,
                decision.reason,
                request.url,
            )
        if self.crawler is not None:
            until = time.time() + decision.wait
            end = time.strftime("%H:%M:%SZ", time.gmtime(until))
            text = f"waiting for the GitHub {resource or 'free'} rate limit until {end}"
            waits.announce(self.crawler, wait_key, f"{text} ({decision.reason})", until)
