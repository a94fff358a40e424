"""What a page is: one article, or a listing of other pages (archives, tags, pagination, indexes).

``classify_page(html, url)`` is a pure function of the page, tested on saved pages of real
sites made by different generators (tests/parsers/test_pagekind.py). It reads, in this order:

1. What the page declares about the whole page: the root ``@type`` of its JSON-LD
   (``CollectionPage``, ``Blog``, ``ItemList``, ``SearchResultsPage``, ``ProfilePage`` are
   listings: Hugo's section and tag pages say ``Blog``), then how many ``<article>`` elements
   it holds (three or more: one card per entry, as Zola sections, Docusaurus category pages,
   Hugo and Octopress lists have), or whether each of its ``<article>`` elements has its
   permalink on another page of the site (``rel=bookmark``, which HTML defines as the permalink
   of the nearest ``<article>``, or microformats' ``u-url``, else its heading's link): a page
   of one or two full posts, as the last page of Nikola's index shows them, is a listing.
2. ``og:type=article``, ``article:published_time``, a JSON-LD root ``BlogPosting``/``Article``/
   ``TechArticle``..., or one element (and one only) of such a microdata ``itemtype``: an
   article, unless step 1 or 3 finds it is made of entries anyway, its one ``<article>`` is not
   the post beside them, and it has no block of text of its own (``OWN_TEXT``: text whose
   nearest heading is not an entry's linked title, outside links). A news article with its
   related stories, teasers and "read next" cards around it keeps its body; a listing that
   declares itself an article on every page (Eleventy's starter does) keeps nothing but scraps
   outside its entries. A page that declares nothing is an article made of entries when a block
   of its own text longer than any entry's excerpt (``LEAD_TEXT``) comes before the first entry.
3. What its main content is made of (``<main>``, else the body, without ``nav``, ``aside``,
   ``footer`` and the site's ``header``): a listing when three or more headings link to other
   pages of the site (entry titles), when three or more dates each sit next to a link to another
   page of the site (a dated list of posts), when links to the site make most of its text (a
   list of titles, a tag cloud), when it is a search form with little else, or when it is only
   its title and a list whose every item is a date and one link to another page of the site (a
   month archive holding a single post).

A page none of these decide is ``unknown``: the spider then reads the hints it has (the URL
patterns of the site's config, the feed that listed it, ``dated``: a date at the top of the main
content, as posts carry under their title). URL patterns are hints, never the verdict: a page
made of entries is a listing whatever its URL says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import lxml.html
from lxml import etree

from harvest.parsers.htmlparser import HEADINGS, html_parser, whole_document
from harvest.parsers.language import weighed_length
from harvest.util.urls import join_url

#: ``empty``: a page with nothing to store (its content is headings only: the rest is drawn by
#: its scripts or was never written), and no listing either.
PageKindName = Literal["article", "listing", "unknown", "empty"]

#: JSON-LD types of a whole page that lists others (schema.org).
LISTING_TYPES = frozenset({"CollectionPage", "Blog", "ItemList", "SearchResultsPage", "ProfilePage"})
#: JSON-LD types of a page that is one piece of writing.
ARTICLE_TYPES = frozenset(
    {
        "Article",
        "BlogPosting",
        "NewsArticle",
        "TechArticle",
        "ScholarlyArticle",
        "Report",
        "SocialMediaPosting",
        "HowTo",
        "APIReference",
    }
)
#: Entries a page must hold to be a listing: two could be a post's prev/next pair.
MIN_ENTRIES = 3
#: Share of the main text that links to the site's pages above which a page is a list of links.
LINK_SHARE = 0.5
#: Distinct links that share must be spread over (one long link is not a list).
MIN_LINKS_FOR_SHARE = 5
#: The share above which two to four links already make a list (a small category page).
FEW_LINKS_SHARE = 0.6
#: Text of a search page besides its form, at most (a results page says little else).
SEARCH_PAGE_TEXT = 400
#: Paragraph text of a page that is an index by initials at most: a line on what it lists and
#: a count ("The following 4 pages are in this category, out of 4 total.").
INDEX_PROSE = 200
#: Text a page may have besides its headings and its dated lists and still be only those lists
#: (an archive's "Posts for July 2023" is a heading; a post says more than this).
LIST_ONLY_TEXT = 80
#: One sentence: what a list of links says above it, at most, for the page to be that list
#: however few its items ("Pages with the tag docker, newest first:"; an API module's summary
#: line over its members). A post says more than one sentence.
LIST_LINE = 200
#: Text a page may show outside its headings and form controls and still have nothing to store
#: (a label beside a settings panel's checkboxes): less than any post's line.
HEADINGS_ONLY_TEXT = 40
#: How far into the main text a date still counts as the page's own (under its title).
DATED_WITHIN = 300
#: Text a page with scripts shows, at most, to be an app's shell ("Loading...", "You need to
#: enable JavaScript" being in <noscript>): less than any article's title and line.
SHELL_TEXT = 40
#: A <noscript> notice's text, at most: more is the page itself, in a <noscript> left open.
NOTICE_TEXT = 300
#: Text of its own (not an entry's) that keeps a page declaring itself an article one, whatever
#: entries surround it: twice the most a listing of the development and held-out sets that
#: declares itself an article keeps outside its entries (BENCHMARKS.md, "Articles among entries").
OWN_TEXT = 800
#: Text of its own before its first entry that makes a page declaring nothing an article,
#: whatever entries follow: twice the most a listing of the development and held-out sets
#: holds there (a tag page whose entries' titles are not links: its first excerpt).
LEAD_TEXT = 2000

#: A month's name or abbreviation, in English (its dot too).
MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
#: Dates as generators print them: ISO, "Mar 31, 2017", "31 March 2017", 2023年8月7日, 31.03.2017,
#: C's asctime ("Thu Jun  1 00:00:00 2023": ikiwiki).
DATE_RE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b"
    rf"|\b{MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
    rf"|\b{MONTHS}\s+\d{{1,2}}\s+\d{{1,2}}:\d\d(?::\d\d)?\s+\d{{4}}\b"
    rf"|\b\d{{1,2}}\.?\s+{MONTHS}\s+\d{{4}}\b"
    r"|\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?"
    r"|\b\d{1,2}[./]\d{1,2}[./]\d{4}\b"
    r"|\b\d{4}/\d{2}/\d{2}\b",
    re.I,
)
#: A date text is a label, not a sentence that mentions one.
_DATE_LABEL_CHARS = 60
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
#: A ``<header>`` is the page's banner only when no sectioning element holds it: inside an
#: ``<article>``, ``<section>``, ``<aside>``, ``<nav>`` or ``<main>`` it is that section's own
#: (HTML's scoping; JSDoc's tutorial pages head their section with its list of lessons).
_CHROME = (
    ".//nav | .//aside | .//footer"
    " | .//header[not(ancestor::article or ancestor::section or ancestor::aside or ancestor::nav"
    " or ancestor::main)]"
    # The page's contact information (its nearest <article> or <body>'s, HTML says): a footer's.
    " | .//address[not(ancestor::article)]"
)
#: Elements whose own text is a block of the page's text (an inline element's is its parent's).
_BLOCKS = frozenset(
    {"div", "td", "th", "li", "dd", "section", "article", "main", "blockquote", "pre", "figcaption", "body"}
)
_HEADING_XPATH = ".//h1 | .//h2 | .//h3 | .//h4 | .//h5 | .//h6"
_CARD_CHROME = frozenset({"aside", "nav", "footer"})
_LD_RE = re.compile(r"application/ld\+json", re.I)


@dataclass(frozen=True)
class PageKind:
    """The verdict on a page, why, and whether it carries a date at the top of its main content."""

    kind: PageKindName
    reason: str
    dated: bool = False
    #: A listing's entries that show their date beside their link: target URL -> the date as
    #: shown (or a ``<time>``'s ``datetime``), for the pages a feed does not date.
    entry_dates: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    #: The page shows no text without running its scripts (a single-page app's shell: Docsify,
    #: a React or Vue app): what it holds comes only through a browser.
    needs_script: bool = False


def parse_html(html: str) -> etree._Element | None:
    """The page as an lxml tree (None when there is no HTML to parse)."""
    if not html.strip():
        return None
    try:
        tree = lxml.html.document_fromstring(html.encode("utf-8", "replace"), parser=_PARSER)
    except (etree.ParserError, ValueError):
        return None
    whole_document(tree, html)
    return tree


_PARSER = html_parser()


def ld_roots(tree: etree._Element) -> list[object]:
    """The root values of the page's JSON-LD blocks (a block holding a list gives its items)."""
    roots: list[object] = []
    for script in tree.iter("script"):
        if not _LD_RE.search(script.get("type") or ""):
            continue
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        roots.extend(data if isinstance(data, list) else [data])
    return roots


def _ld_root_types(tree: etree._Element) -> list[str]:
    """The ``@type`` of each JSON-LD block's root object (or of its ``@graph``'s first node)."""
    types: list[str] = []
    for node in ld_roots(tree):
        if isinstance(node, dict) and "@type" not in node and isinstance(node.get("@graph"), list):
            graph = [n for n in node["@graph"] if isinstance(n, dict)]
            # A graph names the site, the page and its article: the page's own types count.
            node = next((n for n in graph if ld_types(n) & (LISTING_TYPES | ARTICLE_TYPES)), None)
        if isinstance(node, dict):
            types.extend(sorted(ld_types(node)))
    return types


def ld_types(node: dict[str, object]) -> set[str]:
    """A JSON-LD node's ``@type`` values (a string or a list of them)."""
    value = node.get("@type")
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return {v for v in value if isinstance(v, str)}
    return set()


def _declared_article(tree: etree._Element, root_types: list[str]) -> bool:
    if ARTICLE_TYPES.intersection(root_types):
        return True
    for meta in tree.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        content = (meta.get("content") or "").strip().lower()
        if (key == "og:type" and content == "article") or (key == "article:published_time" and content):
            return True
    return _microdata_article(tree)


_ITEMTYPES = etree.XPath("//*[@itemtype]")


def _microdata_article(tree: etree._Element) -> bool:
    """Whether one element, and one only, is a schema.org article in microdata (``itemtype``).

    Gatsby's blog starter and Jekyll's minima declare their posts so (``<article itemscope
    itemtype="http://schema.org/Article">``), and nothing else; a listing of such cards has one
    per entry.
    """
    found = 0
    for el in _ITEMTYPES(tree):
        kinds = {t.rstrip("/").rsplit("/", 1)[-1] for t in (el.get("itemtype") or "").split()}
        if ARTICLE_TYPES.intersection(kinds):
            found += 1
            if found > 1:
                return False
    return found == 1


