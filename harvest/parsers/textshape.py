"""Repairs to the extracted text's tree (trafilatura's XML body), after extraction, before Markdown.

Pure functions over the ``<body>`` of the document trafilatura returns, each tested on the real
page that showed the defect (tests/parsers/test_article_rules.py):

- :func:`drop_trailing_headings`: a text does not end with a heading, past blocks that show
  nothing (Jekyll minima's one-line posts: the title came after the line).
- :func:`keep_line_breaks`: a ``<br>`` inside a paragraph is a line break, not a new paragraph
  (Hexo's marked renders each source line break as one: every paragraph was cut in pieces).
- :func:`one_line_headings`: a Markdown heading is one line; a heading whose source spans
  lines (Mezzanine's ``<h6 class="post-meta">`` "Posted by:", its link and "1 year ago" on
  lines of their own) left its indented next lines as code blocks.
- :func:`plain_spaces`: no-break spaces and runs of tabs in the prose are spaces; trafilatura
  makes them so in a plain paragraph, not in one holding a link, emphasis or inline code
  ("one row at a time" with a no-break space in one paragraph, a space in the next).
- :func:`keep_ampersands`: trafilatura's Markdown writer unescapes HTML entities in its whole
  output, which its tree no longer holds: a link's ``&section=1`` became ``§ion=1`` (HTML's
  legacy ``&sect`` needs no semicolon), ``&copy=2`` ``©=2``, and a text's ``&amp;`` a ``&``.
- :func:`mark_quotes` and :func:`quote_lines`: a block quote is Markdown's ``>`` lines;
  trafilatura writes its paragraphs as the text's own (HonKit's "Python 3.10 or later" note and
  its TOML sample read as the author's words and code).
"""

from __future__ import annotations

import re

from lxml import etree

#: Stands for a line break inside a block while the tree becomes Markdown: Unicode's LINE
#: SEPARATOR, which means just that (trafilatura keeps it; it drops private-use and invisible
#: characters), made a newline in the Markdown by :func:`line_breaks`.
LINE_BREAK = "\u2028"
#: Blocks whose line breaks are kept inside them; elsewhere (between blocks) trafilatura's own
#: handling stands.
_INLINE_HOLDERS = frozenset({"p", "item", "cell", "quote"})


def shape(body: etree._Element) -> None:
    """Every repair of this module to the extracted text's tree, in order, but the ampersands'."""
    drop_trailing_headings(body)
    drop_empty_sections(body)
    head_rows(body)
    inline_code_lines(body)
    keep_line_breaks(body)
    one_line_headings(body)
    plain_spaces(body)
    mark_quotes(body)


def _shows_nothing(el: etree._Element) -> bool:
    return not "".join(el.itertext()).strip()


def drop_trailing_headings(body: etree._Element) -> None:
    """Remove the headings the text ends with, past blocks that show nothing, as trafilatura does.

    trafilatura drops a text's trailing headings, but not one followed by an empty block: on
    Jekyll's minima, a one-line post's title came after its line (the ``articleBody`` first, then
    the rest of the ``<article>``: its header's ``<h1>``, then a hidden permalink).
    """
    blocks = list(body)
    while blocks and _shows_nothing(blocks[-1]):
        blocks.pop()
    while len(blocks) > 1 and blocks[-1].tag == "head":
        body.remove(blocks.pop())


def drop_empty_sections(body: etree._Element) -> None:
    """Remove the section names nothing follows before a heading of their rank or above.

    What a section held went as boilerplate (a man page's SEE ALSO, its cross references all
    links) and its name stayed, an empty section: "# SEE ALSO" straight over "# AUTHORS". A
    name is a label, a few words: a longer heading is text of its own (a slideshow's captions
    written as headings, one under the other).
    """
    pending = None  # the last heading, while nothing shown follows it
    for block in list(body):
        if block.tag == "head":
            if (
                pending is not None
                and not (pending.tail or "").strip()
                and _rank(block) <= _rank(pending)
                and len(words := "".join(pending.itertext()).split()) <= SECTION_NAME_WORDS
                and not _DECLARED_RE.search(" ".join(words))
            ):
                body.remove(pending)
            pending = block
        elif pending is not None and not _shows_nothing(block):
            pending = None


#: The most words a section's name has (longer, a heading is a line of text).
SECTION_NAME_WORDS = 3
#: A name called: a function's declaration as a heading, one of several over their text
#: (erl_docgen's "start()", "start(File)", "start(Mode, File)"), no empty section's name.
_DECLARED_RE = re.compile(r"\w\(")


def _rank(head: etree._Element) -> int:
    """A heading's level, 1 for ``h1``; a heading of unknown level ranks last."""
    rend = head.get("rend") or ""
    return int(rend[1]) if len(rend) == 2 and rend[0] == "h" and rend[1].isdigit() else 7


