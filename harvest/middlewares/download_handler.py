"""Scrapy's HTTP/1.1 download handler with a bound on response headers.

Scrapy bounds a response body (``DOWNLOAD_MAXSIZE``) and Twisted a single header line (16 KB),
but nothing bounds the header section: a server that sends header lines without end has them
all parsed into memory until ``DOWNLOAD_TIMEOUT``, hundreds of MB per page, outside what
Scrapy's ``memusage`` extension watches. Here a response whose header section passes
``HARVEST_DOWNLOAD_MAX_HEADER_BYTES`` bytes or ``HARVEST_DOWNLOAD_MAX_HEADERS`` headers (status
lines and interim ``1xx`` responses included, so endless interim responses are bounded too) is
given up at once: the connection is closed, the request fails with
:class:`ResponseHeadersTooLarge` naming the bound (not retried: the same server would send the
same headers again), and the stat ``harvest/download/headers_too_large`` counts it. A single
line longer than the byte bound is the same failure.

Installed for ``http`` and ``https`` in ``DOWNLOAD_HANDLERS`` (harvest/settings.py). A crawl that
renders a site installs scrapy-playwright's handler instead, which fetches every request it does
not render with Scrapy's HTTP/1.1 handler: harvest/browser/handler.py mixes
:class:`BoundedHeaders` into it. A bound of 0 is no bound (as ``DOWNLOAD_MAXSIZE=0``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.exceptions import DownloadFailedError
from twisted.web._newclient import STATUS, ResponseFailed

try:  # Scrapy's parser that skips header lines without a colon, as browsers do
    from scrapy.core.downloader.handlers.http11 import (
        _LenientHTTP11ClientFactory as _ClientFactory,
    )
    from scrapy.core.downloader.handlers.http11 import (
        _LenientHTTP11ClientProtocol as _ClientProtocol,
    )
    from scrapy.core.downloader.handlers.http11 import (
        _LenientHTTPClientParser as _ClientParser,
    )
except ImportError:  # pragma: no cover - a Scrapy without it uses Twisted's, and so do we
    from twisted.web._newclient import HTTP11ClientProtocol as _ClientProtocol  # type: ignore[assignment]
    from twisted.web._newclient import HTTPClientParser as _ClientParser  # type: ignore[assignment]
    from twisted.web.client import _HTTP11ClientFactory as _ClientFactory  # type: ignore[assignment]

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.internet.defer import Deferred
    from twisted.internet.interfaces import IAddress
    from twisted.web._newclient import HTTP11ClientProtocol
    from twisted.web._newclient import Request as TxRequest
    from twisted.web.iweb import IResponse

logger = logging.getLogger(__name__)

_STATS = "harvest/download"


class ResponseHeadersTooLarge(Exception):
    """A response's header section passed a bound; its page is not read.

    Not a subclass of anything RetryMiddleware retries (``RETRY_EXCEPTIONS``).
    """

    def __init__(self, url: str, bound: str) -> None:
        super().__init__(bound)
        self.url = url
        self.bound = bound


class _HeaderBoundReached(Exception):
    """Raised inside the parser; the handler turns it into ResponseHeadersTooLarge."""

    def __init__(self, bound: str) -> None:
        super().__init__(bound)
        self.bound = bound


class _HeaderBounds:
    """The two bounds, and the words a failure uses for each."""

    def __init__(self, max_bytes: int, max_headers: int) -> None:
        self.max_bytes = max_bytes
        self.max_headers = max_headers

    def bytes_exceeded(self) -> _HeaderBoundReached:
        return _HeaderBoundReached(
            f"response headers of more than {self.max_bytes} bytes (HARVEST_DOWNLOAD_MAX_HEADER_BYTES)"
        )

    def count_exceeded(self) -> _HeaderBoundReached:
        return _HeaderBoundReached(
            f"more than {self.max_headers} response headers (HARVEST_DOWNLOAD_MAX_HEADERS)"
        )


class _BoundedParser(_ClientParser):
    """Scrapy's lenient response parser, counting the bytes and lines of the header section.

    Twisted's protocol creates the parser, and ``_BoundedProtocol`` swaps its class as Scrapy does,
    so the counters start as class attributes and ``bounds`` is set right after the swap. The
    counts run over the whole response, interim ``1xx`` answers included: Twisted's parser
    starts afresh after each of those (``connectionMade``), which an endless series would
    exploit. An exception raised here makes Twisted's protocol close the connection and fail
    the response with it (``HTTP11ClientProtocol.dataReceived`` -> ``_giveUp``).
    """

    bounds: _HeaderBounds
    _header_bytes = 0
    _header_lines = 0

    def lineReceived(self, line: bytes) -> None:  # noqa: N802 - Twisted's name
        bounds = self.bounds
        if bounds.max_bytes:
            self._header_bytes += len(line) + 1  # the delimiter (\n) LineReceiver removed
            if self._header_bytes > bounds.max_bytes:
                raise bounds.bytes_exceeded()
        if bounds.max_headers and line not in (b"", b"\r") and self.state != STATUS:
            self._header_lines += 1  # continuation lines too: each is kept
            if self._header_lines > bounds.max_headers:
                raise bounds.count_exceeded()
        super().lineReceived(line)

    def lineLengthExceeded(self, line: bytes) -> None:  # noqa: N802 - Twisted's name
        """One line (so far) longer than the byte bound: Twisted would drop the connection."""
        if not self.bounds.max_bytes:
            return super().lineLengthExceeded(line)
        raise self.bounds.bytes_exceeded()


class _BoundedProtocol(_ClientProtocol):
    """Scrapy's client protocol with :class:`_BoundedParser` as its response parser."""

    bounds: _HeaderBounds

    def request(self, request: TxRequest) -> Deferred[IResponse]:
        d = super().request(request)
        parser = self._parser
        # None when the request could not be written (Twisted then failed ``d`` already).
        if parser is not None:
            parser.__class__ = _BoundedParser
            bounded = cast("_BoundedParser", parser)
            bounded.bounds = self.bounds
            # A line longer than the byte bound is past it (Twisted's own limit is 16 KB).
            if self.bounds.max_bytes:
                bounded.MAX_LENGTH = self.bounds.max_bytes
        return d


