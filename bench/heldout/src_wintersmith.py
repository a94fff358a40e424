"""The ``wintersmith`` held-out site: Wintersmith 2.5 (npm ``wintersmith``), its ``blog`` template.

    python bench/heldout/write_sources.py wintersmith

Wintersmith is a Node.js static site generator whose content tree is a folder: every Markdown or
JSON file under ``contents/`` is a page (front matter ``title``, ``date``, ``template``), rendered
by the Pug template it names. ``wintersmith new <path>`` copies a site template (``blog``, its
default) and installs the template's own dependencies (moment, typogr, underscore); the author
then replaces the sample articles and edits ``config.json``. That is what ``src/`` holds: the
files a Wintersmith author writes over the ``blog`` template, which build.sh copies from the
installed package (``examples/blog``: ``templates/*.pug``, ``plugins/paginator.coffee``,
``contents/css/main.css``, ``contents/archive.json``, ``contents/feed.json``) as ``new`` does.

- ``config.json``: the template's, with the site's locals (its URL, name, owner, description).
  Its Markdown options stay (``smartLists``, ``smartypants``), and the paginator's three a page.
- ``contents/articles/<slug>/index.md``: one folder a post, as the template files its articles
  (front matter ``title``, ``author``, ``date: 2023-01-15 12:00``, ``template: article.pug``). The
  index pages show each article's intro (up to its first ``<h2>``, ``<hr>`` or
  ``<span class="more">``) and its date; the article's page shows no date (article.pug writes
  the title and "Written by" the author only); the RSS feed (``feed.xml``) dates every item.
- ``contents/authors/ana.json``: the author the template's ``author`` mixin looks up (a
  ``mailto:`` link); author files have no template, so no author pages.
- ``contents/about.md``: the template's footer text (every page's footer shows its HTML), given
  ``template: article.pug`` in place of the template's ``view: none`` so that it is also a page of
  its own, ``/about.html``, which the footer's last line links.

No tags or categories (the template has neither; Wintersmith has no taxonomy of its own) and no
drafts (the paginator skips an article whose template is ``none``, but the draft is simply left
out, as the other generators without a draft flag do). No sitemap.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _write

HOST = "https://wintersmith.heldout.example"

CONFIG = {
    "locals": {
        "url": HOST,
        "name": "Small Lessons",
        "owner": "Ana Lima",
        "description": "Short programming lessons.",
    },
    "plugins": ["./plugins/paginator.coffee"],
    "require": {"moment": "moment", "_": "underscore", "typogr": "typogr"},
    "pug": {"pretty": True},
    "markdown": {"smartLists": True, "smartypants": True},
    "paginator": {"perPage": 3},
}

AUTHOR = {
    "name": "Ana Lima",
    "email": "ana@wintersmith.heldout.example",
    "bio": "Writes small programming lessons.",
}


def _front(meta: dict[str, str]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in meta.items()) + "---\n\n"


def wintersmith() -> None:
    src = _fresh("wintersmith")
    _write(src / "config.json", json.dumps(CONFIG, indent=2) + "\n")
    _write(src / "contents" / "authors" / "ana.json", json.dumps(AUTHOR, indent=2) + "\n")
    for p in POSTS:
        if p.draft:
            continue  # no draft flag in Wintersmith's blog template: left out
        meta = {
            "title": json.dumps(p.title, ensure_ascii=False),
            "author": "ana",
            "date": f"{p.date} 12:00",
            "template": "article.pug",
        }
        _write(src / "contents" / "articles" / p.slug / "index.md", _front(meta) + p.body)
    about = {"title": ABOUT.title, "author": "ana", "template": "article.pug"}
    # The footer shows about.md on every page: its last line links the page itself.
    _write(
        src / "contents" / "about.md",
        _front(about) + ABOUT.body + "\n[More about this site](/about.md)\n",
    )
