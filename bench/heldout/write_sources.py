"""Write the held-out sites' sources (``tests/fixtures/heldout/<generator>/src``) from corpus.py.

    python bench/heldout/write_sources.py [generator ...]

Each generator gets the same posts in its own source format and its own usual configuration
(tags, categories, archives, pagination, feeds, sitemaps where it has them). The files written
here are committed; ``build.sh`` builds them and ``make_oracle.py`` reads them back.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ABOUT, DOC_SECTIONS, POSTS, Post, published  # noqa: E402
from src_ghost import ghost  # noqa: E402

ROOT = HERE.parent.parent / "tests" / "fixtures" / "heldout"

#: A docs-only page: code tabs and admonitions, as docs generators write them.
INSTALL_TITLE = "Installing the command-line tool"


def _yaml_list(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(json.dumps(t, ensure_ascii=False) for t in items) + "]"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _no_control(text: str) -> str:
    """Pelican's, ablog's and lektor-atom's feed writers refuse a character XML 1.0 does not allow."""
    return text.replace("\b", "")


def _fresh(name: str) -> Path:
    src = ROOT / name / "src"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    return src


PELICAN_CSV_RST = """\
Reading a large CSV file in chunks
##################################

:date: 2023-11-11 09:30
:tags: python, data
:category: data
:slug: reading-large-csv-in-chunks

A CSV of twenty gigabytes does not fit in memory, but it does not need to.

.. contents::

Counting rows
=============

The ``csv`` module reads one row at a time:

.. code-block:: python

    import csv

    with open("events.csv", newline="") as handle:
        rows = sum(1 for _ in csv.reader(handle))
    print(rows)

Aggregating by chunk
====================

With pandas, ``chunksize`` turns the reader into an iterator of data frames:

.. code-block:: python

    import pandas as pd

    totals = None
    for chunk in pd.read_csv("events.csv", chunksize=1_000_000):
        part = chunk.groupby("country")["amount"].sum()
        totals = part if totals is None else totals.add(part, fill_value=0)
    print(totals.sort_values(ascending=False).head())

Both stay under a few hundred megabytes whatever the file's size.
"""


def pelican() -> None:
    src = _fresh("pelican")
    for p in POSTS:
        if p.slug == "reading-large-csv-in-chunks":
            # reStructuredText with a table of contents: docutils links each heading back to it.
            _write(src / "content" / f"{p.slug}.rst", PELICAN_CSV_RST)
            continue
        meta = [
            f"Title: {p.title}",
            f"Date: {p.date} 09:30",
            f"Category: {p.category}",
            f"Tags: {', '.join(p.tags)}",
            f"Slug: {p.slug}",
            "Authors: Ana Lima",
        ]
        if p.draft:
            meta.append("Status: draft")
        _write(src / "content" / f"{p.slug}.md", "\n".join(meta) + "\n\n" + _no_control(p.body))
    _write(src / "content" / "pages" / "about.md", f"Title: {ABOUT.title}\n\n{ABOUT.body}")
    _write(
        src / "pelicanconf.py",
        """AUTHOR = "Ana Lima"
SITENAME = "Small Lessons"
SITEURL = "https://pelican.heldout.example"
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
THEME = "notmyidea"
DEFAULT_PAGINATION = 4
RELATIVE_URLS = False
FEED_DOMAIN = SITEURL
FEED_ALL_ATOM = "feeds/all.atom.xml"
FEED_ALL_RSS = "feeds/all.rss.xml"
CATEGORY_FEED_ATOM = "feeds/{slug}.atom.xml"
TAG_FEED_ATOM = "feeds/tag-{slug}.atom.xml"
# Articles keep Pelican's default URL ({slug}.html at the root); period archives as its docs
# show them.
YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
YEAR_ARCHIVE_URL = "{date:%Y}/"
MONTH_ARCHIVE_SAVE_AS = "{date:%Y}/{date:%m}/index.html"
MONTH_ARCHIVE_URL = "{date:%Y}/{date:%m}/"
LINKS = (("Pelican", "https://getpelican.com/"),)
SOCIAL = (("mastodon", "https://mastodon.example/@ana"),)
""",
    )


def hexo() -> None:
    src = _fresh("hexo")
    for p in POSTS:
        folder = "_drafts" if p.draft else "_posts"
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date} 09:30:00\n"
            f"tags: {_yaml_list(p.tags)}\ncategories: [{p.category}]\n---\n\n"
        )
        _write(src / "source" / folder / f"{p.slug}.md", front + p.body)
    _write(src / "source" / "about" / "index.md", f"---\ntitle: {ABOUT.title}\n---\n\n{ABOUT.body}")
    _write(
        src / "_config.yml",
        """title: Small Lessons
author: Ana Lima
language: en
timezone: UTC
url: https://hexo.heldout.example
permalink: :year/:month/:day/:title/
new_post_name: :title.md
render_drafts: false
per_page: 4
pagination_dir: page
theme: landscape
highlight:
  enable: true
  line_number: true
  auto_detect: false
index_generator:
  per_page: 4
archive_generator:
  per_page: 4
  yearly: true
  monthly: true
category_generator:
  per_page: 4
tag_generator:
  per_page: 4
feed:
  type: atom
  path: atom.xml
  limit: 20
sitemap:
  path: sitemap.xml
""",
    )
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-hexo",
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
                        "hexo-theme-landscape",
                        "hexo-generator-feed",
                        "hexo-generator-sitemap",
                    )
                },
            },
            indent=1,
        ),
    )


def _more(body: str) -> str:
    """Hexo's ``<!-- more -->`` after the first paragraph (NexT's index shows the excerpt above
    it and a "Read more" button); a post of one paragraph stays whole."""
    head, sep, rest = body.partition("\n\n")
    return f"{head}\n\n<!-- more -->\n\n{rest}" if sep and rest.strip() else body


HEXO_NEXT_CONFIG = """title: Small Lessons
subtitle: Short programming lessons
description: Short programming lessons, one idea a post.
author: Ana Lima
language: en
timezone: UTC
url: https://hexo-next.heldout.example
permalink: :year/:month/:day/:title/
new_post_name: :title.md
render_drafts: false
per_page: 5
pagination_dir: page
theme: next
syntax_highlighter: highlight.js
highlight:
  line_number: true
  auto_detect: false
  wrap: true
index_generator:
  per_page: 5
archive_generator:
  per_page: 5
  yearly: true
  monthly: true
category_generator:
  per_page: 5
tag_generator:
  per_page: 5
feed:
  type: atom
  path: atom.xml
  limit: 20
sitemap:
  path: sitemap.xml
"""

#: NexT's alternate theme config (``_config.next.yml`` at the site's root), the usual blog
#: options of its docs: Gemini, the menu with tags/categories/archives pages, the author card
#: in the sidebar (avatar-less, site state, social links), the post copyright notice (Creative
#: Commons), "Read more", the post's table of contents, prev/next navigation, the footer.
HEXO_NEXT_THEME_CONFIG = """scheme: Gemini
darkmode: false
menu:
  home: / || fa fa-home
  about: /about/ || fa fa-user
  tags: /tags/ || fa fa-tags
  categories: /categories/ || fa fa-th
  archives: /archives/ || fa fa-archive
menu_settings:
  icons: true
  badges: true
sidebar:
  position: left
  display: post
site_state: true
social:
  GitHub: https://github.com/ana-lima || fab fa-github
  E-Mail: mailto:ana@ana-lima.example || fa fa-envelope
  RSS: /atom.xml || fa fa-rss
creative_commons:
  license: by-nc-sa
  size: small
  sidebar: true
  post: true
toc:
  enable: true
  number: true
footer:
  since: 2023
  copyright: Ana Lima
  powered: true
excerpt_description: true
read_more_btn: true
post_meta:
  item_text: true
  created_at: true
  updated_at:
    enable: false
  categories: true
post_navigation: left
codeblock:
  copy_button:
    enable: true
back2top:
  enable: true
  scrollpercent: true
local_search:
  enable: false
motion:
  enable: false
"""


def hexo_next() -> None:
    """Hexo 7 with the NexT theme (Gemini): the hexo site's posts and listings, with
    ``<!-- more -->`` excerpts, tags and categories index pages (``type: tags``/``categories``)."""
    src = _fresh("hexo-next")
    for p in POSTS:
        folder = "_drafts" if p.draft else "_posts"
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date} 09:30:00\n"
            f"tags: {_yaml_list(p.tags)}\ncategories: [{p.category}]\n---\n\n"
        )
        _write(src / "source" / folder / f"{p.slug}.md", front + _more(p.body))
    _write(src / "source" / "about" / "index.md", f"---\ntitle: {ABOUT.title}\n---\n\n{ABOUT.body}")
    for kind in ("tags", "categories"):
        _write(
            src / "source" / kind / "index.md",
            f"---\ntitle: {kind.title()}\ntype: {kind}\ncomments: false\n---\n",
        )
    _write(src / "_config.yml", HEXO_NEXT_CONFIG)
    _write(src / "_config.next.yml", HEXO_NEXT_THEME_CONFIG)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-hexo-next",
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
                        "hexo-theme-next",
                        "hexo-generator-feed",
                        "hexo-generator-sitemap",
                    )
                },
            },
            indent=1,
        ),
    )


def _install_page(tabs: str) -> str:
    return f"""# {INSTALL_TITLE}

The tool ships for Python and Node.js; pick one.

{tabs}

Check the installation:

```bash
lessons --version
```
"""


MKDOCS_TABS = """=== "pip"

    ```bash
    pip install lessons-cli
    ```

=== "npm"

    ```bash
    npm install --global lessons-cli
    ```

!!! warning "Python 3.10 or later"

    Older versions lack `zoneinfo`; the tool refuses to start on them.

!!! note

    The configuration lives in `~/.config/lessons/config.toml`:

    ```toml
    [output]
    color = true
    ```
"""

#: Posts that the MkDocs site publishes through its blog plugin (the rest are docs pages).
MKDOCS_BLOG = (
    "zeitzonen-richtig-behandeln",
    "hiddouki-shori-no-kihon",
    "quick-note-release",
    "regulyarnye-vyrazheniya",
    "kyou-no-memo",
    "medir-rendimiento-api",
    "sqlite-bendi-huancun",
    "unfinished-thoughts",
)


def mkdocs() -> None:
    src = _fresh("mkdocs")
    docs = src / "docs"
    nav_docs: dict[str, list[str]] = {}
    for p in POSTS:
        if p.slug in MKDOCS_BLOG:
            front = (
                f"---\ndate: {p.date}\nslug: {p.slug}\ncategories: [{p.category}]\n"
                + ("draft: true\n" if p.draft else "")
                + "---\n\n"
            )
            _write(docs / "blog" / "posts" / f"{p.slug}.md", front + f"# {p.title}\n\n{p.body}")
        else:
            section = DOC_SECTIONS[p.slug]
            _write(docs / section / f"{p.slug}.md", f"# {p.title}\n\n{p.body}")
            nav_docs.setdefault(section, []).append(f"{section}/{p.slug}.md")
    _write(docs / "guide" / "install.md", _install_page(MKDOCS_TABS))
    _write(docs / "index.md", "# Small Lessons\n\nShort programming lessons. Start with the guide.\n")
    _write(docs / "blog" / "index.md", "# Blog\n")
    nav = ["  - Home: index.md", "  - Guide:", "      - guide/install.md"]
    nav += [f"      - {path}" for path in nav_docs["guide"]]
    for section in ("reference", "appendix"):
        if section in nav_docs:
            nav.append(f"  - {section.title()}:")
            nav += [f"      - {path}" for path in nav_docs[section]]
    nav.append("  - Blog:\n      - blog/index.md")
    _write(
        src / "mkdocs.yml",
        """site_name: Small Lessons
site_url: https://mkdocs.heldout.example/
theme:
  name: material
  features:
    - content.tabs.link
    - content.code.copy
    - navigation.sections
plugins:
  - search
  - blog:
      post_url_format: "{date}/{slug}"
      pagination_per_page: 3
      archive: true
      categories: true
markdown_extensions:
  - admonition
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.highlight
  - pymdownx.tabbed:
      alternate_style: true
  - tables
  - toc:
      permalink: true
nav:
"""
        + "\n".join(nav)
        + "\n",
    )


#: MkDocs' readthedocs theme has no tabs: the two commands one after the other, and an
#: admonition of Python-Markdown's own ``admonition`` extension (the theme styles it).
MKDOCS_RTD_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

!!! warning "Python 3.10 or later"
    Older versions lack `zoneinfo`; the tool refuses to start on them.

!!! note
    The configuration lives in `~/.config/lessons/config.toml`.
"""


def mkdocs_rtd() -> None:
    """MkDocs 1.6 with its built-in readthedocs theme: every published post a docs page (no blog).

    Python-Markdown's own extensions only (MkDocs always adds toc, tables and fenced_code; the
    theme highlights in the browser with highlight.js, so no codehilite).
    """
    src = _fresh("mkdocs-rtd")
    docs = src / "docs"
    nav_docs: dict[str, list[str]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        _write(docs / section / f"{p.slug}.md", f"# {p.title}\n\n{p.body}")
        nav_docs.setdefault(section, []).append(f"{section}/{p.slug}.md")
    _write(docs / "guide" / "install.md", _install_page(MKDOCS_RTD_TABS))
    _write(docs / "index.md", "# Small Lessons\n\nShort programming lessons. Start with the guide.\n")
    nav = ["  - Home: index.md", "  - Guide:", "      - guide/install.md"]
    nav += [f"      - {path}" for path in nav_docs["guide"]]
    for section in ("reference", "appendix"):
        nav.append(f"  - {section.title()}:")
        nav += [f"      - {path}" for path in nav_docs[section]]
    _write(
        src / "mkdocs.yml",
        """site_name: Small Lessons
