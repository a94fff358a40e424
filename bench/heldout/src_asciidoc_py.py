"""The ``asciidoc-py`` held-out site's source: the corpus as AsciiDoc.py documents, a blog.

AsciiDoc.py (the original Python AsciiDoc, 10.2 as Debian 12 packages it) converts one document
at a time and has no notion of a site: a blog made with it is a folder of AsciiDoc files and a
script that converts each, which is what ``build.sh`` does (``asciidoc -b html5 -a toc! -a
source-highlighter=pygments`` on every ``.txt`` here, the output beside it). This module writes
the files such a blog's author keeps, the ``.txt`` extension AsciiDoc.py's own documentation uses:

- ``posts/<slug>.txt``, one a published post (the draft is left out): the document header as
  AsciiDoc.py's user guide gives it, ``= Title``, the author line ``Ana Lima <ana@example.org>``
  and the revision line ``v1.0, 2023-01-15`` (how AsciiDoc.py dates a document: the header shows
  ``version 1.0,`` and the date under the ``<h1>``, the footer "Version 1.0"), then the body
  and a closing paragraph linking the post's tags, its category and the index;
- ``index.txt`` (the site's home page: every post, newest first, as a list of links each after
  its date), ``archive.txt`` (the posts by year, a section a year), ``tags.txt`` and
  ``tags/<tag>.txt`` (a page per tag, the tag's posts as a dated list),
  ``categories.txt`` and ``categories/<category>.txt`` (the same for the posts' categories);
- ``about.txt``, a page with an author line and no revision (no date).

The posts' Markdown is written out in AsciiDoc by hand-rolled rules (the corpus' Markdown is
small): ``##`` headings ``==`` sections (an ``[[id]]`` anchor where the post links to one,
``<<id,text>>`` the link), fenced code ``[source,LANG]`` listing blocks (a plain ``----`` listing
block when the fence names no language: Pygments needs one), pipe tables
``[options="header"]`` ``|===`` tables, nested lists ``*``/``**``/``***`` and ``.``/``..`` (two
spaces a level in the Markdown), inline code the backquoted literal (AsciiDoc.py's inline
passthrough: no substitution inside), bold the unconstrained ``**text**``. The U+0008 backspace
is kept. AsciiDoc.py has no feeds, sitemap, pagination or drafts.

    python bench/heldout/write_sources.py asciidoc-py
"""

from __future__ import annotations

import re

from corpus import ABOUT, Post, published
from write_sources import _fresh, _write

AUTHOR_LINE = "Ana Lima <ana@example.org>"
SITE = "Small Lessons"

#: The line of links at the top of every page but the tag and category pages (which link Home and
#: their index), relative to the site's root.
NAV = (
    "link:index.html[Home] | link:archive.html[Archive] | link:tags.html[Tags] | "
    "link:categories.html[Categories] | link:about.html[About]\n\n"
)

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")


def inline(text: str) -> str:
    """Markdown's inline code, bold and in-page links in AsciiDoc.py's inline markup."""

    def one(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return "`" + m.group(1) + "`"
        if m.group(2) is not None:
            return "**" + m.group(2) + "**"
        return f"<<{m.group(4)},{m.group(3)}>>"

    return _INLINE.sub(one, text)


def _slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def _list(lines: list[str]) -> list[str]:
    """Nested Markdown lists (two spaces a level) with AsciiDoc's markers, repeated once per
    level (``*``, ``**``; ``.``, ``..``)."""
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
    out = ['[options="header"]', "|==="]
    out.append(" ".join("|" + inline(c) for c in head))
    for row in body:
        out.append(" ".join("|" + inline(c) for c in row))
    out.append("|===")
    return out


def body_asciidoc(body: str) -> str:
    """A post's Markdown body in AsciiDoc.py's markup."""
    lines = body.rstrip("\n").split("\n")
    linked = {m.group(2) for m in re.finditer(r"\[([^\]]+)\]\(#([^)]+)\)", body)}
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            out += ([f"[source,{lang}]"] if lang else []) + ["----", *lines[i + 1 : j], "----"]
            i = j + 1
        elif line.startswith("## "):
            title = line[3:]
            if _slug(title) in linked:
                out.append(f"[[{_slug(title)}]]")
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


def _dated_list(posts: list[Post], prefix: str) -> str:
    """Posts newest first, each ``* 2023-01-15 - link:...[Title]``."""
    rows = sorted(posts, key=lambda p: p.date, reverse=True)
    return "".join(f"* {p.date} - link:{prefix}posts/{p.slug}.html[{p.title}]\n" for p in rows)


def _post(p: Post) -> str:
    tags = ", ".join(f"link:../tags/{t}.html[{t}]" for t in p.tags)
    return (
        f"= {p.title}\n{AUTHOR_LINE}\nv1.0, {p.date}\n\n"
        + NAV.replace("link:", "link:../")
        + body_asciidoc(p.body)
        + f"\n'''\n\nTags: {tags}. Category: link:../categories/{p.category}.html[{p.category}]."
        + " link:../index.html[All posts].\n"
    )


def _listing(title: str, text: str) -> str:
    return f"= {title}\n{AUTHOR_LINE}\n\n{text}"


def asciidoc_py() -> None:
    src = _fresh("asciidoc-py")
    posts = list(published())
    for p in posts:
        _write(src / "posts" / f"{p.slug}.txt", _post(p))
    _write(
        src / "index.txt",
        _listing(
            SITE,
            NAV
            + "Short programming lessons, written to test site generators. Every post, newest first:\n\n"
            + _dated_list(posts, ""),
        ),
    )
    years = sorted({p.date[:4] for p in posts}, reverse=True)
    archive = NAV
    for year in years:
        archive += f"== {year}\n\n" + _dated_list([p for p in posts if p.date.startswith(year)], "") + "\n"
    _write(src / "archive.txt", _listing("Archive", archive))
    for kind, key in (("tags", lambda p: p.tags), ("categories", lambda p: (p.category,))):
        names = sorted({n for p in posts for n in key(p)})
        index = NAV
        for name in names:
            mine = [p for p in posts if name in key(p)]
            index += f"* link:{kind}/{name}.html[{name}] ({len(mine)})\n"
            page = f"link:../index.html[Home] | link:../{kind}.html[{kind.capitalize()}]\n\n"
            page += f"Posts filed under {name}, newest first:\n\n" + _dated_list(mine, "../")
            label = "Tag" if kind == "tags" else "Category"
            _write(src / kind / f"{name}.txt", _listing(f"{label}: {name}", page))
        _write(src / f"{kind}.txt", _listing(kind.capitalize(), index))
    about = (
        f"= {ABOUT.title}\n{AUTHOR_LINE}\n\n"
        + NAV
        + body_asciidoc(ABOUT.body)
        + "\nThe posts are listed on link:index.html[the home page].\n"
    )
    _write(src / "about.txt", about)
