"""Capture of responses as received, for the WARC archive (``HARVEST_WARC_ENABLED``).

``WarcCaptureMiddleware`` (downloader middleware, next to the downloader: before decompression
and redirects) keeps each response's status line, headers and body exactly as they came off the
wire, plus the request's method and headers, in ``request.meta["harvest_warc_capture"]``.
``WarcItemMiddleware`` (spider middleware) hands that capture to every item its callback yields
(a private attribute, never serialized), and :class:`harvest.pipelines.warc.WarcPipeline` writes
the request and response records once the item passed dedup, right before its JSON line.
Pages rendered by a browser are captured as rendered and marked so (``WARC-Harvest-Rendered``).

Credentials never enter a capture (:mod:`harvest.util.redaction`): the values of ``Authorization``,
``Proxy-Authorization``, ``Cookie`` and headers named for a credential (``X-Api-Key``...) are
replaced by ``***``; ``GITHUB_TOKEN`` (any encoding) is masked in the URL, the other headers and
the request body, and so are a URL's password and what looks like a credential in a header. A response
to a request that sent credentials is searched for them (headers and body, decoded when
content-encoded) in every encoding a server may echo them in, and they are masked there too.
What was masked is listed in the records' ``WARC-Harvest-Redacted`` field.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from harvest.meta import META_LIST, META_TDMREP, META_WARC_CAPTURE
from harvest.util.redaction import credentials_of, mask_url, redact_headers, scrub, scrub_bytes, secret_values

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
    #: What was masked (``WARC-Harvest-Redacted``): header names, "target-uri", "payload"...
    redacted_request: list[str] = field(default_factory=list)
    redacted_response: list[str] = field(default_factory=list)
    #: The secrets the request sent, while a content-encoded body is still to be searched for
    #: them after decoding (emptied then: a capture keeps no secret longer than needed).
    pending_secrets: tuple[str, ...] = field(default=(), repr=False)


def _redacted_capture(capture: WarcCapture, response_encoded: bool) -> WarcCapture:
    """``capture`` with credentials masked (see the module docstring)."""
    sent = credentials_of(capture.request_headers)
    capture.request_headers, capture.redacted_request = redact_headers(capture.request_headers)
    # Only secrets and a URL's password: a page's own query (a blog's ?token=...) is its identity.
    url = mask_url(scrub(capture.url, sent, patterns=False))
    if url != capture.url:
        capture.url = url
        capture.redacted_request.append("target-uri")
        capture.redacted_response.append("target-uri")
    body = scrub_bytes(capture.request_body, sent)
    if body != capture.request_body:
        capture.request_body = body
        capture.redacted_request.append("payload")
    secrets = secret_values(sent)
    if not sent or not secrets:
        # Nothing was sent that a server could echo: the response is archived as received.
        return capture
    headers = [(name, scrub(value, secrets, patterns=False)) for name, value in capture.response_headers]
    changed = [
        name.lower()
        for (name, value), (_, old) in zip(headers, capture.response_headers, strict=True)
        if value != old
    ]
    capture.response_headers = headers
    capture.redacted_response += changed
    body = scrub_bytes(capture.body, secrets)
    if body != capture.body:
        _masked_payload(capture, body, ("content-length",))
    if response_encoded:
        capture.pending_secrets = secrets
    return capture


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
        capture = WarcCapture(
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
        request.meta[META_WARC_CAPTURE] = _redacted_capture(capture, b"Content-Encoding" in response.headers)
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
        if capture is not None and capture.pending_secrets:
            _check_decoded(capture, response.body)
        async for entry in result:
            if capture is not None and hasattr(entry, "warc_record_id"):
                setattr(entry, ITEM_ATTR, capture)
            yield entry


def _check_decoded(capture: WarcCapture, decoded: bytes) -> None:
    """A content-encoded body that echoes a sent secret is archived decoded, the secret masked.

    The encoded bytes cannot be searched; once Scrapy decoded them, a body holding a secret is
    archived as decoded text with ``Content-Encoding`` renamed (as web archives rewrite headers
    they changed) and ``payload`` listed as redacted. Any other body stays as received.
    """
    secrets, capture.pending_secrets = capture.pending_secrets, ()
    masked = scrub_bytes(decoded, secrets)
    if masked == decoded:
        return
    _masked_payload(capture, masked, ("content-encoding", "content-length"))


def _masked_payload(capture: WarcCapture, body: bytes, changed: tuple[str, ...]) -> None:
    """Archive ``body`` instead, the headers it no longer matches renamed as web archives do."""
    capture.response_headers = [
        (f"X-Archive-Orig-{name}" if name.lower() in changed else name, value)
        for name, value in capture.response_headers
    ]
    capture.body = body
    capture.redacted_response.append("payload")
