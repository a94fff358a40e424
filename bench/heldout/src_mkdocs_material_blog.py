"""The ``mkdocs-material-blog`` held-out site: a blog made with Material for MkDocs' blog plugin.

    python bench/heldout/write_sources.py mkdocs-material-blog

Material for MkDocs (9.8.2 on MkDocs 1.6.1) as its "Setting up a blog" guide builds a blog: the
built-in ``blog`` plugin over ``docs/blog/`` (``blog/index.md`` the blog's index, every post a
file of ``blog/posts/``, authors in ``blog/.authors.yml``), the built-in ``tags`` plugin (each
post's ``tags``, one tags index page, ``tags.md``, with the plugin's ``<!-- material/tags -->``
listing marker), mkdocs-rss-plugin (the feeds the theme links in each page's head), the search
plugin, and the About page (``docs/about.md``) and a short home page (``docs/index.md``) beside
the blog in the navigation. The site is a blog, not docs: every post of the corpus is a blog post.

Each post: front matter ``date`` (``YYYY-MM-DD``), ``authors`` (``[ana]``), ``categories`` (the
post's category, capitalised as Material's docs write them), ``tags`` (the post's tags); ``draft:
true`` on the draft, which ``mkdocs build`` leaves out (the plugin's ``draft`` is off by
default). The title is the post's ``# Title``; no ``slug``: the plugin makes each post's URL from
its title (``post_slugify``, pymdownx's Unicode slugify in lower case: non-ASCII letters kept,
punctuation dropped, each space a dash), at ``/blog/YYYY/MM/DD/<slug>/`` (its default
``post_url_format``). ``<!-- more -->`` after the first paragraph (the plugin's excerpt
separator: the index, archive, category and author pages show the part above it and a "Continue
reading" link). The plugin's defaults otherwise, but for 5 posts a page (``/blog/page/N/``),
yearly archive pages (``/blog/archive/YYYY/``), category pages (``/blog/category/<slug>/``) and
the author's page (``authors_profiles``: ``/blog/author/ana/``).

Theme: Material's default look, ``theme.font: false`` (no Google Fonts link: nothing is fetched,
the system fonts), the features its blog guide and code block docs use (``navigation.tabs``,
``navigation.indexes``, ``navigation.top``, ``navigation.footer``, ``content.code.copy``,
``search.highlight``), a social link in the footer. Markdown extensions as Material's docs set
them up: admonition, details, attr_list, md_in_html, footnotes, tables, ``toc`` with permalinks,
``pymdownx.highlight`` with ``pygments_lang_class`` (``<div class="language-python highlight">``),
``anchor_linenums`` and ``line_spans``, ``pymdownx.inlinehilite``, ``pymdownx.superfences``.
"""

from __future__ import annotations

from corpus import ABOUT, POSTS, Post
from write_sources import _fresh, _more, _write, _yaml_list

SITE_URL = "https://mkdocs-material-blog.heldout.example/"

MKDOCS_YML = f"""site_name: Small Lessons
site_url: {SITE_URL}
site_author: Ana Lima
site_description: Short programming lessons, one idea a post.
copyright: "&copy; 2024 Ana Lima"

theme:
  name: material
  language: en
  font: false
  features:
    - navigation.tabs
    - navigation.indexes
    - navigation.top
    - navigation.footer
    - content.code.copy
    - search.highlight

plugins:
  - search
  - blog:
      pagination_per_page: 5
      archive: true
      categories: true
      authors: true
      authors_profiles: true
  - tags
  - rss:
      match_path: "blog/posts/.*"
      date_from_meta:
        as_creation: date
      categories:
        - categories
        - tags
      use_git: false

extra:
  social:
    - icon: fontawesome/brands/mastodon
      link: https://mastodon.example/@ana
      name: Ana Lima on Mastodon

markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - footnotes
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.highlight:
      anchor_linenums: true
      line_spans: __span
      pygments_lang_class: true
  - pymdownx.inlinehilite
  - pymdownx.superfences

nav:
  - Home: index.md
  - Blog:
      - blog/index.md
  - Tags: tags.md
  - About: about.md
"""

AUTHORS_YML = """authors:
  ana:
    name: Ana Lima
    description: Writes small lessons
    avatar: https://avatars.example/ana.png
"""

HOME = """# Small Lessons

Short programming lessons, one idea a post. Read the [blog](blog/index.md), browse the
[tags](tags.md), or learn more [about](about.md) this site.
"""


def _front(p: Post) -> str:
    lines = [
        "---",
        f"date: {p.date}",
        "authors:",
        "  - ana",
        "categories:",
        f"  - {p.category.title()}",
    ]
    if p.tags:
        lines.append(f"tags: {_yaml_list(p.tags)}")
    if p.draft:
        lines.append("draft: true")
    return "\n".join(lines) + "\n---\n\n"


def mkdocs_material_blog() -> None:
    src = _fresh("mkdocs-material-blog")
    docs = src / "docs"
    for p in POSTS:
        _write(docs / "blog" / "posts" / f"{p.slug}.md", _front(p) + f"# {p.title}\n\n{_more(p.body)}")
    _write(docs / "index.md", HOME)
    _write(docs / "about.md", f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(docs / "tags.md", "# Tags\n\n<!-- material/tags -->\n")
    _write(docs / "blog" / "index.md", "# Blog\n")
    _write(docs / "blog" / ".authors.yml", AUTHORS_YML)
    _write(src / "mkdocs.yml", MKDOCS_YML)
