"""A post's date as its page shows it under the title, and dates that are only mentions.

Pure functions over a parsed page (lxml), tested on the held-out sites' pages that needed them
(tests/parsers/test_datelines.py):

- :func:`mentioned_only`: htmldate's last resort in its fast mode is the first bare ISO date of
  the page's text, wherever it is. On pages that declare no date that was a date the author
  wrote in a sentence ("Updated on 2024-06-01 with the memory figures") or in a code sample:
  such a date is no publication date.
  Nor is a timestamp that is only in the page's script data under a key that names no
  publication: HonKit (and GitBook before it) writes the source file's ``"mtime"`` and the
  build's ``"time"`` into every page, and every page of a book was dated the day it was built.
  Nor is a time stamp in the site's footer ("Last updated 2024-06-15 12:00:00 UTC", Asciidoctor's
  source file time). Nor is a date written only in code, a time stamp at least once (JSDoc's
  ``// => "2024-02-29T00:00:00.000Z"``). A date the page also shows on its own ("Published: 2023-10-05" in Org
  mode's postamble) is the page's, though a code sample wrote it first.
- :func:`dateline`: the date a theme prints under the post's title, in a short block of its
  own ("January 15, 2023" in Gatsby's blog starter, "1/15/2023" in vuepress-theme-reco,
  "15th January 2023 at 9:30am" under TiddlyWiki's ``<h2>`` title on a page with no ``<h1>``),
  when the page declares none in its markup. Numeric dates with slashes are read in the order of the
  page's declared language (``en-US``: month first); one that could be either and has no
  language to say is no date.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree

from harvest.parsers.htmlparser import HEADINGS
from harvest.parsers.markup import is_code_row
from harvest.parsers.pagekind import MONTHS
from harvest.parsers.pagemeta import in_site_chrome

#: How far after the title a dateline may be: elements, in document order.
DATELINE_WINDOW = 40
#: A dateline's text, at most (a label and a date: "Published on September 30, 2023").
DATELINE_CHARS = 48
#: A dateline's child elements, at most (an icon, an author, the date, tags: inline pieces).
_DATELINE_CHILDREN = 8
#: A block of this much text is prose: the post's body has begun, and a date in it is a mention.
PROSE_CHARS = 80

_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = f"({MONTHS})"
#: A label before the date that says it is the post's ("Posted on"), not an update's.
_LABEL = r"(?:(?:published|posted|written|created|date)\s*(?:on|:)?\s*|on\s+)?"
_WEEKDAY = r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?"
#: A time of day after a written date: "15th January 2023 at 9:30am" (TiddlyWiki's subtitle),
#: "5 October 2023, at 09:30" (MediaWiki's footer), "January 15, 2023, 09:30".
_TIME = r"(?:,?\s*(?:at\s+)?\d{1,2}[:.]\d\d(?::\d\d)?\s*(?:[ap]\.?m\.?)?)?"
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"^{_LABEL}(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})$", re.I), "ymd"),
    (re.compile(rf"^{_LABEL}(\d{{4}})/(\d{{1,2}})/(\d{{1,2}})$", re.I), "ymd"),
    (re.compile(r"^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日$"), "ymd"),
    # An optional weekday after the label: strftime's "%A, %B %d, %Y" and "%A %d %B %Y" (Zim's
    # "Created Sunday 15 January 2023").
    (
        re.compile(
            rf"^{_LABEL}(?:{_WEEKDAY}\s+)?{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}}){_TIME}$",
            re.I,
        ),
        "Mdy",
    ),
    # C's asctime, as ikiwiki prints its dates: "Thu Jun  1 00:00:00 2023".
    (
        re.compile(
            rf"^{_LABEL}(?:{_WEEKDAY}\s+)?{_MONTH}\s+(\d{{1,2}})\s+\d{{1,2}}:\d\d(?::\d\d)?\s+(\d{{4}})$",
            re.I,
        ),
        "Mdy",
    ),
    (
        re.compile(
            rf"^{_LABEL}(?:{_WEEKDAY}\s+)?(\d{{1,2}})(?:st|nd|rd|th|\.)?\s+{_MONTH}\s+(\d{{4}}){_TIME}$",
            re.I,
        ),
        "dMy",
    ),
    (re.compile(rf"^{_LABEL}(\d{{1,2}})\.(\d{{1,2}})\.(\d{{4}})$", re.I), "dmy"),
    (re.compile(rf"^{_LABEL}(\d{{1,2}})/(\d{{1,2}})/(\d{{4}})$", re.I), "slash"),
)
#: htmldate's fast-mode last resort (``TIMESTAMP_LOOSE_PATTERN``): a bare ISO date.
_BARE_ISO_RE = re.compile(r"(?:199\d|20[0-3]\d)-[01]?\d-[0-3]?\d")
_PROSE_BLOCKS = frozenset({"p", "li", "td", "dd", "blockquote", "pre", "code"})
_CODE = frozenset({"pre", "code"})


def _is_code(el: etree._Element) -> bool:
    """A code block or a row of one (Doxygen writes its code as ``<div class="line">`` rows)."""
    return el.tag in _CODE or is_code_row(el)


_TEXTS = etree.XPath("//body//text()[not(ancestor::script or ancestor::style)]")


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _month_first(language: str | None) -> bool | None:
    """Whether a slashed numeric date of this language puts the month first; None if unknown."""
    if not language:
        return None
    tag = language.strip().lower().replace("_", "-")
    # US English and plain "en" (what JavaScript's Intl prints for "en"): month first.
    return tag in {"en", "en-us"} or tag.startswith("en-us-")


#: "… by Name Surname" closing a dateline: one to four capitalised words (and the particles of
#: names), in the languages whose "by" is a word of its own. The dateline's byline.
BYLINE_RE = re.compile(
    r"\s+(?:by|By|von|por|par|di|door|av)\s+((?:[A-ZÀ-ÖØ-Þ][\w.'’-]*)"
    r"(?:\s+(?:(?:de|da|van|von|der|den|la|le|du|dos|del)\s+)*[A-ZÀ-ÖØ-Þ][\w.'’-]*){0,3})$"
)


def shown_date(text: str, language: str | None) -> str | None:
    """``YYYY-MM-DD`` of a text that is a date and nothing else (an optional "Posted on").

    A byline may close it: nanoc's "Posted on January 15, 2023 by Ana Lima".
    """
    text = BYLINE_RE.sub("", " ".join(text.split()))
    if not text or len(text) > DATELINE_CHARS or not any(c.isdigit() for c in text):
        return None
    for pattern, order in _FORMS:
        if (m := pattern.match(text)) is None:
            continue
        a, b, c = m.groups()
        if order == "ymd":
            return _iso(int(a), int(b), int(c))
        if order == "Mdy":
            return _iso(int(c), _MONTH_NAMES.index(a[:3].lower()) + 1, int(b))
        if order == "dMy":
            return _iso(int(c), _MONTH_NAMES.index(b[:3].lower()) + 1, int(a))
        if order == "dmy":
            return _iso(int(c), int(b), int(a))
        first, second, year = int(a), int(b), int(c)
        month_first = _month_first(language) if first <= 12 and second <= 12 else first <= 12
        if month_first is None:
            return None
        return _iso(year, first, second) if month_first else _iso(year, second, first)
    return None


def title_headings(tree: etree._Element) -> list[etree._Element]:
    """The page's ``<h1>`` elements that can be a title.

    A site's logo may be an ``<h1>`` too, inside its home link, or an empty one.
    """
    return [
        h
        for h in tree.iter("h1")
        if h.text_content().strip() and next(h.iterancestors("a"), None) is None and not _names_home(h)
    ]


#: A link to the site's home page written relatively: "/", "./", "../../", "index.html".
_HOME_HREF_RE = re.compile(r"/|\.?/?|(?:\./|(?:\.\./)+)?(?:index\.html?)?")


def _names_home(h1: etree._Element) -> bool:
    """Whether the heading's words are all one link to the site's home: the site's name.

    bookdown's book header, ``<h1><i></i><a href="./">Small Lessons</a></h1>``, above the
    chapter's own ``<h1>``.
    """
    links = list(h1.iter("a"))
    return (
        len(links) == 1
        and _HOME_HREF_RE.fullmatch((links[0].get("href") or "").strip()) is not None
        and " ".join(links[0].text_content().split()) == " ".join(h1.text_content().split())
    )


def _title_heading(tree: etree._Element) -> etree._Element | None:
    """The post's ``<h1>``: the one in ``<article>`` or ``<main>``, else the page's only one.

    A page with no ``<h1>`` is headed by its first ``<h2>`` outside the site's header,
    navigation and footer: TiddlyWiki's static pages title each tiddler with an ``<h2>`` and
    print its date under it ("15th January 2023 at 9:30am").
    """
    headings = title_headings(tree)
    if not headings:
        if next(tree.iter("h1"), None) is not None:
            return None  # a logo's <h1> or an empty one: the page's heading is not known
        first = next(_own_h2s(tree), None)
        # One that links elsewhere heads a listing's entry (its post's title, linked) or is the
        # site's name (a home link): no dateline under it is the page's.
        if first is None or any(not (a.get("href") or "#").startswith("#") for a in first.iter("a")):
            return None
        return first
    inside = [
        h
        for h in headings
        if any(a.tag in {"article", "main"} or a.get("role") == "main" for a in h.iterancestors())
    ]
    for found in (inside, headings):
        if len(found) == 1:
            return found[0]
    return None


def _following(el: etree._Element) -> Iterator[etree._Element]:
    """The elements after ``el`` in document order, not inside it.

    XPath's ``following::`` would do, but libxml2 gathers the whole rest of the page first.
    """
    node: etree._Element | None = el
    while node is not None:
        for sibling in node.itersiblings():
            if isinstance(sibling.tag, str):
                yield sibling
                yield from sibling.iterdescendants(etree.Element)
        node = node.getparent()


def _own_h2s(tree: etree._Element) -> Iterator[etree._Element]:
    """The ``<h2>`` elements outside the site's header, navigation and footer."""
    return (h for h in tree.iter("h2") if not in_site_chrome(h))