site_url: https://mkdocs-rtd.heldout.example/
site_author: Ana Lima
copyright: "&copy; 2024 Ana Lima"
theme:
  name: readthedocs
  navigation_depth: 3
plugins:
  - search
markdown_extensions:
  - admonition
  - tables
  - fenced_code
  - toc:
      permalink: true
nav:
"""
        + "\n".join(nav)
        + "\n",
    )


def _myst_body(p: Post) -> str:
    return f"# {p.title}\n\n{p.body}"


SPHINX_TABS = """```{admonition} Python 3.10 or later
:class: warning

Older versions lack `zoneinfo`; the tool refuses to start on them.
```

With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```
"""


def _sphinx_docs(name: str, conf: str) -> None:
    """A Sphinx docs site of MyST pages in three toctree sections (guide, reference, appendix)."""
    src = _fresh(name)
    by_section: dict[str, list[str]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        _write(src / section / f"{p.slug}.md", _myst_body(p))
        by_section.setdefault(section, []).append(f"{section}/{p.slug}")
    _write(src / "guide" / "install.md", _install_page(SPHINX_TABS))
    toctrees = []
    for section in ("guide", "reference", "appendix"):
        entries = (["guide/install"] if section == "guide" else []) + by_section[section]
        toctrees.append(
            "```{toctree}\n:caption: "
            + section.title()
            + "\n:maxdepth: 1\n\n"
            + "\n".join(entries)
            + "\n```\n"
        )
    _write(src / "index.md", "# Small Lessons\n\nShort programming lessons.\n\n" + "\n".join(toctrees))
    _write(src / "conf.py", conf)


def sphinx_furo() -> None:
    _sphinx_docs(
        "sphinx-furo",
        """project = "Small Lessons"
author = "Ana Lima"
extensions = ["myst_parser"]
html_theme = "furo"
html_title = "Small Lessons"
html_baseurl = "https://sphinx.heldout.example/"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
""",
    )


def sphinx_rtd() -> None:
    """The Read the Docs theme with sphinx-sitemap, as Read the Docs projects configure them."""
    _sphinx_docs(
        "sphinx-rtd",
        """project = "Small Lessons"
author = "Ana Lima"
copyright = "2024, Ana Lima"
extensions = ["myst_parser", "sphinx_rtd_theme", "sphinx_sitemap"]
html_theme = "sphinx_rtd_theme"
html_title = "Small Lessons"
html_baseurl = "https://sphinx-rtd.heldout.example/"
# sphinx-sitemap: no language or version segment in the URLs (a single-version site).
sitemap_url_scheme = "{link}"
html_theme_options = {"navigation_depth": 3, "collapse_navigation": False}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
""",
    )


def sphinx_pydata() -> None:
    """The PyData Sphinx theme with sphinx-sitemap, as the scientific Python projects configure them."""
    _sphinx_docs(
        "sphinx-pydata",
        """project = "Small Lessons"
author = "Ana Lima"
copyright = "2024, Ana Lima"
extensions = ["myst_parser", "sphinx_sitemap"]
html_theme = "pydata_sphinx_theme"
html_title = "Small Lessons"
html_baseurl = "https://sphinx-pydata.heldout.example/"
# sphinx-sitemap: no language or version segment in the URLs (a single-version site).
sitemap_url_scheme = "{link}"
html_theme_options = {
    "github_url": "https://github.com/example/small-lessons",
    "navbar_align": "left",
    "show_toc_level": 2,
}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
""",
    )


def ablog() -> None:
    src = _fresh("ablog")
    for p in POSTS:
        if p.draft:
            continue  # ablog has no draft flag: a draft is a file not in the source folder
        front = (
            f"---\nblogpost: true\ndate: {p.date}\ncategory: {p.category}\n"
            f"tags: {', '.join(p.tags)}\nauthor: Ana Lima\n---\n\n"
        )
        _write(src / "posts" / f"{p.slug}.md", front + _no_control(_myst_body(p)))
    _write(src / "about.md", f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(
        src / "index.md",
        "# Small Lessons\n\nShort programming lessons.\n\n"
        '```{postlist} 5\n:date: "%Y-%m-%d"\n:format: "{title} ({date})"\n```\n\n'
        "```{toctree}\n:hidden:\n\nabout\n```\n",
    )
    _write(
        src / "conf.py",
        """project = "Small Lessons"
author = "Ana Lima"
extensions = ["myst_parser", "ablog"]
html_theme = "alabaster"
blog_title = "Small Lessons"
blog_baseurl = "https://ablog.heldout.example/"
blog_path = "blog"
blog_post_pattern = "posts/*"
blog_feed_archives = True
post_date_format = "%Y-%m-%d"
blog_authors = {"Ana Lima": ("Ana Lima", None)}
html_sidebars = {"**": ["ablog/postcard.html", "ablog/recentposts.html", "ablog/tagcloud.html",
                        "ablog/categories.html", "ablog/archives.html"]}
exclude_patterns = ["_build"]
""",
    )


def nikola() -> None:
    src = _fresh("nikola")
    for p in POSTS:
        meta = [
            f".. title: {p.title}",
            f".. slug: {p.slug}",
            f".. date: {p.date} 09:30:00 UTC",
            f".. tags: {', '.join(p.tags + (('draft',) if p.draft else ()))}",
            f".. category: {p.category}",
            ".. type: text",
        ]
        _write(src / "posts" / f"{p.slug}.md", "<!--\n" + "\n".join(meta) + "\n-->\n\n" + p.body)
    _write(
        src / "pages" / "about.md",
        f"<!--\n.. title: {ABOUT.title}\n.. slug: about\n.. type: text\n-->\n\n{ABOUT.body}",
    )
    _write(
        src / "conf.py",
        """BLOG_AUTHOR = "Ana Lima"
BLOG_TITLE = "Small Lessons"
SITE_URL = "https://nikola.heldout.example/"
BLOG_EMAIL = "ana@example.org"
BLOG_DESCRIPTION = "Short programming lessons."
DEFAULT_LANG = "en"
TRANSLATIONS = {DEFAULT_LANG: ""}
THEME = "bootblog4"
TIMEZONE = "UTC"
POSTS = (("posts/*.md", "posts", "post.tmpl"),)
PAGES = (("pages/*.md", "pages", "page.tmpl"),)
COMPILERS = {"markdown": (".md",), "html": (".html",)}
INDEX_DISPLAY_POST_COUNT = 4
CREATE_MONTHLY_ARCHIVE = True
USE_BUNDLES = False
USE_CDN = True
NAVIGATION_LINKS = {DEFAULT_LANG: (("/archive.html", "Archive"), ("/categories/", "Tags"),
                                   ("/rss.xml", "RSS feed"), ("/pages/about/", "About"))}
MARKDOWN_EXTENSIONS = ["markdown.extensions.fenced_code", "markdown.extensions.codehilite",
                       "markdown.extensions.extra", "markdown.extensions.toc"]
""",
    )


VITEPRESS_TABS = """::: code-group

```bash [pip]
pip install lessons-cli
```

```bash [npm]
npm install --global lessons-cli
```

:::

::: warning Python 3.10 or later
Older versions lack `zoneinfo`; the tool refuses to start on them.
:::
"""


def vitepress() -> None:
    src = _fresh("vitepress")
    docs = src / "docs"
    sidebar = []
    by_section: dict[str, list[Post]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        by_section.setdefault(section, []).append(p)
        _write(docs / section / f"{p.slug}.md", _myst_body(p))
    _write(docs / "guide" / "install.md", _install_page(VITEPRESS_TABS))
    for section in ("guide", "reference", "appendix"):
        items = ([{"text": INSTALL_TITLE, "link": "/guide/install"}] if section == "guide" else []) + [
            {"text": p.title, "link": f"/{section}/{p.slug}"} for p in by_section[section]
        ]
        sidebar.append({"text": section.title(), "items": items})
    _write(
        docs / "index.md",
        "---\nlayout: home\nhero:\n  name: Small Lessons\n  tagline: Short programming lessons\n"
        "  actions:\n    - theme: brand\n      text: Start\n      link: /guide/install\n---\n",
    )
    config = {
        "title": "Small Lessons",
        "sitemap": {"hostname": "https://vitepress.heldout.example"},
        "themeConfig": {"sidebar": sidebar, "nav": [{"text": "Guide", "link": "/guide/install"}]},
    }
    _write(
        docs / ".vitepress" / "config.mjs",
        "export default " + json.dumps(config, ensure_ascii=False, indent=2) + "\n",
    )


def vuepress_hope() -> None:
    src = _fresh("vuepress-hope")
    for p in POSTS:
        # VuePress has no draft flag: the draft lies in a folder the config's pagePatterns leave out.
        folder = "_drafts" if p.draft else "posts"
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date}\n"
            f"category: [{p.category}]\ntag: {_yaml_list(p.tags)}\n---\n\n"
        )
        _write(src / folder / f"{p.slug}.md", front + p.body)
    _write(src / "about.md", f"---\ntitle: {ABOUT.title}\narticle: false\n---\n\n{ABOUT.body}")
    _write(
        src / "README.md",
        "---\nhome: true\nlayout: Blog\ntitle: Home\nheroText: Small Lessons\n"
        "tagline: Short programming lessons\n---\n",
    )
    # The VuePress command line looks for vuepress among the project's dependencies.
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-vuepress-hope",
                "version": "0.0.0",
                "private": True,
                "type": "module",
                "devDependencies": {
                    name: "*" for name in ("vuepress", "@vuepress/bundler-vite", "vuepress-theme-hope")
                },
            },
            indent=1,
        ),
    )
    _write(
        src / ".vuepress" / "config.mjs",
        """import { defineUserConfig } from "vuepress";
import { viteBundler } from "@vuepress/bundler-vite";
import { hopeTheme } from "vuepress-theme-hope";

export default defineUserConfig({
  lang: "en-US",
  title: "Small Lessons",
  description: "Short programming lessons.",
  pagePatterns: ["**/*.md", "!_drafts/**", "!.vuepress", "!node_modules"],
  bundler: viteBundler(),
  theme: hopeTheme({
    hostname: "https://vuepress-hope.heldout.example",
    author: { name: "Ana Lima" },
    navbar: [
      { text: "Home", link: "/" },
      { text: "Articles", link: "/article/" },
      { text: "Categories", link: "/category/" },
      { text: "Tags", link: "/tag/" },
      { text: "Timeline", link: "/timeline/" },
      { text: "About", link: "/about.html" },
    ],
    sidebar: false,
    blog: {
      description: "Short programming lessons.",
      intro: "/about.html",
      articlePerPage: 4,
    },
    plugins: {
      blog: true,
      feed: { atom: true, json: true, rss: true },
      sitemap: true,
    },
  }),
});
""",
    )


def _lr(fields: list[tuple[str, str]]) -> str:
    """A Lektor ``contents.lr``: ``key: value`` fields between ``---`` lines, multi-line values
    after a blank line, and a line of dashes inside a value escaped with one more dash."""
    out = []
    for key, value in fields:
        if "\n" in value:
            lines = [
                line + "-" if line and set(line) == {"-"} and len(line) >= 3 else line
                for line in value.rstrip("\n").split("\n")
            ]
            out.append(f"{key}:\n\n" + "\n".join(lines))
        else:
            out.append(f"{key}: {value}")
    return "\n---\n".join(out) + "\n"


LEKTOR_MODELS = {
    "page": """[model]
name = Page
label = {{ this.title }}

[fields.title]
label = Title
type = string

[fields.body]
label = Body
type = markdown
""",
    "blog": """[model]
name = Blog
label = Blog
hidden = yes

[fields.title]
label = Title
type = string

[children]
model = blog-post
order_by = -pub_date, title
slug_format = {{ (this.pub_date|dateformat('YYYY/M/') if this.pub_date) ~ this._id }}

[pagination]
enabled = yes
per_page = 5
items = this.children.filter(F._model == 'blog-post')
""",
    "blog-post": """[model]
name = Blog Post
label = {{ this.title }}
hidden = yes

[fields.title]
label = Title
type = string
size = large

[fields.author]
label = Author
type = string
width = 1/2

[fields.pub_date]
label = Publication date
type = date
width = 1/2

[fields.category]
label = Category
type = select
source = site.query('/blog/categories')
width = 1/2

[fields.tags]
label = Tags
type = strings

[fields.body]
label = Body
type = markdown
""",
    "blog-categories": """[model]
name = Categories
label = Categories
hidden = yes

[fields.title]
label = Title
type = string

[children]
model = blog-category
order_by = title
""",
    "blog-category": """[model]
name = Category
label = {{ this.title }}
hidden = yes

[fields.title]
label = Title
type = string
""",
}

