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