def _main_region(tree: etree._Element, dropped: list[etree._Element] | None = None) -> etree._Element:
    """The page's main content, its navigation, asides, footer and scripts removed from it.

    The chrome and ``<noscript>`` blocks removed are appended to ``dropped`` when given (their
    text is still readable there).
    """
    body = tree.find("body")
    root = body if body is not None else tree
    for xpath in ("//main", "//*[@role='main']"):
        found = root.xpath(xpath)
        if found:
            region: etree._Element = found[0]
            break
    else:
        region = root
    for chrome in [*_banner_before_title(tree, region), *region.xpath(_CHROME)]:
        if chrome is not region and chrome.getparent() is not None:
            chrome.drop_tree()
            if dropped is not None:
                dropped.append(chrome)
    for junk in region.xpath(".//script | .//style | .//template | .//noscript"):
        if junk.getparent() is not None:
            junk.drop_tree()
            if dropped is not None and junk.tag == "noscript":
                dropped.append(junk)
    return region


#: A separator after the site's name at the ``<title>``'s start, written against the name or not
#: ("Small Lessons: Quick note", Doxygen's and Chronicle's ``{{site}}: {{title}}``).
_NAME_SEPARATOR_RE = re.compile(r"\s?[:|]\s+|\s+[-|–—·:»/]{1,2}\s+")
#: The addresses of a site's home page, relative or absolute ("/", "index.html", "https://x/").
_HOME_HREF_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?(?://[^/?#]+)?(?:\.?/)?(?:index\.html?)?$", re.I)


def home_names(tree: etree._Element) -> Iterator[str]:
    """What the links to the site's home page say: the site's name (its banner's, its breadcrumb's)."""
    for a in tree.iter("a"):
        href = (a.get("href") or "").strip()
        if href and _HOME_HREF_RE.match(href):
            text = " ".join(a.text_content().split())
            if text:
                yield text


def title_after_home_name(tree: etree._Element, title: str) -> str | None:
    """The rest of a ``<title>`` that begins with the site's name, when the page shows that rest.

    The site's name is what a link to the home page says (Chronicle's ``<h1><a href="/">Small
    Lessons</a></h1>``, Doxygen's breadcrumb); the rest must be the whole text of an element of
    the page, a heading or not (Doxygen's ``<div class="title">``, whose ``<h1>`` elements are
    the post's sections): a ``<title>`` whose words after a name are not shown is kept whole.
    """
    found = _after_home_name(tree, title)
    return found[0] if found is not None else None


def _after_home_name(tree: etree._Element, title: str) -> tuple[str, etree._Element] | None:
    """:func:`title_after_home_name`, and the element that shows it."""
    folded = title.casefold()
    for name in home_names(tree):
        size = len(name)
        if not folded.startswith(name.casefold()) or (sep := _NAME_SEPARATOR_RE.match(title, size)) is None:
            continue
        rest = title[sep.end() :].strip()
        if rest and (shown := shown_whole(tree, rest)) is not None:
            return rest, shown
    return None


def _home_link(el: etree._Element) -> bool:
    """Whether ``el`` holds a link to the site's home page."""
    return any(_HOME_HREF_RE.match(href.strip()) for a in el.iter("a") if (href := a.get("href")))


def _banner_before_title(tree: etree._Element, region: etree._Element) -> list[etree._Element]:
    """The blocks of ``region`` before the one showing the page's title that link to the home page.

    The page's title is the ``<title>`` after the site's name (:func:`title_after_home_name`);
    what comes before it and links home is the site's banner, however it is marked up (Doxygen's
    ``#titlearea`` table and breadcrumb, Chronicle's ``<div class="title"><h1><a href="/">``).
    """
    if "<" in (head := " ".join((tree.findtext(".//title") or "").split())) or not head:
        return []
    found = _after_home_name(tree, head)
    if found is None:
        return []
    block = found[1]
    for parent in block.iterancestors():
        if parent is region:
            break
        block = parent
    else:
        return []
    return [s for s in block.itersiblings(preceding=True) if isinstance(s.tag, str) and _home_link(s)]


def shown_whole(tree: etree._Element, text: str) -> etree._Element | None:
    """The first element of the page's body that has ``text`` as its whole text, if any."""
    body = tree.find(".//body")
    wanted = squash(text)
    if body is None or not wanted:
        return None
    for el in body.iter(etree.Element):
        start = (el.text or "").strip()
        # Its own text first (cheap): only an element that begins as ``text`` does is read whole.
        if start and squash(start) == wanted[: len(squash(start))] and squash(el.text_content()) == wanted:
            return el
    return None


def squash(text: str) -> str:
    """``text`` with its case folded and all but its letters and digits left out, for comparing."""
    return re.sub(r"\W+", "", text.casefold())


@lru_cache(maxsize=4096)
def _site_link(href: str | None, page: str, host: str) -> str | None:
    """The page ``href`` leads to, if it is another page of the same site (no fragment)."""
    if not href:
        return None
    href = href.strip()
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
        return None
    try:
        target = urljoin(page, href)
        parts = urlsplit(target)
    except ValueError:
        return None
    if (parts.hostname or "").lower() != host:
        return None
    path = parts.path or "/"
    if unquote(path).rstrip("/") == unquote(urlsplit(page).path).rstrip("/"):
        return None
    return path + (f"?{parts.query}" if parts.query else "")


def _same_page(target: str, page: str) -> bool:
    """Whether a site path is ``page`` itself (``/a/`` and ``/a/index.html`` are one page)."""

    def bare(path: str) -> str:
        path = urlsplit(path).path
        return re.sub(r"(?:^|/)index\.html?$", "/", path).rstrip("/")

    return bare(target) == bare(page)


def _permalink(card: etree._Element, page: str, host: str) -> str | None:
    """The page of the site an ``<article>``'s permalink leads to, when not this one."""
    for a in card.iter("a"):
        rels = (a.get("rel") or "").lower().split()
        if "bookmark" in rels or "u-url" in (a.get("class") or "").split():
            target = _site_link(a.get("href"), page, host)
            return None if target is None or _same_page(target, page) else target
    headings = card.xpath(_HEADING_XPATH)
    target = _heading_link(headings[0], page, host) if headings else None
    return None if target is None or _same_page(target, page) else target


#: A control's text at most ("edit", "bearbeiten", "top").
CONTROL_CHARS = 20


def heading_control(a: etree._Element, heading: etree._Element) -> etree._Element | None:
    """The bracketed control a link in a heading is part of (``[edit]``), or None.

    MediaWiki puts ``<span class="mw-editsection">[<a href="…action=edit…">edit</a>]</span>`` in
    every section heading (Wikipedia's "[edit]", in the wiki's language); old-style manuals a
    "[top]". A short link between square brackets, beside the heading's own words, is no link of
    the heading's: returns the element holding it and its brackets.
    """
    text = " ".join(a.text_content().split())
    if not text or len(text) > CONTROL_CHARS or a is heading:
        return None
    node = a
    while node is not heading and (parent := node.getparent()) is not None:
        shown = " ".join(node.text_content().split())
        if shown.startswith("[") and shown.endswith("]") and shown[1:-1].strip() == text:
            rest = " ".join(heading.text_content().split()).replace(shown, "", 1)
            return node if any(ch.isalnum() for ch in rest) else None
        if parent is heading:
            break
        node = parent
    previous, holder = a.getprevious(), a.getparent()
    before = (previous.tail if previous is not None else holder.text if holder is not None else "") or ""
    if before.rstrip().endswith("[") and (a.tail or "").lstrip().startswith("]"):
        rest = " ".join(heading.text_content().split()).replace(text, "", 1)
        return a if sum(ch.isalnum() for ch in rest) > 1 else None
    return None


def _heading_link(heading: etree._Element, page: str, host: str) -> str | None:
    """The other page of the site a heading links to (a link in it, or the link around it).

    Links up the page's own path (the home page, its section) are the site's title, not an entry.
    """
    links = [*heading.iter("a"), *(a for a in heading.iterancestors("a"))]
    if any(_permalink_mark(a) for a in links):
        # A heading with its own permalink ("¶", "#": Sphinx, MkDocs, Hugo) is a section of this
        # page; a link in it is a cross-reference (Django's "<h4><a href="…/admin/">
        # django.contrib.admin</a>¶</h4>"), no entry's title.
        return None
    own = urlsplit(page).path
    for a in links:
        if heading_control(a, heading) is not None:
            continue
        target = _site_link(a.get("href"), page, host)
        if target is not None and not own.startswith(path := target.split("?")[0]):
            if _FILE_RE.search(path):
                # A file the section is about, no entry's page: BoostBook's reference sections,
                # "Header <boost/units/unit.hpp>" each linking its header.
                return None
            return None if _signature(heading, a, links) else target
    return None


#: A path ending with a file's extension that is no web page's (``.hpp``, ``.pdf``, ``.zip``).
_FILE_RE = re.compile(r"\.(?!(?:s?html?|xhtml|php\d?|aspx?|jsp|cgi|cfm)$)[a-z][a-z0-9]{0,4}$", re.I)


def _signature(heading: etree._Element, a: etree._Element, links: list[etree._Element]) -> bool:
    """Whether a heading names several pages, its link a small part of its words: a signature.

    rustdoc's ``impl <a>From</a>&lt;<a>ExprTry</a>&gt; for <a>Expr</a>`` and ``const
    <a>peek_any</a>: PeekFn = private::PeekFn``: the types a page's methods take are links, and
    every item page of a crate was taken for a list of entries. An entry's heading is its link,
    a date or count beside it: the link is most of its words, or a good share where it is the
    heading's one link.
    """
    name, title = _text(a), _text(heading)
    share = len(name) / max(len(title), 1)
    if share >= ENTRY_LINK_SHARE:
        return False
    if name and not any(c.isspace() for c in name) and _DECLARATION_RE.search(title.replace(name, " ", 1)):
        # One type named in a declaration: QDoc's ``<a>QJsonObject::iterator</a>
        # QJsonObject::begin()`` and its properties' ``easingCurve : <a>QEasingCurve</a>``.
        return True
    targets = {href.split("#", 1)[0] for x in links if (href := (x.get("href") or "").strip())}
    return share < ENTRY_LINK_SHARE / 2 or len(targets - {""}) > 1


#: The share of a heading's text its link needs to be an entry's title (a title beside its date).
ENTRY_LINK_SHARE = 0.6
#: A declaration's shape beside a heading's link: a name called (``begin()``), a scoped name
#: (``QDateTime::timeSpec``), a name typed (``easingCurve :``), never a title's words.
_DECLARATION_RE = re.compile(r"\w\(|\w::\w|^\s*\w+\s?:\s*$")


def _permalink_mark(a: etree._Element) -> bool:
    """Whether a link is a heading's permalink: to a part of the page, shown as a glyph or nothing."""
    href = (a.get("href") or "").strip()
    return href.startswith("#") and len(href) > 1 and not any(c.isalnum() for c in a.text_content())


def _dated_headings(region: etree._Element, dates: list[etree._Element], page: str, host: str) -> int:
    """Headings that link to another page of the site with a date beside them: entries of a list."""
    dated_blocks = set()
    for node in dates:
        for ancestor in list(node.iterancestors())[:2]:
            dated_blocks.add(ancestor)
    entries = set()
    for heading in region.iter(*HEADINGS):
        target = _heading_link(heading, page, host)
        if target is None:
            continue
        block = heading.getparent()
        for _ in range(2):
            if block is None:
                break
            if block in dated_blocks:
                entries.add(target)
                break
            block = block.getparent()
    return len(entries)


def _text(el: etree._Element) -> str:
    return " ".join(el.text_content().split())


def _date_nodes(region: etree._Element) -> list[etree._Element]:
    """Elements that label something with a date: ``<time>`` and short texts that are a date."""
    found: list[etree._Element] = list(region.iter("time"))
    # A year first, without DATE_RE's word boundaries: blocks written with no space between them
    # (React's server rendering: "…tour</h1><p>January 15, 2023</p>") glue their texts.
    if not _YEAR_RE.search(region.text_content()):
        return found
    for el in region.iter():
        if not isinstance(el.tag, str) or el.tag in {"time", "pre", "code"}:
            continue
        text = (el.text or "").strip()
        if text and len(text) <= _DATE_LABEL_CHARS and DATE_RE.search(text):
            if not any(a.tag == "time" for a in el.iterancestors()):
                found.append(el)
        # A date after a link, in its block's text (DokuWiki's index: "<a>Title</a> (2024-05-02)").
        tail = (el.tail or "").strip()
        if el.tag == "a" and tail and len(tail) <= _DATE_LABEL_CHARS and DATE_RE.search(tail):
            if (holder := el.getparent()) is not None:
                found.append(holder)
    return found


#: How far up from a ``<time>`` its entry's link is looked for: a card's date line in its meta
#: row, the title's link beside that row (Valaxy's ``<time>`` in a span, a div, a div, under the
#: card's body holding the title's link: four). A date in text, one level less: a date an
#: excerpt quotes is no entry's.
ENTRY_DATE_LEVELS = 4


def _dated_entries(dates: list[etree._Element], page: str, host: str) -> int:
    """Site links that each sit alone next to a date (``ENTRY_DATE_LEVELS`` up): a dated list's entries.

    A date quoted in the text (a tweet's, a link to elsewhere) labels no entry of this site.
    """
    return len(_entry_dates(dates, page, host))


def _entry_dates(dates: list[etree._Element], page: str, host: str) -> dict[str, str]:
    """Each dated entry's link target and its date as shown (a ``<time>``'s ``datetime``).

    Entries under a date heading them too (:func:`_date_headed`).
    """
    targets: dict[str, str] = {}
    headers: dict[etree._Element, str] = {}
    for node in dates:
        outside = False
        for ancestor in node.iterancestors():
            if ancestor.tag == "blockquote" or (
                ancestor.tag == "a" and _site_link(ancestor.get("href"), page, host) is None
            ):
                outside = True
                break
        if outside:
            continue
        if _tail_dated(node) and len(own := _site_links_in(node, page, host)) == 1:
            # The date follows the entry's link in the same item ("<li><a>Title</a> (2023-05-30)").
            targets.setdefault(own.pop(), _text(node))
            continue
        block = node
        for _ in range(ENTRY_DATE_LEVELS if node.tag == "time" else ENTRY_DATE_LEVELS - 1):
            parent = block.getparent()
            if parent is None:
                break
            block = parent
            links = {t for a in block.iter("a") if (t := _site_link(a.get("href"), page, host))}
            if links:
                # The entry's own link, alone: a block with several holds more than one entry.
                if len(links) == 1:
                    targets.setdefault(links.pop(), node.get("datetime") or _text(node))
                    break
                if (row := _header_row(node, page, host)) is not None:
                    headers.setdefault(row, node.get("datetime") or _text(node))
                break
    _date_headed(headers, page, host, targets)
    return targets


def _header_row(node: etree._Element, page: str, host: str) -> etree._Element | None:
    """The table row a date is alone in (no link to the site): a day's header, if it is one.

    Not a heading: a blog's day heading is followed by posts whose first link is a category's
    (Blosxom's "path: /programming" before the permalink).
    """
    for up, _ in zip((node, *node.iterancestors()), range(4), strict=False):
        if up.tag == "tr":
            return None if any(_site_link(a.get("href"), page, host) for a in up.iter("a")) else up
    return None


def _date_headed(headers: dict[etree._Element, str], page: str, host: str, targets: dict[str, str]) -> None:
    """Date the entries after each date that heads them, up to the next such date.

    A date on a table row of its own over the day's rows: Fossil's timeline (``<tr
    class="timelineDateRow"><td><div class="timelineDate">2024-05-02</div>``, then a row per
    note: its time, the note's link, its user's and tags' links). Each row's first link to
    another page of the site is its entry's.
    """
    for row, day in headers.items():
        for entry in row.itersiblings():
            if entry in headers:
                break
            link = next((t for a in entry.iter("a") if (t := _site_link(a.get("href"), page, host))), None)
            if link is not None:
                targets.setdefault(link, day)


def _tail_dated(node: etree._Element) -> bool:
    """Whether a date follows a link of ``node`` in its text (``<a>Title</a> (2023-05-30)``)."""
    return any(
        (tail := (a.tail or "").strip()) and len(tail) <= _DATE_LABEL_CHARS and DATE_RE.search(tail)
        for a in node.iterchildren("a")
    )


def _site_links_in(el: etree._Element, page: str, host: str) -> set[str]:
    return {t for a in el.iter("a") if (t := _site_link(a.get("href"), page, host))}


def _dated_list_only(region: etree._Element, text: str, page: str, host: str) -> int:
    """Entries of the page's dated lists when those lists and its headings are all its main content.

    A list counts when each of its items holds a date and one link to another page of the site
    (an archive's ``<li><time>...</time><a>title</a></li>``), however few items it has.
    """
    entries: set[str] = set()
    rest = len(text) - sum(len(_text(h)) for h in region.iter(*HEADINGS))
    for lst in region.iter("ul", "ol"):
        items = [li for li in lst if li.tag == "li"]
        if not items or any(a.tag == "li" for a in lst.iterancestors()):
            continue
        targets: set[str] = set()
        for li in items:
            links = {t for a in li.iter("a") if (t := _site_link(a.get("href"), page, host))}
            if len(links) != 1 or not _date_nodes(li):
                break
            targets |= links
        else:
            entries |= targets
            rest -= len(_text(lst))
    return len(entries) if rest <= LIST_ONLY_TEXT else 0


def _initials_index(region: etree._Element, page: str, host: str) -> int:
    """Entries of the page's index by initials, when it is one and says little else.

    An index groups titles under their first letter: a heading that is one letter, then a list
    of links to the site's pages and nothing else (MediaWiki's category pages, "G" over
    "Generators in Python"; Docusaurus' tags page), or terms each naming the pages they are on (a
    book's index). A page with such a group and paragraphs of less than ``INDEX_PROSE``
    characters is that index (a glossary's letters head definitions).
    """
    entries: set[str] = set()
    for heading in region.iter(*HEADINGS):
        if len(_text(heading)) != 1 or (lst := heading.getnext()) is None:
            continue
        if lst.tag in {"ul", "ol"}:
            items = [li for li in lst if li.tag == "li"]
        elif lst.tag in {"dl", "dt"}:
            # Terms (gtk-doc's and DocBook's indexes: a name, its kind, the page it is on, both
            # links to that page), in a list or loose after the letter.
            items = [dt for dt in (lst if lst.tag == "dl" else [lst, *lst.itersiblings()]) if dt.tag == "dt"]
        else:
            continue
        targets: set[str] = set()
        for li in items:
            links = [t for a in li.iter("a") if (t := _site_link(a.get("href"), page, host))]
            if li.tag == "dt" and not links and _sub_entries(li):
                continue  # a back-of-book index's heading term: its pages are its sub-entries'
            # A term of a back-of-book index names every page it is on (DocBook's: "age,
            # Date/Time Functions, System Information Functions"); a list's item, one page.
            if not links or (len(links) != 1 and li.tag != "dt") or not _text(li):
                break
            targets.update(links)
        else:
            entries |= targets
    if not entries or sum(len(_text(p)) for p in region.iter("p")) >= INDEX_PROSE:
        return 0
    return len(entries)


def _sub_entries(term: etree._Element) -> bool:
    """The term's description is only a list of sub-terms, no text of its own.

    An index's "aggregate function" over "built-in", "invocation"; not a glossary's definition.
    """
    desc = term.getnext()
    if desc is None or desc.tag != "dd":
        return False
    inner = [child for child in desc if isinstance(child.tag, str)]
    return bool(inner) and all(child.tag == "dl" for child in inner) and not (desc.text or "").strip()


@dataclass
class _Lists:
    """What a page's lists and paragraphs hold (:func:`_link_lists_only`)."""

    #: Each paragraph's text, in order; "" marks one after a list's first entry.
    lines: list[str] = field(default_factory=list)
    #: The pages of the site its items link to.
    listed: set[str] = field(default_factory=set)
    #: Characters of its items that are one link to the site.
    items_chars: int = 0
    #: Some item is no such link: a blogroll's (off the site), a feed's (``rel=alternate``), a
    #: menu's button. Not a settings panel's checkbox, nor a breadcrumb's step to this page.
    others: bool = False


def _lists(region: etree._Element, page: str, host: str) -> _Lists | None:
    """The page's lists and paragraphs; None when an item holds more than one link to the site."""
    found = _Lists()
    for el in region.iter("p", "li", "dt"):
        if el.tag == "p":
            if line := _text(el):
                if found.listed:
                    found.lines.append("")  # text after the list: a post, not a list's line
                found.lines.append(line)
            continue
        links = [t for a in el.iter("a") if (t := _site_link(a.get("href"), page, host))]
        shown = _text(el)
        if links and (len(links) != 1 or len(shown) > len(" ".join(_text(a) for a in el.iter("a"))) + 2):
            return None
        if links and next(el.iterancestors("li", "dt"), None) is None:
            found.items_chars += len(shown)
            found.others = found.others or any(
                "alternate" in (a.get("rel") or "").lower().split() for a in el.iter("a")
            )
        elif not links and shown and len(shown) > _controls_chars(el) and not _in_page_item(el, page):
            found.others = True
        found.listed.update(links)
    return found


def _link_lists_only(
    region: etree._Element, text: str, dates: list[etree._Element], page: str, host: str
) -> int:
    """Links of the page's lists when they are all its links and it says little besides.

    Each item (``<li>``, or a definition list's term: ``<dt>``) one link to another page of the
    site and nothing else: a wiki's navigation page (a heading over "Home", "Guide",
    "Reference"...), an API index's list of members. Two or more items and no paragraph are such
    a page. So is one item, or a list under one sentence (``LIST_LINE``) that introduces it: a
    tag page's "Pages with the tag docker, newest first:" over its one entry, when every item
    is such a link, the rest of its text (outside headings, lists, form controls and its table
    of contents) is a scrap (``LIST_ONLY_TEXT``) and it shows no date: a short post
    ("ビルドが三倍速くなった。") with its tags listed under it shows its date, and says its
    sentence after any list of its header.
    """
    found = _lists(region, page, host)
    if found is None or not found.listed:
        return 0
    # Not a link without words: a logo's way home beside the lists (rustdoc's in its <main>).
    every = {t for a in region.iter("a") if _text(a) and (t := _site_link(a.get("href"), page, host))}
    if not every <= found.listed:
        return 0
    headings = sum(len(_text(h)) for h in region.iter(*HEADINGS))
    rest = len(text) - found.items_chars - headings
    if not found.lines and len(found.listed) >= 2:
        # Unless its text is written outside paragraphs (Publican's <div class="para">): a
        # chapter beside its "Prev", "Home" and "Next" list.
        rest -= _controls_chars(region) + _in_page_chars(region, page)
        return len(found.listed) if rest <= LIST_LINE else 0
    lines = found.lines
    paragraphs = sum(len(t) for t in lines)
    if found.others or "" in lines or paragraphs > LIST_LINE:
        return 0
    if sum(len(_SENTENCE_END.findall(t)) for t in lines) > 1:
        return 0
    rest -= paragraphs + _controls_chars(region) + _in_page_chars(region, page)
    if rest > LIST_ONLY_TEXT or dates:
        return 0
    return len(found.listed)


#: The end of a sentence: its full stop, question or exclamation mark (Latin or CJK).
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]")


