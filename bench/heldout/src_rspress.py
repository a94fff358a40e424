"""Rspress 2 (the Rsbuild docs framework), its default theme: the held-out ``rspress`` sources.

A ``docs/`` folder of Markdown pages in three sections (guide, reference, appendix), the sidebar
from ``_meta.json`` files (Rspress' auto-generated sidebar: the root's ``dir-section-header``
entries, each section's page order), the nav from ``_nav.json``, a ``pageType: home`` landing
page, the install page in MDX with Rspress' ``Tabs``/``Tab``, ``:::tip``/``:::warning``
containers and code blocks with a ``title`` and highlighted lines (Shiki), "Edit this page"
links (``themeConfig.editLink``), SSG on (``ssg: true``, Rspress' default), clean URLs
(``route.cleanUrls``: pages at ``<route>.html``, linked as ``<route>``) and a sitemap from
``@rspress/plugin-sitemap`` on the site's own host (``siteOrigin``).
"""

from __future__ import annotations

import json

from corpus import DOC_SECTIONS, Post, published
from write_sources import _fresh, _install_page, _myst_body, _write

HOST = "https://rspress.heldout.example"

#: The install page's tabs and containers, as Rspress' docs write them (MDX components imported
#: from ``@rspress/core/theme``; a code block ``title="…"``; line highlighting by Shiki's
#: ``[!code highlight]`` notation, the way Rspress 2 documents it, ``@shikijs/transformers``).
RSPRESS_TABS = """<Tabs>
  <Tab label="pip">

```bash title="Terminal"
pip install lessons-cli
```

  </Tab>
  <Tab label="npm">

```bash title="Terminal"
npm install --global lessons-cli
```

  </Tab>
</Tabs>

:::warning Python 3.10 or later
Older versions lack `zoneinfo`; the tool refuses to start on them.
:::

:::tip
The configuration lives in `~/.config/lessons/config.toml`:

```toml title="config.toml"
[output]
color = true # [!code highlight]
```
:::"""

RSPRESS_CONFIG = """import * as path from 'node:path';
import { defineConfig } from '@rspress/core';
import { pluginSitemap } from '@rspress/plugin-sitemap';
import { transformerNotationHighlight } from '@shikijs/transformers';

export default defineConfig({
  root: path.join(__dirname, 'docs'),
  title: 'Small Lessons',
  description: 'Short programming lessons',
  lang: 'en',
  siteOrigin: '%(host)s',
  ssg: true,
  markdown: {
    shiki: { transformers: [transformerNotationHighlight()] },
  },
  // Links without .html (<route>.html is still the file): the hosts Rspress' deploy guide
  // names (GitHub Pages, Netlify, Vercel) serve /guide/install from guide/install.html.
  route: { cleanUrls: true },
  plugins: [pluginSitemap()],
  themeConfig: {
    editLink: {
      docRepoBaseUrl: 'https://github.com/example/small-lessons/tree/main/docs',
    },
    socialLinks: [
      { icon: 'github', mode: 'link', content: 'https://github.com/example/small-lessons' },
    ],
  },
});
"""

HOME = """---
pageType: home

hero:
  name: Small Lessons
  tagline: Short programming lessons
  actions:
    - theme: brand
      text: Start
      link: /guide/install
features:
  - title: Guide
    details: Installing the tool, generators, time zones.
  - title: Reference
    details: Storage engines, code review, regular expressions.
---
"""


def rspress() -> None:
    """Rspress 2 docs: ``docs/<section>/<slug>.md`` per post, the install page in MDX."""
    src = _fresh("rspress")
    docs = src / "docs"
    by_section: dict[str, list[Post]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        by_section.setdefault(section, []).append(p)
        _write(docs / section / f"{p.slug}.md", _myst_body(p))
    _write(
        docs / "guide" / "install.mdx",
        "import { Tab, Tabs } from '@rspress/core/theme';\n\n" + _install_page(RSPRESS_TABS),
    )
    _write(docs / "index.md", HOME)
    sections = ("guide", "reference", "appendix")
    for section in sections:
        order = (["install"] if section == "guide" else []) + [p.slug for p in by_section[section]]
        _write(docs / section / "_meta.json", json.dumps(order, indent=2) + "\n")
    _write(
        docs / "_meta.json",
        json.dumps(
            [{"type": "dir-section-header", "name": s, "label": s.title()} for s in sections], indent=2
        )
        + "\n",
    )
    _write(
        docs / "_nav.json",
        json.dumps([{"text": "Guide", "link": "/guide/install", "activeMatch": "^/guide/"}], indent=2) + "\n",
    )
    _write(src / "rspress.config.ts", RSPRESS_CONFIG % {"host": HOST})
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-rspress",
                "version": "0.0.1",
                "private": True,
                "type": "module",
                "scripts": {"build": "rspress build"},
                "dependencies": {
                    d: "*" for d in ("@rspress/core", "@rspress/plugin-sitemap", "@shikijs/transformers")
                },
            },
            indent=1,
        )
        + "\n",
    )
