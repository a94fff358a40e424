"""The ``blogs`` spider: every article of the configured blogs and docs sites, as clean Markdown.

One round, per site (``spiders_config/blogs.yaml``, or ``-a url=...`` for one site ad hoc):

1. Discovery, cheapest first: robots.txt ``Sitemap:`` lines (else ``/sitemap.xml``), sitemap
   indexes and gzip sitemaps, configured and declared (``<link rel="alternate">``) RSS/Atom
   feeds; then the start pages, whose links are followed; and the links inside every page
   fetched, articles included, so each round finds what the last one linked to.
2. Each page is classified by what it is (``harvest.parsers.pagekind``: JSON-LD type, entry
   cards, headings and dates linking to other pages, link share): a listing (archives, tags,
   pagination, section and category indexes) is only followed, never stored, whatever its URL.
   A page that declares itself an article is one; a page that says neither is one on a docs
   site, and on a blog when a hint says so (``article_patterns``, a feed entry, a date under
   its title). ``exclude_patterns`` are never stored. Articles become ``DocumentItem``s written
   to ``data/blogs/<site>/<slug>.md``, titled and dated from the page's own declarations first
   (``harvest.parsers.pagemeta``), then the feed's and the sitemap's dates
   (``harvest.spiders.blogs_documents``).
3. Extraction (``harvest.parsers.article``) runs in a process pool (``harvest.extraction``) fed
   from the callbacks, with a bound on pages in flight: the crawl keeps fetching while the other
   cores extract, and when the pool falls behind the callbacks wait, which holds Scrapy's
   downloads (back-pressure).

Articles are requested with ``harvest_kind="document"`` and ``harvest_ttl`` = the site's
``article_revisit`` (skipped while fresh, revisited conditionally after); listings, feeds and
sitemaps with ``harvest_kind="listing"`` (refetched every round). ``harvest_site`` and
``harvest_via`` tell the safety middlewares which site's limits apply and where a URL came from.
Sites with ``render: true`` are fetched through a browser (``harvest.browser`` installs it); the
Playwright download handler is installed only when such a site is configured. A site with a
``refresh_interval`` is skipped while its last finished round is more recent than that
(``harvest.state.rounds``).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, TextResponse, XmlResponse
from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.settings import default_settings as scrapy_defaults
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.browser.install import install_browser, page_meta
from harvest.config import SpiderConfig
from harvest.config.blogs import BlogsArgs, BlogsConfig, SiteConfig
from harvest.exceptions import ConfigError
from harvest.meta import META_KIND, META_LIST, META_ORIGIN, META_SITE, META_TTL, META_VIA
from harvest.parsers.discovery import (
    UnsafeXml,
    extract_links,
    feed_links,
    maybe_gunzip,
    parse_feed,
    parse_sitemap,
    sitemaps_from_robots,
    sniff_xml,
)
from harvest.parsers.pagemeta import normalize_date
from harvest.spiders.base import HarvestSpider
from harvest.spiders.blogs_documents import Documents
from harvest.spiders.blogs_sites import Site, SiteBook
from harvest.state.partition import Partition
from harvest.state.rounds import SiteRounds, rounds_path
from harvest.state.seen import SeenSet, SeenUrls
from harvest.util.files import atomic_write_text

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from twisted.python.failure import Failure
    from typing_extensions import Self

    from harvest.browser.guard import BrowserGuard

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
#: Where a site's ``render: true`` comes from, for the error when no browser is found.
_CONFIG_FILE = "spiders_config/blogs.yaml"

# Scrapy's default middlewares for this spider (custom_settings below says which and why). The
# _BASE settings are replaced, not the project's DOWNLOADER_MIDDLEWARES / SPIDER_MIDDLEWARES,
# so harvest's own components and a user's -s additions still merge in.
_SCRAPY_DMW = "scrapy.downloadermiddlewares"
_DOWNLOADER_MIDDLEWARES_BASE = {
    (
        f"harvest.plumbing.lean.{path.rpartition('.')[2]}"
        if path
        in {
            f"{_SCRAPY_DMW}.redirect.MetaRefreshMiddleware",
            f"{_SCRAPY_DMW}.redirect.RedirectMiddleware",
            f"{_SCRAPY_DMW}.stats.DownloaderStats",
        }
        # Imported at the first cookie, as in harvest/settings.py.
        else "harvest.middlewares.cookies.LazyCookiesMiddleware"
        if path == f"{_SCRAPY_DMW}.cookies.CookiesMiddleware"
        else path
    ): order
    for path, order in scrapy_defaults.DOWNLOADER_MIDDLEWARES_BASE.items()
    if path != f"{_SCRAPY_DMW}.httpauth.HttpAuthMiddleware"
}
_UNUSED_SPIDER_MIDDLEWARES = frozenset(
    {"RefererMiddleware", "UrlLengthMiddleware", "MetaCopyDetectionMiddleware"}
)
_SPIDER_MIDDLEWARES_BASE = {
    path: order
    for path, order in scrapy_defaults.SPIDER_MIDDLEWARES_BASE.items()
    if path.rpartition(".")[2] not in _UNUSED_SPIDER_MIDDLEWARES
}


def _site_name_for(url: str) -> str:
    parts = urlsplit(url)
    return (parts.netloc or "site").lower()


#: Where a bad ``-a`` argument is reported.
_ARGUMENTS = "spider arguments of 'blogs'"


def _configured_sites(config: BlogsConfig, name: str | None, overrides: dict[str, Any]) -> list[SiteConfig]:
    """The configured sites (only the one named ``name`` if given), with ``overrides`` applied.

    Raises ValidationError when an override makes a site invalid.
    """
    sites = list(config.sites)
    if name:
        sites = [s for s in sites if s.name == name]
        if not sites:
            known = ", ".join(s.name for s in config.sites) or "(none configured)"
            raise ConfigError(_ARGUMENTS, [("-a site", f"no site named {name!r}; known: {known}")])
    sites = [s.model_copy(update=overrides) if overrides else s for s in sites]
    for s in sites:
        SiteConfig.model_validate(s.model_dump())
    return sites


class BlogsSpider(HarvestSpider):
    """Articles of blogs and documentation sites (see the module docstring)."""

    name = "blogs"
    config_model = BlogsConfig
    args_model = BlogsArgs
    argument_default = "url"
    #: The ad hoc site of ``-a url`` is built from it: its problems are the argument's.
    argument_fields: ClassVar[dict[str, str]] = {"start_urls": "-a url", "name": "-a url"}
    config: BlogsConfig
    #: The configured sites (built in from_crawler) and what pages yield.
    book: SiteBook
    documents: Documents
    #: Scrapy's offsite middleware: every site's hosts.
    allowed_domains: list[str]
    #: SiteRightsMiddleware applies: sites' opt-out signals are recorded per document.
    collects_rights: ClassVar[bool] = True
    custom_settings = {
        # This spider crawls hosts nobody vetted: private-address and trap guards on.
        "HARVEST_SAFETY_ENABLED": True,
        # With the asyncio reactor Scrapy starts CONCURRENT_ITEMS tasks per response to consume
        # its callback's output (100 by default: ~1.5 ms of CPU a page). A page here yields ~10
        # requests and at most one item, handled synchronously: a few workers are plenty.
        "CONCURRENT_ITEMS": 4,
        # Every enabled middleware costs per request or response (profiled, BENCHMARKS.md).
        # Scrapy's defaults minus what does nothing for this spider: HTTP auth (no credentials
        # here), Referer headers (no site needs them), the URL length limit (the trap guard
        # applies HARVEST_SAFETY_MAX_URL_LENGTH) and the meta-copy detector (a development
        # aid); meta refresh and downloader stats replaced by cheaper equivalents.
        "DOWNLOADER_MIDDLEWARES_BASE": _DOWNLOADER_MIDDLEWARES_BASE,
        "SPIDER_MIDDLEWARES_BASE": _SPIDER_MIDDLEWARES_BASE,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # URLs requested in this round: in a seen set (bounded memory, harvest/state/seen.py),
        # the crawl process's once the crawler is known.
        self._requested = SeenUrls(SeenSet(None), b"requested")
        self._links_capped_sites: set[str] = set()
        self._max_depth = 0
        self._max_links = 0
        #: Sites this round crawls (those not skipped as fresh); recorded when it finishes.
        self._crawled_sites: list[str] = []
        #: The private-address proxy of the browser (sites that render, guard on); the safety
        #: middleware serves it for the crawl.
        self.browser_guard: BrowserGuard | None = None

    # --- configuration --------------------------------------------------------------------
    @classmethod
    def fold_args(cls, config: SpiderConfig, args: BlogsArgs) -> SpiderConfig:
        """``-a url=`` (one ad hoc site), ``-a site=NAME``, and ``render``/``source``/``max_pages``."""
        assert isinstance(config, BlogsConfig)
        overrides = args.given("render", "max_pages", "source")
        if args.url and args.site:
            raise ConfigError(_ARGUMENTS, [("-a url / -a site", "give one of them, not both")])
        if args.url:
            sites = [SiteConfig(name=_site_name_for(args.url), start_urls=[args.url], **overrides)]
        else:
            sites = _configured_sites(config, args.site, overrides)
        if not sites:
            raise ConfigError(
                _ARGUMENTS, "no sites to crawl: add sites to spiders_config/blogs.yaml or pass -a url=URL"
            )
        return config.model_copy(update={"sites": sites})

    @classmethod
    def cpu_bound(cls, settings: BaseSettings, config: SpiderConfig) -> bool:
        """Extraction off or inline and no site rendered: parsing is the crawl process's own work.

        With the extraction pool, its workers already use every core (the crawl process is not
        the bottleneck: 0.94x of the two-core limit with one, BENCHMARKS.md), and each crawl
        process of a rendered site would start a browser of its own.
        """
        assert isinstance(config, BlogsConfig)
        return settings.get("HARVEST_BLOGS_EXTRACTION", "pool") != "pool" and not any(
            site.render for site in config.sites
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Build the spider; install the browser download handler only if a site renders."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider._requested = SeenUrls(SeenSet.from_crawler(crawler), b"requested")
        spider.book = SiteBook(spider.config)
        spider.allowed_domains = spider.book.domains()
        spider.allowed_private_hosts = spider.book.private_hosts
        spider.site_limits = spider.book.limits
        rendered = [site.name for site in spider.config.sites if site.render]
        if rendered:
            spider.browser_guard = install_browser(crawler.settings, rendered, _CONFIG_FILE)
            for site in spider.book.sites:
                if site.config.render:
                    site.render_meta = page_meta(crawler.settings)
        s = crawler.settings
        spider.documents = Documents.from_crawler(crawler, spider.name)
        spider.writes_text = not spider.documents.raw_pages
        # Read once: a settings lookup per page adds up over a crawl.
        spider._max_depth = s.getint("HARVEST_SAFETY_MAX_DEPTH")
        spider._max_links = s.getint("HARVEST_SAFETY_MAX_LINKS_PER_PAGE")
        return spider

    # --- rounds ---------------------------------------------------------------------------
    def _rounds(self) -> SiteRounds:
        """The sites' last finished rounds, as stored now (another round may have ended since)."""
        # Each worker of a partitioned crawl keeps its own file next to its own state: they all
        # end a round together (the hand-off waits for every worker), so they agree on it.
        state_name = Partition.from_settings(self.settings).state_name(self.name)
        return SiteRounds.load(rounds_path(self.settings.get("HARVEST_DATA_DIR"), state_name))

    def _due_sites(self) -> list[Site]:
        """Sites whose own ``refresh_interval`` has passed (all of them when chosen by -a)."""
        if "url" in self.spider_arguments or "site" in self.spider_arguments:
            self._crawled_sites = [s.name for s in self.book.sites]
            return list(self.book.sites)
        due, fresh = self.book.due(self._rounds(), time.time())
        if fresh:
            self.crawler.stats.inc_value(f"{_STATS}/site_skipped_fresh", fresh)
        self._crawled_sites = [s.name for s in due]
        return due

    async def closed(self, reason: str) -> None:
        """Stop extraction workers; remember when each site completed a round."""
        await self.documents.close()
        if reason != "finished":
            return
        rounds = self._rounds()
        rounds.record(self._crawled_sites, time.time())
        rounds.save(atomic_write_text)

    # --- requests -------------------------------------------------------------------------
    def _request(
        self,
        url: str,
        site: Site,
        *,
        via: str,
        callback: Any,
        kind: str = "listing",
        priority: int = 0,
        meta: dict[str, Any] | None = None,
    ) -> scrapy.Request | None:
        """A request for ``url`` unless this round requested it already."""
        if self._requested.seen_or_add(url):
            return None
        full_meta: dict[str, Any] = {META_SITE: site.name, META_VIA: via, META_KIND: kind}
        if kind == "document":
            full_meta[META_TTL] = site.config.article_revisit
        if callback == self.parse_page and site.render_meta:
            full_meta.update(site.render_meta)
        full_meta.update(meta or {})
        try:
            request = scrapy.Request(
                url, callback=callback, errback=self.on_error, priority=priority, meta=full_meta
            )
        except ValueError as exc:
            # w3lib refuses what urlsplit let through ("http://host:4000." in a page's text): one
            # odd link must not be a spider error that loses the page holding it.
            logger.debug("Not a URL: %s (%s)", url, exc)
            self.crawler.stats.inc_value(f"{_STATS}/bad_url")
            return None
        self.crawler.stats.inc_value(f"{_STATS}/discovered/{via}")
        return request

    def handed_in(self, request: Any) -> None:
        """Requested here now: a page of this worker linking to it builds no request."""
        self._requested.add(request.url)

    def _page_request(self, url: str, site: Site, *, via: str, listed: bool = False) -> scrapy.Request | None:
        """A request for an HTML page, typed as document or listing by what we know of it."""
        article = site.article_url(url) or (via == "feed" and not site.excluded(url))
        priority = _PRIO_LISTED if listed else (_PRIO_ARTICLE_LINK if article else _PRIO_LINK)
        return self._request(
            url,
            site,
            via=via,
            callback=self.parse_page,
            kind="document" if article else "listing",
            priority=priority,
        )

    def site_pace(self, url: str) -> tuple[str, float | None, int | None] | None:
        """(site, download_delay, concurrency) of the site ``url`` is in (harvest.middlewares.pace)."""
        return self.book.pace(url)

    async def start(self) -> AsyncIterator[Any]:
        """Per site: robots.txt, configured sitemaps and feeds, then the start pages."""
        for site in self._due_sites():
            cfg = site.config
            origins = dict.fromkeys(
                f"{p.scheme}://{p.netloc}" for p in (urlsplit(u) for u in cfg.seed_urls())
            )
            for origin in origins:
                request = self._request(
                    f"{origin}/robots.txt",
                    site,
                    via="robots",
                    callback=self.parse_robots,
                    priority=_PRIO_LISTS,
                    meta={META_ORIGIN: origin, META_LIST: True},
                )
                if request is not None:
                    request = request.replace(errback=self.on_robots_error)
                    yield request
            for url in cfg.sitemaps:
                if (request := self._xml_request(url, site, "sitemap")) is not None:
                    yield request
            for url in cfg.feeds:
                if (request := self._xml_request(url, site, "feed")) is not None:
                    yield request
            for url in cfg.start_urls:
                request = self._request(url, site, via="seed", callback=self.parse_page, priority=_PRIO_SEED)
                if request is not None:
                    yield request

    def _xml_request(self, url: str, site: Site, via: str) -> scrapy.Request | None:
        return self._request(
            url,
            site,
            via=via,
            callback=self.parse_xml,
            priority=_PRIO_LISTS,
            meta={
                "download_maxsize": self.settings.getint("HARVEST_BLOGS_MAX_SITEMAP_BYTES"),
                META_LIST: True,
            },
        )

    # --- callbacks ------------------------------------------------------------------------
    def parse_robots(self, response: TextResponse) -> Iterator[scrapy.Request]:
        """Sitemaps named by robots.txt; ``/sitemap.xml`` when it names none."""
        site = self.book.of(response)
        if isinstance(response, TextResponse):
            text = response.text
        else:
            text = response.body.decode("utf-8", "replace")
        found = False
        for url in sitemaps_from_robots(text, response.url):
            if self.book.in_scope(url, site) is None:
                continue
            found = True
            if (request := self._xml_request(url, site, "sitemap")) is not None:
                yield request
        if not found and not site.config.sitemaps:
            yield from self._guess_sitemap(response.meta.get(META_ORIGIN, response.url), site)

    def on_robots_error(self, failure: Failure) -> Iterator[scrapy.Request]:
        """No robots.txt: try ``/sitemap.xml`` anyway."""
        request = failure.request  # type: ignore[attr-defined]
        site = self.book.of(request)
        if not site.config.sitemaps:
            yield from self._guess_sitemap(request.meta.get(META_ORIGIN, request.url), site)

    def _guess_sitemap(self, origin: str, site: Site) -> Iterator[scrapy.Request]:
        parts = urlsplit(origin)
        request = self._xml_request(f"{parts.scheme}://{parts.netloc}/sitemap.xml", site, "sitemap")
        if request is not None:
            yield request

    def parse_xml(self, response: scrapy.http.Response) -> Iterator[scrapy.Request]:
        """A sitemap, sitemap index or feed (sniffed from the body, not trusted from the URL)."""
        site = self.book.of(response)
        stats = self.crawler.stats
        try:
            body = maybe_gunzip(response.body, self.settings.getint("HARVEST_BLOGS_MAX_SITEMAP_BYTES"))
        except ValueError as exc:
            logger.warning("Unreadable %s: %s", response.url, exc)
            stats.inc_value(f"{_STATS}/xml_unreadable")
            return
        kind = sniff_xml(body)
        if kind in {"feed", "urlset", "sitemapindex"}:
            try:
                if kind == "feed":
                    requests = list(self._feed_requests(body, response.url, site))
                else:
                    requests = list(self._sitemap_requests(body, response.url, site))
            except UnsafeXml as exc:
                # An entity bomb or XXE: one line, counted, and nothing of it read.
                logger.warning("Refused %s: %s; nothing of it is read", response.url, exc)
                stats.inc_value(f"{_STATS}/xml_refused")
                return
            stats.inc_value(f"{_STATS}/{'feeds' if kind == 'feed' else 'sitemaps'}")
            yield from requests
        elif isinstance(response, HtmlResponse):
            yield from self._follow(response, site)
        else:
            logger.debug("%s is neither a feed nor a sitemap; ignored", response.url)
            stats.inc_value(f"{_STATS}/xml_other")

    def _feed_requests(self, body: bytes, url: str, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the entries of the feed ``body`` (fetched from ``url``) that are in scope."""
        for entry in parse_feed(body, url):
            entry_site = self.book.in_scope(entry.url, site)
            if entry_site is None:
                continue
            self.documents.listed.feed_dates[entry.url] = normalize_date(entry.published)
            request = self._page_request(entry.url, entry_site, via="feed", listed=True)
            if request is not None:
                yield request

    def _sitemap_requests(self, body: bytes, url: str, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the URLs in scope of a sitemap (pages) or sitemap index (sitemaps)."""
        sitemap = parse_sitemap(body, url)
        for listed in sitemap.urls:
            if (url_site := self.book.in_scope(listed, site)) is None:
                continue
            if (lastmod := normalize_date(sitemap.lastmod.get(listed))) is not None:
                self.documents.listed.sitemap_dates[listed] = lastmod
            if sitemap.kind == "sitemapindex":
                request = self._xml_request(listed, url_site, "sitemap")
            else:
                request = self._page_request(listed, url_site, via="sitemap", listed=True)
            if request is not None:
                yield request

    async def parse_page(self, response: scrapy.http.Response) -> AsyncIterator[Any]:
        """Follow the page's links; if it is an article, extract it and yield a DocumentItem."""
        site = self.book.of(response)
        if (ungzipped := self.documents.ungzipped(response)) is None:
            return
        response = ungzipped
        if isinstance(response, XmlResponse) or not isinstance(response, TextResponse):
            for request in self.parse_xml(response):
                yield request
            return
        response = self.documents.recoded(response)
        if not isinstance(response, HtmlResponse) and b"<html" not in response.body[:2048].lower():
            self.crawler.stats.inc_value(f"{_STATS}/not_html")
            return
        for request in self._follow(response, site):
            yield request
        html = response.text
        if self.documents.raw_pages:
            yield Documents.page_item(response, site, html)
        if (page := self.documents.article_page(response, site, html)) is None:
            self.crawler.stats.inc_value(f"{_STATS}/listing_pages")
            return
        self.crawler.stats.inc_value(f"{_STATS}/article_pages")
        item = await self.documents.document(response, site, html)
        if item is not None:
            self.documents.declared_metadata(item, page)
            yield item

    def _follow(self, response: TextResponse, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the feeds a page declares and the links it holds, within depth and scope."""
        max_depth = site.config.max_depth
        if max_depth is None:
            max_depth = self._max_depth
        if max_depth and int(response.meta.get("depth") or 0) + 1 > max_depth:
            return
        html = response.text
        yield from self._declared_feed_requests(html, response.url, site)
        yield from self._link_requests(html, response.url, site)

    def _declared_feed_requests(self, html: str, url: str, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the feeds the page declares (``<link rel="alternate">``) that are in scope."""
        for feed_url in feed_links(html, url):
            if (url_site := self.book.in_scope(feed_url, site)) is not None:
                if (request := self._xml_request(feed_url, url_site, "feed")) is not None:
                    yield request

    def _link_requests(self, html: str, url: str, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the new in-scope links of a page, up to HARVEST_SAFETY_MAX_LINKS_PER_PAGE."""
        max_links = self._max_links
        new_links = 0
        links = extract_links(html, url)
        # One question for the page's links: most were found on earlier pages.
        requested = self._requested.seen_many(links)
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
            return self._xml_request(url, site, "link")
        if os.path.splitext(path)[1] in _SKIP_EXTENSIONS:
            return None
        return self._page_request(url, site, via="link")

    def _links_capped(self, url: str, site: Site, max_links: int) -> None:
        self.documents.listed.capped_pages.add(url)
        # A page linking to more new pages than any index does is a link farm or a generated
        # trap: every link would cost a scheduled, persisted request (the frontier would balloon).
        self.crawler.stats.inc_value("harvest/safety/links_per_page")
        level = logging.DEBUG if site.name in self._links_capped_sites else logging.WARNING
        self._links_capped_sites.add(site.name)
        logger.log(
            level,
            "Not following the links of %s past the first %d new ones (HARVEST_SAFETY_MAX_LINKS_PER_PAGE)",
            url,
            max_links,
        )

    def on_error(self, failure: Failure) -> None:
        """Failed downloads: counted, and logged once with the URL.

        Refusals (safety guards, fresh documents, robots.txt) are logged where they are made,
        and a request RetryMiddleware gave up on was logged by it ("Gave up retrying"): both are
        only counted here.
        """
        request = getattr(failure, "request", None)
        url = getattr(request, "url", "?")
        meta = getattr(request, "meta", {})
        stats = self.crawler.stats
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            redirects = meta.get("redirect_times", 0)
            max_redirects = self.settings.getint("REDIRECT_MAX_TIMES")
            if redirects and (meta.get("redirect_ttl") == 0 or redirects >= max_redirects):
                # RedirectMiddleware says so only at DEBUG, and names the last hop only.
                stats.inc_value(f"{_STATS}/failed/too_many_redirects")
                first = (meta.get("redirect_urls") or [url])[0]
                logger.warning("Gave up on %s after %d redirects (the last to %s)", first, redirects, url)
                return
            stats.inc_value(f"{_STATS}/ignored")
            logger.debug("Request not fetched: %s (%s)", url, failure.getErrorMessage())
            return
        kind = failure.type.__name__ if failure.type else "error"
        stats.inc_value(f"{_STATS}/failed/{kind}")
        if self.retry_gave_up(request):
            logger.debug("Request not fetched: %s (%s)", url, failure.getErrorMessage())
            return
        if isinstance(failure.value, HttpError):
            # A missing robots.txt or guessed /sitemap.xml is normal: not worth a line.
            level = logging.DEBUG if meta.get(META_LIST) else logging.INFO
            logger.log(level, "Not fetched: %s (HTTP %d)", url, failure.value.response.status)
        else:
            logger.warning("Not fetched: %s (%s: %s)", url, kind, failure.getErrorMessage())
