"""The safety middlewares as components: address classification, the private-address guard with
the system resolver, and each trap guard's limit. End-to-end refusals (a loopback server that
must never be contacted, calendars, oversized pages) are in tests/spiders/test_blogs.py."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket

import pytest
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DownloadCancelledError, IgnoreRequest, NotConfigured

from harvest.middlewares.safety import (
    PrivateAddressMiddleware,
    SiteLimits,
    TrapGuardMiddleware,
    embedded_ipv4,
    host_port,
    is_public_address,
)
from tests import get_crawler as shared_get_crawler


def get_crawler(settings: dict[str, object] | None = None) -> Crawler:
    """A Crawler with the project's settings and a stats collector; no reactor, no engine."""
    return shared_get_crawler(Spider, dict(settings or {}))


async def system_resolve(host: str) -> str:
    """The machine's resolver (getaddrinfo: /etc/hosts, DNS), IPv4 like Scrapy's default."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, None, family=socket.AF_INET)
    return str(infos[0][4][0])


def refused(mw: PrivateAddressMiddleware, url: str) -> bool:
    try:
        asyncio.run(mw.process_request(Request(url)))
    except IgnoreRequest:
        return True
    return False


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.215.14", True),
        ("2606:4700::6810:85e5", True),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("172.31.255.255", False),
        ("172.32.0.1", True),
        ("192.168.1.1", False),
        ("127.0.0.1", False),
        ("127.0.0.2", False),
        ("169.254.169.254", False),  # cloud metadata endpoint
        ("0.0.0.0", False),
        ("100.64.0.1", False),  # carrier-grade NAT
        ("224.0.0.1", False),
        ("::1", False),
        ("fc00::1", False),
        ("fd12:3456::1", False),
        ("fe80::1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:8.8.8.8", True),
        ("not an ip", False),
        # IPv6 forms that embed an IPv4 address are judged by the address inside (issue 30):
        ("::127.0.0.2", False),  # IPv4-compatible
        ("::10.0.0.1", False),
        ("::93.184.215.14", True),
        ("::ffff:0:127.0.0.2", False),  # IPv4-translated (RFC 2765)
        ("::ffff:0:93.184.215.14", True),
        ("64:ff9b::127.0.0.2", False),  # NAT64, well-known prefix
        ("64:ff9b::192.168.1.1", False),
        ("64:ff9b::93.184.215.14", True),
        ("64:ff9b:1::127.0.0.2", False),  # NAT64, local-use prefix, /96 format
        ("64:ff9b:1:abcd::169.254.169.254", False),
        ("64:ff9b:1::93.184.215.14", True),
        ("64:ff9b:1:abcd::93.184.215.14", True),
        ("64:ff9b:1:7f00:0:200:5db8:d70e", False),  # /48 format: 127.0.0.2 around the u octet
        ("64:ff9b:1:0:7f:0:2:0", False),  # /64 format: 127.0.0.2 in bits 72-103
        ("2002:7f00:2::1", False),  # 6to4 of 127.0.0.2
        ("2002:c0a8:101::1", False),  # 6to4 of 192.168.1.1
        ("2002:5db8:d70e::1", True),
        ("2001:0:4136:e378:8000:63bf:80ff:fffd", False),  # Teredo, client 127.0.0.2
        ("2001:0:a00:1:8000:63bf:a247:28f1", False),  # Teredo, server 10.0.0.1
        ("2001:0:4136:e378:8000:63bf:a247:28f1", True),  # Teredo, both public
        ("::", False),
    ],
)
def test_is_public_address(address: str, public: bool) -> None:
    assert is_public_address(address) is public


@pytest.mark.parametrize(
    ("address", "inside"),
    [
        ("::127.0.0.2", ["127.0.0.2"]),
        ("64:ff9b::10.0.0.1", ["10.0.0.1"]),
        ("2002:c0a8:101::1", ["192.168.1.1"]),
        # Teredo: the server as it is, the client as the NOT of the last 32 bits.
        ("2001:0:4136:e378:8000:63bf:80ff:fffd", ["65.54.227.120", "127.0.0.2"]),
        ("2606:4700::6810:85e5", []),
    ],
)
def test_embedded_ipv4_reads_each_form(address: str, inside: list[str]) -> None:
    assert [str(a) for a in embedded_ipv4(ipaddress.IPv6Address(address))] == inside


def test_private_guard_allows_exactly_the_configured_host_and_port() -> None:
    mw = PrivateAddressMiddleware(["127.0.0.1:8080"], resolve=system_resolve)
    assert not refused(mw, "http://127.0.0.1:8080/blog/post")
    assert refused(mw, "http://127.0.0.1:8081/")  # same host, another port: another service
    assert refused(mw, "http://127.0.0.1/")
    assert refused(mw, "http://127.0.0.2:8080/")
    assert refused(mw, "http://localhost:8080/")  # same socket, but not the configured name
    assert refused(mw, "http://10.0.0.5/")
    assert refused(mw, "http://169.254.169.254/latest/meta-data/")
    assert refused(mw, "http://[::1]:8080/")
    assert refused(mw, "http://[::ffff:127.0.0.1]:8080/")
    assert refused(mw, "http://0x7f000001/")  # a numeric host the resolver maps to 127.0.0.1
    assert refused(mw, "file:///etc/passwd")
    assert refused(mw, "ftp://127.0.0.1:8080/")


def test_private_guard_checks_the_resolved_address() -> None:
    # An injected resolver: a name like this machine's, resolving to a private address, whatever
    # this machine's own name resolves to.
    name = "build-box.internal"
    asked: list[str] = []

    async def resolve(host: str) -> str:
        asked.append(host)
        return {name: "10.1.2.3"}[host]

    mw = PrivateAddressMiddleware(["127.0.0.1:8080"], resolve=resolve)
    # Nothing in the name says "private": only resolving it tells.
    assert refused(mw, f"http://{name}:8080/")
    assert asked == [name]
    assert not refused(PrivateAddressMiddleware([f"{name}:8080"], resolve=resolve), f"http://{name}:8080/")


def test_private_guard_lets_public_hosts_and_resolver_failures_through() -> None:
    async def public(host: str) -> str:
        return "93.184.215.14"

    async def failing(host: str) -> str:
        raise OSError("no such host")

    assert not refused(PrivateAddressMiddleware([], resolve=public), "https://blog.example.org/post")
    # A name that does not resolve is left to the downloader (which reports the DNS error).
    assert not refused(PrivateAddressMiddleware([], resolve=failing), "https://nxdomain.invalid/")


def test_private_guard_is_off_unless_enabled() -> None:
    with pytest.raises(NotConfigured):
        PrivateAddressMiddleware.from_crawler(get_crawler())
    with pytest.raises(NotConfigured):
        PrivateAddressMiddleware.from_crawler(
            get_crawler(settings={"HARVEST_SAFETY_ENABLED": True, "HARVEST_SAFETY_PRIVATE_ADDRESSES": False})
        )
    with pytest.raises(NotConfigured):
        TrapGuardMiddleware.from_crawler(get_crawler())
    crawler = get_crawler(
        settings={"HARVEST_SAFETY_ENABLED": True, "HARVEST_SAFETY_ALLOWED_HOSTS": ["db:5432"]}
    )
    assert PrivateAddressMiddleware.from_crawler(crawler).allowed_hosts == {"db:5432"}
    guard = TrapGuardMiddleware.from_crawler(crawler)
    assert guard.max_depth == crawler.settings.getint("HARVEST_SAFETY_MAX_DEPTH") > 0


def site_request(url: str, *, site: str = "s", via: str = "link", depth: int = 0) -> Request:
    return Request(url, meta={"harvest_site": site, "harvest_via": via, "depth": depth})


def passes(mw: TrapGuardMiddleware, request: Request) -> bool:
    try:
        mw.process_request(request)
    except IgnoreRequest:
        return False
    return True


def test_trap_guard_depth_and_pages_per_site() -> None:
    crawler = get_crawler()
    mw = TrapGuardMiddleware(
        max_depth=3, max_pages=5, site_limits={"small": SiteLimits(max_pages=2)}, stats=crawler.stats
    )
    assert passes(mw, site_request("https://a.example/1", depth=3))
    assert not passes(mw, site_request("https://a.example/2", depth=4))
    assert [passes(mw, site_request(f"https://a.example/p{i}")) for i in range(5)] == [True] * 4 + [False]
    assert [passes(mw, site_request(f"https://b.example/{i}", site="small")) for i in range(3)] == [
        True,
        True,
        False,
    ]
    # Requests that belong to no site (robots.txt) are not counted or limited.
    assert passes(mw, Request("https://a.example/robots.txt"))
    assert crawler.stats.get_value("harvest/safety/max_depth") == 1
    assert crawler.stats.get_value("harvest/safety/max_pages") == 2


def test_trap_guard_calendar_query_variants() -> None:
    mw = TrapGuardMiddleware(max_query_variants=10)
    results = [
        passes(mw, site_request(f"https://a.example/calendar?date=2024-01-{d:02d}")) for d in range(1, 31)
    ]
    assert results == [True] * 10 + [False] * 20
    # A known variant still passes (a retry), other paths have their own budget,
    # and URLs from sitemaps and feeds are lists the site publishes: exempt.
    assert passes(mw, site_request("https://a.example/calendar?date=2024-01-01"))
    assert passes(mw, site_request("https://a.example/other?date=2024-01-01"))
    assert passes(mw, site_request("https://a.example/calendar?date=2025-01-01", via="sitemap"))


def test_trap_guard_url_length_and_repeated_segments() -> None:
    mw = TrapGuardMiddleware(max_url_length=100, max_segment_repeats=3)
    assert not passes(mw, site_request("https://a.example/" + "x" * 100))
    assert passes(mw, site_request("https://a.example/docs/v1/docs/guide/"))
    assert passes(mw, site_request("https://a.example/a/b/a/b/a/b/"))
    assert not passes(mw, site_request("https://a.example/a/b/a/b/a/b/a/b/"))


def test_trap_guard_caps_page_size_and_counts_oversize_drops() -> None:
    crawler = get_crawler()
    mw = TrapGuardMiddleware(max_page_bytes=1000, stats=crawler.stats)
    request = site_request("https://a.example/big")
    mw.process_request(request)
    assert request.meta["download_maxsize"] == 1000
    sitemap = site_request("https://a.example/sitemap.xml", via="sitemap")
    sitemap.meta["download_maxsize"] = 50_000_000
    mw.process_request(sitemap)
    assert sitemap.meta["download_maxsize"] == 50_000_000
    # Scrapy's message when Content-Length announces too much:
    with pytest.raises(IgnoreRequest):
        mw.process_exception(
            request,
            DownloadCancelledError(
                "Expected to receive 5000 bytes which is larger than download max size (1000) in request"
            ),
        )
    # A streamed body is cancelled without a message; the bytes counted tell why.
    streamed = site_request("https://a.example/streamed")
    mw.process_request(streamed)
    mw.bytes_received(b"x" * 600, streamed, None)  # type: ignore[arg-type]
    mw.bytes_received(b"x" * 600, streamed, None)  # type: ignore[arg-type]
    with pytest.raises(IgnoreRequest):
        mw.process_exception(streamed, DownloadCancelledError(""))
    assert crawler.stats.get_value("harvest/safety/oversize") == 2
    # Other cancellations are not oversize pages.
    other = site_request("https://a.example/other")
    mw.process_request(other)
    mw.process_exception(other, DownloadCancelledError(""))  # no IgnoreRequest: left to the others
    assert crawler.stats.get_value("harvest/safety/oversize") == 2


def test_host_port() -> None:
    assert host_port("Example.ORG", None, "https") == "example.org:443"
    assert host_port("127.0.0.1", 8080, "http") == "127.0.0.1:8080"
    assert host_port("[::1]", None, "http") == "::1:80"


def test_a_trap_cut_is_said_at_info_a_page_limit_at_warning(caplog: pytest.LogCaptureFixture) -> None:
    """A site's endless views of one path (Fossil's timeline links every moment of it) is the
    trap the guard is for: nothing for the user to act on, so no WARNING in a normal run. A
    site's max_pages reached may lose pages the user wants: a WARNING."""
    mw = TrapGuardMiddleware(max_query_variants=2, max_pages=3)
    with caplog.at_level(logging.DEBUG, logger="harvest.middlewares.safety"):
        for n in range(4):
            passes(mw, site_request(f"https://a.example/timeline?c={n}"))
    trap = [r for r in caplog.records if "query strings" in r.getMessage()]
    assert [r.levelno for r in trap] == [logging.INFO, logging.DEBUG]
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="harvest.middlewares.safety"):
        for n in range(5):
            passes(mw, site_request(f"https://a.example/page-{n}"))
    assert any(r.levelno == logging.WARNING and "max_pages" in r.getMessage() for r in caplog.records)
