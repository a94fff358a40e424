"""TiddlyWiki 5 (npm ``tiddlywiki``), rendered to static HTML: the held-out ``tiddlywiki`` sources.

A wiki folder as ``tiddlywiki <folder> --init empty`` lays it out: ``tiddlywiki.info`` (the empty
edition's, its build targets kept, with two plugins the npm package ships:
``tiddlywiki/markdown``, markdown-it for the tiddlers typed ``text/markdown``, and
``tiddlywiki/highlight``, highlight.js, which runs at render time on Node.js too, so the static
pages carry the highlighted code) and ``tiddlers/``, one ``.tid`` file per tiddler: a header of
fields, a blank line, the text.

Each published post is a tiddler titled with the post's title, ``type: text/markdown`` (the
corpus' Markdown as it is: the markdown plugin renders fenced code with its language, which the
highlight plugin names in the ``<code>``'s class), ``created`` and ``modified`` the post's date
(TiddlyWiki's ``YYYYMMDDhhmmssSSS``, UTC; the view template shows ``modified`` under the title),
``tags`` its docs section (``Guide``, ``Reference``, ``Appendix``), its tags and its category.
The install page is a Markdown tiddler of the Guide (no tabs nor admonitions in Markdown: the two
commands in turn, the notes as blockquotes), dated as the first post; About a Markdown tiddler.

The structure is TiddlyWiki's own, tags: ``TableOfContents`` tags the three sections and About
(its ``list`` field orders them); each section tiddler is the tag of its pages (its ``list``
field: the install page first, then the posts, oldest first) and lists them; each tag and
category is a tiddler too (tagged ``Tags`` or ``Categories``) listing the tiddlers it tags,
newest first; ``Tags`` and ``Categories`` list those; ``Archive`` is the core ``<<timeline>>``
macro over the ``created`` dates (only the posts, the install page and About have one: the
structure tiddlers are written by hand without dates). ``Welcome`` is the home tiddler
(``$:/DefaultTiddlers``): a sentence, the table of contents (``<<toc>>``) and links to the
lists. The site's title and subtitle are ``$:/SiteTitle`` and ``$:/SiteSubtitle``. The draft is
not written (a wiki has no drafts).

    python bench/heldout/write_sources.py tiddlywiki
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

SITENAME = "Small Lessons"
SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)

#: The empty edition's tiddlywiki.info (TiddlyWiki 5.4.1's editions/empty), the two plugins added.
TIDDLYWIKI_INFO = {
    "description": "Small Lessons: short programming lessons",
    "plugins": ["tiddlywiki/markdown", "tiddlywiki/highlight"],
    "themes": ["tiddlywiki/vanilla", "tiddlywiki/snowwhite"],
    "build": {
        "index": ["--render", "$:/core/save/all", "index.html", "text/plain"],
        # "Generating Static Sites with TiddlyWiki": the static snapshot of $:/DefaultTiddlers
        # with the page template (static.html), every tiddler in one page (alltiddlers.html), each
        # non-system tiddler's page (static/<title, URI-encoded>.html) and the stylesheet.
        "static": [
            "--render", "$:/core/templates/static.template.html", "static.html", "text/plain",
            "--render", "$:/core/templates/alltiddlers.template.html", "alltiddlers.html", "text/plain",
            "--render", "[!is[system]]", "[encodeuricomponent[]addprefix[static/]addsuffix[.html]]",
            "text/plain", "$:/core/templates/static.tiddler.html",
            "--render", "$:/core/templates/static.template.css", "static/static.css", "text/plain",
        ],
    },
}  # fmt: skip

#: Markdown has neither tabs nor admonitions: the two commands in turn, the notes as blockquotes.
INSTALL_TEXT = """The tool ships for Python and Node.js; pick one.

With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

> **Python 3.10 or later.** Older versions lack `zoneinfo`; the tool refuses to start on them.

> **Note:** the configuration lives in `~/.config/lessons/config.toml`:

```toml
[output]
color = true
```

Check the installation:

