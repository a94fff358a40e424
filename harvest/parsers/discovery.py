"""Finding a site's pages, cheapest source first: robots.txt, sitemaps, feeds, then links.

Pure functions over bytes and text, so they are tested on saved real files. The formats are
read by libraries: Scrapy's own sitemap and robots.txt readers and gunzip, and feedparser.

- ``sitemaps_from_robots``: the ``Sitemap:`` lines of a robots.txt.
- ``parse_sitemap``: a sitemap (``urlset``), a sitemap index, gzip-compressed or not, or a
  plain-text sitemap (one URL a line).
- ``parse_feed``: the entries of an RSS 0.9x/1.0/2.0 or Atom feed, or a JSON Feed.
- ``sniff_xml``: which of those a fetched document is (a ``.xml`` link can be anything: player
  skins, configs), so a link is parsed as a feed or sitemap only when it is one.
- ``feed_links``: feeds a page declares with ``<link rel="alternate">``.
- ``sitemap_links``: sitemaps a page declares with ``<link rel="sitemap">``.
- ``extract_links``: every ``<a href>`` of a page, absolute, without fragments.

``feed_links`` and ``extract_links`` are hand-written scanners on purpose: they run on every
page in the crawl's main process, and a regular expression over the text is several times
cheaper than building a DOM. They are kept only because ``tests/parsers/test_discovery.py``
checks that they find exactly what lxml's DOM finds on every page of real sites; replace
them with lxml if that test cannot be kept.

No XML entity is ever expanded and nothing is fetched (no XXE, no billion laughs, no DTD
retrieval): before a feed or an XML sitemap is read, :func:`check_xml` runs defusedxml's parser
over its prolog (declaration, comments, DOCTYPE) up to the root element. A document that declares
an entity (internal or external, general or parameter) raises :class:`UnsafeXml`: no real feed or
sitemap declares one, and feedparser's expat would expand it. A DOCTYPE that only names an
external DTD (RSS 0.91's) is allowed, and never fetched: neither defusedxml, nor feedparser
(external entities off), nor Scrapy's sitemap reader (lxml with ``resolve_entities=False``,
no network, no huge trees) loads it. A text check for ``<!ENTITY`` is not enough: the root
element is where the parser says it is, not the first ``<rss>`` of the text (a comment can hold
one).
"""

from __future__ import annotations

import html as htmllib
import io
import json
import logging
import re
import struct
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urldefrag, urlsplit

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError
from lxml import etree
from scrapy.utils import sitemap as scrapy_sitemap
from scrapy.utils.gz import gunzip

from harvest.util.urls import join_url

logger = logging.getLogger(__name__)

XmlKind = Literal["feed", "urlset", "sitemapindex"]

#: Sitemaps may hold 50,000 URLs and 50 MB uncompressed (sitemaps.org); refuse more than that.
MAX_SITEMAP_BYTES = 50 * 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"
_LEADING_JUNK = b"\xef\xbb\xbf \t\r\n"  # a UTF-8 BOM and whitespace before the first tag
_HTTP = ("http://", "https://")

_ROOT_TAG_RE = re.compile(rb"<(?![?!])(?:[\w.-]+:)?([\w.-]+)[\s>/]")
_ROOT_KINDS: dict[bytes, XmlKind] = {
    b"feed": "feed",
    b"rss": "feed",
    b"RDF": "feed",
    b"urlset": "urlset",
    b"sitemapindex": "sitemapindex",
}
_JSON_FEED_VERSION = "https://jsonfeed.org/version/"
_ATTR = r"""(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"""
# Matched on the lower-cased page: a case-sensitive scan is twice as fast as re.I, and skipping
# a script or style block with str.find is several times faster than a lazy ``.*?`` over it.
_LINK_SCAN_RE = re.compile(r"<(?:(script|style)\b|(!--)|(a|base)\s[^>]*?\bhref\s*=\s*" + _ATTR + ")")
_BLOCK_END_RE = {"script": re.compile(r"</script\s*>"), "style": re.compile(r"</style\s*>")}
_LINK_TAG_RE = re.compile(r"<link\s[^>]*>", re.I)
_ATTR_RE = re.compile(r"""([\w:-]+)\s*=\s*""" + _ATTR)
_FEED_TYPES = frozenset(
    {"application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json"}
)
_SKIP_SCHEMES = ("javascript:", "mailto:", "tel:", "data:", "about:", "ftp:", "file:", "sms:")


