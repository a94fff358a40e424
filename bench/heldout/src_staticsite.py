"""The ``staticsite`` held-out site: staticsite 2.3 (Debian 12), a blog as its documentation builds one.

    python bench/heldout/write_sources.py staticsite

staticsite is Enrico Zini's Python static site generator (``ssite build``): Markdown pages with
front matter, rendered by Python-Markdown (its ``extra``, ``codehilite`` and ``fenced_code``
extensions: Pygments at build time) into Jinja2 templates, its default theme Bootstrap 4 with
the assets Debian packages (``/usr/share/javascript``). The site follows its documentation's
blog tutorial and HOWTOs (``/usr/share/doc/staticsite/doc``): the top ``index.md`` is the blog
(``template: blog.html``, ``syndication: yes``: RSS and Atom feeds and an archive page beside it,
``pages: "posts/*"``: "Group blog posts in a directory"), ``nav`` puts the tags index and the About
page in the navbar ("Add an about page", "Tag site pages"); ``tags.taxonomy`` is the tags
taxonomy (an index of the tags, and for each tag a blog-like page, its archive and its RSS and
Atom feeds). No categories: a taxonomy named ``categories`` makes the default theme fail in 2.3
(the page field of that name hides the taxonomy page's ``categories`` property). ``.staticsite.py``
names the site, its URL, its author and time zone, and turns off the rebuild cache.

Each post is ``posts/<slug>.md`` (front matter ``title``, ``date`` as the documentation writes it,
``2023-01-15 12:00``, and ``tags``), written to ``/posts/<slug>/index.html`` and linked as
``/posts/<slug>``. The draft is left out of the sources: staticsite 2.3 documents a ``draft`` field,
but its build drops only pages dated in the future (a ``draft: yes`` post is published and
syndicated). The About page is ``about.md`` (``nav_title: About``, ``syndicated: no``: a page, not
a post; it is outside ``posts/`` anyway). The blog page shows the ten newest posts in full (its
template's ``blog.pages(limit=10)``) and links the archive of all posts.
"""

from __future__ import annotations

from corpus import ABOUT, published
from write_sources import _fresh, _write, _yaml_list

HOST = "https://staticsite.heldout.example"

SETTINGS = """# staticsite settings (settings.py: only the uppercase names are read)
SITE_NAME = "Small Lessons"
SITE_URL = "%(host)s"
SITE_AUTHOR = "Ana Lima"
TIMEZONE = "UTC"
# No lmdb cache in the source folder.
CACHE_REBUILDS = False
""" % {"host": HOST}

INDEX = """---
site_url: %(host)s
template: blog.html
syndication: yes
pages: "posts/*"
nav: [tags.taxonomy, about.md]
nav_title: Blog
---

# Small Lessons

Short programming lessons, written down as I learn them.
""" % {"host": HOST}

TAGS_TAXONOMY = """---
title: All tags
description: Index of all the tags used in the site
nav_title: Tags
"""


def _quoted(value: str) -> str:
    """A YAML string: double-quoted, as JSON writes it (a subset of YAML)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _front(fields: list[tuple[str, str]]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in fields) + "---\n\n"


def staticsite() -> None:
    src = _fresh("staticsite")
    for p in published():
        fields = [
            ("title", _quoted(p.title)),
            ("date", f"{p.date} 12:00"),  # the documented form ("2020-01-02 12:00"): a string to YAML
            ("tags", _yaml_list(p.tags)),
        ]
        _write(src / "posts" / f"{p.slug}.md", _front(fields) + p.body)
    _write(
        src / "about.md",
        _front([("title", _quoted(ABOUT.title)), ("nav_title", "About"), ("syndicated", "no")]) + ABOUT.body,
    )
    _write(src / "index.md", INDEX)
    _write(src / "tags.taxonomy", TAGS_TAXONOMY)
    _write(src / ".staticsite.py", SETTINGS)
