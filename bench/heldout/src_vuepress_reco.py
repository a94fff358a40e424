"""The ``vuepress-reco`` held-out site: VuePress 1 with vuepress-theme-reco 1.x in blog mode.

    python bench/heldout/write_sources.py vuepress-reco

vuepress-theme-reco is the blog theme of VuePress 1 that many Chinese developer blogs run: its
``type: 'blog'`` home lists the posts (5 a page here, through the theme's own pagination plugin),
``blogConfig`` adds the category and tag lists to the navbar, ``/timeline/`` lists every post by
date. The posts lie in ``blogs/<category>/`` as the theme's starter (``theme-reco-cli``) files
them, with ``categories``, ``tags`` and ``<!-- more -->`` excerpts; the About page has
``publish: false`` (the theme's flag that keeps a page out of its post lists) and the navbar
links it. The draft lies in ``_drafts/``, which the config's ``patterns`` leave out (VuePress
has no draft flag). The RSS feed (``@vuepress-reco/vuepress-plugin-rss``) and the sitemap
(``vuepress-plugin-sitemap``) take the site's host from their options.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _more, _write

HOST = "https://vuepress-reco.heldout.example"

CONFIG = """module.exports = {
  title: "Small Lessons",
  description: "Short programming lessons.",
  locales: { "/": { lang: "en-US" } },
  // VuePress has no draft flag: the draft lies in a folder these patterns leave out.
  patterns: ["**/*.md", "!_drafts/**", "!node_modules/**"],
  theme: "reco",
  themeConfig: {
    type: "blog",
    author: "Ana Lima",
    startYear: "2023",
    nav: [
      { text: "Home", link: "/", icon: "reco-home" },
      { text: "TimeLine", link: "/timeline/", icon: "reco-date" },
      { text: "About", link: "/about.html", icon: "reco-account" },
    ],
    blogConfig: {
      category: { location: 2, text: "Category" },
      tag: { location: 3, text: "Tag" },
      socialLinks: [{ icon: "reco-github", link: "https://github.com/example/small-lessons" }],
    },
    subSidebar: "auto",
    search: true,
    searchMaxSuggestions: 10,
    lastUpdated: "Last Updated",
    noFoundPageByTencent: false,
  },
  plugins: [
    ["@vuepress-reco/vuepress-plugin-pagation", { perPage: 5 }],
    ["@vuepress-reco/vuepress-plugin-rss", { site_url: "%(host)s", count: 20 }],
    ["sitemap", { hostname: "%(host)s" }],
  ],
};
""" % {"host": HOST}


def vuepress_reco() -> None:
    src = _fresh("vuepress-reco")
    for p in POSTS:
        folder = f"_drafts/{p.category}" if p.draft else f"blogs/{p.category}"
        tags = "".join(f"\n - {json.dumps(t, ensure_ascii=False)}" for t in p.tags)
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date}\n"
            f"categories:\n - {p.category}\ntags:{tags}\n---\n\n"
        )
        _write(src / folder / f"{p.slug}.md", front + _more(p.body))
    _write(src / "about.md", f"---\ntitle: {ABOUT.title}\npublish: false\n---\n\n{ABOUT.body}")
    _write(
        src / "README.md",
        "---\nhome: true\nheroText: Small Lessons\ntagline: Short programming lessons\n---\n",
    )
    _write(src / ".vuepress" / "config.js", CONFIG)
