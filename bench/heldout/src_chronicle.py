"""The ``chronicle`` held-out site: Chronicle 4.6 (Debian 12), Steve Kemp's Perl blog compiler.

    python bench/heldout/write_sources.py chronicle

Chronicle ("HTML & RSS blog compiler") turns a folder of text files into a static blog: each
file is one entry, a small header of ``Key: value`` lines (``Title:``, ``Date:``, ``Tags:``,
``Format:``), an empty line, then the body. ``chronicle --config=… --input=… --output=…`` writes
the index (the newest ten entries in full), one page per entry (its name the title with every
character but ``[a-z0-9]`` made ``_``: ``Generators_in_Python__a_practical_tour.html``), one page
per tag (``tags/<tag>/index.html``), one page per month (``archive/YYYY/MM/index.html``), an RSS
feed beside each of them (``index.rss``) and ``sitemap.xml`` (when the URL prefix is set).

``src/`` is what a Chronicle author keeps: ``chroniclerc`` (the blog's title and subtitle, its URL
prefix, the default theme; read after Debian's ``/etc/chroniclerc``, which turns comments off) and
``blog/<slug>.txt``, one entry per post. Each entry says ``Format: markdown``, the per-entry
pseudo-header of Chronicle's manual: ``chronicle-entry-filter`` converts it with Text::Markdown
1.000031 (Debian's ``libtext-markdown-perl``, which chronicle suggests), John Gruber's Markdown.pl
dialect. That dialect has no fenced code blocks and no tables, so the corpus' Markdown is written
the way a Markdown.pl author writes it: a fenced block becomes a block indented by four spaces
(``<pre><code>``, no language: the fence's name is written nowhere), a table an HTML ``<table>``
block (Markdown.pl passes block-level HTML through), and a nested list is indented by four spaces
a level (the corpus' two). The ``Date:`` header gives the day and noon (without a time Chronicle
takes the hour from the file's modification time, which a checkout does not keep).

Chronicle has no pages (every file of the input folder is a dated entry, in the index, the feeds
and the archives) and no drafts but the spooler's ``Publish:`` header (entries kept out of the
input folder until their day): About and the draft are left out. No categories either: the tags
are the only taxonomy.
"""

from __future__ import annotations

import html
import re
from datetime import date

from corpus import POSTS
from write_sources import _fresh, _write

HOST = "https://chronicle.heldout.example"

CHRONICLERC = """\
#
#  Small Lessons: the configuration given to chronicle with --config
#  (read after /etc/chroniclerc, Debian's, which sets no-comments = 1).
#
#  build.sh runs: chronicle --config=chroniclerc --input=blog --output=<site>
#

#  The default theme, from the package.
theme-dir = /usr/share/chronicle/themes
theme = default

#  Each entry names its format (Format: markdown); the rest would be HTML.
format = html

#  The title for the site.
blog_title    = Small Lessons
blog_subtitle = Short programming lessons, written down as I learn them.

#  URL prefix: links, the feeds and the sitemap are absolute.
url_prefix = %(host)s/

#  The calendar (HTML::CalendarMonthSimple, not installed) would show the month of the build.
no-calendar = 1

#  No memcached.
no-cache = 1
""" % {"host": HOST}

_FENCE = re.compile(r"^```(\S*)\s*$")
_LIST_ITEM = re.compile(r"^( +)([-*+]|\d+\.) ")


def _table(rows: list[str]) -> list[str]:
    """A GFM table as the HTML block a Markdown.pl author writes (the dialect has no tables)."""
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    head, body = cells[0], cells[2:]
    out = ["<table>", "<thead>", "<tr>"]
    out += [f"<th>{html.escape(c, quote=False)}</th>" for c in head]
    out += ["</tr>", "</thead>", "<tbody>"]
    for row in body:
        out.append("<tr>")
        out += [f"<td>{html.escape(c, quote=False)}</td>" for c in row]
        out.append("</tr>")
    out += ["</tbody>", "</table>"]
    return out


def markdown_pl(body: str) -> str:
    """The corpus' Markdown (GitHub's dialect) in Markdown.pl's: indented code, HTML tables,
    nested list items indented by four spaces a level."""
    out: list[str] = []
    lines = body.strip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            i += 1
            code = []
            while not lines[i].startswith("```"):
                code.append(lines[i])
                i += 1
            i += 1
            if out and out[-1] != "":
                out.append("")
            out += [("    " + c) if c else "" for c in code]
            if i < len(lines) and lines[i]:
                out.append("")
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            if out and out[-1] != "":
                out.append("")
            out += _table(rows)
            if i < len(lines) and lines[i]:
                out.append("")
            continue
        m = _LIST_ITEM.match(line)
        if m:
            line = " " * (len(m.group(1)) * 2) + line[len(m.group(1)) :]
        out.append(line)
        i += 1
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _date_header(day: str) -> str:
    d = date.fromisoformat(day)
    return f"{d.day} {d.strftime('%B')} {d.year} 12:00"


def chronicle() -> None:
    src = _fresh("chronicle")
    for p in POSTS:
        if p.draft:
            continue  # the spooler's Publish: header is Chronicle's only embargo: left out
        head = [
            f"Title: {p.title}",
            f"Date: {_date_header(p.date)}",
            f"Tags: {', '.join(p.tags)}",
            "Format: markdown",
        ]
        _write(src / "blog" / f"{p.slug}.txt", "\n".join(head) + "\n\n" + markdown_pl(p.body))
    _write(src / "chroniclerc", CHRONICLERC)