def dateline(tree: etree._Element, language: str | None) -> tuple[etree._Element, str] | None:
    """The element printing the post's date after its title, before its body begins, and the date."""
    heading = _title_heading(tree)
    if heading is None:
        return None
    found = _dated_after(heading, language)
    if found is not None and heading.tag == "h2":
        # Under an <h2>: a listing's (a blog's index, an archive) when the next <h2> is dated too.
        h2s = _own_h2s(tree)
        next(h2s, None)  # the heading itself: the page's first <h2> of its own
        following = next(h2s, None)
        if following is not None and _dated_after(following, language) is not None:
            return None
    return found


def _dated_after(heading: etree._Element, language: str | None) -> tuple[etree._Element, str] | None:
    """The first short block after ``heading`` that is a date, before a paragraph of prose."""
    for el in islice(_following(heading), DATELINE_WINDOW):
        if el.tag in {"script", "style", "template"} or len(el) > _DATELINE_CHILDREN:
            continue  # a container (the article's own, often): its text is not read
        text = el.text_content()
        if el.tag in _PROSE_BLOCKS and len(text.strip()) > PROSE_CHARS:
            return None  # the body began
        if len(text) <= 4 * DATELINE_CHARS and (found := shown_date(text, language)):
            return el, found
        # Its first line, when a <br> ends it: a date line with the tags under it in one
        # paragraph (Zim's "Created Sunday 15 January 2023<br>@python @data").
        if el.find("br") is not None and (found := shown_date(_first_line(el), language)):
            return el, found
        # Its own text before links only: the date, then the post's tags as links (Urubu's
        # "14 Jul 2023 <a>databases</a> <a>benchmarks</a>").
        if len(el) and _links_only(el) and (found := shown_date(el.text or "", language)):
            return el, found
    return None


