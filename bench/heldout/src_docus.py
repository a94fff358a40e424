"""Docus 5 (the Nuxt layer for documentation sites, on Nuxt 4, @nuxt/content 3 and Nuxt UI 4): the
held-out ``docus`` sources.

A Docus project as its docs lay one out (``npx create-docus`` would download the template from
GitHub: the minimal project is written out here instead): ``package.json`` (the site's name and
description), ``nuxt.config.ts`` (``extends: ['docus']``, the site's name and URL), an
``app/app.config.ts`` (header title, GitHub links for "Edit this page", socials, the table of
contents' title and its bottom links) and ``content/``: ``index.md`` the landing page, then one
folder per section with a number prefix for its order (``1.guide/``, ``2.reference/``,
``3.appendix/``, Nuxt Content strips the prefix from the path), each with a ``.navigation.yml``
(the section's title and icon in the sidebar), the pages in them with a number prefix too
(``1.install.md``, ``2.<slug>.md``: the sidebar's order and the prev/next links), front matter
``title`` and ``description`` (``UPageHeader`` shows both over the body: the description is the
body's first sentence, as on ``fumadocs``) and the About page at the top level
(``4.about.md``, ``/about``: Docus makes every page of ``content/`` but ``index.md`` a docs page).

The install page uses Docus' (Nuxt UI's) Markdown components in MDC syntax: a ``::code-group``
(each code block a tab, labelled by ``[name]`` after its language), ``::warning`` and ``::tip``
callouts, a code block with a file name. Nuxt Content has no drafts: the writer leaves the draft
out. Changed from Docus' defaults for an offline build: ``ui.fonts: false`` (@nuxt/fonts would
download the theme's font from Google Fonts) and ``ogImage.enabled: false`` (nuxt-og-image draws a
PNG per page with fonts it downloads).
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _description, _fresh, _write

HOST = "https://docus.heldout.example"

SECTIONS = (
    ("guide", "Guide", "i-lucide-book-open"),
    ("reference", "Reference", "i-lucide-library"),
    ("appendix", "Appendix", "i-lucide-paperclip"),
)

#: Every icon the content names: the sections', the pages', the landing page's button, the code
#: group's and the file name's (Nuxt UI picks ``vscode-icons:file-type-<ext>`` by the label).
ICONS = [
    *(icon.replace("i-lucide-", "lucide:") for _, _, icon in SECTIONS),
    "lucide:download",
    "lucide:info",
    "lucide:arrow-right",
    "lucide:star",
    "vscode-icons:file-type-npm",
    "vscode-icons:file-type-toml",
]

#: The install page, with Docus' code group, callouts and a code block's file name (MDC syntax,
#: as docus.dev's "Components" page writes them).
INSTALL = f"""---
title: {INSTALL_TITLE}
description: The tool ships for Python and Node.js; pick one.
navigation:
  icon: i-lucide-download
---

The tool ships for Python and Node.js; pick one.

::code-group

```bash [pip]
pip install lessons-cli
```

```bash [npm]
npm install --global lessons-cli
```

::

::warning
**Python 3.10 or later:** older versions lack `zoneinfo`; the tool refuses to start on them.
::

::tip
The configuration lives in `~/.config/lessons/config.toml`:

```toml [config.toml]
[output]
color = true
```
::

Check the installation:

```bash
lessons --version
```
"""

LANDING = """---
title: Small Lessons
description: Short programming lessons, from generators to regular expressions.
navigation: false
---

::u-page-hero
#title
Small Lessons

#description
Short programming lessons, from generators to regular expressions.

#links
  :::u-button
  ---
  size: xl
  to: /guide/install
  trailing-icon: i-lucide-arrow-right
  ---
  Start with the guide
  :::
::
"""

NUXT_CONFIG = """export default defineNuxtConfig({
  extends: ['docus'],
  site: {
    name: 'Small Lessons',
    url: '%(host)s',
  },
  // Offline build: no Google Fonts download (@nuxt/fonts, through Nuxt UI), no Open Graph images
  // (nuxt-og-image renders them with downloaded fonts).
  ui: {
    fonts: false,
  },
  ogImage: {
    enabled: false,
  },
  // The icons the content names (.navigation.yml, front matter, the code group's file icons):
  // Nuxt Icon bundles the ones it finds in the components' code, any other one it would fetch
  // from the Iconify API while pre-rendering.
  icon: {
    clientBundle: {
      icons: %(icons)s,
    },
  },
})
"""

APP_CONFIG = """export default defineAppConfig({
  seo: {
    title: 'Small Lessons',
    description: 'Short programming lessons.',
  },
  header: {
    title: 'Small Lessons',
  },
  github: {
    url: 'https://github.com/example/small-lessons',
    branch: 'main',
  },
  socials: {
    github: 'https://github.com/example/small-lessons',
  },
  toc: {
    title: 'On this page',
    bottom: {
      title: 'Community',
      links: [
        {
          icon: 'i-lucide-star',
          label: 'Star on GitHub',
          to: 'https://github.com/example/small-lessons',
          target: '_blank',
        },
      ],
    },
  },
})
"""


def _page(p: Post) -> str:
    return (
        f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
        f"description: {json.dumps(_description(p), ensure_ascii=False)}\n---\n\n{p.body}"
    )


def _about() -> str:
    return (
        f"---\ntitle: {ABOUT.title}\ndescription: What this site is.\nnavigation:\n"
        f"  icon: i-lucide-info\n---\n\n{ABOUT.body}"
    )


def docus() -> None:
    """A Docus project: config files, the landing page, three numbered sections, About."""
    src = _fresh("docus")
    content = src / "content"
    _write(content / "index.md", LANDING)
    by_section: dict[str, list[Post]] = {}
    for p in published():
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
    for n, (section, title, icon) in enumerate(SECTIONS, 1):
        folder = content / f"{n}.{section}"
        _write(folder / ".navigation.yml", f"title: {title}\nicon: {icon}\n")
        first = 1
        if section == "guide":
            _write(folder / "1.install.md", INSTALL)
            first = 2
        for i, p in enumerate(by_section[section], first):
            _write(folder / f"{i}.{p.slug}.md", _page(p))
    _write(content / f"{len(SECTIONS) + 1}.about.md", _about())
    _write(src / "nuxt.config.ts", NUXT_CONFIG % {"host": HOST, "icons": json.dumps(ICONS)})
    _write(src / "app" / "app.config.ts", APP_CONFIG)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "small-lessons",
                "description": "Short programming lessons.",
                "version": "0.0.1",
                "private": True,
                "type": "module",
                "scripts": {"dev": "nuxt dev", "build": "nuxt build", "generate": "nuxt generate"},
                "dependencies": {d: "*" for d in ("docus", "nuxt", "better-sqlite3")},
            },
            indent=1,
        )
        + "\n",
    )
