"""The ``urubu`` held-out site: Urubu 1.4.1 (PyPI), a blog in a project laid out as its quickstart.

    python bench/heldout/write_sources.py urubu

Urubu is Jan Decaluwe's "micro CMS" for static sites (``python -m urubu build``): a project folder
of Markdown files with YAML front matter, rendered by Python-Markdown (``extra``, ``codehilite``
with Pygments at build time, ``toc`` with ``baselevel: 2``: a ``##`` heading of the text is an
``<h3>``, the page's title being the layout's ``<h1>``) into the Jinja2 layouts of ``_layouts/``
that each file names (``layout``), written to ``_build/``. The PyPI package ships no templates
(its quickstart, a Bootstrap project, is a repository template): the layouts here are minimal
ones in the documented way (``this`` the page, ``site`` the ``_site.yml`` settings and the
project's ``reflinks``; a ``_python.py`` module's ``filters`` for the date format), on Bootstrap 3
from a CDN as the quickstart links it.

The project: ``_site.yml`` (the brand, the navigation as reference ids), ``index.md`` (the home
page: a welcome text and the five newest posts; its ``content`` the top folder's pages), ``about.md``
(About, a page), ``blog/index.md`` (the blog's index: ``order: date`` and ``reverse: true``, the
documented way to list a folder newest first, paginated five a page with ``items_per_page`` and
``items_index: this``: ``blog/index.html``, ``blog/index2.html`` …), ``blog/<slug>.md`` per post
(front matter ``title``, ``date``, ``tags``, ``layout: post``; ``/blog/<slug>.html``), and
``tag/index.md`` (the tags index). Because the ``tag`` layout exists, Urubu writes one page per
tag (``/tag/<tag>/index.html``: the tag's pages, newest first). Urubu has no categories, feeds,
sitemap or drafts: the posts carry their tags only, and the draft is not written. Each post's
layout shows the title, the date as text (``15 Jan 2023``), its tag links, a table of contents
when the text has headings, the text, and newer/older links (Urubu's pager over the folder's
sorted content).
"""

from __future__ import annotations

from corpus import ABOUT, published
from write_sources import _fresh, _write, _yaml_list

SITE_YML = """\
brand: Small Lessons
author: Ana Lima
navigation: [/blog, /tag, /about]
"""

PYTHON_HOOKS = '''\
"""Jinja2 filters for the layouts (Urubu reads ``filters`` from ``_python.py``)."""


def dateformat(value, format="%d %b %Y"):
    return value.strftime(format)


filters = {"dateformat": dateformat}
'''

BASE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="author" content="{{ site.author }}">
<title>{% if this.title != site.brand %}{{ this.title }} | {% endif %}{{ site.brand }}</title>
<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@3.4.1/dist/css/bootstrap.min.css">
<link rel="stylesheet" href="/css/site.css">
</head>
<body>
<nav class="navbar navbar-default navbar-static-top">
  <div class="container">
    <div class="navbar-header">
      <a class="navbar-brand" href="/">{{ site.brand }}</a>
    </div>
    <ul class="nav navbar-nav">
    {% for id in site.navigation %}
      {% set item = site.reflinks[id] %}
      <li{% if this.breadcrumbs and this.breadcrumbs[0].id == item.id %} class="active"{% endif %}><a href="{{ item.url }}">{{ item.title }}</a></li>
    {% endfor %}
    </ul>
  </div>
</nav>
<div class="container">
  {% if this.breadcrumbs %}
  <ol class="breadcrumb">
    <li><a href="/">Home</a></li>
    {% for crumb in this.breadcrumbs %}
    {% if loop.last %}
    <li class="active">{{ crumb.title }}</li>
    {% else %}
    <li><a href="{{ crumb.url }}">{{ crumb.title }}</a></li>
    {% endif %}
    {% endfor %}
  </ol>
  {% endif %}
  <main>
{% block content %}{% endblock %}
  </main>
</div>
<footer class="footer">
  <div class="container">
    <p class="text-muted">&copy; 2024 {{ site.author }}. Built with <a href="https://urubu.jandecaluwe.com/">Urubu</a>.</p>
  </div>
</footer>
</body>
</html>
"""

PAGE = """\
{% extends "base.html" %}
{% block content %}
<div class="page-header">
  <h1>{{ this.title }}</h1>
</div>
{{ this.body }}
{% endblock %}
"""

POST = """\
{% extends "base.html" %}
{% block content %}
<div class="row">
  <div class="col-md-9">
    <div class="page-header">
      <h1>{{ this.title }}</h1>
      <p class="text-muted">{{ this.date|dateformat }}
      {% for tag in this.tags %}
        <a class="label label-default" href="/tag/{{ tag }}/">{{ tag }}</a>
      {% endfor %}
      </p>
    </div>
    {{ this.body }}
    <ul class="pager">
    {% if this.prev %}
      <li class="previous"><a href="{{ this.prev.url }}">&larr; Newer: {{ this.prev.title }}</a></li>
    {% endif %}
    {% if this.next %}
      <li class="next"><a href="{{ this.next.url }}">Older: {{ this.next.title }} &rarr;</a></li>
    {% endif %}
    </ul>
  </div>
  {% if this.toc %}
  <div class="col-md-3">
    <nav class="toc">
      <h4>Contents</h4>
      {{ this.toc }}
    </nav>
  </div>
  {% endif %}
