"""The ``docbook`` held-out site's source: the corpus as one DocBook 4.5 book (``book.xml``).

DocBook XML as the Linux Documentation Project's guides and many GNU/Linux manuals are written,
built with the DocBook XSL stylesheets' chunked HTML (``html/chunk.xsl``, docbook-xsl 1.79.2 from
Debian 12, through a customization layer ``chunk.xsl``, run by ``xsltproc``: build.sh). The book:
``<bookinfo>`` (title, subtitle, author, copyright, legal notice, abstract), the About page as the
``<preface>``, then one ``<part>`` per docs section (Guide, Reference, Appendix: a
``<partintro>`` sentence) holding a ``<chapter>`` per published post (the install page the
Guide's first chapter), and an ``<index>`` the stylesheets fill from the ``<indexterm>`` entries
each post carries (its tags and category: the book's tag pages). A post's date is its chapter's
``<chapterinfo><pubdate>`` (shown under the chapter's title), its tags a ``<keywordset>`` too
(the page's ``<meta name="keywords">``).

The customization layer sets what a chunked DocBook site usually sets: ``use.id.as.filename``
(each chapter's file named after its ``id``, the post's slug), ``chunk.section.depth`` 0 (a
post's sections stay on its page: one page per chapter, preface and part), UTF-8 output and the
stylesheet ``docbook.css`` (written here: DocBook XSL ships no HTML stylesheet of its own but the
one embedded in ``html/docbook.css.xml``, which ``make.clean.html`` would write out, with its
other output changes). Everything else is the stylesheets' default: the Prev/Up/Next navigation
header and footer, the tables of contents of the book (``index.html``), each part and each
chapter, chapter and part labels ("Chapter 3.", "Part I.").

The posts' Markdown is written out in DocBook by hand-rolled rules (the corpus' Markdown is
small): ``##`` headings become ``<section>`` (ids ``<slug>-<heading>``), fenced code
``<programlisting language="LANG">``, pipe tables ``<informaltable>`` (no caption: the posts
have none), lists ``<itemizedlist>``/``<orderedlist>``, inline code ``<literal>``, bold
``<emphasis role="strong">``, an in-page link ``<link linkend>``. The install page's notes are
``<warning>`` and ``<note>`` admonitions. XML 1.0 allows no U+0008 backspace, not even as a
character reference: it is dropped (as for Pelican's feeds). No drafts in DocBook: the draft is
left out (profiling could hide it, with the profiling stylesheets, not ``chunk.xsl``).

    python bench/heldout/write_sources.py docbook
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape as _xml_escape

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")


def escape(text: str) -> str:
    """XML's special characters; the backspace, which XML 1.0 does not allow, dropped."""
    return _xml_escape(text.replace("\b", ""))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def inline(text: str, prefix: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append("<literal>" + escape(m.group(1)) + "</literal>")
        elif m.group(2) is not None:
            out.append('<emphasis role="strong">' + inline(m.group(2), prefix) + "</emphasis>")
        else:
            out.append(f'<link linkend="{prefix}-{m.group(4)}">' + escape(m.group(3)) + "</link>")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


_ITEM = re.compile(r"^( *)(?:([-*])|(\d+)\.) (.*)$")


def _list(lines: list[str], prefix: str) -> list[str]:
    """Nested Markdown lists (two spaces a level) as ``<itemizedlist>``/``<orderedlist>``: a
    sublist goes inside the ``<listitem>`` it follows."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, element), each with its last <listitem> open
    for line in lines:
        m = _ITEM.match(line)
        assert m, line
        indent, kind = len(m.group(1)), "itemizedlist" if m.group(2) else "orderedlist"
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and stack[-1][1] != kind)):
            out += ["</listitem>", f"</{stack.pop()[1]}>"]
        if stack and stack[-1][0] == indent:
            out.append("</listitem>")
        else:
            out.append(f"<{kind}>")
            stack.append((indent, kind))
        out.append("<listitem><para>" + inline(m.group(4), prefix) + "</para>")
    while stack:
        out += ["</listitem>", f"</{stack.pop()[1]}>"]
    return out


def _table(lines: list[str], prefix: str) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]

    def row(cells: list[str]) -> str:
        return "<row>" + "".join(f"<entry>{inline(c, prefix)}</entry>" for c in cells) + "</row>"

    return [
        "<informaltable>",
        f'<tgroup cols="{len(head)}">',
        "<thead>",
        row(head),
        "</thead>",
        "<tbody>",
        *(row(r) for r in body),
        "</tbody>",
        "</tgroup>",
        "</informaltable>",
    ]


def body_docbook(body: str, prefix: str) -> str:
    """A post's Markdown body in DocBook: its blocks, each ``##`` heading a ``<section>`` (ids
    ``<prefix>-<heading slug>``) holding what follows it."""
    lines = body.rstrip("\n").split("\n")
    out: list[str] = []
    in_section = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            code = escape("\n".join(lines[i + 1 : j]))
            attr = f' language="{lang}"' if lang else ""
            out.append(f"<programlisting{attr}>{code}</programlisting>")
            i = j + 1
        elif line.startswith("## "):
            if in_section:
                out.append("</section>")
            title = line[3:]
            out.append(f'<section id="{prefix}-{slug(title)}">')
            out.append(f"<title>{inline(title, prefix)}</title>")
            in_section = True
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j], prefix)
            i = j
        elif _ITEM.match(line):
            j = i
            while j < len(lines) and _ITEM.match(lines[j]):
                j += 1
            out += _list(lines[i:j], prefix)
            i = j
        elif not line.strip():
            i += 1
        else:
            j = i
            while (
                j < len(lines)
                and lines[j].strip()
                and not lines[j].startswith(("```", "## ", "|"))
                and not _ITEM.match(lines[j])
            ):
                j += 1
            out.append("<para>" + inline("\n".join(lines[i:j]), prefix) + "</para>")
            i = j
    if in_section:
        out.append("</section>")
    return "\n".join(out) + "\n"


INSTALL = """<para>The tool ships for Python and Node.js; pick one.</para>
<warning>
<title>Python 3.10 or later</title>
<para>Older versions lack <literal>zoneinfo</literal>; the tool refuses to start on them.</para>
</warning>
<para>With pip:</para>
<programlisting language="bash">pip install lessons-cli</programlisting>
<para>With npm:</para>
<programlisting language="bash">npm install --global lessons-cli</programlisting>
<note>
<para>The configuration lives in <filename>~/.config/lessons/config.toml</filename>.</para>
</note>
<para>Check the installation:</para>
<programlisting language="bash">lessons --version</programlisting>
"""


def _indexterms(p: Post) -> str:
    """The post's tags and category as index entries (the book's index: its tag pages)."""
    return "".join(
        f"<indexterm><primary>{escape(t)}</primary></indexterm>\n"
        for t in dict.fromkeys((*p.tags, p.category))
    )


def chapter(p: Post) -> str:
    keywords = "".join(f"<keyword>{escape(t)}</keyword>" for t in p.tags)
    return (
        f'<chapter id="{p.slug}">\n'
        f"<chapterinfo>\n<pubdate>{p.date}</pubdate>\n<keywordset>{keywords}</keywordset>\n</chapterinfo>\n"
        f"<title>{escape(p.title)}</title>\n" + _indexterms(p) + body_docbook(p.body, p.slug) + "</chapter>\n"
    )


BOOK_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"
  "http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd">
<book id="small-lessons" lang="en">
<bookinfo>
<title>Small Lessons</title>
<subtitle>Short programming lessons</subtitle>
<author><firstname>Ana</firstname><surname>Lima</surname></author>
<copyright><year>2024</year><holder>Ana Lima</holder></copyright>
<legalnotice>
<para>Dedicated to the public domain (CC0 1.0): copy, change and share it freely.</para>
</legalnotice>
<abstract>
<para>A notebook of small programming lessons, written to test site generators. Start with the
guide.</para>
</abstract>
</bookinfo>
"""

