"""Repairs to a page before main-content extraction, so that nothing of the article is lost to markup.

Pure functions, each tested on the real page that showed the loss (tests/parsers/test_markup.py):

- :func:`strip_xml_invalid`: characters XML 1.0 does not allow (C0 controls but tab, newline and
  carriage return; U+FFFE, U+FFFF; lone surrogates). One literal backspace from an author's source
  made trafilatura raise "All strings must be XML compatible" and drop the whole page.
- :func:`neutralize_own_names`: trafilatura drops containers whose ``id`` reads as boilerplate
  (``menu``, ``tags``, ``author``, ``comment``, ``share``, ``related``, ``nav``...). A docutils
  or Sphinx section's id is made from its heading ("Other functions related to requests" is
  ``id="other-functions-related-to-requests"``), so a heading with such a word lost its section
  and every section nested in it. The ids that belong to the article's own structure (a
  heading's id, and a section's id that spells its own heading) move to ``data-harvest-id``.
- :func:`unname_table_wrappers`: a table's scroll container (Rspress' ``rp-scrollbar``) read as
  boilerplate ("bar"), and every table of a site went with it; the names of elements that only
  wrap a table move out of sight, as the sections' own ids do.
- :func:`drop_empty_anchors`: an ``<a>`` without ``href`` and without text is a link target
  (DocBook's ``<a name>`` before every heading, Doxygen's anchors), which trafilatura counted
  as a link: short blocks holding one went as all links, every heading of a DocBook manual. One
  with text and an ``id`` or ``name`` (Haddock's declared names) is unwrapped, its text kept.
- :func:`keep_named_callouts`: an ``<aside>`` is a sidebar to trafilatura, dropped whole, but
  Starlight writes its notes and cautions as ``<aside aria-label="...">`` among the paragraphs:
  a named aside in the text's flow becomes a block, its hidden title line shown.
- :func:`keep_footnotes`: docutils writes footnotes as ``<aside role="note">`` with a
  ``role="doc-backlink"`` link, in an ``<aside class="footnote-list">``; trafilatura drops
  asides, and a Sphinx page kept its "Footnotes" rubric over nothing. They become blocks.
- :func:`keep_sidebar_callouts`: DocBook names its boxed notes ``<div class="sidebar">``, which
  trafilatura drops as the page's sidebar; one with paragraphs or code of its own between two
  blocks of the text loses the name.
- :func:`drop_link_bars`: a one-row table of short links in brackets (texi2html's header on
  every page of the zsh manual: "[ < ] [ Up ] [ > ] [Contents] [Index]") was the first lines of
  every section; it goes.
- :func:`drop_contents_tables`: a table of rows each one link to a part of the page (texinfo's
  ``@menu``) is a table of contents, kept as a Markdown table of links at the top of every
  chapter; it goes.
- :func:`unlink_heading_self_links`: a heading whose text is a link to its own page or to an
  anchor of it (docutils' ``toc-backref``) made a short section link-dense; the link is unwrapped,
  its text kept.
- :func:`drop_contents_lists`: an author's table of contents (a heading, then only a list of
  links to the page's own headings) lost its list to extraction (all links) and left its
  "Contents" heading over nothing; both go.
- :func:`drop_collapsed_contents`: a closed ``<details>`` of lists whose every item links into
  the page (Haddock's "Synopsis") is a contents box: the page's declarations again; it goes.
- :func:`headings_of_summaries`: a ``<summary>`` holding one heading (beside icons and short
  controls: rustdoc's "source" link) was written as a heading of its own over it; it becomes
  the heading.
- :func:`declare_code_languages`: a code block whose wrapper names its language as a bare class
  beside a highlighter's marker class (``<figure class="highlight go">`` around a line-number
  table, as highlight.js-style themes write it) lost the language; the ``<pre>`` gets the HTML
  standard's ``language-<name>`` class. A name counts when Pygments knows it as a language.
- :func:`code_line_breaks`: a ``<code>`` outside ``<pre>`` holding ``<br>`` became a fence opened
  where it stood (Javadoc 17's member summaries, 19 pages inside out); it is a code block when it
  starts a line, one line of code otherwise.
- :func:`drop_code_language_labels`: a label beside a ``<pre>`` in its wrapper that only repeats
  the language the wrapper declares (VitePress's ``<span class="lang">sql</span>`` in
  ``<div class="language-sql">``) became a stray "sql" line above every block.

- :func:`paragraph_divs`: trafilatura reads a ``<div>``'s own text only on pages with little
  ``<p>`` text, and a paragraph written as a ``<div>`` (Publican's DocBook) lost its words up
  to its first inline element; such a div (a sentence of its own, phrasing content only, or
  the class the page's longer ones have) becomes a ``<p>``. ``harvest.parsers.article`` calls
  it once the page's region is chosen, and looks again where none was (it is found by its
  paragraphs).

- :func:`join_wide_lines`: a line break of the source between two Chinese or Japanese
  characters became a space no browser shows (CSS Text 3's segment break rule).
- :func:`show_tab_panels`: a tab group's panels other than the first are in the page, hidden
  (``hidden``, ``display:none``) until the reader picks their tab (Nextra's "npm" beside "pip");
  trafilatura drops hidden elements, and the code of every other tab was lost. A
  ``role="tabpanel"`` is shown.
- :func:`name_tab_panels`: the tab strip is chrome, and each panel's code stood without its
  tab's name ("pip", "npm"); the name is put at the top of its panel.

``repair_tree`` runs the tree repairs in order; ``harvest.parsers.article`` calls it on the parsed
page, before anything else, and leaves out what ``strip_xml_invalid`` would when it encodes the
page for the parser (the same characters, in C loops over bytes).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from urllib.parse import urldefrag, urljoin

from lxml import etree
from pygments.lexers import get_all_lexers

from harvest.parsers.htmlparser import HEADINGS
from harvest.util.urls import join_url

#: Characters XML 1.0 refuses (https://www.w3.org/TR/xml/#charsets), lone surrogates included.
_XML_INVALID_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_SECTIONS = frozenset({"section", "div", "article"})
_WORD_RE = re.compile(r"[^\W_]+")
#: Where a moved id goes: kept for whoever reads the tree, invisible to boilerplate rules.
MOVED_ID = "data-harvest-id"
#: Classes syntax highlighters put on a code block's wrapper (Pygments and Rouge ``highlight``,
#: highlight.js ``hljs``, Pandoc ``sourceCode``, Python-Markdown ``codehilite``).
_HIGHLIGHT_MARKERS = frozenset({"highlight", "hljs", "sourcecode", "codehilite"})
#: How far above a ``<pre>`` its wrapper may be (figure > table > tr > td > pre).
_WRAPPER_DEPTH = 4
_LANG_CLASS_RE = re.compile(r"(?:^|\s)(?:language|lang)-\S", re.I)
_LANG_NAME_RE = re.compile(r"(?:^|\s)(?:language|lang)-([^\s]+)", re.I)


def strip_xml_invalid(html: str) -> str:
    """``html`` without the characters an XML tree cannot hold."""
    return _XML_INVALID_RE.sub("", html)


def _words(text: str) -> list[str]:
    return _WORD_RE.findall(text.casefold())


def _first_heading(el: etree._Element) -> etree._Element | None:
    for child in el:
        if isinstance(child.tag, str) and child.tag in HEADINGS:
            return child
    return None


def _spells(identifier: str, heading: etree._Element) -> bool:
    """Whether ``identifier`` is made of the words of ``heading`` (a slug of it)."""
    id_words = _words(identifier)
    # A numbered manual's heading begins with its section's number ("1.3.4 Comments" in
    # Texinfo, whose section ids are its titles' words): not words of its id. (Dotted only: "4
    # Comments" is a count.)
    heading_words = _words(_SECTION_NUMBER_RE.sub("", heading.text_content().lstrip(), count=1))
    if not id_words:
        return False
    if id_words == heading_words[: len(id_words)]:
        return True
    # A slug that drops an apostrophe joins its words ("authors-note" of "Author's note": pandoc).
    return "".join(id_words) == "".join(heading_words)[: len("".join(id_words))] and len(id_words) > 1


def neutralize_own_names(tree: etree._Element) -> int:
    """Move the ids of headings, and of sections named after their own heading, out of sight.

    Returns how many ids were moved.
    """
    moved = 0
    prefixed: dict[str, list[etree._Element]] = {}
    # A C walk to the only tags whose ids move (an XPath picking every element with an id, then
    # testing its tag in Python, costs more).
    for el in tree.iter(*HEADINGS, *_SECTIONS):
        if el.tag in HEADINGS and len(el):
            # An anchor inside a heading is the heading's too (MediaWiki: <h2><span
            # class="mw-headline" id="Share">Share</span></h2>, and the heading went as "share").
            for inner in el.iterdescendants():
                if (anchor := inner.get("id")) is not None:
                    del inner.attrib["id"]
                    inner.set(MOVED_ID, anchor)
                    moved += 1
        identifier = el.get("id")
        if not identifier:
            continue
        own = el.tag in HEADINGS
        if not own and el.tag in _SECTIONS:
            heading = _first_heading(el)
            # Not a block holding a form to write in: a site's comments under their heading
            # (Mezzanine's <div id="comments"><h3>Comments</h3>… <form><textarea>), no section.
            if heading is None or next(el.iter("textarea"), None) is not None:
                continue
            if not (own := _spells(identifier, heading)) and (prefix := _prefix(identifier, heading)):
                prefixed.setdefault(prefix, []).append(el)
        if own:
            _move_id(el, identifier)
            moved += 1
    return moved + _unname_prefixed(prefixed)


def _unname_prefixed(prefixed: dict[str, list[etree._Element]]) -> int:
    """Move the ids of sections named by a generator's prefix and their heading's slug.

    docutils' ``id_prefix`` (pydoctor's "rst-share" over "Share"), written on two sections or
    more, of text (a paragraph in one): a lone "social-share" box over "Share" is a widget's
    name, MediaWiki's "p-search" and "p-navigation" over their labels are its menus.
    """
    moved = 0
    for sections in prefixed.values():
        if len(sections) >= 2 and any(next(el.iter("p"), None) is not None for el in sections):
            for el in sections:
                _move_id(el, el.get("id", ""))
                moved += 1
    return moved


def _move_id(el: etree._Element, identifier: str) -> None:
    del el.attrib["id"]
    el.set(MOVED_ID, identifier)


#: Words a generator may write before a section's slug in its id (``rst-``, ``user-content-``).
_PREFIX_WORDS = 2


def _prefix(identifier: str, heading: etree._Element) -> str | None:
    """The words before the slug of ``heading`` that ``identifier`` ends with, if a short prefix."""
    id_words = _words(identifier)
    heading_words = _words(heading.text_content())
    extra = len(id_words) - len(heading_words)
    if heading_words and 0 < extra <= _PREFIX_WORDS and id_words[extra:] == heading_words:
        return "-".join(id_words[:extra])
    return None


#: Where a table wrapper's class goes (see :data:`MOVED_ID`).
MOVED_CLASS = "data-harvest-class"
_WRAPPERS = frozenset({"div", "section", "figure", "span"})


def unname_table_wrappers(tree: etree._Element) -> int:
    """Move the names of the elements that only wrap a table out of sight; returns how many.

    A wrapper that holds a table and nothing else is presentational (a scroll container), and
    its class named nothing of the table's: Rspress' ``rp-scrollbar`` read as a "bar", and
    every table of its pages was dropped as boilerplate.
    """
    moved = 0
    for table in tree.iter("table"):
        if next(table.iter("pre"), None) is not None:
            continue  # a code block's line-number table: its wrapper names the language
        node = table
        while (parent := node.getparent()) is not None and parent.tag in _WRAPPERS:
            if len(parent) != 1 or (parent.text or "").strip() or (node.tail or "").strip():
                break
            for name, moved_to in (("class", MOVED_CLASS), ("id", MOVED_ID)):
                if (value := parent.get(name)) is not None:
                    del parent.attrib[name]
                    parent.set(moved_to, value)
                    moved += 1
            node = parent
    return moved


#: Elements that make blocks of text: a ``<q>`` holding one is no quotation inside a sentence.
_BLOCKS = ("p", "div", "ul", "ol", "table", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "br")
#: Form controls: a box holding one asks something of the reader (a newsletter, a poll), no callout.
_CONTROLS = ("form", "input", "button", "select", "textarea", "iframe")
#: Share of an aside's text in links above which it points elsewhere (related stories) and says
#: nothing itself.
_CALLOUT_LINK_SHARE = 0.5


#: Names of a table of contents block: its class token or id (MediaWiki's, Asciidoctor's and
#: DocBook's ``toc``, pandoc's ``TOC``, Hugo's ``TableOfContents``, DokuWiki's ``dw__toc``).
_TOC_NAMES = frozenset({"toc", "TOC", "table-of-contents", "TableOfContents", "dw__toc"})
_TOC_TAGS = ("div", "nav", "section", "aside")


def drop_contents_blocks(scope: etree._Element, url: str) -> int:
    """Remove the blocks named as a table of contents whose links all lead into the page.

    The list went with extraction (all links), its label stayed: DokuWiki's "Table of Contents"
    heading over nothing, DocBook's "**Table of Contents**" line, the entries glued into the
    text when the label and the list were one block. Returns how many went.
    """
    page = urldefrag(url)[0]
    dropped = 0
    for block in list(scope.iter(*_TOC_TAGS)):
        if block.get("id") not in _TOC_NAMES and _TOC_NAMES.isdisjoint((block.get("class") or "").split()):
            continue
        if block.getparent() is None:
            continue
        links = [a.get("href") or "" for a in block.iter("a")]
        if len(links) >= 2 and all(
            h.startswith("#") or urldefrag(join_url(url, h) or "")[0] == page for h in links
        ):
            block.drop_tree()
            dropped += 1
    return dropped


_PLACEHOLDER_LINKS = etree.XPath("//a[not(@href)]")


def drop_empty_anchors(tree: etree._Element, placeholders: list[etree._Element] | None = None) -> int:
    """Remove the empty ``<a>`` elements without ``href`` (link targets only); returns how many.

    DocBook writes ``<a name="id"></a>`` before every heading and index term, Doxygen ``<a
    class="anchor" id="…"></a>``, Javadoc ``<a name="…"><!-- --></a>``: no link (HTML calls an
    ``<a>`` without ``href`` a placeholder), but trafilatura takes any ``<a>`` for one, and a
    short block whose only "links" are those went as all links: every section heading of a
    DocBook manual, whole short sections, and its one-line pages flattened. Their text, if any,
    stays (only empty ones go).
    """
    dropped = 0
    for a in _PLACEHOLDER_LINKS(tree) if placeholders is None else placeholders:
        if a.getparent() is None:
            continue
        # A named anchor around a heading's words (Blosxom's ``<h3><a name="kyou-no-memo">今日の
        # メモ</a></h3>``) is no link either: written "[今日のメモ]", a link without a target.
        if next(a.iterancestors(*HEADINGS), None) is not None:
            a.tag = _DROPPED
            dropped += 1
            continue
        if _names_a_target(a):
            # A declaration's name as the target of links to it (Haddock's ``<a id="v:id"
            # class="def">id</a> :: cat a a``): its words, no link. trafilatura counted each
            # as a link, and a module's methods went as link lists.
            a.tag = _DROPPED
            dropped += 1
            continue
        # Empty ones only: no text, no element child (a comment is neither).
        if a.text and a.text.strip() or any(isinstance(c.tag, str) for c in a):
            continue
        if any((c.tail or "").strip() for c in a):
            continue
        a.tag = _DROPPED
        dropped += 1
    if dropped:
        # All at once: one drop_tag() looks its element up among its siblings, and Vim's help
        # is one <pre> of 16,000 children (1,378 anchors took 0.8 s one by one).
        etree.strip_tags(tree, _DROPPED)
    return dropped


def _names_a_target(a: etree._Element) -> bool:
    """Whether a placeholder ``<a>`` is only a target: an ``id`` or ``name``, no script or role.

    Not a control a script makes clickable (``onclick``, ``role="button"``, ``tabindex``): a
    share bar's ``<a>``s stay links, as boilerplate.
    """
    if a.get("id") is None and a.get("name") is None:
        return False
    return not any(key.startswith("on") or key in {"role", "tabindex"} for key in a.attrib)


#: The tag the anchors to drop are renamed to, to be unwrapped all at once.
_DROPPED = "harvest-dropped-anchor"


def _text_block(el: etree._Element | None) -> bool:
    """A block of the text's own, or a wrapper of one (a code block's frame, a tab group of code).

    A paragraph, code, a list, a quotation, a table or a heading, with text.
    """
    if el is None or not isinstance(el.tag, str):
        return False
    if el.tag in _FLOW_BLOCKS:
        return bool(_shown(el))
    return el.tag in _SECTIONS and any(_shown(block) for block in el.iter("p", "pre"))


_FLOW_BLOCKS = frozenset({"p", "pre", "ul", "ol", "dl", "blockquote", "table", "h2", "h3", "h4", "h5", "h6"})


def _between_text(aside: etree._Element) -> bool:
    """Whether text blocks stand before and after ``aside`` (other asides skipped): in the text's flow."""
    before, after = aside.getprevious(), aside.getnext()
    while before is not None and before.tag == "aside":
        before = before.getprevious()
    while after is not None and after.tag == "aside":
        after = after.getnext()
    return _text_block(before) and _text_block(after)


