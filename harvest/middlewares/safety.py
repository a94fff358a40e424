"""Downloader middlewares that keep a crawl of open-ended sites safe and finite.

``PrivateAddressMiddleware`` (early in the chain, before robots.txt is even fetched) refuses any
request whose host *resolves* to a private, loopback, link-local or otherwise non-global address
(10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, ...), unless that exact
``host:port`` is a configured site. The name is resolved with the crawler's own DNS resolver,
whose cache the download then reuses, so a name cannot pass the check with one address and be
fetched at another. Redirects come back through the chain as new requests and are checked too.

``TrapGuardMiddleware`` (last before the download, so it only counts pages really fetched) stops
crawler traps: too deep, too many pages for one site, overlong URLs, a path segment repeated
over and over (``/a/b/a/b/a/b``), endless query-string variations of one path (calendars, faceted
search), and pages larger than ``HARVEST_SAFETY_MAX_PAGE_BYTES`` (dropped with a stat).

Both sit in ``DOWNLOADER_MIDDLEWARES`` and do nothing unless ``HARVEST_SAFETY_ENABLED`` (the
``blogs`` spider turns it on in its ``custom_settings``); every refusal is counted under
``harvest/safety/<reason>`` and logged once per host and reason.
Request meta read: ``harvest_site`` (the site a request belongs to; limits are per site),
``harvest_via`` (``sitemap``/``feed``/``seed`` URLs are trusted lists, exempt from the
query-variation guard), ``harvest_list`` (robots.txt, a sitemap or a feed: not counted as a page
and not size-capped as one) and ``depth`` (set by Scrapy's DepthMiddleware).
"""

from __future__ import annotations

import ipaddress
import logging
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import DownloadCancelledError, IgnoreRequest, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

Resolver = Callable[[str], Awaitable[str]]

_DEFAULT_PORTS = {"http": 80, "https": 443}
#: Sources whose URLs are lists a site publishes on purpose, not links a trap could generate.
TRUSTED_VIA = frozenset({"seed", "sitemap", "feed", "robots"})
#: Decisions kept per host:port; beyond this the oldest are forgotten (and re-resolved).
_DECISION_CACHE_SIZE = 10000


def host_port(url_host: str | None, port: int | None, scheme: str) -> str:
    """``host:port`` with the scheme's default port filled in, host lower-cased."""
    host = (url_host or "").lower().strip("[]")
    return f"{host}:{port or _DEFAULT_PORTS.get(scheme, 0)}"


