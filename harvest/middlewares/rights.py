"""SiteRightsMiddleware: what a site says about AI use as a whole, attached to each page fetched.

For spiders that declare ``collects_rights`` (blogs), once per origin it fetches
``/.well-known/tdmrep.json`` (TDMRep's site-wide rules; a 404 or junk means "nothing said") and
puts into ``response.meta["harvest_rights_site"]``, for every page response, a plain dict: the
TDMRep rule that matches the page's path and the robots.txt verdict for harvest's user agent
("allowed" when Scrapy's robots.txt middleware let the request through, None when robots.txt
is not obeyed). The spider combines it with the page's own headers and HTML
(:func:`harvest.parsers.rights.combine`). Lists (robots.txt, sitemaps, feeds) are left alone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import TextResponse

from harvest.meta import META_LIST, META_RIGHTS_SITE, META_ROBOTS_TXT, META_TDMREP
from harvest.parsers.rights import parse_tdmrep, tdmrep_rule
from harvest.plumbing.capabilities import class_capabilities

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Where TDMRep's site-wide rules live (https://www.w3.org/community/reports/tdmrep/).
TDMREP_PATH = "/.well-known/tdmrep.json"


class SiteRightsMiddleware:
    """Downloader middleware (see the module docstring)."""

    def __init__(
        self,
        *,
        fetch_tdmrep: bool = True,
        robots_obeyed: bool = True,
        crawler: Crawler | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        self.fetch_tdmrep = fetch_tdmrep
        self.robots_obeyed = robots_obeyed
        self.crawler = crawler
        self.stats = stats
        self._rules: dict[str, asyncio.Future[list[dict[str, Any]]]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled for spiders with ``collects_rights`` while ``HARVEST_RIGHTS_ENABLED``."""
        if not crawler.settings.getbool("HARVEST_RIGHTS_ENABLED"):
            raise NotConfigured  # HARVEST_RIGHTS_ENABLED is off (bare: a message is logged at WARNING)
        if not class_capabilities(crawler.spidercls).collects_rights:
            raise NotConfigured  # not a collects_rights spider (bare: a message is logged at WARNING)
        return cls(
            fetch_tdmrep=crawler.settings.getbool("HARVEST_RIGHTS_TDMREP"),
            robots_obeyed=crawler.settings.getbool("ROBOTSTXT_OBEY"),
            crawler=crawler,
            stats=crawler.stats,
        )

    def _applies(self, request: Request) -> bool:
        # Lists, tdmrep.json itself and robots.txt (Scrapy's middleware fetches it for any request).
        return not (
            request.meta.get(META_LIST)
            or request.meta.get(META_TDMREP)
            or urlsplit(request.url).path == "/robots.txt"
        )

    async def process_request(self, request: Request) -> None:
        """Before a page's download, know its site's TDMRep rules (fetched once per origin).

        Done here, like Scrapy's robots.txt middleware, before the request holds a download
        slot: a fetch from ``process_response`` could wait for a slot its own callers hold.
        """
        if self.fetch_tdmrep and self._applies(request):
            parts = urlsplit(request.url)
            await self._site_rules(f"{parts.scheme}://{parts.netloc}")

    def process_response(self, request: Request, response: Response) -> Response:
        """Attach the site's signals to a page response."""
        if not self._applies(request) or not isinstance(response, TextResponse) or response.status != 200:
            return response
        parts = urlsplit(response.url)
        future = self._rules.get(f"{parts.scheme}://{parts.netloc}")
        rules = future.result() if future is not None and future.done() else []
        rule = tdmrep_rule(rules, parts.path or "/")
        robots = None
        if self.robots_obeyed and not request.meta.get("dont_obey_robotstxt"):
            robots = request.meta.get(META_ROBOTS_TXT) or "allowed"
        request.meta[META_RIGHTS_SITE] = {
            "robots_txt": robots,
            "tdm_reservation": None if rule is None else rule.reservation,
            "tdm_policy": None if rule is None else rule.policy,
        }
        return response

    async def _site_rules(self, origin: str) -> list[dict[str, Any]]:
        future = self._rules.get(origin)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._rules[origin] = future
            rules: list[dict[str, Any]] = []
            try:
                rules = await self._fetch_rules(origin)
            finally:
                future.set_result(rules)
        return await asyncio.shield(future)

    async def _fetch_rules(self, origin: str) -> list[dict[str, Any]]:
        if self.crawler is None or self.crawler.engine is None:
            return []
        request = Request(
            origin + TDMREP_PATH,
            priority=1000,
            meta={
                META_LIST: True,
                META_TDMREP: True,
                "dont_retry": False,
                "handle_httpstatus_all": True,
            },
            dont_filter=True,
        )
        try:
            response = await self.crawler.engine.download_async(request)
        except IgnoreRequest:
            return []
        except Exception as exc:  # noqa: BLE001 - a site without the file is the normal case
            logger.debug("Could not fetch %s: %s", request.url, exc)
            return []
        if response.status != 200:
            return []
        rules = parse_tdmrep(response.body)
        if self.stats is not None:
            self.stats.inc_value("harvest/rights/tdmrep_sites" if rules else "harvest/rights/tdmrep_none")
        if rules:
            logger.info("%s publishes TDMRep rules (%d)", request.url, len(rules))
        return rules
