"""Zim 0.75 (Debian 12's ``zim``, the desktop wiki): the corpus as a Zim notebook, exported to HTML.

    python bench/heldout/write_sources.py zim      # writes tests/fixtures/heldout/zim/src

Zim keeps a notebook as a folder of text files, one per page (``Guide/Page_name.txt`` for the
page ``Guide:Page name``: namespaces are folders, spaces underscores), each with the header Zim
writes (``Content-Type``, ``Wiki-Format``, ``Creation-Date``) and its wiki syntax. The sources
are such a notebook (``notebook/``: ``notebook.zim``, the pages) as Zim writes its pages: the
page's template, ``====== Title ======`` then ``Created <weekday> <day> <month> <year>`` (Zim's
``Default.txt`` page template), the post's tags as Zim tags (``@tag``, hyphens as underscores:
a tag is ``@\\w+``), the body converted from the corpus' Markdown by :func:`zim_text`
(``===== headings =====``, ``* `` / ``1. `` lists indented by tabs, tables (``|a|b|`` with a
``|-|-|`` separator), ``''verbatim''``, ``**bold**``, links ``[[#anchor|text]]`` to a heading's
anchor), code as the source-view plugin writes its objects: ``{{{code: lang="ID"
linenumbers="True"`` (``ID`` a GtkSourceView language id: ``sh`` for bash, ``js`` for
JavaScript; the Dockerfile has none in GtkSourceView 3.24, so its block names no language).
The plugin is enabled for the export (``config/zim/preferences.conf``, the ``XDG_CONFIG_HOME``
build.sh gives zim): it writes each block as ``<pre><code class="ID">``.

Namespaces ``Guide``, ``Reference`` and ``Appendix`` hold the posts (``DOC_SECTIONS``), the
install page first in Guide, each namespace page a sentence and links to its pages; ``About`` a
page; ``Home`` (the notebook's home) a welcome text linking the three namespaces and About. Page
names are the titles without the characters a Zim page name cannot hold (``:`` is the namespace
separator; ``?#/\\*"<>|%``). The draft is not written.

``zim --export --format=html --template=Default --index-page=index`` writes one HTML file per
page (``Guide/Page_name.html``, non-ASCII names kept, linked percent-encoded) and the index page
(``index.html``: every page, by namespace).
"""

from __future__ import annotations

import re
from datetime import date

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

#: GtkSourceView 3.24 language ids (the source-view plugin's language list) for the corpus' fences.
LANG_IDS = {"bash": "sh", "javascript": "js", "dockerfile": ""}
SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)
#: The notebook's first day: the home, namespace, install and About pages were created then.
FIRST_DAY = "2023-01-01"

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")
_INVALID = re.compile(r'[?#/\\*"<>|%:\t]')


def page_name(title: str) -> str:
    """A Zim page name from a title: no namespace separator nor character Zim refuses."""
    return re.sub(r"\s+", " ", _INVALID.sub("", title)).strip()


def file_name(name: str) -> str:
    """The page's file in the notebook (Zim's ``encode_filename``: ``:`` a folder, spaces ``_``)."""
    return name.replace(":", "/").replace(" ", "_")


def _slug(heading: str) -> str:
    """Zim's ``heading_to_anchor``: lower case, spaces as ``-``."""
    return re.sub(r"\s+", "-", heading.strip().lower())


