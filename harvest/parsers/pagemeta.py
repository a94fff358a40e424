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
  ``og:site_name``/``application-name``, else the whole text. A bare ``<title>``:
  ending with the ``<h1>`` after one-word prefixes ("JSDoc: Tutorial: X") is that ``<h1>``; an
  ``<h1>`` that is a one-word label and the next heading ("Tutorial: X" over "X") is that
  heading; the site's ``<h1>`` and a date only (a day's page) is the first heading below that
  is no date; the page's name ("Guide/InstallTool", a wiki's) or the module path a breadcrumb
  ``<h1>`` shows gives way to the page's own ``<h1>``; one that names none of the page's
  headings to the ``<h1>`` of its ``<article>`` (a page whose script wrote the article, a
  theme's generic ``<title>``).

The date, last: a link's ISO time stamp beside the same date written with slashes (Trac's
"Last modified" line, whose "02/03/23" is read in the server's locale's order).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator
from datetime import timezone
from email.utils import parsedate_to_datetime

from lxml import etree

from harvest.parsers.htmlparser import HEADINGS
from harvest.parsers.pagekind import ARTICLE_TYPES, MONTHS, ld_roots, ld_types, squash, title_after_home_name

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


def generic_date(tree: etree._Element) -> str | None:
    """The date of a page's plain ``<meta name="date">`` (or Dublin Core's), ``YYYY-MM-DD``.

    No more than a document's date: a book's pages all carry the book's (bookdown, from its
    ``date:``), not their own publication's; read apart from the publication dates.
    """
    for key in ("date", "dc.date", "dcterms.date"):
        if value := normalize_date(_meta(tree, key)):
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
    return linked_date(tree)


#: An ISO time stamp in a link's address, percent-encoded or not ("from=2023-02-03T09%3A30").
_HREF_STAMP_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T\d{2}(?::|%3A)\d{2}", re.I)
#: A numeric date with slashes whose order is the reader's locale's: "02/03/23", "2/3/2023".
_SLASHED_DATE_RE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])")


def linked_date(tree: etree._Element) -> str | None:
    """The date a link shows written with slashes and carries as an ISO time stamp in its address.

    "02/03/23" is the 3rd of February or the 2nd of March as the server's locale wrote it, and
    htmldate reads it day first; the address the link leads to says which. Trac's "Last
    modified" line: ``<a class="timeline" href="/timeline?from=2023-02-03T09%3A30%3A00Z"
    title="See timeline at 02/03/23 09:30:00">4 years ago</a>``. The links of the site's header,
    navigation and footer are not the page's; links showing different dates name no one date.
    """
    found: set[str] = set()
    for link in tree.iter("a"):
        href = link.get("href") or ""
        if "T" not in href or (stamp := _HREF_STAMP_RE.search(href)) is None:
            continue
        shown = _SLASHED_DATE_RE.search(f"{link.get('title') or ''} {link.text_content()}")
        if shown is None or in_site_chrome(link):
            continue
        day = "-".join(stamp.groups())
        first, second, year = shown.groups()
        if int(year) % 100 != int(stamp.group(1)) % 100 or {int(first), int(second)} != {
            int(stamp.group(2)),
            int(stamp.group(3)),
        }:
            continue
        found.add(day)
    return found.pop() if len(found) == 1 else None


#: A separator written against the word before it ("Tour: Small Lessons — …", TiddlyWiki's
#: ``{{title}}: {{site}} — {{subtitle}}``), which the cuts (spaces on both sides) do not see.
GLUED_SEPARATOR_RE = re.compile(r"[|–—·:»]\s")


def _leading_heading(title: str, heading: str, names: set[str], *, named_only: bool = False) -> str | None:
    """The start of ``title`` that is ``heading``, when a glued separator and the site's name follow.

    The rest must hold a cut of its own (the site's name and its tagline, "Small Lessons —
    Short programming lessons") or be a name the site declares (gtk-doc's "Generators in
    Python: a practical tour: Small Lessons Reference Manual", the manual's title its ``<link
    rel="home">``'s): a heading followed by a colon and nothing else known is a headline and
    its subtitle ("Coinbase vs. Coinbase Pro: How do they compare?"), whole. ``named_only``:
    the declared name only (the page's ``<h1>``, which may be such a headline).
    """
    heading = " ".join(heading.split())
    size = len(heading)
    if not heading or len(title) <= size + 2 or title[:size].casefold() != heading.casefold():
        return None
    if (glued := GLUED_SEPARATOR_RE.match(title, size)) is None:
        return None
    if squash(title[glued.end() :]) in names:
        return title[:size]
    return title[:size] if not named_only and TITLE_SEPARATORS_RE.search(title, size + 1) else None