def _links_only(el: etree._Element) -> bool:
    """Whether the element's children are links, with nothing but spaces or commas between."""
    return all(child.tag == "a" and not (child.tail or "").strip(" \t\n,") for child in el)


def _first_line(el: etree._Element) -> str:
    """The text of ``el`` before its first ``<br>`` child."""
    parts = [el.text or ""]
    for child in el:
        if child.tag == "br":
            break
        parts += [child.text_content(), child.tail or ""]
    return "".join(parts)


def _markup_dates(tree: etree._Element) -> bool:
    """Whether the page has dates in its markup, where htmldate looks before the text."""
    if next(tree.iter("time"), None) is not None:
        return True
    for meta in tree.iter("meta"):
        names = f"{meta.get('name') or ''} {meta.get('property') or ''} {meta.get('itemprop') or ''}".lower()
        if meta.get("content") and ("date" in names or "time" in names or "publish" in names):
            return True
    if any("date" in prop.lower() for prop in _ITEMPROPS(tree)):
        return True
    return any("date" in (script.text or "") for script in _LD_SCRIPTS(tree))


#: A timestamp's key and separators just before it in script data (``"mtime":"``), read
#: backwards from the date: the window before each place the date is written.
_KEY_BEFORE_RE = re.compile(r"""["']?([A-Za-z_$][\w$-]*)["']?\s*[:=]\s*["']?$""")
_TIME_AFTER_RE = re.compile(r"[T ]\d\d:\d\d")
#: Keys under which a timestamp is the page's publication (``datePublished``, ``createdAt``,
#: ``pubDate``, ``date``); a file's (``mtime``), an edit's or a build's (``time``) are not.
_PUBLISHED_KEY_RE = re.compile(r"publish|creat|issued|posted|^(?:pub)?date$", re.I)