def _callout_body(aside: etree._Element) -> bool:
    """Whether an unnamed ``<aside>`` holds a note of its own: paragraphs of some length, or code.

    Its own blocks, not a quotation's: a pull quote (``<aside><blockquote>``) repeats the text,
    and an advertisement's slot is a one-word label ("Advertisement") over an empty box.
    """
    own = [
        c for c in aside if c.tag in {"p", "pre"} or c.tag == "div" and next(c.iter("pre"), None) is not None
    ]
    if not own:
        return False
    return any(c.tag != "p" for c in own) or len(_shown(aside)) >= CALLOUT_TEXT_CHARS


def _text_and_link_chars(el: etree._Element) -> tuple[int, int]:
    """Characters (whitespace aside) of ``el``'s text, and of its links' text."""
    text = len("".join(el.text_content().split()))
    return text, sum(len("".join(link.text_content().split())) for link in el.iter("a"))


def keep_named_callouts(tree: etree._Element) -> int:
    """Make a callout ``<aside>`` in the text's flow an ordinary block; returns how many.

    An ``<aside>`` is dropped whole as a sidebar, but one among the paragraphs of the text is
    the author's callout: named for assistive technology (``aria-label``, ``aria-labelledby``,
    or ``role="note"``: Starlight's notes and cautions, "Python 3.10 or later" and its reason were
    lost), or unnamed with paragraphs or code of its own between two blocks of the text (Vocs'
    warnings and notes, a code block in one). One holding a form control or mostly links stays
    an aside.
    """
    kept = 0
    for aside in list(tree.iter("aside")):
        named = aside.get("aria-label") or aside.get("aria-labelledby") or aside.get("role") == "note"
        if not named and not (_callout_body(aside) and _between_text(aside)):
            continue
        parent = aside.getparent()
        if parent is None or not any(
            sibling.tag == "p" and sibling.text_content().strip() for sibling in parent.iterchildren("p")
        ):
            continue
        # A code block's copy button is no form.
        if any(next(c.iterancestors("pre"), None) is None for c in aside.iter(*_CONTROLS)):
            continue
        text, links = _text_and_link_chars(aside)
        if not text or links > _CALLOUT_LINK_SHARE * text:
            continue
        aside.tag = "div"
        _show_callout_title(aside, " ".join((aside.get("aria-label") or "").split()))
        kept += 1
    return kept