@dataclass(frozen=True)
class FeedEntry:
    """One entry of a feed: the article's URL, and the title, date and author the feed gives it."""

    url: str
    title: str | None = None
    published: str | None = None
    author: str | None = None


@dataclass
class Sitemap:
    """A parsed sitemap: page URLs (``urlset``) or child sitemaps (``sitemapindex``)."""

    kind: Literal["urlset", "sitemapindex"]
    urls: list[str] = field(default_factory=list)
    lastmod: dict[str, str] = field(default_factory=dict)


class UnsafeXml(ValueError):
    """An XML document that declares entities (an entity bomb or XXE): refused, not read."""


class _RootReached(Exception):
    """The prolog is over: the parser met the root element."""


class _StopAtRoot:
    """A parser target that stops at the first start tag: only the prolog is parsed."""

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        raise _RootReached

    def end(self, tag: str) -> None:
        """Never reached: parsing stops at the first start tag."""

    def data(self, data: str) -> None:
        """Text before the root: nothing to keep."""

    def close(self) -> None:
        """Nothing to return."""


def check_xml(data: bytes) -> None:
    """Raise UnsafeXml if the XML document ``data`` declares any entity (see the module docstring).

    defusedxml's expat parser reads the prolog as XML is read (comments, processing instructions,
    the DOCTYPE and its internal subset) and stops at the root element, so it costs next to
    nothing whatever the document's size. A prolog that is not well-formed cannot be checked:
    it is refused if the text holds an entity declaration anywhere, and left to the readers
    otherwise (which tolerate broken feeds, and get no entity from it).
    """
    parser = DefusedXMLParser(
        target=_StopAtRoot(), forbid_dtd=False, forbid_entities=True, forbid_external=True
    )
    try:
        parser.feed(data)
    except _RootReached:
        return
    except DefusedXmlException as exc:
        raise UnsafeXml(f"it declares XML entities ({exc})") from None
    except ParseError as exc:
        if b"<!ENTITY" in data:
            raise UnsafeXml(f"it declares XML entities in a prolog that is not well-formed ({exc})") from None


def sitemaps_from_robots(text: str | bytes, base_url: str) -> list[str]:
    """Absolute URLs of the ``Sitemap:`` lines of a robots.txt (relative ones are resolved)."""
    # Scrapy reads bytes (its str form is deprecated); a line that is not UTF-8 is skipped.
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else text
    found = scrapy_sitemap.sitemap_urls_from_robots(raw, base_url)
    return list(dict.fromkeys(url for url in found if url.startswith(_HTTP)))


def maybe_gunzip(body: bytes, max_size: int = MAX_SITEMAP_BYTES) -> bytes:
    """``body`` decompressed if it is gzip data (``sitemap.xml.gz``), else unchanged.

    Raises ValueError past ``max_size`` decompressed bytes (a gzip bomb) or on corrupt data;
    a truncated or CRC-damaged stream gives what could be decompressed (Scrapy's gunzip).
    """
    if not body.startswith(_GZIP_MAGIC):
        return body
    try:
        return gunzip(body, max_size=max_size)
    except (OSError, EOFError, struct.error, zlib.error) as exc:
        raise ValueError(f"corrupt gzip data: {exc}") from None
    except ValueError:
        # Scrapy's size error class is private: any other ValueError here is the size limit.
        raise ValueError(f"gzip data inflates past {max_size} bytes") from None


def sniff_xml(body: bytes) -> XmlKind | None:
    """Whether ``body`` is a feed (XML or JSON Feed), a sitemap or a sitemap index."""
    head = body[:4096].lstrip(_LEADING_JUNK)
    if head.startswith(b"{"):
        return "feed" if _json_feed(body) is not None else None
    if not head.startswith(b"<"):
        return None
    # Skip the XML declaration, comments and doctype: the first real start tag is the root.
    for match in _ROOT_TAG_RE.finditer(head):
        return _ROOT_KINDS.get(match.group(1))
    return None


