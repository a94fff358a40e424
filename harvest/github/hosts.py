"""GithubHostGuardMiddleware: the GitHub spiders fetch from the configured GitHub hosts only.

github_search and trending follow what the server tells them: a redirect (``Location``), the
API's ``Link: rel="next"`` page, a README location. A server (a hostile proxy, a compromised or
mistaken GitHub Enterprise, a man in the middle of plain HTTP) could point them anywhere, the
crawl's own network included. The blogs spider has the private-address guard for the open web;
the GitHub spiders need less and get less: every request must go to one of the configured
origins (``GITHUB_API_URL``, ``GITHUB_WEB_URL``, ``GITHUB_RAW_URL``: scheme, host and port), and a
redirect must stay on the origin its chain started from (the API's redirects on the API, a
README's on the raw host). Anything else is refused before it leaves: counted as
``harvest/github/refused/off_host``, logged once per origin in one line naming the URL (and the
URL that led there), never with a byte of a body. The refusal reaches the request's errback as
:class:`OffHostRequest`, which the spiders take as already told.

Active for spiders that declare ``uses_github_api`` (github_search, trending).
"""

from __future__ import annotations

import ipaddress
import logging
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest

from harvest.exceptions import NotApplicable
from harvest.middlewares.safety import host_port, is_public_address
from harvest.plumbing.capabilities import class_capabilities

if TYPE_CHECKING:
    from collections.abc import Iterable

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: The settings naming the hosts the GitHub spiders may fetch from.
HOST_SETTINGS = ("GITHUB_API_URL", "GITHUB_WEB_URL", "GITHUB_RAW_URL")


class OffHostRequest(IgnoreRequest):
    """A request of a GitHub spider to a host that is not a configured GitHub host (already logged)."""


def origin(url: str) -> str | None:
    """``scheme://host:port`` of ``url`` (default port filled in, host lower-cased); None if unusable."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        return None
    return f"{parts.scheme}://{host_port(parts.hostname, port, parts.scheme)}"


class GithubHostGuardMiddleware:
    """Refuse a GitHub spider's request that leaves the configured GitHub hosts (module docstring)."""

    def __init__(self, origins: Iterable[str], stats: StatsCollector | None = None) -> None:
        self.origins = frozenset(origins)
        self.stats = stats
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """The origins of ``GITHUB_API_URL``/``GITHUB_WEB_URL``/``GITHUB_RAW_URL``, for GitHub spiders."""
        if not class_capabilities(crawler.spidercls).uses_github_api:
            raise NotApplicable("the spider does not declare uses_github_api")
        found = {origin(crawler.settings.get(name) or "") for name in HOST_SETTINGS}
        return cls({o for o in found if o is not None}, crawler.stats)

    def refusal(self, request: Request) -> str | None:
        """Why ``request`` must not leave (None: it may)."""
        target = origin(request.url)
        if target is None or target not in self.origins:
            host = urlsplit(request.url).hostname or ""
            kind = " (a non-public address)" if _non_public_literal(host) else ""
            names = ", ".join(HOST_SETTINGS)
            return f"{target or request.url}{kind} is not a configured GitHub host ({names})"
        chain = request.meta.get("redirect_urls") or ()
        if chain and origin(chain[0]) != target:
            return f"a redirect from {chain[0]} must stay on {origin(chain[0])}"
        return None

    def process_request(self, request: Request) -> None:
        """Raise OffHostRequest for a request off the configured hosts, or redirected off its own."""
        why = self.refusal(request)
        if why is None:
            return
        if self.stats is not None:
            self.stats.inc_value("harvest/github/refused/off_host")
        key = origin(request.url) or request.url
        chain = request.meta.get("redirect_urls") or ()
        via = f" (redirected from {chain[-1]})" if chain else ""
        if key in self._logged:
            logger.debug("Refused %s%s: %s", request.url, via, why)
        else:
            self._logged.add(key)
            logger.error(
                "Refused %s%s: %s; further ones to this host are logged at DEBUG", request.url, via, why
            )
        raise OffHostRequest(f"refused/off_host: {request.url}")


def _non_public_literal(host: str) -> bool:
    """Whether ``host`` is an IP literal the address judge calls non-public (said in the log line)."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return not is_public_address(host)