</div>
{% endblock %}
"""

INDEX = """\
{% extends "base.html" %}
{% block content %}
<div class="page-header">
  <h1>{{ this.title }}</h1>
</div>
{{ this.body }}
{% for item in this.content %}
<div class="entry">
  <h2><a href="{{ item.url }}">{{ item.title }}</a></h2>
  <p class="text-muted">{{ item.date|dateformat }}
  {% for tag in item.tags %}
    <a class="label label-default" href="/tag/{{ tag }}/">{{ tag }}</a>
  {% endfor %}
  </p>
</div>
{% endfor %}
{% if this.pages %}
<ul class="pagination">
{% for p in this.pages %}
  <li{% if p.pagenum == this.thispage %} class="active"{% endif %}><a href="{{ p.page.url }}">{{ p.pagenum }}</a></li>
{% endfor %}
</ul>
<ul class="pager">
{% if this.prevpage %}
  <li class="previous"><a href="{{ this.prevpage.url }}">&larr; Newer posts</a></li>
{% endif %}
{% if this.nextpage %}
  <li class="next"><a href="{{ this.nextpage.url }}">Older posts &rarr;</a></li>
{% endif %}
</ul>
{% endif %}
{% endblock %}
"""

HOME = """\
{% extends "base.html" %}
{% block content %}
<div class="jumbotron">
  <h1>{{ site.brand }}</h1>
  {{ this.body }}
</div>
<h2>Latest posts</h2>
<ul class="list-unstyled">
{% for item in site.reflinks['/blog'].content[:5] %}
  <li><a href="{{ item.url }}">{{ item.title }}</a> <span class="text-muted">{{ item.date|dateformat }}</span></li>
{% endfor %}
</ul>
<p><a href="/blog/">All posts</a></p>
{% endblock %}
"""

TAG = """\
{% extends "base.html" %}
{% block content %}
<div class="page-header">
  <h1>Posts tagged <em>{{ this.tag }}</em></h1>
</div>
{% for item in this.content %}
<div class="entry">
  <h2><a href="{{ item.url }}">{{ item.title }}</a></h2>
  <p class="text-muted">{{ item.date|dateformat }}</p>
</div>
{% endfor %}
{% endblock %}
"""

TAG_INDEX = """\
{% extends "base.html" %}
{% block content %}
<div class="page-header">
  <h1>{{ this.title }}</h1>
</div>
<ul class="list-inline">
{% for tag in this.content %}
  <li><a class="label label-default" href="{{ tag.url }}">{{ tag.tag }}</a> <span class="badge">{{ tag.content|length }}</span></li>
{% endfor %}
</ul>
{% endblock %}
"""

SITE_CSS = """\
body { padding-bottom: 40px; }
.footer { margin-top: 40px; border-top: 1px solid #eee; padding-top: 20px; }
.entry h2 { font-size: 24px; }
.toc ul { padding-left: 1em; }
"""


def _quoted(value: str) -> str:
    """A YAML string: double-quoted, as JSON writes it (a subset of YAML)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _front(fields: list[tuple[str, str]]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in fields) + "---\n\n"


def urubu() -> None:
    src = _fresh("urubu")
    for p in published():
        fields = [
            ("title", _quoted(p.title)),
            ("date", p.date),  # YYYY-MM-DD: a date to YAML, which Urubu requires
            ("tags", _yaml_list(p.tags)),
            ("layout", "post"),
        ]
        _write(src / "blog" / f"{p.slug}.md", _front(fields) + p.body)
    _write(
        src / "blog" / "index.md",
        _front(
            [
                ("title", "Blog"),
                ("layout", "index"),
                ("order", "date"),
                ("reverse", "true"),
                ("items_per_page", "5"),
                ("items_index", "this"),
            ]
        )
        + "Short programming lessons, newest first.\n",
    )
    _write(src / "about.md", _front([("title", _quoted(ABOUT.title)), ("layout", "page")]) + ABOUT.body)
    _write(
        src / "index.md",
        _front([("title", "Small Lessons"), ("layout", "home"), ("content", "[blog, tag, about]")])
        + "Short programming lessons, written down as I learn them.\n",
    )
    _write(src / "tag" / "index.md", _front([("title", "Tags"), ("layout", "tagindex")]))
    _write(src / "_site.yml", SITE_YML)
    _write(src / "_python.py", PYTHON_HOOKS)
    for name, text in (
        ("base", BASE),
        ("page", PAGE),
        ("post", POST),
        ("index", INDEX),
        ("home", HOME),
        ("tag", TAG),
        ("tagindex", TAG_INDEX),
    ):
        _write(src / "_layouts" / f"{name}.html", text)
    _write(src / "css" / "site.css", SITE_CSS)