def parse_sitemap(body: bytes, base_url: str) -> Sitemap:
    """URLs of a sitemap or sitemap index (gzip or plain, XML or text); empty if unreadable.

    Raises UnsafeXml for an XML sitemap that declares entities, ValueError for a gzip bomb.
    """
    data = maybe_gunzip(body).lstrip(_LEADING_JUNK)
    if not data.startswith(b"<"):
        # A text sitemap: one absolute URL per line (sitemaps.org allows it; Scrapy does not).
        lines = data.decode("utf-8", "replace").splitlines()
        return Sitemap("urlset", [u.strip() for u in lines if u.strip().startswith(_HTTP)])
    check_xml(data)
    try:
        parsed = scrapy_sitemap.Sitemap(data)
    except (etree.XMLSyntaxError, StopIteration):
        return Sitemap("urlset")
    result = Sitemap("sitemapindex" if parsed.type == "sitemapindex" else "urlset")
    seen: set[str] = set()
    try:
        for entry in parsed:
            url = join_url(base_url, entry["loc"]) or ""
            if url in seen or not url.startswith(_HTTP):
                continue
            seen.add(url)
            result.urls.append(url)
            if entry.get("lastmod"):
                result.lastmod[url] = entry["lastmod"]
    except etree.XMLSyntaxError:
        # A sitemap cut short (download size limit): the URLs before the break still count.
        logger.debug("Sitemap %s is not well-formed past %d URLs", base_url, len(result.urls))
    if _build_dated(result.lastmod):
        result.lastmod.clear()
    return result


def _build_dated(lastmod: dict[str, str]) -> bool:
    """Whether a sitemap's ``lastmod`` dates are its build's: most of its pages on one day.

    MkDocs, Hexo and Nikola write the build's date on every URL, Eleventy and Octopress the
    deploy's on most: stored as each page's date, they dated every page of the site alike.
    """
    if len(lastmod) < BUILD_DATED_MIN_URLS:
        return False
    days = Counter(value.strip()[:10] for value in lastmod.values())
    return days.most_common(1)[0][1] >= BUILD_DATED_SHARE * len(lastmod)


#: URLs with a ``lastmod`` a sitemap must have for their dates to be judged together.
BUILD_DATED_MIN_URLS = 5
#: The share of them on one day past which that day is the build's (a site whose posts were all
#: written on one day is not a site of many posts).
BUILD_DATED_SHARE = 0.8


def parse_feed(body: bytes, base_url: str) -> list[FeedEntry]:
    """Entries of an RSS 0.9x/1.0/2.0 or Atom feed or a JSON Feed, in feed order; empty if unreadable.

    Raises UnsafeXml for a feed that declares entities, ValueError for a gzip bomb.
    """
    data = maybe_gunzip(body)
    json_feed = _json_feed(data)
    if json_feed is not None:
        return _json_feed_entries(json_feed, base_url)
    # feedparser's expat expands internal entities (megabytes, seconds of CPU before its
    # amplification limit): no real feed declares any, so a feed that does is not read.
    check_xml(data)
    # Imported at the first feed: ~20 ms and ~1.5 MB of every crawl process, and many docs
    # sites have none.
    import feedparser

    parsed = feedparser.parse(
        # A stream, never bytes: feedparser opens bytes that look like a path as a local file.
        io.BytesIO(data),
        response_headers={"content-location": base_url},
        # Only links, titles and dates are read: sanitizing and rewriting each entry's HTML
        # body would cost ~5x the parse.
        sanitize_html=False,
        resolve_relative_uris=False,
    )
    entries: list[FeedEntry] = []
    for entry in parsed.entries:
        # feedparser takes an RSS <guid> as the link only when it is a permalink.
        link = entry.get("link")
        if link:
            title = (entry.get("title") or "").strip() or None
            published = entry.get("published") or entry.get("updated")
            # dc:creator, Atom's author/name: feedparser's author_detail. RSS' "email (Name)" is
            # read here: feedparser's address pattern ends a domain at four letters, and
            # "ana@studio.photography (Ana Lima)" gave the name "ography (Ana Lima".
            raw = entry.get("author")
            rss = _RSS_AUTHOR_RE.match(raw) if isinstance(raw, str) else None
            author = rss.group(1) if rss else (entry.get("author_detail") or {}).get("name") or raw
            if (target := join_url(base_url, link.strip())) is not None:
                entries.append(FeedEntry(target, title, published, _person(author)))
    return entries


#: RSS 2.0's ``<author>``: an email address, then the name in parentheses.
_RSS_AUTHOR_RE = re.compile(r"^\s*[^\s@()]+@[^\s()]+\s+\(([^()]+)\)\s*$")


