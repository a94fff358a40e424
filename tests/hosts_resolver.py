"""A DNS resolver for crawls in tests: names listed in ``HARVEST_TEST_HOSTS`` resolve as listed.

``-s DNS_RESOLVER=tests.hosts_resolver.HostsResolver`` with ``HARVEST_TEST_HOSTS=
"blog.example=127.0.0.1,metadata.example=169.254.169.254"`` in the environment: a test can give a
public-looking name any address without /etc/hosts or a DNS server. Other names resolve as usual.
``RebindingResolver`` answers a name's first lookup with one address and every later one with
another; ``OfflineDownloadHandler`` keeps a test's downloads off the internet.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from scrapy import Request
from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.http import Response
from scrapy.resolver import CachingThreadedResolver
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import defer
from twisted.internet.defer import Deferred
from twisted.internet.error import ConnectionRefusedError


class HostsResolver(CachingThreadedResolver):
    """Scrapy's default resolver, with the names of ``HARVEST_TEST_HOSTS`` answered first."""

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:  # noqa: N802
        entries = os.environ.get("HARVEST_TEST_HOSTS", "").split(",")
        hosts = dict(entry.split("=", 1) for entry in entries if "=" in entry)
        if name.lower() in hosts:
            return defer.succeed(hosts[name.lower()])
        return super().getHostByName(name, timeout)


class RebindingResolver(HostsResolver):
    """DNS rebinding: names of ``HARVEST_TEST_REBIND`` answer their first address once, then the second.

    ``HARVEST_TEST_REBIND="rebind.example=93.184.215.14/127.0.0.2"``: the first lookup of
    ``rebind.example`` gets the public address, every later one the private address, as a name
    with a zero TTL whose owner switches it after the first answer. Nothing is cached here (a
    real rebinding name has no TTL to cache it for), so every lookup is asked again.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lookups: dict[str, int] = {}

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:  # noqa: N802
        entries = os.environ.get("HARVEST_TEST_REBIND", "").split(",")
        rebinding = dict(entry.split("=", 1) for entry in entries if "=" in entry)
        key = name.lower()
        if key in rebinding:
            first, later = rebinding[key].split("/", 1)
            count = self.lookups[key] = self.lookups.get(key, 0) + 1
            return defer.succeed(first if count == 1 else later)
        return super().getHostByName(name, timeout)


class OfflineDownloadHandler(HTTP11DownloadHandler):
    """Scrapy's HTTP handler, with no internet: a host resolving to a global address is not contacted.

    Tests talk only to servers on this machine. A download whose host the reactor's resolver
    (the one the real download uses) answers with a global address fails at once as a refused
    connection, as if that server were down; every other download is made for real.
    """

    async def download_request(self, request: Request) -> Response:
        """Fail a download to a global address; make every other one."""
        from twisted.internet import reactor

        from harvest.middlewares.safety import is_public_address

        host = urlparse_cached(request).hostname or ""
        deferred: Any = reactor.resolve(host)  # type: ignore[arg-type]
        address = str(await maybe_deferred_to_future(deferred))
        if is_public_address(address):
            raise ConnectionRefusedError(f"{host} ({address}): no internet in tests")
        return await super().download_request(request)
