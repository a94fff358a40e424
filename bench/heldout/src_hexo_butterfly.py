"""Sources of ``hexo-butterfly``: Hexo 7 with the Butterfly theme (npm ``hexo-theme-butterfly`` 5.x).

The hexo sites' posts (drafts in ``_drafts``, ``<!-- more -->`` after the first paragraph, as on
``hexo-next``), the About page, and Butterfly's tags and categories pages (``type: tags`` /
``type: categories``, as its docs create them). The site config is Hexo's own defaults plus the
blog's usual listings (5 a page); code is highlighted by Prism at build time (Hexo's
``syntax_highlighter: prismjs``, ``preprocess: true``, which Butterfly's docs list beside
highlight.js). The theme config (``_config.butterfly.yml`` at the site's root, merged over the
theme's own ``_config.yml``) is what Butterfly's docs show as a typical blog: the menu, social
links, the aside with the author card, announcement, recent posts, categories, tags, archives
and site info cards, the post's table of contents, the post copyright box, related posts and
prev/next, reward and comments off, the code blocks' toolbar (language and copy button, drawn
by the theme's JavaScript in the browser).
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
url: https://hexo-butterfly.heldout.example
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
syntax_highlighter: prismjs
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
theme: butterfly
feed:
  type: atom
  path: atom.xml
  limit: 20
sitemap:
  path: sitemap.xml
"""

#: ``_config.butterfly.yml``: Butterfly's docs' typical blog (English labels; the docs' Chinese
#: examples name the same entries).
THEME_CONFIG = """nav:
  display_title: true
  display_post_title: true
  fixed: false
menu:
  Home: / || fas fa-home
  Archives: /archives/ || fas fa-archive
  Tags: /tags/ || fas fa-tags
  Categories: /categories/ || fas fa-folder-open
  About: /about/ || fas fa-heart
social:
  fab fa-github: https://github.com/ana-lima || Github || '#24292e'
  fas fa-envelope: mailto:ana@ana-lima.example || Email || '#4a7dbe'
  fas fa-rss: /atom.xml || RSS || '#f26522'
code_blocks:
  theme: light
  macStyle: false
  height_limit: false
  word_wrap: false
  copy: true
  language: true
  shrink: false
  fullpage: false
index_layout: 3
index_post_content:
  method: 3
  length: 500
toc:
  post: true
  page: false
  number: true
  expand: false
  style_simple: false
  scroll_percent: true
post_copyright:
  enable: true
  decode: false
  author_href:
  license: CC BY-NC-SA 4.0
  license_url: https://creativecommons.org/licenses/by-nc-sa/4.0/
reward:
  enable: false
related_post:
  enable: true
  limit: 6
  date_type: created
post_pagination: 1
footer:
  owner:
    enable: true
    since: 2023
  copyright:
    enable: true
    version: true
  custom_text:
aside:
  enable: true
  hide: false
  button: true
  mobile: true
  position: right
  display:
    archive: true
    tag: true
    category: true
  card_author:
    enable: true
    description: Short programming lessons, one idea a post.
    button:
      enable: true
      icon: fab fa-github
      text: Follow Me
      link: https://github.com/ana-lima
  card_announcement:
    enable: true
    content: New lessons every other week. The feed is at /atom.xml.
  card_recent_post:
    enable: true
    limit: 5
    sort: date
  card_categories:
    enable: true
    limit: 8
    expand: none
  card_tags:
    enable: true
    limit: 40
    color: false
    orderby: name
    order: 1
  card_archives:
    enable: true
    type: monthly
    format: MMMM YYYY
    order: -1
    limit: 8
  card_webinfo:
    enable: true
    post_count: true
    last_push_date: false
    runtime_date:
readmode: true
darkmode:
  enable: true
  button: true
  autoChangeMode: false
wordcount:
  enable: false
comments:
  use:
search:
  use:
"""


def _front(title: str, date: str, extra: str = "") -> str:
    return _title_front(title, f"date: {date} 09:30:00\n{extra}")


def hexo_butterfly() -> None:
    """Hexo 7 with Butterfly: the hexo sites' posts and listings, its tags and categories pages."""
    src = _fresh("hexo-butterfly")
    for p in POSTS:
        folder = "_drafts" if p.draft else "_posts"
        extra = f"tags: {_yaml_list(p.tags)}\ncategories: [{p.category}]\n"
        _write(src / "source" / folder / f"{p.slug}.md", _front(p.title, p.date, extra) + _more(p.body))
    # `hexo new page about` writes a title and a date: the date keeps the build reproducible
    # (Hexo falls back on the file's time).
    _write(src / "source" / "about" / "index.md", _front(ABOUT.title, ABOUT.date) + ABOUT.body)
    for kind in ("tags", "categories"):
        _write(
            src / "source" / kind / "index.md",
            _front(kind.title(), ABOUT.date, f'type: "{kind}"\n'),
        )
    _write(src / "_config.yml", CONFIG)
    _write(src / "_config.butterfly.yml", THEME_CONFIG)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-hexo-butterfly",
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
                        "hexo-renderer-pug",
                        "hexo-generator-archive",
                        "hexo-generator-category",
                        "hexo-generator-tag",
                        "hexo-generator-index",
                        "hexo-theme-butterfly",
                        "hexo-generator-feed",
                        "hexo-generator-sitemap",
                    )
                },
            },
            indent=1,
        ),
    )