```bash
lessons --version
```
"""


def tw_date(date: str) -> str:
    """A corpus date as TiddlyWiki stores it: ``YYYYMMDDhhmmssSSS`` in UTC (09:30, as elsewhere)."""
    return date.replace("-", "") + "093000000"


def tw_list(titles: list[str] | tuple[str, ...]) -> str:
    """A title list field (``tags``, ``list``): titles with a space in double square brackets."""
    return " ".join(f"[[{t}]]" if " " in t or not t else t for t in titles)


def tid(fields: dict[str, str], text: str) -> str:
    """A ``.tid`` file: ``name: value`` lines, a blank line, the text."""
    head = "".join(f"{k}: {v}\n" for k, v in fields.items() if v)
    return head + "\n" + text.rstrip("\n") + "\n"


def _file(title: str) -> str:
    """A tiddler's file name, as TiddlyWiki's filesystem saver makes it: characters that are not
    safe in file names become ``_`` (``$:/SiteTitle`` is ``$__SiteTitle.tid``)."""
    return "".join("_" if c in '<>:"/\\|?*^' else c for c in title) + ".tid"


def tiddlywiki() -> None:
    """tests/fixtures/heldout/tiddlywiki/src: the wiki folder (tiddlywiki.info, tiddlers/)."""
    src = _fresh("tiddlywiki")
    tiddlers = src / "tiddlers"

    def put(fields: dict[str, str], text: str) -> None:
        _write(tiddlers / _file(fields["title"]), tid(fields, text))

    posts = published()
    by_section: dict[str, list[Post]] = {}
    tagged: dict[str, set[str]] = {}  # a tag or category -> {"Tags", "Categories"}
    for p in posts:
        section = next(name for name, key, _ in SECTIONS if key == DOC_SECTIONS[p.slug])
        by_section.setdefault(section, []).append(p)
        for t in p.tags:
            tagged.setdefault(t, set()).add("Tags")
        tagged.setdefault(p.category, set()).add("Categories")
        put(
            {
                "created": tw_date(p.date),
                "modified": tw_date(p.date),
                "tags": tw_list((section, *p.tags, p.category)),
                "title": p.title,
                "type": "text/markdown",
            },
            p.body,
        )
    first = min(p.date for p in posts)
    put(
        {
            "created": tw_date(first),
            "modified": tw_date(first),
            "tags": "Guide",
            "title": INSTALL_TITLE,
            "type": "text/markdown",
        },
        INSTALL_TEXT,
    )
    put(
        {
            "created": tw_date(ABOUT.date),
            "modified": tw_date(ABOUT.date),
            "tags": "TableOfContents",
            "title": ABOUT.title,
            "type": "text/markdown",
        },
        ABOUT.body,
    )
    for name, _key, intro in SECTIONS:
        order = ([INSTALL_TITLE] if name == "Guide" else []) + [
            p.title for p in sorted(by_section[name], key=lambda p: p.date)
        ]
        put(
            {"list": tw_list(order), "tags": "TableOfContents", "title": name},
            f'{intro}\n\n<<list-links filter:"[tag<currentTiddler>]">>',
        )
    put(
        {"list": tw_list(["Guide", "Reference", "Appendix", "About"]), "title": "TableOfContents"},
        '<<toc "TableOfContents">>',
    )
    for name, kinds in sorted(tagged.items()):
        what = "category" if kinds == {"Categories"} else "tag"
        put(
            {"tags": tw_list(sorted(kinds, reverse=True)), "title": name},
            f"Pages with the {what} ''{name}'', newest first:\n\n"
            '<<list-links filter:"[tag<currentTiddler>!sort[created]]">>',
        )
    put({"title": "Tags"}, 'Every tag of the lessons:\n\n<<list-links filter:"[tag[Tags]sort[title]]">>')
    put(
        {"title": "Categories"},
        'The lessons by category:\n\n<<list-links filter:"[tag[Categories]sort[title]]">>',
    )
    put(
        {"title": "Archive"},
        "Every page by the day it was written, newest first:\n\n"
        '<<timeline limit:"100" format:"DDth MMM YYYY" dateField:"created">>',
    )
    put(
        {"title": "Welcome"},
        f"''{SITENAME}'' is a wiki of short programming lessons. See [[About]] for what it is.\n\n"
        '<<toc "TableOfContents">>\n\n'
        "Browse the lessons by [[tag|Tags]], by [[category|Categories]] or by date in the [[Archive]].",
    )
    put({"title": "$:/SiteTitle"}, SITENAME)
    put({"title": "$:/SiteSubtitle"}, "Short programming lessons")
    put({"title": "$:/DefaultTiddlers"}, "Welcome")
    _write(src / "tiddlywiki.info", json.dumps(TIDDLYWIKI_INFO, indent="\t") + "\n")