def head_rows(body: etree._Element) -> None:
    """Make a table's first row its header when it has none, as Markdown wants one.

    trafilatura writes the line under a table's head only after a row of ``<th>`` cells: a
    table whose header row is ``<td>`` (mandoc's, many hand-written ones) came out as rows
    without it, which no Markdown reader shows as a table.
    """
    for table in body.iter("table"):
        first = next(table.iterchildren("row"), None)
        if first is None or any(cell.get("role") == "head" for cell in table.iter("cell")):
            continue
        for cell in first.iterchildren("cell"):
            cell.set("role", "head")


def inline_code_lines(body: etree._Element) -> None:
    """Write inline code wrapped over lines in the page's source as one line.

    The code blocks are out of the tree by now (placeholders): a ``<code>`` left is inline, and
    one whose text the source wrapped (PostgreSQL's ``<code class="command">LOCK`` and
    ``TABLE</code>`` on two lines mid-sentence, Python's docs' ``(x, y,`` and ``*rest)``)
    Markdown wrote as a fenced block opened mid-line, which fenced the rest of the document
    instead. Only one between words: a ``<code>`` alone in its block may be a block the page
    wrote without ``<pre>``.
    """
    # A list first: removing a code's children while walking the tree ended the walk there.
    for code in list(body.iter("code")):
        text = "".join(code.itertext())
        if "\n" not in text:
            continue
        # Alone in its block, it may be a block (a <pre> trafilatura took in): not in a list
        # item's or a cell's line (Apache's examples in a definition, "<p><code>\n  .com
        # .example.org.\n</code></p>"), which Markdown writes as one line.
        if not _between_words(code) and not _in_line_holder(code):
            continue
        for child in list(code):
            code.remove(child)
        code.text = " ".join(text.split())


#: Blocks of one line each in Markdown: a list item's first line, a table's cell.
_LINE_HOLDERS = frozenset({"item", "cell"})
#: Inline markup a ``<code>`` may be all of (a link's text: Sphinx's cross-references).
_INLINE_WRAPPERS = frozenset({"ref", "hi", "a", "span", "em", "strong", "b", "i"})


def _in_line_holder(el: etree._Element) -> bool:
    """Whether ``el`` is inside a list item or a cell, whose blocks Markdown writes as one line.

    Apache's examples in a list item: "<p>results in this header…</p><div class="example"><p>
    <code>MyHeader: Hello Joe…</code></p></div>", the item's paragraphs one line, the code
    fenced in its middle.
    """
    return any(up.tag in _LINE_HOLDERS for up in el.iterancestors())


def _between_words(el: etree._Element) -> bool:
    """Text stands before or after the element in its line, or the inline markup it is all of."""
    while True:
        previous = el.getprevious()
        parent = el.getparent()
        before = (previous.tail if previous is not None else parent.text if parent is not None else "") or ""
        if before.strip() or (el.tail or "").strip():
            return True
        if parent is not None and parent.tag in _LINE_HOLDERS:
            # A list item's or a cell's line: a function's signature wrapped in a definition's
            # term (PostgreSQL's ``<dt><code>verify_heapam(relation regclass,`` over ten lines)
            # fenced after the item's bullet left the fence open.
            return True
        if parent is None or parent.tag not in _INLINE_WRAPPERS or previous is not None or len(parent) > 1:
            return False
        el = parent


def keep_line_breaks(body: etree._Element) -> None:
    """Mark each ``<lb/>`` between two texts inside a paragraph, list item, cell or quote.

    trafilatura writes every ``<lb/>`` as a paragraph break in Markdown; :data:`LINE_BREAK`
    takes its place, and :func:`line_breaks` makes it a line break in the Markdown.
    """
    for lb in list(body.iter("lb")):
        parent = lb.getparent()
        if parent is None or parent.tag not in _INLINE_HOLDERS or not (lb.tail or "").strip():
            continue
        previous = lb.getprevious()
        before = (previous.tail if previous is not None else parent.text) or ""
        if previous is None and not before.strip():
            continue
        tail = LINE_BREAK + (lb.tail or "").lstrip()
        if previous is not None:
            previous.tail = (previous.tail or "").rstrip() + tail
        else:
            parent.text = before.rstrip() + tail
        parent.remove(lb)


def one_line_headings(body: etree._Element) -> int:
    """Make each heading's text one line (runs of white space, line breaks too, one space).

    Returns how many headings changed.
    """
    changed = 0
    for head in body.iter("head"):
        before = "".join(head.itertext())
        if "\n" not in before and "\t" not in before and "  " not in before:
            continue
        for br in head.iter("lb"):
            br.tail = " " + (br.tail or "")
        etree.strip_elements(head, "lb", with_tail=False)  # their tails, a space first, stay
        for el in head.iter():
            if el.text:
                el.text = _SPACES_RE.sub(" ", el.text)
            if el is not head and el.tail:
                el.tail = _SPACES_RE.sub(" ", el.tail)
        _strip_ends(head)
        changed += 1
    return changed


