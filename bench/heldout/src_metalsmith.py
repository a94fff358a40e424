"""The ``metalsmith`` held-out site: Metalsmith 2.7 (npm ``metalsmith``) and its core plugins.

    python bench/heldout/write_sources.py metalsmith

Metalsmith is a Node.js library, not a tool with a site layout of its own: every file under the
source folder (``src/``) is read with its front matter into a files object, each plugin of the
build script changes that object, and what is left is written to the destination (``build/``).
A blog is the plugins its docs name for one, chained in ``metalsmith.mjs`` (the build script as
the docs' "Getting started" writes it, ESM) over handlebars layouts (``layouts/``); that is what
``src/`` holds, with no theme (Metalsmith has none: the layouts and ``css/style.css`` are the
author's).

- ``src/posts/<slug>.md``: one Markdown file a post (front matter ``title``, ``date``,
  ``category``, ``tags``, ``layout: post.hbs``); ``src/about.md`` (``layout: page.hbs``),
  ``src/index.md`` (the home page's intro, ``layout: index.hbs``), ``src/tags.md`` (the tags
  index, ``layout: tags.hbs``).
- ``@metalsmith/markdown`` (marked 4: ``<pre><code class="language-…">``), then
  ``@metalsmith/excerpts`` (each page's first paragraph, shown on the home page and in the feed).
- ``@metalsmith/permalinks``: ``:dirname?/:basename`` with ``trailingSlash``: a post is
  ``/posts/<slug>/``, About ``/about/``, the tags index ``/tags/``.
- ``@metalsmith/collections``: ``recent`` (``posts/*/index.html``, ``date:desc``, ``limit: 5``:
  the home page's five newest) and ``posts`` (the same, every post, prev/next references).
- ``metalsmith-tags`` twice, as its README's ``metadataKey`` shows: ``tags`` (``/tags/<tag>/``)
  and ``category`` (``/categories/<name>/``), the slug a function that keeps the tag's own
  letters (the plugin's default slug, rfc3986, empties ``日本語`` and ``中文``).
- ``metalsmith-pagination`` over ``collections.posts``: the archive, ``/archive/`` then
  ``/archive/N/``, five a page.
- ``metalsmith-feed`` (RSS 2.0, ``rss.xml``: the twenty newest, each its excerpt), then
  ``@metalsmith/layouts`` with ``jstransformer-handlebars`` (``base`` a partial block: header nav,
  footer), then ``metalsmith-prism`` on the pages (Prism at build time: ``<pre
  class="language-…"><code class="language-…">``; after the layouts because it writes back a whole
  document, ``<html><head></head><body>``, for the fragment it is given), then
  ``metalsmith-sitemap`` (``sitemap.xml``). Handlebars' ``preventIndent``: a standalone partial
  call (``{{> @partial-block }}``) indents every line it inserts, code blocks' included.

The U+0008 backspace is written ``&#8;`` in the Markdown: Metalsmith reads a file whose bytes
is-utf8 0.2 rejects (a control byte such as 0x08 counts) as binary, front matter unparsed.

The post's page shows its date (``<time datetime="2023-01-15">January 15, 2023</time>``), its
category and tags; the draft is left out (no ``@metalsmith/drafts`` needed).
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _write

HOST = "https://metalsmith.heldout.example"

BUILD = """\
// The site's build script: `node metalsmith.mjs` writes build/.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readdirSync, readFileSync } from 'node:fs'
import Metalsmith from 'metalsmith'
import collections from '@metalsmith/collections'
import markdown from '@metalsmith/markdown'
import excerpts from '@metalsmith/excerpts'
import permalinks from '@metalsmith/permalinks'
import layouts from '@metalsmith/layouts'
import tags from 'metalsmith-tags'
import pagination from 'metalsmith-pagination'
import feed from 'metalsmith-feed'
import prism from 'metalsmith-prism'
import sitemap from 'metalsmith-sitemap'

const __dirname = dirname(fileURLToPath(import.meta.url))
const SITE_URL = '__HOST__'

// Handlebars partials (layouts/partials/*.hbs) and helpers for the layouts.
const partialsDir = join(__dirname, 'layouts', 'partials')
const partials = Object.fromEntries(
  readdirSync(partialsDir).map((f) => [f.replace(/\\.hbs$/, ''), readFileSync(join(partialsDir, f), 'utf8')])
)
const helpers = {
  isoDate: (date) => new Date(date).toISOString().slice(0, 10),
  longDate: (date) =>
    new Date(date).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
  year: (date) => new Date(date).getUTCFullYear()
}
// preventIndent: a standalone partial call indents every line it inserts, <pre> blocks' too.
const engineOptions = { partials, helpers, preventIndent: true }

