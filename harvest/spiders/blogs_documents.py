"""The blogs spider's documents: what a fetched page yields, and the repairs it needs first.

The spider decides what to fetch; :class:`Documents` turns a page into items: the extraction
pool (``HARVEST_BLOGS_EXTRACTION``), a page gzipped once more than its headers say, a body
whose charset was misdeclared, the article test, the DocumentItem or PageItem and its rights.

The article test reads what the page is (``harvest.parsers.pagekind``): a listing is never
stored, whatever its URL. Titles and dates come from the page's own declarations first
(``harvest.parsers.pagemeta``), then the date of the feed entry that listed the page, the
sitemap's ``lastmod``, and last the extractor's guess (dates in the text, the URL's folders).
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.http import HtmlResponse, TextResponse

from harvest.config.settings_model import CHOICES, retired_value
from harvest.exceptions import ConfigError
from harvest.extraction import ExtractionPool
from harvest.extraction import pool as extraction_pool
from harvest.extraction.result import Extracted
from harvest.fingerprints import content_hash, utc_now
from harvest.items import DocumentItem, PageItem
from harvest.meta import META_RIGHTS_SITE, META_VIA
from harvest.parsers.article import Article
from harvest.parsers.charset import misdeclared_encoding
from harvest.parsers.datelines import shown_date
from harvest.parsers.discovery import maybe_gunzip, robots_meta
from harvest.parsers.pagekind import PageKind, classify_tree, parse_html
from harvest.parsers.pagemeta import declared_date, declared_title, generic_date, normalize_date
from harvest.parsers.rights import Rights, TdmRule, agent_token, combine, robots_directives
from harvest.spiders.blogs_shells import ScriptShells
from harvest.spiders.blogs_sites import Site, article_slug, home_page
from harvest.state.seen import SeenSet, SeenUrls
from harvest.util.paths import safe_name
from harvest.util.urls import join_url, url_host

if TYPE_CHECKING:
    import scrapy
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

_STATS = "harvest/blogs"
#: Pages larger than this are not parsed in the crawl process to be classified (their hints decide):
#: an lxml tree takes ~10x the text, and the crawl process's memory is bounded (GUARANTEES.md).
_CLASSIFY_MAX_CHARS = 2_000_000


#: An ISO day inside an entry's line.
_ISO_DAY_RE = re.compile(r"(?<!\d)(?:19|20)\d\d-[01]\d-[0-3]\d(?!\d)")


@dataclass
class PageFacts:
    """What a page declares about itself, read once in the crawl process."""

    title: str | None
    published: str | None
    kind: PageKind = field(default_factory=lambda: PageKind("unknown", "not read"))
    #: An app's shell on a site not rendered: no text to store (counted, said at the end).
    shell: bool = False
    #: The date of the page's plain ``<meta name="date">`` (:func:`pagemeta.generic_date`).
    generic_date: str | None = None


@dataclass
class Listed:
    """What the round learned of pages from the lists that named them."""

    #: The date each feed entry gives its page (a fallback after the page's own).
    feed_dates: dict[str, str | None] = field(default_factory=dict)
    #: The author each feed entry names, when it names one (after the page's own byline).
    feed_authors: dict[str, str] = field(default_factory=dict)
    #: Each sitemap URL's ``lastmod`` (after the feed's date).
    sitemap_dates: dict[str, str] = field(default_factory=dict)
    #: The date a listing page shows beside a page's link (after the page's own and the
    #: feed's: ikiwiki's posts show only an edit date, in C's asctime, their archives the post's).
    listing_dates: dict[str, str] = field(default_factory=dict)
    #: Pages whose links were cut at HARVEST_SAFETY_MAX_LINKS_PER_PAGE, until they are judged.
    capped_pages: set[str] = field(default_factory=set)
    #: Pages fetched before any feed named them and not kept for want of a hint (no article
    #: signal, no article URL, no date): asked for again if a feed or listing read later names
    #: them. At most ``UNHINTED_MAX``; past it, such a page waits for the next round, as before.
    unhinted: set[str] = field(default_factory=set)
    #: Pages of ``unhinted`` that a listing judged since dated beside their links: the hint
    #: they lacked. The spider asks for them again once, as soon as that listing is judged.
    dated_again: list[str] = field(default_factory=list)
    #: The plain ``<meta name="date">`` of each site's home page, by host: a date every page of
    #: the site carries is the site's (a book's), not a page's own.
    site_dates: dict[str, str] = field(default_factory=dict)

    def hinted_now(self, url: str) -> bool:
        """Whether ``url`` was judged unhinted; it leaves ``unhinted``, to be asked for once more."""
        if url not in self.unhinted:
            return False
        self.unhinted.discard(url)
        return True


#: Enough for every unsignalled page of the first moments of a large site's round (a feed is
#: read within its first requests); bounded, so a site of only such pages cannot grow it.
UNHINTED_MAX = 10_000


def _robots_headers(response: scrapy.http.Response) -> list[str]:
    """The response's ``X-Robots-Tag`` values (HTTP headers are Latin-1)."""
    return [v.decode("latin-1") for v in response.headers.getlist("X-Robots-Tag")]