def is_public_address(address: str) -> bool:
    """Whether ``address`` (an IP literal) is a global unicast address, safe for a crawler."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _ip_literal(host: str) -> str | None:
    try:
        return str(ipaddress.ip_address(host.strip("[]").split("%")[0]))
    except ValueError:
        return None


async def _twisted_resolve(host: str) -> str:
    from twisted.internet import reactor

    # The reactor's resolver is the one the HTTP download handler uses, and its cache
    # (scrapy.resolver.dnscache) pins the address we check for the download that follows.
    deferred: Any = reactor.resolve(host)  # type: ignore[arg-type]
    return str(await maybe_deferred_to_future(deferred))


class _Once:
    """Log a refusal once per (reason, host); the stats count every one."""

    def __init__(self) -> None:
        self._seen: set[tuple[str, str]] = set()

    def __call__(self, reason: str, host: str, msg: str, *args: Any) -> None:
        if (reason, host) in self._seen:
            logger.debug(msg, *args)
            return
        self._seen.add((reason, host))
        logger.warning(msg + " (further ones from this host are logged at DEBUG)", *args)


class PrivateAddressMiddleware:
    """Never fetch a private/loopback/link-local address unless that host:port is a configured site.

    Active with ``HARVEST_SAFETY_ENABLED``; ``HARVEST_SAFETY_PRIVATE_ADDRESSES = False`` turns it off.
    ``HARVEST_SAFETY_ALLOWED_HOSTS`` adds ``host:port`` entries to the spider's own list
    (``spider.allowed_private_hosts``: the configured sites).
    """

    def __init__(
        self,
        allowed_hosts: Iterable[str] = (),
        *,
        resolve: Resolver | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        self.allowed_hosts = {h.lower() for h in allowed_hosts}
        self.resolve = resolve or _twisted_resolve
        self.stats = stats
        self._decisions: OrderedDict[str, str | None] = OrderedDict()
        self._log = _Once()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from settings; the spider's configured hosts are added when it opens."""
        if not crawler.settings.getbool("HARVEST_SAFETY_ENABLED"):
            raise NotConfigured("HARVEST_SAFETY_ENABLED is off")
        if not crawler.settings.getbool("HARVEST_SAFETY_PRIVATE_ADDRESSES"):
            raise NotConfigured("HARVEST_SAFETY_PRIVATE_ADDRESSES is off")
        mw = cls(crawler.settings.getlist("HARVEST_SAFETY_ALLOWED_HOSTS"), stats=crawler.stats)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        return mw

    def spider_opened(self, spider: Spider) -> None:
        """Allow the spider's configured sites (their exact host:port)."""
        self.allowed_hosts |= {h.lower() for h in getattr(spider, "allowed_private_hosts", ())}

    def _refuse(self, reason: str, host: str, request: Request, detail: str) -> IgnoreRequest:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/safety/{reason}")
        self._log(reason, host, "Refused %s: %s", request.url, detail)
        return IgnoreRequest(f"{reason}: {detail}")

    async def process_request(self, request: Request) -> None:
        """Raise IgnoreRequest for a non-http(s) URL or a host that resolves to a private address."""
        parts = urlparse_cached(request)
        if parts.scheme not in _DEFAULT_PORTS:
            raise self._refuse("scheme", parts.scheme, request, f"scheme {parts.scheme!r} is not http(s)")
        try:
            port = parts.port
        except ValueError:
            raise self._refuse("bad_url", parts.netloc, request, "invalid port") from None
        key = host_port(parts.hostname, port, parts.scheme)
        if key in self.allowed_hosts:
            return
        if key in self._decisions:
            self._decisions.move_to_end(key)
            refused = self._decisions[key]
        else:
            refused = await self._decide(parts.hostname or "")
            self._decisions[key] = refused
            if len(self._decisions) > _DECISION_CACHE_SIZE:
                self._decisions.popitem(last=False)
        if refused is not None:
            raise self._refuse(
                "private_address", key, request,
                f"{key} resolves to the non-public address {refused}, and is not a configured site",
            )

    async def _decide(self, host: str) -> str | None:
        """The offending address if ``host`` is (or resolves to) a non-public one, else None."""
        literal = _ip_literal(host)
        if literal is not None:
            return None if is_public_address(literal) else literal
        if host in {"localhost", "localhost.localdomain"} or host.endswith(".localhost"):
            return "127.0.0.1"
        try:
            address = await self.resolve(host)
        except Exception:  # noqa: BLE001 - any resolver failure: let the download report it
            logger.debug("Could not resolve %s; leaving the error to the downloader", host)
            return None
        return None if is_public_address(address) else address


@dataclass(frozen=True)
class SiteLimits:
    """Per-site overrides of the trap guard's limits (None: the setting's value)."""

    max_pages: int | None = None
    max_depth: int | None = None


