"""The ``valaxy`` held-out site: Valaxy 0.28 with its default theme, valaxy-theme-yun.

    python bench/heldout/write_sources.py valaxy

Valaxy (云游君's Vite-based blog framework, Vue 3 and vite-ssg) builds a blog from ``pages/``:
every Markdown file is a route (``pages/posts/<slug>.md`` is ``/posts/<slug>``), pre-rendered
by ``valaxy build --ssg``. The files are the ones its blog starter (``pnpm create valaxy``, not
on the registry: written out here) lays down: ``site.config.ts`` (``defineSiteConfig``: the
site's url, language, title, author, description; search and the sponsor box off, five posts
a page, the licence CC0 as the corpus is), ``valaxy.config.ts`` (``defineValaxyConfig``: the
``yun`` theme, its banner and footer; ``build.ssgForPagination`` so that the home page's
``/page/N`` pages are built too), ``package.json`` (the starter's ``build`` script) and the
theme's pages: ``pages/archives/index.md`` (``layout: archives``), ``pages/categories/index.md``
(``layout: categories``), ``pages/tags/index.md`` (``layout: tags``), ``pages/about/index.md``.
The posts carry ``title``, ``date``, ``tags`` and ``categories`` in their front matter and a
``<!-- more -->`` after the first paragraph (the excerpt the home page shows); the draft is
``draft: true``, which Valaxy's build leaves out. Valaxy writes the feeds itself (``feed.xml``,
``atom.xml``, ``feed.json``) and the sitemap (vite-ssg-sitemap), on the site's ``url``.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _more, _write

HOST = "https://valaxy.heldout.example"

SITE_CONFIG = """import { defineSiteConfig } from 'valaxy'

export default defineSiteConfig({
  url: '%(host)s/',
  lang: 'en',
  languages: ['en'],
  timezone: 'UTC',
  title: 'Small Lessons',
  subtitle: 'Short programming lessons',
  author: {
    name: 'Ana Lima',
    link: '%(host)s/about',
    status: {
      emoji: '📝',
      message: 'Writing small lessons.',
    },
  },
  description: 'Short programming lessons.',
  social: [
    {
      name: 'RSS',
      link: '/atom.xml',
      icon: 'i-ri-rss-line',
      color: 'orange',
    },
    {
      name: 'GitHub',
      link: 'https://github.com/example/small-lessons',
      icon: 'i-ri-github-line',
      color: '#6e5494',
    },
  ],
  search: {
    enable: false,
  },
  sponsor: {
    enable: false,
  },
  license: {
    enabled: true,
    type: 'zero',
  },
  pageSize: 5,
})
""" % {"host": HOST}

VALAXY_CONFIG = """import type { UserThemeConfig } from 'valaxy-theme-yun'
import { defineValaxyConfig } from 'valaxy'

// add icons what you will need
const safelist = [
  'i-ri-home-line',
]

/**
 * User Config
 */
export default defineValaxyConfig<UserThemeConfig>({
  // site config see site.config.ts

  theme: 'yun',

  themeConfig: {
    banner: {
      enable: true,
      title: 'Small Lessons',
    },

    pages: [],

    footer: {
      since: 2023,
    },
  },

  // the home page's /page/N pages, pre-rendered as the posts are
  build: {
    ssgForPagination: true,
  },

  unocss: { safelist },
})
"""

PACKAGE = {
    "name": "small-lessons",
    "private": True,
    "type": "module",
    "scripts": {"build": "npm run build:ssg", "build:ssg": "valaxy build --ssg", "dev": "valaxy ."},
    "dependencies": {"valaxy": "0.28.0", "valaxy-theme-yun": "1.0.0-rc.15"},
}

#: The theme's own pages, as the starter has them (front matter only: the layout draws the list).
THEME_PAGES = {
    "archives": "---\ntitle: Archives\nlayout: archives\nnav: false\ncomment: false\n---\n",
    "categories": "---\ntitle: Categories\nlayout: categories\nnav: false\ncomment: false\n---\n",
    "tags": "---\ntitle: Tags\nlayout: tags\nnav: false\ncomment: false\n---\n",
}


def valaxy() -> None:
    src = _fresh("valaxy")
    pages = src / "pages"
    for p in POSTS:
        tags = "".join(f"\n  - {json.dumps(t, ensure_ascii=False)}" for t in p.tags)
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date}\n"
            f"tags:{tags or ' []'}\ncategories: {p.category}\n"
        )
        if p.draft:
            front += "draft: true\n"
        _write(pages / "posts" / f"{p.slug}.md", front + "---\n\n" + _more(p.body))
    _write(pages / "about" / "index.md", f"---\ntitle: {ABOUT.title}\n---\n\n{ABOUT.body}")
    for name, text in THEME_PAGES.items():
        _write(pages / name / "index.md", text)
    _write(src / "site.config.ts", SITE_CONFIG)
    _write(src / "valaxy.config.ts", VALAXY_CONFIG)
    _write(src / "package.json", json.dumps(PACKAGE, indent=2) + "\n")
