"""The ``harp`` held-out site: Harp 0.50.1 (npm ``harp``), a blog written the way Harp documents it.

    python bench/heldout/write_sources.py harp

Harp is a static web server with built-in preprocessing (EJS, Jade, Markdown, Sass): every
file of the project folder is served or compiled as it stands, a file or folder whose name starts
with ``_`` is not (layouts, partials, data), and ``harp <source> <build>`` compiles the project
for a static host. It has no post type, taxonomy, pagination or feed of its own: a blog is the
folder ``posts/`` with its metadata in ``posts/_data.json`` (one object per file, by the file's
name without its extension), which every template reads as ``public.posts._data`` and which the
page itself gets as its locals (``title``, ``date``, ``tags``). ``src/public/`` is the project
(``_harp.json`` in it: Harp's "root" layout, compiled by ``harp public out``):

- ``_harp.json``: the globals, the site's title, description, URL and author.
- ``_layout.ejs``: every page's frame: ``<title>`` (the page's title, then the site's), the
  header with the site's name and the nav (Home, Posts, Tags, About, Feed), ``<main>``, and a
  footer. A post (``current.path`` under ``posts/``, not its index) gets an ``<article>`` whose
  header is its ``<h1>`` title, the date (``<time datetime>``, shown as "January 15, 2023") and
  its tags' links, before the Markdown's HTML (``yield``).
- ``posts/<slug>.md``: one Markdown file per post (marked 18, GFM: ``<pre><code
  class="language-…">``), without its title (the layout writes it from ``_data.json``).
- ``posts/_data.json``: each post's ``title``, ``date`` and ``tags``, newest first.
- ``posts/index.ejs``: every post, newest first, with its date (``/posts/``).
- ``index.ejs``: the home page, a welcome line and the five newest posts.
- ``tags/index.ejs`` (every tag and its count) and one ``tags/<tag>.ejs`` per tag, each a call
  of the partial ``tags/_tag.ejs``, which iterates ``public.posts._data`` for that tag (Harp
  makes one page per file: there is no page per term without a file); their titles in
  ``tags/_data.json``.
- ``about.md``: About, a page, its title in the root ``_data.json``.
- ``feed.xml.ejs``: the RSS feed (``feed.xml``), ``"feed.xml": {"layout": false}`` in the root ``_data.json``,
  each item's description the post's HTML (the partial of its Markdown).
- ``404.ejs``: the page Harp's server answers a missing path with (``404.html``).

Links are Harp's clean URLs (``/posts/<slug>``, ``/tags/python``, ``/about``): its server, and the
static hosts it documents, answer ``/about`` with ``about.html``. No sitemap (Harp has none) and
no drafts (the draft is simply left out, as for the other generators without a draft flag).
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _write

HOST = "https://harp.heldout.example"

HARP_JSON = {
    "globals": {
        "siteTitle": "Small Lessons",
        "title": "Small Lessons",
        "description": "Short programming lessons.",
        "url": HOST,
        "author": "Ana Lima",
    }
}

LAYOUT = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><% if (title !== siteTitle) { %><%= title %> | <% } %><%= siteTitle %></title>
<meta name="description" content="<%= description %>">
<link rel="stylesheet" href="/main.css">
<link rel="alternate" type="application/rss+xml" title="<%= siteTitle %>" href="/feed.xml">
</head>
<body>
<header class="site-header">
<a class="site-title" href="/"><%= siteTitle %></a>
<nav>
<a href="/">Home</a>
<a href="/posts/">Posts</a>
<a href="/tags/">Tags</a>
<a href="/about">About</a>
<a href="/feed.xml">Feed</a>
</nav>
</header>
<main>
<% if (current.path[0] === "posts" && current.source !== "index") { %>
<article class="post">
<header>
<h1><%= title %></h1>
<p class="meta"><time datetime="<%= date %>"><%= new Date(date).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) %></time>
<% if (tags && tags.length) { %> &middot; Tagged <% tags.forEach(function (tag, i) { %><%= i ? ", " : "" %><a href="/tags/<%= tag %>"><%= tag %></a><% }) %><% } %></p>
</header>
<%- yield %>
</article>
<% } else { %>
<%- yield %>
<% } %>
</main>
<footer class="site-footer">
<p>&copy; 2024 <%= author %> &middot; <a href="/feed.xml">RSS</a> &middot; Built with <a href="https://harpjs.com/">Harp</a></p>
</footer>
</body>
</html>
"""

POST_LIST = """\
<ul class="post-list">
<% posts.forEach(function (slug) { var post = public.posts._data[slug]; %>
<li><time datetime="<%= post.date %>"><%= new Date(post.date).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }) %></time>
<a href="/posts/<%= slug %>"><%= post.title %></a></li>
<% }) %>
</ul>
"""

