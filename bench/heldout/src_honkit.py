"""HonKit (the maintained fork of the legacy GitBook toolchain), its default theme: the held-out
``honkit`` sources.

A book as ``honkit init`` lays it out: ``README.md`` (the introduction, built as ``index.html``),
``SUMMARY.md`` (the table of contents: the introduction and the About page, then one part per
docs section, ``## Guide``, ``## Reference``, ``## Appendix``, each listing its pages), one
Markdown file per published post under ``<section>/``, the install page (no tabs in GitBook's
Markdown: the two commands one after the other, the notes as blockquotes) and ``book.json``:
the title, author, language, the default plugins HonKit ships (highlight, search, lunr,
fontsettings, theme-default: always on) plus ``sharing`` (a GitBook default plugin HonKit no
longer bundles, from npm) and ``sitemap`` (``gitbook-plugin-sitemap``, the site's host as its
``hostname``). The draft sits in ``drafts/``, which ``.bookignore`` keeps out of the build (a
Markdown file outside ``SUMMARY.md`` would otherwise be copied into the site as it is).
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, POSTS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _myst_body, _write

HOST = "https://honkit.heldout.example"

#: GitBook's Markdown has no tabs nor admonitions: the two commands in turn, the notes as the
#: blockquotes GitBook books write them as.
HONKIT_TABS = """With pip:

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

BOOK_JSON = {
    "title": "Small Lessons",
    "description": "Short programming lessons.",
    "author": "Ana Lima",
    "language": "en",
    "plugins": ["sharing", "sitemap"],
    "pluginsConfig": {
        "sitemap": {"hostname": HOST + "/"},
        "sharing": {"facebook": True, "twitter": True, "all": ["facebook", "twitter", "linkedin"]},
    },
}

SECTIONS = ("guide", "reference", "appendix")


def honkit() -> None:
    """A HonKit book: ``<section>/<slug>.md`` per published post, listed in ``SUMMARY.md``."""
    src = _fresh("honkit")
    by_section: dict[str, list[Post]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        by_section.setdefault(section, []).append(p)
        _write(src / section / f"{p.slug}.md", _myst_body(p))
    for p in POSTS:
        if p.draft:
            _write(src / "drafts" / f"{p.slug}.md", _myst_body(p))
    _write(src / "guide" / "install.md", _install_page(HONKIT_TABS))
    _write(src / "about.md", _myst_body(ABOUT))
    _write(src / "README.md", "# Small Lessons\n\nShort programming lessons. Start with the guide.\n")
    summary = ["# Summary", "", "* [Introduction](README.md)", "* [About](about.md)"]
    for section in SECTIONS:
        summary += ["", f"## {section.title()}", ""]
        if section == "guide":
            summary.append(f"* [{INSTALL_TITLE}](guide/install.md)")
        summary += [f"* [{p.title}]({section}/{p.slug}.md)" for p in by_section[section]]
    _write(src / "SUMMARY.md", "\n".join(summary) + "\n")
    _write(src / ".bookignore", "drafts/\n")
    _write(src / "book.json", json.dumps(BOOK_JSON, indent=2) + "\n")