class TrapGuardMiddleware:
    """Crawler-trap guards: depth, pages per site, URL length, repeated segments, query variants, size.

    Active with ``HARVEST_SAFETY_ENABLED``; limits from ``HARVEST_SAFETY_*``, per site from
    ``spider.site_limits`` (a mapping of site name to ``SiteLimits``). Pages are counted per site
    (``harvest_site`` meta) when the request goes out, after any middleware that answered it from
    cache or state.
    """

    def __init__(
        self,
        *,
        max_depth: int = 0,
        max_pages: int = 0,
        max_url_length: int = 0,
        max_segment_repeats: int = 0,
        max_query_variants: int = 0,
        max_page_bytes: int = 0,
        site_limits: dict[str, SiteLimits] | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        self.max_depth = max_depth
        self.max_pages = max_pages
        self.max_url_length = max_url_length
        self.max_segment_repeats = max_segment_repeats
        self.max_query_variants = max_query_variants
        self.max_page_bytes = max_page_bytes
        self.site_limits = dict(site_limits or {})
        self.stats = stats
        self.pages: Counter[str] = Counter()
        self._queries: dict[tuple[str, str, str], set[str]] = {}
        self._received: dict[int, int] = {}
        self._log = _Once()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from the ``HARVEST_SAFETY_*`` settings (0 disables a guard)."""
        s = crawler.settings
        if not s.getbool("HARVEST_SAFETY_ENABLED"):
            raise NotConfigured("HARVEST_SAFETY_ENABLED is off")
        mw = cls(
            max_depth=s.getint("HARVEST_SAFETY_MAX_DEPTH"),
            max_pages=s.getint("HARVEST_SAFETY_MAX_PAGES"),
            max_url_length=s.getint("HARVEST_SAFETY_MAX_URL_LENGTH"),
            max_segment_repeats=s.getint("HARVEST_SAFETY_MAX_SEGMENT_REPEATS"),
            max_query_variants=s.getint("HARVEST_SAFETY_MAX_QUERY_VARIANTS"),
            max_page_bytes=s.getint("HARVEST_SAFETY_MAX_PAGE_BYTES"),
            stats=crawler.stats,
        )
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.bytes_received, signal=signals.bytes_received)
        return mw

    def bytes_received(self, data: bytes, request: Request, spider: Spider) -> None:
        """Count a body's bytes: a body without Content-Length is cut off without saying why."""
        if self.max_page_bytes and request.meta.get("harvest_site") is not None:
            key = id(request)
            self._received[key] = self._received.get(key, 0) + len(data)

    def spider_opened(self, spider: Spider) -> None:
        """Take the per-site limits the spider's config sets."""
        self.site_limits.update(getattr(spider, "site_limits", {}) or {})

    def _limit(self, site: str, name: str) -> int:
        override = getattr(self.site_limits.get(site), name, None)
        return int(override) if override is not None else int(getattr(self, name))

    def _refuse(self, reason: str, site: str, request: Request, detail: str) -> IgnoreRequest:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/safety/{reason}")
        self._log(reason, site, "Not fetching %s: %s", request.url, detail)
        return IgnoreRequest(f"{reason}: {detail}")

    def process_request(self, request: Request) -> None:
        """Raise IgnoreRequest past a limit; otherwise count the page and cap its size."""
        parts = urlparse_cached(request)
        site = request.meta.get("harvest_site")
        if self.max_url_length and len(request.url) > self.max_url_length:
            raise self._refuse("url_too_long", site or parts.netloc, request,
                               f"URL longer than {self.max_url_length} characters")
        if site is None:
            # Not a page of a configured site (robots.txt, a request of another component).
            return
        depth = int(request.meta.get("depth") or 0)
        max_depth = self._limit(site, "max_depth")
        if max_depth and depth > max_depth:
            raise self._refuse("max_depth", site, request, f"depth {depth} > max_depth {max_depth}")
        if self.max_segment_repeats:
            segments = [s for s in parts.path.split("/") if s]
            if segments:
                segment, count = Counter(segments).most_common(1)[0]
                if count > self.max_segment_repeats:
                    raise self._refuse("repeated_segments", site, request,
                                       f"path segment {segment!r} repeated {count} times")
        if parts.query and self.max_query_variants and request.meta.get("harvest_via") not in TRUSTED_VIA:
            variants = self._queries.setdefault((site, parts.netloc, parts.path), set())
            if parts.query not in variants:
                if len(variants) >= self.max_query_variants:
                    raise self._refuse("query_variants", site, request,
                                       f"more than {self.max_query_variants} query strings for {parts.path}")
                variants.add(parts.query)
        if request.meta.get("harvest_list"):
            # robots.txt, sitemaps and feeds: lists of pages, not pages; their own size cap.
            return
        max_pages = self._limit(site, "max_pages")
        if max_pages and self.pages[site] >= max_pages:
            raise self._refuse("max_pages", site, request, f"site {site!r} reached max_pages {max_pages}")
        self.pages[site] += 1
        if self.max_page_bytes and "download_maxsize" not in request.meta:
            request.meta["download_maxsize"] = self.max_page_bytes

    def process_response(self, request: Request, response: Response) -> Response:
        """Forget the byte count of a finished download."""
        self._received.pop(id(request), None)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        """Turn a download cancelled for its size into a counted, quiet drop."""
        received = self._received.pop(id(request), 0)
        if not isinstance(exception, DownloadCancelledError):
            return None
        limit = int(request.meta.get("download_maxsize", self.max_page_bytes) or 0)
        # With Content-Length Scrapy says "max size"; a streamed body is cancelled silently.
        if "max size" in str(exception) or (limit and received > limit):
            raise self._refuse("oversize", request.meta.get("harvest_site") or "", request,
                               f"larger than {limit} bytes")
        return None
