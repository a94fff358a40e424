"""Fail fast when a crawl cannot reach any of its hosts (no internet, wrong endpoint, dead site).

Without this, a spider on a machine with no network retries every start URL a few times, logs a
wall of tracebacks and finishes "successfully" with nothing, and the fleet would start it again
next round as if all were well. :class:`ReachabilityMiddleware` watches connection-level failures
(DNS lookup, connection refused, connect timeout) per host: the first one for a host that has
never answered is logged once as ``cannot reach <host> (<why>)``; when every host the crawl has
tried so far is unreachable and none has answered, the spider is closed with the reason
``cannot_reach`` (not an OK reason: ``scrapy crawl`` exits 1 and the fleet reports the hosts).
A blogs crawl with one dead site among live ones keeps going: only that site is reported.

Listed in ``harvest/settings.py``; applies in fleet children (a fleet channel is attached, see
:mod:`harvest.extensions.fleet`) unless ``HARVEST_FLEET_REACHABILITY_ENABLED`` is off. A single
``scrapy crawl`` shows its retries and failures to the user, who decides.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from scrapy import exceptions as scrapy_errors
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import error as tx_errors

from harvest.exceptions import NotApplicable
from harvest.extensions.fleet import attached
from harvest.plumbing.closing import close_crawl

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Close reason when no host of the crawl could be reached.
CANNOT_REACH = "cannot_reach"

#: Failures that happen before a server says anything, with the words the user sees.
_CONNECT_FAILURES: tuple[tuple[type[BaseException], str], ...] = (
    (scrapy_errors.CannotResolveHostError, "DNS lookup failed"),
    (tx_errors.DNSLookupError, "DNS lookup failed"),
    (scrapy_errors.DownloadConnectionRefusedError, "connection refused"),
    (tx_errors.ConnectionRefusedError, "connection refused"),
    (tx_errors.NoRouteError, "no route to host"),
    (scrapy_errors.DownloadTimeoutError, "timed out"),
    (tx_errors.TCPTimedOutError, "timed out"),
    (tx_errors.TimeoutError, "timed out"),
    (tx_errors.ConnectError, "could not connect"),
)


def connect_failure(exception: BaseException) -> str | None:
    """Why a download failed before any answer (e.g. "DNS lookup failed"), or None if it did not."""
    for cls, why in _CONNECT_FAILURES:
        if isinstance(exception, cls):
            return why
    return None


class ReachabilityMiddleware:
    """Downloader middleware: report unreachable hosts once, close the crawl if none is reachable.

    Sits above RetryMiddleware (550) so it sees a failure before the retry is scheduled, and can
    stop retrying once the crawl is being closed.
    """

    def __init__(self, stats: StatsCollector, close_spider: Callable[[str], None]) -> None:
        self.stats = stats
        self.close_spider = close_spider
        self.attempted: set[str] = set()
        self.answered: set[str] = set()
        #: host -> why it could not be reached
        self.unreachable: dict[str, str] = {}
        self.closing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build in a fleet child, unless ``HARVEST_FLEET_REACHABILITY_ENABLED`` is off."""
        if attached() is None:
            raise NotApplicable("not running under run_all.py (no fleet channel attached)")
        if not crawler.settings.getbool("HARVEST_FLEET_REACHABILITY_ENABLED"):
            raise NotApplicable("HARVEST_FLEET_REACHABILITY_ENABLED is off")
        assert crawler.stats is not None

        return cls(crawler.stats, partial(close_crawl, crawler))

    def process_request(self, request: Request) -> None:
        """Remember which hosts this crawl has tried."""
        self.attempted.add(urlparse_cached(request).netloc)

    def process_response(self, request: Request, response: Response) -> Response:
        """Any answer, even an error status, proves the host is reachable."""
        host = urlparse_cached(request).netloc
        self.answered.add(host)
        self.unreachable.pop(host, None)
        return response

    def process_exception(self, request: Request, exception: Exception) -> Any:
        """Record a connection failure; close the crawl when nothing it tried is reachable."""
        why = connect_failure(exception)
        host = urlparse_cached(request).netloc
        if why is None or host in self.answered:
            return None
        if host not in self.unreachable:
            self.unreachable[host] = why
            logger.error("Cannot reach %s (%s) while fetching %s", host, why, request.url)
            self.stats.inc_value("harvest/reachability/unreachable_hosts")
            self.stats.set_value(
                "harvest/reachability/unreachable",
                [f"{h} ({w})" for h, w in sorted(self.unreachable.items())],
            )
        if self.answered or not self.attempted <= self.unreachable.keys():
            return None  # other hosts may still answer: let RetryMiddleware do its job
        if not self.closing:
            self.closing = True
            logger.error(
                "Closing: cannot reach %s; no host of this crawl answered (is this machine online?)",
                ", ".join(sorted(self.unreachable)),
            )
            self.close_spider(CANNOT_REACH)
        raise IgnoreRequest(f"cannot reach {host} ({why})")