#: Form controls: their text is a widget's (a settings panel's "Theme: OS, Light, Dark"), not the
#: page's.
_CONTROLS = ("label", "select", "option", "button", "textarea")


def _controls_chars(region: etree._Element) -> int:
    """Characters of the region's form controls' text (a control inside another counted once)."""
    return sum(
        len(_text(el)) for el in region.iter(*_CONTROLS) if next(el.iterancestors(*_CONTROLS), None) is None
    )


def _in_page_chars(region: etree._Element, page: str) -> int:
    """Characters of the region's table of contents: its links into the page itself.

    When they are five or more (``MIN_LINKS_FOR_SHARE``): an "On this page" list, not a wiki's
    "Jump to navigation" and "Jump to search".
    """
    here = urldefrag(page)[0]
    count = chars = 0
    for a in region.iter("a"):
        href = a.get("href")
        if href is None or not (shown := len(_text(a))):
            continue
        href = href.strip()
        if not href or href.startswith("#") or urldefrag(join_url(page, href) or "")[0] == here:
            count += 1
            chars += shown
    return chars if count >= MIN_LINKS_FOR_SHARE else 0


def _in_page_item(item: etree._Element, page: str) -> bool:
    """Whether a list item's links all lead to the page itself (a breadcrumb's last step)."""
    here = urldefrag(page)[0]
    hrefs = [(a.get("href") or "").strip() for a in item.iter("a")]
    return bool(hrefs) and all(
        not h or h.startswith("#") or urldefrag(join_url(page, h) or "")[0] == here for h in hrefs
    )