def _title_at_top(title: str, top: str | None, tier: list[str], names: set[str]) -> str | None:
    """The heading a ``<title>`` begins with, a separator or mark glued to it, the site after.

    For when no cut gave a heading of the page's own, whatever the separator's spacing (the cuts
    want spaces on both sides). The first ``<h1>`` of the tier too, when the rest is a name the
    site declares ("About: Small Lessons Reference Manual").
    """
    if top and (start := _leading_heading(title, top, names)) is not None:
        return start
    return _leading_heading(title, tier[0], names, named_only=True) if tier and tier[0] else None


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
    names = {squash(n) for n in site_names if squash(n)}
    heads = [title, *(title[:i] for i, _ in reversed(found))]
    tails = [title[end:].rstrip(")]") if suffix and end == suffix.end() else title[end:] for _, end in found]
    for rank, (tier, any_side) in enumerate(headings):
        if rank == _TOP_HEADING_RANK and (start := _title_at_top(title, top, tier, names)) is not None:
            return start
        wanted = {squash(h): h for h in reversed(tier) if squash(h)}
        for piece in heads + tails if any_side else heads:
            if (heading := wanted.get(squash(piece))) is not None:
                # The heading as shown when the title lost some of its punctuation (Jekyll's SEO
                # tag renders the title as Markdown: "Rust vs Go | A field report" lost its "|");
                # the title's own letter case otherwise (Octopress title-cases its headings).
                return heading if _lost_marks(piece, heading) else piece.strip()
        for piece in heads[1:]:
            if (heading := _labelled_piece(piece.strip(), tier)) is not None:
                return heading
    cuts = list(TITLE_SEPARATORS_RE.finditer(title))
    if names:
        for m in cuts:
            before, after = title[: m.start()], title[m.end() :]
            if squash(after) in names:
                return before.strip()
            if squash(before) in names:
                return after.strip()
    return title


#: A label a stylesheet numbers a part with, joined to the title by no-break spaces as DocBook's
#: XSL writes it ("Chapter\u00a02.\u00a0Generators in Python", a section's "20.3.\u00a0Connections
#: and Authentication"): the document's title is after it.
_GENERATED_LABEL_RE = re.compile(r"^(?:\w+\u00a0)?(?:\d+|[IVXLCDM]+|[A-Z])(?:\.\d+)*\.\u00a0(?=\S)")
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
        if mark and (is_mark(mark) or "headerlink" in (a.get("class") or "")):
            text = text.replace(a.text_content(), "", 1)
    return " ".join(_INVISIBLE_RE.sub("", text).split())


def is_mark(text: str) -> bool:
    """Whether a link's text is a mark, not words: one symbol or punctuation character.

    A heading's permalink ("¶", "#", "§", "🔗") or its way back to the top (RDoc's "↑").
    """
    return len(text) == 1 and unicodedata.category(text)[0] in "SP"


#: Characters a reader does not see: soft hyphens, zero-width spaces and joiners.
_INVISIBLE_RE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")
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


def _names_the_site(head_title: str, h1: str, tree: etree._Element) -> bool:
    """Whether the page's one ``<h1>`` is the site's name, the ``<title>`` naming it after its h2.

    The ``<h1>`` is the ``<title>``'s last piece, its first the page's top ``<h2>``, or the
    ``<h1>`` is outside a ``<main>`` that begins with an ``<h2>``.

    mdBook's menu bar holds the book's name as an ``<h1>`` (``<h1 class="menu-title">The Rust
    Programming Language</h1>``) and a chapter that begins at ``<h2>`` has no other
    (``<title>Data Types - The Rust Programming Language</title>``): 81 of the Rust book's 104
    chapters were titled with the book's name.
    """
    pieces = TITLE_SEPARATORS_RE.split(head_title)
    if len(pieces) < 2 or squash(pieces[-1]) != squash(h1):
        return False
    first = squash(pieces[0])
    if any(squash(text) == first for text in _top_headings(tree)[:1]):
        return True
    # Or the <h1> is outside the page's <main>, which begins with an <h2> of its own (the book's
    # appendices: "A - Keywords - The Rust Programming Language" over "Appendix A: Keywords").
    main = next(tree.iter("main"), None)
    if main is None or next(main.iter("h1"), None) is not None:
        return False
    first_heading = next(main.iter(*HEADINGS), None)
    if first_heading is None or first_heading.tag != "h2":
        return False
    # The <h2> opens the <main>: no text before it (a blog's home page shows posts first).
    before = [t for t in main.itertext() if t.strip()][:1]
    return bool(before) and first_heading.text_content().strip().startswith(before[0].strip())


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