LEKTOR_TEMPLATES = {
    "layout.html": """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{{ '/static/style.css'|url }}">
<link rel="alternate" type="application/atom+xml" title="Small Lessons" href="{{ '/blog/feed.xml'|url }}">
<link rel="canonical" href="{{ this|url(external=true) }}">
<title>{% block title %}Welcome{% endblock %} — Small Lessons</title>
</head>
<body>
  <header>
    <h1>Small Lessons</h1>
    <nav>
      <ul class="nav navbar-nav">
        <li{% if this._path == '/' %} class="active"{% endif
          %}><a href="{{ '/'|url }}">Welcome</a></li>
        {% for href, title in [
          ['/blog', 'Blog'],
          ['/blog/categories', 'Categories'],
          ['/about', 'About']
        ] %}
          <li{% if this.is_child_of(href) %} class="active"{% endif
            %}><a href="{{ href|url }}">{{ title }}</a></li>
        {% endfor %}
      </ul>
    </nav>
  </header>
  <div class="page">
    {% block body %}{% endblock %}
  </div>
  <footer>
    &copy; Copyright 2024 by Ana Lima.
    <a href="{{ '/blog/feed.xml'|url }}">Atom feed</a>
  </footer>
</body>
</html>
""",
    "page.html": """{% extends "layout.html" %}
{% block title %}{{ this.title }}{% endblock %}
{% block body %}
  <h2>{{ this.title }}</h2>
  {{ this.body }}
{% endblock %}
""",
    "macros/blog.html": """{% macro render_blog_post(post, from_index=false) %}
  <div class="blog-post">
  {% if from_index %}
    <h2><a href="{{ post|url }}">{{ post.title }}</a></h2>
  {% else %}
    <h2>{{ post.title }}</h2>
  {% endif %}
  <p class="meta">
    written by {{ post.author }}
    on {{ post.pub_date|dateformat }}
    {% if post.category %}
      in <a href="{{ ('/blog/categories/' ~ post.category)|url }}">{{ post.category }}</a>
    {% endif %}
  </p>
  {{ post.body }}
  {% if post.tags %}
    <p class="tags">Tags:
    {% for t in post.tags -%}
      <a href="{{ ('/blog@tag/' ~ t)|url }}">{{ t }}</a>{% if not loop.last %}, {% endif %}
    {%- endfor %}
    </p>
  {% endif %}
  </div>
{% endmacro %}
""",
    "macros/pagination.html": """{% macro render_pagination(pagination) %}
  <div class="pagination">
    {% if pagination.has_prev %}
      <a href="{{ pagination.prev|url }}">&laquo; Previous</a>
    {% else %}
      <span class="disabled">&laquo; Previous</span>
    {% endif %}
    | {{ pagination.page }} |
    {% if pagination.has_next %}
      <a href="{{ pagination.next|url }}">Next &raquo;</a>
    {% else %}
      <span class="disabled">Next &raquo;</span>
    {% endif %}
  </div>
{% endmacro %}
""",
    "blog.html": """{% extends "layout.html" %}
{% from "macros/blog.html" import render_blog_post %}
{% from "macros/pagination.html" import render_pagination %}
{% block title %}{{ this.title }}{% endblock %}
{% block body %}
  {% for child in this.pagination.items %}
    {{ render_blog_post(child, from_index=true) }}
  {% endfor %}

  {{ render_pagination(this.pagination) }}
{% endblock %}
""",
    "blog-post.html": """{% extends "layout.html" %}
{% from "macros/blog.html" import render_blog_post %}
{% block title %}{{ this.title }}{% endblock %}
{% block body %}
  {{ render_blog_post(this) }}
{% endblock %}
""",
    "blog-categories.html": """{% extends "layout.html" %}
{% block title %}{{ this.title }}{% endblock %}
{% block body %}
  <h2>{{ this.title }}</h2>
  <ul class="categories">
  {% for category in this.children %}
    <li><a href="{{ category|url }}">{{ category.title }}</a></li>
  {% endfor %}
  </ul>
{% endblock %}
""",
    "blog-category.html": """{% extends "layout.html" %}
{% block title %}Category: {{ this.title }}{% endblock %}
{% block body %}
  <h2>Category: {{ this.title }}</h2>
  <ul class="posts">
  {% for post in site.query('/blog').filter(F._model == 'blog-post').filter(F.category == this._id) %}
    <li><a href="{{ post|url }}">{{ post.title }}</a> &mdash; {{ post.pub_date|dateformat }}</li>
  {% endfor %}
  </ul>
{% endblock %}
""",
    "tag.html": """{% extends "layout.html" %}
{% block title %}Tag: {{ this.tag }}{% endblock %}
{% block body %}
  <h2>Posts tagged {{ this.tag }}</h2>
  <ul class="posts">
  {% for post in this.items %}
    <li><a href="{{ post|url }}">{{ post.title }}</a> &mdash; {{ post.pub_date|dateformat }}</li>
  {% endfor %}
  </ul>
{% endblock %}
""",
    # Lektor's sitemap guide: every page, recursively from the root.
    "sitemap.xml": """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  {%- for page in [site.root] if page != this recursive %}
  <url><loc>{{ page|url(external=true) }}</loc></url>
  {{- loop(page.children) }}
  {%- endfor %}
</urlset>
""",
}

LEKTOR_CSS = """body { font-family: sans-serif; max-width: 46em; margin: 0 auto; padding: 0 1em; }
header h1 { font-size: 1.4em; }
nav ul { list-style: none; padding: 0; }
nav li { display: inline; margin-right: 1em; }
nav li.active a { font-weight: bold; }
.blog-post .meta { color: #666; }
pre { background: #f4f4f4; padding: .6em; overflow-x: auto; }
footer { margin-top: 3em; color: #666; font-size: .9em; }
"""


def lektor() -> None:
    """A Lektor blog as its quickstart's blog structures it: blog + blog-post models, pagination,
    lektor-tags tag pages, categories as child pages (Lektor's categories guide), lektor-atom's
    feed and the sitemap template of Lektor's sitemap guide."""
    src = _fresh("lektor")
    content = src / "content"
    for p in POSTS:
        fields = [
            ("title", p.title),
            ("author", "Ana Lima"),
            ("pub_date", p.date),
            ("category", p.category),
            ("tags", "\n".join(p.tags) + "\n" if p.tags else ""),
            ("body", _no_control(p.body)),
        ]
        if p.draft:
            # Lektor's documented draft: built at its URL but in no query (listings, feeds, tags).
            fields.append(("_discoverable", "no"))
        _write(content / "blog" / p.slug / "contents.lr", _lr(fields))
    _write(content / "blog" / "contents.lr", _lr([("title", "Blog"), ("_model", "blog")]))
    _write(
        content / "blog" / "categories" / "contents.lr",
        _lr([("_model", "blog-categories"), ("title", "Categories")]),
    )
    for category in sorted({p.category for p in published()}):
        _write(
            content / "blog" / "categories" / category / "contents.lr",
            _lr([("_model", "blog-category"), ("title", category)]),
        )
    _write(
        content / "contents.lr",
        _lr(
            [
                ("_model", "page"),
                ("title", "Welcome"),
                (
                    "body",
                    "Short programming lessons, written down as I learn them.\n\nRead the [blog](/blog/).\n",
                ),
            ]
        ),
    )
    _write(
        content / "about" / "contents.lr",
        _lr([("_model", "page"), ("title", ABOUT.title), ("body", ABOUT.body)]),
    )
    _write(content / "sitemap.xml" / "contents.lr", _lr([("_model", "none"), ("_template", "sitemap.xml")]))
    for name, text in LEKTOR_MODELS.items():
        _write(src / "models" / f"{name}.ini", text)
    _write(src / "models" / "none.ini", "[model]\nname = None\nhidden = yes\n")
    for name, text in LEKTOR_TEMPLATES.items():
        _write(src / "templates" / name, text)
    _write(src / "assets" / "static" / "style.css", LEKTOR_CSS)
    _write(
        src / "configs" / "tags.ini",
        "parent = /blog\ntemplate = tag.html\n"
        "items = this.parent.children.filter(F.tags.contains(tag)).order_by('-pub_date')\n",
    )
    _write(
        src / "configs" / "atom.ini",
        """[blog]
name = Small Lessons
source_path = /blog
url_path = /blog/feed.xml
items = site.query('/blog').filter(F._model == 'blog-post')
item_model = blog-post
""",
    )
    _write(
        src / "SmallLessons.lektorproject",
        """[project]
name = Small Lessons
url = https://lektor.heldout.example/
url_style = external
locale = en_US
""",
    )


STARLIGHT_TABS = """import { Tabs, TabItem } from '@astrojs/starlight/components';

The tool ships for Python and Node.js; pick one.

<Tabs>
<TabItem label="pip">

```bash
pip install lessons-cli
```

</TabItem>
<TabItem label="npm">

```bash
npm install --global lessons-cli
```

</TabItem>
</Tabs>

:::caution[Python 3.10 or later]
Older versions lack `zoneinfo`; the tool refuses to start on them.
:::

Check the installation:

```bash
lessons --version
```
"""


def _title_front(title: str, extra: str = "") -> str:
    return f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\n{extra}---\n\n"


def _astro_package(src: Path, name: str, deps: tuple[str, ...]) -> None:
    # Astro bundles the integrations its package.json depends on (a package not listed there
    # stays external to the build and cannot import Astro's virtual modules).
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": name,
                "type": "module",
                "version": "0.0.1",
                "private": True,
                "scripts": {"build": "astro build"},
                "dependencies": {d: "*" for d in deps},
            },
            indent=1,
        )
        + "\n",
    )


def starlight() -> None:
    """Astro Starlight: one docs page per post (sections as folders), sidebar autogenerated."""
    src = _fresh("starlight")
    docs = src / "src" / "content" / "docs"
    for p in published():
        _write(docs / DOC_SECTIONS[p.slug] / f"{p.slug}.md", _title_front(p.title) + p.body)
    # Tabs are a component: MDX, as Starlight's docs write them.
    _write(docs / "guide" / "install.mdx", _title_front(INSTALL_TITLE) + STARLIGHT_TABS)
    _write(
        docs / "index.mdx",
        _title_front(
            "Small Lessons",
            "description: Short programming lessons.\ntemplate: splash\nhero:\n"
            "  tagline: Short programming lessons, from generators to regular expressions.\n"
            "  actions:\n    - text: Start with the guide\n      link: /guide/install/\n"
            "      icon: right-arrow\n",
        )
        + "import { Card, CardGrid } from '@astrojs/starlight/components';\n\n"
        "<CardGrid stagger>\n"
        '\t<Card title="Guide" icon="pencil">Installing the tool, generators, time zones.</Card>\n'
        '\t<Card title="Reference" icon="open-book">'
        "Storage engines, code review, regular expressions.</Card>\n"
        "</CardGrid>\n",
    )
    _write(
        src / "src" / "content.config.ts",
        """import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';

export const collections = {
\tdocs: defineCollection({ loader: docsLoader(), schema: docsSchema() }),
};
""",
    )
    _write(
        src / "astro.config.mjs",
        """// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

// https://astro.build/config
export default defineConfig({
\tsite: 'https://starlight.heldout.example',
\tintegrations: [
\t\tstarlight({
\t\t\ttitle: 'Small Lessons',
\t\t\tsocial: [{ icon: 'github', label: 'GitHub', href: 'https://github.com/withastro/starlight' }],
\t\t\tsidebar: [
\t\t\t\t{ label: 'Guide', items: [{ autogenerate: { directory: 'guide' } }] },
\t\t\t\t{ label: 'Reference', items: [{ autogenerate: { directory: 'reference' } }] },
\t\t\t\t{ label: 'Appendix', items: [{ autogenerate: { directory: 'appendix' } }] },
\t\t\t],
\t\t}),
\t],
});
""",
    )
    _astro_package(src, "heldout-starlight", ("@astrojs/starlight", "astro"))


def _description(p: Post) -> str:
    """The post's first sentence (the blog's meta description, its feed's item description)."""
    first = _no_control(p.body).strip().split("\n\n")[0].replace("\n", " ")
    for stop in (". ", "。", "! "):
        if stop in first:
            first = first.split(stop)[0] + stop.strip()
            break
    return first