#: Elements that hold what a page says besides its headings: text, lists, tables, code, media.
_CONTENT_TAGS = (
    "p", "li", "dt", "dd", "td", "th", "pre", "code", "blockquote", "img", "picture", "video",
    "audio", "iframe", "object", "embed", "math",
)  # fmt: skip


#: The share of a source file's view its code makes (its line numbers are code too).
SOURCE_SHARE = 0.95
#: The share of letters among the visible characters of a text set in a ``<pre>`` that is prose
#: (Postfix's manual pages have more, the generators' source files less: BENCHMARKS.md).
PLAIN_TEXT_LETTERS = 0.85


def _source_view(region: etree._Element, text: str) -> bool:
    """Whether the page is a source file shown as code: no heading, its text all in ``<pre>``.

    A generator's "Source" link beside each item leads there (Haddock's ``src/<Module>.html``,
    rustdoc's ``src/…/lib.rs.html``: the module again, its comments and all, as one block): no
    document of its own, the module's page is. Code, that is: highlighted (a class on the block
    or on its pieces), or not words for the most part. A manual page set as plain text (Postfix's
    HTML manuals, man2html: one ``<pre>`` with bold section names and links, 68 of them) is a
    document.
    """
    if not text or next(region.iter(*HEADINGS), None) is not None:
        return False
    blocks = [pre for pre in region.iter("pre") if next(pre.iterancestors("pre"), None) is None]
    shown = "".join(_text(pre) for pre in blocks)
    if len(shown) < SOURCE_SHARE * len(text):
        return False
    if any(el.get("class") for pre in blocks for el in pre.iter()):
        return True
    visible = "".join(shown.split())
    return sum(ch.isalpha() for ch in visible) < PLAIN_TEXT_LETTERS * len(visible)


def _nothing_to_read(
    tree: etree._Element, region: etree._Element, text: str, chrome: list[etree._Element], *, scripted: bool
) -> PageKind | None:
    """The kind of a page with nothing to read: an app's shell before its scripts, a not-found page."""
    # Each Chinese character or kana counts as a short word: a one-line Japanese post
    # ("ビルドが三倍速くなった。", twelve characters) says more than an app shell's "Loading…".
    if (
        weighed_length(text) < SHELL_TEXT
        and scripted
        and _shown_chars(tree.find("body"), chrome, weighed=True) < SHELL_TEXT
    ):
        return PageKind("unknown", "no text without its scripts", needs_script=True)
    if _not_found(tree, region, text):
        return PageKind("empty", "a page saying it is not found")
    return None


def _not_found(tree: etree._Element, region: etree._Element, text: str) -> bool:
    """Whether the page says it is not found (a "soft 404": served with 200, even listed).

    Its ``<h1>`` (or, without one, its ``<title>``) says "404" or "not found", and it says little
    besides its links: pkgdown lists its ``404.html`` in its sitemap ("Page not found (404)",
    "Content not found. Please use links in the navbar."), and it was stored as a document.
    """
    h1 = next(region.iter("h1"), None)
    heading = _text(h1) if h1 is not None else " ".join((tree.findtext(".//title") or "").split())
    if not heading or len(heading) > NOT_FOUND_HEADING or not _NOT_FOUND_RE.search(heading):
        return False
    said = weighed_length(text) - sum(weighed_length(_text(a)) for a in region.iter("a"))
    return said <= NOT_FOUND_TEXT


#: A not-found page's heading, in the languages of the sites seen (the status code in any).
_NOT_FOUND_RE = re.compile(
    r"\b404\b|not found|nicht gefunden|introuvable|no encontrad|non trovat|não encontrad"
    r"|未找到|見つかりません",
    re.I,
)
#: A not-found heading is short ("404 - Page not found", "Oops! That page can't be found").
NOT_FOUND_HEADING = 60
#: What a not-found page says besides its links: a sentence or two and a footer's line.
NOT_FOUND_TEXT = 400


def _headings_only(region: etree._Element, text: str) -> bool:
    """Whether the page's content is headings only: no paragraph, list, table, code or media.

    TypeDoc's hierarchy page is its title and "Hierarchy Summary": the tree is drawn by a
    script. A form's controls (a settings panel beside the content) are no content of the page,
    nor is a footer's copyright line (Erlang/OTP's part covers: a title, a version and a date in
    ``<center>``s, then ``<div class="footer">``).
    """
    if not any(_text(h) for h in region.iter(*HEADINGS)):
        return False
    footers = set(_FOOTERS(region))
    for el in region.iter(*_CONTENT_TAGS):
        if el.tag in {"img", "picture", "video", "audio", "iframe", "object", "embed"}:
            return False
        if _text(el) and next(el.iterancestors(*_CONTROLS), None) is None:
            if footers and not footers.isdisjoint(el.iterancestors()):
                continue
            if len(_text(el)) > _controls_chars(el):
                return False
    rest = len(text) - sum(len(_text(h)) for h in region.iter(*HEADINGS)) - _controls_chars(region)
    rest -= sum(len(_text(f)) for f in footers if footers.isdisjoint(f.iterancestors()))
    return rest <= HEADINGS_ONLY_TEXT


def _is_search_page(region: etree._Element, text: str, page: str) -> bool:
    """Whether the page is a form that queries the site, with little else (its results, if any).

    A search box (``type=search``, ``q``...), or a form that asks the page itself again with the
    reader's choices (``method=get`` and the page as its ``action``: a timeline's or a report's
    filters): what it shows is made by the query, not written. The second's results are links
    and its menus and notes scraps: it is such a page when no block of its prose is longer than
    a line (``LIST_LINE``; "No matches found.", a report's line on what it lists).
    """
    for form in region.iter("form"):
        inputs = form.xpath(".//input[@type='search' or @name='q' or @name='s' or @name='query']")
        if inputs and len(text) - len(_text(form)) < SEARCH_PAGE_TEXT:
            return True
        if not inputs and _queries_itself(form, page) and _largest_prose(region) <= LIST_LINE:
            return True
    return False


#: Inputs that hold no choice of the reader's.
_NO_CHOICE_INPUTS = frozenset({"hidden", "submit", "button", "image", "reset"})


def _queries_itself(form: etree._Element, page: str) -> bool:
    """Whether a form asks for the page itself (``GET``, its action this page) with a field to fill.

    Its ``action`` must name the page: a jump menu's form ("Monat wählen", its ``<select>`` read
    by a script) leaves it empty.
    """
    if (form.get("method") or "get").strip().lower() != "get":
        return False
    action = (form.get("action") or "").strip()
    target = join_url(page, action) if action else None
    if target is None or urlsplit(target).path.rstrip("/") != urlsplit(page).path.rstrip("/"):
        return False
    return any(
        el.tag != "input" or (el.get("type") or "text").strip().lower() not in _NO_CHOICE_INPUTS
        for el in form.iter("input", "select", "textarea")
    )