def site_names(head_title: str, *declared: str | None) -> set[str]:
    """The site's names a page declares, squashed.

    Its ``<title>``'s last piece after a separator ("About - Small Lessons") and the names it
    declares (``og:site_name``).
    """
    names = {squash(n) for n in declared if n}
    if len(pieces := TITLE_SEPARATORS_RE.split(head_title)) > 1:
        names.add(squash(pieces[-1]))
    return names - {""}


def declared_title(tree: etree._Element) -> str | None:
    """The page's title as it declares it, the site's name cut off (see the module docstring)."""
    title = _declared_title(tree)
    return _without_number_label(tree, title) if title else title


#: A heading's number as a generator writes it before the words, in an element of its own:
#: "Chapter 12", "12.3", "Appendix A" (pandoc's ``<span class="header-section-number">``), "4."
#: (Sphinx's ``<span class="section-number">4. </span>``).
_NUMBER_LABEL_RE = re.compile(r"^(?:[^\W\d_]+ )?(?:\d+(?:\.\d+)*|[A-Z]|[IVXLCDM]+)\.?$")


def _without_number_label(tree: etree._Element, title: str) -> str:
    """``title`` without the number its ``<h1>`` shows in an element of its own before the words.

    bookdown's "Chapter 12 Reading a large CSV file in chunks" (``<h1><span
    class="header-section-number">Chapter 12</span> Reading…``, and the same in the ``<title>``):
    the chapter's place in the book, not its title.
    """
    for h1 in tree.iter("h1"):
        if (h1.text or "").strip() or not len(h1) or not isinstance(h1[0].tag, str):
            continue
        label = " ".join(h1[0].text_content().split())
        if (
            label
            and _NUMBER_LABEL_RE.match(label)
            and title.startswith(label + " ")
            and len(title) > len(label) + 1
        ):
            return title[len(label) + 1 :].lstrip()
    return title


def _declared_title(tree: etree._Element) -> str | None:
    """The title the page declares, before its number label is cut (:func:`declared_title`)."""
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
    if len(own_h1) == 1 and _names_the_site(head_title, own_h1[0], tree):
        # The <h1> is the site's name (mdBook's menu bar): the page's top <h2> is its title.
        if own_h2 := _top_headings(tree):
            return own_h2[0]
        own_h1 = []
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
    # The names a page gives its site: Open Graph's, the web app's, its home link's title
    # (``<link rel="home" title="…">``: DocBook's stylesheets and gtk-doc write one on every page).
    home = next((link.get("title") for link in tree.iterfind(".//head/link[@rel='home']")), None)
    site_names = [n for n in (_meta(tree, "og:site_name"), _meta(tree, "application-name"), home) if n]
    for candidate in candidates:
        if candidate and candidate.strip():
            whole = " ".join(candidate.split())
            title = _cut_site_name(whole, headings, site_names, top)
            if title == whole and (banner := _banner(tree, whole)) is not None:
                title = _cut_site_name(whole, headings, [*site_names, banner], top)
            if title == whole and (rest := title_after_home_name(tree, title)) is not None:
                title = rest
            if title == whole and (shown := _shown_piece(tree, title)) is not None:
                title = shown
            if candidate is head_title:
                return _head_title(tree, title, h1s, every_h1)
            return title
    return None


