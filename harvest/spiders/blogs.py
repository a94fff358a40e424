"""The ``blogs`` spider: every article of the configured blogs and docs sites, as clean Markdown.

One round, per site (``spiders_config/blogs.yaml``, or ``-a url=...`` for one site ad hoc):

1. Discovery, cheapest first: robots.txt ``Sitemap:`` lines (else the conventional places:
   ``/sitemap.xml``, ``/sitemap-index.xml``, ``/sitemap_index.xml``, ``/wp-sitemap.xml``),
   sitemap indexes and gzip sitemaps, configured and declared (``<link rel="alternate">``) RSS/Atom
   feeds and declared sitemaps (``<link rel="sitemap">``), the conventional feed paths when a
   start page declares no feed (``/feed.xml``, ``/rss.xml``, ``/atom.xml``, ``/index.xml``,
   ``/feed/``); then the start pages, whose links are followed; and the links inside every page
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
``harvest_via`` tell the safety middlewares which site's limits apply and where a URL came from
(the requests are built, and failed downloads counted, by :mod:`harvest.spiders.blogs_requests`).
Sites with ``render: true`` are fetched through a browser (``harvest.browser`` installs it); the
Playwright download handler is installed only when such a site is configured. A site with a
``refresh_interval`` is skipped while its last finished round is more recent than that
(``harvest.state.rounds``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

import scrapy
from scrapy.http import HtmlResponse, TextResponse, XmlResponse
from scrapy.settings import default_settings as scrapy_defaults

from harvest.browser.install import install_browser, page_meta
from harvest.config import SpiderConfig
from harvest.config.blogs import BlogsArgs, BlogsConfig, SiteConfig
from harvest.exceptions import ConfigError
from harvest.meta import META_ORIGIN
from harvest.parsers.discovery import (
    CONVENTIONAL_SITEMAPS,
    UnsafeXml,
    maybe_gunzip,
    parse_feed,
    parse_sitemap,
    sitemaps_from_robots,
    sniff_xml,
)
from harvest.parsers.pagemeta import normalize_date
from harvest.spiders.base import HarvestSpider
from harvest.spiders.blogs_documents import Documents
from harvest.spiders.blogs_requests import Requests
from harvest.spiders.blogs_sites import Site, SiteBook
from harvest.state.partition import Partition
from harvest.state.rounds import SiteRounds, rounds_path
from harvest.util.files import atomic_write_text

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from twisted.python.failure import Failure
    from typing_extensions import Self

    from harvest.browser.guard import BrowserGuard

logger = logging.getLogger(__name__)

_STATS = "harvest/blogs"
#: Robots directives that keep a page out of the output, and its links unfollowed ("none" is both).
_NOINDEX = frozenset({"noindex", "none"})
_NOFOLLOW = frozenset({"nofollow", "none"})
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
    #: The configured sites, what pages yield and the round's requests (built in from_crawler).
    book: SiteBook
    documents: Documents
    requests: Requests
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
        spider.documents = Documents.from_crawler(crawler, spider.name)
        spider.writes_text = not spider.documents.raw_pages
        spider.detects_language = spider.documents.detects_language
        spider.requests = Requests.from_crawler(crawler, spider, spider.book, spider.documents.listed)
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
        """Stop extraction workers; say which sites need a browser; remember completed rounds."""
        await self.documents.close()
        self.documents.shells.report()
        if reason != "finished":
            return
        rounds = self._rounds()
        rounds.record(self._crawled_sites, time.time())
        rounds.save(atomic_write_text)

    # --- requests -------------------------------------------------------------------------
    def handed_in(self, request: Any) -> None:
        """Requested here now: a page of this worker linking to it builds no request."""
        self.requests.requested.add(request.url)

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
                if (request := self.requests.robots(origin, site)) is not None:
                    yield request
            for url in cfg.sitemaps:
                if (request := self.requests.xml(url, site, "sitemap")) is not None:
                    yield request
            for url in cfg.feeds:
                if (request := self.requests.xml(url, site, "feed")) is not None:
                    yield request
            for url in cfg.start_urls:
                if (request := self.requests.seed(url, site)) is not None:
                    yield request

    # --- callbacks ------------------------------------------------------------------------
    def parse_robots(self, response: TextResponse) -> Iterator[scrapy.Request]:
        """Sitemaps named by robots.txt; the conventional places when it names none."""
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
            if (request := self.requests.xml(url, site, "sitemap")) is not None:
                yield request
        if not found and not site.config.sitemaps:
            yield from self._guess_sitemap(response.meta.get(META_ORIGIN, response.url), site)

    def on_robots_error(self, failure: Failure) -> Iterator[scrapy.Request]:
        """No robots.txt: try the conventional places anyway."""
        request = failure.request  # type: ignore[attr-defined]
        site = self.book.of(request)
        if not site.config.sitemaps:
            yield from self._guess_sitemap(request.meta.get(META_ORIGIN, request.url), site)

    def _guess_sitemap(self, origin: str, site: Site) -> Iterator[scrapy.Request]:
        parts = urlsplit(origin)
        for path in CONVENTIONAL_SITEMAPS:
            request = self.requests.xml(f"{parts.scheme}://{parts.netloc}{path}", site, "sitemap")
            if request is not None:
                yield request

    def parse_xml(self, response: scrapy.http.Response) -> Iterator[scrapy.Request]:
        """A sitemap, sitemap index or feed (sniffed from the body, not trusted from the URL)."""
        site = self.book.of(response)
        stats = self.crawler.stats
        try:
            body = maybe_gunzip(response.body, self.requests.max_sitemap_bytes)
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
            yield from self.requests.follow(response, site)
        else:
            logger.debug("%s is neither a feed nor a sitemap; ignored", response.url)
            stats.inc_value(f"{_STATS}/xml_other")

    def _feed_requests(self, body: bytes, url: str, site: Site) -> Iterator[scrapy.Request]:
        """Requests for the entries of the feed ``body`` (fetched from ``url``) that are in scope."""
        for entry in parse_feed(body, url):
            entry_site = self.book.in_scope(entry.url, site)
            if entry_site is None:
                continue
            listed = self.documents.listed
            listed.feed_dates[entry.url] = normalize_date(entry.published)
            if entry.author:
                listed.feed_authors[entry.url] = entry.author
            again = listed.hinted_now(entry.url)
            if again:
                # Judged before this feed named it: the feed is the hint it lacked.
                self.crawler.stats.inc_value(f"{_STATS}/asked_again_after_feed")
            request = self.requests.page(entry.url, entry_site, via="feed", listed=True, again=again)
            if request is not None:
                yield request

    def _dated_again(self, site: Site) -> Iterator[scrapy.Request]:
        """Requests again for the pages judged unhinted that the listing just judged dates.

        The listing's links were followed before it was judged: a page it links may have been
        fetched and judged without the date it shows (:meth:`Documents._entry_dates`).
        """
        listed = self.documents.listed
        urls, listed.dated_again = listed.dated_again, []
        for url in urls:
            if (url_site := self.book.in_scope(url, site)) is None:
                continue
            self.crawler.stats.inc_value(f"{_STATS}/asked_again_after_listing")
            request = self.requests.page(url, url_site, via="link", listed=True, again=True)
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
                request = self.requests.xml(listed, url_site, "sitemap")
            else:
                request = self.requests.page(listed, url_site, via="sitemap", listed=True)
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
        html = response.text
        robots = self.documents.robots(response, html)
        if robots.isdisjoint(_NOFOLLOW):
            for request in self.requests.follow(response, site):
                yield request
        else:
            self.crawler.stats.inc_value(f"{_STATS}/nofollow_pages")
        if self.documents.raw_pages:
            yield Documents.page_item(response, site, html)
        if not robots.isdisjoint(_NOINDEX):
            # The page asks to be left out of indexes (MediaWiki's special pages: lists of
            # links, recent changes): no article of the site's.
            logger.debug("%s declares %s: not stored", response.url, ", ".join(sorted(robots & _NOINDEX)))
            self.crawler.stats.inc_value(f"{_STATS}/noindex_pages")
            return
        page = self.documents.article_page(response, site, html)
        for request in self._dated_again(site):  # no ``yield from`` in an async generator
            yield request
        if page is None or page.shell:
            return  # counted by Documents with its reason (a listing, the home page, a shell...)
        self.crawler.stats.inc_value(f"{_STATS}/article_pages")
        item = await self.documents.document(response, site, html)
        if item is not None:
            self.documents.declared_metadata(item, page)
            yield item

    def on_error(self, failure: Failure) -> None:
        """Failed downloads: counted, and logged once with the URL (:meth:`Requests.failed`)."""
        self.requests.failed(failure)
