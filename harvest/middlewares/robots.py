"""RobotsTxtMiddleware: Scrapy's, with a robots.txt that cannot be read said in one line and recorded.

Scrapy crawls a site whose robots.txt cannot be fetched (connection refused or reset, timeout,
a 5xx after the retries) as if it allowed everything, and says so with an ERROR and a traceback
that names the page which asked, not robots.txt. Here the same policy stands (the site's pages
are still fetched: a flaky robots.txt must not empty a crawl), but:

- one WARNING line per site names the robots.txt URL, why it failed and what follows;
- the site's pages carry ``harvest_robots_txt: "unreadable"`` in their meta, so a document's
  ``rights.robots_txt`` says ``unreadable`` instead of claiming robots.txt allowed it;
- a 5xx answer after the retries counts as unreadable (RFC 9309 2.3.1.3: a server error is not
  a robots.txt) instead of being parsed as one;
- a spider that asks for a site's robots.txt itself (the blogs spider reads its ``Sitemap:``
  lines) is given the answer this middleware already fetched, so a site sees one request for
  its robots.txt a round, not two.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.core.downloader.handlers.http11 import logger as http11_logger
from scrapy.downloadermiddlewares.retry import retry_logger
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as ScrapyRobotsTxtMiddleware
from scrapy.downloadermiddlewares.robotstxt import logger as scrapy_robots_logger
from scrapy.exceptions import IgnoreRequest, ResponseDataLossError
from scrapy.utils.httpobj import urlparse_cached

from harvest.meta import META_ROBOTS_TXT

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.robotstxt import RobotParser

logger = logging.getLogger(__name__)


class _NoRobotsTraceback(logging.Filter):
    """Drops Scrapy's ERRORs about a failed robots.txt: harvest's one line says it instead.

    Those are the robots.txt middleware's "Error downloading" (with a traceback, naming the page
    that asked), the download handler's "Got data loss in" a robots.txt URL, and the retry
    middleware's "Gave up retrying" for a robots.txt URL (Scrapy's
    fetch or the blogs spider's own, which looks for ``Sitemap:`` lines and falls back to
    ``/sitemap.xml`` without a word).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            return True
        if record.name == scrapy_robots_logger.name:
            return not record.msg.startswith("Error downloading")
        if record.name == http11_logger.name:
            return not (record.msg.startswith("Got data loss in ") and "/robots.txt. " in record.msg)
        request = record.args.get("request") if isinstance(record.args, dict) else None
        if request is None or not record.msg.startswith("Gave up retrying"):
            return True
        return urlparse_cached(request).path != "/robots.txt"


def _why(exc: Exception) -> str:
    """A failure in a few words: its message's first line, else what its kind means."""
    text = str(exc).strip()
    if text:
        return text.splitlines()[0]
    if isinstance(exc, ResponseDataLossError):
        return "the connection closed before the whole answer"
    return type(exc).__name__


class RobotsTxtError(Exception):
    """A robots.txt answered with a server error after the retries."""


#: The largest robots.txt answer kept for a spider's own request of it: what Google reads of
#: a robots.txt (500 KiB); a larger one is fetched again if the spider asks.
_KEEP_BYTES = 500 * 1024


class RobotsTxtMiddleware(ScrapyRobotsTxtMiddleware):
    """Scrapy's robots.txt middleware, with unreadable robots.txt files said once and recorded."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._unreadable: set[str] = set()
        #: netloc -> the robots.txt answer fetched here, until the spider asks for it (once).
        self._kept: dict[str, Response] = {}
        self._schemes: dict[str, str] = {}
        for named in (scrapy_robots_logger, retry_logger, http11_logger):
            if not any(isinstance(f, _NoRobotsTraceback) for f in named.filters):
                named.addFilter(_NoRobotsTraceback())

    async def robot_parser(self, request: Request) -> RobotParser | None:
        """Scrapy's, noting the scheme its robots.txt is fetched with (for the line above)."""
        parts = urlparse_cached(request)
        self._schemes.setdefault(parts.netloc, parts.scheme)
        return await super().robot_parser(request)

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        if response.status >= 500:
            self._stats.inc_value("robotstxt/response_count")
            self._stats.inc_value(f"robotstxt/response_status_count/{response.status}")
            self._robots_error(RobotsTxtError(f"HTTP {response.status}"), netloc, response.url)
            return
        if len(response.body) <= _KEEP_BYTES:
            self._kept[netloc] = response
        await super()._parse_robots(response, netloc, request)

    # Scrapy's returns None only; a downloader middleware may return a Response (Scrapy's API).
    async def process_request(  # type: ignore[override]
        self, request: Request, spider: Spider | None = None
    ) -> Response | None:
        """Scrapy's check; a spider's own request of a robots.txt fetched here gets that answer."""
        await super().process_request(request)
        if request.meta.get("dont_obey_robotstxt"):
            return None
        parts = urlparse_cached(request)
        if parts.path != "/robots.txt" or parts.query:
            return None
        kept = self._kept.pop(parts.netloc, None)
        if kept is None or kept.url != request.url:
            return None
        self._stats.inc_value("harvest/robots/shared")
        return kept.replace(request=request)  # the spider's request: its callback and meta

    def _robots_error(self, exc: Exception, netloc: str, url: str | None = None) -> None:
        if not isinstance(exc, IgnoreRequest):
            self._unreadable.add(netloc)
            scheme = self._schemes.get(netloc, "http")
            why = _why(exc)
            logger.warning(
                "Could not read %s (%s): its site is crawled as if it allowed everything; "
                'its documents record rights.robots_txt "unreadable"',
                url or f"{scheme}://{netloc}/robots.txt",
                why,
            )
            self._stats.inc_value("harvest/robots/unreadable")
        super()._robots_error(exc, netloc)

    def process_request_2(self, rp: RobotParser | None, request: Request) -> None:
        """Scrapy's verdict, with a page of an unreadable robots.txt's site marked as such."""
        if rp is None and urlparse_cached(request).netloc in self._unreadable:
            request.meta[META_ROBOTS_TXT] = "unreadable"
        super().process_request_2(rp, request)