#: Pages dated by a listing, at most (a date is ~100 bytes with its URL: 10 MB).
LISTING_DATES_MAX = 100_000


class Documents:
    """What the blogs spider's pages yield: articles as DocumentItems, or pages as fetched."""

    def __init__(
        self,
        extractor: ExtractionPool | None,
        crawler: Crawler,
        *,
        raw_pages: bool,
        agent: str,
        max_page_bytes: int,
        obey_robots_meta: bool = True,
    ) -> None:
        #: The extraction pool (None with extraction off).
        self.extractor = extractor
        # The crawler, not its stats: Scrapy sets those once the crawl starts, after the spider.
        self.crawler = crawler
        #: Extraction off: every HTML page is written as fetched (a PageItem in page.jsonl).
        self.raw_pages = raw_pages
        #: This crawler's token in robots.txt and TDMRep rules.
        self.agent = agent
        self.max_page_bytes = max_page_bytes
        #: A page's noindex keeps it out of the output; its nofollow keeps its links unfollowed.
        self.obey_robots_meta = obey_robots_meta
        #: URLs an article was stored under this round (the same article under two URLs once),
        #: in the crawl process's seen set (bounded memory, harvest/state/seen.py).
        self._stored = SeenUrls(SeenSet.from_crawler(crawler), b"stored")
        self.listed = Listed()
        #: Pages that show no text without JavaScript, per site (said at the crawl's end).
        self.shells = ScriptShells()

    def robots(self, response: TextResponse, html: str) -> set[str]:
        """The robots directives the page gives harvest (``<meta name="robots">``, X-Robots-Tag).

        Empty when ``HARVEST_BLOGS_OBEY_ROBOTS_META`` is off.
        """
        if not self.obey_robots_meta:
            return set()
        values = robots_meta(html, self.agent)
        values += _robots_headers(response)
        return set(robots_directives(values, self.agent)) if values else set()

    @property
    def detects_language(self) -> bool:
        """Whether documents come with their language, detected by the extraction workers."""
        return self.extractor is not None and self.extractor.mode == "pool" and self.extractor.language

    @classmethod
    def from_crawler(cls, crawler: Crawler, spider: str) -> Documents:
        """Documents as ``HARVEST_BLOGS_EXTRACTION`` says (ConfigError naming a bad value)."""
        settings = crawler.settings
        mode = settings.get("HARVEST_BLOGS_EXTRACTION", "pool")
        if mode not in CHOICES["HARVEST_BLOGS_EXTRACTION"]:
            raise ConfigError("HARVEST_BLOGS_EXTRACTION", f"expected pool, inline or off, got {mode!r}")
        extractor = None
        if mode != "off":
            extractor = ExtractionPool(
                mode,
                settings.getint("HARVEST_BLOGS_EXTRACT_WORKERS"),
                retired_value(settings, "HARVEST_BLOGS_EXTRACT_DEPTH", extraction_pool.DEPTH),
                retired_value(
                    settings, "HARVEST_BLOGS_EXTRACT_MAX_TASKS_PER_CHILD", extraction_pool.MAX_TASKS_PER_CHILD
                ),
                # The near-duplicate pipeline's signatures, computed by the workers.
                signatures=(settings.get("HARVEST_NEAR_DUP") or "off").strip().lower() != "off",
                # The language pipeline's detection, done by the workers.
                language=settings.getbool("HARVEST_LANGUAGE_DETECT"),
                nice=settings.getint("HARVEST_BLOGS_EXTRACT_NICE"),
            )
        return cls(
            extractor,
            crawler,
            raw_pages=mode == "off",
            agent=agent_token(settings.get("USER_AGENT") or spider),
            max_page_bytes=settings.getint("HARVEST_SAFETY_MAX_PAGE_BYTES")
            or settings.getint("DOWNLOAD_MAXSIZE"),
            obey_robots_meta=settings.getbool("HARVEST_BLOGS_OBEY_ROBOTS_META"),
        )

    async def close(self) -> None:
        """Stop the extraction workers."""
        if self.extractor is not None:
            await self.extractor.close()

    def _inc(self, key: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"{_STATS}/{key}")

    # --- repairs ---------------------------------------------------------------------------
    def ungzipped(self, response: scrapy.http.Response) -> scrapy.http.Response | None:
        """The response, its body gunzipped if gzip bytes came as HTML; None when unreadable."""
        if not (isinstance(response, HtmlResponse) and response.body.startswith(b"\x1f\x8b")):
            return response
        # Gzipped once more than Content-Encoding says (a misconfigured server): decoding it as
        # text would store binary junk as an article.
        try:
            body = maybe_gunzip(response.body, self.max_page_bytes)
        except ValueError as exc:
            logger.warning("Unreadable %s: %s", response.url, exc)
            self._inc("undecodable")
            return None
        return response.replace(body=body)

    def recoded(self, response: TextResponse) -> TextResponse:
        """The response read in the charset its bytes are in, when its header says otherwise."""
        if (legacy := misdeclared_encoding(response)) is None:
            return response
        # Header says UTF-8, bytes are Latin-1/Windows-1252: "Zürich", not "Z\ufffdrich".
        self._inc("misdeclared_charset")
        return response.replace(encoding=legacy)

    # --- items -----------------------------------------------------------------------------
    @staticmethod
    def page_item(response: TextResponse, site: Site, html: str) -> PageItem:
        """The page as fetched (extraction off)."""
        return PageItem(
            url=response.url,
            site=site.name,
            status=response.status,
            fetched_at=utc_now(),
            body_sha256=hashlib.sha256(response.body).hexdigest(),
            html=html,
        )

    def article_page(self, response: TextResponse, site: Site, html: str) -> PageFacts | None:
        """The page's facts if it is an article to store; None for a listing or a page to skip.

        What the page is comes from the page (:mod:`harvest.parsers.pagekind`): a listing is
        never stored, whatever its URL. A page that says neither is an article on a docs site,
        and on a blog when a hint says so: its URL matches ``article_patterns``, a feed listed
        it, a listing dated it, or it carries a date at the top of its content. With extraction off nothing is
        parsed here: the URL alone is counted. An app's shell (no text without JavaScript) of a
        site not rendered comes back with ``shell`` set: nothing to store.
        """
        url = response.url
        capped = url in self.listed.capped_pages
        self.listed.capped_pages.discard(url)
        if site.excluded(url):
            # Its URL says listing (a tag, an archive, a page of an index): followed, not stored.
            self._inc("listing_pages")
            self._inc("listing_by_url")
            return None
        if self.extractor is None:
            return PageFacts(None, None) if site.article_url(url) else self._skipped("unhinted_pages")
        # The home page is never an article, but read for one thing: whether the site is an
        # app whose pages show nothing without JavaScript (Docsify's only page is its home).
        home = home_page(url)
        if capped:
            # More new links than any index holds, a link farm and no article.
            return self._skipped("capped_pages")
        if home and site.config.render:
            return self._skipped("home_pages")
        if len(html) > _CLASSIFY_MAX_CHARS:
            if home:
                return self._skipped("home_pages")
            # A tree costs ~10x its text in the crawl process: a page this big is judged by its
            # beginning (the extraction worker still reads all of it). By its hints alone, Python's
            # 2.5 MB table of contents was stored as a document of link fragments.
            self._inc("classified_by_beginning")
            html = html[:_CLASSIFY_MAX_CHARS]
        tree = parse_html(html)
        if tree is None:
            return None
        # The head first: classification prunes the tree.
        facts = PageFacts(
            title=declared_title(tree), published=declared_date(tree), generic_date=generic_date(tree)
        )
        if home and facts.generic_date:
            self.listed.site_dates.setdefault(urlsplit(url).netloc, facts.generic_date)
        facts.kind = classify_tree(tree, url)
        if facts.kind.needs_script and not site.config.render:
            # Not stored (nothing to extract) and not a listing.
            self._inc("needs_script")
            self.shells.shell(site.name, url)
            facts.shell = True
            return facts
        if home:
            if facts.kind.kind == "listing":
                # The dates a home page shows beside its entries date them too (gitit's Front
                # Page, the start of the crawl: the only dates the wiki shows).
                self._entry_dates(url, facts.kind)
            return self._skipped("home_pages")
        return self._by_kind(response, site, facts)

    def _by_kind(self, response: TextResponse, site: Site, facts: PageFacts) -> PageFacts | None:
        """The facts of a page to store, by what it is and the hints it has; None if not one."""
        url, kind = response.url, facts.kind
        if kind.kind == "listing":
            logger.debug("%s is a listing (%s): followed, not stored", url, kind.reason)
            self._inc("listing_pages")
            self._inc("listing_by_content")
            self._entry_dates(url, kind)
            return None
        if kind.kind == "empty":
            logger.debug("%s has nothing to store (%s)", url, kind.reason)
            return self._skipped("empty_pages")
        if kind.kind == "article" or site.config.source == "docs":
            return facts
        # A listing that dated the page beside its link is a hint too (Fossil's timeline: its
        # technotes say nothing of what they are, and no feed names them).
        hinted = (
            site.article_url(url)
            or response.meta.get(META_VIA) == "feed"
            or url in self.listed.feed_dates
            or url in self.listed.listing_dates
            or kind.dated
        )
        if not hinted and len(self.listed.unhinted) < UNHINTED_MAX:
            self.listed.unhinted.add(url)
        return facts if hinted else self._skipped("unhinted_pages")

    def _skipped(self, why: str) -> PageFacts | None:
        """None, counted under ``why``: a page not stored that is no listing (the home page...)."""
        self._inc(why)
        return None

    def _entry_dates(self, url: str, kind: PageKind) -> None:
        """Keep the dates a listing shows beside its entries' links, for pages that show none.

        A page judged unhinted before this listing dated it goes to ``Listed.dated_again``.
        """
        dates = self.listed.listing_dates
        if len(dates) >= LISTING_DATES_MAX:
            return
        for target, shown in kind.entry_dates.items():
            day = normalize_date(shown) or shown_date(shown, None)
            if day is None and (iso := _ISO_DAY_RE.search(shown)) is not None:
                # The entry's line with its date in it: "Quick note (2023-06-01)" (gitit's Front Page).
                day = normalize_date(iso.group(0))
            if day is not None and (entry := join_url(url, target)) is not None:
                dates.setdefault(entry, day)
                if self.listed.hinted_now(entry):
                    # Judged before this listing dated it (Fossil's technotes, fetched before
                    # /timeline?y=e was read): asked for once more.
                    self.listed.dated_again.append(entry)

    def declared_metadata(self, item: DocumentItem, page: PageFacts) -> None:
        """Title, date and author from the page's own declarations first (see the module docstring)."""
        if page.title:
            item.title = page.title
        listed = self.listed
        if (
            item.published
            and item.published == page.generic_date
            and page.generic_date == listed.site_dates.get(urlsplit(item.url).netloc)
            and not page.kind.dated
        ):
            # The site's date (its home page's <meta name="date">, every page's), on a page that
            # shows no date of its own: bookdown's About and install chapters had the book's.
            item.published = None
        item.published = (
            page.published
            or listed.feed_dates.get(item.url)
            or listed.sitemap_dates.get(item.url)
            or (item.canonical_url and listed.sitemap_dates.get(item.canonical_url))
            or item.published
            or listed.listing_dates.get(item.url)
        )
        # The page's byline first: a feed names its site's owner as often as the post's author.
        item.author = item.author or listed.feed_authors.get(item.url)

    async def document(self, response: TextResponse, site: Site, html: str) -> DocumentItem | None:
        """The article's DocumentItem; None when extraction is off, fails or finds nothing new."""
        if self.extractor is None:
            return None
        try:
            extracted = await self.extractor.extract(html, response.url)
        except Exception:  # noqa: BLE001 - one bad page must not stop the crawl
            logger.warning("Extraction failed for %s", response.url, exc_info=True)
            self._inc("extract_failed")
            return None
        if extracted is None:
            logger.info("No main content found in %s; not stored", response.url)
            self._inc("empty_article")
            return None
        item = self._item(response.url, site, extracted)
        if item is not None:
            item.rights = self._rights(response, extracted.article)
        return item

    def _item(self, url: str, site: Site, extracted: Extracted) -> DocumentItem | None:
        article = extracted.article
        canonical = article.canonical_url or url
        canonical_host = url_host(canonical)
        named_by = canonical if site.in_scope(canonical_host) else url
        if self._stored.seen_or_add(named_by):
            # The same article reached under two URLs (with and without a slash, a redirect).
            self._inc("duplicate_url")
            return None
        self._inc("articles")
        self.shells.document(site.name)
        return DocumentItem(
            url=url,
            canonical_url=canonical,
            site=site.name,
            title=article.title,
            author=article.author,
            published=article.published,
            language_declared=article.language,
            path=f"{safe_name(site.name)}/{safe_name(article_slug(named_by))}.md",
            content_hash=extracted.content_hash or content_hash(article.markdown),
            fetched_at=utc_now(),
            source=site.config.source,
            content=article.markdown,
            minhash=article.minhash,
            # Detected by the extraction worker (None: too little text): the pipeline counts it.
            language=extracted.language,
            language_score=extracted.language_score,
            language_detected=extracted.language_detected,
        )

    def _rights(self, response: scrapy.http.Response, article: Article) -> Rights:
        """The document's opt-out and licence signals: headers, its HTML, the site's TDMRep."""
        site = response.meta.get(META_RIGHTS_SITE) or {}
        rule = None
        if site.get("tdm_reservation") is not None:
            rule = TdmRule(site["tdm_reservation"], site.get("tdm_policy"))

        def header(name: str) -> str | None:
            value = response.headers.get(name)
            return value.decode("latin-1") if value is not None else None

        return combine(
            agent=self.agent,
            headers_robots=_robots_headers(response),
            header_tdm_reservation=header("tdm-reservation"),
            header_tdm_policy=header("tdm-policy"),
            page=article.signals(),
            site_rule=rule,
            robots_txt=site.get("robots_txt"),
            base_url=response.url,
        )