def _shown_piece(tree: etree._Element, title: str) -> str | None:
    """The piece of ``title`` the page shows as a line of its own after the other: its title.

    Doxygen's manual: "Doxygen: Getting started", the project's name shown first (``<div
    id="projectname">Doxygen</div>``), then the page's title (``<div class="title">Getting
    started</div>``), neither a heading.
    """
    cuts = [*GLUED_SEPARATOR_RE.finditer(title), *TITLE_SEPARATORS_RE.finditer(title)]
    pieces = {squash(p): p.strip() for m in cuts for p in (title[: m.start()], title[m.end() :]) if squash(p)}
    body = tree.find("body")
    if len(pieces) < 2 or body is None:
        return None
    shown: list[tuple[str, bool]] = []
    longest = 2 * max(len(p) for p in pieces.values()) + 8
    for el in itertools.islice(body.iter(etree.Element), SHOWN_ELEMENTS):
        if el.tag == "a" or not el.text or len(el.text) > longest or (key := squash(el.text)) not in pieces:
            continue
        if any(key == seen for seen, _ in shown):
            continue  # where each piece is first shown
        if squash(el.text_content()) == key and not any(up.tag == "a" for up in el.iterancestors()):
            shown.append((key, in_site_chrome(el) or _names_site_block(el)))
    # The site's name in its header first, then the page's own (a news page's kicker and
    # headline, both the article's, are the title whole).
    if len(shown) >= 2 and shown[0][1] and not shown[-1][1] and shown[0][0] != shown[-1][0]:
        return pieces[shown[-1][0]]
    return None


#: How many of a page's first elements the title's pieces are looked for among.
SHOWN_ELEMENTS = 200
#: Words a block's id or class names the site's own name block by (Doxygen's ``#projectname``
#: in ``#titlearea``, a theme's ``site-title``, ``brand``, ``logo``, ``masthead``).
_SITE_BLOCK_RE = re.compile(r"site|brand|logo|project|masthead", re.I)


def _names_site_block(el: etree._Element) -> bool:
    """Whether ``el`` or one of its three nearest wrappers is named as the site's name block."""
    for node in itertools.islice((el, *el.iterancestors()), 4):
        if _SITE_BLOCK_RE.search(f"{node.get('id') or ''} {node.get('class') or ''}"):
            return True
    return False


def _banner(tree: etree._Element, head_title: str) -> str | None:
    """The ``<title>``'s last piece when the page shows it as a line of its own: the site's banner.

    Apache httpd's manual: "mod_alias - Apache HTTP Server Version 2.4" over the banner ``<p
    class="apache">Apache HTTP Server Version 2.4</p>`` of every page, beside the ``<h1>``
    "Apache Module mod_alias".
    """
    pieces = TITLE_SEPARATORS_RE.split(head_title)
    if len(pieces) < 2 or not (last := squash(pieces[-1])):
        return None
    body = tree.find("body")
    if body is None:
        return None
    # A line of its own near the page's top, one of its first texts: not a heading's (the page's
    # title, last in "Site | Post") nor a link's (a menu's item, the page's own name).
    longest = 2 * len(pieces[-1]) + 8
    for holder in itertools.islice(body.iter(etree.Element), BANNER_ELEMENTS):
        # Lengths first: squash() on every element's text costs a fifth of a millisecond a page.
        if not holder.text or len(holder.text) > longest or squash(holder.text) != last:
            continue
        if squash(holder.text_content()) != last:
            continue
        if not any(el.tag == "a" or el.tag in HEADINGS for el in (holder, *holder.iterancestors())):
            return pieces[-1].strip()
    return None


#: How many of a page's first elements its banner is looked for among.
BANNER_ELEMENTS = 60


def _head_title(tree: etree._Element, title: str, h1s: list[etree._Element], every_h1: list[str]) -> str:
    """The title a ``<title>`` gives, read against the page's ``<h1>`` elements.

    A ``<title>`` ending with the ``<h1>`` after a generator's "Name: " prefixes is that
    ``<h1>``; an ``<h1>`` that labels the title a section heading repeats ("Tutorial: X" over
    "X") is that heading; a ``<title>`` naming none of the headings gives way to the page's.
    """
    if (beside := _beside_site_heading(title, h1s)) is not None:
        return beside
    if every_h1 and _is_name_heading(every_h1[0]) and (named := _manual_title(title, h1s[0])) is not None:
        return named
    if squash(title) not in {squash(h) for h in every_h1}:
        title = _trailing_heading(title, every_h1) or title
    for h1, text in zip(h1s, every_h1, strict=False):
        if squash(text) == squash(title):
            # The same words: the heading's spelling, when the <title> is a file's name of them
            # ("comparing-storage-engines" over "Comparing storage engines").
            if _is_page_name(text) and _all_code(h1) and (summary := _summary_title(h1)) is not None:
                return summary
            return _unlabelled(h1, text) or (text if _is_page_name(title) else title)
    if (site_day := _site_and_day(title, h1s, every_h1)) is not None:
        return site_day
    heading = _page_heading(tree, title, h1s) or _documented_title(title, h1s) or _item_path(title, h1s)
    return heading if heading is not None else title