# The posts' slugs, newest first, for a template: _data.json keeps its order.
_NEWEST = (
    "Object.keys(public.posts._data).sort(function (a, b) { "
    "return public.posts._data[b].date.localeCompare(public.posts._data[a].date); })"
)

INDEX = f"""\
<h1>Small Lessons</h1>
<p>Short programming lessons, one small idea at a time.</p>
<h2>Recent posts</h2>
<% var posts = {_NEWEST}.slice(0, 5); %>
{POST_LIST}<p><a href="/posts/">All posts</a></p>
"""

POSTS_INDEX = f"""\
<h1>Posts</h1>
<% var posts = {_NEWEST}; %>
{POST_LIST}"""

TAG_PARTIAL = f"""\
<h1>Posts tagged &ldquo;<%= tag %>&rdquo;</h1>
<% var posts = {_NEWEST}.filter(function (slug) {{ return public.posts._data[slug].tags.indexOf(tag) !== -1; }}); %>
{POST_LIST}<p><a href="/tags/">All tags</a></p>
"""

TAGS_INDEX = """\
<h1>Tags</h1>
<% var counts = {}; Object.keys(public.posts._data).forEach(function (slug) {
  public.posts._data[slug].tags.forEach(function (tag) { counts[tag] = (counts[tag] || 0) + 1; }); }); %>
<ul class="tag-list">
<% Object.keys(counts).sort().forEach(function (tag) { %>
<li><a href="/tags/<%= tag %>"><%= tag %></a> (<%= counts[tag] %>)</li>
<% }) %>
</ul>
"""

FEED = """\
<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title><%= siteTitle %></title>
<link><%= url %>/</link>
<atom:link href="<%= url %>/feed.xml" rel="self" type="application/rss+xml"/>
<description><%= description %></description>
<language>en</language>
<% %s.forEach(function (slug) { var post = public.posts._data[slug]; %>
<item>
<title><%= post.title %></title>
<link><%= url %>/posts/<%= slug %></link>
<guid><%= url %>/posts/<%= slug %></guid>
<pubDate><%= new Date(post.date).toUTCString() %></pubDate>
<description><%= partial("posts/" + slug) %></description>
</item>
<% }) %>
</channel>
</rss>
""".replace("%s", _NEWEST)

NOT_FOUND = """\
<h1>Page not found</h1>
<p>There is nothing here. Try the <a href="/posts/">list of posts</a>.</p>
"""

CSS = """\
body { font-family: Georgia, serif; max-width: 42rem; margin: 0 auto; padding: 1rem; line-height: 1.5; }
.site-header { display: flex; justify-content: space-between; border-bottom: 1px solid #ddd; }
.site-header nav a { margin-left: 0.75rem; }
.meta, .post-list time { color: #666; }
pre { background: #f6f6f6; padding: 0.75rem; overflow-x: auto; }
.site-footer { border-top: 1px solid #ddd; margin-top: 2rem; font-size: 0.9rem; }
"""


def harp() -> None:
    src = _fresh("harp")
    public = src / "public"
    _write(public / "_harp.json", json.dumps(HARP_JSON, indent=2) + "\n")
    _write(public / "_layout.ejs", LAYOUT)
    _write(public / "main.css", CSS)
    _write(public / "index.ejs", INDEX)
    _write(public / "404.ejs", NOT_FOUND)
    _write(public / "feed.xml.ejs", FEED)
    root_data = {
        "about": {"title": ABOUT.title},
        "feed.xml": {"layout": False},
        "404": {"title": "Page not found"},
    }
    _write(public / "_data.json", json.dumps(root_data, ensure_ascii=False, indent=2) + "\n")
    posts = sorted((p for p in POSTS if not p.draft), key=lambda p: p.date, reverse=True)
    data = {p.slug: {"title": p.title, "date": p.date, "tags": list(p.tags)} for p in posts}
    _write(public / "posts" / "_data.json", json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    _write(public / "posts" / "index.ejs", POSTS_INDEX)
    for p in posts:
        _write(public / "posts" / f"{p.slug}.md", p.body)
    tags = sorted({t for p in posts for t in p.tags})
    _write(public / "tags" / "_tag.ejs", TAG_PARTIAL)
    _write(public / "tags" / "index.ejs", TAGS_INDEX)
    tag_data: dict[str, dict[str, str]] = {"index": {"title": "Tags"}}
    for tag in tags:
        _write(public / "tags" / f"{tag}.ejs", f'<%- partial("_tag", {{ tag: {json.dumps(tag)} }}) %>\n')
        tag_data[tag] = {"title": f"Posts tagged {tag}"}
    _write(public / "tags" / "_data.json", json.dumps(tag_data, ensure_ascii=False, indent=2) + "\n")
    _write(public / "about.md", f"# {ABOUT.title}\n\n{ABOUT.body}")
