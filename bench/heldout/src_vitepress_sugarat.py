"""The ``vitepress-sugarat`` held-out site: VitePress 1.x with the @sugarat/theme blog theme.

    python bench/heldout/write_sources.py vitepress-sugarat

@sugarat/theme ("粥里有勺糖"'s theme) is the most used blog theme of VitePress. The files are the
ones its starter (``npm create @sugarat/theme``, not on the registry: written out here) lays
down: ``docs/.vitepress/config.mts`` (``extends: blogTheme``), ``docs/.vitepress/blog-theme.ts``
(``getThemeConfig({...})``: the author, a footer, the theme colour; RSS on, as its comment
says how; comments off, which is the default), ``docs/.vitepress/theme/index.ts`` (the theme
itself) and ``docs/index.md`` (``layout: home`` with the ``blog`` block: name, motto,
inspiring). The posts are ``docs/posts/<slug>.md`` with front matter ``title``, ``date``,
``tags``, ``author``, ``description``, their title the page's ``#`` heading (the theme inserts
the date, author and tags after it). The home page lists every post as a card with tags and
pagination, a tag filter (``/?tag=…``), hot and recommended posts beside it. The install page is
a docs page in a VitePress sidebar group (``/guide/``), About a page; both ``publish: false``,
the theme's flag that keeps a page out of its post lists. The draft lies in ``drafts/``, which
the config's ``srcExclude`` leaves out (VitePress has no draft flag). VitePress' sitemap
(``sitemap.hostname``) and the theme's RSS (vitepress-plugin-rss, ``feed.rss``) take the
site's host from the config.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import INSTALL_TITLE, VITEPRESS_TABS, _description, _fresh, _install_page, _write

HOST = "https://vitepress-sugarat.heldout.example"

BLOG_THEME = """// The theme's own options (the starter's blog-theme.ts)
import { getThemeConfig } from '@sugarat/theme/node'
import type { Theme } from '@sugarat/theme'

const baseUrl = '%(host)s'
const RSS: Theme.RSSOptions = {
  title: 'Small Lessons',
  baseUrl,
  copyright: 'Copyright (c) 2023-present, Ana Lima',
  description: 'Short programming lessons.',
  language: 'en-US',
}

// Every option: https://theme.sugarat.top/
const blogTheme = getThemeConfig({
  RSS,
  // Search: Pagefind's offline full-text index is on by default.
  // Diagrams: mermaid off (it makes the build slower).
  mermaid: false,
  footer: {
    copyright: 'CC0 | Ana Lima',
  },
  themeColor: 'el-blue',
  author: 'Ana Lima',
  timeZone: 0,
})

export { blogTheme }
""" % {"host": HOST}

CONFIG = """import { defineConfig } from 'vitepress'
import { blogTheme } from './blog-theme'

export default defineConfig({
  extends: blogTheme,
  lang: 'en-US',
  title: 'Small Lessons',
  description: 'Short programming lessons.',
  // VitePress has no draft flag: the draft lies in a folder srcExclude leaves out.
  srcExclude: ['drafts/**'],
  sitemap: { hostname: '%(host)s' },
  themeConfig: {
    outline: { level: [2, 3], label: 'On this page' },
    nav: [
      { text: 'Home', link: '/' },
      { text: 'Guide', link: '/guide/install' },
      { text: 'About', link: '/about' },
    ],
    sidebar: {
      '/guide/': [{ text: 'Guide', items: [{ text: %(install)s, link: '/guide/install' }] }],
    },
    socialLinks: [{ icon: 'github', link: 'https://github.com/example/small-lessons' }],
  },
})
""" % {"host": HOST, "install": json.dumps(INSTALL_TITLE)}

THEME = """import BlogTheme from '@sugarat/theme'

export default BlogTheme
"""

HOME = """---
layout: home

blog:
  name: Small Lessons
  motto: Short programming lessons
  inspiring:
    - Notes written to test site generators
---
"""

PACKAGE = {"name": "small-lessons", "private": True, "type": "module"}


def vitepress_sugarat() -> None:
    src = _fresh("vitepress-sugarat")
    docs = src / "docs"
    for p in POSTS:
        folder = "drafts" if p.draft else "posts"
        tags = "".join(f"\n  - {json.dumps(t, ensure_ascii=False)}" for t in p.tags)
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date}\n"
            f"tags:{tags or ' []'}\nauthor: Ana Lima\n"
            f"description: {json.dumps(_description(p), ensure_ascii=False)}\n---\n\n"
        )
        _write(docs / folder / f"{p.slug}.md", f"{front}# {p.title}\n\n{p.body}")
    _write(
        docs / "guide" / "install.md",
        f"---\npublish: false\n---\n\n{_install_page(VITEPRESS_TABS)}",
    )
    _write(docs / "about.md", f"---\npublish: false\n---\n\n# {ABOUT.title}\n\n{ABOUT.body}")
    _write(docs / "index.md", HOME)
    _write(docs / ".vitepress" / "blog-theme.ts", BLOG_THEME)
    _write(docs / ".vitepress" / "config.mts", CONFIG)
    _write(docs / ".vitepress" / "theme" / "index.ts", THEME)
    _write(src / "package.json", json.dumps(PACKAGE, indent=2) + "\n")