class _BoundedFactory(_ClientFactory):
    """Builds :class:`_BoundedProtocol` s; the pool calls it as Twisted's factory class."""

    bounds: _HeaderBounds

    def buildProtocol(self, addr: IAddress | None) -> HTTP11ClientProtocol:  # noqa: N802 - Twisted's name
        protocol = _BoundedProtocol(self._quiescentCallback)
        protocol.bounds = self.bounds
        return protocol


def _bound_reached(exc: BaseException) -> str | None:
    """The bound named by the parser failure inside a download failure, if that is what it is."""
    cause = exc.__cause__
    if not isinstance(cause, ResponseFailed):
        return None
    for reason in cause.reasons:
        if isinstance(reason.value, _HeaderBoundReached):
            return reason.value.bound
    return None


class BoundedHeaders:
    """Mixin for a download handler built on Scrapy's HTTP11DownloadHandler: the header bounds.

    Its connection pool builds bounded protocols, and a download that failed on a bound raises
    :class:`ResponseHeadersTooLarge` (counted) instead of Scrapy's retried DownloadFailedError.
    """

    _pool: Any
    _crawler: Crawler

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)  # type: ignore[call-arg]
        settings = crawler.settings
        bounds = _HeaderBounds(
            settings.getint("HARVEST_DOWNLOAD_MAX_HEADER_BYTES"),
            settings.getint("HARVEST_DOWNLOAD_MAX_HEADERS"),
        )
        # The pool calls its factory as a class (``factory(quiescentCallback, metadata)``).
        self._pool._factory = type("BoundedFactory", (_BoundedFactory,), {"bounds": bounds})

    async def download_request(self, request: Request) -> Response:
        """The handler's download; a header bound reached fails it with ResponseHeadersTooLarge."""
        try:
            return await super().download_request(request)  # type: ignore[misc]
        except DownloadFailedError as exc:
            bound = _bound_reached(exc)
            if bound is None:
                raise
        stats = self._crawler.stats
        if stats is not None:
            stats.inc_value(f"{_STATS}/headers_too_large")
        raise ResponseHeadersTooLarge(request.url, bound)


class BoundedHttpDownloadHandler(BoundedHeaders, HTTP11DownloadHandler):
    """Scrapy's HTTP/1.1 handler with bounded response headers (see the module docstring)."""