def _person(name: object) -> str | None:
    """A feed's author name, if it is one: not an email address, not a bare handle ("admin")."""
    if not isinstance(name, str):
        return None
    name = " ".join(name.split())
    if name.count("(") != name.count(")"):
        return None  # a piece of something else ("ple (Ana Lima")
    return name if " " in name and "@" not in name and len(name) <= _AUTHOR_CHARS else None


#: A feed's author field longer than this is not a name (a bio, a list of everyone).
_AUTHOR_CHARS = 80


def _json_feed(data: bytes) -> dict[str, Any] | None:
    """The decoded object if ``data`` is a JSON Feed (https://jsonfeed.org/version/1.1)."""
    if not data.lstrip(_LEADING_JUNK).startswith(b"{"):
        return None
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    if (
        isinstance(doc, dict)
        and str(doc.get("version", "")).startswith(_JSON_FEED_VERSION)
        and isinstance(doc.get("items"), list)
    ):
        return doc
    return None


def _json_feed_entries(doc: dict[str, Any], base_url: str) -> list[FeedEntry]:
    # JSON Feed is JSON: the json module parses it; this only maps its fields (spec 1.1).
    entries: list[FeedEntry] = []
    for item in doc["items"]:
        if not isinstance(item, dict):
            continue
        url = item.get("url")
        if not isinstance(url, str) or not url.strip():
            # Like an RSS permalink guid: an ``id`` that is a URL is the item's address.
            url = item.get("id") if str(item.get("id", "")).startswith(_HTTP) else None
        if url and (target := join_url(base_url, url.strip())) is not None:
            title = item.get("title")
            published = item.get("date_published") or item.get("date_modified")
            # JSON Feed 1.1's authors, 1.0's author: objects with a name.
            people = item.get("authors") or [item.get("author")]
            first = people[0] if isinstance(people, list) and people else None
            entries.append(
                FeedEntry(
                    target,
                    (title.strip() or None) if isinstance(title, str) else None,
                    published if isinstance(published, str) else None,
                    _person(first.get("name")) if isinstance(first, dict) else None,
                )
            )
    return entries


def _attr_value(match: re.Match[str]) -> str:
    return next((g for g in match.groups()[-3:] if g is not None), "")


def _attrs(tag: str) -> dict[str, str]:
    return {m.group(1).lower(): htmllib.unescape(_attr_value(m)) for m in _ATTR_RE.finditer(tag)}


def _declared(html: str, base_url: str, word: str, keep: Callable[[dict[str, str]], bool]) -> list[str]:
    """The absolute ``href`` of each ``<link>`` tag mentioning ``word`` that ``keep`` accepts.

    By its attributes; fragments removed, first seen first.
    """
    out: dict[str, None] = {}
    for tag in _LINK_TAG_RE.findall(html):
        if word not in tag.lower():
            continue  # stylesheets, icons, preloads: most link tags
        attrs = _attrs(tag)
        if keep(attrs) and (href := attrs.get("href", "").strip()) and (target := join_url(base_url, href)):
            out[urldefrag(target)[0]] = None
    return list(out)


_META_TAG_RE = re.compile(r"<meta\s[^>]*>", re.I)


def robots_meta(html: str, agent: str) -> list[str]:
    """The ``content`` of each ``<meta name="robots">`` (or ``name="<agent>"``) tag of a page."""
    # The name is case-insensitive: Trac writes ``<meta name="ROBOTS" content="NOINDEX, NOFOLLOW">``.
    if "obots" not in html and "OBOTS" not in html and agent not in html:
        return []
    found = []
    for tag in _META_TAG_RE.findall(html):
        low = tag.lower()
        if "robots" not in low and agent not in low:
            continue  # charset, viewport, og: most meta tags
        attrs = _attrs(tag)
        if attrs.get("name", "").strip().lower() in {"robots", agent} and "content" in attrs:
            found.append(attrs["content"])
    return found


def _is_feed(attrs: dict[str, str]) -> bool:
    return (
        "alternate" in attrs.get("rel", "").lower().split()
        and attrs.get("type", "").lower().split(";")[0].strip() in _FEED_TYPES
        # Not a feed of comments (WordPress declares one per post and one for the site).
        and "comment" not in attrs.get("title", "").lower()
    )


