"""The ``texinfo`` held-out site's source: the corpus as one Texinfo manual (``small-lessons.texi``).

GNU's documentation format, as the GNU manuals are written: a Top node with the title page,
``@contents`` and the master menu, a chapter per docs section (Guide, Reference, Appendix: a
short text and the menu of its sections) with a ``@node`` + ``@section`` per published post, the
install page a section of the Guide, the About page a chapter, and a concept index (``@cindex``:
each post's tags and category) printed in an ``Index`` node. ``makeinfo --html`` (Texinfo 6.8)
splits it by node, one HTML file per node (build.sh).

The posts' Markdown is written out in Texinfo by hand-rolled rules (the corpus' Markdown is
small): ``##`` headings become ``@subsection`` (no node: they stay on the post's page), fenced
code ``@example LANG`` (the manual's recommendation: "use the first argument to specify the
language of the code"; HTML writes it as a class name), or ``@verbatim`` where the block holds a
tab (the manual: no tabs anywhere "except in verbatim environments"), pipe tables
``@multitable`` with ``@headitem``, lists ``@itemize @bullet`` / ``@enumerate``, inline code
``@code``, bold ``@strong``, an in-page link ``@ref`` to an ``@anchor``. The U+0008 backspace is
kept (texi2any passes it through).

    python bench/heldout/write_sources.py texinfo
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

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")


def escape(text: str) -> str:
    """Texinfo's three special characters."""
    return text.replace("@", "@@").replace("{", "@{").replace("}", "@}")


def node_name(title: str) -> str:
    """A node name from a title: no colon, comma, period or parentheses (Info's menu and
    cross-reference syntax uses them), spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"[:,.()]", "", title)).strip()


def inline(text: str, anchors: dict[str, str]) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append("@code{" + escape(m.group(1)) + "}")
        elif m.group(2) is not None:
            out.append("@strong{" + escape(m.group(2)) + "}")
        else:
            out.append("@ref{" + anchors[m.group(4)] + "}")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def _slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def _list(lines: list[str], anchors: dict[str, str]) -> list[str]:
    """Nested Markdown lists (two spaces a level) as @itemize/@enumerate."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, "itemize"|"enumerate")
    for line in lines:
        m = re.match(r"^( *)(?:([-*])|(\d+)\.) (.*)$", line)
        assert m, line
        indent, kind = len(m.group(1)), "itemize" if m.group(2) else "enumerate"
        while stack and stack[-1][0] > indent:
            out.append(f"@end {stack.pop()[1]}")
        if stack and stack[-1][0] == indent and stack[-1][1] != kind:
            out.append(f"@end {stack.pop()[1]}")
        if not stack or stack[-1][0] < indent:
            out.append("@itemize @bullet" if kind == "itemize" else "@enumerate")
            stack.append((indent, kind))
        out.append("@item " + inline(m.group(4), anchors))
    while stack:
        out.append(f"@end {stack.pop()[1]}")
    return out


def _table(lines: list[str], anchors: dict[str, str]) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]
    frac = f"{1 / len(head):.2f}".lstrip("0")
    out = ["@multitable @columnfractions " + " ".join([frac] * len(head))]
    out.append("@headitem " + " @tab ".join(inline(c, anchors) for c in head))
    out += ["@item " + " @tab ".join(inline(c, anchors) for c in row) for row in body]
    out.append("@end multitable")
    return out


def body_texinfo(body: str) -> str:
    """A post's Markdown body in Texinfo."""
    lines = body.rstrip("\n").split("\n")
    headings = [ln[3:] for ln in lines if ln.startswith("## ")]
    anchors = {_slug(h): h for h in headings}
    linked = {m.group(2) for m in re.finditer(r"\[([^\]]+)\]\(#([^)]+)\)", body)}
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            code = lines[i + 1 : j]
            if any("\t" in c for c in code):
                out += ["@verbatim", *code, "@end verbatim"]
            else:
                out += [f"@example {lang}".rstrip(), *(escape(c) for c in code), "@end example"]
            i = j + 1
        elif line.startswith("## "):
            title = line[3:]
            if _slug(title) in linked:
                out.append("@anchor{" + title + "}")
            out.append("@subsection " + escape(title))
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j], anchors)
            i = j
        elif re.match(r"^(?:[-*]|\d+\.) ", line):
            j = i
            while j < len(lines) and re.match(r"^ *(?:[-*]|\d+\.) ", lines[j]):
                j += 1
            out += _list(lines[i:j], anchors)
            i = j
        elif not line.strip():
            out.append("")
            i += 1
        else:
            out.append(inline(line, anchors))
            i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


