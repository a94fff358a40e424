"""Downloader middlewares that keep a crawl of open-ended sites safe and finite.

``PrivateAddressMiddleware`` (early in the chain, before robots.txt is even fetched) refuses any
request whose host *resolves* to a private, loopback, link-local or otherwise non-global address
(10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, ...), unless that exact
``host:port`` is a configured site. While the spider runs it wraps the reactor's resolver in a
``GuardedResolver``: the address a request was checked against is *pinned* for that request, so
the download connects to exactly that address; a name nobody checked resolves only to public
addresses (or a configured site's). A decision lives as long as the request it was made for: the
next request resolves again (through Scrapy's DNS cache) and is checked again, so a name that
rebinds to a private address is refused. Redirects come back through the chain as new requests
and are checked too. Pages rendered by the browser go through the same check
(:mod:`harvest.browser.guard`); ``resolver_problems`` names the settings that would bypass it.

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
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from scrapy import signals
from scrapy.core.downloader.handlers.http11 import logger as http11_logger
from scrapy.exceptions import DownloadCancelledError, IgnoreRequest
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import load_object
from twisted.internet import defer
from twisted.internet.error import DNSLookupError
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

from harvest.config.settings_model import SOURCE
from harvest.exceptions import ConfigError, NotApplicable
from harvest.meta import META_LIST, META_PINNED_HOST, META_SITE, META_VIA
from harvest.plumbing.capabilities import capabilities

if TYPE_CHECKING:
    from collections.abc import Sequence
    from urllib.parse import ParseResult

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector
    from twisted.internet.defer import Deferred
    from typing_extensions import Self


logger = logging.getLogger(__name__)


class _NoOversizeNotice(logging.Filter):
    """Drops Scrapy's WARNING that a body is over the download max size: harvest says it.

    The page's refusal says it once (:meth:`TrapGuardMiddleware.process_exception`, "Not
    fetching …: larger than N bytes", further ones at DEBUG); Scrapy's said it again for every
    such page (Node's 5.8 MB ``all.html``).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and "larger than download max size" in record.msg)


Resolver = Callable[[str], Awaitable[str]]


class BrowserProxy(Protocol):
    """What this middleware starts and stops for a spider that renders pages in a browser.

    :class:`harvest.browser.guard.BrowserGuard` is one; declared here so the browser package
    depends on this middleware's rules, not the other way round.
    """

    async def start(self, guard: PrivateAddressMiddleware) -> None:
        """Apply ``guard``'s rules to every connection the browser opens."""

    async def stop(self) -> None:
        """Stop relaying the browser's connections."""


_DEFAULT_PORTS = {"http": 80, "https": 443}
#: Sources whose URLs are lists a site publishes on purpose, not links a trap could generate.
TRUSTED_VIA = frozenset({"seed", "sitemap", "feed", "robots"})


def host_port(url_host: str | None, port: int | None, scheme: str) -> str:
    """``host:port`` with the scheme's default port filled in, host lower-cased."""
    host = (url_host or "").lower().strip("[]")
    return f"{host}:{port or _DEFAULT_PORTS.get(scheme, 0)}"


#: IPv6 ranges whose last 32 bits are an IPv4 address that the network reaches for us: NAT64's
#: well-known prefix (RFC 6052) and its local-use prefix (RFC 8215, written with a /96 inside it),
#: and the old IPv4-translated form (RFC 2765).
_LAST_32_EMBEDS = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
    ipaddress.IPv6Network("::ffff:0:0:0/96"),
)
#: IPv4-compatible addresses (``::a.b.c.d``, RFC 4291, deprecated): the IPv4 address in the last
#: 32 bits is where a stack that still knows them sends the packets.
_COMPATIBLE = ipaddress.IPv6Network("::/96")
#: 64:ff9b:1::/48 may use the shorter RFC 6052 formats too (the IPv4 address split around the
#: reserved octet 64-71): (prefix length, bit positions of the IPv4 address's two parts).
_NAT64_SHORT_FORMATS = ((48, (48, 16), (72, 16)), (56, (56, 8), (72, 24)), (64, (72, 32), (0, 0)))
_THIS_NETWORK = ipaddress.IPv4Network("0.0.0.0/8")


