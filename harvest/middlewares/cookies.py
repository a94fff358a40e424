"""Scrapy's cookie middleware, imported when the crawl first meets a cookie.

``scrapy.downloadermiddlewares.cookies`` imports tldextract (and requests, urllib3 and filelock
under it) at import time, and Scrapy imports every base downloader middleware, even one mapped
to None: memory and start-up of every crawl process (BENCHMARKS.md, "Issue 18"), for sites that
mostly set no cookie. This
stand-in takes its place in ``DOWNLOADER_MIDDLEWARES_BASE`` (same order) and builds Scrapy's own
middleware at the first request that carries cookies or a ``Cookie`` header, or the first
response with ``Set-Cookie``; from then on every call goes to it. Until then the jar is empty,
so passing a request or response through unchanged is exactly what Scrapy's would do.
``COOKIES_ENABLED`` and ``COOKIES_DEBUG`` keep their meaning.

Scrapy's module splits cookie domains with a ``tldextract.TLDExtract`` that, on its first use,
downloads the Public Suffix List from publicsuffix.org (and caches it under ``~/.cache``): a crawl
of any site that sets a cookie would contact a host the user never named, and log a traceback
where the machine has no route out. The stand-in gives Scrapy's module an extractor that reads
the list shipped inside tldextract instead (no network, no cache written).

In a partitioned crawl (:mod:`harvest.state.partition`) each worker process has its own jar, so a
request handed to another worker carries the cookies this worker would send with it
(:func:`cookies_to_hand_over`): a session cookie the index set reaches the posts the other
worker fetches, and lands in that worker's jar for its next requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from harvest.exceptions import NotApplicable

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from typing_extensions import Self


#: Each crawl's cookie middleware, for the requests its frontier hands to another worker.
_MIDDLEWARES: WeakKeyDictionary[Crawler, LazyCookiesMiddleware] = WeakKeyDictionary()


def cookies_to_hand_over(crawler: Crawler | None, request: Request) -> list[dict[str, Any]]:
    """The cookies ``crawler``'s jar would send with ``request``, as ``Request.cookies`` entries.

    Empty when cookies are off, none was met yet, or the request keeps its own
    (``dont_merge_cookies``).
    """
    middleware = _MIDDLEWARES.get(crawler) if crawler is not None else None
    if middleware is None or middleware.inner is None or request.meta.get("dont_merge_cookies"):
        return []
    jar = middleware.inner.jars[request.meta.get("cookiejar")]
    probe = request.replace(headers={k: v for k, v in request.headers.items() if k != b"Cookie"})
    jar.add_cookie_header(probe)
    header = probe.headers.get(b"Cookie")
    if not header:
        return []
    sent = {pair.strip() for pair in header.decode("latin-1").split(";")}
    carried = []
    for cookie in jar:
        if f"{cookie.name}={cookie.value}" in sent:
            entry: dict[str, Any] = {"name": cookie.name, "value": cookie.value, "path": cookie.path}
            if cookie.domain_specified:  # else host-only: the handed request's host, as here
                entry["domain"] = cookie.domain
            if cookie.secure:
                entry["secure"] = True
            carried.append(entry)
    return carried


def offline_domain_splitter() -> Any:
    """A ``TLDExtract`` on the Public Suffix List shipped with tldextract: no download, no cache."""
    from tldextract import TLDExtract

    return TLDExtract(cache_dir=None, suffix_list_urls=(), include_psl_private_domains=True)


class LazyCookiesMiddleware:
    """Scrapy's ``CookiesMiddleware``, built at the first cookie (see the module docstring)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.inner: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Off with ``COOKIES_ENABLED`` (as Scrapy's)."""
        if not crawler.settings.getbool("COOKIES_ENABLED"):
            raise NotApplicable("COOKIES_ENABLED is off")
        middleware = cls(crawler)
        _MIDDLEWARES[crawler] = middleware
        return middleware

    def _middleware(self) -> Any:
        if self.inner is None:
            # Imported here, at the first cookie: the point of this stand-in (module docstring).
            from scrapy.downloadermiddlewares import cookies

            cookies._split_domain = offline_domain_splitter()
            self.inner = cookies.CookiesMiddleware.from_crawler(self.crawler)
        return self.inner

    def process_request(self, request: Request) -> Request | Response | None:
        """Scrapy's, once a request brings cookies (before, the empty jar adds nothing)."""
        if self.inner is None and not request.cookies and b"Cookie" not in request.headers:
            return None
        return self._middleware().process_request(request)

    def process_response(self, request: Request, response: Response) -> Request | Response:
        """Scrapy's, once a response sets a cookie."""
        if self.inner is None and b"Set-Cookie" not in response.headers:
            return response
        return self._middleware().process_response(request, response)