def inline(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(text[pos : m.start()])
        if m.group(1) is not None:
            out.append("''" + m.group(1) + "''")
        elif m.group(2) is not None:
            out.append("**" + m.group(2) + "**")
        else:
            out.append(f"[[#{m.group(4)}|{m.group(3)}]]")
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def code_object(lang: str, code: list[str]) -> list[str]:
    lang = LANG_IDS.get(lang, lang)
    attrs = (f' lang="{lang}"' if lang else "") + ' linenumbers="True"'
    return ["{{{code:" + attrs, *code, "}}}"]


def zim_text(body: str) -> str:
    """A post's Markdown body in Zim's wiki syntax."""
    lines = body.rstrip("\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = lines.index("```", i + 1)
            out += code_object(line[3:].strip(), lines[i + 1 : j])
            i = j + 1
        elif m := re.match(r"^(#{2,4}) (.+)$", line):
            marks = "=" * (7 - len(m.group(1)))
            out.append(f"{marks} {m.group(2)} {marks}")
            i += 1
        elif line.startswith("|"):
            while i < len(lines) and lines[i].startswith("|"):
                row = lines[i]
                if re.match(r"^\|[-:| ]+\|$", row):
                    row = "|" + "|".join("-" * 3 for _ in row.strip("|").split("|")) + "|"
                    out.append(row)
                else:
                    out.append(
                        "|" + "|".join(inline(c.strip()) for c in row.strip().strip("|").split("|")) + "|"
                    )
                i += 1
        elif m := re.match(r"^( *)([-*]|\d+\.) (.*)$", line):
            bullet = "*" if m.group(2) in "-*" else m.group(2)
            out.append("\t" * (len(m.group(1)) // 2) + f"{bullet} {inline(m.group(3))}")
            i += 1
        else:
            out.append(inline(line))
            i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


INSTALL = """The tool ships for Python and Node.js; pick one.

**Warning:** Python 3.10 or later: older versions lack ''zoneinfo''; the tool refuses to start on them.

With pip:

{{{code: lang="sh" linenumbers="True"
pip install lessons-cli
}}}

With npm:

{{{code: lang="sh" linenumbers="True"
npm install --global lessons-cli
}}}

**Note:** the configuration lives in ''~/.config/lessons/config.toml''.

Check the installation:

{{{code: lang="sh" linenumbers="True"
lessons --version
}}}
"""


def page_file(title: str, day: str, body: str, tags: tuple[str, ...] = ()) -> str:
    """A page as Zim writes it: its header, the template's heading and "Created" line, the text."""
    d = date.fromisoformat(day)
    created = f"Created {d:%A} {d.day:02d} {d:%B} {d.year}"
    tag_line = " ".join("@" + re.sub(r"\W", "_", t) for t in tags)
    head = (
        "Content-Type: text/x-zim-wiki\n"
        "Wiki-Format: zim 0.6\n"
        f"Creation-Date: {day}T09:00:00+00:00\n\n"
        f"====== {title} ======\n{created}\n"
    )
    return head + (f"{tag_line}\n" if tag_line else "") + "\n" + body


NOTEBOOK = """[Notebook]
version=0.4
name=Small Lessons
interwiki=
home=Home
icon=
document_root=
shared=True
endofline=unix
disable_trash=False
profile=
"""

#: Zim's preferences with the source-view plugin on (the export writes code objects through it).
PREFERENCES = """[General]
plugins=["pageindex", "pathbar", "toolbar", "insertsymbol", "printtobrowser", "versioncontrol", \
"tableeditor", "sourceview", "tags"]
"""


def zim() -> None:
    src = _fresh("zim")
    nb = src / "notebook"
    _write(nb / "notebook.zim", NOTEBOOK)
    _write(src / "config" / "zim" / "preferences.conf", PREFERENCES)
    by_section: dict[str, list[tuple[str, str]]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        ns = next(name for name, key, _ in SECTIONS if key == section)
        name = page_name(p.title)
        by_section.setdefault(section, []).append((name, p.title))
        _write(nb / f"{ns}/{file_name(name)}.txt", page_file(p.title, p.date, zim_text(p.body), p.tags))
    install = page_name(INSTALL_TITLE)
    by_section["guide"].insert(0, (install, INSTALL_TITLE))
    _write(
        nb / f"Guide/{file_name(install)}.txt",
        page_file(INSTALL_TITLE, FIRST_DAY, INSTALL, ("installation",)),
    )
    for ns, key, text in SECTIONS:
        links = "".join(f"* [[+{name}|{title}]]\n" for name, title in by_section[key])
        _write(nb / f"{ns}.txt", page_file(ns, FIRST_DAY, f"{text}\n\n{links}"))
    _write(nb / "About.txt", page_file(ABOUT.title, FIRST_DAY, zim_text(ABOUT.body)))
    home = "Short programming lessons. Start with the guide.\n\n" + "".join(
        f"* [[{ns}]]\n" for ns, _, _ in SECTIONS
    )
    _write(nb / "Home.txt", page_file("Home", FIRST_DAY, home + "* [[About]]\n"))


__all__ = ["Post", "zim"]
