"""A DNS resolver for crawls in tests: names listed in ``HARVEST_TEST_HOSTS`` resolve as listed.

``-s DNS_RESOLVER=tests.hosts_resolver.HostsResolver`` with ``HARVEST_TEST_HOSTS=
"blog.example=127.0.0.1,metadata.example=169.254.169.254"`` in the environment: a test can give a
public-looking name any address without /etc/hosts or a DNS server. Other names resolve as usual.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from scrapy.resolver import CachingThreadedResolver
from twisted.internet import defer
from twisted.internet.defer import Deferred


class HostsResolver(CachingThreadedResolver):
    """Scrapy's default resolver, with the names of ``HARVEST_TEST_HOSTS`` answered first."""

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:  # noqa: N802
        entries = os.environ.get("HARVEST_TEST_HOSTS", "").split(",")
        hosts = dict(entry.split("=", 1) for entry in entries if "=" in entry)
        if name.lower() in hosts:
            return defer.succeed(hosts[name.lower()])
        return super().getHostByName(name, timeout)
