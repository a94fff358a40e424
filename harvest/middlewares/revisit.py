"""RevisitMiddleware: fetch a document only when it may have changed, and ask conditionally.

Listing pages (``meta["harvest_kind"] == "listing"``, the default) pass untouched: they are
refetched every round, or a second round would find nothing new ("URL exhaustion").

Documents (``meta["harvest_kind"] == "document"``):

- fetched before and still fresh (``meta["harvest_ttl"]`` seconds not elapsed; ``None`` = never
  revisit) -> dropped with IgnoreRequest before any network traffic (``harvest/revisit/fresh``);
- stale -> sent with ``If-None-Match`` / ``If-Modified-Since`` from the stored validators
  (``harvest/revisit/conditional``); a ``304`` means unchanged: the fetch time is renewed and
  the request yields nothing (``harvest/revisit/not_modified``);
- a 2xx answer records the fetch time and the new validators, committed when the request is
  done (so a crash before its item is written does not make the document look fresh).

Validators are stored per request fingerprint, mixed with ``meta["harvest_validator_key"]``
when given (an ETag may differ per API token).

The middleware also reports downloads that failed for good to the crawl state, so the frontier
retires them; it therefore sits at a low order (close to the engine, after RetryMiddleware
gave up).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import IgnoreRequest

from harvest.meta import META_CONDITIONAL, META_KIND, META_TTL, META_VALIDATOR_KEY
from harvest.state import Validators
from harvest.state.crawl import CrawlState
from harvest.util.units import parse_duration

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)


def validator_key(fingerprint: bytes, extra: Any) -> bytes:
    """Key of a URL's validators; ``extra`` (e.g. a token digest) keeps per-credential ETags apart."""
    if not extra:
        return fingerprint
    return hashlib.sha1(fingerprint + b"|" + str(extra).encode("utf-8")).digest()  # noqa: S324


def is_document(request: Request) -> bool:
    """Whether the request fetches a document (as opposed to a listing page)."""
    return request.meta.get(META_KIND, "listing") == "document"


def _header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None


class RevisitMiddleware:
    """Downloader middleware for document revisits (see the module docstring).

    Enabled in ``DOWNLOADER_MIDDLEWARES`` with the crawl state (``HARVEST_STATE_ENABLED``).
    """

    def __init__(
        self,
        state: CrawlState,
        stats: StatsCollector | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.state = state
        self.stats = stats
        self.clock = clock

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled with the crawl state."""
        state = CrawlState.required(crawler)
        return cls(state, crawler.stats)

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/revisit/{key}")

    def process_request(self, request: Request) -> None:
        """Drop fresh documents; make stale ones conditional."""
        if not is_document(request):
            return
        fingerprint = self.state.fingerprint(request)
        last = self.state.last_fetched(fingerprint)
        if last is not None:
            ttl = parse_duration(request.meta.get(META_TTL))
            age = self.clock() - last
            if ttl is None or age < ttl:
                self._inc("fresh")
                after = "never revisited" if ttl is None else f"revisited after {ttl:.0f}s"
                raise IgnoreRequest(f"{request.url} is fresh (fetched {age:.0f}s ago, {after})")
        stored = self.state.validators(validator_key(fingerprint, request.meta.get(META_VALIDATOR_KEY)))
        if stored is None:
            return
        sent = False
        if stored.etag and b"If-None-Match" not in request.headers:
            request.headers[b"If-None-Match"] = stored.etag
            sent = True
        if stored.last_modified and b"If-Modified-Since" not in request.headers:
            request.headers[b"If-Modified-Since"] = stored.last_modified
            sent = True
        if sent:
            request.meta[META_CONDITIONAL] = True
            self._inc("conditional")

    def process_response(self, request: Request, response: Response) -> Response:
        """Record a document's fetch; turn a 304 into "unchanged, nothing to do"."""
        if not is_document(request):
            return response
        fingerprint = self.state.fingerprint(request)
        key = validator_key(fingerprint, request.meta.get(META_VALIDATOR_KEY))
        request_key = self.state.request_key(request)
        etag, last_modified = _header(response, "ETag"), _header(response, "Last-Modified")
        if response.status == 304 and request.meta.get(META_CONDITIONAL):
            old = self.state.validators(key)
            validators = Validators(
                etag or (old.etag if old else None), last_modified or (old.last_modified if old else None)
            )
            self.state.note_document_fetch(
                request_key, fingerprint, validator_key=key, validators=validators, when=self.clock()
            )
            self.state.retire(request_key)
            self._inc("not_modified")
            raise IgnoreRequest(f"{request.url} not modified since the stored copy")
        if 200 <= response.status < 300:
            fresh = Validators(etag, last_modified) if (etag or last_modified) else None
            self.state.note_document_fetch(
                request_key, fingerprint, validator_key=key, validators=fresh, when=self.clock()
            )
            if request.meta.get(META_CONDITIONAL):
                self._inc("changed")
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        """A download failed for good (retries exhausted, ignored, offsite): the request is done.

        Requests with an errback are left to the errback's output (they stay pending until the
        crawl finishes), since an errback may yield items that must be written first.
        """
        if request.errback is None:
            self.state.retire(self.state.request_key(request))
