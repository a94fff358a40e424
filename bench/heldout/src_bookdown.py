"""bookdown 0.32 (Debian 12's ``r-cran-bookdown``), its default ``bookdown::gitbook`` output: the
held-out ``bookdown`` sources.

    python bench/heldout/write_sources.py bookdown

A book as the bookdown-demo lays one out and ``bookdown::render_book("index.Rmd")`` builds it
into ``_book/``: ``index.Rmd`` (the front matter, ``title``, ``author``, ``date``, ``site:
bookdown::bookdown_site``, ``output: bookdown::gitbook``, ``description``, ``url``; then the
preface, ``# Preface {-}``, a welcome text: the book's ``index.html``), ``_bookdown.yml``
(``book_filename``, ``delete_merged_file``, the demo's ``chapter_name: "Chapter "``), then the
chapters in the order of their file names, ``NN-<slug>.Rmd``: About (an unnumbered chapter,
``{#about .unnumbered}``), then one part per docs section (``# (PART) Guide {-}`` above the part's
first chapter; ``Guide``, ``Reference``, ``Appendix``), the install page first in the Guide, one
chapter per published post. Each chapter's ``#`` heading carries its id (``{#<slug>}``: the page's
file name, ``<slug>.html``, as bookdown splits the book by chapter; an explicit id as such books
give their chapters, the titles in Japanese, Russian and Chinese making no id of their own worth
a URL); under it the post's date in a line of its own, in italics, as book authors date a
chapter (``*2023-01-15*``); then the corpus' Markdown (plain Markdown, no R chunks: knitr leaves
the fenced blocks to pandoc, which highlights them). The install page: the gitbook has no tabs,
the two commands one after the other, the notes as blockquotes (as on ``honkit``). The draft is
``_unfinished-thoughts.Rmd``: bookdown skips the ``.Rmd`` files whose names begin with ``_``.
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, POSTS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

HOST = "https://bookdown.heldout.example"

INDEX_RMD = f"""---
title: "Small Lessons"
author: "Ana Lima"
date: "2024-06-01"
site: bookdown::bookdown_site
output: bookdown::gitbook
documentclass: book
description: "Short programming lessons."
url: '{HOST}/'
---

# Preface {{-}}

Short programming lessons, written down as I learn them. Start with the guide.
"""

BOOKDOWN_YML = """book_filename: "small-lessons"
delete_merged_file: true
language:
  ui:
    chapter_name: "Chapter "
"""

#: The gitbook has no tabs nor admonitions: the two commands in turn, the notes as blockquotes.
BOOKDOWN_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

> **Python 3.10 or later.** Older versions lack `zoneinfo`; the tool refuses to start on them.

> **Note:** the configuration lives in `~/.config/lessons/config.toml`:
>
> ```toml
> [output]
> color = true
> ```"""

SECTIONS = ("guide", "reference", "appendix")


def _chapter(p: Post) -> str:
    return f"# {p.title} {{#{p.slug}}}\n\n*{p.date}*\n\n{p.body}"


def _install() -> str:
    return f"""# {INSTALL_TITLE} {{#install}}

The tool ships for Python and Node.js; pick one.

{BOOKDOWN_TABS}

Check the installation:

```bash
lessons --version
```
"""


def bookdown() -> None:
    """A bookdown book: ``index.Rmd``, ``_bookdown.yml``, ``NN-<slug>.Rmd`` per chapter."""
    src = _fresh("bookdown")
    _write(src / "index.Rmd", INDEX_RMD)
    _write(src / "_bookdown.yml", BOOKDOWN_YML)
    chapters = [("about", f"# About {{#about .unnumbered}}\n\n{ABOUT.body}")]
    for section in SECTIONS:
        part = f"# (PART) {section.title()} {{-}}\n\n"
        texts = [_chapter(p) for p in published() if DOC_SECTIONS[p.slug] == section]
        names = [p.slug for p in published() if DOC_SECTIONS[p.slug] == section]
        if section == "guide":
            texts.insert(0, _install())
            names.insert(0, "install")
        texts[0] = part + texts[0]
        chapters += zip(names, texts, strict=True)
    for n, (name, text) in enumerate(chapters, start=1):
        _write(src / f"{n:02d}-{name}.Rmd", text)
    for p in POSTS:
        if p.draft:
            _write(src / f"_{p.slug}.Rmd", _chapter(p))
