"""Retype 4.6.0's sources (npm ``retypeapp``, its bundled linux-x64 binary; free features only, no
license key): a docs site in three sections with Retype's blog, as its docs lay one out.

    python bench/heldout/write_sources.py retype    # writes tests/fixtures/heldout/retype/src

Retype reads ``retype.yml`` (``input``, ``output``, ``url``, ``branding``, here also ``blog``'s
``pageSize`` and the footer's ``copyright``) and every Markdown file under ``input``: a page per
file at ``/<folder>/<name>/``, its title the file's ``#`` heading, its place in the sidebar from
its front matter (``label``, ``order``: the higher first, ``icon``: an Octicon name) and a folder's
from its ``index.yml``. The layout is the ``mkdocs`` site's: the posts of
:data:`write_sources.MKDOCS_BLOG` in the blog, the others docs pages in three sections (``guide/``,
``reference/``, ``appendix/``), the install page with Retype's tabs (``+++ pip``) and callouts
(``!!!warning``), the About page and the home page (``README.md``: ``/``).

The blog is Retype's own: every page under ``blog/`` whose front matter has a ``date`` is a post
(``/blog/<name>/``), with ``authors`` (name, email, link), ``category`` and ``tags``, as Retype
documents them. Retype writes the blog's index (``/blog/``, paged by ``pageSize``: ``/blog/2/``),
the tags (``/tags/``, ``/tags/<tag>/``) and categories (``/categories/``, ``/categories/<name>/``)
pages, the RSS feed ``/blog/feed.xml``, ``sitemap.xml``, ``robots.txt``, ``llms.txt`` and a
Markdown copy of each page (``<page>.md``, left out by keep_text). The draft is not written.
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, POSTS
from write_sources import MKDOCS_BLOG, _fresh, _install_page, _write, _yaml_list

SITE_URL = "https://retype.heldout.example"

RETYPE_YML = f"""input: .
output: .retype
url: {SITE_URL}

branding:
  title: Small Lessons
  label: Docs

blog:
  pageSize: 5

links:
  - text: Blog
    link: /blog/
  - text: About
    link: /about/

footer:
  copyright: "&copy; Copyright 2024 Ana Lima. CC0."
"""

#: Retype's tabs (``+++ label``, closed by ``+++``) and callouts (``!!!variant Title``, closed
#: by ``!!!``), as its components docs show them.
RETYPE_TABS = """+++ pip

```bash
pip install lessons-cli
```

+++ npm

```bash
npm install --global lessons-cli
```

+++

!!!warning Python 3.10 or later
Older versions lack `zoneinfo`; the tool refuses to start on them.
!!!

!!!
The configuration lives in `~/.config/lessons/config.toml`:

```toml
[output]
color = true
```
!!!
"""

#: Each section folder's ``index.yml``: its label, place and icon in the sidebar.
SECTIONS = {
    "guide": ("Guide", 300, "rocket"),
    "reference": ("Reference", 200, "book"),
    "appendix": ("Appendix", 100, "archive"),
}

AUTHOR = """authors:
  - name: Ana Lima
    email: ana@retype.heldout.example
    link: https://retype.heldout.example/about/
"""


def _front(fields: str) -> str:
    return "---\n" + fields.rstrip("\n") + "\n---\n\n"


def retype() -> None:
    src = _fresh("retype")
    counts: dict[str, int] = {}
    for p in POSTS:
        if p.draft:
            continue  # Retype has no drafts: the draft is not written
        if p.slug in MKDOCS_BLOG:
            front = _front(f"date: {p.date}\n{AUTHOR}category: {p.category}\ntags: {_yaml_list(p.tags)}")
            _write(src / "blog" / f"{p.slug}.md", front + f"# {p.title}\n\n{p.body}")
            continue
        section = DOC_SECTIONS[p.slug]
        counts[section] = counts.get(section, 0) + 1
        label = p.title.replace('"', '\\"')
        front = _front(f'label: "{label}"\norder: {100 - counts[section]}\nicon: file')
        _write(src / section / f"{p.slug}.md", front + f"# {p.title}\n\n{p.body}")
    for section, (label, order, icon) in SECTIONS.items():
        _write(src / section / "index.yml", f"label: {label}\norder: {order}\nicon: {icon}\nexpanded: true\n")
    _write(
        src / "guide" / "install.md",
        _front("label: Installation\norder: 100\nicon: download") + _install_page(RETYPE_TABS),
    )
    _write(
        src / "README.md",
        _front("label: Home\nicon: home\norder: 1000")
        + "# Small Lessons\n\nShort programming lessons. Start with the guide, or read the "
        "[blog](/blog/).\n",
    )
    _write(
        src / "about.md", _front("label: About\norder: -100\nicon: info") + f"# {ABOUT.title}\n\n{ABOUT.body}"
    )
    _write(src / "retype.yml", RETYPE_YML)
