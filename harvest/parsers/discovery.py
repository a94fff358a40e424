"""Finding a site's pages, cheapest source first: robots.txt, sitemaps, feeds, then links.

Pure functions over bytes and text, so they are tested on saved real files:

- ``sitemaps_from_robots``: the ``Sitemap:`` lines of a robots.txt.
- ``parse_sitemap``: a sitemap (``urlset``), a sitemap index, gzip-compressed or not, or a
  plain-text sitemap (one URL a line).
- ``parse_feed``: the entries of an RSS 2.0, RSS 1.0 (RDF) or Atom feed.
- ``sniff_xml``: which of those a fetched XML document is (a ``.xml`` link can be anything:
  player skins, configs), so a link is parsed as a feed or sitemap only when it is one.
- ``feed_links``: feeds a page declares with ``<link rel="alternate">``.
- ``extract_links``: every ``<a href>`` of a page, absolute, without fragments: a regular
  expression over the text, several times cheaper than building a DOM, which matters because
  link extraction runs on every page in the crawl's main process.

XML is parsed with entity expansion and network access off (no XXE, no billion laughs).
"""

from __future__ import annotations

import gzip
import html as htmllib
import io
import logging
import re
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import etree

logger = logging.getLogger(__name__)

XmlKind = Literal["feed", "urlset", "sitemapindex"]

_XML_PARSER_KW = {
    "resolve_entities": False,
    "no_network": True,
    "recover": True,
    "remove_comments": True,
    "remove_pis": True,
}
#: Sitemaps may hold 50,000 URLs and 50 MB uncompressed (sitemaps.org); refuse more than that.
MAX_SITEMAP_BYTES = 50 * 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"

_ROBOTS_SITEMAP_RE = re.compile(r"^\s*sitemap\s*:\s*(\S+)", re.IGNORECASE | re.MULTILINE)
_ROOT_TAG_RE = re.compile(rb"<(?![?!])(?:[\w.-]+:)?([\w.-]+)[\s>/]")
_ROOT_KINDS: dict[bytes, XmlKind] = {
    b"feed": "feed",
    b"rss": "feed",
    b"RDF": "feed",
    b"urlset": "urlset",
    b"sitemapindex": "sitemapindex",
}
_ATTR = r"""(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"""
# Matched on the lower-cased page: a case-sensitive scan is twice as fast as re.I, and skipping
# a script or style block with str.find is several times faster than a lazy ``.*?`` over it.
_LINK_SCAN_RE = re.compile(r"<(?:(script|style)\b|(!--)|(a|base)\s[^>]*?\bhref\s*=\s*" + _ATTR + ")")
_BLOCK_END_RE = {"script": re.compile(r"</script\s*>"), "style": re.compile(r"</style\s*>")}
_LINK_TAG_RE = re.compile(r"<link\s[^>]*>", re.I)
_ATTR_RE = re.compile(r"""([\w:-]+)\s*=\s*""" + _ATTR)
_FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/rdf+xml",
                         "application/feed+json"})
_SKIP_SCHEMES = ("javascript:", "mailto:", "tel:", "data:", "about:", "ftp:", "file:", "sms:")


@dataclass(frozen=True)
class FeedEntry:
    """One entry of a feed: the article's URL, and the title and date the feed gives it."""

    url: str
    title: str | None = None
    published: str | None = None


@dataclass
class Sitemap:
    """A parsed sitemap: page URLs (``urlset``) or child sitemaps (``sitemapindex``)."""

    kind: Literal["urlset", "sitemapindex"]
    urls: list[str] = field(default_factory=list)
    lastmod: dict[str, str] = field(default_factory=dict)


def sitemaps_from_robots(text: str, base_url: str) -> list[str]:
    """Absolute URLs of the ``Sitemap:`` lines of a robots.txt (relative ones are resolved)."""
    out: dict[str, None] = {}
    for match in _ROBOTS_SITEMAP_RE.finditer(text):
        url = urljoin(base_url, match.group(1).strip())
        if url.startswith(("http://", "https://")):
            out[url] = None
    return list(out)


def maybe_gunzip(body: bytes, max_size: int = MAX_SITEMAP_BYTES) -> bytes:
    """``body`` decompressed if it is gzip data (``sitemap.xml.gz``), else unchanged.

    Raises ValueError past ``max_size`` decompressed bytes (a gzip bomb) or on corrupt data.
    """
    if not body.startswith(_GZIP_MAGIC):
        return body
    out = io.BytesIO()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(body)) as fh:
            while chunk := fh.read(64 * 1024):
                out.write(chunk)
                if out.tell() > max_size:
                    raise ValueError(f"gzip data inflates past {max_size} bytes")
    except (OSError, EOFError) as exc:
        raise ValueError(f"corrupt gzip data: {exc}") from None
    return out.getvalue()


