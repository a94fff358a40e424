"""Sources of ``hexo-fluid``: Hexo 7 with the Fluid theme (npm ``hexo-theme-fluid`` 1.9.x).

The hexo sites' posts (drafts in ``_drafts``, ``<!-- more -->`` after the first paragraph, as on
``hexo-next`` and ``hexo-butterfly``: Fluid's index shows the text above it as the excerpt) and
the About page as Fluid's guide makes it (``hexo new page about``, then ``layout: about`` in its
front matter). Fluid writes its own tags, categories, links and 404 pages (its generators,
``scripts/generators/pages.js``): no source page for them. The site config is Hexo's own defaults
plus the blog's usual listings (5 a page). The theme config (``_config.fluid.yml`` at the site's
root, the guide's "override configuration", merged over the theme's ``_config.yml``) sets only
what the guide asks a new blog to set (the navbar's title, the home slogan, the About page's
name, intro and icons) and keeps Fluid's defaults otherwise: highlight.js with line numbers
(the theme forces Hexo's ``highlight`` options: ``hljs``, ``auto_detect``), the post's word count
and reading time, the table of contents beside the post, the copyright box (CC BY) at its end,
prev/next links, local search (``local-search.xml``), comments off.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _more, _title_front, _write, _yaml_list

CONFIG = """title: Small Lessons
subtitle: Short programming lessons
description: Short programming lessons, one idea a post.
keywords:
author: Ana Lima
language: en
timezone: UTC
url: https://hexo-fluid.heldout.example
permalink: :year/:month/:day/:title/
permalink_defaults:
pretty_urls:
  trailing_index: true
  trailing_html: true
source_dir: source
public_dir: public
tag_dir: tags
archive_dir: archives
category_dir: categories
new_post_name: :title.md
default_layout: post
titlecase: false
external_link:
  enable: true
  field: site
filename_case: 0
render_drafts: false
post_asset_folder: false
relative_link: false
future: true
syntax_highlighter: highlight.js
highlight:
  line_number: true
  auto_detect: false
  tab_replace: ''
  wrap: true
  hljs: false
prismjs:
  preprocess: true
  line_number: true
  tab_replace: ''
index_generator:
  path: ''
  per_page: 5
  order_by: -date
archive_generator:
  per_page: 5
  yearly: true
  monthly: true
category_generator:
  per_page: 5
tag_generator:
  per_page: 5
default_category: uncategorized
date_format: YYYY-MM-DD
time_format: HH:mm:ss
updated_option: 'date'
per_page: 5
pagination_dir: page
theme: fluid
feed:
  type: atom
  path: atom.xml
  limit: 20
sitemap:
  path: sitemap.xml
"""

#: ``_config.fluid.yml``: what Fluid's guide has a new blog set (the navbar's title, the home
#: slogan, the About page); the rest is the theme's own ``_config.yml``, merged under it.
THEME_CONFIG = """navbar:
  blog_title: "Small Lessons"
index:
  slogan:
    enable: true
    text: "Short programming lessons"
about:
  enable: true
  name: "Ana Lima"
  intro: "Short programming lessons, one idea a post."
  icons:
    - { class: "iconfont icon-github-fill", link: "https://github.com/ana-lima", tip: "GitHub" }
    - { class: "iconfont icon-email-fill", link: "mailto:ana@ana-lima.example", tip: "E-Mail" }
    - { class: "iconfont icon-rss-fill", link: "/atom.xml", tip: "RSS" }
"""


def _front(title: str, date: str, extra: str = "") -> str:
    return _title_front(title, f"date: {date} 09:30:00\n{extra}")


def hexo_fluid() -> None:
    """Hexo 7 with Fluid: the hexo sites' posts and listings, Fluid's About page."""
    src = _fresh("hexo-fluid")
    for p in POSTS:
        folder = "_drafts" if p.draft else "_posts"
        extra = f"tags: {_yaml_list(p.tags)}\ncategories: [{p.category}]\n"
        _write(src / "source" / folder / f"{p.slug}.md", _front(p.title, p.date, extra) + _more(p.body))
    # `hexo new page about` writes a title and a date (the date keeps the build reproducible:
    # Hexo falls back on the file's time); Fluid's guide adds `layout: about`.
    _write(
        src / "source" / "about" / "index.md", _front(ABOUT.title, ABOUT.date, "layout: about\n") + ABOUT.body
    )
    _write(src / "_config.yml", CONFIG)
    _write(src / "_config.fluid.yml", THEME_CONFIG)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-hexo-fluid",
                "version": "0.0.0",
                "private": True,
                "hexo": {"version": "7"},
                # Hexo loads the plugins its package.json depends on.
                "dependencies": {
                    name: "*"
                    for name in (
                        "hexo",
                        "hexo-renderer-marked",
                        "hexo-renderer-ejs",
                        "hexo-renderer-stylus",
                        "hexo-generator-archive",
                        "hexo-generator-category",
                        "hexo-generator-tag",
                        "hexo-generator-index",
                        "hexo-theme-fluid",
                        "hexo-generator-feed",
                        "hexo-generator-sitemap",
                    )
                },
            },
            indent=1,
        ),
    )
