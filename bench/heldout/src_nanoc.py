"""The ``nanoc`` held-out site: nanoc 4.12.14 (Debian 12), a blog as nanoc's documentation builds one.

    python bench/heldout/write_sources.py nanoc

nanoc is a Ruby static site generator with no blog theme: a site starts from ``nanoc create-site``
(``nanoc.yaml``, ``Rules``, ``layouts/default.html``, ``content/index.html``,
``content/stylesheet.css``) and the blog is put together from its bundled helpers, as its
reference documents them: ``Nanoc::Helpers::Blogging`` (items with ``kind: article`` and
``created_at``; ``sorted_articles``, ``atom_feed``), ``Nanoc::Helpers::Tagging`` (``tags_for``,
``items_with_tag``, ``link_for_tag``), ``Nanoc::Helpers::XMLSitemap`` (``xml_sitemap``, on the
items' ``mtime``), ``Nanoc::Helpers::LinkTo`` and ``Nanoc::Helpers::Text`` (``excerptize``,
``strip_html``). The default layout is kept (``#main`` and the ``#sidebar`` with its
Documentation and Community links, the generator ``<meta>``), extended with a header, the site's
own sidebar sections (recent posts, tags, the feed) and a footer; a ``post`` layout puts the
title, the date (text: "Posted on January 15, 2023 by Ana Lima") and the tags around each post.

Each post is ``content/posts/<slug>.md`` (front matter ``title``, ``kind: article``,
``created_at``, ``tags``, ``author_name``), compiled by kramdown (GFM input, no highlighter of
its own) then nanoc's ``colorize_syntax`` filter with Rouge, and written to
``/posts/<slug>/index.html``. The ``preprocess`` block of ``Rules`` drops the draft (``draft:
true``) and creates one item per tag (``/tags/<tag>/``) and the tags index; ``content/index.html``
(the five newest posts with excerpts), ``content/archive.html`` (every post by year),
``content/feed.erb`` (``/feed.xml``, Atom) and ``content/sitemap.erb`` (``/sitemap.xml``) are ERB.
The About page is ``content/about.md`` (no ``kind``: not an article).
"""

from __future__ import annotations

import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

from corpus import ABOUT, POSTS
from write_sources import _fresh, _write, _yaml_list

HOST = "https://nanoc.heldout.example"

#: The time of every source file that is not a post (the sitemap's ``lastmod`` is the file's).
SITE_TIME = "2024-06-01"

NANOC_YAML = """# A list of file extensions that Nanoc will consider to be textual rather than
# binary. If an item with an extension not in this list is found,  the file
# will be considered as binary.
text_extensions: [ 'adoc', 'asciidoc', 'atom', 'coffee', 'css', 'erb', 'haml', 'handlebars', 'hb', 'htm', 'html', 'js', 'less', 'markdown', 'md', 'ms', 'mustache', 'php', 'rb', 'rdoc', 'sass', 'scss', 'slim', 'tex', 'txt', 'xhtml', 'xml' ]

prune:
  auto_prune: true

data_sources:
  - type: filesystem
    encoding: utf-8

# The site's own settings: the Blogging helper's feed and the XMLSitemap helper read them.
base_url: %(host)s
title: Small Lessons
author_name: Ana Lima
author_uri: %(host)s/about/
""" % {"host": HOST}

RULES = """#!/usr/bin/env ruby

preprocess do
  # Drafts stay out of the site.
  @items.delete_if { |item| item[:draft] }

  # One page per tag, and a page of all tags.
  tags = @items.select { |item| item[:kind] == 'article' }.flat_map { |item| item[:tags] || [] }.uniq.sort
  tags.each do |tag|
    @items.create('', { title: "Posts tagged #{tag}", tag: tag }, "/tags/#{tag}.html")
  end
  @items.create('', { title: 'Tags', tag_list: tags }, '/tags.html')
end

compile '/posts/*.md' do
  filter :kramdown, input: 'GFM', hard_wrap: false, syntax_highlighter: nil
  filter :colorize_syntax, default_colorizer: :rouge
  layout '/post.*'
  layout '/default.*'
  write item.identifier.without_ext + '/index.html'
end

compile '/tags/*.html' do
  layout '/tag.*'
  layout '/default.*'
  write item.identifier.without_ext + '/index.html'
end

compile '/tags.html' do
  layout '/tags.*'
  layout '/default.*'
  write '/tags/index.html'
end

compile '/**/*.md' do
  filter :kramdown, input: 'GFM', hard_wrap: false, syntax_highlighter: nil
  layout '/default.*'

  if item.identifier =~ '**/index.*'
    write item.identifier.without_ext + '.html'
  else
    write item.identifier.without_ext + '/index.html'
  end
end

compile '/feed.erb' do
  filter :erb
  write '/feed.xml'
end

compile '/sitemap.erb' do
  filter :erb
  write '/sitemap.xml'
end

compile '/**/*.html' do
  filter :erb
  layout '/default.*'

  if item.identifier =~ '**/index.*'
    write item.identifier.to_s
  else
    write item.identifier.without_ext + '/index.html'
  end
end

compile '/**/*' do
  write item.identifier.to_s
end

layout '/**/*', :erb
"""