def _script_stamps_only(tree: etree._Element, published: str) -> bool:
    """Whether ``published`` is in the page only as script data timestamps under other keys."""
    keys = []
    for script in tree.iter("script"):
        text = script.text
        if not text or script.get("type") == "application/ld+json":
            continue
        start = text.find(published)
        while start >= 0:
            end = start + len(published)
            if _TIME_AFTER_RE.match(text, end) and (
                key := _KEY_BEFORE_RE.search(text[max(0, start - 40) : start])
            ):
                keys.append(key.group(1))
            start = text.find(published, end)
    if not keys or any(_PUBLISHED_KEY_RE.search(key) for key in keys):
        return False
    return not any(published in text for text in _TEXTS(tree))


_ITEMPROPS = etree.XPath("//@itemprop", smart_strings=False)
_LD_SCRIPTS = etree.XPath("//script[@type='application/ld+json']")


def mentioned_only(tree: etree._Element, published: str, url: str) -> bool:
    """Whether ``published`` is the text's first bare ISO date, written in prose or code, or a file's time.

    That is where htmldate's fast mode took it, having found no date in the markup: a date in a
    sentence or a code sample is no publication date, unless the page also shows it on its own
    (:func:`_shown_whole`); nor is a build's time stamp in the site's footer
    (:func:`_footer_stamp`), nor a time stamp htmldate found in code (:func:`_in_code_only`).
    A page with dates in its markup (``<time>``, date ``<meta>``, microdata, JSON-LD) or in
    its URL (``/2012-06/04/``) had its date taken there.
    """
    if _dated_url(url, published):
        return False
    if _markup_dates(tree):
        return False
    if _script_stamps_only(tree, published):
        return True
    body = tree.find("body")
    content = body.text_content() if body is not None else ""
    if _version_read_as_date(content, published) or _named_version_in_title(tree, published):
        return True
    texts = None
    if published in content:  # the cheap look first: most dates htmldate finds are elsewhere
        texts = _TEXTS(tree)
        if _in_code_only(texts, published):
            return not _shown_whole(texts, published)
        if _footer_stamps_only(texts, published):
            return True
    # The body's first bare date, scripts' text included (a script's date first: kept, as
    # htmldate's, whatever it found: the cheap look, in C, rules most pages out).
    first = _BARE_ISO_RE.search(content)
    if first is None or _iso(*(int(p) for p in first.group(0).split("-"))) != published:
        return False
    texts = _TEXTS(tree) if texts is None else texts
    value = first.group(0)
    # (As written there it was looked at above, when the page writes it so.)
    return (value != published and _footer_stamps_only(texts, value)) or _first_is_mention(
        texts, value, published
    )


