"""Zensical's sources: a docs site in three sections with a blog, as its docs configure one.

Zensical (the static site generator of the Material for MkDocs team) reads ``zensical.toml``
(``[project]``: the MkDocs settings in TOML) and ships its own theme (the default, "modern"
variant) and native ports of Material's blog, tags and search plugins and of mkdocs-rss-plugin.
The layout is the ``mkdocs`` site's: the posts of :data:`write_sources.MKDOCS_BLOG` in the blog
(``docs/blog/posts``, dates, categories, tags, one author from ``.authors.yml``), the others docs
pages in three sections, the install page with content tabs and admonitions, plus the About page
(a page in the navigation) and a tags index (the tags plugin's listing marker). Theme features
as its docs show them: navigation tabs and sections, the footer's previous/next links, search,
code copy, linked content tabs.
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, POSTS
from write_sources import MKDOCS_BLOG, MKDOCS_TABS, _fresh, _install_page, _write, _yaml_list

SITE_URL = "https://zensical.heldout.example/"

ZENSICAL_TOML = """[project]
site_name = "Small Lessons"
site_url = "{site_url}"
site_author = "Ana Lima"
site_description = "Short programming lessons."
copyright = "&copy; 2024 Ana Lima"
nav = [
{nav}
]

[project.theme]
language = "en"
features = [
  "content.code.annotate",
  "content.code.copy",
  "content.tabs.link",
  "navigation.footer",
  "navigation.indexes",
  "navigation.path",
  "navigation.sections",
  "navigation.tabs",
  "navigation.top",
  "search.highlight",
]

[project.plugins.search]

[project.plugins.blog]
post_url_format = "{{date}}/{{slug}}"
pagination_per_page = 5
archive = true
categories = true
authors = true

[project.plugins.tags]

[project.plugins.rss]
match_path = "blog/posts/.*"
date_from_meta = {{ as_creation = "date" }}
categories = ["categories", "tags"]
use_git = false

[project.markdown_extensions]
abbr = {{}}
admonition = {{}}
attr_list = {{}}
def_list = {{}}
footnotes = {{}}
md_in_html = {{}}
tables = {{}}
toc.permalink = true
pymdownx.betterem = {{}}
pymdownx.details = {{}}
pymdownx.highlight.anchor_linenums = true
pymdownx.highlight.line_spans = "__span"
pymdownx.highlight.pygments_lang_class = true
pymdownx.inlinehilite = {{}}
pymdownx.keys = {{}}
pymdownx.mark = {{}}
pymdownx.superfences = {{}}
pymdownx.tabbed.alternate_style = true
pymdownx.tabbed.combine_header_slug = true
pymdownx.tasklist.custom_checkbox = true
"""

AUTHORS_YML = """authors:
  ana:
    name: Ana Lima
    description: Writes small lessons
    avatar: https://avatars.example/ana.png
"""


def zensical() -> None:
    src = _fresh("zensical")
    docs = src / "docs"
    nav_docs: dict[str, list[str]] = {}
    for p in POSTS:
        if p.slug in MKDOCS_BLOG:
            front = (
                f"---\ndate: {p.date}\nslug: {p.slug}\ncategories: [{p.category}]\n"
                f"tags: {_yaml_list(p.tags)}\nauthors: [ana]\n"
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
    _write(docs / "about.md", f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(docs / "blog" / "index.md", "# Blog\n")
    _write(docs / "blog" / ".authors.yml", AUTHORS_YML)
    _write(docs / "tags.md", "# Tags\n\n<!-- material/tags -->\n")

    def entry(title: str, pages: list[str] | str) -> str:
        return f"  {{ {json.dumps(title)} = {json.dumps(pages)} }},"

    nav = [entry("Home", "index.md"), entry("Guide", ["guide/install.md", *nav_docs["guide"]])]
    nav += [entry(section.title(), nav_docs[section]) for section in ("reference", "appendix")]
    nav += [entry("Blog", ["blog/index.md"]), entry("Tags", "tags.md"), entry("About", "about.md")]
    _write(src / "zensical.toml", ZENSICAL_TOML.format(site_url=SITE_URL, nav="\n".join(nav)))
