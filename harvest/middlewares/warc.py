"""Capture of responses as received, for the WARC archive (``HARVEST_WARC_ENABLED``).

``WarcCaptureMiddleware`` (downloader middleware, next to the downloader: before decompression
and redirects) keeps each response's status line, headers and body exactly as they came off the
wire, plus the request's method and headers, in ``request.meta["harvest_warc_capture"]``.
``WarcItemMiddleware`` (spider middleware) hands that capture to every item its callback yields
(a private attribute, never serialized), and :class:`harvest.pipelines.warc.WarcPipeline` writes
the request and response records once the item passed dedup, right before its JSON line.
Pages rendered by a browser are captured as rendered and marked so (``WARC-Harvest-Rendered``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from harvest.meta import META_LIST, META_TDMREP, META_WARC_CAPTURE

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Private attribute of an item carrying its response's capture to the WARC pipeline.
ITEM_ATTR = "_harvest_warc_capture"


@dataclass
class WarcCapture:
    """One exchange as it happened on the wire, and where it was archived (once written)."""

    url: str
    method: str
    request_headers: list[tuple[str, str]]
    request_body: bytes
    status: int
    protocol: str
    response_headers: list[tuple[str, str]]
    body: bytes = field(repr=False)
    ip_address: str | None = None
    rendered: bool = False
    #: The item's text was withheld (its site opted out): the body is not archived either.
    withheld: bool = False
    #: Set by the WARC pipeline when written: (file relative to the data folder, record id).
    written: tuple[str, str] | None = None


def _headers(headers: Any) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for key, values in headers.items():
        name = key.decode("latin-1") if isinstance(key, bytes) else str(key)
        for value in values:
            pairs.append((name, value.decode("latin-1") if isinstance(value, bytes) else str(value)))
    return pairs


class WarcCaptureMiddleware:
    """Downloader middleware: keeps the raw exchange of every response (see the module docstring)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled by ``HARVEST_WARC_ENABLED``."""
        if not crawler.settings.getbool("HARVEST_WARC_ENABLED"):
            raise NotConfigured  # HARVEST_WARC_ENABLED is off (bare: a message is logged at WARNING)
        return cls()

    def process_response(self, request: Request, response: Response) -> Response:
        """Keep the exchange in the request's meta (lists, robots.txt and tdmrep.json excluded)."""
        if request.meta.get(META_LIST) or request.meta.get(META_TDMREP):
            return response
        ip = getattr(response, "ip_address", None)
        request.meta[META_WARC_CAPTURE] = WarcCapture(
            url=response.url,
            method=request.method,
            request_headers=_headers(request.headers),
            request_body=request.body or b"",
            status=response.status,
            protocol=(response.protocol or "HTTP/1.1").upper(),
            response_headers=_headers(response.headers),
            body=response.body,
            ip_address=str(ip) if ip is not None else None,
            rendered="playwright" in response.flags or bool(request.meta.get("playwright")),
        )
        return response


class WarcItemMiddleware:
    """Spider middleware: each item of a callback gets its response's capture."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled by ``HARVEST_WARC_ENABLED``."""
        if not crawler.settings.getbool("HARVEST_WARC_ENABLED"):
            raise NotConfigured  # HARVEST_WARC_ENABLED is off (bare: a message is logged at WARNING)
        return cls()

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        """Attach the capture to items that have ``warc_record_id``."""
        capture = response.meta.get(META_WARC_CAPTURE) if response.request is not None else None
        async for entry in result:
            if capture is not None and hasattr(entry, "warc_record_id"):
                setattr(entry, ITEM_ATTR, capture)
            yield entry