ASTRO_BLOG_FILES: dict[str, str] = {
    "astro.config.mjs": """// @ts-check
import { defineConfig } from 'astro/config';
import sitemap from '@astrojs/sitemap';

// https://astro.build/config
export default defineConfig({
\tsite: 'https://astro-blog.heldout.example',
\tintegrations: [sitemap()],
});
""",
    "src/consts.ts": """// Place any global data in this file.
// You can import this data from anywhere in your site by using the `import` keyword.

export const SITE_TITLE = 'Small Lessons';
export const SITE_DESCRIPTION = 'Short programming lessons, written by Ana Lima.';
""",
    "src/content.config.ts": """import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const blog = defineCollection({
\t// Load Markdown files in the `src/content/blog/` directory.
\tloader: glob({ base: './src/content/blog', pattern: '**/*.md' }),
\t// Type-check frontmatter using a schema
\tschema: z.object({
\t\ttitle: z.string(),
\t\tdescription: z.string(),
\t\t// Transform string to Date object
\t\tpubDate: z.coerce.date(),
\t\tupdatedDate: z.coerce.date().optional(),
\t\theroImage: z.string().optional(),
\t\tcategory: z.string(),
\t\ttags: z.array(z.string()).default([]),
\t\tdraft: z.boolean().default(false),
\t}),
});

export const collections = { blog };
""",
    "src/posts.ts": """import { getCollection } from 'astro:content';

/** The published posts, newest first. */
export async function publishedPosts() {
\tconst posts = await getCollection('blog', ({ data }) => !data.draft);
\treturn posts.sort((a, b) => b.data.pubDate.valueOf() - a.data.pubDate.valueOf());
}

export function tagSlug(tag: string) {
\treturn tag.toLowerCase().replace(/\\s+/g, '-');
}
""",
    "src/components/BaseHead.astro": """---
// Import the global.css file here so that it is included on
// all pages through the use of the <BaseHead /> component.
import '../styles/global.css';
import { SITE_TITLE } from '../consts';

interface Props {
\ttitle: string;
\tdescription: string;
\timage?: string;
}

const canonicalURL = new URL(Astro.url.pathname, Astro.site);

const { title, description, image = '/blog-placeholder-1.jpg' } = Astro.props;
---

<!-- Global Metadata -->
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width,initial-scale=1" />
<link rel="icon" type="image/svg+xml" href="/favicon.svg" />
<link rel="sitemap" href="/sitemap-index.xml" />
<link
\trel="alternate"
\ttype="application/rss+xml"
\ttitle={SITE_TITLE}
\thref={new URL('rss.xml', Astro.site)}
/>
<meta name="generator" content={Astro.generator} />

<!-- Canonical URL -->
<link rel="canonical" href={canonicalURL} />

<!-- Primary Meta Tags -->
<title>{title}</title>
<meta name="title" content={title} />
<meta name="description" content={description} />

<!-- Open Graph / Facebook -->
<meta property="og:type" content="website" />
<meta property="og:url" content={new URL(Astro.url.pathname, Astro.site)} />
<meta property="og:title" content={title} />
<meta property="og:description" content={description} />
<meta property="og:image" content={new URL(image, Astro.site)} />

<!-- Twitter -->
<meta property="twitter:card" content="summary_large_image" />
<meta property="twitter:url" content={new URL(Astro.url.pathname, Astro.site)} />
<meta property="twitter:title" content={title} />
<meta property="twitter:description" content={description} />
<meta property="twitter:image" content={new URL(image, Astro.site)} />
""",
    "src/components/HeaderLink.astro": """---
import type { HTMLAttributes } from 'astro/types';

type Props = HTMLAttributes<'a'>;

const { href, class: className, ...props } = Astro.props;
const pathname = Astro.url.pathname.replace(import.meta.env.BASE_URL, '');
const subpath = pathname.match(/[^\\/]+/g);
const isActive = href === pathname || href === '/' + (subpath?.[0] || '');
---

<a href={href} class:list={[className, { active: isActive }]} {...props}>
\t<slot />
</a>
<style>
\ta {
\t\tdisplay: inline-block;
\t\ttext-decoration: none;
\t}
\ta.active {
\t\tfont-weight: bolder;
\t\ttext-decoration: underline;
\t}
</style>
""",
    "src/components/Header.astro": """---
import HeaderLink from './HeaderLink.astro';
import { SITE_TITLE } from '../consts';
---

<header>
\t<nav>
\t\t<h2><a href="/">{SITE_TITLE}</a></h2>
\t\t<div class="internal-links">
\t\t\t<HeaderLink href="/">Home</HeaderLink>
\t\t\t<HeaderLink href="/blog">Blog</HeaderLink>
\t\t\t<HeaderLink href="/tags">Tags</HeaderLink>
\t\t\t<HeaderLink href="/about">About</HeaderLink>
\t\t</div>
\t\t<div class="social-links">
\t\t\t<a href="https://m.webtoo.ls/@astro" target="_blank">
\t\t\t\t<span class="sr-only">Follow Astro on Mastodon</span>
\t\t\t\t<svg viewBox="0 0 16 16" aria-hidden="true" width="32" height="32"
\t\t\t\t\t><path fill="currentColor" d="M8 0a8 8 0 1 0 0 16A8 8 0 0 0 8 0zm0 3a5 5 0 1 1 0 10A5 5 0 0 1 8 3z"
\t\t\t\t\t></path></svg
\t\t\t\t>
\t\t\t</a>
\t\t\t<a href="https://github.com/withastro/astro" target="_blank">
\t\t\t\t<span class="sr-only">Go to Astro's GitHub repo</span>
\t\t\t\t<svg viewBox="0 0 16 16" aria-hidden="true" width="32" height="32"
\t\t\t\t\t><path fill="currentColor" d="M8 0a8 8 0 0 0-2.5 15.6V12h5v3.6A8 8 0 0 0 8 0z"
\t\t\t\t\t></path></svg
\t\t\t\t>
\t\t\t</a>
\t\t</div>
\t</nav>
</header>
<style>
\theader {
\t\tmargin: 0;
\t\tpadding: 0 1em;
\t\tbackground: white;
\t\tbox-shadow: 0 2px 8px rgba(var(--black), 5%);
\t}
\th2 {
\t\tmargin: 0;
\t\tfont-size: 1em;
\t}
\th2 a,
\th2 a.active {
\t\ttext-decoration: none;
\t}
\tnav {
\t\tdisplay: flex;
\t\talign-items: center;
\t\tjustify-content: space-between;
\t}
\tnav a {
\t\tpadding: 1em 0.5em;
\t\tcolor: var(--black);
\t\tborder-bottom: 4px solid transparent;
\t\ttext-decoration: none;
\t}
\tnav a.active {
\t\ttext-decoration: none;
\t\tborder-bottom-color: var(--accent);
\t}
\t.social-links,
\t.social-links a {
\t\tdisplay: flex;
\t}
\t@media (max-width: 720px) {
\t\t.social-links {
\t\t\tdisplay: none;
\t\t}
\t}
</style>
""",
    "src/components/Footer.astro": """---
import { SITE_TITLE } from '../consts';
---

<footer>
\t&copy; 2024 Ana Lima. All rights reserved. {SITE_TITLE} is built with Astro.
\t<div class="social-links">
\t\t<a href="https://m.webtoo.ls/@astro" target="_blank">
\t\t\t<span class="sr-only">Follow Astro on Mastodon</span>
\t\t</a>
\t\t<a href="https://github.com/withastro/astro" target="_blank">
\t\t\t<span class="sr-only">Go to Astro's GitHub repo</span>
\t\t</a>
\t</div>
</footer>
<style>
\tfooter {
\t\tpadding: 2em 1em 6em 1em;
\t\tbackground: linear-gradient(var(--gray-gradient)) no-repeat;
\t\tcolor: rgb(var(--gray));
\t\ttext-align: center;
\t}
\t.social-links {
\t\tdisplay: flex;
\t\tjustify-content: center;
\t\tgap: 1em;
\t\tmargin-top: 1em;
\t}
</style>
""",
    "src/components/FormattedDate.astro": """---
interface Props {
\tdate: Date;
}

const { date } = Astro.props;
---

<time datetime={date.toISOString()}>
\t{
\t\tdate.toLocaleDateString('en-us', {
\t\t\tyear: 'numeric',
\t\t\tmonth: 'short',
\t\t\tday: 'numeric',
\t\t})
\t}
</time>
""",
    "src/components/PostList.astro": """---
import type { CollectionEntry } from 'astro:content';
import FormattedDate from './FormattedDate.astro';

interface Props {
\tposts: CollectionEntry<'blog'>[];
}

const { posts } = Astro.props;
---

<ul>
\t{
\t\tposts.map((post) => (
\t\t\t<li>
\t\t\t\t<a href={`/blog/${post.id}/`}>
\t\t\t\t\t<h4 class="title">{post.data.title}</h4>
\t\t\t\t\t<p class="date">
\t\t\t\t\t\t<FormattedDate date={post.data.pubDate} />
\t\t\t\t\t</p>
\t\t\t\t</a>
\t\t\t\t<p class="description">{post.data.description}</p>
\t\t\t</li>
\t\t))
\t}
</ul>
<style>
\tul {
\t\tdisplay: flex;
\t\tflex-direction: column;
\t\tgap: 2rem;
\t\tlist-style-type: none;
\t\tmargin: 0;
\t\tpadding: 0;
\t}
\tul li a {
\t\tdisplay: block;
\t\ttext-decoration: none;
\t}
\t.title {
\t\tmargin: 0;
\t\tcolor: rgb(var(--black));
\t\tline-height: 1;
\t}
\t.date {
\t\tmargin: 0;
\t\tcolor: rgb(var(--gray));
\t}
</style>
""",
    "src/layouts/BlogPost.astro": """---
import type { CollectionEntry } from 'astro:content';
import BaseHead from '../components/BaseHead.astro';
import Header from '../components/Header.astro';
import Footer from '../components/Footer.astro';
import FormattedDate from '../components/FormattedDate.astro';
import { tagSlug } from '../posts';

type Props = Partial<CollectionEntry<'blog'>['data']> & { title: string; description: string; pubDate: Date };

const { title, description, pubDate, updatedDate, heroImage, category, tags = [] } = Astro.props;
---

<html lang="en">
\t<head>
\t\t<BaseHead title={title} description={description} />
\t\t<style>
\t\t\tmain {
\t\t\t\twidth: calc(100% - 2em);
\t\t\t\tmax-width: 100%;
\t\t\t\tmargin: 0;
\t\t\t}
\t\t\t.hero-image {
\t\t\t\twidth: 100%;
\t\t\t}
\t\t\t.prose {
\t\t\t\twidth: 720px;
\t\t\t\tmax-width: calc(100% - 2em);
\t\t\t\tmargin: auto;
\t\t\t\tpadding: 1em;
\t\t\t\tcolor: rgb(var(--gray-dark));
\t\t\t}
\t\t\t.title {
\t\t\t\tmargin-bottom: 1em;
\t\t\t\tpadding: 1em 0;
\t\t\t\ttext-align: center;
\t\t\t\tline-height: 1;
\t\t\t}
\t\t\t.title h1 {
\t\t\t\tmargin: 0 0 0.5em 0;
\t\t\t}
\t\t\t.date {
\t\t\t\tmargin-bottom: 0.5em;
\t\t\t\tcolor: rgb(var(--gray));
\t\t\t}
\t\t\t.last-updated-on {
\t\t\t\tfont-style: italic;
\t\t\t}
\t\t\t.tags {
\t\t\t\tdisplay: flex;
\t\t\t\tgap: 0.5em;
\t\t\t\tlist-style: none;
\t\t\t\tpadding: 0;
\t\t\t}
\t\t</style>
\t</head>

\t<body>
\t\t<Header />
\t\t<main>
\t\t\t<article>
\t\t\t\t<div class="hero-image">
\t\t\t\t\t{heroImage && <img width={1020} height={510} src={heroImage} alt="" />}
\t\t\t\t</div>
\t\t\t\t<div class="prose">
\t\t\t\t\t<div class="title">
\t\t\t\t\t\t<div class="date">
\t\t\t\t\t\t\t<FormattedDate date={pubDate} />
\t\t\t\t\t\t\t{
\t\t\t\t\t\t\t\tupdatedDate && (
\t\t\t\t\t\t\t\t\t<div class="last-updated-on">
\t\t\t\t\t\t\t\t\t\tLast updated on <FormattedDate date={updatedDate} />
\t\t\t\t\t\t\t\t\t</div>
\t\t\t\t\t\t\t\t)
\t\t\t\t\t\t\t}
\t\t\t\t\t\t\t{category && (
\t\t\t\t\t\t\t\t<span class="category">
\t\t\t\t\t\t\t\t\tin <a href={`/categories/${tagSlug(category)}/`}>{category}</a>
\t\t\t\t\t\t\t\t</span>
\t\t\t\t\t\t\t)}
\t\t\t\t\t\t</div>
\t\t\t\t\t\t<h1>{title}</h1>
\t\t\t\t\t\t<hr />
\t\t\t\t\t</div>
\t\t\t\t\t<slot />
\t\t\t\t\t{tags.length > 0 && (
\t\t\t\t\t\t<ul class="tags">
\t\t\t\t\t\t\t{tags.map((tag) => (
\t\t\t\t\t\t\t\t<li><a href={`/tags/${tagSlug(tag)}/`} rel="tag">#{tag}</a></li>
\t\t\t\t\t\t\t))}
\t\t\t\t\t\t</ul>
\t\t\t\t\t)}
\t\t\t\t</div>
\t\t\t</article>
\t\t</main>
\t\t<Footer />
\t</body>
</html>
""",
    "src/layouts/Listing.astro": """---
import type { CollectionEntry } from 'astro:content';
import BaseHead from '../components/BaseHead.astro';
import Header from '../components/Header.astro';
import Footer from '../components/Footer.astro';
import PostList from '../components/PostList.astro';

interface Props {
\ttitle: string;
\tdescription: string;
\theading: string;
\tposts: CollectionEntry<'blog'>[];
}

const { title, description, heading, posts } = Astro.props;
---

<!doctype html>
<html lang="en">
\t<head>
\t\t<BaseHead title={title} description={description} />
\t</head>
\t<body>
\t\t<Header />
\t\t<main>
\t\t\t<section>
\t\t\t\t<h1>{heading}</h1>
\t\t\t\t<PostList posts={posts} />
\t\t\t\t<slot />
\t\t\t</section>
\t\t</main>
\t\t<Footer />
\t</body>
</html>
""",
    "src/pages/index.astro": """---
import BaseHead from '../components/BaseHead.astro';
import Header from '../components/Header.astro';
import Footer from '../components/Footer.astro';
import { SITE_TITLE, SITE_DESCRIPTION } from '../consts';
---

<!doctype html>
<html lang="en">
\t<head>
\t\t<BaseHead title={SITE_TITLE} description={SITE_DESCRIPTION} />
\t</head>
\t<body>
\t\t<Header />
\t\t<main>
\t\t\t<h1>Welcome to Small Lessons</h1>
\t\t\t<p>
\t\t\t\tA notebook of short programming lessons: generators, time zones, regular expressions,
\t\t\t\tstorage engines and the odd field report. Read them on <a href="/blog/">the blog</a>,
\t\t\t\tor browse them by <a href="/tags/">tag</a>.
\t\t\t</p>
\t\t\t<p>Subscribe with <a href="/rss.xml">the RSS feed</a>.</p>
\t\t</main>
\t\t<Footer />
\t</body>
</html>
""",
    "src/pages/blog/[...page].astro": """---
import type { GetStaticPaths } from 'astro';
import Listing from '../../layouts/Listing.astro';
import { SITE_TITLE, SITE_DESCRIPTION } from '../../consts';
import { publishedPosts } from '../../posts';

export const getStaticPaths = (async ({ paginate }) => {
\treturn paginate(await publishedPosts(), { pageSize: 5 });
}) satisfies GetStaticPaths;

const { page } = Astro.props;
const title =
\tpage.currentPage === 1 ? `Blog | ${SITE_TITLE}` : `Blog, page ${page.currentPage} | ${SITE_TITLE}`;
---

<Listing title={title} description={SITE_DESCRIPTION} heading="Blog" posts={page.data}>
\t<nav class="pagination">
\t\t{page.url.prev && <a href={page.url.prev} rel="prev">&larr; Newer posts</a>}
\t\t<span>Page {page.currentPage} of {page.lastPage}</span>
\t\t{page.url.next && <a href={page.url.next} rel="next">Older posts &rarr;</a>}
\t</nav>
</Listing>
""",
    "src/pages/blog/[slug].astro": """---
import { type CollectionEntry, render } from 'astro:content';
import BlogPost from '../../layouts/BlogPost.astro';
import { publishedPosts } from '../../posts';

export async function getStaticPaths() {
\tconst posts = await publishedPosts();
\treturn posts.map((post) => ({
\t\tparams: { slug: post.id },
\t\tprops: post,
\t}));
}
type Props = CollectionEntry<'blog'>;

const post = Astro.props;
const { Content } = await render(post);
---

<BlogPost {...post.data}>
\t<Content />
</BlogPost>
""",
    "src/pages/tags/index.astro": """---
import BaseHead from '../../components/BaseHead.astro';
import Header from '../../components/Header.astro';
import Footer from '../../components/Footer.astro';
import { SITE_TITLE, SITE_DESCRIPTION } from '../../consts';
import { publishedPosts, tagSlug } from '../../posts';

const posts = await publishedPosts();
const counts = new Map<string, number>();
for (const post of posts) for (const tag of post.data.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
const tags = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
---

<!doctype html>
<html lang="en">
\t<head>
\t\t<BaseHead title={`Tags | ${SITE_TITLE}`} description={SITE_DESCRIPTION} />
\t</head>
\t<body>
\t\t<Header />
\t\t<main>
\t\t\t<h1>Tags</h1>
\t\t\t<ul class="tag-cloud">
\t\t\t\t{tags.map(([tag, count]) => (
\t\t\t\t\t<li><a href={`/tags/${tagSlug(tag)}/`}>#{tag}</a> ({count})</li>
\t\t\t\t))}
\t\t\t</ul>
\t\t</main>
\t\t<Footer />
\t</body>
</html>
""",
    "src/pages/tags/[tag].astro": """---
import Listing from '../../layouts/Listing.astro';
import { SITE_TITLE } from '../../consts';
import { publishedPosts, tagSlug } from '../../posts';

export async function getStaticPaths() {
\tconst posts = await publishedPosts();
\tconst tags = [...new Set(posts.flatMap((post) => post.data.tags))];
\treturn tags.map((tag) => ({
\t\tparams: { tag: tagSlug(tag) },
\t\tprops: { tag, posts: posts.filter((post) => post.data.tags.includes(tag)) },
\t}));
}

const { tag, posts } = Astro.props;
---

<Listing
\ttitle={`Posts tagged “${tag}” | ${SITE_TITLE}`}
\tdescription={`Every post tagged ${tag}.`}
\theading={`Posts tagged #${tag}`}
\tposts={posts}
>
\t<p><a href="/tags/">All tags</a></p>
</Listing>
""",
    "src/pages/categories/[category].astro": """---
import Listing from '../../layouts/Listing.astro';
import { SITE_TITLE } from '../../consts';
import { publishedPosts, tagSlug } from '../../posts';

export async function getStaticPaths() {
\tconst posts = await publishedPosts();
\tconst categories = [...new Set(posts.map((post) => post.data.category))];
\treturn categories.map((category) => ({
\t\tparams: { category: tagSlug(category) },
\t\tprops: { category, posts: posts.filter((post) => post.data.category === category) },
\t}));
}

const { category, posts } = Astro.props;
---

<Listing
\ttitle={`${category} | ${SITE_TITLE}`}
\tdescription={`Every post filed under ${category}.`}
\theading={`Category: ${category}`}
\tposts={posts}
/>
""",
    "src/pages/rss.xml.js": """import { getCollection } from 'astro:content';
import rss from '@astrojs/rss';
import { SITE_DESCRIPTION, SITE_TITLE } from '../consts';

export async function GET(context) {
\tconst posts = await getCollection('blog', ({ data }) => !data.draft);
\treturn rss({
\t\ttitle: SITE_TITLE,
\t\tdescription: SITE_DESCRIPTION,
\t\tsite: context.site,
\t\titems: posts.map((post) => ({
\t\t\ttitle: post.data.title,
\t\t\tdescription: post.data.description,
\t\t\tpubDate: post.data.pubDate,
\t\t\tcategories: post.data.tags,
\t\t\tlink: `/blog/${post.id}/`,
\t\t})),
\t});
}
""",
    "src/styles/global.css": """/*
  The CSS in this style tag is based off of Bear Blog's default CSS.
  https://github.com/HermanMartinus/bearblog/blob/297026a877bc2ab2b3bdfbd6b9f7961c350917dd/templates/styles/blog/default.css
  License MIT: https://github.com/HermanMartinus/bearblog/blob/master/LICENSE.md
 */

:root {
\t--accent: #2337ff;
\t--accent-dark: #000d8a;
\t--black: 15, 18, 25;
\t--gray: 96, 115, 159;
\t--gray-light: 229, 233, 240;
\t--gray-dark: 34, 41, 57;
\t--gray-gradient: rgba(var(--gray-light), 50%), #fff;
\t--box-shadow:
\t\t0 2px 6px rgba(var(--gray), 25%), 0 8px 24px rgba(var(--gray), 33%),
\t\t0 16px 32px rgba(var(--gray), 33%);
}
body {
\tfont-family: sans-serif;
\tmargin: 0;
\tpadding: 0;
\ttext-align: left;
\tbackground: linear-gradient(var(--gray-gradient)) no-repeat;
\tbackground-size: 100% 600px;
\tword-wrap: break-word;
\toverflow-wrap: break-word;
\tcolor: rgb(var(--gray-dark));
\tfont-size: 20px;
\tline-height: 1.7;
}
main {
\twidth: 720px;
\tmax-width: calc(100% - 2em);
\tmargin: auto;
\tpadding: 3em 1em;
}
h1,
h2,
h3,
h4,
h5,
h6 {
\tmargin: 0 0 0.5rem 0;
\tcolor: rgb(var(--black));
\tline-height: 1.2;
}
a {
\tcolor: var(--accent);
}
a:hover {
\tcolor: var(--accent);
}
table {
\twidth: 100%;
}
code {
\tpadding: 2px 5px;
\tbackground-color: rgb(var(--gray-light));
\tborder-radius: 2px;
}
pre {
\tpadding: 1.5em;
\tborder-radius: 8px;
}
pre > code {
\tall: unset;
}
hr {
\tborder: none;
\tborder-top: 1px solid rgb(var(--gray-light));
}
.sr-only {
\tborder: 0;
\tpadding: 0;
\tmargin: 0;
\tposition: absolute !important;
\theight: 1px;
\twidth: 1px;
\toverflow: hidden;
\tclip: rect(1px 1px 1px 1px);
\tclip: rect(1px, 1px, 1px, 1px);
\tclip-path: inset(50%);
\twhite-space: nowrap;
}
""",
}


