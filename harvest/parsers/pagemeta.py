"""A page's title and publication date, from what the page itself declares.

Pure functions over a parsed page (lxml), tested on saved pages of every generator of the
development set (tests/parsers/test_pagemeta.py). The spider reads them before any guess:

- **Date**, first found of: the JSON-LD ``datePublished`` (of the article node when the page
  names several), ``<meta property="article:published_time">``, the ``<time datetime>`` in the
  article's header (the first one of ``<article>``/``<main>`` before the body text). Then, in
  the spider: the date of the feed entry that listed the page, the sitemap's ``lastmod``, the
  extractor's guess (dates in the text, and last the URL's folders).
- **Title**, first found of: ``og:title``, the JSON-LD ``headline``, ``<title>``; with the site's
  name cut off ("MongoDB | QR Web Dev" is "MongoDB"): the part that is the page's own ``<h1>``
  (not in the site's header or navigation), else, on a page with no ``<h1>`` of its own, the
  part before a cut that is an ``<h2>`` of its content (Lektor's post titles), or that
  ``<h2>`` when the title begins with it and a separator written against it, the site's name
  after ("Tour: Small Lessons — Tagline", TiddlyWiki), else the part
  that is an ``<h1>`` in the site's header, else the part that is not
  ``og:site_name``/``application-name``, else the whole text. A bare
  ``<title>`` that names none of the page's headings gives way to the ``<h1>`` of its
  ``<article>`` (a page whose script wrote the article, a theme's generic ``<title>``).
"""

from __future__ import annotations

import re
from datetime import timezone
from email.utils import parsedate_to_datetime

from lxml import etree

from harvest.parsers.pagekind import ARTICLE_TYPES, ld_roots, ld_types

_ISO_DATE_RE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")
TITLE_SEPARATORS_RE = re.compile(r"\s+[-|–—·:»/]{1,2}\s+")


def normalize_date(value: str | None) -> str | None:
    """``YYYY-MM-DD`` of an ISO 8601 or RFC 822 date (as written: its own day, not UTC's)."""
    if not value:
        return None
    m = _ISO_DATE_RE.match(value)
    if m:
        return "-".join(m.groups()) if int(m.group(1)) >= FIRST_YEAR else None
    # A year written with four digits is that year: the email parser reads "0001" (Hugo's "no
    # date", in every undated page's feed entry) as 2001.
    if (year := _RFC_YEAR_RE.search(value)) is not None and int(year.group(1)) < FIRST_YEAR:
        return None
    try:
        parsed = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.date().isoformat()


#: Dates before this year are a generator's "no date" (Go's zero time, 0001-01-01), not a page's.
FIRST_YEAR = 1900
_RFC_YEAR_RE = re.compile(r"\b\d{1,2}\s+[A-Za-z]{3}\s+(\d{4})\b")


def _ld_nodes(tree: etree._Element) -> list[dict[str, object]]:
    nodes: list[dict[str, object]] = []
    for node in ld_roots(tree):
        if isinstance(node, dict):
            nodes.append(node)
            graph = node.get("@graph")
            if isinstance(graph, list):
                nodes.extend(n for n in graph if isinstance(n, dict))
    return nodes


def _is_article_node(node: dict[str, object]) -> bool:
    return bool(ARTICLE_TYPES & ld_types(node))


def _meta(tree: etree._Element, key: str) -> str | None:
    for meta in tree.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").strip().lower() == key:
            value = (meta.get("content") or "").strip()
            if value:
                return value
    return None


def declared_date(tree: etree._Element) -> str | None:
    """The publication date the page declares (see the module docstring), ``YYYY-MM-DD``."""
    nodes = _ld_nodes(tree)
    for node in sorted(nodes, key=lambda n: not _is_article_node(n)):
        value = node.get("datePublished")
        if isinstance(value, str) and (date := normalize_date(value)):
            return date
    if date := normalize_date(_meta(tree, "article:published_time")):
        return date
    for container in tree.xpath("//article | //main"):
        for time_el in container.iter("time"):
            # The header's date comes before the body: a <time> after paragraphs is a mention.
            if time_el.xpath("preceding::p[ancestor::article or ancestor::main][string-length() > 200]"):
                break
            if date := normalize_date(time_el.get("datetime")):
                return date
        break
    return None


def squash(text: str) -> str:
    """``text`` with its case folded and all but its letters and digits left out, for comparing."""
    return re.sub(r"\W+", "", text.casefold())


#: A separator written against the word before it ("Tour: Small Lessons — …", TiddlyWiki's
#: ``{{title}}: {{site}} — {{subtitle}}``), which the cuts (spaces on both sides) do not see.
_GLUED_SEPARATOR_RE = re.compile(r"[|–—·:»]\s")


