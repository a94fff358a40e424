"""Vocs 2 (wevm's React/Vite docs generator, on Waku), its default theme: the held-out ``vocs`` sources.

``vocs.config.ts`` (``defineConfig`` from ``vocs/config``): the site's title and description, its
host (``baseUrl``: canonical links, ``<base href>``, the sitemap), ``srcDir: 'docs'`` (pages in
``docs/pages``, as Vocs 1 laid them out and as the brief of this set asks; Vocs 2's default is
``src``), ``renderStrategy: 'full-static'`` (every page prerendered to HTML: the static export its
docs name for static hosts), a ``sidebar`` of groups (Guide, Reference, Appendix, Blog) and a
``topNav`` (Guide, Blog, About). Pages: ``docs/pages/<section>/<slug>.md`` per docs post (front
matter ``title`` and ``description``, then the body with its ``# title``), the install page in MDX
with Vocs' ``:::code-group`` and ``:::warning``/``:::note`` callouts, the About page, a landing
home page (``layout: landing``, Vocs' ``HomePage`` components).

The blog: Vocs 1 had one (``docs/pages/blog/*.mdx`` with ``title``, ``date``, ``authors``,
``description`` front matter, and a ``blog.mdx`` holding ``<BlogPosts />``); Vocs 2 dropped it
(no ``BlogPosts`` export, ``blogDir`` commented out in its config type). The posts of
:data:`write_sources.MKDOCS_BLOG` are still ``docs/pages/blog/<slug>.mdx`` with that front matter,
``author`` in the singular (the key Vocs 2 reads: ``<meta name="author">`` and the JSON-LD's
``author``; ``date`` is the JSON-LD's ``datePublished``), and ``docs/pages/blog.mdx`` is the index
written by hand, newest first, as a Vocs 2 site keeps one.
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, POSTS, Post
from write_sources import INSTALL_TITLE, MKDOCS_BLOG, _description, _fresh, _write

HOST = "https://vocs.heldout.example"

#: The install page, with Vocs' code group (``:::code-group``, each block's tab title in
#: brackets) and callouts (``:::warning[label]``, ``:::note``), as its docs write them.
INSTALL = f"""---
title: {INSTALL_TITLE}
description: The tool ships for Python and Node.js; pick one.
---

# {INSTALL_TITLE}

The tool ships for Python and Node.js; pick one.

:::code-group

```bash [pip]
pip install lessons-cli
```

```bash [npm]
npm install --global lessons-cli
```

:::

:::warning[Python 3.10 or later]
Older versions lack `zoneinfo`; the tool refuses to start on them.
:::

:::note
The configuration lives in `~/.config/lessons/config.toml`:

```toml [config.toml]
[output]
color = true
```
:::

Check the installation:

```bash
lessons --version
```
"""

HOME = """---
layout: landing
title: Small Lessons
description: Short programming lessons.
---

import { HomePage } from 'vocs'

<HomePage.Root>
  <HomePage.Logo />
  <HomePage.Tagline>Short programming lessons</HomePage.Tagline>
  <HomePage.Description>From generators to regular expressions. Start with the guide.</HomePage.Description>
  <HomePage.Buttons>
    <HomePage.Button href="/guide/install" variant="accent">Get started</HomePage.Button>
    <HomePage.Button href="/blog">Blog</HomePage.Button>
  </HomePage.Buttons>
</HomePage.Root>
"""

CONFIG = """import { defineConfig } from 'vocs/config'

export default defineConfig({
  title: 'Small Lessons',
  description: 'Short programming lessons.',
  baseUrl: '%(host)s',
  srcDir: 'docs',
  renderStrategy: 'full-static',
  sidebar: %(sidebar)s,
  topNav: [
    { text: 'Guide', link: '/guide/install' },
    { text: 'Blog', link: '/blog' },
    { text: 'About', link: '/about' },
  ],
  socials: [{ icon: 'github', link: 'https://github.com/example/small-lessons' }],
})
"""


def _front(p: Post, extra: str = "") -> str:
    return (
        f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
        f"description: {json.dumps(_description(p), ensure_ascii=False)}\n{extra}---\n\n"
    )


def vocs() -> None:
    """Docs pages per section, the blog's posts and its index, the install page, About, home."""
    src = _fresh("vocs")
    pages = src / "docs" / "pages"
    by_section: dict[str, list[Post]] = {}
    blog: list[Post] = []
    for p in POSTS:
        if p.draft:
            continue  # Vocs has no drafts: the draft is left out
        if p.slug in MKDOCS_BLOG:
            blog.append(p)
            extra = f"date: {p.date}\nauthor: Ana Lima\n"
            _write(pages / "blog" / f"{p.slug}.mdx", _front(p, extra) + f"# {p.title}\n\n{p.body}")
        else:
            by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
            _write(pages / DOC_SECTIONS[p.slug] / f"{p.slug}.md", _front(p) + f"# {p.title}\n\n{p.body}")
    _write(pages / "guide" / "install.mdx", INSTALL)
    _write(pages / "index.mdx", HOME)
    _write(pages / "about.md", _front(ABOUT) + f"# {ABOUT.title}\n\n{ABOUT.body}")
    blog.sort(key=lambda p: p.date, reverse=True)
    index = ["---", "title: Blog", "description: Notes between the lessons.", "---", "", "# Blog", ""]
    for p in blog:
        index += [f"## [{p.title}](/blog/{p.slug})", "", f"{p.date} · Ana Lima", "", _description(p), ""]
    _write(pages / "blog.mdx", "\n".join(index))
    sidebar = []
    for section in ("guide", "reference", "appendix"):
        items = [{"text": "Installing", "link": "/guide/install"}] if section == "guide" else []
        items += [{"text": p.title, "link": f"/{section}/{p.slug}"} for p in by_section[section]]
        sidebar.append({"text": section.title(), "items": items})
    sidebar.append({"text": "Blog", "items": [{"text": p.title, "link": f"/blog/{p.slug}"} for p in blog]})
    sidebar.append({"text": "About", "link": "/about"})
    _write(
        src / "vocs.config.ts",
        CONFIG
        % {"host": HOST, "sidebar": json.dumps(sidebar, indent=2, ensure_ascii=False).replace("\n", "\n  ")},
    )
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-vocs",
                "version": "0.0.1",
                "private": True,
                "type": "module",
                "scripts": {"build": "vocs build", "dev": "vocs dev"},
                "dependencies": {d: "*" for d in ("react", "react-dom", "vocs", "waku")},
            },
            indent=1,
        )
        + "\n",
    )