def _cards_reason(cards: list[etree._Element], page: str, host: str) -> str | None:
    """Why the page's ``<article>`` cards make it a listing: enough of them, or none its own.

    Enough of them lead to other pages of the site: cards that lead nowhere but to their own
    place on the page are its sections (Erlang/OTP's reference writes each function as an
    ``<article class="func">``, its heading's one link its own anchor).
    """
    if len(cards) >= MIN_ENTRIES and _leading_elsewhere(cards, page, host):
        return f"{len(cards)} <article> entries"
    if cards and all(_permalink(card, page, host) for card in cards):
        return f"{len(cards)} <article> entries whose permalinks are other pages"
    return None


#: The share of a page's ``<article>`` cards with a permalink to another page that makes them
#: entries (a listing's cards all have one; a "read more" button is no permalink).
LINKED_CARDS_SHARE = 1 / 3


def _leading_elsewhere(cards: list[etree._Element], page: str, host: str) -> bool:
    """Whether enough of the cards have a permalink to another page of the site.

    Or a heading that links away by its words: a site built for another address links its
    posts there (Hugo's ``baseURL`` left at ``http://localhost:1313/``).
    """
    needed = LINKED_CARDS_SHARE * len(cards)
    linked = 0
    for card in cards:
        linked += _permalink(card, page, host) is not None or _titled_away(card)
        if linked >= needed:
            return True
    return False


def _titled_away(card: etree._Element) -> bool:
    """Whether a card's heading is a link off the page: its words most of the heading's."""
    headings = card.xpath(_HEADING_XPATH)
    if not headings:
        return False
    shown = len(_text(headings[0]))
    return shown > 0 and any(
        (href := (a.get("href") or "").strip())
        and not href.startswith(("#", "javascript:"))
        and len(_text(a)) >= ENTRY_LINK_SHARE * shown
        for a in headings[0].iter("a")
    )


def _form_or_list_only(
    region: etree._Element, text: str, dates: list[etree._Element], page: str, host: str
) -> str | None:
    """Why the page is a search form or only a dated list, if it is."""
    if _is_search_page(region, text, page):
        return "a search form"
    if (entries := _dated_list_only(region, text, page, host)) >= 1:
        return f"only a dated list of {entries} links to other pages"
    if entries := _initials_index(region, page, host):
        return f"an index of {entries} pages by initials"
    if entries := _link_lists_only(region, text, dates, page, host):
        return f"only lists of {entries} links, a line at most"
    if entries := _children_index(region, page, host):
        return f"an index of {entries} pages below its own, an introduction of its own at most"
    if entries := _link_table_only(region, text, page, host):
        return f"only a table of {entries} links, a line at most"
    if entries := _named_pages_index(region, text, dates, page, host):
        return f"an index naming {entries} pages, each with a label at most"
    return None


def _link_table_only(region: etree._Element, text: str, page: str, host: str) -> int:
    """Entries of the page's tables when they are its content: rows that each list one page.

    A table's rows as list items: each row leads with a link to a page of the site (a label and
    a second link of the same entry beside it in its cell at most: "file lessons.h [code]"), or is a line
    that describes the row above, a heading or a separator (no link): a generator's directory or
    file index (Doxygen's ``memberdecls`` table). The rest of the page (outside the tables and
    its headings) is a line at most (``LIST_ONLY_TEXT``).
    """
    rest = len(text) - sum(len(_text(h)) for h in region.iter(*HEADINGS))
    entries: set[str] = set()
    for table in region.iter("table"):
        if next(table.iterancestors("table"), None) is not None:
            continue
        for row in table.iter("tr"):
            links = [a for a in row.iter("a") if _site_link(a.get("href"), page, host)]
            shown = _text(row)
            if not links:
                if len(shown) > CHILD_LABEL:
                    return 0
                continue
            label = len(shown) - sum(len(_text(a)) for a in links)
            # Links in several cells are a row of ways to go (DocBook's "Prev | Up | Next").
            cells = {next(a.iterancestors("td", "th"), None) for a in links}
            if label > CHILD_LABEL or len(cells) > 1 or not _text(links[0]):
                return 0
            entries.add(_site_link(links[0].get("href"), page, host) or "")
        rest -= len(_text(table)) - sum(len(_text(h)) for h in table.iter(*HEADINGS))
    return len(entries) if entries and rest <= LIST_ONLY_TEXT else 0


#: What an index of fewer than ``MIN_ENTRIES`` pages may say outside its rows, headings, controls
#: and footer: a separator, a stray word; twelve Japanese characters, a one-line post, weigh 24.
INDEX_SCRAP = 20
#: A footer by its tag, role or widespread name (``<div id="footer">``: a generator's credit line).
_FOOTERS = etree.XPath(
    ".//*[self::footer or @role='contentinfo' or @id='footer'"
    " or contains(concat(' ', normalize-space(@class), ' '), ' footer ')]"
)
#: Pictures, videos and embedded documents that are no link's: content of the page's own.
_OWN_MEDIA = etree.XPath(
    ".//*[self::img or self::picture or self::video or self::audio or self::iframe"
    " or self::object or self::embed][not(ancestor::a)]"
)


def _shows_media(region: etree._Element, page: str, host: str) -> bool:
    """Whether the region shows a picture, a video or a document of its own.

    Not a frame of the site's own pages: YARD's class list beside every page.
    """
    return any(
        el.tag != "iframe" or _site_link(el.get("src"), page, host) is None for el in _OWN_MEDIA(region)
    )


#: The share of an index's text (outside its headings) that its rows naming pages make: the rest
#: is its introduction, its columns' names, a signature line.
INDEX_SHARE = 0.5
#: What a list item may say after its link to a page below this one: a label, the page's title
#: ("small_lessons.guide.install: Installing the command-line tool"), not a description.
CHILD_LABEL = 100
#: Page addresses that are pages, not files: no extension, or a web page's.
_PAGE_SUFFIX_RE = re.compile(r"(?:/|/[^/.]*|\.(?:html?|php|aspx?|jsp))$", re.I)


def _below(page: str) -> str:
    """The path the pages below ``page`` begin with (``/x/guide.html``: ``/x/guide/``)."""
    path = re.sub(r"/index\.html?$", "/", urlsplit(page).path, flags=re.I)
    path = re.sub(r"\.(?:html?|php|aspx?|jsp)$", "", path, flags=re.I)
    return path if path.endswith("/") else path + "/"


def _children_index(region: etree._Element, page: str, host: str) -> int:
    """Pages below this one that its lists link to, when they are its content: an index of them.

    A section's or package's page lists the pages under its path (a wiki's ``/wiki/Guide`` its
    ``/wiki/Guide/...`` pages; pdoc's ``guide.html`` its ``guide/*.html`` modules): lists whose
    every item begins with one link to such a page, followed by a label at most
    (``CHILD_LABEL``), two such pages or more, and no block of text of the page's own longer
    than a line (``LIST_LINE``) outside lists, headings, code and form controls; an introduction
    (``INDEX_LEAD``) over three pages or more.
    """
    base = _below(page)
    children: set[str] = set()
    other_lists = False
    for lst in region.iter("ul", "ol"):
        items = [li for li in lst if li.tag == "li"]
        targets: set[str] = set()
        for li in items:
            links = [a for a in li.iter("a") if _site_link(a.get("href"), page, host)]
            first = links[0] if links else None
            target = _site_link(first.get("href"), page, host) if first is not None else None
            if (
                target is None
                or len(links) != 1
                or not target.startswith(base)
                or not _PAGE_SUFFIX_RE.search(target.split("?")[0])
                or _text(li).find(_text(first)) > 2
                or len(_text(li)) - len(_text(first)) > CHILD_LABEL
            ):
                other_lists = other_lists or next(lst.iterancestors("ul", "ol"), None) is None
                break
            targets.add(target)
        else:
            children |= targets
    if len(children) < 2:
        return 0
    prose = _prose_blocks(region)
    if max(prose.values(), default=0) <= LIST_LINE:
        return len(children)
    # Three pages or more may have an introduction (MkDocs' "User Guide": what the section is
    # for and how to read it, over its eight pages), all the prose the page has: no list of
    # its own besides (Django's "Writing code": ways to help, then its five pages).
    if other_lists or len(children) < MIN_ENTRIES:
        return 0
    return len(children) if sum(prose.values()) <= INDEX_LEAD else 0


#: The introduction an index of a section's pages may have, all its prose: a paragraph or two
#: (about a hundred words).
INDEX_LEAD = 600


#: Elements that hold one entry of an index: a list's item, a term or its definition, a table's
#: row, a paragraph, a grid's cell (a ``<div>``).
_ROWS = frozenset({"li", "dt", "dd", "tr", "p", "div"})


def _mid_sentence(row: etree._Element, links: list[etree._Element]) -> bool:
    """Whether the row's links are words of a sentence: words before them and after them.

    CMake's reference pages are one sentence each, "First version number component of the
    CMAKE_VERSION variable.": prose that names a page, not an index's row ("codeBlock(int) -
    Method in class Install", "See CMAKE_VERSION.").
    """
    shown = _text(row)
    first, last = _text(links[0]), _text(links[-1])
    start = shown.find(first)
    end = shown.rfind(last)
    if start < 0 or end < 0:
        return False
    before, after = shown[:start], shown[end + len(last) :]
    return len(_WORD_RE.findall(before)) >= 2 and _WORD_RE.search(after) is not None


_WORD_RE = re.compile(r"[^\W\d_]{2,}")


def _label_chars(row: etree._Element, links: list[etree._Element]) -> int:
    """Characters of the row's own text besides its links'.

    Not its nested rows' (a tree's children), nor its headings' (no text of the page's own).
    """
    chars = len((row.text or "").strip())
    for el in row:
        if el.tag not in _ROWS and el.tag not in HEADINGS and el not in links:
            chars += len(_text(el)) - sum(len(_text(a)) for a in links if el in a.iterancestors())
        chars += len((el.tail or "").strip())
    return chars


#: A link's text that is an address, not a page's name ("Retrieved from https://…").
_URL_TEXT_RE = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//", re.I)


#: A paragraph longer than a line: prose, no index's (looked for in C before any link is read).
#: Not a footer's: a licence paragraph under every page (QDoc's ``div.footer``) says nothing of it.
_LONG_PARAGRAPH = etree.XPath(
    f"boolean(.//p[string-length(normalize-space()) > {LIST_LINE}][not(ancestor-or-self::*[self::footer"
    " or @role='contentinfo' or @id='footer'"
    " or contains(concat(' ', normalize-space(@class), ' '), ' footer ')])])"
)