// Tag and category pages keep the name's letters in their URL (the default slug drops CJK).
const tagSlug = (tag) => tag.toLowerCase().trim().replace(/\\s+/g, '-')

Metalsmith(__dirname)
  .source('./src')
  .destination('./build')
  .clean(true)
  .metadata({
    site: {
      title: 'Small Lessons',
      description: 'Short programming lessons.',
      url: SITE_URL,
      author: 'Ana Lima'
    }
  })
  .use(markdown())
  .use(excerpts())
  .use(permalinks({ trailingSlash: true }))
  .use(
    collections({
      // After permalinks: a post's prev/next references are copies of its neighbours' metadata
      // at this point. recent first: collections 2.0 gives a file matched by a later pattern a
      // new `collection` array, which would lose the references set for the earlier one.
      recent: { pattern: 'posts/*/index.html', sort: 'date:desc', limit: 5, refer: false },
      posts: { pattern: 'posts/*/index.html', sort: 'date:desc' }
    })
  )
  .use(
    tags({
      handle: 'tags',
      path: 'tags/:tag/index.html',
      layout: 'tag.hbs',
      sortBy: 'date',
      reverse: true,
      slug: tagSlug
    })
  )
  .use(
    tags({
      handle: 'category',
      metadataKey: 'categories',
      path: 'categories/:tag/index.html',
      layout: 'category.hbs',
      sortBy: 'date',
      reverse: true,
      slug: tagSlug
    })
  )
  .use(
    pagination({
      'collections.posts': {
        perPage: 5,
        layout: 'archive.hbs',
        first: 'archive/index.html',
        path: 'archive/:num/index.html',
        noPageOne: true,
        pageMetadata: { title: 'Archive' }
      }
    })
  )
  .use(
    feed({
      collection: 'posts',
      destination: 'rss.xml',
      title: 'Small Lessons',
      description: 'Short programming lessons.',
      preprocess: (file) => ({ ...file, url: `${SITE_URL}/${file.permalink}` })
    })
  )
  .use(layouts({ transform: 'handlebars', pattern: '**/*.html', default: 'page.hbs', engineOptions }))
  .use(prism())
  .use(sitemap({ hostname: SITE_URL, omitIndex: true }))
  .build((err) => {
    if (err) throw err
  })