HELPERS = """use_helper Nanoc::Helpers::Blogging
use_helper Nanoc::Helpers::Tagging
use_helper Nanoc::Helpers::XMLSitemap
use_helper Nanoc::Helpers::LinkTo
use_helper Nanoc::Helpers::Text
use_helper Nanoc::Helpers::HTMLEscape

def post_date(item)
  attribute_to_time(item[:created_at]).strftime('%B %-d, %Y')
end
"""

#: ``nanoc create-site``'s layout, kept (its ``#main`` and ``#sidebar``, the Documentation and
#: Community links, the generator ``<meta>``) and extended: the site's title, a header with its
#: menu, the feed's ``<link>``, the site's own sidebar sections, a footer.
DEFAULT_LAYOUT = """<!DOCTYPE HTML>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title><% if @item.identifier == '/index.html' %>Small Lessons<% else %><%= h @item[:title] %> - Small Lessons<% end %></title>
    <link rel="stylesheet" href="/stylesheet.css">
    <link rel="alternate" type="application/atom+xml" title="Small Lessons" href="/feed.xml">

    <!-- you don't need to keep this, but it's cool for stats! -->
    <meta name="generator" content="Nanoc <%= Nanoc::VERSION %>">
  </head>
  <body>
    <div id="header">
      <p class="site-title"><%= link_to('Small Lessons', '/') %></p>
      <ul class="menu">
        <li><%= link_to('Home', '/') %></li>
        <li><%= link_to('Archive', '/archive/') %></li>
        <li><%= link_to('Tags', '/tags/') %></li>
        <li><%= link_to('About', '/about/') %></li>
      </ul>
    </div>
    <div id="main">
      <%= yield %>
    </div>
    <div id="sidebar">
      <h2>Recent posts</h2>
      <ul>
      <% sorted_articles.first(5).each do |post| %>
        <li><%= link_to(h(post[:title]), post) %></li>
      <% end %>
      </ul>
      <h2>Subscribe</h2>
      <ul>
        <li><a href="/feed.xml">Atom feed</a></li>
      </ul>
      <h2>Documentation</h2>
      <ul>
        <li><a href="https://nanoc.ws/doc/">Documentation</a></li>
        <li><a href="https://nanoc.ws/doc/tutorial/">Tutorial</a></li>
      </ul>
      <h2>Community</h2>
      <ul>
        <li><a href="http://groups.google.com/group/nanoc/">Discussion group</a></li>
        <li><a href="https://gitter.im/nanoc/nanoc">Gitter channel</a></li>
        <li><a href="https://nanoc.ws/contributing/">Contributing</a></li>
      </ul>
    </div>
    <div id="footer">
      <p>&copy; 2024 Ana Lima. Built with <a href="https://nanoc.app/">Nanoc</a>.</p>
    </div>
  </body>
</html>
"""

POST_LAYOUT = """<div class="post">
  <h1><%= h @item[:title] %></h1>
  <p class="meta">Posted on <%= post_date(@item) %> by <%= h @item[:author_name] %></p>
  <%= yield %>
  <p class="tags">Tags: <%= tags_for(@item, base_url: '/tags/') %></p>
</div>
"""

TAG_LAYOUT = """<h1><%= h @item[:title] %></h1>
<ul class="posts">
<% sorted_articles.select { |post| (post[:tags] || []).include?(@item[:tag]) }.each do |post| %>
  <li><%= link_to(h(post[:title]), post) %> <span class="date"><%= post_date(post) %></span></li>
<% end %>
</ul>
"""

TAGS_LAYOUT = """<h1>Tags</h1>
<ul class="tags">
<% @item[:tag_list].each do |tag| %>
  <li><%= link_for_tag(tag, '/tags/') %> (<%= items_with_tag(tag).size %>)</li>
<% end %>
</ul>
"""

INDEX = """---
title: Home
---

<h1>Small Lessons</h1>

<p>Short programming lessons, written down as I learn them.</p>

<% sorted_articles.first(5).each do |post| %>
<div class="excerpt">
  <h2><%= link_to(h(post[:title]), post) %></h2>
  <p class="meta"><%= post_date(post) %></p>
  <p><%= h excerptize(strip_html(post.compiled_content(snapshot: :pre)), length: 200) %></p>
  <p><%= link_to('Read more', post) %></p>
</div>
<% end %>

<p><%= link_to('All posts', '/archive/') %></p>
"""

ARCHIVE = """---
title: Archive
---

<h1>Archive</h1>

<% sorted_articles.group_by { |post| attribute_to_time(post[:created_at]).year }.each do |year, posts| %>
<h2><%= year %></h2>
<ul class="posts">
  <% posts.each do |post| %>
  <li><span class="date"><%= post_date(post) %></span> <%= link_to(h(post[:title]), post) %></li>
  <% end %>
</ul>
<% end %>
"""