def _leads_only_to(el: etree._Element, targets: set[str], page: str, host: str) -> bool:
    """Whether every link in ``el`` to another page of the site leads to one of ``targets``."""
    return all((t := _site_link(a.get("href"), page, host)) is None or t in targets for a in el.iter("a"))


#: Code: a link in it names an entry only when it is all of it (``<code><a>install</a></code>``).
_CODE = frozenset({"code", "pre"})


def _titled_block(body: etree._Element, page: str, host: str) -> etree._Element | None:
    """The first block over the page's title ``<h1>`` holding a row that names one page.

    Not a row of links to several pages beside the title (YARD's "Classes Methods Files" over
    its class list).
    """
    # Not an <h1> that is the site's name, a link home (a theme's header without <header>).
    h1 = next((h for h in body.iter("h1") if not _home_link(h)), None)
    for block in h1.iterancestors() if h1 is not None else ():
        if block is body:
            return None
        rows: dict[etree._Element, set[str]] = {}
        for a in block.iter("a"):
            if (row := next(a.iterancestors(*_ROWS), None)) is not None and (
                target := _site_link(a.get("href"), page, host)
            ):
                rows.setdefault(row, set()).add(target)
        # Rows that name one page each: a paragraph's one link beside the title (Apache's
        # preamble, "Below is a list of all of the modules…") is no index's row.
        if sum(len(targets) == 1 for targets in rows.values()) >= MIN_ENTRIES:
            return block
    return None


def _named_pages_index(
    region: etree._Element, text: str, dates: list[etree._Element], page: str, host: str
) -> int:
    """Pages an index names, when the page is one: rows that each name one page make its text.

    An API generator's indexes are rows, not lists of links: a class list's grid of ``<div>``
    cells (a class's link, then its one-line description in the next cell), a class tree's
    nested items ("org.example.Install" under "java.lang.Object"), an A-Z index's terms
    ("codeBlock(int) - Method in class Install") and their definitions, a constants page's
    captions, a package's ``<code><a>…install</a></code>: Installing…``. Each row (``_ROWS``)
    names one page of the site, with a label at most (``CHILD_LABEL``); the element after it,
    leading to no other page, is its description (a line of it at most).

    An index names ``MIN_ENTRIES`` pages or more in rows of one structure (``MIN_ENTRIES`` of
    one tag in parents of one tag: a page's scattered controls, "View Latest Version", "See
    TracWiki", are none), its rows make ``INDEX_SHARE`` of the text outside its headings (a
    Chinese or Japanese character weighs as a short word: a one-line Japanese post over its
    three categories is mostly its own words), no prose is longer than a line (``LIST_LINE``)
    and no date is shown (a short post shows its own). An index of one or two pages says
    nothing else at all (``INDEX_SCRAP``). Links in code with more words are a signature's types
    (a class page's members) and links in headings are the headings', not entries; a sidebar's
    or current menu's links are the site's, and so are a page's columns around the block of its
    title when it has no main area (Mezzanine's, beside a one-line post).
    """
    if _LONG_PARAGRAPH(region):
        return 0
    aside = _site_columns(region)
    rows = _index_rows(region, aside, page, host)
    if not rows.entries or dates:
        return 0
    if len(rows.entries) < MIN_ENTRIES:
        # An index of one or two pages (a class tree of one class) says nothing outside its
        # rows, headings, form controls and footer: a one-line post says its line. Nor shows a
        # picture or a video of its own: a photo's page says nothing either.
        said = weighed_length(text) - rows.chars - _controls_chars(region)
        said -= sum(weighed_length(_text(el)) for el in (*region.iter(*HEADINGS), *aside, *_FOOTERS(region)))
        # Or its rows are a table of contents the page declares (DocBook's and gtk-doc's
        # ``<div class="toc">``), under a paragraph at most: a part's page listing its two (its
        # navigation bar's arrows are no pictures of its own).
        if _in_declared_toc(rows.rows):
            return len(rows.entries) if said <= LIST_LINE else 0
        return len(rows.entries) if said <= INDEX_SCRAP and not _shows_media(region, page, host) else 0
    if region.tag == "body" and not _in_declared_toc(rows.rows):
        # No main area: the page's menus and side columns are in the region. The rows that
        # count are around its title, in the first block over its <h1> that names a page (or
        # they are all in a table of contents the page declares: DocBook's section of
        # reference pages, "47.1. Interface Functions", titled by an <h2>).
        if (scope := _titled_block(region, page, host)) is None:
            return 0
        region, text = scope, _text(scope)
        aside = [b for b in aside if scope in b.iterancestors()]
        rows = _index_rows(region, aside, page, host)
        if any(d is scope or scope in d.iterancestors() for d in dates):
            return 0
    if len(rows.entries) < MIN_ENTRIES or max(rows.shapes.values(), default=0) < MIN_ENTRIES:
        return 0
    own = weighed_length(text) - sum(weighed_length(_text(el)) for el in (*region.iter(*HEADINGS), *aside))
    if rows.chars + rows.described < INDEX_SHARE * own:
        return 0
    if _largest_prose(region, skip=_FOOTERS(region)) > LIST_LINE:
        return 0
    return len(rows.entries)


@dataclass
class _IndexRows:
    """The rows of a page that each name one page of the site (:func:`_named_pages_index`)."""

    #: The pages named.
    entries: set[str] = field(default_factory=set)
    #: Rows by their tag and their parent's: a structure repeated, or rows scattered.
    shapes: dict[tuple[str, str], int] = field(default_factory=dict)
    #: Characters (weighed) of the rows' links and labels.
    chars: int = 0
    #: Characters (weighed) of the descriptions after them, a line of each at most.
    described: int = 0
    #: The rows themselves.
    rows: list[etree._Element] = field(default_factory=list)


def _index_rows(region: etree._Element, aside: list[etree._Element], page: str, host: str) -> _IndexRows:
    """The region's rows that name one page each, outside ``aside``, with a label at most."""
    rows: dict[etree._Element, list[etree._Element]] = {}
    # Each code block's text read once: Vim's help is one <pre> of 700 KB and 16,000 links.
    code_texts: dict[etree._Element, str] = {}
    for a in region.iter("a"):
        if not (name := _text(a)) or navigation_link(a) or _URL_TEXT_RE.match(name):
            continue
        if any(
            up in aside
            or up.tag in HEADINGS
            or (up.tag in _CODE and not _names_code(_code_text(code_texts, up), name))
            for up in a.iterancestors()
        ):
            continue
        if (row := next(a.iterancestors(*_ROWS), None)) is not None:
            rows.setdefault(row, []).append(a)
    found = _IndexRows()
    for row, links in rows.items():
        targets = {t for a in links if (t := _site_link(a.get("href"), page, host))}
        if len(targets) != 1 or (label := _label_chars(row, links)) > CHILD_LABEL:
            continue
        if _mid_sentence(row, links):
            continue
        # An entry is a place: rows naming members of another page (Javadoc's "Uses of Class"
        # pages, each row a member of the class's own page) are as many entries as members.
        found.entries |= {_place(a, target) for a in links for target in targets}
        found.rows.append(row)
        parent = row.getparent()
        shape = (row.tag, "" if parent is None else parent.tag)
        found.shapes[shape] = found.shapes.get(shape, 0) + 1
        found.chars += label + sum(weighed_length(_text(a)) for a in links)
        after = _after_row(row)
        if after is not None and _leads_only_to(after, targets, page, host):
            found.described += min(weighed_length(_text(after)), LIST_LINE)
    return found


def _after_row(row: etree._Element) -> etree._Element | None:
    """The element after an index's row, where its description is: the next row, or the next cell.

    QDoc's class lists put each name in a paragraph alone in its cell, the class's one line in
    the next cell (``<td><p><a>QTimeLine</a></p></td><td><p>Timeline for…</p></td>``).
    """
    after = row.getnext()
    if after is not None:
        return after if after.tag in _ROWS else None
    cell = row.getparent()
    if cell is not None and cell.tag in {"td", "th"} and not (cell.text or "").strip():
        after = cell.getnext()
        return after if after is not None and after.tag in {"td", "th"} else None
    return None


def _code_text(texts: dict[etree._Element, str], code: etree._Element) -> str:
    """``code``'s text, read once per element into ``texts``."""
    if (found := texts.get(code)) is None:
        found = texts[code] = _text(code)
    return found


def _names_code(code: str, name: str) -> bool:
    """Whether a link's text ``name`` names the code it is in, all of it or before parameters.

    The name a member's parameters follow (Javadoc's ``<code><a>andThen</a>(Failable<E>
    after)</code>``), not a type in a signature ("static final Failable").
    """
    return code == name or (code.startswith(name) and code[len(name) : len(name) + 1] in _PARAMETERS_OPEN)


#: What opens a member's parameters after its name in a signature.
_PARAMETERS_OPEN = frozenset({"(", "<", "["})


def _place(link: etree._Element, target: str) -> str:
    """``target`` (the page of the site ``link`` leads to), with its fragment if the link names it.

    A member's name leads to its anchor (``<a href="Failable.html#andThen(…)">andThen</a>``); a
    control beside a declaration does not name one (Haddock's "Source", to the line).
    """
    fragment = unquote((link.get("href") or "").partition("#")[2]).strip()
    name = _text(link)
    return f"{target}#{fragment}" if name and fragment.startswith(name) else target


def _names_toc(el: etree._Element) -> bool:
    """Whether ``el``'s class names it a table of contents.

    ``toc`` (DocBook's and gtk-doc's), a name of its own after it (Sphinx's ``toctree-wrapper``).
    """
    return any(
        token == "toc" or token.startswith(("toc-", "toc_", "toctree"))
        for token in (el.get("class") or "").split()
    )


def _in_declared_toc(rows: list[etree._Element]) -> bool:
    """Whether the rows are in a block whose class names it a table of contents (``toc``).

    All of them, but one of many (a navigation bar's row: DocBook's "Up" beside the contents).
    """
    inside = sum(any(map(_names_toc, row.iterancestors())) for row in rows)
    return inside > 0 and inside >= len(rows) - 1 and inside * 10 >= len(rows) * 9


#: What is not a page's prose: its headings, lists, code, form controls and links' words.
_NOT_PROSE = frozenset({*HEADINGS, "a", "li", "dt", "pre", "code", *_CONTROLS})