def manual_heading(tree: etree._Element) -> etree._Element | None:
    """A manual page's NAME heading, when its title is the line under it (:func:`_manual_title`)."""
    page = _manual_page(tree)
    return page[0] if page is not None else None


def manual_title(tree: etree._Element) -> str | None:
    """The title of a manual page (:func:`_manual_title`); None for any other page."""
    page = _manual_page(tree)
    return page[1] if page is not None else None


def _manual_page(tree: etree._Element) -> tuple[etree._Element, str] | None:
    """A manual page's NAME heading and its title; None for any other page."""
    h1 = next(tree.iter("h1"), None)
    if h1 is None or not _is_name_heading(_heading_text(h1)):
        return None
    named = _manual_title(" ".join((tree.findtext(".//title") or "").split()), h1)
    return (h1, named) if named is not None else None


def _is_name_heading(text: str) -> bool:
    """Whether a heading's text is a manual page's first section's, NAME."""
    return text.casefold() == "name"


def _manual_title(title: str, heading: etree._Element) -> str | None:
    """A manual page's title: the words after its name in its NAME section.

    The manual-page convention (man(7), mdoc(7), Perl's POD, and the HTML mandoc, groff and
    Pod::Simple write from them): the ``<title>`` is the page's name ("LS(1)",
    "Small::Lessons::Guide::Install"), its first heading "NAME", and the paragraph under it
    "name - what it is", the description the page's title.
    """
    for found in _elements_after(heading):
        if found.tag not in _PROSE_TAGS:
            continue
        line = _NAME_LINE_RE.match(" ".join(found.text_content().split()))
        if line is None:
            return None
        name = squash(line.group(1))
        return line.group(2) if name and squash(title).startswith(name) else None
    return None


#: A NAME section's line: the name (or names, comma-separated), a dash, the description.
_NAME_LINE_RE = re.compile(r"^(\S+)(?:, \S+)*\s+(?:\\?-|—|–)\s+(\S.*)$")


def _beside_site_heading(title: str, h1s: list[etree._Element]) -> str | None:
    """The title shown beside the site's ``<h1>``, when the ``<title>`` is that ``<h1>`` and it.

    Fossil's header: ``<div class="title"><h1>Small Lessons</h1>Quick note</div>`` under
    ``<title>Small Lessons: Quick note</title>``: the text after the ``<h1>``, the same as the
    title's rest after the name and a separator, is the page's title.
    """
    for h1 in h1s:
        name = _heading_text(h1)
        if not name or not title.startswith(name):
            continue
        cut = GLUED_SEPARATOR_RE.match(title, len(name)) or TITLE_SEPARATORS_RE.match(title, len(name))
        shown = " ".join((h1.tail or "").split())
        if cut is not None and shown and squash(shown) == squash(title[cut.end() :]):
            return shown
    return None


#: The ``<h1>`` of an API documentation page: the documented item's kind and its name ("Class
#: PythonGeneratorsTour", Javadoc; "Module small_lessons::guide::install", rustdoc; "Crate x").
_ITEM_HEADING_RE = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+)? (\S+)$")


def _documented_title(title: str, h1s: list[etree._Element]) -> str | None:
    """The title of the text an API page documents: the heading it opens with, under the item's.

    A module's or a class's documentation written as a page of its own (a guide in rustdoc's
    module docs, in a Javadoc class comment) opens with its title as a heading, under the
    ``<h1>`` the generator writes for the item; the ``<title>`` names the item
    ("small_lessons::guide::python_generators_tour - Rust"). Only a heading before any text:
    an item described in a sentence, then its "Examples", is the item.
    """
    for h1 in h1s:
        item = _ITEM_HEADING_RE.match(_heading_text(h1))
        if item is None or item.group(1) not in title:
            continue
        for el in _elements_after(h1):
            if el.tag in HEADINGS:
                return _heading_text(el) or None
            if el.tag in _PROSE_TAGS and el.text_content().strip():
                return None
        return None
    return None


