"""mdBook (the Rust project's book generator), its default theme: the held-out ``mdbook`` sources.

    python bench/heldout/write_sources.py mdbook

A book as ``mdbook init`` lays it out and the mdBook guide describes it: ``book.toml`` (the
``[book]`` table: title, authors, language, description; ``[output.html]``: the repository link
and "Suggest an edit" template the guide documents, ``site-url`` for the 404 page's links; the
print page and the search are on by default) and ``src/``: ``SUMMARY.md`` (the table of
contents: About as a prefix chapter, unnumbered, then three part titles, ``# Guide``,
``# Reference``, ``# Appendix``, each over its numbered chapters), one Markdown chapter per
published post under ``src/<section>/``, and the install page first in the Guide (mdBook's
Markdown has no tabs nor admonitions: the two commands one after the other, the notes as
blockquotes, as on ``honkit`` and ``bookdown``). Each chapter opens with its ``#`` title, then
the date as a book's author writes it in the text, a line of its own in italics
(``*Published 2023-01-15*``); then the corpus' Markdown (fenced code with its language: mdBook
writes ``<code class="language-…">`` and highlight.js colours it in the browser, its default
theme). The draft is ``drafts/unfinished-thoughts.md``, beside ``src/`` and out of
``SUMMARY.md``: mdBook builds only the chapters the summary lists.
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, POSTS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _write

HOST = "https://mdbook.heldout.example"

BOOK_TOML = """[book]
title = "Small Lessons"
authors = ["Ana Lima"]
description = "Short programming lessons."
language = "en"
src = "src"

[output.html]
site-url = "/"
git-repository-url = "https://git.example.org/ana/small-lessons"
edit-url-template = "https://git.example.org/ana/small-lessons/edit/main/{path}"
"""

#: mdBook's Markdown (pulldown-cmark) has no tabs nor admonitions: the two commands in turn, the
#: notes as blockquotes.
MDBOOK_TABS = """With pip:

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
    """The chapter's title, its date in a line of its own when the post has one, the text."""
    dated = f"*Published {p.date}*\n\n" if p.date else ""
    return f"# {p.title}\n\n{dated}{p.body}"


def mdbook() -> None:
    """An mdBook book: ``book.toml``, ``src/SUMMARY.md``, ``src/<section>/<slug>.md`` per post."""
    src = _fresh("mdbook")
    _write(src / "book.toml", BOOK_TOML)
    _write(src / "src" / "about.md", f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(src / "src" / "guide" / "install.md", _install_page(MDBOOK_TABS))
    summary = ["# Summary", "", f"[{ABOUT.title}](about.md)"]
    for section in SECTIONS:
        summary += ["", f"# {section.title()}", ""]
        if section == "guide":
            summary.append(f"- [{INSTALL_TITLE}](guide/install.md)")
        for p in published():
            if DOC_SECTIONS[p.slug] == section:
                _write(src / "src" / section / f"{p.slug}.md", _chapter(p))
                summary.append(f"- [{p.title}]({section}/{p.slug}.md)")
    _write(src / "src" / "SUMMARY.md", "\n".join(summary) + "\n")
    for p in POSTS:
        if p.draft:
            _write(src / "drafts" / f"{p.slug}.md", _chapter(p))
