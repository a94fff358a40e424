"""The ``sphinx-alabaster`` held-out site's source: the corpus as a reStructuredText Sphinx project.

A docs project as ``sphinx-quickstart`` starts one and most Python libraries keep it: Sphinx's
default theme, Alabaster (``html_theme`` not set), with the sidebars its documentation lists
(``about.html``, ``navigation.html``, ``relations.html``, ``searchbox.html``), the pages in
reStructuredText: ``index.rst`` (a short text and the root toctree: the three sections and
About), ``guide/index.rst``, ``reference/index.rst`` and ``appendix/index.rst`` (each a sentence
and the toctree of its pages), one ``<section>/<slug>.rst`` per published post (the install page
the Guide's first) and ``about.rst``. sphinx-sitemap writes ``sitemap.xml`` from
``html_baseurl``; Sphinx writes ``genindex.html`` (the ``.. index::`` entries: each post's tags
and category) and ``search.html``.

Each post opens as a changelog-style project's pages do: its title, then a field list with its
date, tags and category (``:Date: 2023-01-15``). It follows the title, so it is not docinfo
(Sphinx keeps a field list *before* the title as the page's metadata and shows it nowhere): the
page shows it, as a ``<dl class="field-list simple">``.

The posts' Markdown is written out in reST by hand-rolled rules (the corpus' Markdown is small):
``##`` headings become sections underlined with ``-`` (the title ``=``; underlines as wide as the
title in columns, CJK characters two), fenced code ``.. code-block:: LANG``, pipe tables
``.. list-table::`` with ``:header-rows: 1``, nested lists with the blank lines and indentation
reST needs, inline code ````text````, bold ``**text**``, an in-page link to a section by its title
(```Counting rows`_``). The install page has ``.. warning::`` and ``.. note::`` admonitions (the
note holding a ``toml`` block) and ``:doc:`` links. The U+0008 backspace is kept. Sphinx has no
drafts (a draft is a file outside every toctree, still built): the draft is left out.

    python bench/heldout/write_sources.py sphinx-alabaster
"""

from __future__ import annotations

import re
import unicodedata

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")
_LIST = re.compile(r"^( *)(?:([-*])|(\d+)\.) (.*)$")


def width(text: str) -> int:
    """The text's width in columns, as docutils measures a section title (wide characters two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def heading(title: str, char: str) -> str:
    return f"{title}\n{char * width(title)}\n"


def _escape(text: str) -> str:
    """Plain text's reST markup characters (the corpus' text has ``*`` and ``|`` only in code)."""
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")


def inline(text: str) -> str:
    """Markdown's inline code, bold and in-page links in reST."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(_escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append("``" + m.group(1) + "``")
        elif m.group(2) is not None:
            out.append("**" + m.group(2) + "**")
        else:
            out.append(f"`{m.group(3)}`_")  # a section title is an implicit target
        pos = m.end()
    out.append(_escape(text[pos:]))
    return "".join(out)


def _list(lines: list[str]) -> list[str]:
    """Nested Markdown lists (two spaces a level) in reST: a nested list indented to its parent
    item's text, with a blank line before and after it."""
    out: list[str] = []
    #: Per open level: its Markdown indent, its markers' reST indent, its last item's text indent.
    stack: list[list[int]] = []
    for line in lines:
        m = _LIST.match(line)
        assert m, line
        indent = len(m.group(1))
        marker = "-" if m.group(2) else f"{m.group(3)}."
        while stack and stack[-1][0] > indent:
            stack.pop()
            out.append("")
        if not stack or stack[-1][0] < indent:
            at = stack[-1][2] if stack else 0
            if stack:
                out.append("")
            stack.append([indent, at, 0])
        at = stack[-1][1]
        stack[-1][2] = at + len(marker) + 1
        out.append(" " * at + f"{marker} {inline(m.group(4))}")
    return out


