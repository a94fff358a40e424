"""The blogs spider's requests: each URL once a round, typed by what is known of it, and their failures.

:class:`Requests` builds every request of a round (a URL requested already builds none), types
a page as document or listing and gives it its priority, follows the feeds and links a page
holds within its site's depth and link limits, and counts and logs the downloads that failed.
What to fetch from a page, a feed or a sitemap is still the spider's decision.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.config.blogs import asset_link
from harvest.meta import META_KIND, META_LIST, META_ORIGIN, META_SITE, META_TTL, META_VIA
from harvest.parsers.discovery import CONVENTIONAL_FEEDS, extract_links, feed_links, sitemap_links
from harvest.state.seen import SeenSet, SeenUrls

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response, TextResponse
    from twisted.python.failure import Failure

    from harvest.spiders.blogs_documents import Listed
    from harvest.spiders.blogs_sites import Site, SiteBook

logger = logging.getLogger(__name__)

_STATS = "harvest/blogs"
#: Priorities: lists of URLs first (one sitemap names thousands of pages), then start pages,
#: then articles named by a list, then whatever links lead to.
_PRIO_LISTS = 30
_PRIO_SEED = 20
_PRIO_LISTED = 10
_PRIO_ARTICLE_LINK = 5
_PRIO_LINK = 0
_SKIP_EXTENSIONS = frozenset(f".{e}" for e in IGNORED_EXTENSIONS) - {".xml"}
_XML_EXTENSIONS = (".xml", ".rss", ".atom", ".xml.gz", ".rdf")


class Callbacks(Protocol):
    """The spider's callbacks the requests name (spider methods: the frontier persists them)."""

    def parse_robots(self, response: TextResponse) -> Iterator[scrapy.Request]: ...  # noqa: D102

    def parse_xml(self, response: Response) -> Iterator[scrapy.Request]: ...  # noqa: D102

    def parse_page(self, response: Response) -> AsyncIterator[Any]: ...  # noqa: D102

    def on_robots_error(self, failure: Failure) -> Iterator[scrapy.Request]: ...  # noqa: D102

    def on_error(self, failure: Failure) -> None: ...  # noqa: D102

    def retry_gave_up(self, request: Any) -> bool: ...  # noqa: D102