def _dated_url(url: str, published: str) -> bool:
    """Whether ``url`` names the year and month of ``published``: numbers of their own in its path.

    ``/2012-06/04/``, ``/2023/02/slug/``, ``/20230215-slug``: the year, then the month, after a
    separator or none. Not the host or the port, nor digits inside a word or an id: served on
    127.0.0.1:42023, two of Fossil's technotes (``/technote/5e48…401b2024…``, ``…bcb02ca20``)
    were "2023" then "02", and the footer's build stamp, "Fossil 2.21 [3c53b6364e] 2023-02-26",
    dated them.
    """
    try:
        parts = urlsplit(url)
    except ValueError:  # an address that does not parse ("http://[host/") names no date
        return False
    year, month = published[:4], published[5:7]
    if not (year.isdigit() and month.isdigit()):
        return False
    named = re.compile(rf"(?<![0-9A-Za-z]){year}(?:[/_.-]0?{int(month)}|{month}(?:[0-3][0-9])?)(?![0-9])")
    return named.search(parts.path) is not None or named.search(parts.query) is not None


def _version_read_as_date(content: str, published: str) -> bool:
    """Whether ``published`` is a version number htmldate read as a date.

    Its fast mode reads "on" and a dotted triple as a day ("posted on 3.8.12"), "on" ending any
    word: Sphinx's "Changed in version 3.8.12" and "Python 3.8.12" dated Python's library
    pages and its "What's new" 2012-08-03.
    """
    for m in _VERSION_RE.finditer(content):
        if not m.start() or not content[m.start() - 1].isalpha():
            continue  # "on" a word of its own: htmldate's pattern as meant
        a, b, c = (int(x) for x in m.groups())
        if len(m.group(1)) == 4:
            found = _iso(a, b, c)
        else:
            year = c + 2000 if c < 100 else c
            found = _iso(year, b, a) if b <= 12 else _iso(year, a, b)  # day first, or swapped
        if found == published:
            return True
    return False


def _named_version_in_title(tree: etree._Element, published: str) -> bool:
    """Whether ``published`` is a product's version in the page's ``<title>`` or an ``<h1>``.

    htmldate reads the title and the headings last, a dotted triple day first: "Django 3.2.25
    documentation" (the site's header on every page of Django's docs) was 2025-02-03, "Django
    1.11.11 release notes" 2011-11-01. A name, then numbers unpadded with a two-digit last part,
    is a version: a date written so short has no name before it but a word saying when.
    """
    for el in tree.iter("title", "h1"):
        for m in _NAMED_VERSION_RE.finditer(el.text_content()):
            day, month, year = (int(x) for x in m.groups())
            if published in {_iso(2000 + year, month, day), _iso(2000 + year, day, month)}:
                return True
    return False


#: A capitalised name of three letters or more, a space, numbers unpadded, the last two digits.
_NAMED_VERSION_RE = re.compile(r"\b[A-Z][A-Za-z]{2,}[ ]v?([1-9][0-9]?)\.([1-9][0-9]?)\.([0-9]{2})\b")


#: A dotted triple after "on" (the letter before it, when "on" ends a word such as "version" or
#: "Python", tested apart: an expression opening with a letter class scans the text slowly).
_VERSION_RE = re.compile(r"on[ :]{0,9}?([0-9]{1,4})[./]([0-9]{1,2})[./]([0-9]{2,4})\b")


def _first_is_mention(texts: list[etree._ElementUnicodeResult], value: str, published: str) -> bool:
    """Whether the text's first bare ISO date, ``value``, is in code or prose (not shown on its own)."""
    for text in texts:
        if (m := _BARE_ISO_RE.search(text)) is None:
            continue
        if m.group(0) != value:
            return False
        holder = _holder(text)
        blocks = [holder, *holder.iterancestors()] if holder is not None else []
        block = next((b for b in blocks if b.tag in _PROSE_BLOCKS or _is_code(b)), None)
        if block is None:
            return False
        mention = (
            _is_code(block) or any(_is_code(b) for b in blocks) or len(block.text_content()) > PROSE_CHARS
        )
        return mention and not _shown_whole(texts, published)
    return False


def _footer_stamps_only(texts: list[etree._ElementUnicodeResult], published: str) -> bool:
    """Whether every time the page writes ``published`` it is the footer's build stamp.

    Whatever date comes first in the text: pydoctor's "generated by pydoctor 25.10.1 at
    2024-06-15 12:00:00." under a post whose date is a field of its docstring.
    """
    holders = [h for text in texts if published in text and (h := _holder(text)) is not None]
    return bool(holders) and all(_footer_stamp(h, published) for h in holders)


