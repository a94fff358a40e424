"""Cheaper drop-ins for Scrapy's per-response downloader middlewares (the blogs spider's).

Profiled on a 50,000-page crawl (BENCHMARKS.md, "blogs: crawl throughput"), each cost a few
percent of the crawl's CPU for nothing on almost every page:

- :class:`MetaRefreshMiddleware`: Scrapy's computes the page's base URL (a regular expression
  plus ``urljoin``) before looking for ``<meta http-equiv="refresh">``. Here the first 4,096
  characters it scans are first searched for the word "refresh" (case-insensitive), without which
  w3lib's pattern cannot match; only pages that have it go through Scrapy's code. Same result.
- :class:`DownloaderStats`: Scrapy's serializes every request (``request_httprepr``) and sums
  header sizes just for the ``downloader/*_bytes`` stats. This one keeps the counts
  (``downloader/request_count``, ``request_method_count/*``, ``response_count``,
  ``response_status_count/*``, what the fleet and the logs read) and counts body bytes only
  (``downloader/response_body_bytes``).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as _ScrapyMetaRefresh
from scrapy.downloadermiddlewares.redirect import RedirectMiddleware as _ScrapyRedirect
from scrapy.http import HtmlResponse
from scrapy.utils.python import global_object_name

from harvest.exceptions import NotApplicable

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

_REFRESH_RE = re.compile("refresh", re.IGNORECASE)
#: Characters of the page Scrapy's get_meta_refresh looks at (scrapy.utils.response).
_META_SCAN = 4096


class _NoRefererMixin:
    """Redirects without a Referer header, said once in the docs rather than warned per crawl.

    The blogs spider leaves Scrapy's RefererMiddleware out on purpose (no site needs a Referer;
    it costs CPU per request). Scrapy's redirect middlewares then log a WARNING at every start
    that the Referer will be removed on redirects: true, intended, nothing to act on. Without
    that spider middleware, ``handle_referer`` removes the header, as wanted.
    """

    def _engine_started(self) -> None:
        """Skip the look-up of RefererMiddleware and its warning (see the class docstring)."""


class RedirectMiddleware(_NoRefererMixin, _ScrapyRedirect):
    """Scrapy's RedirectMiddleware, for a crawl without RefererMiddleware (no warning)."""


class MetaRefreshMiddleware(_NoRefererMixin, _ScrapyMetaRefresh):
    """Scrapy's MetaRefreshMiddleware, skipped for pages whose head cannot hold a refresh."""

    def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        """Scrapy's answer, computed only when "refresh" occurs where Scrapy looks."""
        if isinstance(response, HtmlResponse) and not _REFRESH_RE.search(response.text, 0, _META_SCAN):
            return response
        return super().process_response(request, response)


class DownloaderStats:
    """Request and response counts, without serializing every request to measure it."""

    def __init__(self, stats: StatsCollector) -> None:
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Off with ``DOWNLOADER_STATS``, like Scrapy's."""
        if not crawler.settings.getbool("DOWNLOADER_STATS"):
            raise NotApplicable("DOWNLOADER_STATS is off")
        return cls(crawler.stats)

    def process_request(self, request: Request) -> None:
        """Count the request."""
        self.stats.inc_value("downloader/request_count")
        self.stats.inc_value(f"downloader/request_method_count/{request.method}")

    def process_response(self, request: Request, response: Response) -> Response:
        """Count the response, its status and its body bytes."""
        self.stats.inc_value("downloader/response_count")
        self.stats.inc_value(f"downloader/response_status_count/{response.status}")
        self.stats.inc_value("downloader/response_body_bytes", len(response.body))
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        """Count the failure by exception type, as Scrapy's does."""
        ex_class = global_object_name(exception.__class__)
        self.stats.inc_value("downloader/exception_count")
        self.stats.inc_value(f"downloader/exception_type_count/{ex_class}")