def astro_blog() -> None:
    """An Astro blog in the style of Astro's "blog" starter: content collection, RSS, sitemap."""
    src = _fresh("astro-blog")
    for p in POSTS:
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
            f"description: {json.dumps(_description(p), ensure_ascii=False)}\n"
            f"pubDate: {p.date}\ncategory: {p.category}\ntags: {_yaml_list(p.tags)}\n"
            + ("draft: true\n" if p.draft else "")
            + "---\n\n"
        )
        _write(src / "src" / "content" / "blog" / f"{p.slug}.md", front + p.body)
    for rel, text in ASTRO_BLOG_FILES.items():
        _write(src / rel, text)
    # The starter's About page: the post layout with a fixed date, but not a post.
    _write(
        src / "src" / "pages" / "about.astro",
        "---\nimport BlogPost from '../layouts/BlogPost.astro';\n---\n\n"
        f'<BlogPost title="{ABOUT.title}" description="About this site."'
        f' pubDate={{new Date("{ABOUT.date}")}}>\n'
        + "".join(f"\t<p>{para.replace(chr(10), ' ')}</p>\n" for para in ABOUT.body.strip().split("\n\n"))
        + "</BlogPost>\n",
    )
    _astro_package(src, "heldout-astro-blog", ("@astrojs/rss", "@astrojs/sitemap", "astro"))


DOCUSAURUS_CONFIG = """// @ts-check
// The classic template's configuration in blog-only mode (Docusaurus docs: "Blog-only mode").
import {themes as prismThemes} from 'prism-react-renderer';

/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Small Lessons',
  tagline: 'Short programming lessons',
  url: 'https://docusaurus-blog.heldout.example',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  i18n: {defaultLocale: 'en', locales: ['en']},
  // Plain .md files are CommonMark, .mdx files MDX.
  markdown: {format: 'detect'},
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: false,
        blog: {
          routeBasePath: '/',
          blogTitle: 'Small Lessons',
          blogDescription: 'Short programming lessons, written by Ana Lima.',
          postsPerPage: 5,
          showReadingTime: true,
          feedOptions: {
            type: 'all',
            title: 'Small Lessons',
            copyright: `Copyright © ${new Date(2024, 0, 1).getFullYear()} Ana Lima.`,
          },
          editUrl: 'https://github.com/ana-lima/small-lessons/tree/main/',
          onUntruncatedBlogPosts: 'ignore',
        },
        theme: {customCss: './src/css/custom.css'},
        sitemap: {changefreq: 'weekly', priority: 0.5},
      }),
    ],
  ],
  themeConfig:
    /** @type {import('@docusaurus/preset-classic').ThemeConfig} */
    ({
      navbar: {
        title: 'Small Lessons',
        items: [
          {to: '/', label: 'Blog', position: 'left', activeBaseRegex: '^/$'},
          {to: '/tags', label: 'Tags', position: 'left'},
          {to: '/archive', label: 'Archive', position: 'left'},
          {to: '/about', label: 'About', position: 'left'},
          {href: 'https://github.com/ana-lima/small-lessons', label: 'GitHub', position: 'right'},
        ],
      },
      footer: {
        style: 'dark',
        links: [
          {
            title: 'Blog',
            items: [
              {label: 'Archive', to: '/archive'},
              {label: 'Tags', to: '/tags'},
              {label: 'RSS', href: 'https://docusaurus-blog.heldout.example/rss.xml'},
            ],
          },
          {
            title: 'More',
            items: [{label: 'GitHub', href: 'https://github.com/ana-lima/small-lessons'}],
          },
        ],
        copyright: `Copyright © 2024 Ana Lima. Built with Docusaurus.`,
      },
      prism: {theme: prismThemes.github, darkTheme: prismThemes.dracula},
    }),
};

export default config;
"""


DOCUSAURUS_AUTHORS = """ana:
  name: Ana Lima
  title: Writes small programming lessons
  url: https://ana-lima.example
  socials:
    github: ana-lima
  page: true
"""


def _truncated(body: str) -> str:
    """The classic blog's ``<!-- truncate -->`` after the first paragraph (listings show the
    excerpt above it); a post of one paragraph stays whole."""
    head, sep, rest = body.partition("\n\n")
    return f"{head}\n\n<!-- truncate -->\n\n{rest}" if sep and rest.strip() else body


def docusaurus_blog() -> None:
    """Docusaurus 3 (classic preset) in blog-only mode: the blog at the root, 5 posts a page,
    tags, one author with a page, the archive, RSS/Atom/JSON feeds and the sitemap."""
    src = _fresh("docusaurus-blog")
    for p in POSTS:
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date}\n"
            f"slug: {p.slug}\nauthors: [ana]\ntags: {_yaml_list(p.tags)}\n"
            + ("draft: true\n" if p.draft else "")
            + "---\n\n"
        )
        _write(src / "blog" / f"{p.slug}.md", front + _truncated(p.body))
    _write(src / "blog" / "authors.yml", DOCUSAURUS_AUTHORS)
    _write(src / "src" / "pages" / "about.md", _title_front(ABOUT.title) + f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(
        src / "src" / "css" / "custom.css",
        ":root {\n  --ifm-color-primary: #2e8555;\n  --ifm-code-font-size: 95%;\n}\n",
    )
    _write(src / "docusaurus.config.js", DOCUSAURUS_CONFIG)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-docusaurus-blog",
                "version": "0.0.0",
                "private": True,
                "scripts": {"build": "docusaurus build"},
                "dependencies": {
                    d: "*" for d in ("@docusaurus/core", "@docusaurus/preset-classic", "react", "react-dom")
                },
            },
            indent=1,
        )
        + "\n",
    )


JUPYTER_BOOK_TABS = """:::{admonition} Python 3.10 or later
:class: warning

Older versions lack `zoneinfo`; the tool refuses to start on them.
:::

::::{tab-set}

:::{tab-item} pip

```bash
pip install lessons-cli
```
:::

:::{tab-item} npm

```bash
npm install --global lessons-cli
```
:::

::::

:::{note}
The configuration lives in `~/.config/lessons/config.toml`:

```toml
[output]
color = true
```
:::
"""


JUPYTER_BOOK_CONFIG = """# Jupyter Book 1.x (Sphinx, sphinx-book-theme): no notebook, nothing executed.
title: Small Lessons
author: Ana Lima
copyright: "2024"
only_build_toc_files: true
execute:
  execute_notebooks: "off"
html:
  baseurl: https://jupyter-book.heldout.example/
  use_repository_button: false
  use_issues_button: false
  use_edit_page_button: false
  home_page_in_navbar: true
sphinx:
  extra_extensions:
    - sphinx_sitemap
  config:
    # sphinx-sitemap: no language or version segment in the URLs (a single-version site).
    sitemap_url_scheme: "{link}"
    myst_heading_anchors: 3
"""