def _leading_heading(title: str, heading: str) -> str | None:
    """The start of ``title`` that is ``heading``, when a glued separator and the site's name follow.

    The rest must hold a cut of its own (the site's name and its tagline, "Small Lessons —
    Short programming lessons"): a heading followed by a colon and nothing else cut is a
    headline and its subtitle ("Coinbase vs. Coinbase Pro: How do they compare?"), whole.
    """
    heading = " ".join(heading.split())
    size = len(heading)
    if not heading or len(title) <= size + 2 or title[:size].casefold() != heading.casefold():
        return None
    if not _GLUED_SEPARATOR_RE.match(title, size) or not TITLE_SEPARATORS_RE.search(title, size + 1):
        return None
    return title[:size]


def _cut_site_name(
    title: str, headings: list[tuple[list[str], bool]], site_names: list[str], top: str | None = None
) -> str:
    # "Post - With A Dash - Site": every cut, not only the pieces between separators, and
    # overlapping separators too: "TIL: git switch - — Site" is "TIL: git switch -", whose own
    # dash the first cut would lose. Pieces before a cut first, each side longest first; the
    # headings in tiers, each with whether a piece after a cut counts (the first tier any piece
    # matches wins).
    found = [(i, m.end()) for i in range(len(title)) if (m := TITLE_SEPARATORS_RE.match(title, i))]
    if (suffix := _NAME_SUFFIX_RE.search(title)) is not None:
        # "Quick note (Small Lessons)": Texinfo's "node (manual)", a cut before the brackets.
        found.append((suffix.start(), suffix.end()))
        found.sort()
    heads = [title, *(title[:i] for i, _ in reversed(found))]
    tails = [title[end:].rstrip(")]") if suffix and end == suffix.end() else title[end:] for _, end in found]
    for rank, (tier, any_side) in enumerate(headings):
        if rank == _TOP_HEADING_RANK and top and (start := _leading_heading(title, top)) is not None:
            # No cut gave a heading of the page's own: a <title> that begins with its top
            # heading and a separator or punctuation mark is that heading and the site's name,
            # whatever the separator's spacing (the cuts above want spaces on both sides).
            return start
        wanted = {squash(h): h for h in reversed(tier) if squash(h)}
        for piece in heads + tails if any_side else heads:
            if (heading := wanted.get(squash(piece))) is not None:
                # The heading as shown when the title lost some of its punctuation (Jekyll's SEO
                # tag renders the title as Markdown: "Rust vs Go | A field report" lost its "|");
                # the title's own letter case otherwise (Octopress title-cases its headings).
                return heading if _lost_marks(piece, heading) else piece.strip()
    cuts = list(TITLE_SEPARATORS_RE.finditer(title))
    names = {squash(n) for n in site_names if squash(n)}
    if names:
        for m in cuts:
            before, after = title[: m.start()], title[m.end() :]
            if squash(after) in names:
                return before.strip()
            if squash(before) in names:
                return after.strip()
    return title


#: A label a stylesheet numbers a part with, joined to the title by no-break spaces as DocBook's
#: XSL writes it ("Chapter\u00a02.\u00a0Generators in Python"): the document's title is after it.
_GENERATED_LABEL_RE = re.compile(r"^\w+\u00a0(?:\d+|[IVXLCDM]+|[A-Z])\.\u00a0(?=\S)")
#: A title's last bracketed words, the site's or manual's name after the page's.
_NAME_SUFFIX_RE = re.compile(r"\s+[(\[](?=[^()\[\]]+[)\]]\s*$)")
#: A section's number before its heading's words ("1.2", "A.3.1.", "IV."), as numbered
#: manuals write it (Texinfo, Sphinx's numbered sections, LaTeX converters).
_SECTION_NUMBER_RE = re.compile(r"^(?:\d+|[A-Z]|[IVXLC]+)(?:\.\d+)*\.?\s+(?=\w)")


#: The tiers' place where the top heading at the start of the ``<title>`` is tried: after the
#: page's own headings (a whole piece between cuts), before an ``<h1>`` in the site's header.
_TOP_HEADING_RANK = 2


def _unnumbered(texts: list[str]) -> list[str]:
    """The headings, each also without its section number (after the numbered ones)."""
    bare = [cut for text in texts if (cut := _SECTION_NUMBER_RE.sub("", text, count=1)) != text]
    return [*texts, *bare]