def _item_path(title: str, h1s: list[etree._Element]) -> str | None:
    """An API item's path, when the ``<title>`` names the item and its module apart.

    rustdoc: "Cursor in syn::buffer - Rust" over the ``<h1>`` "Struct syn::buffer::Cursor": the
    item's name first, its module's path after (the ``<title>`` whole was stored, the
    documentation's name with it). The path the ``<h1>`` shows names it alone.
    """
    first = TITLE_SEPARATORS_RE.split(title, maxsplit=1)[0].split()
    for h1 in h1s:
        item = _ITEM_HEADING_RE.match(_heading_text(h1))
        if item is None:
            continue
        *module, name = _PATH_SEPARATOR_RE.split(item.group(1))
        if module and first and first[0] == name and all(part in first[-1] for part in module):
            return item.group(1)
    return None


#: Between the parts of an item's path: Rust's and C++'s ``::``, Java's and Python's ``.``.
_PATH_SEPARATOR_RE = re.compile(r"::|\.")


#: A title's length at most: a longer first line of a docstring is a sentence.
_SUMMARY_CHARS = 100
#: How a sentence ends; a title does not (PEP 257's summary line does, a post's title does not).
_SENTENCE_END_RE = re.compile(r"[.!?;:,。！？]$")


def _all_code(h1: etree._Element) -> bool:
    """Whether the heading's words are all code: an identifier (pydoctor's dotted module name)."""
    coded = "".join(
        t
        for code in h1.iter("code")
        if next(code.iterancestors("code"), None) is None
        for t in code.itertext()
    )
    return bool(coded) and squash(coded) == squash(h1.text_content())


def _summary_title(h1: etree._Element) -> str | None:
    """The title an identifier's page opens its documentation with, under the identifier.

    An API page named by its item in code (pydoctor's ``<h1><code>small_lessons.guide.install
    </code></h1>`` and the same ``<title>``; not a wiki's page name, "TracAdmin") documents it
    with a text of its own: the text's own title is its first heading, or its first line when
    that is short, ends with no punctuation and more text follows ("Generators in Python: a
    practical tour" as a module's docstring's first line, where reStructuredText made a lone
    top section the document's title and pydoctor drops it).
    """
    first: str | None = None
    for el in _elements_after(h1):
        if el.tag in HEADINGS:
            return first or _heading_text(el) or None
        if el.tag not in _PROSE_TAGS or not (text := " ".join(el.text_content().split())):
            continue
        if first is not None:
            return first
        if len(text) > _SUMMARY_CHARS or _SENTENCE_END_RE.search(text) or el.tag != "p":
            return None
        first = text
    return None


#: The names a generator writes before the page's title ("JSDoc: ", "API: "), each one word.
_WORD_PREFIXES_RE = re.compile(r"(?:[^\s:]+:\s)+")


def _trailing_heading(title: str, headings: list[str]) -> str | None:
    """The ``<h1>`` ``title`` ends with after one-word prefixes ("JSDoc: Tutorial: X" of "Tutorial: X")."""
    folded = title.casefold()
    for heading in headings:
        size = len(heading)
        if size and folded.endswith(heading.casefold()) and _WORD_PREFIXES_RE.fullmatch(title[:-size]):
            return title[-size:]
    return None


def _labelled_piece(piece: str, headings: list[str]) -> str | None:
    """The title a piece before a cut gives when one-word labels stand on either side of a heading.

    A generator's labels before the heading in the title, the site's name after the cut (YARD's
    "File: Reading a large CSV file in chunks — Small Lessons"); or before the piece in the
    heading: Javadoc's "AnnotationUtils (Apache Commons Lang 3.12.0 API)" over its ``<h1>``
    "Class AnnotationUtils", the page's kind, then its name.
    """
    if (heading := _trailing_heading(piece, headings)) is not None:
        return heading
    return piece if _labelled_by_heading(piece, headings) else None


def _labelled_by_heading(piece: str, headings: list[str]) -> bool:
    """Whether a heading is ``piece`` after one word of its own, a capitalised label ("Class X").

    With its type's parameters after the name too ("Interface Failable<E extends Throwable>").
    """
    folded = piece.casefold()
    for heading in headings:
        label, _, rest = heading.partition(" ")
        named = rest.casefold()
        if (named == folded or named.startswith(folded + "<")) and label[:1].isupper() and label.isalpha():
            return True
    return False