def jupyter_book() -> None:
    """A Jupyter Book 1.x: the posts as MyST Markdown chapters in a ``_toc.yml`` of three parts."""
    src = _fresh("jupyter-book")
    by_section: dict[str, list[str]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        _write(src / section / f"{p.slug}.md", _myst_body(p))
        by_section.setdefault(section, []).append(f"{section}/{p.slug}")
    _write(src / "guide" / "install.md", _install_page(JUPYTER_BOOK_TABS))
    toc = ["format: jb-book", "root: intro", "parts:"]
    for section in ("guide", "reference", "appendix"):
        entries = (["guide/install"] if section == "guide" else []) + by_section[section]
        toc += [f"  - caption: {section.title()}", "    chapters:"]
        toc += [f"      - file: {entry}" for entry in entries]
    _write(src / "_toc.yml", "\n".join(toc) + "\n")
    _write(src / "intro.md", "# Small Lessons\n\nShort programming lessons. Start with the guide.\n")
    _write(src / "_config.yml", JUPYTER_BOOK_CONFIG)


#: Eleventy's base blog (github.com/11ty/eleventy-base-blog, v9 for Eleventy 3) is a repository
#: template, not an npm package: its documented layout written out here on the same plugins
#: (content/ as input, posts in content/blog/ tagged "posts" by blog.11tydata.js, the home page
#: with the latest three posts, /blog/ the archive of all posts, /tags/ and one page per tag,
#: the about page, 404, the Atom feed of the RSS plugin's virtual template, sitemap.xml, Prism
#: through the syntax highlighting plugin, heading ids, eleventy-navigation for the menu, drafts
#: left out of the build).
ELEVENTY_BASE_BLOG_FILES: dict[str, str] = {
    "eleventy.config.js": """import { IdAttributePlugin, InputPathToUrlTransformPlugin, HtmlBasePlugin } from "@11ty/eleventy";
import { feedPlugin } from "@11ty/eleventy-plugin-rss";
import pluginSyntaxHighlight from "@11ty/eleventy-plugin-syntaxhighlight";
import pluginNavigation from "@11ty/eleventy-navigation";

import pluginFilters from "./_config/filters.js";

/** @param {import("@11ty/eleventy").UserConfig} eleventyConfig */
export default async function (eleventyConfig) {
\t// Drafts (`draft: true`) are left out of `eleventy` builds.
\televentyConfig.addPreprocessor("drafts", "*", (data, content) => {
\t\tif (data.draft && process.env.ELEVENTY_RUN_MODE === "build") {
\t\t\treturn false;
\t\t}
\t});

\t// Copied as they are: public/css/index.css is /css/index.css.
\televentyConfig.addPassthroughCopy({ "./public/": "/" });

\t// Per-page CSS bundles (the post layout adds Prism's theme).
\televentyConfig.addBundle("css", { toFileDirectory: "dist" });

\televentyConfig.addPlugin(pluginSyntaxHighlight, { preAttributes: { tabindex: 0 } });
\televentyConfig.addPlugin(pluginNavigation);
\televentyConfig.addPlugin(HtmlBasePlugin);
\televentyConfig.addPlugin(InputPathToUrlTransformPlugin);

\televentyConfig.addPlugin(feedPlugin, {
\t\ttype: "atom",
\t\toutputPath: "/feed/feed.xml",
\t\ttemplateData: { eleventyNavigation: { key: "Feed", order: 4 } },
\t\tcollection: { name: "posts", limit: 10 },
\t\tmetadata: {
\t\t\tlanguage: "en",
\t\t\ttitle: "Small Lessons",
\t\t\tsubtitle: "Short programming lessons, one idea a post.",
\t\t\tbase: "https://eleventy-base-blog.heldout.example/",
\t\t\tauthor: { name: "Ana Lima" },
\t\t},
\t});

\televentyConfig.addPlugin(pluginFilters);
\televentyConfig.addPlugin(IdAttributePlugin);

\televentyConfig.addShortcode("currentBuildDate", () => new Date().toISOString());
}

export const config = {
\ttemplateFormats: ["md", "njk", "html", "liquid", "11ty.js"],
\tmarkdownTemplateEngine: "njk",
\thtmlTemplateEngine: "njk",
\tdir: {
\t\tinput: "content",
\t\tincludes: "../_includes",
\t\tdata: "../_data",
\t\toutput: "_site",
\t},
};
""",
    "_config/filters.js": """import { DateTime } from "luxon";

export default function (eleventyConfig) {
\televentyConfig.addFilter("readableDate", (dateObj, format, zone) =>
\t\tDateTime.fromJSDate(dateObj, { zone: zone || "utc" }).toFormat(format || "dd LLLL yyyy"));

\televentyConfig.addFilter("htmlDateString", (dateObj) =>
\t\tDateTime.fromJSDate(dateObj, { zone: "utc" }).toFormat("yyyy-LL-dd"));

\t// The first n items of an array (the last n for a negative n).
\televentyConfig.addFilter("head", (array, n) => {
\t\tif (!Array.isArray(array) || array.length === 0) {
\t\t\treturn [];
\t\t}
\t\treturn n < 0 ? array.slice(n) : array.slice(0, n);
\t});

\t// The smallest of its arguments.
\televentyConfig.addFilter("min", (...numbers) => Math.min.apply(null, numbers));

\televentyConfig.addFilter("getKeys", (target) => Object.keys(target));

\televentyConfig.addFilter("filterTagList", (tags) =>
\t\t(tags || []).filter((tag) => ["all", "posts"].indexOf(tag) === -1));

\televentyConfig.addFilter("sortAlphabetically", (strings) =>
\t\t(strings || []).sort((a, b) => a.localeCompare(b)));

\t// slugify drops letters it cannot transliterate (a tag in Chinese or Japanese would have an
\t// empty slug, two of them the same page): those tags keep their own name in the URL.
\tconst slugify = eleventyConfig.getFilter("slugify");
\televentyConfig.addFilter("tagSlug", (tag) => slugify(tag) || tag);
}
""",
    "_data/metadata.js": """export default {
\ttitle: "Small Lessons",
\turl: "https://eleventy-base-blog.heldout.example/",
\tlanguage: "en",
\tdescription: "Short programming lessons, one idea a post.",
\tauthor: {
\t\tname: "Ana Lima",
\t\temail: "ana@ana-lima.example",
\t\turl: "https://ana-lima.example/",
\t},
};
""",
    "_includes/layouts/base.njk": """<!doctype html>
<html lang="{{ metadata.language }}">
\t<head>
\t\t<meta charset="utf-8">
\t\t<meta name="viewport" content="width=device-width, initial-scale=1.0">
\t\t<title>{{ title or metadata.title }}</title>
\t\t<meta name="description" content="{{ description or metadata.description }}">
\t\t<link rel="alternate" href="/feed/feed.xml" type="application/atom+xml" title="{{ metadata.title }}">
\t\t<link rel="stylesheet" href="/css/index.css">
\t\t{#- Per-page CSS (Prism's theme on posts) #}
\t\t<style>{% getBundle "css" %}</style>
\t</head>
\t<body>
\t\t<a href="#main" id="skip-link" class="visually-hidden">Skip to main content</a>

\t\t<header>
\t\t\t<a href="/" class="home-link">{{ metadata.title }}</a>
\t\t\t<nav>
\t\t\t\t<h2 class="visually-hidden">Top level navigation menu</h2>
\t\t\t\t<ul class="nav">
\t\t\t\t{%- for entry in collections.all | eleventyNavigation %}
\t\t\t\t\t<li class="nav-item"><a href="{{ entry.url }}"{% if entry.url == page.url %} aria-current="page"{% endif %}>{{ entry.title }}</a></li>
\t\t\t\t{%- endfor %}
\t\t\t\t</ul>
\t\t\t</nav>
\t\t</header>

\t\t<main id="main">
\t\t\t<heading-anchors>
\t\t\t{{ content | safe }}
\t\t\t</heading-anchors>
\t\t</main>

\t\t<footer>
\t\t\t<p><em>Built with <a href="https://www.11ty.dev/">Eleventy v{{ eleventy.version }}</a></em></p>
\t\t</footer>
\t</body>
</html>
""",
    "_includes/layouts/home.njk": """---
layout: layouts/base.njk
---
{{ content | safe }}
""",
    "_includes/layouts/post.njk": """---
layout: layouts/base.njk
---
{#- Prism's theme, only on posts #}
{%- css %}{% include "node_modules/prismjs/themes/prism-okaidia.css" %}{% endcss %}
<h1>{{ title }}</h1>

<ul class="post-metadata">
\t<li><time datetime="{{ page.date | htmlDateString }}">{{ page.date | readableDate }}</time></li>
\t{%- for tag in tags | filterTagList %}
\t<li><a href="/tags/{{ tag | tagSlug }}/" class="post-tag">{{ tag }}</a>{%- if not loop.last %}, {% endif %}</li>
\t{%- endfor %}
</ul>

{{ content | safe }}

{%- if collections.posts %}
{%- set previousPost = collections.posts | getPreviousCollectionItem %}
{%- set nextPost = collections.posts | getNextCollectionItem %}
{%- if nextPost or previousPost %}
<ul class="links-nextprev">
\t{%- if previousPost %}<li class="links-nextprev-prev">← Previous<br> <a href="{{ previousPost.url }}">{{ previousPost.data.title }}</a></li>{% endif %}
\t{%- if nextPost %}<li class="links-nextprev-next">Next →<br><a href="{{ nextPost.url }}">{{ nextPost.data.title }}</a></li>{% endif %}
</ul>
{%- endif %}
{%- endif %}
""",
    "_includes/postslist.njk": """{%- css %}.postlist { counter-reset: start-from {{ (postslistCounter or postslist.length) + 1 }} }{% endcss %}
<ol reversed class="postlist">
{%- for post in postslist | reverse %}
\t<li class="postlist-item{% if post.url == url %} postlist-item-active{% endif %}">
\t\t<a href="{{ post.url }}" class="postlist-link">{% if post.data.title %}{{ post.data.title }}{% else %}<code>{{ post.url }}</code>{% endif %}</a>
\t\t<time class="postlist-date" datetime="{{ post.date | htmlDateString }}">{{ post.date | readableDate("LLLL yyyy") }}</time>
\t</li>
{%- endfor %}
</ol>
""",
    "content/index.njk": """---
layout: layouts/home.njk
eleventyNavigation:
  key: Home
  order: 1
---
{%- set numberOfLatestPostsToShow = 3 %}
{% set postsCount = collections.posts | length %}
{% set latestPostsCount = postsCount | min(numberOfLatestPostsToShow) %}
<h1>Latest {{ latestPostsCount }} Post{% if latestPostsCount != 1 %}s{% endif %}</h1>

{% set postslistCounter = postsCount %}
{% set postslist = collections.posts | head(-1 * numberOfLatestPostsToShow) %}
{% include "postslist.njk" %}

{% set morePosts = postsCount - numberOfLatestPostsToShow %}
{% if morePosts > 0 %}
<p>{{ morePosts }} more post{% if morePosts != 1 %}s{% endif %} can be found in <a href="blog.njk">the archive</a>.</p>
{% endif %}
""",
    "content/blog.njk": """---
layout: layouts/home.njk
eleventyNavigation:
  key: Archive
  order: 2
---
<h1>Archive</h1>

{% set postslist = collections.posts %}
{% include "postslist.njk" %}
""",
    "content/tags.njk": """---
layout: layouts/home.njk
permalink: /tags/
eleventyNavigation:
  key: Tags
  order: 3
---
<h1>Tags</h1>

<ul>
{% for tag in collections | getKeys | filterTagList | sortAlphabetically %}
\t<li><a href="/tags/{{ tag | tagSlug }}/" class="post-tag">{{ tag }}</a></li>
{% endfor %}
</ul>
""",
    "content/tag-pages.njk": """---
layout: layouts/home.njk
pagination:
  data: collections
  size: 1
  alias: tag
  filter: ["all", "posts"]
eleventyExcludeFromCollections: true
eleventyComputed:
  title: Tagged “{{ tag }}”
permalink: /tags/{{ tag | tagSlug }}/
---
<h1>Tagged “{{ tag }}”</h1>

{% set postslist = collections[ tag ] %}
{% include "postslist.njk" %}

<p>See <a href="tags.njk">all tags</a>.</p>
""",
    "content/404.md": """---
layout: layouts/home.njk
permalink: 404.html
eleventyExcludeFromCollections: true
---
# Content not found.

Go <a href="index.njk">home</a>.
""",
    "content/sitemap.xml.njk": """---
permalink: /sitemap.xml
layout: false
eleventyExcludeFromCollections: true
---
<?xml version="1.0" encoding="utf-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
{%- for page in collections.all %}
\t{% set absoluteUrl %}{{ page.url | htmlBaseUrl(metadata.url) }}{% endset %}
\t<url>
\t\t<loc>{{ absoluteUrl }}</loc>
\t\t<lastmod>{{ page.date | htmlDateString }}</lastmod>
\t</url>
{%- endfor %}
</urlset>
""",
    "content/blog/blog.11tydata.js": """export default {
\ttags: ["posts"],
\tlayout: "layouts/post.njk",
};
""",
    "public/css/index.css": """/* The base blog's look, in short */
:root {
\t--color-gray-20: #e0e0e0;
\t--color-gray-50: #c0c0c0;
\t--color-gray-90: #333;
\t--background-color: #fff;
\t--text-color: var(--color-gray-90);
\t--text-color-link: #082840;
\t--syntax-tab-size: 2;
}
* { box-sizing: border-box; }
html, body { padding: 0; margin: 0 auto; font-family: -apple-system, system-ui, sans-serif;
\tcolor: var(--text-color); background-color: var(--background-color); }
body { max-width: 40em; }
.visually-hidden:not(:focus):not(:active) { clip: rect(0 0 0 0); clip-path: inset(50%);
\theight: 1px; overflow: hidden; position: absolute; white-space: nowrap; width: 1px; }
a[href] { color: var(--text-color-link); }
main, footer { padding: 1rem; }
header { display: flex; gap: 1em; flex-wrap: wrap; justify-content: space-between;
\talign-items: center; padding: 1em; border-bottom: 1px dashed var(--color-gray-20); }
.home-link { flex-grow: 1; font-size: 1em; font-weight: 700; }
.nav { display: flex; gap: .5em 1em; padding: 0; margin: 0; list-style: none; }
table { margin: 1em 0; }
table td, table th { padding-right: 1em; }
pre, code { font-family: Consolas, Menlo, Monaco, monospace; }
pre:not([class*="language-"]) { margin: .5em 0; line-height: 1.375; tab-size: var(--syntax-tab-size);
\ttext-align: left; white-space: pre; direction: ltr; overflow-x: auto; }
.postlist { counter-reset: start-from var(--postlist-index); list-style: none; padding: 0; padding-left: 1.5rem; }
.postlist-item { display: flex; flex-wrap: wrap; align-items: baseline; counter-increment: start-from -1; margin-bottom: 1em; }
.postlist-item:before { display: inline-block; pointer-events: none; content: "" counter(start-from, decimal-leading-zero) ". ";
\tline-height: 100%; text-align: right; margin-left: -1.5rem; }
.postlist-date, .postlist-item:before { font-size: .8125em; color: var(--color-gray-90); }
.postlist-date { word-spacing: -.5px; }
.postlist-link { font-size: 1.1875em; font-weight: 700; flex-basis: calc(100% - 1.5rem);
\tpadding-left: .25em; padding-right: .5em; text-underline-position: from-font; text-underline-offset: 0; text-decoration-thickness: 1px; }
.post-tag { display: inline-flex; align-items: center; justify-content: center; text-transform: capitalize; font-style: italic; }
.postlist-item > .post-tag { align-self: center; }
.post-metadata { display: inline-flex; flex-wrap: wrap; gap: .5em; list-style: none; padding: 0; margin: 0; }
.post-metadata time { margin-right: 1em; }
.links-nextprev { display: flex; justify-content: space-between; gap: .5em 1em; list-style: "";
\tborder-top: 1px dashed var(--color-gray-20); padding: 1em 0; }
.links-nextprev > * { flex-grow: 1; }
.links-nextprev-next { text-align: right; }
""",
}


def eleventy_base_blog() -> None:
    """Eleventy 3 with the layout of its official base blog: content/blog/<slug>.md at
    /blog/<slug>/, tag pages, the archive, the Atom feed, the sitemap, Prism."""
    src = _fresh("eleventy-base-blog")
    for p in POSTS:
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
            f"description: {json.dumps(_description(p), ensure_ascii=False)}\ndate: {p.date}\n"
            f"tags: {_yaml_list(p.tags)}\n" + ("draft: true\n" if p.draft else "") + "---\n"
        )
        _write(src / "content" / "blog" / f"{p.slug}.md", front + p.body)
    _write(
        src / "content" / "about.md",
        f"---\nlayout: layouts/base.njk\neleventyNavigation:\n  key: {ABOUT.title}\n  order: 3\n---\n"
        f"# {ABOUT.title}\n\n{ABOUT.body}",
    )
    for rel, text in ELEVENTY_BASE_BLOG_FILES.items():
        _write(src / rel, text)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-eleventy-base-blog",
                "version": "9.0.0",
                "private": True,
                "type": "module",
                "scripts": {"build": "npx @11ty/eleventy"},
                "engines": {"node": ">=18"},
                "dependencies": {
                    d: "*"
                    for d in (
                        "@11ty/eleventy",
                        "@11ty/eleventy-navigation",
                        "@11ty/eleventy-plugin-rss",
                        "@11ty/eleventy-plugin-syntaxhighlight",
                        "luxon",
                    )
                },
            },
            indent=1,
        )
        + "\n",
    )