def sniff_xml(body: bytes) -> XmlKind | None:
    """Whether ``body`` is a feed, a sitemap or a sitemap index, from its root element."""
    head = body[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        return None
    # Skip the XML declaration, comments and doctype: the first real start tag is the root.
    for match in _ROOT_TAG_RE.finditer(head):
        return _ROOT_KINDS.get(match.group(1))
    return None


def _xml_root(body: bytes) -> etree._Element | None:
    parser = etree.XMLParser(**_XML_PARSER_KW)
    try:
        root = etree.fromstring(body, parser=parser)
    except etree.XMLSyntaxError:
        return None
    return root


def _local(tag: object) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _text(el: etree._Element | None) -> str | None:
    if el is None:
        return None
    text = "".join(el.itertext()).strip()
    return text or None


def parse_sitemap(body: bytes, base_url: str) -> Sitemap:
    """URLs of a sitemap or sitemap index (gzip or plain, XML or text); empty if unreadable."""
    data = maybe_gunzip(body)
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not stripped.startswith(b"<"):
        # A text sitemap: one absolute URL per line (sitemaps.org allows it).
        lines = stripped.decode("utf-8", "replace").splitlines()
        return Sitemap("urlset", [u.strip() for u in lines if u.strip().startswith(("http://", "https://"))])
    root = _xml_root(data)
    if root is None:
        return Sitemap("urlset")
    kind: Literal["urlset", "sitemapindex"] = (
        "sitemapindex" if _local(root.tag) == "sitemapindex" else "urlset"
    )
    result = Sitemap(kind)
    seen: set[str] = set()
    for child in root:
        if _local(child.tag) not in {"url", "sitemap"}:
            continue
        loc = lastmod = None
        for el in child:
            name = _local(el.tag)
            if name == "loc":
                loc = _text(el)
            elif name == "lastmod":
                lastmod = _text(el)
        if not loc:
            continue
        url = urljoin(base_url, loc)
        if url in seen or not url.startswith(("http://", "https://")):
            continue
        seen.add(url)
        result.urls.append(url)
        if lastmod:
            result.lastmod[url] = lastmod
    return result


def parse_feed(body: bytes, base_url: str) -> list[FeedEntry]:
    """Entries of an RSS 2.0, RSS 1.0 or Atom feed, in feed order; empty if unreadable."""
    root = _xml_root(maybe_gunzip(body))
    if root is None:
        return []
    kind = _local(root.tag)
    entries: list[FeedEntry] = []
    if kind == "feed":
        feed_base = root.get("{http://www.w3.org/XML/1998/namespace}base") or base_url
        for entry in root:
            if _local(entry.tag) != "entry":
                continue
            href = title = published = None
            for el in entry:
                name = _local(el.tag)
                if name == "link" and el.get("rel", "alternate") == "alternate" and el.get("href"):
                    href = href or el.get("href")
                elif name == "title":
                    title = _text(el)
                elif name == "published" or (name == "updated" and published is None):
                    published = _text(el)
            if href:
                entries.append(FeedEntry(urljoin(feed_base, href.strip()), title, published))
        return entries
    items = root.iter("{*}item")
    for item in items:
        link = guid = title = published = None
        guid_permalink = True
        for el in item:
            name = _local(el.tag)
            if name == "link":
                link = _text(el) or el.get("href")
            elif name == "guid":
                guid = _text(el)
                guid_permalink = el.get("isPermaLink", "true").lower() != "false"
            elif name == "title":
                title = _text(el)
            elif name in {"pubDate", "date", "published"}:
                published = _text(el)
        url = link or (guid if guid_permalink else None)
        if url:
            entries.append(FeedEntry(urljoin(base_url, url.strip()), title, published))
    return entries


def _attr_value(match: re.Match[str]) -> str:
    return next((g for g in match.groups()[-3:] if g is not None), "")


def _attrs(tag: str) -> dict[str, str]:
    return {m.group(1).lower(): htmllib.unescape(_attr_value(m)) for m in _ATTR_RE.finditer(tag)}


def feed_links(html: str, base_url: str) -> list[str]:
    """Feeds a page declares with ``<link rel="alternate" type="application/rss+xml" ...>``."""
    out: dict[str, None] = {}
    for tag in _LINK_TAG_RE.findall(html):
        if "alternate" not in tag.lower():
            continue  # stylesheets, icons, preloads: most link tags
        attrs = _attrs(tag)
        rels = attrs.get("rel", "").lower().split()
        if "alternate" in rels and attrs.get("type", "").lower().split(";")[0].strip() in _FEED_TYPES:
            href = attrs.get("href", "").strip()
            if href:
                out[urldefrag(urljoin(base_url, href))[0]] = None
    return list(out)


def extract_links(html: str, base_url: str) -> list[str]:
    """Absolute http(s) URLs of every ``<a href>`` in ``html``, fragments removed, in page order.

    ``<base href>`` is honoured; links inside scripts, styles and comments are not links.
    """
    hrefs, base = _scan_hrefs(html)
    if base is not None:
        base_url = urljoin(base_url, base)
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
            url = urljoin(base_url, href)
        elif href.startswith(("http://", "https://")) and not href.endswith("//"):
            url = href
        elif href.startswith("//"):
            url = f"{scheme}:{href}"
        elif href[0] == "/":
            url = origin + href
        else:
            url = urljoin(base_url, href)
        if "#" in url:
            url = url.partition("#")[0]
        if url.startswith(("http://", "https://")):
            out[url] = None
    return list(out)


def _scan_hrefs(html: str) -> tuple[list[str], str | None]:
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
            hrefs.append(value.strip())
        elif base is None:
            base = value.strip()
    return hrefs, base