def _largest_prose(region: etree._Element, skip: Iterable[etree._Element] = ()) -> int:
    """Characters of the region's largest block of prose (its paragraphs summed by their parent).

    Not counting the blocks in ``skip`` (footers).
    """
    return max(_prose_blocks(region, skip).values(), default=0)


def _prose_blocks(region: etree._Element, skip: Iterable[etree._Element] = ()) -> dict[etree._Element, int]:
    """Characters of each block of the region's prose (its paragraphs summed by their parent)."""
    blocks: dict[etree._Element, int] = {}
    skipped: set[etree._Element] = set(skip)

    def add(owner: etree._Element, chars: int) -> None:
        # A paragraph's, or an inline element's, words belong to the block around it.
        block = next((e for e in (owner, *owner.iterancestors()) if e.tag in _BLOCKS), owner)
        blocks[block] = blocks.get(block, 0) + chars

    for el in region.iter(etree.Element):
        parent = el.getparent()
        if parent in skipped:
            skipped.add(el)
            continue
        if el is not region and parent is not None and (tail := len(" ".join((el.tail or "").split()))):
            add(parent, tail)
        if el in skipped:  # a block skipped whole: its tail was the parent's
            continue
        if el.tag in _NOT_PROSE:
            skipped.add(el)
        elif chars := len(" ".join((el.text or "").split())):
            add(el, chars)
    return blocks


def _shown_chars(body: etree._Element | None, chrome: list[etree._Element], *, weighed: bool = False) -> int:
    """Characters of text the body (and its chrome, taken out of it) shows without scripts.

    A ``<noscript>`` notice ("You need to enable JavaScript to run this app") is not the page's
    text; a long one is (an unclosed tag in it makes a parser put the rest of the page there).
    """
    parts = [text for el in (body, *chrome) if el is not None for text in _SHOWN_TEXT(el)]
    notices = [n for el in (body, *chrome) if el is not None for n in el.iter("noscript")]
    notice_chars = sum(len("".join(n.text_content().split())) for n in notices)
    shown = "".join("".join(parts).split())
    return (weighed_length(shown) if weighed else len(shown)) - (
        notice_chars if notice_chars < NOTICE_TEXT else 0
    )


_SHOWN_TEXT = etree.XPath(".//text()[not(ancestor::script or ancestor::style or ancestor::template)]")


#: Link types that make a link the way between a manual's pages, not an entry of a list: HTML's
#: ``next`` and ``prev``, HTML 4's ``contents``, ``index`` and ``up`` (Texinfo's header line on
#: every page: "Next: …, Previous: …, Up: …"). Not ``start``: NexT's site title, a link home.
NAVIGATION_RELS = frozenset({"next", "prev", "previous", "contents", "index", "up"})


def navigation_link(a: etree._Element) -> bool:
    """Whether the link's ``rel`` names it a way to the next, previous, upper or contents page."""
    rel = a.get("rel")
    return bool(rel) and not NAVIGATION_RELS.isdisjoint(rel.lower().split())


def _entries_reason(
    region: etree._Element,
    text: str,
    dates: list[etree._Element],
    page: str,
    host: str,
    chrome: list[etree._Element] | None = None,
) -> str | None:
    """Why the main content is made of entries (linked headings, dated links, links, a form), if it is."""
    headings = [_heading_link(h, page, host) for h in region.iter(*HEADINGS)]
    heading_links = {t for t in headings if t is not None}
    if len(heading_links) >= MIN_ENTRIES or (
        # Two entries and nothing else: every heading but the page's title leads elsewhere.
        len(heading_links) >= 2 and headings.count(None) <= 1
    ):
        return f"{len(heading_links)} headings link to other pages"
    if len(heading_links) >= 2 and _restated_entries(region, heading_links, page, host) >= 2:
        return f"{len(heading_links)} headings link to other pages, each again below it"
    if (entries := _dated_entries(dates, page, host)) >= MIN_ENTRIES:
        return f"{entries} dated links to other pages"
    if (share := _links_share(region, len(text), page, host, chrome)) is not None:
        # A sidebar's archive and tag links are the site's, not the page's: a one-line post
        # beside them (Chronicle's <div id="sidebar">, no <aside>) is no list of them.
        sidebars = _site_columns(region)
        beside = bool(sidebars) and _links_share(region, len(text), page, host, chrome, sidebars) is None
        if not beside and not _introduced_contents(region, text, page, host, chrome):
            return f"links to the site make {int(share * 100)}% of its text"
    return _form_or_list_only(region, text, dates, page, host)


def _introduced_contents(
    region: etree._Element, text: str, page: str, host: str, chrome: list[etree._Element] | None
) -> bool:
    """Whether the links are the page's declared table of contents, over an introduction of its own.

    DocBook's parts and chapters (PostgreSQL's "Server Administration", GIMP's "What to do if
    you are stuck"): a ``<div class="toc">`` of the sections, and the part's or chapter's own
    text, more than a line of it. That text is nowhere else: the page is a document. A part
    that is its contents alone stays a list.
    """
    # The outermost blocks so named (DocBook's ``div.toc`` around its ``dl.toc``).
    tocs = [el for el in region.iter(etree.Element) if _names_toc(el)]
    tocs = [el for el in tocs if not any(map(_names_toc, el.iterancestors()))]
    if not tocs or _largest_prose(region) <= LIST_LINE:
        return False
    return _links_share(region, len(text), page, host, chrome, tocs) is None


def _restated_entries(region: etree._Element, targets: set[str], page: str, host: str) -> int:
    """Headings linking another page whose entry links it again ("read more", "0 comments").

    A post's heading that links elsewhere is a cross-reference; a listing's entry leads to its
    post twice, by its title and by a link below it (Mezzanine's two-post archive pages). The
    entries are siblings: headings of separate boxes (a repository page's "Releases" and
    "Contributors" in its sidebar, each with its "+ 65 releases") are no list.
    """
    restated: dict[etree._Element | None, set[str]] = {}
    current, heading, seen = None, None, 0
    for el in region.iter(*HEADINGS, "a"):
        if el.tag != "a":
            # A heading of a lower rank is the entry's own (Mezzanine's ``<h6>`` byline).
            if current is None or heading is None or el.tag <= heading.tag:
                current, heading, seen = _heading_link(el, page, host), el, 0
            continue
        if current is not None and heading is not None and _site_link(el.get("href"), page, host) == current:
            seen += 1  # the heading's own link, then the entry's again
            if seen >= 2:
                restated.setdefault(heading.getparent(), set()).add(current)
    return max((len(found & targets) for found in restated.values()), default=0)


#: The page's complementary area by its widespread name (``id``/``class`` "sidebar"), where a
#: theme writes no ``<aside>``: the site's archive, tags and blogroll beside the content.
_SIDEBARS = etree.XPath(
    ".//*[@id='sidebar' or contains(concat(' ', normalize-space(@class), ' '), ' sidebar ')]"
)


def _site_columns(region: etree._Element) -> list[etree._Element]:
    """The region's sidebars and current menus (:data:`_SIDEBARS`, :func:`_current_menus`), outermost."""
    found = {*_SIDEBARS(region), *_current_menus(region)}
    return [b for b in found if found.isdisjoint(b.iterancestors())]


def _current_menus(region: etree._Element) -> list[etree._Element]:
    """The menus of the region that mark the page as the current one (``aria-current="page"``).

    A theme's sidebar inside ``<main>`` (dumi's), named no "sidebar": the list of links around
    the page's own marked link, as far up as the region's blocks are links and nothing else.
    """
    menus = []
    for a in region.iter("a"):
        if a.get("aria-current") != "page":
            continue
        block = a
        for ancestor in a.iterancestors():
            if ancestor is region:
                break
            links = sum(len(_text(link)) for link in ancestor.iter("a"))
            if links < MENU_LINK_SHARE * len(_text(ancestor)):
                break
            block = ancestor
        if block is not a:
            menus.append(block)
    return menus


#: The share of a block's text its links make, at least, for the block to be a menu.
MENU_LINK_SHARE = 0.9


#: A pager's link, by the arrow it opens or ends with ("← Newer: TIL: git switch -", "Older: X →"):
#: the way to the next or previous post without ``rel`` (Urubu's), not an entry.
_PAGER_ARROW_RE = re.compile(r"^[←«‹]|[→»›]$")


def _links_share(
    region: etree._Element,
    chars: int,
    page: str,
    host: str,
    chrome: list[etree._Element] | None,
    without: list[etree._Element] | None = None,
) -> float | None:
    """The share of the text (``chars``) links to the site make, when it makes the page a list.

    ``without``: blocks of the region (none inside another) whose links and text are left out.
    """
    skipped = {a for block in without or () for a in block.iter("a")}
    chars -= sum(len(_text(block)) for block in without or ())
    site_links: dict[str, int] = {}
    own = unquote(urlsplit(page).path).rstrip("/")
    for a in region.iter("a"):
        if a in skipped:
            continue
        if (target := _site_link(a.get("href"), page, host)) is not None and not navigation_link(a):
            if _own_view(target, own) or _PAGER_ARROW_RE.search(text := _text(a)):
                continue
            site_links[target] = site_links.get(target, 0) + len(text)
    link_chars = sum(site_links.values())
    share = link_chars / chars if chars > 0 else 0.0
    if len(site_links) >= MIN_LINKS_FOR_SHARE and share < LINK_SHARE:
        # Links into the page itself (its "On this page") and form controls' words (a settings
        # panel) are neither the page's text nor its entries: the share of many links is of
        # the rest. (Not of a few: a one-line post's categories beside its "Jump to" links.)
        shown = chars - _in_page_chars(region, page) - _controls_chars(region)
        share = link_chars / shown if shown > 0 else 0.0
    if (len(site_links) >= MIN_LINKS_FOR_SHARE and share >= LINK_SHARE) or (
        len(site_links) >= 2
        and share >= FEW_LINKS_SHARE
        and not _menu_pager(region, site_links, page, host, chrome or [])
    ):
        return share
    return None


def _own_view(target: str, own: str) -> bool:
    """Whether a site link is a view of the page itself: a wiki's tabs, no entry.

    Its own path with a query (``?action=history``), or under a tool's prefix (gitit's
    ``/_edit/<page>``, ``/_history/<page>``).
    """
    path = unquote(urlsplit(target).path).rstrip("/")
    if len(own) <= 1:
        return False
    return path == own or (path.endswith(own) and path[: -len(own)].count("/") == 1)


#: The site's menus: navigation, sidebars, and blocks that say they are navigation.
SITE_MENUS = etree.XPath("//nav | //aside | //*[@role='navigation']")