#: A one-word label before a heading's words ("Tutorial: ", "Module: "), a generator's.
_HEADING_LABEL_RE = re.compile(r"^[^\s:]+:\s+(?=\S)")


def _unlabelled(h1: etree._Element, text: str) -> str | None:
    """The heading after ``h1`` when ``h1`` is it under a one-word label ("Tutorial: X", then "X").

    JSDoc heads a tutorial with ``<h1>Tutorial: X</h1>`` and its own header's ``<h2>X</h2>``:
    the label is the page's kind, not its title's.
    """
    label = _HEADING_LABEL_RE.match(text)
    if label is None:
        return None
    following = next(_next_headings(h1), None)
    if following is not None and _heading_text(following) == text[label.end() :]:
        return text[label.end() :]
    return None


def _elements_after(el: etree._Element) -> Iterator[etree._Element]:
    """The elements after ``el`` in document order (not inside it), the first few only."""
    seen = 0
    node: etree._Element | None = el
    while node is not None:
        for sibling in node.itersiblings():
            if not isinstance(sibling.tag, str):
                continue
            for found in sibling.iter(etree.Element):
                seen += 1
                if seen > _HEADING_WINDOW:
                    return
                yield found
        node = node.getparent()


#: How far after a heading the next one is looked for: elements, in document order.
_HEADING_WINDOW = 40


_PROSE_TAGS = frozenset({"p", "li", "td", "dd", "blockquote", "pre"})
#: A block of this much text is prose: the page's body has begun.
_PROSE_CHARS = 80


def _next_headings(el: etree._Element) -> Iterator[etree._Element]:
    """The headings after ``el`` before the body's prose begins (a paragraph of some length)."""
    for found in _elements_after(el):
        if found.tag in HEADINGS:
            yield found
        elif found.tag in _PROSE_TAGS and len(found.text_content().strip()) > _PROSE_CHARS:
            return


_DATE_WORD_RE = re.compile(
    rf"^(?:\d{{1,2}}(?:st|nd|rd|th)?|\d{{4}}|{MONTHS}|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)$", re.I
)


def _is_date(text: str) -> bool:
    """Whether ``text`` is a date and nothing else: "Sun, 15 Jan 2023", "15 01 2023", "2023-01-15"."""
    words = re.findall(r"[^\W_]+", text)
    return (
        2 <= len(words) <= 5
        and sum(len(w) == 4 and w.isdigit() for w in words) == 1
        and all(_DATE_WORD_RE.match(w) for w in words)
    )


def _site_and_day(title: str, h1s: list[etree._Element], every_h1: list[str]) -> str | None:
    """The post's heading on a page whose ``<title>`` is an ``<h1>`` and a date only: a day's page.

    That ``<h1>`` is the site's name and the date the day's (Blosxom's "Small Lessons 15 01
    2023" over ``<h1>Small Lessons</h1>``): the post's title is the first heading below it that
    is not a date ("<h2>Sun, 15 Jan 2023</h2>", then "<h3>Generators in Python…</h3>").
    """
    folded = title.casefold()
    for h1, text in zip(h1s, every_h1, strict=False):
        size = len(text)
        if not size or len(title) <= size:
            continue
        if folded.startswith(text.casefold()):
            rest = title[size:]
        elif folded.endswith(text.casefold()):
            rest = title[:-size]
        else:
            continue
        if not _is_date(rest):
            continue
        for heading in _next_headings(h1):
            shown = _heading_text(heading)
            if shown and not _is_date(shown):
                return shown
    return None


#: A page's name as a wiki or a generator writes it in the ``<title>``: one word of letters and
#: digits joined by slashes, dots or underscores or written in CamelCase ("Guide/InstallTool"),
#: or a file's name, lower-case words joined by hyphens (nbconvert's "python-generators-tour").
_PAGE_NAME_RE = re.compile(r"^[\w.:/-]+$")
_NAME_JOINS_RE = re.compile(r"[/._]\w|[a-z][A-Z]|^[a-z0-9]+(?:-[a-z0-9]+)+$")


def _is_page_name(text: str) -> bool:
    return bool(_PAGE_NAME_RE.match(text) and _NAME_JOINS_RE.search(text))


def _climbs(href: str) -> bool:
    """Whether a relative link leads to a folder above the page's (``../guide.html``, ``./../``)."""
    href = href.strip()
    while href.startswith("./"):
        href = href[2:]
    return href.startswith("../")


