"""dumi 2 (the React docs generator of the Ant Design/Umi ecosystem), its default theme.

A ``docs/`` folder as dumi's guide lays one out: each first-level folder a nav entry (``guide``,
``reference``, ``appendix``, ``blog``), its pages in the sidebar grouped and ordered by their front
matter (``title``, ``order``, ``group``), the landing page ``docs/index.md`` a ``hero`` with
``features``, ``docs/about.md`` the About page. The posts of :data:`write_sources.MKDOCS_BLOG`
(the draft left out) are pages under ``docs/blog/``, grouped by year, newest first; dumi has no
post date (its only date is a page's last update, from git, shown by script), so each post states
its date in its text, an italic line under its title. The others are docs pages in three sections, the install page
with dumi's ``:::warning``/``:::info`` containers. ``.dumirc.ts``: ``themeConfig`` (name, nav,
footer, social links), ``ssr`` (dumi's build-time pre-rendering: every route written as HTML with
its text; ``exportStatic``, on by default, writes ``<route>/index.html``), ``sitemap`` on the
site's own host, one locale (English).
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, POSTS, Post
from write_sources import INSTALL_TITLE, MKDOCS_BLOG, _fresh, _install_page, _write

HOST = "https://dumi.heldout.example"

#: The install page's notes as dumi's Markdown containers (``:::info``, ``:::warning`` with a
#: ``{title=…}``); dumi has no code tabs in Markdown (its tabs are a page's, ``<page>.$tab-x.md``).
DUMI_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

:::warning{title="Python 3.10 or later"}
Older versions lack `zoneinfo`; the tool refuses to start on them.
:::

:::info
The configuration lives in `~/.config/lessons/config.toml`:

```toml
[output]
color = true
```
:::"""

DUMIRC = """import { defineConfig } from 'dumi';

export default defineConfig({
  title: 'Small Lessons',
  locales: [{ id: 'en-US', name: 'English' }],
  // Pre-render every route at build time (React 18 SSR): the pages hold their text.
  ssr: {},
  exportStatic: {},
  sitemap: { hostname: '%(host)s' },
  themeConfig: {
    name: 'Small Lessons',
    nav: [
      { title: 'Guide', link: '/guide/install' },
      { title: 'Reference', link: '/reference/%(first_reference)s' },
      { title: 'Appendix', link: '/appendix/%(first_appendix)s' },
      { title: 'Blog', link: '/blog/%(newest_post)s' },
      { title: 'About', link: '/about' },
    ],
    footer: 'Small Lessons &copy; 2024 Ana Lima',
    socialLinks: { github: 'https://github.com/example/small-lessons' },
  },
});
"""

HOME = """---
title: Small Lessons
hero:
  title: Small Lessons
  description: Short programming lessons
  actions:
    - text: Start
      link: /guide/install
features:
  - title: Guide
    description: Installing the tool, generators, time zones.
  - title: Reference
    description: Storage engines, code review, regular expressions.
  - title: Blog
    description: Notes, releases and field reports.
---
"""


def _front(fields: dict[str, object]) -> str:
    return (
        "---\n"
        + "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in fields.items())
        + "---\n\n"
    )


def _page(p: Post, fields: dict[str, object], dateline: bool = False) -> str:
    date = f"_Published {p.date}_\n\n" if dateline else ""
    return _front({"title": p.title, **fields}) + f"# {p.title}\n\n{date}{p.body}"


def dumi() -> None:
    """dumi 2 docs: ``docs/<section>/<slug>.md`` per docs page, ``docs/blog/<slug>.md`` per post."""
    src = _fresh("dumi")
    docs = src / "docs"
    by_section: dict[str, list[Post]] = {}
    for p in POSTS:
        if p.draft:
            continue
        if p.slug in MKDOCS_BLOG:
            by_section.setdefault("blog", []).append(p)
        else:
            by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
    for section in ("guide", "reference", "appendix"):
        group = {"title": section.title(), "order": 1}
        for order, p in enumerate(by_section[section], start=2 if section == "guide" else 1):
            _write(docs / section / f"{p.slug}.md", _page(p, {"order": order, "group": group}))
    _write(
        docs / "guide" / "install.md",
        _front({"title": INSTALL_TITLE, "order": 1, "group": {"title": "Start", "order": 0}})
        + _install_page(DUMI_TABS),
    )
    posts = sorted(by_section["blog"], key=lambda p: p.date, reverse=True)
    years = sorted({p.date[:4] for p in posts}, reverse=True)
    for order, p in enumerate(posts, start=1):
        group = {"title": p.date[:4], "order": years.index(p.date[:4])}
        _write(docs / "blog" / f"{p.slug}.md", _page(p, {"order": order, "group": group}, dateline=True))
    _write(docs / "about.md", _front({"title": ABOUT.title}) + f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(docs / "index.md", HOME)
    _write(
        src / ".dumirc.ts",
        DUMIRC
        % {
            "host": HOST,
            "first_reference": by_section["reference"][0].slug,
            "first_appendix": by_section["appendix"][0].slug,
            "newest_post": posts[0].slug,
        },
    )
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-dumi",
                "version": "0.0.1",
                "private": True,
                "scripts": {"build": "dumi build"},
                "devDependencies": {"dumi": "2.4.50"},
                "dependencies": {"react": "18.3.1", "react-dom": "18.3.1"},
            },
            indent=1,
        )
        + "\n",
    )