FEED = """---
is_hidden: true
---
<%= atom_feed(title: 'Small Lessons', limit: 10) %>
"""

SITEMAP = """---
is_hidden: true
---
<%= xml_sitemap(items: @items.reject { |item| item[:is_hidden] || item.identifier =~ '/stylesheet.*' }) %>
"""

STYLESHEET = """* {
  margin: 0;
  padding: 0;
  font-family: Georgia, Palatino, serif;
}

body {
  background: #fff;
}

a {
  text-decoration: none;
}

a:link,
a:visited {
  color: #f30;
}

a:hover {
  color: #f90;
}

#header {
  position: absolute;
  top: 20px;
  left: 280px;
}

#header .site-title {
  font-size: 24px;
  font-weight: bold;
}

#header .menu li {
  display: inline;
  margin-right: 12px;
}

#main {
  position: absolute;
  top: 100px;
  left: 280px;
  width: 500px;
}

#main h1 {
  font-size: 40px;
  font-weight: normal;
  line-height: 40px;
  letter-spacing: -1px;
}

#main p {
  margin: 20px 0;
  font-size: 15px;
  line-height: 20px;
}

#main ul, #main ol {
  margin: 20px;
}

#main li {
  font-size: 15px;
  line-height: 20px;
}

#main ul li {
  list-style-type: square;
}

#main pre {
  padding: 10px;
  overflow-x: auto;
  background: #f6f6f6;
}

#main table {
  border-collapse: collapse;
}

#main td, #main th {
  border: 1px solid #ccc;
  padding: 4px 8px;
}

#sidebar {
  position: absolute;
  top: 40px;
  left: 20px;
  width: 200px;
  padding: 20px 20px 0 0;
  border-right: 1px solid #ccc;
  text-align: right;
}

#sidebar h2 {
  text-transform: uppercase;
  font-size: 13px;
  color: #333;
  letter-spacing: 1px;
  line-height: 20px;
}

#sidebar ul {
  list-style-type: none;
  margin: 20px 0;
}

#sidebar li {
  font-size: 14px;
  line-height: 20px;
}

#footer {
  position: absolute;
  left: 280px;
  bottom: 20px;
  font-size: 13px;
}
"""


def _front(fields: list[tuple[str, str]]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in fields) + "---\n\n"


def _quoted(value: str) -> str:
    """A YAML string: double-quoted, as JSON writes it (a subset of YAML)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def nanoc() -> None:
    src = _fresh("nanoc")
    content = src / "content"
    for p in POSTS:
        fields = [
            ("title", _quoted(p.title)),
            ("kind", "article"),
            ("created_at", p.date),
            ("author_name", "Ana Lima"),
            ("tags", _yaml_list(p.tags)),
        ]
        if p.draft:
            fields.append(("draft", "true"))
        _write(content / "posts" / f"{p.slug}.md", _front(fields) + p.body)
    _write(content / "about.md", _front([("title", _quoted(ABOUT.title))]) + ABOUT.body)
    _write(content / "index.html", INDEX)
    _write(content / "archive.html", ARCHIVE)
    _write(content / "feed.erb", FEED)
    _write(content / "sitemap.erb", SITEMAP)
    _write(content / "stylesheet.css", STYLESHEET)
    _write(src / "layouts" / "default.html", DEFAULT_LAYOUT)
    _write(src / "layouts" / "post.html", POST_LAYOUT)
    _write(src / "layouts" / "tag.html", TAG_LAYOUT)
    _write(src / "layouts" / "tags.html", TAGS_LAYOUT)
    _write(src / "lib" / "helpers.rb", HELPERS)
    _write(src / "Rules", RULES)
    _write(src / "nanoc.yaml", NANOC_YAML)


def _stamp(day: str) -> float:
    return datetime.strptime(day, "%Y-%m-%d").replace(hour=12, tzinfo=timezone.utc).timestamp()


def mtimes(content: Path) -> None:
    """Give the sources the times a blog's files have: the XMLSitemap helper writes each item's
    file time as its ``lastmod`` (a checkout's time on a site kept in Git). A post's is its
    ``created_at`` (noon UTC), every other file's SITE_TIME."""
    for f in content.rglob("*"):
        day = SITE_TIME
        if f.suffix == ".md" and f.parent.name == "posts":
            m = re.search(r"^created_at: (\S+)$", f.read_text(encoding="utf-8"), re.M)
            if m is None:
                raise ValueError(f"{f}: no created_at")
            day = m.group(1)
        os.utime(f, (_stamp(day), _stamp(day)))


if __name__ == "__main__":
    # build.sh: python src_nanoc.py mtimes <copy of src/content>
    if sys.argv[1:2] != ["mtimes"] or len(sys.argv) != 3:
        sys.exit("usage: src_nanoc.py mtimes CONTENT")
    mtimes(Path(sys.argv[2]))
