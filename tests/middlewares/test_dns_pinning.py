"""DNS pinning of the private-address guard, as a component: what is checked is what is connected to.

``GuardedResolver`` wraps the reactor's resolver while a guarded spider runs. These tests drive
it with a resolver whose answer changes (DNS rebinding) and no reactor; the end-to-end crawls
(a rebinding name in a real crawl, the browser) are in tests/test_address_guard.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.settings import Settings
from twisted.internet import defer
from twisted.internet.defer import Deferred
from twisted.internet.error import DNSLookupError
from twisted.python.failure import Failure

from harvest.middlewares.safety import GuardedResolver, PrivateAddressMiddleware, resolver_problems
from tests import get_crawler

NAME = "rebind.example"


class ChangingResolver:
    """Answers ``NAME`` with ``answer`` (a test changes it); counts lookups."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.lookups = 0

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:  # noqa: N802
        self.lookups += 1
        return defer.succeed(self.answer)


def guarded(answer: str, allowed: tuple[str, ...] = ()) -> tuple[PrivateAddressMiddleware, ChangingResolver]:
    crawler = get_crawler()
    mw = PrivateAddressMiddleware(allowed, stats=crawler.stats)
    inner = ChangingResolver(answer)
    mw.resolver = GuardedResolver(inner, mw)
    return mw, inner


def resolved(resolver: GuardedResolver, name: str = NAME) -> str:
    """What the download's lookup of ``name`` gets (the answers here are synchronous)."""
    result: list[object] = []
    resolver.getHostByName(name).addBoth(result.append)
    if isinstance(result[0], Failure):
        result[0].raiseException()
    return str(result[0])


def test_the_download_connects_to_the_address_checked() -> None:
    mw, inner = guarded("93.184.215.14")
    assert mw.resolver is not None
    request = Request(f"http://{NAME}/post")
    asyncio.run(mw.process_request(request))  # checked: public, pinned for this request
    inner.answer = "127.0.0.2"  # the name rebinds while the request is in flight
    assert resolved(mw.resolver) == "93.184.215.14"  # the download still gets the checked address
    # A second request in flight meanwhile is checked against the same pinned address.
    second = Request(f"http://{NAME}/other")
    asyncio.run(mw.process_request(second))
    mw.process_response(request, Response(request.url, request=request))
    mw.process_exception(second, OSError("reset"))
    # No decision outlives the request it was made for: the next one resolves afresh, is refused.
    with pytest.raises(IgnoreRequest, match="127.0.0.2"):
        asyncio.run(mw.process_request(Request(f"http://{NAME}/later")))
    assert mw.stats is not None and mw.stats.get_value("harvest/safety/private_address") == 1
    # A lookup nobody checked (a component bypassing the middleware) cannot reach it either.
    with pytest.raises(DNSLookupError):
        resolved(mw.resolver)
    assert mw.stats.get_value("harvest/safety/refused/dns") == 1


def test_pins_are_released_once_and_configured_sites_resolve_as_they_are() -> None:
    mw, inner = guarded("10.0.0.7", allowed=(f"{NAME}:8080",))
    assert mw.resolver is not None
    request = Request(f"http://{NAME}:8080/")
    asyncio.run(mw.process_request(request))  # a configured site: allowed, nothing pinned
    assert mw.resolver.pinned(NAME) is None
    assert resolved(mw.resolver) == "10.0.0.7"
    # The same name on another port is not the configured site.
    with pytest.raises(IgnoreRequest):
        asyncio.run(mw.process_request(Request(f"http://{NAME}:22/")))
    # Releasing twice (response, then the downloader's signal) drops one pin only.
    other, inner2 = guarded("93.184.215.14")
    assert other.resolver is not None
    first, second = Request(f"http://{NAME}/a"), Request(f"http://{NAME}/b")
    asyncio.run(other.process_request(first))
    asyncio.run(other.process_request(second))
    other.process_response(first, Response(first.url, request=first))
    other.request_left_downloader(first)
    assert other.resolver.pinned(NAME) == "93.184.215.14"
    other.request_left_downloader(second)
    assert other.resolver.pinned(NAME) is None
    assert inner2.lookups == 1  # the second request reused the pinned, checked address


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"DNSCACHE_ENABLED": False}, ["DNSCACHE_ENABLED"]),
        ({"TWISTED_DNS_RESOLVER": "scrapy.resolver.CachingHostnameResolver"}, ["TWISTED_DNS_RESOLVER"]),
        ({"DNS_RESOLVER": "scrapy.resolver.CachingHostnameResolver"}, ["DNS_RESOLVER"]),
        (
            {
                "DNS_RESOLVER": "scrapy.resolver.CachingHostnameResolver",
                "TWISTED_DNS_RESOLVER": "scrapy.resolver.CachingThreadedResolver",
            },
            ["DNS_RESOLVER"],  # same priority: Scrapy installs the deprecated one
        ),
        ({"TWISTED_DNS_RESOLVER": "tests.hosts_resolver.HostsResolver"}, []),
        ({"TWISTED_DNS_RESOLVER": "no.such.Resolver"}, ["TWISTED_DNS_RESOLVER"]),
        ({"DNSCACHE_ENABLED": False, "HARVEST_SAFETY_PRIVATE_ADDRESSES": False}, []),
        ({"DNSCACHE_ENABLED": False, "HARVEST_SAFETY_ENABLED": False}, []),
    ],
)
@pytest.mark.filterwarnings("ignore:The DNS_RESOLVER setting is deprecated")
def test_settings_that_would_bypass_the_guard(settings: dict[str, object], named: list[str]) -> None:
    merged = Settings({"HARVEST_SAFETY_ENABLED": True, "HARVEST_SAFETY_PRIVATE_ADDRESSES": True})
    merged.setdict(settings, priority="cmdline")
    assert [name for name, _ in resolver_problems(merged)] == named
