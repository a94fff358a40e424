"""Sources of ``hexo-icarus``: Hexo 7 with the Icarus theme (npm ``hexo-theme-icarus`` 6.x).

The hexo sites' posts (drafts in ``_drafts``, ``<!-- more -->`` after the first paragraph, as on
``hexo-next``, ``hexo-butterfly`` and ``hexo-fluid``: Icarus' index shows the text above it and a
"Read more" button) with ``toc: true`` in each post's front matter (Icarus' table of contents
widget shows only on a page that asks for it, as its docs say), and the About page as a page
(``hexo new page about``). Icarus writes its own tags and categories pages (hexo-component-inferno's
generators): no source page for them. The site config is Hexo's own defaults (``hexo init``'s
``_config.yml``) plus the blog's usual listings (5 a page); code is highlighted by Hexo's
highlight.js with line numbers, Hexo's default, which Icarus styles.

The theme config is ``_config.icarus.yml`` at the site's root, the file Icarus writes with every
default on its first run (its schema's defaults, ``include/config.js``), edited where its docs
have a new blog edit it: the logo as text, the feed, the navbar's and footer's links, the profile
widget (author, title, location, follow link, social links), the widgets split between both
sidebars as the theme's demo site has them (left: profile, table of contents, links, categories;
right: recent posts, archives, tags: the three-column layout), the comment plugin off (its
default, Disqus, needs a shortname and the network), no share buttons and no donation buttons
(each needs a third-party account), and no email subscription, AdSense or follow.it widget (the
same). Everything else keeps Icarus' defaults: the article licence block (Creative Commons,
Attribution, Noncommercial), reading time and word count, the updated date, the local search
(Insight: ``content.json``), the code blocks' copy and fold buttons (drawn by its JavaScript),
its plugins (animations, back to top, cookie consent, gallery, PJAX, progress bar) and the CDN
providers (jsDelivr, Google Fonts, Font Awesome: off-site links, nothing downloaded at build).
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _more, _title_front, _write, _yaml_list

HOST = "https://hexo-icarus.heldout.example"

CONFIG = f"""title: Small Lessons
subtitle: Short programming lessons
description: Short programming lessons, one idea a post.
keywords:
author: Ana Lima
language: en
timezone: UTC
url: {HOST}
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
theme: icarus
feed:
  type: atom
  path: atom.xml
  limit: 20
sitemap:
  path: sitemap.xml
"""

#: ``_config.icarus.yml``: the file Icarus generates with its defaults (version 5.1.0 of its
#: configuration), its comments left out, edited as its docs have a new blog edit it.
THEME_CONFIG = """version: 5.1.0
variant: default
logo:
    text: Small Lessons
head:
    favicon: /img/favicon.svg
    manifest:
        name:
        short_name:
        start_url:
        theme_color:
        background_color:
        display: standalone
        icons:
            -
                src: ''
                sizes: ''
                type:
    open_graph:
        title:
        type: blog
        url:
        image:
        site_name:
        author:
        description:
        twitter_card:
        twitter_id:
        twitter_site:
        google_plus:
        fb_admins:
        fb_app_id:
    structured_data:
        title:
        description:
        url:
        author:
        publisher:
        publisher_logo:
        image:
    meta:
        - ''
    rss: /atom.xml
navbar:
    menu:
        Home: /
        Archives: /archives
        Categories: /categories
        Tags: /tags
        About: /about
    links:
        GitHub:
            icon: fab fa-github
            url: https://github.com/ana-lima
footer:
    copyright: © 2024 Ana Lima
    links:
        Creative Commons:
            icon: fab fa-creative-commons
            url: https://creativecommons.org/
        Attribution 4.0 International:
            icon: fab fa-creative-commons-by
            url: https://creativecommons.org/licenses/by/4.0/
article:
    highlight:
        theme: atom-one-light
        clipboard: true
        fold: unfolded
    readtime: true
    update_time: true
    licenses:
        Creative Commons:
            icon: fab fa-creative-commons
            url: https://creativecommons.org/
        Attribution:
            icon: fab fa-creative-commons-by
            url: https://creativecommons.org/licenses/by/4.0/
        Noncommercial:
            icon: fab fa-creative-commons-nc
            url: https://creativecommons.org/licenses/by-nc/4.0/
search:
    type: insight
    index_pages: true
sidebar:
    left:
        sticky: false
    right:
        sticky: false
widgets:
    -
        position: left
        type: profile
        author: Ana Lima
        author_title: Programmer and teacher
        location: Lisbon, Portugal
        avatar:
        avatar_rounded: false
        gravatar:
        follow_link: https://github.com/ana-lima
        social_links:
            Github:
                icon: fab fa-github
                url: https://github.com/ana-lima
            RSS:
                icon: fas fa-rss
                url: /atom.xml
    -
        position: left
        type: toc
        index: true
        collapsed: true
        depth: 3
    -
        position: left
        type: links
        links:
            Hexo: https://hexo.io
            Bulma: https://bulma.io
    -
        position: left
        type: categories
    -
        position: right
        type: recent_posts
    -
        position: right
        type: archives
    -
        position: right
        type: tags
        order_by: name
        amount:
        show_count: true
plugins:
    animejs: true
    back_to_top: true
    baidu_analytics:
        tracking_id:
    bing_webmaster:
        tracking_id:
    busuanzi: false
    cnzz:
        id:
        web_id:
    cookie_consent:
        type: info
        theme: edgeless
        static: false
        position: bottom-left
        policyLink: https://www.cookiesandyou.com/
    gallery: true
    google_analytics:
        tracking_id:
    hotjar:
        site_id:
    katex: false
    mathjax: false
    outdated_browser: false
    pjax: true
    progressbar: true
    statcounter:
        project:
        security:
    twitter_conversion_tracking:
        pixel_id:
providers:
    cdn: jsdelivr
    fontcdn: google
    iconcdn: fontawesome
"""


def _front(title: str, date: str, extra: str = "") -> str:
    return _title_front(title, f"date: {date} 09:30:00\n{extra}")


def hexo_icarus() -> None:
    """Hexo 7 with Icarus: the hexo sites' posts and listings, the About page, both sidebars."""
    src = _fresh("hexo-icarus")
    for p in POSTS:
        folder = "_drafts" if p.draft else "_posts"
        extra = f"tags: {_yaml_list(p.tags)}\ncategories: [{p.category}]\ntoc: true\n"
        _write(src / "source" / folder / f"{p.slug}.md", _front(p.title, p.date, extra) + _more(p.body))
    # `hexo new page about` writes a title and a date (the date keeps the build reproducible:
    # Hexo falls back on the file's time).
    _write(src / "source" / "about" / "index.md", _front(ABOUT.title, ABOUT.date) + ABOUT.body)
    _write(src / "_config.yml", CONFIG)
    _write(src / "_config.icarus.yml", THEME_CONFIG)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-hexo-icarus",
                "version": "0.0.0",
                "private": True,
                "hexo": {"version": "7"},
                # Hexo loads the plugins its package.json depends on; Icarus' docs add the theme
                # and hexo-renderer-inferno (its layouts are JSX).
                "dependencies": {
                    name: "*"
                    for name in (
                        "hexo",
                        "hexo-renderer-marked",
                        "hexo-renderer-ejs",
                        "hexo-renderer-stylus",
                        "hexo-renderer-inferno",
                        "hexo-generator-archive",
                        "hexo-generator-category",
                        "hexo-generator-tag",
                        "hexo-generator-index",
                        "hexo-theme-icarus",
                        "hexo-generator-feed",
                        "hexo-generator-sitemap",
                    )
                },
            },
            indent=1,
        ),
    )
