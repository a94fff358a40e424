"""Write the held-out sites' sources (``tests/fixtures/heldout/<generator>/src``) from corpus.py.

    python bench/heldout/write_sources.py [generator ...]

(all of them without arguments; a generator's folder name writes only its sources.)

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
    """Pelican's and ablog's feed writers refuse a character XML 1.0 does not allow: not theirs."""
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


def sphinx_furo() -> None:
    src = _fresh("sphinx-furo")
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
    _write(
        src / "conf.py",
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


WRITERS = {
    "pelican": pelican,
    "hexo": hexo,
    "mkdocs": mkdocs,
    "sphinx-furo": sphinx_furo,
    "ablog": ablog,
    "nikola": nikola,
    "vitepress": vitepress,
    "vuepress-hope": vuepress_hope,
}


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in WRITERS]
    if unknown:
        print(f"write_sources: unknown generator(s) {unknown}", file=sys.stderr)
        return 2
    for name in names or list(WRITERS):
        WRITERS[name]()
    print(f"sources written under {ROOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