def _menu_pager(
    region: etree._Element, site_links: dict[str, int], page: str, host: str, chrome: list[etree._Element]
) -> bool:
    """Whether the region's few site links are a pager to pages of the site's menu, after its text.

    A docs page ends with its previous and next pages (Fumadocs' two cards, with no ``rel``):
    every target is in the site's navigation too, and no text of the page's own comes after the
    first of them. A one-line page was a listing by their share of its text.
    """
    # The menus still in the page, and those taken out of the region (a sidebar inside <main>).
    root = region.getroottree().getroot()
    menus = [*SITE_MENUS(root), *chrome]
    menu = {
        target
        for block in menus
        for a in block.iter("a")
        if (target := _site_link(a.get("href"), page, host))
    }
    if not set(site_links) <= menu:
        return False
    links = {a for a in region.iter("a") if _site_link(a.get("href"), page, host) in site_links}

    def in_link(el: etree._Element) -> bool:
        return el in links or any(ancestor in links for ancestor in el.iterancestors("a"))

    after = False
    for el in region.iter(etree.Element):
        after = after or el in links
        if not after:
            continue
        if not in_link(el) and (el.text or "").strip():
            return False
        parent = el.getparent()
        if (el.tail or "").strip() and not (parent is not None and in_link(parent)):
            return False
    return True


def _own_text(region: etree._Element, page: str, host: str) -> tuple[int, int]:
    """Characters of the largest block of the page's own text (not an entry's); of the first one.

    The first: the largest such block before the first entry.

    Text belongs to an entry when the nearest heading before it links to another page of the
    site (an entry's title, then its excerpt or whole text); link texts belong to their targets.
    The rest is grouped by the block that holds it (a paragraph's parent, a block's own text):
    an article's body is one such block of many paragraphs, a listing's leftovers are scraps.
    An entry begins at such a heading or at an ``<article>`` whose permalink is another page.
    """
    blocks: dict[etree._Element, int] = {}
    inside: set[etree._Element] = set()
    entry = False
    lead = -1
    for el in region.iter():
        if not isinstance(el.tag, str):
            continue
        parent = el.getparent()
        if parent in inside:
            inside.add(el)
            continue
        if el.tag in HEADINGS:
            entry = _heading_link(el, page, host) is not None
            inside.add(el)
            if entry and lead < 0:
                lead = max(blocks.values(), default=0)
            continue
        if lead < 0 and el.tag == "article" and _permalink(el, page, host) is not None:
            lead = max(blocks.values(), default=0)
        if el.tag in {"a", "p"}:
            inside.add(el)
        if entry or el.tag == "a":
            continue
        if el.tag == "p":
            chars = len(_text(el)) - sum(len(_text(a)) for a in el.iter("a"))
            block = parent if parent is not None else el
        else:
            chars = len(" ".join(" ".join([el.text or "", *(c.tail or "" for c in el)]).split()))
            block = el if el.tag in _BLOCKS or parent is None else parent
        if chars > 0:
            blocks[block] = blocks.get(block, 0) + chars
    own = max(blocks.values(), default=0)
    return own, own if lead < 0 else lead


def titled_article(tree: etree._Element) -> etree._Element | None:
    """The page's one ``<article>``, or among several the one holding every ``<h1>`` of the page.

    Hexo's Icarus puts the post in an ``<article>`` with its title, and five "recent posts"
    ``<article class="media">`` cards in a sidebar widget beside it: the page's title says which
    one is the post.
    """
    articles = [a for a in tree.iter("article") if next(a.iterancestors("article"), None) is None]
    if len(articles) == 1:
        return articles[0]
    titles = list(tree.iter("h1"))
    holders = [a for a in articles if any(a in h.iterancestors() for h in titles)]
    if len(holders) == 1 and titles and all(holders[0] in h.iterancestors() for h in titles):
        return holders[0]
    return None


def _lone_article(tree: etree._Element, region: etree._Element, page: str, host: str) -> bool:
    """Whether the page's one ``<article>`` (or the one holding its title) is made of no entries."""
    article = titled_article(tree)
    if article is None or (article is not region and region not in article.iterancestors()):
        return False
    if _permalink(article, page, host) is not None:
        return False
    text = _text(article)
    return bool(text) and _entries_reason(article, text, _date_nodes(article), page, host) is None


def _repeated_entries(region: etree._Element, text: str, page: str, host: str) -> int:
    """Entries of the page, when it is sibling blocks alike, each its own post's excerpt or body.

    Each block begins with a heading and holds a link of the same words as every other block's
    ("permanent link to this entry", "Read more") to a page of the site of its own: an index of
    several stories shown whole, whose titles link nowhere (Blosxom's category pages). Together
    they are most of the page's text. A page of one such block is that story's page.
    """
    best = 0
    for blocks in _alike_blocks(region).values():
        if len(blocks) < 2:
            continue
        # Each link's words -> the blocks holding such a link, and where theirs lead.
        labelled: dict[str, dict[etree._Element, set[str]]] = {}
        for block in blocks:
            for a in block.iter("a"):
                if (target := _site_link(a.get("href"), page, host)) and (label := _text(a).lower()):
                    labelled.setdefault(label, {}).setdefault(block, set()).add(target)
        for holders in labelled.values():
            targets = list(holders.values())
            if (
                len(holders) < 2
                or any(len(t) != 1 for t in targets)
                or len(set().union(*targets)) < len(holders)
            ):
                continue
            if 2 * sum(len(_text(b)) for b in holders) >= len(text):
                best = max(best, len(holders))
    return best


def _alike_blocks(region: etree._Element) -> dict[tuple[etree._Element, str, str], list[etree._Element]]:
    """The region's blocks that open with a heading, by their parent, tag and class.

    Blocks alike are siblings of one tag and class (Apache's module page: its preamble and its
    one directive's section, each a table whose "Description:" links a different glossary, are
    no two entries) whose headings have no permalink of their own (sections of the page).
    """
    groups: dict[tuple[etree._Element, str, str], list[etree._Element]] = {}
    for heading in region.iter(*HEADINGS):
        if any(_permalink_mark(a) for a in heading.iter("a")):
            continue
        block = heading.getparent()
        if block is None or block is region or next(block.iterchildren(etree.Element), None) is not heading:
            continue
        if (parent := block.getparent()) is not None and block not in (
            siblings := groups.setdefault((parent, block.tag, block.get("class") or ""), [])
        ):
            siblings.append(block)
    return groups


def classify_page(html: str, url: str) -> PageKind:
    """Whether ``html`` (fetched from ``url``) is an article, a listing, or says neither."""
    tree = parse_html(html)
    if tree is None:
        return PageKind("unknown", "no HTML")
    return classify_tree(tree, url)


def _entries_kind(
    tree: etree._Element,
    region: etree._Element,
    reason: str,
    dates: list[etree._Element],
    *,
    declared: bool,
    dated: bool,
    url: str,
    host: str,
) -> PageKind:
    """What a page of entries (``reason``) is: an article among them, or their listing."""
    own, lead = _own_text(region, url, host)
    if declared and _lone_article(tree, region, url, host):
        # The page's one <article> holds the post and no entry: the entries are around it
        # (a sidebar of recent posts, related posts), whatever the length of the post.
        return PageKind("article", f"declared an article, its one <article> beside {reason}", dated)
    if declared and own >= OWN_TEXT:
        # A news or blog article with its related stories, teasers and "read next" cards
        # around it: the page says what it is, and its own text outweighs any entry's.
        why = f"declared an article, {own} characters of its own beside {reason}"
        return PageKind("article", why, dated)
    if lead >= LEAD_TEXT and (entries := _initials_index(region, url, host)):
        # A back-of-book index: its terms, before any entry, are no body of its own.
        return PageKind("listing", f"an index of {entries} pages by initials", dated)
    if lead >= LEAD_TEXT:
        # A page declaring nothing, with a body longer than any entry's excerpt before the
        # first entry (a listing's entries begin at its top, after a title or a line).
        why = f"{lead} characters of its own before its first entry, then {reason}"
        return PageKind("article", why, dated)
    return PageKind("listing", reason, dated, _entry_dates(dates, url, host))


def classify_tree(tree: etree._Element, url: str) -> PageKind:
    """:func:`classify_page` of a parsed page.

    It prunes the tree (navigation, scripts): read the page's metadata first.
    """
    root_types = _ld_root_types(tree)
    listing_ld = LISTING_TYPES.intersection(root_types)
    if listing_ld and not ARTICLE_TYPES.intersection(root_types[:1]):
        return PageKind("listing", f"JSON-LD @type {sorted(listing_ld)[0]}")
    # Entry cards: articles holding a heading and no article (a page may wrap them in one more).
    # Not the cards of an <aside>, <nav> or <footer>: related reading around the article (Ghost's
    # Casper puts three "read more" cards in an <aside> after every post).
    cards = [
        a
        for a in tree.iter("article")
        if a.find(".//article") is None
        and a.xpath(_HEADING_XPATH)
        and not any(anc.tag in _CARD_CHROME for anc in a.iterancestors())
    ]
    host = (urlsplit(url).hostname or "").lower()
    declared = _declared_article(tree, root_types)
    cards_reason = _cards_reason(cards, url, host)
    # Before the region is found: finding it prunes the scripts.
    scripted = any(s.get("type") != "application/ld+json" for s in tree.iter("script"))
    chrome: list[etree._Element] = []
    region = _main_region(tree, chrome)
    text = _text(region)
    if (nothing := _nothing_to_read(tree, region, text, chrome, scripted=scripted)) is not None:
        return nothing
    dates = _date_nodes(region)
    dated = any(0 <= text.find(label) < DATED_WITHIN for d in dates if (label := _text(d)))
    if reason := cards_reason or _entries_reason(region, text, dates, url, host, chrome):
        return _entries_kind(tree, region, reason, dates, declared=declared, dated=dated, url=url, host=host)
    if declared:
        return PageKind("article", "declared an article", dated)
    if _headings_only(region, text):
        return PageKind("empty", "only headings: nothing to store", dated)
    if _source_view(region, text):
        return PageKind("empty", "a source file's view: code, no heading", dated)
    if (entries := _repeated_entries(region, text, url, host)) >= 2:
        return PageKind(
            "listing",
            f"{entries} blocks alike, each a heading and its own permalink",
            dated,
            _entry_dates(dates, url, host),
        )
    if (entries := _dated_headings(region, dates, url, host)) >= 1:
        # One or two entries (a small tag or year archive): each a linked title with its date.
        return PageKind(
            "listing", f"{entries} dated titles link to other pages", dated, _entry_dates(dates, url, host)
        )
    return PageKind("unknown", "no signal", dated)
