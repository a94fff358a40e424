"""AbusePageMiddleware: GitHub's "Whoa there!" page is a rate limit, waited out and asked again.

GitHub answers a client its abuse detection flags with a 200 page titled "Whoa there!" instead
of the page asked for. Parsed as a Trending page it has no rows, which the trending spider's
layout canary would report as a changed layout. For requests with
``meta["harvest_abuse_page"] = True`` (the live Trending pages), such an answer goes back to the
scheduler and is sent again only after ``HARVEST_TRENDING_ABUSE_BACKOFF`` seconds, doubled per
abuse page in a row; after ``HARVEST_TRENDING_ABUSE_RETRIES`` it reaches the spider, which skips
and counts it (``meta["harvest_abuse_page_final"]``). Stats: ``harvest/abuse_page/waits``.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from scrapy.http import TextResponse
from twisted.internet.defer import Deferred

from harvest.meta import META_ABUSE_CHECK, META_ABUSE_FINAL, META_ABUSE_TRIES, META_ABUSE_UNTIL
from harvest.parsers.trending import is_abuse_page
from harvest.util import waits

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class AbusePageMiddleware:
    """Waits out GitHub's abuse-detection page (see the module docstring)."""

    def __init__(self, crawler: Crawler, backoff: float, retries: int) -> None:
        self.crawler = crawler
        self.backoff = backoff
        self.retries = retries
        self._waiters: list[Deferred[None]] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Built from ``HARVEST_TRENDING_ABUSE_BACKOFF`` and ``HARVEST_TRENDING_ABUSE_RETRIES``."""
        settings = crawler.settings
        return cls(
            crawler,
            settings.getfloat("HARVEST_TRENDING_ABUSE_BACKOFF"),
            settings.getint("HARVEST_TRENDING_ABUSE_RETRIES"),
        )

    async def process_request(self, request: Request) -> None:
        """Hold a request sent again after an abuse page until its wait is over."""
        until = request.meta.get(META_ABUSE_UNTIL)
        if until is None:
            return
        key = f"abuse_page/{id(request)}"
        waits.announce(self.crawler, key, "waiting out GitHub's abuse detection", until)
        try:
            while (left := until - time.time()) > 0:
                await waits.pause(min(left, 1.0), self._waiters)
        finally:
            waits.clear(self.crawler, key)

    def process_response(self, request: Request, response: Response) -> Request | Response:
        """Send an abuse page's request again later; after the last try, hand it on marked."""
        if (
            not request.meta.get(META_ABUSE_CHECK)
            or response.status != 200
            or not isinstance(response, TextResponse)
        ):
            return response
        if not is_abuse_page(response.text):
            return response
        tries = int(request.meta.get(META_ABUSE_TRIES, 0))
        stats = self.crawler.stats
        if tries >= self.retries:
            request.meta[META_ABUSE_FINAL] = True
            return response
        wait = self.backoff * 2**tries
        if stats is not None:
            stats.inc_value("harvest/abuse_page/waits")
        logger.info(
            'GitHub answered %s with its abuse-detection page ("Whoa there!"): a rate limit; '
            "asking again in %.0f s (try %d of %d)",
            request.url,
            wait,
            tries + 1,
            self.retries,
        )
        retry = request.replace(dont_filter=True)
        retry.meta[META_ABUSE_TRIES] = tries + 1
        retry.meta[META_ABUSE_UNTIL] = time.time() + wait
        return retry
