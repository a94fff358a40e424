"""Ghost's sources: a content file in Ghost's own JSON import format, its routes and theme settings.

A Ghost site keeps its posts in a database, not in files: what an editor brings into a new Ghost
is the JSON of Settings > Import/Export ("Import content"), and that is the source here,
``src/small-lessons.ghost.json``. Each post's body is a mobiledoc with one Markdown card (what
Ghost's editor wrote for a Markdown block and what its Markdown importers write), rendered by
Ghost itself with markdown-it. One author (Ana Lima, the site's owner: the import's user has the
owner's email, so the importer maps her posts to the owner), the corpus' category as each post's
first tag (Ghost's primary tag, what Casper shows above the title), then its tags; the About page
a Ghost page; the draft a draft. ``routes.yaml`` is Ghost's default (posts at ``/{slug}/``,
``/tag/{slug}/``, ``/author/{slug}/``); ``casper-config.json`` the theme's ``config`` keys to set
in Casper's package.json (``posts_per_page``: 5, Casper ships 25).
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS, Post

#: The owner Ghost's setup creates (build.sh signs up with this email, the import's user has it).
OWNER_EMAIL = "ana@example.com"

GHOST_ROUTES = """routes:

collections:
  /:
    permalink: /{slug}/
    template: index

taxonomies:
  tag: /tag/{slug}/
  author: /author/{slug}/
"""


def _mobiledoc(markdown: str) -> str:
    """A mobiledoc of one Markdown card (Ghost's editor and its Markdown importers write this)."""
    return json.dumps(
        {
            "version": "0.3.1",
            "ghostVersion": "4.0",
            "atoms": [],
            "cards": [["markdown", {"markdown": markdown}]],
            "markups": [],
            "sections": [[10, 0]],
        },
        ensure_ascii=False,
    )


def _stamp(date: str) -> str:
    return f"{date}T09:30:00.000Z"


def ghost() -> None:
    """Ghost 5 (Casper): posts, tags (the category first: the primary tag), one author, the About
    page, the draft, in Ghost's import JSON."""
    from write_sources import _fresh, _write  # here: write_sources imports this module

    src = _fresh("ghost")
    posts: list[dict[str, object]] = []
    tags: dict[str, dict[str, object]] = {}
    posts_tags: list[dict[str, object]] = []
    posts_authors: list[dict[str, object]] = []
    user_id = "5f0000000000000000000001"

    def add(p: Post, kind: str) -> None:
        pid = f"5f00000000000000000{len(posts) + 100:05d}"
        posts.append(
            {
                "id": pid,
                "title": p.title,
                "slug": p.slug,
                "mobiledoc": _mobiledoc(p.body),
                "lexical": None,
                "html": None,
                "feature_image": None,
                "featured": 0,
                "type": kind,
                "status": "draft" if p.draft else "published",
                "visibility": "public",
                "email_recipient_filter": "all",
                "created_at": _stamp(p.date),
                "updated_at": _stamp(p.date),
                "published_at": None if p.draft else _stamp(p.date),
                "custom_excerpt": None,
                "locale": None,
            }
        )
        posts_authors.append({"post_id": pid, "author_id": user_id, "sort_order": 0})
        names = (p.category, *p.tags) if kind == "post" else ()
        for order, name in enumerate(dict.fromkeys(names)):
            tag = tags.setdefault(name, {"id": f"5f00000000000000000{len(tags) + 500:05d}", "name": name})
            posts_tags.append({"post_id": pid, "tag_id": tag["id"], "sort_order": order})

    for p in POSTS:
        add(p, "post")
    add(ABOUT, "page")
    export = {
        "db": [
            {
                "meta": {"exported_on": 1796601600000, "version": "5.130.4"},
                "data": {
                    "posts": posts,
                    "tags": list(tags.values()),
                    "posts_tags": posts_tags,
                    "users": [
                        {
                            "id": user_id,
                            "name": "Ana Lima",
                            "slug": "ana",
                            "email": OWNER_EMAIL,
                            "bio": "Writes short programming lessons.",
                            "location": "Lisbon",
                            "status": "active",
                        }
                    ],
                    "posts_authors": posts_authors,
                    "settings": [
                        {"key": "title", "value": "Small Lessons"},
                        {"key": "description", "value": "Short programming lessons."},
                        # A new Ghost's cover is an image on static.ghost.org, whose size Ghost
                        # fetches for its structured data: no cover (nothing leaves the machine).
                        {"key": "cover_image", "value": None},
                        {
                            "key": "navigation",
                            "value": json.dumps(
                                [{"label": "Home", "url": "/"}, {"label": "About", "url": "/about/"}]
                            ),
                        },
                    ],
                },
            }
        ]
    }
    _write(src / "small-lessons.ghost.json", json.dumps(export, ensure_ascii=False, indent=1) + "\n")
    _write(src / "routes.yaml", GHOST_ROUTES)
    _write(src / "casper-config.json", json.dumps({"posts_per_page": 5}, indent=1) + "\n")