def plain_spaces(body: etree._Element) -> int:
    """Make the prose's no-break spaces and runs of blanks one space; code is left as written.

    Returns how many texts changed.
    """
    changed = 0
    # One look at the whole text first (in C): most texts have nothing to change.
    whole = "".join(body.itertext())
    if "\xa0" not in whole and "\t" not in whole and "  " not in whole:
        return 0
    verbatim = {d for v in body.iter("code") for d in v.iter()}
    verbatim |= {d for v in body.iter("hi") if v.get("rend") == "#t" for d in v.iter()}
    for el in body.iter():
        for attr in ("text", "tail"):
            value = getattr(el, attr)
            if not value or ("\xa0" not in value and "\t" not in value and "  " not in value):
                continue
            # A code element's own tail is prose; its children's tails are its code.
            if (el if attr == "text" else el.getparent()) in verbatim:
                continue
            new = _BLANKS_RE.sub(" ", value.replace("\xa0", " "))
            if new != value:
                setattr(el, attr, new)
                changed += 1
    return changed


#: A run of blanks inside a line (a line's own breaks are kept).
_BLANKS_RE = re.compile(r"[ \t]{2,}|\t")


def _strip_ends(head: etree._Element) -> None:
    """Remove the white space a heading's words begin and end with, wherever it stands."""
    for el in head.iter():
        if el.text and not el.text.isspace():
            el.text = el.text.lstrip()
            break
        el.text = None if el is head or not el.text else ""
        if el is not head and el.tail and not el.tail.isspace():
            el.tail = el.tail.lstrip()
            break
    last = head
    while len(last):
        last = last[-1]
        if last.tail and not last.tail.isspace():
            last.tail = last.tail.rstrip()
            return
        last.tail = None
    if last.text:
        last.text = last.text.rstrip()


_SPACES_RE = re.compile(r"\s+")


def line_breaks(markdown: str) -> str:
    """The Markdown with each :data:`LINE_BREAK` a newline (a line break inside its paragraph)."""
    return markdown.replace(LINE_BREAK, "\n") if LINE_BREAK in markdown else markdown


#: Stand for where a block quote opens and shuts while the tree becomes Markdown (paragraphs
#: of their own, which trafilatura keeps as written, like the code blocks' placeholders).
QUOTE_OPEN = "HRVSTQUOTEOPENQX"
QUOTE_SHUT = "HRVSTQUOTESHUTQX"
_FENCE_RE = re.compile(r"(`{3,}|~{3,})")
_QUOTE_RE = re.compile(rf"{QUOTE_OPEN}\n+((?:(?!{QUOTE_OPEN}).)*?)\n*{QUOTE_SHUT}", re.S)


def mark_quotes(body: etree._Element) -> int:
    """Put a paragraph opening and one shutting each block quote of the text; returns how many.

    Only quotes that are blocks of the text (a ``<blockquote>``, not a ``<q>`` inside a
    paragraph or a list item): :func:`quote_lines` makes their lines ``>`` lines.
    """
    marked = 0
    for quote in list(body.iterchildren("quote")):
        if _shows_nothing(quote):
            continue
        opening = etree.Element("p")
        opening.text = QUOTE_OPEN
        shutting = etree.Element("p")
        shutting.text = QUOTE_SHUT
        shutting.tail = quote.tail
        quote.tail = None
        quote.addprevious(opening)
        quote.addnext(shutting)
        marked += 1
    return marked


def quote_lines(markdown: str) -> str:
    """The Markdown with each marked quote's lines begun by ``>`` (its blank lines too)."""
    if QUOTE_OPEN not in markdown:
        return markdown

    def quoted(m: re.Match[str]) -> str:
        lines: list[str] = []
        fence = ""
        for line in m.group(1).strip("\n").split("\n"):
            if fence:
                fence = "" if line.strip() == fence else fence
            elif (opening := _FENCE_RE.match(line)) is not None:
                fence = opening.group(1)
            elif not line.strip() and (not lines or lines[-1] == ">"):
                continue  # one blank line between blocks, as outside; a code block's as written
            lines.append(f"> {line}" if line.strip() else ">")
        return "\n".join(lines)

    markdown = _QUOTE_RE.sub(quoted, markdown)
    # A mark whose partner trafilatura's writing lost shows nothing.
    return markdown.replace(QUOTE_OPEN, "").replace(QUOTE_SHUT, "")


def keep_ampersands(body: etree._Element) -> None:
    """Escape each ``&`` of the text and the link targets, so that trafilatura's unescape gives it back."""
    for text in _AMPERSAND_TEXTS(body):
        holder = text.getparent()
        if holder is None:
            continue
        if text.is_tail:
            holder.tail = holder.tail.replace("&", "&amp;")
        else:
            holder.text = holder.text.replace("&", "&amp;")
    for el in _AMPERSAND_TARGETS(body):
        el.set("target", el.get("target", "").replace("&", "&amp;"))


# Found in C: most texts hold no "&".
_AMPERSAND_TEXTS = etree.XPath(".//text()[contains(., '&')]")
_AMPERSAND_TARGETS = etree.XPath(".//*[contains(@target, '&')]")
