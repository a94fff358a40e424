"""The ``asciidoctor`` held-out site's source: the corpus as AsciiDoc, one ``.adoc`` per page.

A docs site as many open-source projects publish one with Asciidoctor alone (no Antora, no
static-site generator around it): a folder of AsciiDoc files converted to HTML5 by
``asciidoctor`` with its default stylesheet (embedded in each page), the folder tree kept
(``-R``): ``index.adoc`` (the site's index: a short text and, per section, the list of its
pages as ``xref:`` links), ``guide/``, ``reference/`` and ``appendix/`` (one ``.adoc`` per
published post, the install page the Guide's first) and ``about.adoc``. Each page's header sets
the document attributes such a page sets: ``:author:``, ``:revdate:`` (the post's date: the
header's details line shows it under the title), ``:keywords:`` (the post's tags: ``<meta
name="keywords">``), ``:toc: left`` (the table of contents as a left sidebar), ``:docinfo:
shared`` (``docinfo-header.html``: a navigation bar with the site's name and its sections,
root-relative links, inserted at the top of every page's body) and ``:source-highlighter:
rouge``. The install page and About carry no ``:revdate:`` (no post date: their header shows the
author only, About none).

The posts' Markdown is written out in AsciiDoc by hand-rolled rules (the corpus' Markdown is
small): ``##`` headings become ``==`` sections (an explicit ``[#id]`` where the post links to
one), fenced code ``[source,LANG]`` listing blocks, pipe tables ``[%header]`` ``|===`` tables,
nested lists ``*``/``**``/``***`` and ``.``/``..`` (two spaces a level in the Markdown), inline
code literal monospace (```+text+```, no substitutions inside: ``~`` would start a subscript),
bold ``*text*``, an in-page link ``<<id,text>>``. The install page has ``WARNING:`` and ``NOTE:``
admonitions (the note a compound block holding a ``toml`` listing) and ``xref:`` links to the
first lesson; About links the index and the install page. The U+0008 backspace is kept.
Asciidoctor has no drafts (a draft is a file one does not convert): the draft is left out.

    python bench/heldout/write_sources.py asciidoctor
"""

from __future__ import annotations

import re

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)

AUTHOR = "Ana Lima"

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")


def inline(text: str) -> str:
    """Markdown's inline code, bold and in-page links in AsciiDoc."""

    def one(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return "`+" + m.group(1) + "+`"
        if m.group(2) is not None:
            return "*" + m.group(2) + "*"
        return f"<<{m.group(4)},{m.group(3)}>>"

    return _INLINE.sub(one, text)


def _slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def _list(lines: list[str]) -> list[str]:
    """Nested Markdown lists (two spaces a level) with AsciiDoc's markers: the marker repeated
    once per level (``*``, ``**``; ``.``, ``..``)."""
    out = []
    for line in lines:
        m = re.match(r"^( *)(?:([-*])|(\d+)\.) (.*)$", line)
        assert m, line
        level = len(m.group(1)) // 2 + 1
        marker = ("*" if m.group(2) else ".") * level
        out.append(f"{marker} {inline(m.group(4))}")
    return out


def _table(lines: list[str]) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]
    out = ["[%header]", "|==="]
    out.append(" ".join("|" + inline(c) for c in head))
    for row in body:
        out += ["", " ".join("|" + inline(c) for c in row)]
    out.append("|===")
    return out


def body_asciidoc(body: str) -> str:
    """A post's Markdown body in AsciiDoc."""
    lines = body.rstrip("\n").split("\n")
    linked = {m.group(2) for m in re.finditer(r"\[([^\]]+)\]\(#([^)]+)\)", body)}
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            out += [f"[source,{lang}]" if lang else "[source]", "----", *lines[i + 1 : j], "----"]
            i = j + 1
        elif line.startswith("## "):
            title = line[3:]
            if _slug(title) in linked:
                out.append(f"[#{_slug(title)}]")
            out.append("== " + title)
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j])
            i = j
        elif re.match(r"^(?:[-*]|\d+\.) ", line):
            j = i
            while j < len(lines) and re.match(r"^ *(?:[-*]|\d+\.) ", lines[j]):
                j += 1
            out += _list(lines[i:j])
            i = j
        else:
            out.append(inline(line))
            i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


def header(title: str, *, author: str = AUTHOR, date: str = "", keywords: tuple[str, ...] = ()) -> str:
    """A page's document header: its title and the attributes every page of the site sets."""
    lines = [f"= {title}"]
    if author:
        lines.append(f":author: {author}")
    if date:
        lines.append(f":revdate: {date}")
    if keywords:
        lines.append(":keywords: " + ", ".join(keywords))
    lines += [":toc: left", ":source-highlighter: rouge", ":docinfo: shared"]
    return "\n".join(lines) + "\n\n"


INSTALL = """The tool ships for Python and Node.js; pick one.

WARNING: Python 3.10 or later: older versions lack `+zoneinfo+`; the tool refuses to start on them.

With pip:

[source,bash]
----
pip install lessons-cli
----

With npm:

[source,bash]
----
npm install --global lessons-cli
----

[NOTE]
====
The configuration lives in `+~/.config/lessons/config.toml+`:

[source,toml]
----
[output]
color = true
----
====

Check the installation:

[source,bash]
----
lessons --version
----

Then read xref:python-generators-tour.adoc[Generators in Python: a practical tour], the first lesson.
"""

#: Every page's navigation bar (``:docinfo: shared``, the ``header`` location: the top of the
#: ``<body>``), root-relative links (docinfo is the same file for every folder).
DOCINFO_HEADER = """<nav class="site-nav">
<a href="/">Small Lessons</a> |
<a href="/#guide">Guide</a> |
<a href="/#reference">Reference</a> |
<a href="/#appendix">Appendix</a> |
<a href="/about.html">About</a>
</nav>
"""

#: The navigation bar's style, in the page's ``<head>`` (``docinfo.html``).
DOCINFO = """<style>
nav.site-nav { padding: 0.5em 1em; border-bottom: 1px solid #e7e7e9; font-family: "Open Sans", sans-serif; }
body.toc2 nav.site-nav { padding-left: 16em; }
</style>
"""


def asciidoctor() -> None:
    src = _fresh("asciidoctor")
    by_section: dict[str, list[Post]] = {}
    for p in published():
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
    index = [
        header("Small Lessons"),
        "Short programming lessons, written to test site generators. Start with the guide.\n",
    ]
    for title, key, text in SECTIONS:
        pages = [(p.slug, p.title) for p in by_section[key]]
        if key == "guide":
            pages.insert(0, ("install", INSTALL_TITLE))
        index.append(f"\n[#{key}]\n== {title}\n\n{text}\n\n")
        index.append("".join(f"* xref:{key}/{slug}.adoc[{t}]\n" for slug, t in pages))
        for p in by_section[key]:
            page = header(p.title, date=p.date, keywords=p.tags) + body_asciidoc(p.body)
            _write(src / key / f"{p.slug}.adoc", page)
    index.append("\n== About\n\nxref:about.adoc[What this site is], and who writes it.\n")
    _write(src / "index.adoc", "".join(index))
    _write(src / "guide" / "install.adoc", header(INSTALL_TITLE, keywords=("installation",)) + INSTALL)
    about = (
        header(ABOUT.title, author="")
        + body_asciidoc(ABOUT.body)
        + "\nBack to xref:index.adoc[the index]; new readers start with "
        + "xref:guide/install.adoc[the installation].\n"
    )
    _write(src / "about.adoc", about)
    _write(src / "docinfo-header.html", DOCINFO_HEADER)
    _write(src / "docinfo.html", DOCINFO)