INSTALL = """The tool ships for Python and Node.js; pick one.

@quotation Warning
Python 3.10 or later: older versions lack @code{zoneinfo}; the tool refuses to start on them.
@end quotation

With pip:

@example bash
pip install lessons-cli
@end example

With npm:

@example bash
npm install --global lessons-cli
@end example

@quotation Note
The configuration lives in @file{~/.config/lessons/config.toml}.
@end quotation

Check the installation:

@example bash
lessons --version
@end example
"""


def _node(name: str, command: str, title: str, text: str, index: tuple[str, ...] = ()) -> str:
    entries = "".join(f"@cindex {escape(e)}\n" for e in index)
    return f"@node {name}\n@{command} {escape(title)}\n{entries}\n{text}\n"


def _menu(entries: list[tuple[str, str]]) -> str:
    width = max(len(name) for name, _ in entries) + 5
    return (
        "@menu\n"
        + "".join(f"{('* ' + name + '::').ljust(width)} {desc}\n" for name, desc in entries)
        + "@end menu\n"
    )


def _description(p: Post) -> str:
    """The menu entry's description: the post's first sentence, cut at 50 characters."""
    first = re.split(r"(?<=[.。!:])\s", p.body.strip().split("\n\n")[0].replace("\n", " "), maxsplit=1)[0]
    first = re.sub(r"`([^`]+)`", r"\1", first).replace("\b", "")
    return escape(first if len(first) <= 50 else first[:49].rsplit(" ", 1)[0] + "...")


def texinfo() -> None:
    src = _fresh("texinfo")
    posts = published()
    by_section: dict[str, list[Post]] = {}
    for p in posts:
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
    install = Post("install", INSTALL_TITLE, "", INSTALL, tags=("installation",), category="guide")
    by_section["guide"].insert(0, install)
    top_menu = [(name, escape(text)) for name, _, text in SECTIONS]
    top_menu += [("About", "What this manual is."), ("Index", "Concepts and tags.")]
    parts = [
        """\\input texinfo   @c -*-texinfo-*-
@c %**start of header
@setfilename small-lessons.info
@documentencoding UTF-8
@documentlanguage en
@settitle Small Lessons
@c %**end of header

@copying
This manual is a notebook of small programming lessons, written to test site generators.

Written by Ana Lima, 2024.  Dedicated to the public domain (CC0 1.0).
@end copying

@dircategory Software development
@direntry
* Small Lessons: (small-lessons).  Short programming lessons.
@end direntry

@titlepage
@title Small Lessons
@subtitle Short programming lessons
@author Ana Lima
@page
@vskip 0pt plus 1filll
@insertcopying
@end titlepage

@contents

@ifnottex
@node Top
@top Small Lessons

Short programming lessons.  Start with the guide.

@insertcopying
@end ifnottex

"""
        + _menu(top_menu)
        + "\n"
    ]
    for title, key, text in SECTIONS:
        entries = by_section[key]
        menu = _menu([(node_name(p.title), _description(p)) for p in entries])
        parts.append(_node(title, "chapter", title, escape(text) + "\n\n" + menu))
        for p in entries:
            index = tuple(dict.fromkeys((*p.tags, p.category)))
            text = p.body if p is install else body_texinfo(p.body)
            parts.append(_node(node_name(p.title), "section", p.title, text, index))
    parts.append(_node("About", "chapter", ABOUT.title, body_texinfo(ABOUT.body)))
    parts.append("@node Index\n@unnumbered Index\n\n@printindex cp\n\n@bye\n")
    _write(src / "small-lessons.texi", "\n".join(parts))
