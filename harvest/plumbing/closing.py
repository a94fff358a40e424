"""Closing a crawl from any component, and the close reasons that mean its data is complete."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.utils.defer import deferred_from_coro

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: Close reasons of a crawl that did its job (or was asked to stop and stopped cleanly).
OK_REASONS = frozenset(
    {
        "finished",
        "shutdown",
        "closespider_timeout",
        "closespider_itemcount",
        "closespider_pagecount",
        "stop_requested",
        # A Redis worker the others gave up (frozen past its lease): it stopped without
        # committing, and they fetch its requests (harvest.scale.coordinator).
        "lease_lost",
    }
)


def finished_ok(crawler: Crawler) -> bool:
    """True when the crawl closed with a reason that means its data is complete and right."""
    reason = crawler.stats.get_value("finish_reason") if crawler.stats else None
    return reason in OK_REASONS


def close_crawl(crawler: Crawler, reason: str) -> None:
    """Close ``crawler``'s spider with ``reason`` from anywhere in the crawl (no-op once closed).

    Components that decide a crawl must stop (the fleet's stop flag, unreachable hosts, a stuck
    scheduler, a fatal state or output error) all close it this way: the engine's own close path
    finishes in-flight work and flushes outputs and state; a failure to close is logged.
    """
    engine = crawler.engine
    if engine is None or engine.spider is None:
        return
    dfd = deferred_from_coro(engine.close_spider_async(reason=reason))
    dfd.addErrback(lambda f: logger.error("Could not close the spider (%s): %s", reason, f.value))