#: The ARIA roles (DPUB) of a footnote and of a list of notes.
_NOTE_ROLES = frozenset({"doc-footnote", "doc-endnote", "doc-endnotes"})


def keep_footnotes(tree: etree._Element) -> int:
    """Make each footnote written as an ``<aside>`` a block of the text; returns how many.

    docutils 0.18+ (every Sphinx site since 5.0) writes its footnotes as ``<aside class="footnote
    brackets" role="note">`` with a ``role="doc-backlink"`` link to the reference, inside an
    ``<aside class="footnote-list">``: trafilatura drops asides, and only the "Footnotes" rubric
    was left (12 of 13 footnotes of Sphinx's own manual). A footnote is an ``<aside>`` with a
    footnote's role or a back link; an ``<aside>`` holding only footnotes is their list.
    """
    notes = [
        aside
        for aside in tree.iter("aside")
        if aside.get("role") in _NOTE_ROLES
        or next(aside.iterfind(".//a[@role='doc-backlink']"), None) is not None
    ]
    for aside in notes:
        if aside.tag != "aside":
            continue  # a list already made a block with its notes
        aside.tag = "div"
        outer = next(aside.iterancestors("aside"), None)
        if outer is not None and all(c.tag == "div" for c in outer if isinstance(c.tag, str)):
            outer.tag = "div"
    return len(notes)


#: Blocks named as a sidebar (found in C: most pages have none, or one column).
_NAMED_SIDEBARS = etree.XPath(".//*[contains(@class, 'sidebar')]")


def keep_sidebar_callouts(scope: etree._Element) -> int:
    """Unname a block called a sidebar that stands in the text's flow; returns how many.

    trafilatura drops whatever is named "sidebar", the page's column beside the text as it should,
    but DocBook calls its boxed notes so (``<div class="sidebar">`` with a title, "TIP Recursive
    operation", and paragraphs or code, between two paragraphs of a section): a quarter of the
    Debian Administrator's Handbook's words went. A block with paragraphs or code of its own,
    between two blocks of the text and mostly no links, loses the name (``data-harvest-class``).
    """
    kept = 0
    for box in _NAMED_SIDEBARS(scope):
        if box.tag not in {"div", "section"} or "sidebar" not in (box.get("class") or "").lower().split():
            continue
        if not (_callout_body(box) and _between_text(box)):
            continue
        text, links = _text_and_link_chars(box)
        if links > _CALLOUT_LINK_SHARE * text:
            continue
        box.set(MOVED_CLASS, box.attrib.pop("class"))
        kept += 1
    return kept


def inline_quotes(tree: etree._Element) -> int:
    """Keep each ``<q>`` of a sentence inside its sentence; returns how many.

    trafilatura makes a ``<q>`` a block quote, and a sentence quoting a few words was cut in
    three paragraphs. Its text stays where it is, without marks: the quotation marks a browser
    draws are style, not text (a reader copying the sentence gets none), and authors often
    write their own around it (``„<q>…</q>“``). A ``<q>`` holding blocks is left alone.
    """
    quoted = 0
    for q in list(tree.iter("q")):
        if q.getparent() is None or next(q.iter(*_BLOCKS), None) is not None:
            continue
        q.drop_tag()
        quoted += 1
    return quoted


#: A list item's marker drawn as text: a bullet or dash, or a number or letter and its stop.
_DRAWN_MARKER_RE = re.compile(r"[•◦▪▫‣∙·*–—-]|\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6})[.)]")
_NO_MARKER_RE = re.compile(r"list-style(?:-type)?\s*:\s*none", re.I)
#: List items styled with a list style (found in C).
_STYLED_ITEMS = etree.XPath("//li[contains(@style, 'list-style')]")