def _breadcrumb(h1: etree._Element) -> bool:
    """Whether ``h1`` is a trail of links to the pages above this one (pdoc's module path)."""
    links = [a.get("href") or "" for a in h1.iter("a")]
    return bool(links) and all(_climbs(href) for href in links)


#: A file's name as a title: one lower-case word, or one in capitals (RDoc's "install",
#: "README" for install.md and README.md).
_FILE_WORD_RE = re.compile(r"^(?:[a-z][a-z0-9]*|[A-Z][A-Z0-9]+)$")


def _shows_word(heading: etree._Element, name: str) -> bool:
    """Whether the heading shows ``name`` as a word of its own ("install" is no word of "Installing")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", heading.text_content(), re.I) is not None


def _names_a_file(name: str) -> bool:
    """Whether a ``<title>``'s name is a page's or a file's name, not words (see :func:`_page_heading`)."""
    return _is_page_name(name) or bool(_FILE_WORD_RE.match(name))


def _opens_text(heading: etree._Element) -> bool:
    """Whether a paragraph follows the heading at once (its next element)."""
    following = heading.getnext()
    return following is not None and following.tag == "p" and bool(following.text_content().strip())


def _name_shown_before(tree: etree._Element, name: str, heading: etree._Element) -> bool:
    """Whether the page shows ``name`` as a line of its own (no link's) before ``heading``."""
    key = squash(name)
    for el in tree.iter(etree.Element):
        if el is heading:
            return False
        if el.text and squash(el.text) == key and squash(el.text_content()) == key and el.tag != "title":
            return not any(up.tag == "a" for up in (el, *el.iterancestors()))
    return False


def _in_page_link(heading: etree._Element) -> bool:
    """Whether a heading sits inside a link into the page (``href="#…"``): a part's permalink."""
    return any(a.tag == "a" and (a.get("href") or "").startswith("#") for a in heading.iterancestors())


def _page_heading(tree: etree._Element, title: str, h1s: list[etree._Element]) -> str | None:
    """The ``<h1>`` that titles a page whose ``<title>`` names none of its headings.

    A ``<title>`` that is the page's name, not its heading: a wiki's page name (Trac's
    "Guide/PythonGeneratorsTour – Small Lessons"), or the module path an ``<h1>`` shows as a
    trail of links to the pages above (pdoc's "small_lessons.guide.install API documentation"):
    the first other ``<h1>`` of the page's ``<article>`` or ``<main>``, else its one ``<h1>`` of
    its own. Otherwise the ``<h1>`` of its ``<article>``, if any (a script wrote the article, the
    theme left a generic ``<title>``).
    """
    name = TITLE_SEPARATORS_RE.split(title, maxsplit=1)[0]
    crumbs = {squash(_heading_text(h)) for h in h1s if _breadcrumb(h)}
    own = [h for h in h1s if not _breadcrumb(h) and h.text_content().strip()]
    # A name one of the headings shows ("LessonIndex" of TypeDoc's "Class LessonIndex") is named.
    if (_names_a_file(name) and not any(_shows_word(h, name) for h in own)) or (
        crumbs and squash(name.split(maxsplit=1)[0] if name.strip() else name) in crumbs
    ):
        for h1 in own:
            if any(a.tag in {"article", "main"} or a.get("role") == "main" for a in h1.iterancestors()):
                return _heading_text(h1)
        # Not an <h1> inside a link into the page: a part's heading as its own permalink
        # (Haddock's "<a href="#g:1" id="g:1"><h1>Filtering</h1></a>" after the module's text).
        mine = [h for h in own if not in_site_chrome(h) and not _in_page_link(h)]
        if (len(mine) == 1 and (_opens_text(mine[0]) or not _name_shown_before(tree, name, mine[0]))) or (
            mine and _is_page_name(name) and _opens_text(mine[0])
        ):
            # The one, or the first when a paragraph follows it at once: the later ones are
            # the page's parts (Haddock's module text, then its "Documentation"). Not a part's
            # heading under the page's name shown as a line of its own: a module without text
            # of its own, its "Documentation" under the caption naming it (GHC's base).
            return _heading_text(mine[0])
    article_heading = tree.xpath("//article//h1")
    if article_heading:
        return " ".join(article_heading[0].text_content().split()) or None
    return None