def _lost_marks(piece: str, heading: str) -> bool:
    """Whether ``heading`` is ``piece`` with marks the title lost, and nothing else different."""
    shown, title = "".join(heading.casefold().split()), "".join(piece.casefold().split())
    if shown == title or len(shown) <= len(title):
        return False
    rest = iter(shown)
    return all(char in rest for char in title)  # the title's characters, in order, in the heading


def _heading_text(heading: etree._Element) -> str:
    """A heading's text as shown, without its permalink anchor ("¶", "#" of Sphinx and others)."""
    text = heading.text_content()
    for a in heading.iter("a"):
        mark = a.text_content().strip()
        if mark and (mark in _ANCHOR_MARKS or "headerlink" in (a.get("class") or "")):
            text = text.replace(a.text_content(), "", 1)
    return " ".join(_INVISIBLE_RE.sub("", text).split())


#: Characters a reader does not see: soft hyphens, zero-width spaces and joiners.
_INVISIBLE_RE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")
_ANCHOR_MARKS = frozenset({"¶", "#", "§", "🔗", "¤"})
#: The site's header, navigation and footer, by tag and by role (not an article's own).
SITE_CHROME_TAGS = frozenset({"header", "nav", "footer"})
SITE_CHROME_ROLES = frozenset({"banner", "navigation", "contentinfo"})


def in_site_chrome(el: etree._Element) -> bool:
    """Whether ``el`` sits in the site's header, navigation or footer (not an article's own)."""
    chrome = False
    for ancestor in el.iterancestors():
        if ancestor.tag in {"article", "main"} or ancestor.get("role") == "main":
            return False
        chrome = chrome or ancestor.tag in SITE_CHROME_TAGS or ancestor.get("role") in SITE_CHROME_ROLES
    return chrome


def _top_headings(tree: etree._Element) -> list[str]:
    """The first headings of the highest level below ``<h1>`` outside the site's chrome.

    A page without an ``<h1>`` of its own is titled by its top heading: an ``<h2>`` (Lektor), an
    ``<h3>`` (a Texinfo manual's section page: ``<h3 class="section">1.2 Generators…</h3>``).
    """
    for level in ("h2", "h3", "h4"):
        own = [_heading_text(h) for h in tree.iter(level) if not in_site_chrome(h)][:5]
        if own:
            return own
    return []


def declared_title(tree: etree._Element) -> str | None:
    """The page's title as it declares it, the site's name cut off (see the module docstring)."""
    headline: str | None = None
    for node in _ld_nodes(tree):
        value = node.get("headline")
        if _is_article_node(node) and isinstance(value, str):
            headline = value
            break
    # A stylesheet's label off first, while its no-break spaces tell it (DocBook's "Chapter 2.").
    head_title = " ".join(
        _GENERATED_LABEL_RE.sub("", (tree.findtext(".//title") or "").strip(), count=1).split()
    )
    candidates: list[str | None] = [_meta(tree, "og:title"), headline, head_title]
    h1s = list(tree.iter("h1"))
    every_h1 = [_heading_text(h) for h in h1s][:5]
    own_h1 = _unnumbered([text for h, text in zip(h1s, every_h1, strict=False) if not in_site_chrome(h)])
    own_h2 = [] if own_h1 else _unnumbered(_top_headings(tree))
    # The page's own <h1> names it; else (no <h1> of its own) an <h2> of its content: Lektor's
    # quickstart writes the site's name as the page's only <h1>, in its header, and the post's
    # title as an <h2>. An <h1> in the site's header last (many pages head the article there).
    # An <h2> counts before the title's cut only: after it sits the site's name, which some
    # themes write as an <h2>.
    headings = [(own_h1, True), (own_h2, False), (every_h1, True)]
    # A page without an <h1> of its own: its first top-level heading, at the <title>'s start.
    # Not the <h1>: "Tote Hummeln unter Linden: Die Erklärung | Hummeln" under the <h1> "Tote
    # Hummeln unter Linden" (trafilatura's evaluation set) is a headline and its subtitle.
    top = own_h2[0] if own_h2 else None
    site_names = [n for n in (_meta(tree, "og:site_name"), _meta(tree, "application-name")) if n]
    for candidate in candidates:
        if candidate and candidate.strip():
            title = _cut_site_name(" ".join(candidate.split()), headings, site_names, top)
            if candidate is head_title and squash(title) not in {squash(h) for h in every_h1}:
                article_heading = tree.xpath("//article//h1")
                if article_heading:
                    # A <title> that names none of the headings while an article has its own
                    # (a script wrote it, the theme left a generic <title>): the article's wins.
                    return " ".join(article_heading[0].text_content().split()) or title
            return title
    return None