def drop_drawn_list_markers(tree: etree._Element) -> int:
    """Remove the markers a list draws as text in items that hide their own; returns how many.

    LaTeXML (arXiv's HTML) writes ``<li style="list-style-type:none;"><span class="ltx_tag
    ltx_tag_item">•</span><div class="ltx_para"><p>…``: the item's marker as its first words, the
    list's own hidden. The Markdown list drew its marker before them: "-", then "•" and the
    text on lines of their own ("1.", then "1." again).
    """
    dropped = 0
    # The items that hide their markers: most pages style none.
    hidden = [li for li in _STYLED_ITEMS(tree) if _NO_MARKER_RE.search(li.get("style") or "")]
    for li in hidden:
        if (li.text or "").strip() or not len(li) or li.tag != "li" or li.getparent() is None:
            continue
        first = li[0]
        if first.tag in _BLOCKS or not _DRAWN_MARKER_RE.fullmatch(_shown(first)):
            continue
        first.drop_tree()
        dropped += 1
    return dropped


#: A field's name at most, and its value ("Date", "2023-08-09"; "Tags", "process, go").
FIELD_NAME_CHARS = 40
FIELD_VALUE_CHARS = 120


def field_lists_as_lines(tree: etree._Element) -> int:
    """Write a list of short named fields as one line a field; returns how many lists.

    A ``<dl>`` whose terms each name one short value (docutils' field list under a post's
    title: ``<dt>Date:</dt><dd><p>2023-08-09</p></dd><dt>Tags:</dt><dd><p>process, go</p></dd>``)
    became a bulleted list of names and values apart ("- Date:", "- 2023-08-09"); each pair is a
    paragraph "Date: 2023-08-09". A definition list of longer texts or of blocks stays a list.
    """
    made = 0
    for dl in list(tree.iter("dl")):
        items = [c for c in dl if isinstance(c.tag, str)]
        if len(items) < 2 or len(items) % 2:
            continue
        names, values = items[::2], items[1::2]
        if any(n.tag != "dt" for n in names) or any(v.tag != "dd" for v in values):
            continue
        if any(len(_shown(n)) > FIELD_NAME_CHARS or not _shown(n) for n in names):
            continue
        if any(not _shown(v) or len(_shown(v)) > FIELD_VALUE_CHARS or _holds_blocks(v) for v in values):
            continue
        lines = []
        for name, value in zip(names, values, strict=True):
            line = dl.makeelement("p", {})
            lines.append(line)
            label = _shown(name)
            line.text = label if label.endswith(":") else label + ":"
            inner = (
                value[0]
                if len(value) == 1 and value[0].tag == "p" and not (value.text or "").strip()
                else value
            )
            line.text += " " + (inner.text or "").lstrip()
            line.extend(list(inner))
        # The list itself becomes the block of lines, not a new one in its place: it may be the
        # region the extraction reads (PostgreSQL's list of acronyms, the page's whole text).
        for item in items:
            dl.remove(item)
        dl.tag, dl.text = "div", None
        dl.extend(lines)
        made += 1
    return made


def _holds_blocks(value: etree._Element) -> bool:
    """Whether a ``<dd>`` holds blocks: more than one paragraph, a list, code, a table."""
    paragraphs = value.findall("p")
    return (
        len(paragraphs) > 1
        or next(value.iter("ul", "ol", "dl", "pre", "table", "blockquote", "div"), None) is not None
    )