#: The customization layer: html/chunk.xsl (resolved through the XML catalog docbook-xsl
#: installs, no network) and the parameters a chunked site usually sets.
CHUNK_XSL = """<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="1.0">
  <xsl:import href="http://docbook.sourceforge.net/release/xsl/current/html/chunk.xsl"/>
  <!-- One file per chapter, preface and part, named after its id. -->
  <xsl:param name="use.id.as.filename" select="1"/>
  <xsl:param name="chunk.section.depth" select="0"/>
  <xsl:param name="chunk.quietly" select="1"/>
  <xsl:param name="chunker.output.encoding" select="'UTF-8'"/>
  <xsl:param name="html.stylesheet" select="'docbook.css'"/>
</xsl:stylesheet>
"""

#: The site's stylesheet, after the rules of docbook-xsl's html/docbook.css.xml.
DOCBOOK_CSS = """body { font-family: sans-serif; max-width: 50em; margin: 0 auto; padding: 0 1em; }
.navheader table, .navfooter table { width: 100%; }
.navheader hr, .navfooter hr { border: 0; border-top: 1px solid #ccc; }
pre.programlisting { background: #f4f4f4; border: 1px solid #ddd; padding: 0.5em; overflow: auto; }
.informaltable table, .table table { border-collapse: collapse; }
.informaltable td, .informaltable th { border: 1px solid #ccc; padding: 0.2em 0.5em; }
div.note, div.warning { border-left: 3px solid #888; padding-left: 1em; }
.toc dt { margin-top: 0.2em; }
p.pubdate { color: #555; }
"""


def docbook() -> None:
    src = _fresh("docbook")
    by_section: dict[str, list[Post]] = {}
    for p in published():
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
    parts = [
        BOOK_HEAD,
        f'<preface id="{ABOUT.slug}">\n<title>{escape(ABOUT.title)}</title>\n'
        + body_docbook(ABOUT.body, ABOUT.slug)
        + "</preface>\n",
    ]
    for title, key, text in SECTIONS:
        chapters = [chapter(p) for p in by_section[key]]
        if key == "guide":
            install = Post("install", INSTALL_TITLE, "", "", tags=("installation",), category="guide")
            chapters.insert(
                0,
                f'<chapter id="install">\n<title>{INSTALL_TITLE}</title>\n'
                + _indexterms(install)
                + INSTALL
                + "</chapter>\n",
            )
        parts.append(
            f'<part id="{key}">\n<title>{title}</title>\n<partintro>\n<para>{escape(text)}</para>\n'
            "</partintro>\n" + "".join(chapters) + "</part>\n"
        )
    parts.append('<index id="subject-index"/>\n</book>\n')
    _write(src / "book.xml", "".join(parts))
    _write(src / "chunk.xsl", CHUNK_XSL)
    _write(src / "docbook.css", DOCBOOK_CSS)