"""

BASE = """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{#if title}}{{title}} | {{/if}}{{site.title}}</title>
  <meta name="description" content="{{site.description}}">
  <link rel="stylesheet" href="/css/style.css">
  <link rel="alternate" type="application/rss+xml" title="{{site.title}}" href="/rss.xml">
</head>
<body>
  <header class="site-header">
    <a class="site-title" href="/">{{site.title}}</a>
    <nav class="site-nav">
      <ul>
        <li><a href="/">Home</a></li>
        <li><a href="/archive/">Archive</a></li>
        <li><a href="/tags/">Tags</a></li>
        <li><a href="/about/">About</a></li>
        <li><a href="/rss.xml">RSS</a></li>
      </ul>
    </nav>
  </header>
  <main class="content">
    {{> @partial-block }}
  </main>
  <footer class="site-footer">
    <p>&copy; 2024 {{site.author}}. Built with <a href="https://metalsmith.io">Metalsmith</a>.</p>
  </footer>
</body>
</html>
"""

# One line of a post list: its date and title (archive, tag and category pages).
POST_ITEM = """\
<li><time datetime="{{isoDate date}}">{{longDate date}}</time> <a href="/{{permalink}}">{{title}}</a></li>
"""

POST = """\
{{#> base}}
<article class="post">
  <header class="post-header">
    <h1>{{title}}</h1>
    <p class="post-meta">
      <time datetime="{{isoDate date}}">{{longDate date}}</time>
      {{#each category}}in <a href="/categories/{{slug}}/">{{name}}</a>{{/each}}
    </p>
  </header>
  <div class="post-body">
    {{{contents}}}
  </div>
  <footer class="post-footer">
    <p class="post-tags">Tags: {{#each tags}}<a href="/tags/{{slug}}/">{{name}}</a>{{#unless @last}}, {{/unless}}{{/each}}</p>
  </footer>
</article>
<nav class="post-nav">
  {{#with collection.posts.previous}}<a class="newer" href="/{{permalink}}">&larr; {{title}}</a>{{/with}}
  {{#with collection.posts.next}}<a class="older" href="/{{permalink}}">{{title}} &rarr;</a>{{/with}}
</nav>
{{/base}}
"""

PAGE = """\
{{#> base}}
<article class="page">
  <h1>{{title}}</h1>
  {{{contents}}}
</article>
{{/base}}
"""

INDEX = """\
{{#> base}}
<section class="intro">
  {{{contents}}}
</section>
<section class="recent-posts">
  <h2>Recent posts</h2>
  {{#each collections.recent}}
  <article class="post-summary">
    <h3><a href="/{{permalink}}">{{title}}</a></h3>
    <p class="post-meta"><time datetime="{{isoDate date}}">{{longDate date}}</time></p>
    {{{excerpt}}}
    <p><a class="read-more" href="/{{permalink}}">Read more</a></p>
  </article>
  {{/each}}
  <p><a href="/archive/">All posts in the archive</a></p>
</section>
{{/base}}
"""

ARCHIVE = """\
{{#> base}}
<section class="archive">
  <h1>Archive</h1>
  <ul class="post-list">
    {{#each pagination.files}}
    {{> post-item}}
    {{/each}}
  </ul>
  <nav class="pagination">
    {{#if pagination.previous}}<a class="newer" href="/{{pagination.previous.path}}">Newer posts</a>{{/if}}
    <span>Page {{pagination.num}} of {{pagination.pages.length}}</span>
    {{#if pagination.next}}<a class="older" href="/{{pagination.next.path}}">Older posts</a>{{/if}}
  </nav>
</section>
{{/base}}
"""

TAG = """\
{{#> base title=tag}}
<section class="tag">
  <h1>Posts tagged &ldquo;{{tag}}&rdquo;</h1>
  <ul class="post-list">
    {{#each pagination.files}}
    {{> post-item}}
    {{/each}}
  </ul>
</section>
{{/base}}
"""

CATEGORY = """\
{{#> base title=tag}}
<section class="category">
  <h1>Category: {{tag}}</h1>
  <ul class="post-list">
    {{#each pagination.files}}
    {{> post-item}}
    {{/each}}
  </ul>
</section>
{{/base}}
"""

TAGS = """\
{{#> base}}
<section class="tags">
  <h1>{{title}}</h1>
  <ul class="tag-list">
    {{#each tags}}
    <li><a href="/tags/{{this.urlSafe}}/">{{@key}}</a> ({{this.length}})</li>
    {{/each}}
  </ul>
</section>
{{/base}}
"""

CSS = """\
body { max-width: 42rem; margin: 0 auto; padding: 1rem; font-family: system-ui, sans-serif; line-height: 1.5; }
.site-header, .site-footer { display: flex; justify-content: space-between; align-items: baseline; }
.site-nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; }
.post-meta, .post-tags, .site-footer { color: #666; font-size: 0.9rem; }
pre { background: #f5f2f0; padding: 1em; overflow: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; }
"""

INDEX_MD = """\
Short programming lessons, one at a time, by Ana Lima. The five newest are below; the
[archive](/archive/) has every post and the [tags](/tags/) group them by subject.
"""


def _front(meta: dict[str, str]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in meta.items()) + "---\n\n"


def metalsmith() -> None:
    src = _fresh("metalsmith")
    _write(src / "metalsmith.mjs", BUILD.replace("__HOST__", HOST))
    layouts = src / "layouts"
    _write(layouts / "partials" / "base.hbs", BASE)
    _write(layouts / "partials" / "post-item.hbs", POST_ITEM)
    for name, text in (
        ("post", POST),
        ("page", PAGE),
        ("index", INDEX),
        ("archive", ARCHIVE),
        ("tag", TAG),
        ("category", CATEGORY),
        ("tags", TAGS),
    ):
        _write(layouts / f"{name}.hbs", text)
    content = src / "src"
    _write(content / "css" / "style.css", CSS)
    for p in POSTS:
        if p.draft:
            continue  # left out, as the other generators' drafts are
        meta = {
            "title": json.dumps(p.title, ensure_ascii=False),
            "date": p.date,
            "category": p.category,
            "tags": "[" + ", ".join(json.dumps(t, ensure_ascii=False) for t in p.tags) + "]",
            "layout": "post.hbs",
        }
        # is-utf8 0.2, which Metalsmith asks whether a file is text, says no to a U+0008 byte: the
        # file would be read as binary, its front matter left in the text and no layout applied.
        # The backspace is written as the character reference marked passes through.
        body = p.body.replace("\b", "&#8;")
        _write(content / "posts" / f"{p.slug}.md", _front(meta) + body)
    _write(content / "about.md", _front({"title": ABOUT.title, "layout": "page.hbs"}) + ABOUT.body)
    _write(content / "index.md", _front({"title": "Home", "layout": "index.hbs"}) + INDEX_MD)
    _write(content / "tags.md", _front({"title": "Tags", "layout": "tags.hbs"}))