JEKYLL_CONFIG = """# Jekyll 4.3 from Debian (jekyll, jekyll-theme-minima, ruby-jekyll-*): minima, the feed,
# SEO tags, the sitemap, jekyll-paginate on the home page and jekyll-archives' category, tag, year
# and month pages. Posts keep Jekyll's default permalink (`date`:
# /:categories/:year/:month/:day/:title.html).
title: Small Lessons
author: Ana Lima
email: ana@example.com
description: Short programming lessons.
url: https://jekyll-deb.heldout.example
baseurl: ""
lang: en
timezone: UTC
theme: minima
markdown: kramdown
plugins:
  - jekyll-feed
  - jekyll-seo-tag
  - jekyll-sitemap
  - jekyll-paginate
  - jekyll-archives
paginate: 5
paginate_path: /page:num/
show_excerpts: true
# minima puts every page with a title in its header; the archives have titles too.
header_pages:
  - about.md
jekyll-archives:
  enabled: [categories, tags, year, month]
  layout: archive
  permalinks:
    year: /:year/
    month: /:year/:month/
    tag: /tag/:name/
    category: /category/:name/
minima:
  social_links:
    rss: rss
"""


#: The home page as jekyll-paginate wants it (index.html, paginator.posts), in minima's home
#: layout's markup, with the pagination links of Jekyll's pagination docs.
JEKYLL_INDEX = """---
layout: default
---
<div class="home">
  <h2 class="post-list-heading">Posts</h2>
  <ul class="post-list">
    {%- for post in paginator.posts -%}
    <li>
      {%- assign date_format = site.minima.date_format | default: "%b %-d, %Y" -%}
      <span class="post-meta">{{ post.date | date: date_format }}</span>
      <h3>
        <a class="post-link" href="{{ post.url | relative_url }}">{{ post.title | escape }}</a>
      </h3>
      {%- if site.show_excerpts -%}
        {{ post.excerpt }}
      {%- endif -%}
    </li>
    {%- endfor -%}
  </ul>
  {% if paginator.total_pages > 1 %}
  <div class="pagination">
    {% if paginator.previous_page %}
      <a href="{{ paginator.previous_page_path | relative_url }}">&laquo; Prev</a>
    {% else %}
      <span>&laquo; Prev</span>
    {% endif %}
    {% for page in (1..paginator.total_pages) %}
      {% if page == paginator.page %}
        <em>{{ page }}</em>
      {% elsif page == 1 %}
        <a href="{{ '/' | relative_url }}">{{ page }}</a>
      {% else %}
        <a href="{{ site.paginate_path | relative_url | replace: ':num', page }}">{{ page }}</a>
      {% endif %}
    {% endfor %}
    {% if paginator.next_page %}
      <a href="{{ paginator.next_page_path | relative_url }}">Next &raquo;</a>
    {% else %}
      <span>Next &raquo;</span>
    {% endif %}
  </div>
  {% endif %}
  <p class="rss-subscribe">subscribe <a href="{{ "/feed.xml" | relative_url }}">via RSS</a></p>
</div>
"""


#: jekyll-archives' layout (its README's example, in minima's post-list markup).
JEKYLL_ARCHIVE = """---
layout: default
---
<div class="home">
  {% if page.type == "year" %}
  <h1 class="page-heading">{{ page.date | date: "%Y" }}</h1>
  {% elsif page.type == "month" %}
  <h1 class="page-heading">{{ page.date | date: "%B %Y" }}</h1>
  {% else %}
  <h1 class="page-heading">{{ page.type | capitalize }}: {{ page.title }}</h1>
  {% endif %}
  <ul class="post-list">
    {%- for post in page.posts -%}
    <li>
      <span class="post-meta">{{ post.date | date: "%b %-d, %Y" }}</span>
      <h3><a class="post-link" href="{{ post.url | relative_url }}">{{ post.title | escape }}</a></h3>
    </li>
    {%- endfor -%}
  </ul>
</div>
"""


def jekyll_deb() -> None:
    """Jekyll from Debian with minima: ``_posts/YYYY-MM-DD-slug.md``, the draft in ``_drafts``."""
    src = _fresh("jekyll-deb")
    for p in POSTS:
        front = (
            f"---\nlayout: post\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
            f"date: {p.date} 09:30:00 +0000\ncategories: {p.category}\n"
            f"tags: {_yaml_list(p.tags)}\nauthor: Ana Lima\n---\n\n"
        )
        path = f"_drafts/{p.slug}.md" if p.draft else f"_posts/{p.date}-{p.slug}.md"
        _write(src / path, front + p.body)
    _write(
        src / "about.md",
        f"---\nlayout: page\ntitle: {ABOUT.title}\npermalink: /about/\n---\n\n{ABOUT.body}",
    )
    _write(src / "index.html", JEKYLL_INDEX)
    _write(src / "_layouts" / "archive.html", JEKYLL_ARCHIVE)
    _write(src / "_config.yml", JEKYLL_CONFIG)


HUGO_CONFIG = """baseURL = 'https://hugo-deb.heldout.example/'
languageCode = 'en-us'
title = 'Small Lessons'
theme = 'small'
paginate = 5

[params]
  author = 'Ana Lima'
  description = 'Short programming lessons.'

[taxonomies]
  tag = 'tags'
  category = 'categories'

[menu]
  [[menu.main]]
    name = 'Home'
    url = '/'
    weight = 1
  [[menu.main]]
    name = 'Posts'
    url = '/posts/'
    weight = 2
  [[menu.main]]
    name = 'Tags'
    url = '/tags/'
    weight = 3
  [[menu.main]]
    name = 'Categories'
    url = '/categories/'
    weight = 4
  [[menu.main]]
    name = 'About'
    url = '/about/'
    weight = 5
"""


#: ``hugo new theme small`` (Hugo 0.111.3) writes these two as they are here, and empty
#: 404.html, _default/list.html, _default/single.html, index.html and the head, header and
#: footer partials: those are filled below with what a blog needs (lists with pagination,
#: taxonomies, the post's date and terms), in the manner of Hugo's docs.
HUGO_THEME_GENERATED = {
    "layouts/_default/baseof.html": """<!DOCTYPE html>
<html>
    {{- partial "head.html" . -}}
    <body>
        {{- partial "header.html" . -}}
        <div id="content">
        {{- block "main" . }}{{- end }}
        </div>
        {{- partial "footer.html" . -}}
    </body>
</html>
""",
    "theme.toml": """# theme.toml template for a Hugo theme
# See https://github.com/gohugoio/hugoThemes#themetoml for an example

name = "Small"
license = "MIT"
licenselink = "https://github.com/yourname/yourtheme/blob/master/LICENSE"
description = ""
homepage = "http://example.com/"
tags = []
features = []
min_version = "0.41.0"

[author]
  name = ""
  homepage = ""

# If porting an existing theme
[original]
  name = ""
  homepage = ""
  repo = ""
""",
    "archetypes/default.md": "+++\n+++\n",
}


HUGO_THEME_FILLED = {
    "layouts/partials/head.html": """<head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{ if .IsHome }}{{ site.Title }}{{ else }}{{ .Title }} | {{ site.Title }}{{ end }}</title>
    <meta name="description" content="
      {{- with .Description }}{{ . }}{{ else }}{{ with .Summary }}{{ . | plainify | truncate 160 }}
      {{- else }}{{ site.Params.description }}{{ end }}{{ end }}">
    <link rel="canonical" href="{{ .Permalink }}">
    <link rel="stylesheet" href="{{ "css/style.css" | relURL }}">
    {{ range .AlternativeOutputFormats -}}
    {{ printf `<link rel="%s" type="%s" href="%s" title="%s" />`
        .Rel .MediaType.Type .Permalink site.Title | safeHTML }}
    {{ end -}}
</head>
""",
    "layouts/partials/header.html": """<header>
    <a class="site-title" href="{{ "/" | relURL }}">{{ site.Title }}</a>
    <nav>
        <ul>
        {{- range site.Menus.main }}
            <li><a href="{{ .URL | relURL }}">{{ .Name }}</a></li>
        {{- end }}
        </ul>
    </nav>
</header>
""",
    "layouts/partials/footer.html": """<footer>
    <p>&copy; 2024 {{ site.Params.author }}. <a href="{{ "index.xml" | absURL }}">RSS</a></p>
</footer>
""",
    "layouts/partials/terms.html": """{{- $page := .page }}
{{- $taxonomy := .taxonomy }}
{{- with $page.GetTerms $taxonomy }}
  {{- $label := (index . 0).Parent.LinkTitle }}
  <div class="terms">
    <span>{{ $label }}:</span>
    <ul>
      {{- range . }}
      <li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>
      {{- end }}
    </ul>
  </div>
{{- end }}
""",
    "layouts/partials/pagination.html": """{{- $paginator := .Paginator }}
{{- if gt $paginator.TotalPages 1 }}
<nav class="pagination">
  {{- with $paginator.Prev }}<a href="{{ .URL }}">&larr; Newer</a>{{ end }}
  <span>Page {{ $paginator.PageNumber }} of {{ $paginator.TotalPages }}</span>
  {{- with $paginator.Next }}<a href="{{ .URL }}">Older &rarr;</a>{{ end }}
</nav>
{{- end }}
""",
    "layouts/partials/summary.html": """<article class="summary">
    <h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
    <time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">
      {{- .Date.Format "January 2, 2006" }}</time>
    <p>{{ .Summary | plainify | truncate 200 }}</p>
    <a href="{{ .RelPermalink }}">Read more</a>
</article>
""",
    "layouts/index.html": """{{ define "main" }}
<h1>{{ site.Title }}</h1>
{{ .Content }}
{{- range (.Paginate (where site.RegularPages "Section" "posts")).Pages }}
  {{ partial "summary.html" . }}
{{- end }}
{{ partial "pagination.html" . }}
{{ end }}
""",
    "layouts/_default/list.html": """{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ .Content }}
{{- range .Paginator.Pages }}
  {{ partial "summary.html" . }}
{{- end }}
{{ partial "pagination.html" . }}
{{ end }}
""",
    "layouts/_default/terms.html": """{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{- range .Data.Terms.Alphabetical }}
  <li><a href="{{ .Page.RelPermalink }}">{{ .Page.LinkTitle }}</a> ({{ .Count }})</li>
{{- end }}
</ul>
{{ end }}
""",
    "layouts/_default/single.html": """{{ define "main" }}
<article>
  <h1>{{ .Title }}</h1>
  {{- if .IsPage }}{{ if ne .Section "" }}{{ if not .Date.IsZero }}
  <p class="meta"><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">
    {{- .Date.Format "January 2, 2006" }}</time> &middot; {{ .ReadingTime }} min read</p>
  {{- end }}{{ end }}{{ end }}
  {{ .Content }}
  {{ partial "terms.html" (dict "taxonomy" "tags" "page" .) }}
  {{ partial "terms.html" (dict "taxonomy" "categories" "page" .) }}
</article>
{{- if eq .Section "posts" }}
<nav class="prev-next">
  {{- with .PrevInSection }}<a href="{{ .RelPermalink }}">&larr; {{ .Title }}</a>{{ end }}
  {{- with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }} &rarr;</a>{{ end }}
</nav>
{{- end }}
{{ end }}
""",
    "layouts/404.html": """{{ define "main" }}
<h1>Page not found</h1>
<p><a href="{{ "/" | relURL }}">Back home</a></p>
{{ end }}
""",
    "static/css/style.css": """body {
  max-width: 46rem; margin: 0 auto; padding: 1rem; font-family: sans-serif; line-height: 1.5;
}
header nav ul, .terms ul { list-style: none; padding: 0; display: inline; }
header nav li, .terms li { display: inline; margin-right: .75rem; }
.site-title { font-weight: bold; font-size: 1.4rem; }
.highlight pre { padding: .75rem; overflow-x: auto; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .25rem .5rem; }
footer { margin-top: 3rem; color: #666; font-size: .9rem; }
""",
}