def _in_code_only(texts: list[etree._ElementUnicodeResult], published: str) -> bool:
    """Whether the page's text writes ``published`` only in code, a time stamp there at least once.

    htmldate takes an ISO time stamp anywhere in the page ("2024-02-29T00:00:00.000Z"), and a
    code sample's is no date of the page: JSDoc's API pages print the library's example
    ``parseDate("2024-02-29").toISOString(); // => "2024-02-29T00:00:00.000Z"``.
    """
    stamped = False
    found = False
    for text in texts:
        start = text.find(published)
        if start < 0:
            continue
        holder = _holder(text)
        if holder is None or not any(_is_code(b) for b in (holder, *holder.iterancestors())):
            return False
        found = True
        while start >= 0 and not stamped:
            stamped = _TIME_AFTER_RE.match(text, start + len(published)) is not None
            start = text.find(published, start + 1)
    return found and stamped


def _holder(text: etree._ElementUnicodeResult) -> etree._Element | None:
    """The element whose text ``text`` is (the text after an element is its parent's)."""
    holder = text.getparent()
    if holder is not None and text.is_tail:
        holder = holder.getparent()
    return holder


#: A build's or an edit's time stamp: its label before the date, a time of day after it
#: (Asciidoctor's footer: "Last updated 2024-06-15 12:00:00 UTC", the source file's time).
_STAMP_LABEL_RE = re.compile(r"\b(?:updated?|modified|generated|built|rendered|changed|edited)\b", re.I)
_STAMP_TIME_RE = re.compile(r"[T ]\d{1,2}:\d\d")


def _in_site_footer(el: etree._Element) -> bool:
    """Whether ``el`` is in the site's footer, outside the article (whose own footer may date it).

    ``<footer>``, ``role="contentinfo"``, or an id or class naming a footer (``<div id="footer">``).
    """
    footer = False
    for node in (el, *el.iterancestors()):
        if node.tag in {"article", "main"} or node.get("role") == "main":
            return False
        footer = footer or (
            node.tag == "footer"
            or node.get("role") == "contentinfo"
            or "footer" in (node.get("id") or "").lower()
            or "footer" in (node.get("class") or "").lower()
        )
    return footer


def _footer_stamp(holder: etree._Element, value: str) -> bool:
    """Whether ``value`` in ``holder`` is a time stamp the site's footer prints on every page.

    An "updated" or "generated" label before the date and a time of day after it: the build's
    time or the source file's (Asciidoctor's "Last updated 2024-06-15 12:00:00 UTC"), which
    dates no post. An edit's date shown as a reader's date ("last edited on 5 October 2023")
    is not a bare ISO date and is not read here.
    """
    # The line the date is in: SQLite's "<i>This page last modified on <a>2020-09-25
    # 17:27:11</a> UTC</i>", its label outside the link.
    while holder.tag in _INLINE and (parent := holder.getparent()) is not None:
        holder = parent
    text = " ".join(holder.text_content().split())
    at = text.find(value)
    if at < 0 or len(text) > 2 * DATELINE_CHARS:
        return False
    return (
        _STAMP_LABEL_RE.search(text, 0, at) is not None
        and _STAMP_TIME_RE.match(text, at + len(value)) is not None
        and (_in_site_footer(holder) or _last_line(holder))
    )


def _last_line(el: etree._Element) -> bool:
    """Whether nothing is shown after ``el`` in the page: the page's last line (a footer by place).

    SQLite's pages end with a centred paragraph, "This page last modified on … UTC", in no
    element named as a footer.
    """
    for node in (el, *el.iterancestors()):
        if node.tag in {"body", "html"}:
            return True
        for after in node.itersiblings():
            shown = isinstance(after.tag, str) and after.tag not in {"script", "style"}
            if shown and after.text_content().strip():
                return False
            if (after.tail or "").strip():
                return False
        if (node.tail or "").strip():
            return False
    return True


#: A label before a date a block shows on its own, up to its "on" or colon ("Published:",
#: "This page was last edited on").
_SHOWN_LABEL_RE = re.compile(r"^[^\d]{0,40}?(?:\bon\b|:)\s*", re.I)