class Requests:
    """The requests of one round of the blogs spider (see the module docstring).

    Settings: ``HARVEST_SAFETY_MAX_DEPTH``, ``HARVEST_SAFETY_MAX_LINKS_PER_PAGE``,
    ``HARVEST_BLOGS_MAX_SITEMAP_BYTES``, ``REDIRECT_MAX_TIMES``.
    """

    def __init__(
        self,
        crawler: Crawler,
        spider: Callbacks,
        book: SiteBook,
        listed: Listed,
        requested: SeenUrls,
        *,
        max_depth: int = 0,
        max_links: int = 0,
        max_sitemap_bytes: int = 0,
        max_redirects: int = 20,
        obey_nofollow: bool = True,
    ) -> None:
        # The crawler's stats collector exists once the crawl starts, after the spider was built.
        self.crawler = crawler
        self.spider = spider
        self.book = book
        self.listed = listed
        #: URLs requested in this round (a seen set: bounded memory, harvest/state/seen.py).
        self.requested = requested
        self.max_depth = max_depth
        self.max_links = max_links
        self.max_sitemap_bytes = max_sitemap_bytes
        self.max_redirects = max_redirects
        #: A link whose tag says ``rel="nofollow"`` is not followed (HARVEST_BLOGS_OBEY_ROBOTS_META).
        self.obey_nofollow = obey_nofollow
        self._links_capped_sites: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler, spider: Callbacks, book: SiteBook, listed: Listed) -> Requests:
        """The requests of ``spider``'s round, in the crawl process's seen set."""
        settings = crawler.settings
        # Read once: a settings lookup per page adds up over a crawl.
        return cls(
            crawler,
            spider,
            book,
            listed,
            SeenUrls(SeenSet.from_crawler(crawler), b"requested"),
            max_depth=settings.getint("HARVEST_SAFETY_MAX_DEPTH"),
            max_links=settings.getint("HARVEST_SAFETY_MAX_LINKS_PER_PAGE"),
            max_sitemap_bytes=settings.getint("HARVEST_BLOGS_MAX_SITEMAP_BYTES"),
            max_redirects=settings.getint("REDIRECT_MAX_TIMES"),
            obey_nofollow=settings.getbool("HARVEST_BLOGS_OBEY_ROBOTS_META"),
        )

    def _inc(self, key: str) -> None:
        self.crawler.stats.inc_value(key)

    def request(
        self,
        url: str,
        site: Site,
        *,
        via: str,
        callback: Any,
        kind: str = "listing",
        priority: int = 0,
        meta: dict[str, Any] | None = None,
        again: bool = False,
    ) -> scrapy.Request | None:
        """A request for ``url`` unless this round requested it already (or ``again``)."""
        if self.requested.seen_or_add(url) and not again:
            return None
        full_meta: dict[str, Any] = {META_SITE: site.name, META_VIA: via, META_KIND: kind}
        if kind == "document":
            full_meta[META_TTL] = site.config.article_revisit
        if callback == self.spider.parse_page and site.render_meta:
            full_meta.update(site.render_meta)
        full_meta.update(meta or {})
        try:
            request = scrapy.Request(
                url,
                callback=callback,
                errback=self.spider.on_error,
                priority=priority,
                meta=full_meta,
                dont_filter=again,
            )
        except ValueError as exc:
            # w3lib refuses what urlsplit let through ("http://host:4000." in a page's text): one
            # odd link must not be a spider error that loses the page holding it.
            logger.debug("Not a URL: %s (%s)", url, exc)
            self._inc(f"{_STATS}/bad_url")
            return None
        self._inc(f"{_STATS}/discovered/{via}")
        return request

    def robots(self, origin: str, site: Site) -> scrapy.Request | None:
        """A request for ``origin``'s robots.txt, where its sitemaps are named."""
        request = self.request(
            f"{origin}/robots.txt",
            site,
            via="robots",
            callback=self.spider.parse_robots,
            priority=_PRIO_LISTS,
            meta={META_ORIGIN: origin, META_LIST: True},
        )
        return request.replace(errback=self.spider.on_robots_error) if request is not None else None

    def seed(self, url: str, site: Site) -> scrapy.Request | None:
        """A request for one of a site's start pages."""
        return self.request(url, site, via="seed", callback=self.spider.parse_page, priority=_PRIO_SEED)

    def page(
        self, url: str, site: Site, *, via: str, listed: bool = False, again: bool = False
    ) -> scrapy.Request | None:
        """A request for an HTML page, typed as document or listing by what we know of it.

        ``again``: this round fetched it already, but judged it before a list named it.
        """
        article = site.article_url(url) or (via == "feed" and not site.excluded(url))
        priority = _PRIO_LISTED if listed else (_PRIO_ARTICLE_LINK if article else _PRIO_LINK)
        return self.request(
            url,
            site,
            via=via,
            callback=self.spider.parse_page,
            kind="document" if article else "listing",
            priority=priority,
            again=again,
        )

    def xml(self, url: str, site: Site, via: str) -> scrapy.Request | None:
        """A request for a sitemap or feed."""
        return self.request(
            url,
            site,
            via=via,
            callback=self.spider.parse_xml,
            priority=_PRIO_LISTS,
            meta={"download_maxsize": self.max_sitemap_bytes, META_LIST: True},
        )

    # --- what a page leads to -------------------------------------------------------------
    def follow(self, response: TextResponse, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the feeds a page declares and the links it holds, within depth and scope."""
        max_depth = site.config.max_depth
        if max_depth is None:
            max_depth = self.max_depth
        if max_depth and int(response.meta.get("depth") or 0) + 1 > max_depth:
            return
        html = response.text
        feeds = feed_links(html, response.url)
        yield from self._declared_requests(feeds, site, "feed")
        yield from self._declared_requests(sitemap_links(html, response.url), site, "sitemap")
        if not feeds and not site.config.feeds and response.meta.get(META_VIA) == "seed":
            # A start page that declares no feed: the feed may be where its generator writes it,
            # linked from no page (vuepress-theme-reco, Zensical); a miss is one quiet 404.
            parts = urlsplit(response.url)
            probes = [f"{parts.scheme}://{parts.netloc}{path}" for path in CONVENTIONAL_FEEDS]
            yield from self._declared_requests(probes, site, "guess")
        yield from self._link_requests(html, response.url, site)

    def _declared_requests(self, urls: list[str], site: Site, via: str) -> Iterator[scrapy.Request]:
        """Requests for the feeds or sitemaps a page declares (or we guess) that are in scope."""
        for url in urls:
            if (url_site := self.book.in_scope(url, site)) is not None:
                if (request := self.xml(url, url_site, via)) is not None:
                    yield request

    def _link_requests(self, html: str, url: str, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the new in-scope links of a page, up to HARVEST_SAFETY_MAX_LINKS_PER_PAGE."""
        max_links = self.max_links
        new_links = 0
        links = extract_links(html, url, nofollow=not self.obey_nofollow)
        # One question for the page's links: most were found on earlier pages.
        requested = self.requested.seen_many(links)
        for link in links:
            if link in requested:
                continue
            link_site = self.book.in_scope(link, site)
            if link_site is None:
                continue
            new_links += 1
            if max_links and new_links > max_links:
                self._links_capped(url, site, max_links)
                return
            if (request := self._link_request(link, link_site)) is not None:
                yield request

    def _link_request(self, url: str, site: Site) -> scrapy.Request | None:
        """A request for a link: a sitemap or feed by its extension, else a page (files skipped)."""
        path = urlsplit(url).path.lower()
        if path.endswith(_XML_EXTENSIONS):
            return self.xml(url, site, "link")
        if os.path.splitext(path)[1] in _SKIP_EXTENSIONS or asset_link(url):
            self._inc(f"{_STATS}/skipped_files")
            return None
        return self.page(url, site, via="link")

    def _links_capped(self, url: str, site: Site, max_links: int) -> None:
        self.listed.capped_pages.add(url)
        # A page linking to more new pages than any index does is a link farm or a generated
        # trap: every link would cost a scheduled, persisted request (the frontier would balloon).
        self._inc("harvest/safety/links_per_page")
        level = logging.DEBUG if site.name in self._links_capped_sites else logging.WARNING
        self._links_capped_sites.add(site.name)
        logger.log(
            level,
            "Not following the links of %s past the first %d new ones (HARVEST_SAFETY_MAX_LINKS_PER_PAGE)",
            url,
            max_links,
        )

    # --- failures -------------------------------------------------------------------------
    def failed(self, failure: Failure) -> None:
        """A failed download: counted, and logged once with the URL.

        Refusals (safety guards, fresh documents, robots.txt) are logged where they are made,
        and a request RetryMiddleware gave up on was logged by it ("Gave up retrying"): both are
        only counted here.
        """
        request = getattr(failure, "request", None)
        url = getattr(request, "url", "?")
        meta = getattr(request, "meta", {})
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            redirects = meta.get("redirect_times", 0)
            if redirects and (meta.get("redirect_ttl") == 0 or redirects >= self.max_redirects):
                # RedirectMiddleware says so only at DEBUG, and names the last hop only.
                self._inc(f"{_STATS}/failed/too_many_redirects")
                first = (meta.get("redirect_urls") or [url])[0]
                logger.warning("Gave up on %s after %d redirects (the last to %s)", first, redirects, url)
                return
            self._inc(f"{_STATS}/ignored")
            logger.debug("Request not fetched: %s (%s)", url, failure.getErrorMessage())
            return
        kind = failure.type.__name__ if failure.type else "error"
        self._inc(f"{_STATS}/failed/{kind}")
        if self.spider.retry_gave_up(request):
            logger.debug("Request not fetched: %s (%s)", url, failure.getErrorMessage())
            return
        if isinstance(failure.value, HttpError):
            # A missing robots.txt or guessed /sitemap.xml is normal: not worth a line.
            level = logging.DEBUG if meta.get(META_LIST) else logging.INFO
            logger.log(level, "Not fetched: %s (HTTP %d)", url, failure.value.response.status)
        else:
            logger.warning("Not fetched: %s (%s: %s)", url, kind, failure.getErrorMessage())