def hugo_deb() -> None:
    """Hugo from Debian with a theme begun by ``hugo new theme``: posts in content/posts/."""
    src = _fresh("hugo-deb")
    theme = src / "themes" / "small"
    for rel, text in {**HUGO_THEME_GENERATED, **HUGO_THEME_FILLED}.items():
        _write(theme / rel, text)
    for p in POSTS:
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date}T09:30:00Z\n"
            f"tags: {_yaml_list(p.tags)}\ncategories: [{p.category}]\n"
            + ("draft: true\n" if p.draft else "")
            + "---\n\n"
        )
        _write(src / "content" / "posts" / f"{p.slug}.md", front + p.body)
    _write(src / "content" / "about.md", f"---\ntitle: {ABOUT.title}\n---\n\n{ABOUT.body}")
    _write(src / "hugo.toml", HUGO_CONFIG)


NEXTRA_TABS = """import { Callout, Tabs } from 'nextra/components'

# Installing the command-line tool

The tool ships for Python and Node.js; pick one.

<Tabs items={['pip', 'npm']}>
  <Tabs.Tab>

```bash
pip install lessons-cli
```

  </Tabs.Tab>
  <Tabs.Tab>

```bash
npm install --global lessons-cli
```

  </Tabs.Tab>
</Tabs>

<Callout type="warning">
  **Python 3.10 or later**: older versions lack `zoneinfo`; the tool refuses to start on them.
</Callout>

Check the installation:

```bash
lessons --version
```
"""


NEXTRA_CONFIG = """import nextra from 'nextra'

const withNextra = nextra({
  defaultShowCopyCode: true
})

// A static export (every page pre-rendered to HTML), one folder per page (/guide/install/).
export default withNextra({
  output: 'export',
  trailingSlash: true,
  images: { unoptimized: true }
})
"""


NEXTRA_LAYOUT = """import { Footer, Layout, Navbar } from 'nextra-theme-docs'
import { Head } from 'nextra/components'
import { getPageMap } from 'nextra/page-map'
import 'nextra-theme-docs/style.css'

export const metadata = {
  metadataBase: new URL('https://nextra.heldout.example'),
  title: { default: 'Small Lessons', template: '%s – Small Lessons' },
  description: 'Short programming lessons.'
}

const navbar = <Navbar logo={<b>Small Lessons</b>} projectLink="https://github.com/example/small-lessons" />
const footer = <Footer>CC0 © Small Lessons.</Footer>

export default async function RootLayout({ children }) {
  return (
    <html lang="en" dir="ltr" suppressHydrationWarning>
      <Head />
      <body>
        <Layout
          navbar={navbar}
          pageMap={await getPageMap()}
          docsRepositoryBase="https://github.com/example/small-lessons/tree/main"
          footer={footer}
        >
          {children}
        </Layout>
      </body>
    </html>
  )
}
"""


NEXTRA_PAGE = """import { generateStaticParamsFor, importPage } from 'nextra/pages'
import { useMDXComponents as getMDXComponents } from '../../mdx-components'

export const generateStaticParams = generateStaticParamsFor('mdxPath')

export async function generateMetadata(props) {
  const params = await props.params
  const { metadata } = await importPage(params.mdxPath)
  const path = (params.mdxPath || []).map(part => part + '/').join('')
  return { ...metadata, alternates: { canonical: '/' + path } }
}

const Wrapper = getMDXComponents().wrapper

export default async function Page(props) {
  const params = await props.params
  const { default: MDXContent, toc, metadata, sourceCode } = await importPage(params.mdxPath)
  return (
    <Wrapper toc={toc} metadata={metadata} sourceCode={sourceCode}>
      <MDXContent {...props} params={params} />
    </Wrapper>
  )
}
"""


NEXTRA_MDX_COMPONENTS = """import { useMDXComponents as getThemeComponents } from 'nextra-theme-docs'

const themeComponents = getThemeComponents()

export function useMDXComponents(components) {
  return { ...themeComponents, ...components }
}
"""


def _js_object(entries: dict[str, str]) -> str:
    return "export default " + json.dumps(entries, ensure_ascii=False, indent=2) + "\n"


def nextra() -> None:
    """Nextra 4 (docs theme) on Next.js, statically exported: a content folder of Markdown pages
    in three sections (``_meta.js`` for their order and titles), a catch-all App Router page, the
    install page in MDX with Nextra's Tabs and Callout, a sitemap from Next's ``app/sitemap.js``."""
    src = _fresh("nextra")
    content = src / "content"
    by_section: dict[str, list[Post]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        by_section.setdefault(section, []).append(p)
        _write(content / section / f"{p.slug}.md", _myst_body(p))
    _write(content / "guide" / "install.mdx", NEXTRA_TABS)
    _write(content / "index.mdx", "# Small Lessons\n\nShort programming lessons. Start with the guide.\n")
    _write(
        content / "_meta.js",
        _js_object({"index": "Home", "guide": "Guide", "reference": "Reference", "appendix": "Appendix"}),
    )
    routes = ["/"]
    for section in ("guide", "reference", "appendix"):
        order = ({"install": INSTALL_TITLE} if section == "guide" else {}) | {
            p.slug: p.title for p in by_section[section]
        }
        _write(content / section / "_meta.js", _js_object(order))
        routes += [f"/{section}/{slug}/" for slug in order]
    _write(src / "next.config.mjs", NEXTRA_CONFIG)
    _write(src / "mdx-components.js", NEXTRA_MDX_COMPONENTS)
    _write(src / "app" / "layout.jsx", NEXTRA_LAYOUT)
    _write(src / "app" / "[[...mdxPath]]" / "page.jsx", NEXTRA_PAGE)
    _write(
        src / "app" / "sitemap.js",
        "export const dynamic = 'force-static'\n\nconst ROUTES = "
        + json.dumps(routes, indent=2)
        + "\n\nexport default function sitemap() {\n"
        "  return ROUTES.map(route => ({ url: 'https://nextra.heldout.example' + route }))\n}\n",
    )
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-nextra",
                "version": "0.0.1",
                "private": True,
                "scripts": {"build": "next build"},
                "dependencies": {
                    d: "*" for d in ("next", "nextra", "nextra-theme-docs", "react", "react-dom")
                },
            },
            indent=1,
        )
        + "\n",
    )


WRITERS = {
    "pelican": pelican,
    "hexo": hexo,
    "mkdocs": mkdocs,
    "sphinx-furo": sphinx_furo,
    "ablog": ablog,
    "nikola": nikola,
    "vitepress": vitepress,
    "vuepress-hope": vuepress_hope,
    "sphinx-rtd": sphinx_rtd,
    "lektor": lektor,
    "starlight": starlight,
    "astro-blog": astro_blog,
    "mkdocs-rtd": mkdocs_rtd,
    "sphinx-pydata": sphinx_pydata,
    "docusaurus-blog": docusaurus_blog,
    "jupyter-book": jupyter_book,
    "hexo-next": hexo_next,
    "eleventy-base-blog": eleventy_base_blog,
    "jekyll-deb": jekyll_deb,
    "hugo-deb": hugo_deb,
    "nextra": nextra,
    "gatsby-blog": lambda: __import__("src_gatsby_blog").gatsby_blog(),
    "zensical": lambda: __import__("src_zensical").zensical(),
    "wordpress": lambda: __import__("src_wordpress").wordpress(),
    "rspress": lambda: __import__("src_rspress").rspress(),
    "vuepress-reco": lambda: __import__("src_vuepress_reco").vuepress_reco(),
    "hexo-butterfly": lambda: __import__("src_hexo_butterfly").hexo_butterfly(),
    "hexo-fluid": lambda: __import__("src_hexo_fluid").hexo_fluid(),
    "ghost": ghost,
    "honkit": lambda: __import__("src_honkit").honkit(),
    "ikiwiki": lambda: __import__("src_ikiwiki").ikiwiki(),
    "texinfo": lambda: __import__("src_texinfo").texinfo(),
    "fumadocs": lambda: __import__("src_fumadocs").fumadocs(),
    "mediawiki": lambda: __import__("src_mediawiki").mediawiki(),
    "docus": lambda: __import__("src_docus").docus(),
    "dokuwiki": lambda: __import__("src_dokuwiki").dokuwiki(),
    "hexo-icarus": lambda: __import__("src_hexo_icarus").hexo_icarus(),
    "docbook": lambda: __import__("src_docbook").docbook(),
    "wordpress-classic": lambda: __import__("src_wordpress").wordpress_classic(),
    "asciidoctor": lambda: __import__("src_asciidoctor").asciidoctor(),
    "org-publish": lambda: __import__("src_org_publish").org_publish(),
    "tiddlywiki": lambda: __import__("src_tiddlywiki").tiddlywiki(),
    "typedoc": lambda: __import__("src_typedoc").typedoc(),
    "jsdoc": lambda: __import__("src_jsdoc").jsdoc(),
    "nanoc": lambda: __import__("src_nanoc").nanoc(),
    "trac": lambda: __import__("src_trac").trac(),
    "blosxom": lambda: __import__("src_blosxom").blosxom(),
    "chronicle": lambda: __import__("src_chronicle").chronicle(),
    "pdoc": lambda: __import__("src_pdoc").pdoc(),
    "staticsite": lambda: __import__("src_staticsite").staticsite(),
    "doxygen": lambda: __import__("src_doxygen").doxygen(),
    "gitit": lambda: __import__("src_gitit").gitit(),
    "wintersmith": lambda: __import__("src_wintersmith").wintersmith(),
    "hakyll": lambda: __import__("src_hakyll").hakyll(),
    "sphinx-alabaster": lambda: __import__("src_sphinx_alabaster").sphinx_alabaster(),
    "wagtail": lambda: __import__("src_wagtail").wagtail(),
    "vocs": lambda: __import__("src_vocs").vocs(),
    "retype": lambda: __import__("src_retype").retype(),
    "mezzanine": lambda: __import__("src_mezzanine").mezzanine(),
    "dumi": lambda: __import__("src_dumi").dumi(),
    "asciidoc-py": lambda: __import__("src_asciidoc_py").asciidoc_py(),
    "nextjs": lambda: __import__("src_nextjs").nextjs(),
    "sveltekit": lambda: __import__("src_sveltekit").sveltekit(),
    "nuxt-content": lambda: __import__("src_nuxt_content").nuxt_content(),
    "pandoc": lambda: __import__("src_pandoc").pandoc(),
    "metalsmith": lambda: __import__("src_metalsmith").metalsmith(),
    "vitepress-sugarat": lambda: __import__("src_vitepress_sugarat").vitepress_sugarat(),
    "tinkerer": lambda: __import__("src_tinkerer").tinkerer(),
    "zim": lambda: __import__("src_zim").zim(),
    "latexml": lambda: __import__("src_latexml").latexml(),
    "rustdoc": lambda: __import__("src_rustdoc").rustdoc(),
    "nbconvert": lambda: __import__("src_nbconvert").nbconvert(),
    "bookdown": lambda: __import__("src_bookdown").bookdown(),
    "javadoc": lambda: __import__("src_javadoc").javadoc(),
    "mkdocs-material-blog": lambda: __import__("src_mkdocs_material_blog").mkdocs_material_blog(),
    "mdbook": lambda: __import__("src_mdbook").mdbook(),
    "pydoctor": lambda: __import__("src_pydoctor").pydoctor(),
    "fossil": lambda: __import__("src_fossil").fossil(),
    "yard": lambda: __import__("src_yard").yard(),
    "djangocms-blog": lambda: __import__("src_djangocms_blog").djangocms_blog(),
    "rdoc": lambda: __import__("src_rdoc").rdoc(),
    "urubu": lambda: __import__("src_urubu").urubu(),
    "haddock": lambda: __import__("src_haddock").haddock(),
    "harp": lambda: __import__("src_harp").harp(),
    "pod2html": lambda: __import__("src_pod2html").pod2html(),
    "mandoc": lambda: __import__("src_mandoc").mandoc(),
    "gtk-doc": lambda: __import__("src_gtk_doc").gtk_doc(),
    "pkgdown": lambda: __import__("src_pkgdown").pkgdown(),
    "valaxy": lambda: __import__("src_valaxy").valaxy(),
}


def main(names: list[str]) -> int:
    """Write the named generators' sources (all of them without a name)."""
    unknown = [n for n in names if n not in WRITERS]
    if unknown:
        print(f"write_sources: unknown generator {unknown}; known: {list(WRITERS)}", file=sys.stderr)
        return 2
    for name in names or WRITERS:
        WRITERS[name]()
    print(f"sources written under {ROOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