def _shown_whole(texts: list[etree._ElementUnicodeResult], published: str) -> bool:
    """Whether the page also shows ``published`` as a short block that is only that date.

    A date in a code sample or a sentence is a mention, but the same date printed on its own
    under a label is the page's: Org mode's postamble ``<p class="date">Published:
    2023-10-05</p>`` (the post's code matched "2023-10-05" first), MediaWiki's footer "This
    page was last edited on 5 October 2023, at 09:30.".
    """
    return any(shown == published for shown, _ in _dates_shown(texts, published[:4]))


def shown_alone(tree: etree._Element) -> str | None:
    """The first date the page shows as a block of its own, under a label that names no edit.

    Where the date htmldate found was only a mention (:func:`mentioned_only`: "Updated on
    2024-06-01 with the memory figures" in the post's first paragraph), the post's date may
    still be printed as a field of its own further down: a documentation page's ``<dl>`` of
    notes (Javadoc's ``<dt>Since:</dt><dd>2024-05-02</dd>``), a postamble's "Published:
    2023-10-05". Not a date labelled as an edit's or a build's ("Last modified:", in its block
    or its field's name), nor one in the site's header, navigation or footer.
    """
    for shown, holder in _dates_shown(_TEXTS(tree), ""):
        name = _field_name(holder)
        label = _text_of(holder) + (" " + _text_of(name) if name is not None else "")
        if (
            _STAMP_LABEL_RE.search(label) is None
            and not _GLUED_RE.search(label)
            and not in_site_chrome(holder)
        ):
            return shown
    return None


def _field_name(holder: etree._Element) -> etree._Element | None:
    """The name of the field a date is the value of: its ``<dt>`` or ``<th>``, or a label over it.

    A label over it: the element before it, a heading or a line ending with a colon (Django's
    sidebar: ``<h3>Last update:</h3><p class="topless">Nov 11, 2026</p>``, the build's date).
    """
    name = holder.getprevious()
    if name is None or not isinstance(name.tag, str):
        return None
    if holder.tag in {"dd", "td"} or name.tag in HEADINGS:
        return name
    label = _text_of(name)
    return name if label.endswith(":") and len(label) <= FIELD_LABEL_CHARS else None


#: A field's label on a line of its own: "Last update:", "Published:".
FIELD_LABEL_CHARS = 40


def manual_date(tree: etree._Element) -> str | None:
    """A manual page's date: the last date it shows as a block of its own, None if none.

    A manual page states its date once, in its footer (mdoc's ``.Dd``, man's ``.TH`` third
    field: mandoc writes ``<td class="foot-date">June 1, 2023</td>``, groff and man2html a last
    line), in no markup a date search reads. Asked for manual pages only
    (:func:`pagemeta.manual_title`).
    """
    last = None
    for shown, _ in _dates_shown(_TEXTS(tree), ""):
        last = shown
    return last


#: A label glued to its value is a link's or a command's syntax ("timeline:2008-01-29"), no field.
_GLUED_RE = re.compile(r"\w:\d")


def _text_of(el: etree._Element) -> str:
    return " ".join(el.text_content().split())


def _dates_shown(texts: list[etree._ElementUnicodeResult], year: str) -> Iterator[tuple[str, etree._Element]]:
    """Dates (in ``year``, if given) the texts show as short blocks: alone or after a label."""
    # Each block once: the texts of one block share it (Django's source views are a <pre> of
    # 12,000 texts, and its whole text was read for each: 6 s a page).
    seen: set[etree._Element] = set()
    for text in texts:
        if year not in text or (holder := _holder(text)) is None:
            continue
        while holder.tag in _INLINE and (parent := holder.getparent()) is not None:
            holder = parent
        if holder.tag in _CODE or holder in seen:
            continue
        seen.add(holder)
        shown = _text_of(holder).rstrip(".")
        if len(shown) > 2 * DATELINE_CHARS or not any(c.isdigit() for c in shown):
            continue
        if found := shown_date(shown, None):
            yield found, holder
        elif (label := _SHOWN_LABEL_RE.match(shown)) is not None and (
            found := shown_date(shown[label.end() :], None)
        ):
            yield found, holder


_INLINE = frozenset({"span", "a", "em", "strong", "b", "i", "small", "abbr", "bdi", "time", "font"})