def body_rst(body: str) -> str:
    """A post's Markdown body in reST."""
    lines = body.rstrip("\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            out += ["", f".. code-block:: {lang}".rstrip(), ""]
            out += [("   " + code) if code else "" for code in lines[i + 1 : j]]
            out.append("")
            i = j + 1
        elif line.startswith("## "):
            out += ["", heading(line[3:], "-")]
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += ["", *_table(lines[i:j]), ""]
            i = j
        elif _LIST.match(line):
            j = i
            while j < len(lines) and _LIST.match(lines[j]):
                j += 1
            out += ["", *_list(lines[i:j]), ""]
            i = j
        else:
            out.append(inline(line))
            i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


def _table(lines: list[str]) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in [rows[0], *rows[2:]]:
        out.append("   * - " + inline(row[0]))
        out += ["     - " + inline(c) for c in row[1:]]
    return out


def post_page(p: Post) -> str:
    """A post's page: its title, the field list of its date, tags and category, its index
    entries, then its text."""
    fields = [f":Date: {p.date}"]
    if p.tags:
        fields.append(":Tags: " + ", ".join(p.tags))
    fields.append(f":Category: {p.category}")
    index = ", ".join(dict.fromkeys((*p.tags, p.category)))
    return heading(p.title, "=") + "\n" + "\n".join(fields) + f"\n\n.. index:: {index}\n\n" + body_rst(p.body)


INSTALL = f"""{heading(INSTALL_TITLE, "=")}
.. index:: installation

The tool ships for Python and Node.js; pick one.

.. warning:: Python 3.10 or later: older versions lack ``zoneinfo``; the tool refuses to start on them.

With pip:

.. code-block:: bash

   pip install lessons-cli

With npm:

.. code-block:: bash

   npm install --global lessons-cli

.. note::

   The configuration lives in ``~/.config/lessons/config.toml``:

   .. code-block:: toml

      [output]
      color = true

Check the installation:

.. code-block:: bash

   lessons --version

Then read :doc:`python-generators-tour`, the first lesson.
"""

CONF = """# Sphinx configuration: sphinx-quickstart's, with Alabaster's documented sidebars and options.
project = "Small Lessons"
author = "Ana Lima"
copyright = "2024, Ana Lima"
release = "1.0"

extensions = ["sphinx_sitemap"]

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
language = "en"

# Alabaster, Sphinx's default theme, named as its installation notes do.
html_theme = "alabaster"
html_theme_options = {
    "description": "Short programming lessons",
    "fixed_sidebar": True,
    "show_relbars": True,
}
html_sidebars = {
    "**": [
        "about.html",
        "navigation.html",
        "relations.html",
        "searchbox.html",
    ]
}
html_baseurl = "https://sphinx-alabaster.heldout.example/"

# sphinx-sitemap: no language or version segment in the URLs (a single-version site).
sitemap_url_scheme = "{link}"
"""


def sphinx_alabaster() -> None:
    src = _fresh("sphinx-alabaster")
    by_section: dict[str, list[Post]] = {}
    for p in published():
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
    for title, key, text in SECTIONS:
        entries = (["install"] if key == "guide" else []) + [p.slug for p in by_section[key]]
        toctree = ".. toctree::\n   :maxdepth: 1\n\n" + "".join(f"   {e}\n" for e in entries)
        _write(src / key / "index.rst", heading(title, "=") + f"\n{text}\n\n" + toctree)
        for p in by_section[key]:
            _write(src / key / f"{p.slug}.rst", post_page(p))
    _write(src / "guide" / "install.rst", INSTALL)
    about = (
        heading(ABOUT.title, "=")
        + "\n"
        + body_rst(ABOUT.body)
        + "\nBack to :doc:`the index <index>`; new readers start with :doc:`guide/install`.\n"
    )
    _write(src / "about.rst", about)
    _write(
        src / "index.rst",
        heading("Small Lessons", "=")
        + "\nShort programming lessons, written to test site generators. Start with the guide.\n\n"
        + ".. toctree::\n   :maxdepth: 2\n   :caption: Contents:\n\n"
        + "".join(f"   {key}/index\n" for _, key, _ in SECTIONS)
        + "   about\n\n"
        + heading("Indices and tables", "=")
        + "\n* :ref:`genindex`\n* :ref:`search`\n",
    )
    _write(src / "conf.py", CONF)