def _bits(value: int, start: int, length: int) -> int:
    """``length`` bits of a 128-bit ``value`` from bit ``start`` (0 = most significant)."""
    return (value >> (128 - start - length)) & ((1 << length) - 1) if length else 0


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address leads to, judged in its place ([] for a plain IPv6 address).

    IPv4-mapped (``::ffff:a.b.c.d``) and IPv4-compatible (``::a.b.c.d``); NAT64 (``64:ff9b::/96``,
    and ``64:ff9b:1::/48`` in each RFC 6052 format that fits in it, the /96 one always); 6to4
    (``2002::/16``: the relay's IPv4 address in bits 16-47); Teredo (``2001::/32``: the server, and
    the client, whose address is the bitwise NOT of the last 32 bits). A shorter NAT64 format's
    reading that falls in 0.0.0.0/8 is left out: every /96 address has one (the bits between the
    prefix and the IPv4 address are zero), and no translator sends to "this network".
    """
    found: list[ipaddress.IPv4Address] = []
    value = int(ip)
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip in _COMPATIBLE:
        found.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    if any(ip in net for net in _LAST_32_EMBEDS):
        found.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    if ip in _LAST_32_EMBEDS[1]:
        for _, (start1, len1), (start2, len2) in _NAT64_SHORT_FORMATS:
            high, low = _bits(value, start1, len1), _bits(value, start2, len2)
            candidate = ipaddress.IPv4Address((high << len2) | low)
            if candidate not in _THIS_NETWORK:
                found.append(candidate)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    return found


def is_public_address(address: str) -> bool:
    """Whether ``address`` (an IP literal) is a global unicast address, safe for a crawler.

    The one judge of every guard (blogs' downloads, the browser's proxy, the GitHub hosts guard).
    An IPv6 address that embeds IPv4 addresses (:func:`embedded_ipv4`) is judged by them, all of
    them: a private or loopback address inside makes it private, whatever Python's tables say of
    the IPv6 range itself (they differ between versions for NAT64's local-use prefix and Teredo).
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        inside = embedded_ipv4(ip)
        if inside:
            return all(_is_public_ip(v4) for v4 in inside)
    return _is_public_ip(ip)


def _is_public_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return ip.is_global and not ip.is_multicast


def _ip_literal(host: str) -> str | None:
    try:
        return str(ipaddress.ip_address(host.strip("[]").split("%")[0]))
    except ValueError:
        return None


async def _twisted_resolve(host: str) -> str:
    from twisted.internet import reactor

    deferred: Any = reactor.resolve(host)  # type: ignore[arg-type]
    return str(await maybe_deferred_to_future(deferred))


def resolver_problems(settings: BaseSettings) -> list[tuple[str, str]]:
    """(setting, problem) for each setting that would let a download bypass the private-address guard.

    Empty unless the guard is on (``HARVEST_SAFETY_ENABLED`` and ``HARVEST_SAFETY_PRIVATE_ADDRESSES``).
    The guard wraps the reactor's simple resolver (``IResolverSimple``, what Scrapy's HTTP download
    uses); a ``TWISTED_DNS_RESOLVER``/``DNS_RESOLVER`` of another kind would be replaced or bypassed.
    ``DNSCACHE_ENABLED=False`` is refused as well: with pinning it no longer opens a hole, but the
    guard must not rest on a switch that once voided it, and without the cache every check is a
    thread-pool lookup.
    """
    if not settings.getbool("HARVEST_SAFETY_ENABLED") or not settings.getbool(
        "HARVEST_SAFETY_PRIVATE_ADDRESSES"
    ):
        return []
    problems: list[tuple[str, str]] = []
    if not settings.getbool("DNSCACHE_ENABLED"):
        problems.append(
            (
                "DNSCACHE_ENABLED",
                "must stay on while the private-address guard is on (HARVEST_SAFETY_ENABLED); "
                "HARVEST_SAFETY_PRIVATE_ADDRESSES=False turns the guard off",
            )
        )
    # The one Scrapy installs (scrapy.crawler's _setup_reactor): the deprecated DNS_RESOLVER
    # when set and not overridden by a TWISTED_DNS_RESOLVER of higher priority.
    dns_priority = settings.getpriority("DNS_RESOLVER") or 0
    name = "TWISTED_DNS_RESOLVER"
    if dns_priority > SETTINGS_PRIORITIES["default"] and (settings.getpriority(name) or 0) <= dns_priority:
        name = "DNS_RESOLVER"
    path = settings.get(name)
    try:
        cls = load_object(path) if isinstance(path, str) else path
    except (ImportError, ValueError, AttributeError, NameError) as exc:
        problems.append((name, f"cannot load {path!r}: {exc}"))
        return problems
    if not IResolverSimple.implementedBy(cls):
        problems.append(
            (
                name,
                f"{path!r} is not a simple resolver (IResolverSimple, like Scrapy's "
                "CachingThreadedResolver): the private-address guard cannot wrap it",
            )
        )
    return problems


@implementer(IResolverSimple)
class GuardedResolver:
    """The reactor's resolver while the private-address guard runs: the download gets the checked address.

    ``pin(name, address)`` holds the address the guard checked for a request in flight; a lookup of
    a pinned name answers it, so the connection goes where the check looked. A lookup of a name
    nobody pinned (a component that bypassed the middleware) is checked here: a non-public answer
    for a host that is not a configured site fails like an unknown name.
    """

    def __init__(self, inner: Any, guard: PrivateAddressMiddleware) -> None:
        self.inner = inner
        self.guard = guard
        self._pins: dict[str, tuple[str, int]] = {}

    def lookup(self, name: str) -> Deferred[str]:
        """A fresh answer of the wrapped resolver (through Scrapy's DNS cache), unpinned and unchecked."""
        deferred: Deferred[str] = self.inner.getHostByName(name)
        return deferred

    def pinned(self, name: str) -> str | None:
        """The address pinned for ``name``, if a checked request for it is in flight."""
        entry = self._pins.get(name.lower())
        return entry[0] if entry else None

    def pin(self, name: str, address: str) -> None:
        """Hold ``address`` for ``name`` until as many ``unpin`` calls as ``pin`` calls."""
        key = name.lower()
        held, count = self._pins.get(key, (address, 0))
        self._pins[key] = (held, count + 1)

    def unpin(self, name: str) -> None:
        """Release one pin of ``name``; the last one lets the next request resolve afresh."""
        key = name.lower()
        held, count = self._pins.get(key, ("", 0))
        if count <= 1:
            self._pins.pop(key, None)
        else:
            self._pins[key] = (held, count - 1)

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:  # noqa: N802
        """The pinned address, else the wrapped resolver's answer if the guard allows it."""
        pinned = self.pinned(name)
        if pinned is not None:
            return defer.succeed(pinned)
        deferred: Deferred[str] = self.inner.getHostByName(name, timeout)
        deferred.addCallback(self._check_unpinned, name)
        return deferred

    def _check_unpinned(self, address: str, name: str) -> str:
        if is_public_address(address) or self.guard.allows_name(name):
            return address
        self.guard.count("refused/dns")
        raise DNSLookupError(f"{name} resolves to the non-public address {address}: refused by the guard")


#: Refusals that are the guard doing what it is for, on a site's endless views of one page or
#: path (a calendar's dates, a timeline's moments, a loop of relative links): said once at INFO,
#: nothing for the user to act on (the stats count them). The others (a site's max_pages
#: reached, a private address) may lose pages the user wants: a WARNING.
_TRAPS = frozenset({"query_variants", "repeated_segments"})


class _RefusalLog:
    """Log a refusal once per (reason, host); the stats count every one."""

    def __init__(self) -> None:
        self._seen: set[tuple[str, str]] = set()

    def __call__(self, reason: str, host: str, msg: str, *args: Any) -> None:
        if (reason, host) in self._seen:
            logger.debug(msg, *args)
            return
        self._seen.add((reason, host))
        level = logging.INFO if reason in _TRAPS else logging.WARNING
        logger.log(level, msg + " (further ones from this host are logged at DEBUG)", *args)


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
        self._resolve = resolve
        self.stats = stats
        self.resolver: GuardedResolver | None = None
        self.browser_guard: BrowserProxy | None = None
        self._log = _RefusalLog()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from settings; the spider's configured hosts are added when it opens.

        Raises ConfigError naming a setting that would bypass the guard (``resolver_problems``).
        """
        if not crawler.settings.getbool("HARVEST_SAFETY_ENABLED"):
            raise NotApplicable("HARVEST_SAFETY_ENABLED is off")
        if not crawler.settings.getbool("HARVEST_SAFETY_PRIVATE_ADDRESSES"):
            raise NotApplicable("HARVEST_SAFETY_PRIVATE_ADDRESSES is off")
        problems = resolver_problems(crawler.settings)
        if problems:
            raise ConfigError(SOURCE, problems)
        mw = cls(crawler.settings.getlist("HARVEST_SAFETY_ALLOWED_HOSTS"), stats=crawler.stats)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(mw.request_left_downloader, signal=signals.request_left_downloader)
        return mw

    async def spider_opened(self, spider: Spider) -> None:
        """Allow the spider's configured sites, wrap the reactor's resolver, start the browser's guard."""
        self.allowed_hosts |= {h.lower() for h in capabilities(spider).allowed_private_hosts}
        if self._resolve is None:
            self.install_resolver()
        self.browser_guard = capabilities(spider).browser_guard
        if self.browser_guard is not None:
            await self.browser_guard.start(self)

    async def spider_closed(self, spider: Spider) -> None:
        """Stop the browser's guard and give the reactor its own resolver back."""
        if self.browser_guard is not None:
            await self.browser_guard.stop()
        self.uninstall_resolver()

    def install_resolver(self) -> None:
        """Wrap the reactor's resolver (a simple one, see ``resolver_problems``) in a GuardedResolver."""
        from twisted.internet import reactor

        current = reactor.resolver
        if not IResolverSimple.providedBy(current):
            problem = f"{current!r} is not a simple resolver the guard can wrap"
            raise ConfigError("settings", [("TWISTED_DNS_RESOLVER", problem)])
        self.resolver = GuardedResolver(current, self)
        reactor.installResolver(self.resolver)

    def uninstall_resolver(self) -> None:
        """Put the wrapped resolver back if ours is still the reactor's."""
        from twisted.internet import reactor

        if self.resolver is not None and reactor.resolver is self.resolver:
            reactor.installResolver(self.resolver.inner)
        self.resolver = None

    def count(self, event: str) -> None:
        """Count ``harvest/safety/<event>``."""
        if self.stats is not None:
            self.stats.inc_value(f"harvest/safety/{event}")

    def allows_name(self, name: str) -> bool:
        """Whether ``name`` is the host of a configured site (on some port)."""
        name = name.lower()
        return any(key.rsplit(":", 1)[0] == name for key in self.allowed_hosts)

    def _refuse(self, reason: str, host: str, request: Request, detail: str) -> IgnoreRequest:
        self.log_refusal(reason, host, f"Refused {request.url}:", detail)
        return IgnoreRequest(f"{reason}: {detail}")

    def log_refusal(self, reason: str, key: str, what: str, detail: str) -> None:
        """Count ``harvest/safety/<reason>`` and log ``what detail`` once per (reason, key)."""
        self.count(reason)
        self._log(reason, key, "%s %s", what, detail)

    async def lookup(self, host: str) -> str:
        """``host``'s address as the download will use it: the pinned one, else a fresh answer."""
        if self._resolve is not None:
            return await self._resolve(host)
        if self.resolver is None:
            return await _twisted_resolve(host)
        pinned = self.resolver.pinned(host)
        if pinned is not None:
            return pinned
        deferred: Any = self.resolver.lookup(host)
        return str(await maybe_deferred_to_future(deferred))

    async def check(self, host: str, port: int) -> tuple[str | None, str | None]:
        """(address to connect to, None) if ``host:port`` may be fetched, else (None, why not).

        The one rule of plain downloads and the browser: an IP literal or the resolved address
        must be public unless ``host:port`` is a configured site. A name that does not resolve
        gives (None, None): the caller reports its own DNS error.
        """
        host = host.lower().strip("[]")
        key = f"{host}:{port}"
        allowed = key in self.allowed_hosts
        literal = _ip_literal(host)
        if literal is not None:
            if allowed or is_public_address(literal):
                return literal, None
            return None, f"{key} is the non-public address {literal}, and is not a configured site"
        if not allowed and (host in {"localhost", "localhost.localdomain"} or host.endswith(".localhost")):
            return None, f"{key} is a loopback name, and is not a configured site"
        try:
            address = await self.lookup(host)
        except Exception:  # noqa: BLE001 - any resolver failure: let the caller report it
            logger.debug("Could not resolve %s; leaving the error to the downloader", host)
            return None, None
        if allowed or is_public_address(address):
            return address, None
        return None, f"{key} resolves to the non-public address {address}, and is not a configured site"

    async def process_request(self, request: Request) -> None:
        """Raise IgnoreRequest for a non-http(s) URL or a private address; pin the address checked."""
        parts = urlparse_cached(request)
        if parts.scheme not in _DEFAULT_PORTS:
            raise self._refuse("scheme", parts.scheme, request, f"scheme {parts.scheme!r} is not http(s)")
        try:
            port = parts.port
            hostname = parts.hostname
        except ValueError:
            raise self._refuse("bad_url", parts.netloc, request, "invalid host or port") from None
        key = host_port(hostname, port, parts.scheme)
        if key in self.allowed_hosts:
            return
        host = (hostname or "").lower()
        address, refused = await self.check(host, port or _DEFAULT_PORTS[parts.scheme])
        if refused is not None:
            raise self._refuse("private_address", key, request, refused)
        if address is not None and self.resolver is not None and _ip_literal(host) is None:
            self.resolver.pin(host, address)
            request.meta[META_PINNED_HOST] = host

    def _release(self, request: Request) -> None:
        host = request.meta.pop(META_PINNED_HOST, None)
        if host is not None and self.resolver is not None:
            self.resolver.unpin(host)

    def request_left_downloader(self, request: Request, spider: Spider | None = None) -> None:
        """The download is over: its pin goes, the next request for the host is checked afresh."""
        self._release(request)

    def process_response(self, request: Request, response: Response) -> Response:
        """Release the pin of a finished download."""
        self._release(request)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        """Release the pin of a failed download."""
        self._release(request)


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
        self._log = _RefusalLog()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from the ``HARVEST_SAFETY_*`` settings (0 disables a guard)."""
        s = crawler.settings
        if not s.getbool("HARVEST_SAFETY_ENABLED"):
            raise NotApplicable("HARVEST_SAFETY_ENABLED is off")
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
        if mw.max_page_bytes:
            # Scrapy's HTTP/1.1 download handler's logger (harvest's bounded handler inherits it).
            if not any(isinstance(f, _NoOversizeNotice) for f in http11_logger.filters):
                http11_logger.addFilter(_NoOversizeNotice())
        return mw

    def bytes_received(self, data: bytes, request: Request, spider: Spider) -> None:
        """Count a body's bytes: a body without Content-Length is cut off without saying why."""
        if self.max_page_bytes and request.meta.get(META_SITE) is not None:
            key = id(request)
            self._received[key] = self._received.get(key, 0) + len(data)

    def spider_opened(self, spider: Spider) -> None:
        """Take the per-site limits the spider's config sets."""
        self.site_limits.update(capabilities(spider).site_limits)

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
        site = request.meta.get(META_SITE)
        if self.max_url_length and len(request.url) > self.max_url_length:
            raise self._refuse(
                "url_too_long",
                site or parts.netloc,
                request,
                f"URL longer than {self.max_url_length} characters",
            )
        if site is None:
            # Not a page of a configured site (robots.txt, a request of another component).
            return
        depth = int(request.meta.get("depth") or 0)
        max_depth = self._limit(site, "max_depth")
        if max_depth and depth > max_depth:
            raise self._refuse("max_depth", site, request, f"depth {depth} > max_depth {max_depth}")
        self._check_repeated_segments(site, request, parts.path)
        self._check_query_variants(site, request, parts)
        if request.meta.get(META_LIST):
            # robots.txt, sitemaps and feeds: lists of pages, not pages; their own size cap.
            return
        max_pages = self._limit(site, "max_pages")
        if max_pages and self.pages[site] >= max_pages:
            raise self._refuse("max_pages", site, request, f"site {site!r} reached max_pages {max_pages}")
        self.pages[site] += 1
        if self.max_page_bytes and "download_maxsize" not in request.meta:
            request.meta["download_maxsize"] = self.max_page_bytes

    def _check_repeated_segments(self, site: str, request: Request, path: str) -> None:
        """Refuse a path whose most common segment repeats more than ``max_segment_repeats`` times."""
        if not self.max_segment_repeats:
            return
        segments = [s for s in path.split("/") if s]
        if segments:
            segment, count = Counter(segments).most_common(1)[0]
            if count > self.max_segment_repeats:
                raise self._refuse(
                    "repeated_segments", site, request, f"path segment {segment!r} repeated {count} times"
                )

    def _check_query_variants(self, site: str, request: Request, parts: ParseResult) -> None:
        """Refuse a new query string of a path past ``max_query_variants`` (trusted lists exempt)."""
        if not parts.query or not self.max_query_variants or request.meta.get(META_VIA) in TRUSTED_VIA:
            return
        variants = self._queries.setdefault((site, parts.netloc, parts.path), set())
        if parts.query not in variants:
            if len(variants) >= self.max_query_variants:
                raise self._refuse(
                    "query_variants",
                    site,
                    request,
                    f"more than {self.max_query_variants} query strings for {parts.path}",
                )
            variants.add(parts.query)

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
            raise self._refuse(
                "oversize", request.meta.get(META_SITE) or "", request, f"larger than {limit} bytes"
            )
        return None