def feed_links(html: str, base_url: str) -> list[str]:
    """Feeds a page declares with ``<link rel="alternate" type="application/rss+xml" ...>``.

    Not a feed of comments (its title says so: WordPress declares one per post and one for
    the site, "… Comments Feed"): it lists comments, no page.
    """
    return _declared(html, base_url, "alternate", _is_feed)


def sitemap_links(html: str, base_url: str) -> list[str]:
    """Sitemaps a page declares with ``<link rel="sitemap" href="...">``.

    gatsby-plugin-sitemap writes it on every page, naming its ``/sitemap-index.xml``;
    @astrojs/sitemap's docs ask for it.
    """
    return _declared(
        html, base_url, "sitemap", lambda attrs: "sitemap" in attrs.get("rel", "").lower().split()
    )


#: Where generators write a site's feed when no page declares it, most used first: Jekyll's
#: jekyll-feed, the Gatsby and Astro starters and vuepress-theme-reco, Hexo, Hugo, WordPress.
CONVENTIONAL_FEEDS = ("/feed.xml", "/rss.xml", "/atom.xml", "/index.xml", "/feed/")
#: Where a site's sitemap is when robots.txt names none, most used first: the convention, then
#: the sitemap indexes of @astrojs/sitemap and gatsby-plugin-sitemap, of Yoast SEO, and of
#: WordPress itself.
CONVENTIONAL_SITEMAPS = ("/sitemap.xml", "/sitemap-index.xml", "/sitemap_index.xml", "/wp-sitemap.xml")


def extract_links(html: str, base_url: str, *, nofollow: bool = True) -> list[str]:
    """Absolute http(s) URLs of every ``<a href>`` in ``html``, fragments removed, in page order.

    ``<base href>`` is honoured; links inside scripts, styles and comments are not links.
    ``nofollow=False``: links whose tag says ``nofollow`` (a wiki's edit and history actions,
    WordPress' "reply" links) are left out.
    """
    hrefs, base = _scan_hrefs(html, nofollow=nofollow)
    if base is not None:
        base_url = join_url(base_url, base) or base_url
    parts = urlsplit(base_url)
    scheme = parts.scheme
    origin = f"{scheme}://{parts.netloc}"
    out: dict[str, None] = {}
    for href in hrefs:
        if not href or href[0] == "#" or href[:11].lower().startswith(_SKIP_SCHEMES):
            continue
        # Fast paths for the common absolute forms (urljoin costs ~10 us a link, and pages
        # have hundreds); anything with dot segments or odd syntax goes through urljoin.
        if "/." in href or "\\" in href:
            url = join_url(base_url, href) or ""
        elif href.startswith(("http://", "https://")) and not href.endswith("//"):
            url = href
        elif href.startswith("//"):
            url = f"{scheme}:{href}"
        elif href[0] == "/":
            url = origin + href
        else:
            url = join_url(base_url, href) or ""
        if "#" in url:
            url = url.partition("#")[0]
        if url.startswith(("http://", "https://")):
            out[url] = None
    return list(out)


def _scan_hrefs(html: str, *, nofollow: bool = True) -> tuple[list[str], str | None]:
    """The ``<a href>`` values of a page, unescaped and stripped, and its first ``<base href>``."""
    low = html.lower()
    if len(low) != len(html):
        # A few characters lower-case to two (U+0130): keep those as they are so that
        # offsets line up with the original text.
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in html)
    hrefs: list[str] = []
    base: str | None = None
    pos = 0
    search = _LINK_SCAN_RE.search
    while (m := search(low, pos)) is not None:
        block, comment, tag = m.group(1, 2, 3)
        if block is not None:
            end = _BLOCK_END_RE[block].search(low, m.end())
            # An unclosed script or style hides nothing: scan on after its opening tag.
            pos = end.end() if end is not None else m.end()
            continue
        if comment is not None:
            end_at = low.find("-->", m.end())
            pos = end_at + 3 if end_at >= 0 else m.end()
            continue
        pos = m.end()
        # The value from the original text: URLs are case-sensitive.
        for group in (4, 5, 6):
            start = m.start(group)
            if start >= 0:
                value = html[start : m.end(group)]
                break
        if "&" in value:
            value = htmllib.unescape(value)
        if tag == "a":
            # The tag's own text only (its end is near): "nofollow" in its rel, anywhere in it.
            if not nofollow and "nofollow" in low[m.start() : low.find(">", m.end()) + 1]:
                continue
            hrefs.append(value.strip())
        elif base is None:
            base = value.strip()
    return hrefs, base