#: What makes a table cell a block of blocks rather than a line of text.
_CELL_BLOCKS = ("p", "pre", "ul", "ol", "dl", "table", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6")
#: A callout table's label cell ("Warning", "Note", an icon) is no longer than this.
CALLOUT_LABEL_CHARS = 24
#: Its text cell is at least this long, or holds blocks: a line of prose, not a datum.
CALLOUT_TEXT_CHARS = 60


def _shown(el: etree._Element) -> str:
    return " ".join(el.text_content().split())


#: A link bar's links: each a word or a sign ("Up", "Contents", "<<"), not a sentence.
BAR_LINK_CHARS = 20


def drop_link_bars(tree: etree._Element) -> int:
    """Remove each one-row table of short links and nothing else (a navigation bar); returns how many.

    texi2html heads every page with ``<table class="header">``: "[ << ] [ < ] [ Up ] [ > ] [ >> ]
    [Top] [Contents] [Index] [ ? ]", each a cell of one link in brackets. It was the first lines
    of every section of the zsh manual. Three links or more, each cell one link at most with
    nothing but brackets or signs beside it.
    """
    dropped = 0
    for table in list(tree.iter("table")):
        rows = table.findall(".//tr")
        if len(rows) != 1 or table.getparent() is None:
            continue
        links = 0
        for cell in rows[0]:
            if not isinstance(cell.tag, str):
                continue
            found = cell.findall(".//a")
            if len(found) > 1 or (found and len(_shown(found[0])) > BAR_LINK_CHARS):
                break
            beside = (
                cell.text_content().replace(found[0].text_content(), "", 1) if found else cell.text_content()
            )
            if any(c.isalnum() for c in beside):
                break
            links += len(found)
        else:
            if links >= 3:
                table.drop_tree()
                dropped += 1
    return dropped


def drop_contents_tables(tree: etree._Element, url: str) -> int:
    """Remove each table whose rows are each one link to a part of this page; returns how many.

    texinfo's ``@menu`` (texi2html's ``<table class="menu">``) lists a chapter's sections, each a
    row of one link to its anchor below and empty cells: a table of contents, which stood at
    the top of every chapter of the zsh manual as a Markdown table of links. Three rows or more.
    """
    dropped = 0
    for table in list(tree.iter("table")):
        rows = table.findall(".//tr")
        if len(rows) < MIN_CONTENTS_ROWS or table.getparent() is None:
            continue
        for row in rows:
            found = row.findall(".//a")
            href = found[0].get("href") or "" if len(found) == 1 else ""
            if not href or page_fragment(url, href) in (None, ""):
                break
            if any(c.isalnum() for c in row.text_content().replace(found[0].text_content(), "", 1)):
                break
        else:
            table.drop_tree()
            dropped += 1
    return dropped


#: Rows a table of contents has at least (two are a pair of links, not a table of contents).
MIN_CONTENTS_ROWS = 3


def callout_tables_as_blocks(tree: etree._Element) -> int:
    """Write a callout laid out as a table as its label and its text; returns how many.

    One row of two cells, a short label (or an icon) beside a text: Asciidoctor's admonitions
    (``<div class="admonitionblock warning"><table><tr><td class="icon"><div
    class="title">Warning</div></td><td class="content">…``), a wiki's "Warning!" box. They were
    stored as a Markdown table of one row without its separator line, one with a code block
    inside a cell. A table of more cells or rows, or two short cells, tabulates: left alone.
    """
    written = 0
    for table in list(tree.iter("table")):
        rows = list(table.iter("tr"))
        parent = table.getparent()
        if parent is None or len(rows) != 1 or next(table.iter("th"), None) is not None:
            continue
        cells = [c for c in rows[0] if isinstance(c.tag, str)]
        if (
            len(cells) != 2
            or any(c.tag != "td" for c in cells)
            or any(c is not table for c in table.iter("table"))
        ):
            continue
        label, text = cells
        if next(label.iter(*_CELL_BLOCKS), None) is not None:
            continue
        if len(_shown(label)) > CALLOUT_LABEL_CHARS:
            continue
        holds_blocks = next(text.iter(*_CELL_BLOCKS), None) is not None
        if not holds_blocks and len(_shown(text)) < CALLOUT_TEXT_CHARS:
            continue
        block = table.makeelement("div", {})
        for cell, blocks in ((label, False), (text, holds_blocks)):
            holder = block.makeelement("div" if blocks else "p", {})
            if not blocks:
                for inner in cell.iter("div"):
                    inner.tag = "span"  # a line of text: its own divs are no blocks
            holder.text = cell.text
            holder.extend(list(cell))
            if _shown(holder) or len(holder):
                block.append(holder)
        block.tail = table.tail
        parent.replace(table, block)
        written += 1
    return written


#: What a paragraph cannot hold (HTML's flow content that is not phrasing content), and custom
#: elements (a tag with a hyphen), which may be either: a ``<div>`` holding one is a block of blocks.
_NOT_PHRASING = frozenset(
    {
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "div", "dl",
        "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul",
    }
)  # fmt: skip


#: Text of its own a ``<div>`` needs to be read as a paragraph (a sentence): a shorter one is a
#: label, a date or a button of the page's chrome, which trafilatura rightly leaves out, unless
#: its class is one longer ones have (the page's class for paragraphs).
PARAGRAPH_DIV_CHARS = 80


#: The ``<div>``s with text of their own (found in C: most have none).
_TEXT_DIVS = etree.XPath("descendant-or-self::div[text()[normalize-space()]]")


def paragraph_divs(tree: etree._Element) -> int:
    """Make the paragraphs a page writes as ``<div>`` text ``<p>`` elements; returns their characters.

    trafilatura reads the text of a ``<div>`` only on pages with little ``<p>`` text: elsewhere it
    keeps the div's inline children and their tails, and the words before the first of them were
    lost (Publican's DocBook writes every paragraph as ``<div class="para">``: a sentence up to
    its first ``<code>`` went, a third of the Debian Administrator's Handbook). A ``<div>`` of
    phrasing content only becomes a ``<p>``: when it has a sentence of its own, or the class a
    page's longer ones have (Der Spiegel's short ``dig-absatz`` paragraphs: with the long ones
    made paragraphs, the page had enough ``<p>`` text for trafilatura to skip the short ones). In
    a ``<div>`` that holds blocks too, each run of its own text (a sentence or more) between them
    is put in a ``<p>`` of its own (a text written straight into its ``<div>`` after the page
    title's blocks).
    """
    written: list[tuple[etree._Element, int]] = []
    mixed: list[etree._Element] = []
    for div in _TEXT_DIVS(tree):
        own = len((div.text or "").strip()) + sum(len((child.tail or "").strip()) for child in div)
        if not own or is_code_row(div):  # a line of code (Doxygen's), made a <pre> row later
            continue
        if not any(_holds_block(child) for child in div):
            written.append((div, own))
        elif own >= PARAGRAPH_DIV_CHARS:
            mixed.append(div)
    long_ones = Counter(div.get("class") for div, own in written if own >= PARAGRAPH_DIV_CHARS)
    classes = {name for name, count in long_ones.items() if name is not None and count >= 2}
    made = 0
    for div, own in written:
        if own >= PARAGRAPH_DIV_CHARS or div.get("class") in classes:
            div.tag = "p"
            made += len(div.text_content())
    return made + sum(_text_runs_as_paragraphs(div) for div in mixed)


def _holds_block(el: etree._Element) -> bool:
    """Whether an element is, or holds, what a paragraph cannot hold."""
    return isinstance(el.tag, str) and any(
        isinstance(d.tag, str) and (d.tag in _NOT_PHRASING or "-" in d.tag) for d in el.iter()
    )


def _text_runs_as_paragraphs(div: etree._Element) -> int:
    """Put each run of a ``<div>``'s own text and inline elements between its blocks in a ``<p>``.

    Returns the characters put in paragraphs.
    """
    made = 0
    lead, holder, run = div.text, None, []
    for child in [*div, None]:
        if child is not None and not _holds_block(child):
            run.append(child)
            continue
        own = len((lead or "").strip()) + sum(len((el.tail or "").strip()) for el in run)
        if own >= PARAGRAPH_DIV_CHARS:
            paragraph = div.makeelement("p")
            paragraph.text = lead
            if holder is None:
                div.text = None
                div.insert(0, paragraph)
            else:
                holder.tail = None
                holder.addnext(paragraph)
            paragraph.extend(run)  # each with its tail: the run's text after it
            made += len(paragraph.text_content())
        if child is not None:
            lead, holder, run = child.tail, child, []
    return made


def drop_collapsed_contents(tree: etree._Element, url: str) -> int:
    """Drop a closed ``<details>`` of lists whose every item links into the page; returns how many.

    A contents box the reader opens to jump to a place of the page: Haddock's "Synopsis", every
    declaration of the module again, one a line, each linking to its documentation below. Once
    its links were no longer counted as boilerplate, it was stored before the declarations, the
    module twice. Only a box of a summary and lists, two items or more, no paragraph of its own.
    """
    dropped = 0
    for details in list(tree.iter("details")):
        if details.get("open") is not None or details.getparent() is None:
            continue
        parts = [el for el in details if isinstance(el.tag, str)]
        if (details.text or "").strip() or any(el.tag not in {"summary", "ul", "ol"} for el in parts):
            continue
        items = [li for lst in parts if lst.tag != "summary" for li in lst if li.tag == "li"]
        if len(items) < 2:
            continue
        if all(any(page_fragment(url, a.get("href") or "") for a in li.iter("a")) for li in items):
            details.drop_tree()
            dropped += 1
    return dropped


def headings_of_summaries(tree: etree._Element) -> int:
    """Make a ``<summary>`` holding a heading (and icons) that heading; returns how many.

    trafilatura writes a ``<summary>`` as a heading and the heading inside it as its text with
    the heading's marks: TypeDoc's ``<summary><svg/><h5>Index</h5></summary>`` was stored as
    "## ##### Index".
    """
    made = 0
    for summary in list(tree.iter("summary")):
        if (parent := summary.getparent()) is None or (heading := _summary_heading(summary)) is None:
            continue
        heading.tail = summary.tail
        parent.replace(summary, heading)
        made += 1
    return made


#: A control beside a summary's heading shows this many characters at most (rustdoc's "1.0.0 ·
#: source" link to the item's source, its "§" anchor).
SUMMARY_CONTROL_CHARS = 32


def _summary_heading(summary: etree._Element) -> etree._Element | None:
    """The one heading a ``<summary>`` holds, in wrappers of it alone, beside controls at most.

    rustdoc 1.63 writes each member as ``<summary><section><span class="rightside"><a>source</a>
    </span><a class="anchor"></a><h4>pub fn empty() -&gt; Self</h4></section></summary>``: the
    summary was a heading of the link "source" over the member's own.
    """
    holder = summary
    while not (holder.text or "").strip():
        elements = [el for el in holder if isinstance(el.tag, str) and el.tag != "svg"]
        if any((el.tail or "").strip() for el in elements):
            return None
        headings = [el for el in elements if el.tag in HEADINGS]
        if len(headings) == 1:
            others = [el for el in elements if el is not headings[0]]
            if all(len(_shown(el)) <= SUMMARY_CONTROL_CHARS and el.tag not in _FLOW_BLOCKS for el in others):
                return headings[0]
            return None
        if len(elements) != 1 or elements[0].tag not in {"div", "section", "span"}:
            return None
        holder = elements[0]
    return None


#: Class names of a code block's row outside a ``<pre>``: Doxygen's ``line``, LaTeXML's
#: ``ltx_listingline`` (a name ending so: "codeline", "code-line"; not "headline", "timeline").
_ROW_SUFFIXES = ("listingline", "codeline", "code-line", "code_line")


#: What a row of code never holds: a ``<div class="line">`` around headings, paragraphs and
#: blocks is a page's layout (QDoc's ``div.content > div.line > div.mainContent``), not a row.
_BLOCKS_IN_A_ROW = ("div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table", "pre")


def is_code_row(el: etree._Element) -> bool:
    """A row of a code block written without ``<pre>``: Doxygen's ``<div class="line">``."""
    if el.tag != "div":
        return False
    if not any(token == "line" or token.endswith(_ROW_SUFFIXES) for token in (el.get("class") or "").split()):
        return False
    return next(el.iterdescendants(*_BLOCKS_IN_A_ROW), None) is None


def _row_control(el: etree._Element) -> bool:
    """A code block's control beside its rows: a download link or button showing a symbol only."""
    return len(_shown(el)) <= 2 and (
        el.tag in {"a", "button"} or next(el.iter("a", "button"), None) is not None
    )


#: The ``<div>``s a class naming "line" may make a code block's rows (found in C; the class
#: tokens are read in :func:`is_code_row`).
_LINE_DIVS = etree.XPath("//div[contains(@class, 'line')]")


def line_blocks_as_code(tree: etree._Element) -> int:
    """Make a block of ``<div class="line">`` rows, outside any ``<pre>``, a ``<pre>``; returns how many.

    Doxygen writes every code fragment so (``<div class="fragment"><div class="line">…</div>``),
    its stylesheet keeping each row's spaces (``white-space: pre-wrap``), as Shiki and Expressive
    Code write their lines inside a ``<pre>``; LaTeXML (arXiv's HTML) writes a ``lstlisting`` as
    ``<div class="ltx_listing"><div class="ltx_listing_data"><a download>⬇</a></div><div
    class="ltx_listingline">…``. Without a ``<pre>`` the rows were paragraphs, their indentation
    lost, or dropped. A download link beside the rows goes.
    """
    blocks = {
        block
        for row in _LINE_DIVS(tree)
        if is_code_row(row) and (block := row.getparent()) is not None and block.tag in {"div", "figure"}
    }
    made = 0
    for block in blocks:
        children = [child for child in block if isinstance(child.tag, str)]
        if any(not is_code_row(child) and not _row_control(child) for child in children):
            continue
        if any(ancestor.tag == "pre" for ancestor in block.iterancestors()):
            continue
        for child in children:
            if not is_code_row(child):
                block.remove(child)
            else:
                _one_line(child)
        block.tag = "pre"
        made += 1
    return made


def _one_line(row: etree._Element) -> None:
    """A row as one line of code: the line breaks around its content in the source are not its own."""
    if row.text and row.text.startswith("\n"):
        row.text = row.text.lstrip("\n")
    if len(row):
        if row[-1].tail and not row[-1].tail.strip():
            row[-1].tail = row[-1].tail.rstrip("\n")
    elif row.text:
        row.text = row.text.rstrip("\n")
    row.tail = "\n"


def code_line_breaks(codes: list[etree._Element]) -> int:
    """A ``<code>`` outside ``<pre>`` holding ``<br>``: a code block when it starts a line, else one line.

    trafilatura writes such a code as a fenced block where it stands, right after the text
    before it (a fence that opens no block), and keeps only its text up to its first element:
    Javadoc 17's member summaries (``<code>static &lt;E&gt;<br><a>Failable</a>&lt;E&gt;</code>``)
    left every later block of the page inside out. Its text is first read as HTML shows text
    outside ``<pre>``: white space runs as one space, none at a line's start. A code that
    starts a line (its block's first content, or after a ``<br>``: Javadoc's sample output after
    "of the format:<br>", a 2003 how-to's commands one per line after "type:<p>") is a code
    block written line by line, a ``<pre>`` now, taken out as the others are; one in the middle
    of a line is a code span, one line, each break a space. Returns how many.
    """
    repaired = 0
    for code in [c for c in codes if next(c.iter("br"), None) is not None]:
        parent = code.getparent()
        if parent is None or any(a.tag == "pre" for a in code.iterancestors()):
            continue
        _collapse_white_space(code)
        if _starts_a_line(code, parent):
            block = code.makeelement("pre", {})
            block.tail, code.tail = code.tail, None
            parent.replace(code, block)
            block.append(code)
        else:
            for br in list(code.iter("br")):
                br.tail = " " + (br.tail or "")
                br.drop_tree()
            _collapse_white_space(code)
        repaired += 1
    return repaired


_WHITE_SPACE_RE = re.compile(r"[ \t\n\r\f]+")


def _collapse_white_space(code: etree._Element) -> None:
    """The texts inside ``code`` as HTML shows them outside ``<pre>`` (no-break spaces kept)."""
    for el in code.iter():
        if el.text:
            el.text = _WHITE_SPACE_RE.sub(" ", el.text)
        if el is not code and el.tail:
            el.tail = _WHITE_SPACE_RE.sub(" ", el.tail)
            if el.tag == "br":
                el.tail = el.tail.lstrip(" ")
    if code.text and next(code.iterchildren(), None) is None:
        code.text = code.text.strip(" ")


def _starts_a_line(code: etree._Element, parent: etree._Element) -> bool:
    """Whether ``code`` begins its block or follows a line break (white space aside)."""
    before = code.getprevious()
    if before is None:
        return not (parent.text or "").strip()
    return before.tag == "br" and not (before.tail or "").strip()


def links_around_code(codes: list[etree._Element]) -> int:
    """Write ``<code><a>name</a></code>`` as ``<a><code>name</code></a>``; returns how many.

    API documentation links a name in code this way (pdoc, Javadoc, rustdoc), and trafilatura
    moves the link out of an inline ``<code>`` and loses the text after it: "``pkg.a``: the
    tail…" was stored as "pkg.a". The other order keeps the sentence and shows the same.
    """
    swapped = 0
    for code in codes:
        parent = code.getparent()
        if parent is None or parent.tag == "pre" or len(code) != 1 or (code.text or "").strip():
            continue
        link = code[0]
        if link.tag != "a" or (link.tail or "").strip():
            continue
        # The link takes the code's place, the code (now holding the link's content) goes in it.
        code.text, link.text = link.text, None
        code.extend(list(link))
        code.remove(link)
        link.tail, code.tail = code.tail, None
        parent.replace(code, link)
        link.append(code)
        swapped += 1
    return swapped


def _show_callout_title(callout: etree._Element, label: str) -> None:
    """Show the callout's title: the line its label repeats, hidden from screen readers only.

    Starlight hides its title line (``aria-hidden="true"``) because the label already says it;
    a reader sees it, as other generators' admonition titles.
    """
    if not label:
        return
    for el in callout.iter():
        if el.get("aria-hidden") == "true" and _shown(el) == label:
            del el.attrib["aria-hidden"]
            return


#: East Asian wide characters but Hangul (CSS Text 3's segment break rule): ideographs, kana,
#: CJK punctuation, full-width forms.
_WIDE = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_WIDE_BREAK_RE = re.compile(rf"(?<=[{_WIDE}])[ \t]*\n\s*(?=[{_WIDE}])")
_VERBATIM = frozenset({"pre", "code", "textarea", "script", "style"})


def join_wide_lines(tree: etree._Element) -> int:
    """Remove a line break between two Chinese or Japanese characters in the text; returns how many.

    A source's line break inside a paragraph is a space in the page, but between two such
    characters a browser shows none (CSS Text 3, segment breaks): "進化してきました。 この記事"
    had a space no reader sees. Code is left as written.
    """
    joined = 0
    # Elements inside code: their text and tails are verbatim (a code element's own tail is not).
    verbatim = {d for v in tree.iter(*_VERBATIM) for d in v.iterdescendants()}
    for el in tree.iter(etree.Element):
        if el in verbatim:
            continue
        for attr in ("tail",) if el.tag in _VERBATIM else ("text", "tail"):
            value = getattr(el, attr)
            if value and "\n" in value:
                new, n = _WIDE_BREAK_RE.subn("", value)
                if n:
                    setattr(el, attr, new)
                    joined += n
    return joined


def unlink_heading_self_links(tree: etree._Element, url: str) -> int:
    """Unwrap links in headings that lead to the page itself or an anchor of it; their text stays.

    Returns how many links were unwrapped.
    """
    page = urldefrag(url)[0]
    unwrapped = 0
    for heading in list(tree.iter(*HEADINGS)):
        for a in list(heading.iter("a")):
            href = (a.get("href") or "").strip()
            if not href or not a.text_content().strip():
                continue
            try:
                target = urldefrag(urljoin(url, href))[0]
            except ValueError:
                continue
            if href.startswith("#") or target == page:
                a.drop_tag()
                unwrapped += 1
    return unwrapped


def page_fragment(url: str, href: str) -> str | None:
    """The fragment ``href`` names when it leads to ``url``'s own page (``""`` for none); else None.

    The page's path with or without its final slash: "/post#a" from "/post/" (a server adds the
    slash by a redirect, or the generator links without it: Vocs), and the path written out
    ("reading-large-csv-in-chunks.html#counting-rows": pandoc's self-links in bookdown).
    """
    try:
        target, fragment = urldefrag(urljoin(url, href.strip()))
    except ValueError:
        return None
    return fragment if target.rstrip("/") == urldefrag(url)[0].rstrip("/") else None


def _names_a_heading(a: etree._Element, url: str, ids: set[str | None], titles: set[str]) -> bool:
    href = (a.get("href") or "").strip()
    if not href.startswith("#"):
        fragment = page_fragment(url, href)
        if not fragment:
            return False
        href = "#" + fragment
    return href[1:] in ids or _shown(a).casefold() in titles


def _heading_block(el: etree._Element | None) -> bool:
    """A heading, or a wrapper holding one heading and its anchor link (Starlight's)."""
    if el is None or not isinstance(el.tag, str):
        return False
    if el.tag in HEADINGS:
        return True
    return (
        el.tag == "div"
        and len(el.findall(".//h1") + el.findall(".//h2") + el.findall(".//h3")) == 1
        and (next(el.iter("p", "ul", "ol", "pre", "table"), None) is None)
    )


#: A section's number before a heading's words ("2.6.2 ").
_NUMBER_RE = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
#: A subsection's number, dotted ("1.3.4 "), before its heading's words.
_SECTION_NUMBER_RE = re.compile(r"^\d+(?:\.\d+)+\.?\s+")


def _bare_anchor(el: etree._Element) -> bool:
    """An empty element that is only a link target (an ``id``, no text, no children)."""
    return (
        el.get("id") is not None
        and not len(el)
        and not (el.text or "").strip()
        and not (el.tail or "").strip()
    )


def drop_contents_lists(tree: etree._Element, url: str) -> int:
    """Drop an author's table of contents: a heading over nothing but links to the page's headings.

    Returns how many went.

    Extraction drops such a list (all links), and its "Contents" heading stood over nothing,
    directly above the first section's heading (the held-out sites' CSV post). Only lists of two
    or more links to anchors of the page and no other text, each to the id of one of the page's
    headings (or their sections) or named as one of them, between the heading and the next
    heading or the end of its block.
    """
    targets: set[str | None] | None = None
    titles: set[str] = set()
    dropped = 0
    for lst in list(tree.iter("ul", "ol")):
        # The list with the wrappers that hold only it (Org's div.outline-text-2, Asciidoctor's
        # div.sectionbody > div.ulist): the heading stands over the outermost.
        unit = lst
        while (
            (holder := unit.getparent()) is not None
            and holder.tag == "div"
            and len(holder) == 1
            and not (holder.text or "").strip()
            and not (unit.tail or "").strip()
        ):
            unit = holder
        heading = unit.getprevious()
        if not _heading_block(heading) or (heading.tail or "").strip() or (unit.tail or "").strip():
            continue
        after = unit.getnext()
        while after is not None and _bare_anchor(after):  # Texinfo's <span id="…"> anchors
            after = after.getnext()
        if after is not None and not _heading_block(after):
            continue
        links = list(lst.iter("a"))
        # In-page links only (a fragment, or the page itself and a fragment), before anything costs.
        if len(links) < 2 or not all("#" in (a.get("href") or "") for a in links):
            continue
        if targets is None:
            targets = {
                el.get("id")
                for el in tree.iterfind(".//*[@id]")
                if el.tag in HEADINGS or el.tag in _SECTIONS and next(el.iter(*HEADINGS), None) is not None
            }
            # Headings without ids (the link is the author's, the anchor the theme's or none): by text.
            titles = {_shown(h).casefold() for h in tree.iter(*HEADINGS)}
            # A numbered manual's headings ("2.6.2 Counting rows"), named without their number.
            titles |= {_NUMBER_RE.sub("", t, count=1) for t in titles}
        if not all(_names_a_heading(a, url, targets, titles) for a in links):
            continue
        if len("".join(lst.text_content().split())) > len(
            "".join("".join(a.text_content() for a in links).split())
        ):
            continue
        unit.drop_tree()
        heading.drop_tree()
        dropped += 1
    return dropped


def is_language(name: str) -> bool:
    """Whether Pygments knows ``name`` as a language (one of its lexers' names or aliases).

    Read from Pygments' own table of its lexers: asking Pygments for a name it does not know
    sends it through every installed package's plugin entry points, each time (milliseconds,
    and an import of whatever registers a lexer: IPython's, where it is installed).
    """
    return name.lower() in _language_names()


@functools.cache
def _language_names() -> frozenset[str]:
    """Every name and alias of Pygments' built-in lexers, in lower case."""
    return frozenset(
        n.lower() for name, aliases, _files, _mimes in get_all_lexers(plugins=False) for n in (name, *aliases)
    )


def _wrapper_language(pre: etree._Element) -> str | None:
    """The language a highlighter's wrapper of ``pre`` names beside its marker class, if any.

    The block's own wrapper counts as one too: a parent whose class repeats the ``<pre>``'s
    (Texinfo's ``<div class="example python"><pre class="example">``, as ``@example python``
    writes it in every GNU manual).
    """
    own = frozenset((pre.get("class") or "").lower().split())
    for depth, ancestor in enumerate(list(pre.iterancestors())[:_WRAPPER_DEPTH]):
        if ancestor.tag in {"body", "main", "article", "section"}:
            return None
        tokens = (ancestor.get("class") or "").lower().split()
        markers = _HIGHLIGHT_MARKERS | own if depth == 0 else _HIGHLIGHT_MARKERS
        if markers.intersection(tokens):
            names = [t for t in tokens if t not in markers and is_language(t)]
            return names[0] if len(names) == 1 else None
    return None


def declare_code_languages(tree: etree._Element) -> int:
    """Give ``<pre>`` blocks the language their highlighter's wrapper names (``language-<name>``).

    A block that already declares a language (``language-``/``lang-`` on itself or its ``<code>``)
    is left alone. Returns how many blocks got one.
    """
    declared = 0
    for pre in list(tree.iter("pre")):
        code = pre.find("code")
        if any(_LANG_CLASS_RE.search(el.get("class") or "") for el in (pre, code) if el is not None):
            continue
        lang = _wrapper_language(pre)
        if lang:
            pre.set("class", f"{pre.get('class') or ''} language-{lang}".strip())
            declared += 1
    return declared


def drop_code_language_labels(tree: etree._Element) -> int:
    """Remove labels beside a ``<pre>`` that only repeat its wrapper's ``language-<name>``.

    Returns how many labels were removed.
    """
    dropped = 0
    for pre in list(tree.iter("pre")):
        wrapper = pre.getparent()
        if wrapper is None:
            continue
        found = _LANG_NAME_RE.search(wrapper.get("class") or "")
        if not found:
            continue
        name = found.group(1).casefold()
        for sibling in list(wrapper):
            if sibling is pre or not isinstance(sibling.tag, str) or sibling.find(".//pre") is not None:
                continue
            if sibling.text_content().strip().casefold() == name:
                sibling.drop_tree()
                dropped += 1
    return dropped


# The role attributes' values, one C walk: a third of an XPath testing every element's role.
_ROLES = etree.XPath("//@role", smart_strings=True)
_DISPLAY_NONE_RE = re.compile(r"display\s*:\s*none\s*;?", re.I)


def _show(panel: etree._Element) -> None:
    panel.attrib.pop("hidden", None)
    if panel.get("aria-hidden") == "true":
        del panel.attrib["aria-hidden"]
    if (style := panel.get("style")) and "none" in style:
        panel.set("style", _DISPLAY_NONE_RE.sub("", style))


def _toggled_panels(tree: etree._Element) -> list[list[etree._Element]]:
    """Groups of sibling panels of which one is shown and the others hidden by ``aria-hidden``.

    Tabs without ARIA roles (Rspress' ``rp-tabs``): the shown panel says ``aria-hidden="false"``,
    each other ``"true"``, all of one tag.
    """
    groups = []
    for parent in {el.getparent() for el in tree.iterfind(".//*[@aria-hidden='false']")}:
        if parent is None:
            continue
        kids = [c for c in parent if isinstance(c.tag, str)]
        states = [c.get("aria-hidden") for c in kids]
        if len(kids) >= 2 and states.count("false") == 1 and states.count("true") == len(kids) - 1:
            if len({c.tag for c in kids}) == 1:
                groups.append(kids)
    return groups


def show_tab_panels(tree: etree._Element, toggled: list[list[etree._Element]] | None = None) -> None:
    """Show every ``role="tabpanel"`` and every panel of a group toggling ``aria-hidden``.

    A tab the reader has not picked is the article too.
    """
    for panel in (role.getparent() for role in _ROLES(tree) if role == "tabpanel"):
        _show(panel)
    for group in _toggled_panels(tree) if toggled is None else toggled:
        for panel in group:
            _show(panel)


#: A tab's name longer than this is not a name (a tab strip holds words: "pip", "macOS").
_TAB_NAME_MAX = 60


def _tab_names(
    tree: etree._Element, toggled: list[list[etree._Element]]
) -> list[tuple[etree._Element, list[etree._Element]]]:
    """Each tab group: its tabs, in order, under the element that holds them (not their panels).

    A group is the ``role="tab"`` elements of one ``role="tablist"``, the ``<label>`` elements
    of one name's radio buttons (the CSS-only tabs of Material for MkDocs, sphinx-design and
    VitePress' code groups: ``<input type="radio" id=X name=G><label for=X>pip</label>``), or
    the row of names before a group of panels shown by turns.
    """
    groups: list[tuple[etree._Element, list[etree._Element]]] = []
    for tablist in tree.iterfind(".//*[@role='tablist']"):
        tabs = tablist.findall(".//*[@role='tab']")
        if tabs:
            groups.append((tablist, tabs))
    radios: dict[str, list[etree._Element]] = {}
    labels = {label.get("for"): label for label in tree.iter("label") if label.get("for")}
    for radio in tree.iterfind(".//input[@type='radio'][@id]"):
        if (label := labels.get(radio.get("id"))) is not None:
            radios.setdefault(radio.get("name") or "", []).append(label)
    for group in radios.values():
        parent = group[0].getparent()
        if parent is not None:
            groups.append((parent, group))
    # Panels shown by turns (:func:`_toggled_panels`): their names are the row just before
    # their holder, one short text per panel (Rspress' rp-tabs__label).
    for panels in toggled:
        holder = panels[0].getparent()
        row = holder.getprevious() if holder is not None else None
        names = [c for c in row if isinstance(c.tag, str)] if row is not None else []
        short = all(0 < len(n.text_content().strip()) <= _TAB_NAME_MAX for n in names)
        if len(names) == len(panels) and short:
            groups.append((row, names))
    return groups


class _Named:
    """The page's elements by id and by ``aria-labelledby``, gathered at the first need."""

    def __init__(self, tree: etree._Element) -> None:
        self.tree = tree
        self._by_id: dict[str | None, etree._Element] | None = None
        self._by_label: dict[str | None, etree._Element] = {}

    def get(self, ident: str | None, *, labelled: bool = False) -> etree._Element | None:
        if self._by_id is None:
            self._by_id = {el.get("id"): el for el in self.tree.iterfind(".//*[@id]")}
            self._by_label = {
                el.get("aria-labelledby"): el for el in self.tree.iterfind(".//*[@aria-labelledby]")
            }
        return (self._by_label if labelled else self._by_id).get(ident)


def _panels(named: _Named, holder: etree._Element, tabs: list[etree._Element]) -> list[etree._Element]:
    """The panel of each tab of a group, in order; [] when they cannot all be told.

    Named by the tab (``aria-controls``, ``href="#panel"``) or by the panel
    (``aria-labelledby``), else the group's panels are the children of the first element after
    the tabs' holder (or its parent) with one child per tab.
    """
    panels = []
    for tab in tabs:
        ident = tab.get("aria-controls") or (tab.get("href") or "").removeprefix("#")
        panel = named.get(ident) if ident else named.get(tab.get("id"), labelled=True)
        if panel is None or panel is tab:
            break
        panels.append(panel)
    else:
        return panels
    for anchor in (holder, holder.getparent()):
        if anchor is None:
            continue
        for after in anchor.itersiblings():
            children = [c for c in after if isinstance(c.tag, str)]
            if len(children) == len(tabs):
                return children
            if len(children) > 1:
                break
    return []


def _begins_with(panel: etree._Element, name: str) -> bool:
    """Whether the panel's first text is an element saying ``name`` and nothing else."""
    for el in panel.iter(etree.Element):
        if el.text and el.text.strip():
            return _shown(el) == name
    return False


def name_tab_panels(tree: etree._Element, toggled: list[list[etree._Element]] | None = None) -> int:
    """Put each tab's name at the top of its panel: "pip" and "npm" say which command is which.

    The tab strip is page chrome, dropped with its names, and each panel's code stood unnamed
    (Material for MkDocs, sphinx-design, VitePress code groups, Astro Starlight). The name goes
    in as a bold line, unless the panel already begins with it (Nextra's hidden heading), and
    the tab leaves the strip. Returns how many panels were named.
    """
    named = 0
    elements = _Named(tree)
    for holder, tabs in _tab_names(tree, _toggled_panels(tree) if toggled is None else toggled):
        panels = _panels(elements, holder, tabs)
        if not panels:
            continue
        for tab, panel in zip(tabs, panels, strict=True):
            name = _shown(tab)
            if not name or len(name) > _TAB_NAME_MAX:
                continue
            # An empty panel (Fumadocs renders only the picked tab's) gets no name over nothing.
            if not _begins_with(panel, name) and (len(panel) or (panel.text or "").strip()):
                line = etree.Element("p")
                etree.SubElement(line, "b").text = name
                panel.insert(0, line)
                named += 1
            if tab.getparent() is not None:  # not already gone with another group's strip
                tab.drop_tree()
    return named


def repair_tree(
    tree: etree._Element,
    url: str,
    *,
    tabs: bool = True,
    wide: bool = True,
    placeholders: list[etree._Element] | None = None,
    code_lines: bool = True,
    sidebars: bool = True,
    scope: etree._Element | None = None,
) -> None:
    """Every tree repair of this module, in order (see the module docstring).

    ``tabs=False``: the page has no tab group (no "tabpanel", no ``aria-hidden="false"``, no
    radio button), not looked for; ``wide=False``: it has no Chinese or Japanese character;
    ``code_lines=False``: no element whose class names a line, not looked for (a caller's test);
    ``sidebars=False``: the page never says "sidebar" (a caller's substring test); ``scope``:
    the page's main region, where the repairs of the text's flow look (the whole page if None).
    """
    if code_lines:
        line_blocks_as_code(tree)
    unlink_heading_self_links(tree, url)
    drop_contents_lists(tree, url)
    drop_empty_anchors(tree, placeholders)
    # Both walk only their tag's elements: next to nothing where the page has none.
    keep_footnotes(tree)
    keep_named_callouts(tree)
    if sidebars:
        keep_sidebar_callouts(tree if scope is None else scope)
    inline_quotes(tree)
    if next(tree.iter("dl"), None) is not None:
        field_lists_as_lines(tree)
    drop_drawn_list_markers(tree)
    # The page's <code> elements, read once for both (one walk of the tree each).
    codes = list(tree.iter("code"))
    links_around_code(codes)
    code_line_breaks(codes)
    if next(tree.iter("details"), None) is not None:
        drop_collapsed_contents(tree, url)
        headings_of_summaries(tree)
    if wide:
        join_wide_lines(tree)
    neutralize_own_names(tree)
    if next(tree.iter("table"), None) is not None:
        drop_link_bars(tree)
        drop_contents_tables(tree, url)
        unname_table_wrappers(tree)
        callout_tables_as_blocks(tree)
    if tabs:
        # Named first: showing the panels clears what tells the toggled ones apart.
        toggled = _toggled_panels(tree)
        name_tab_panels(tree, toggled)
        show_tab_panels(tree, toggled)
    # The code repairs act on <pre> blocks only: one walk tells most pages have none.
    if next(tree.iter("pre"), None) is not None:
        declare_code_languages(tree)
        drop_code_language_labels(tree)
