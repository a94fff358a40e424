"""The ``tinkerer`` held-out site's source: the corpus as a Tinkerer blog (a blogging engine on Sphinx).

What a Tinkerer user writes over ``tinker --setup`` (which the build runs: it writes ``conf.py``,
``master.rst``, ``index.html``, ``_templates/`` and ``_static/``): ``conf.py`` as ``--setup``
writes it, its "Edit the lines below" filled in (project, tagline, description, author,
copyright, the website's root URL for the feed), five posts a page instead of ten and the
sidebar widgets Tinkerer's documentation lists (``recent.html``, ``categories.html``,
``tags.html``, ``searchbox.html``) instead of the first and last only; the theme left as
``--setup`` sets it, ``flat`` (on ``boilerplate``). Each published post is
``YYYY/MM/DD/<slug>.rst``, as ``tinker --post drafts/<slug>.rst --date YYYY/MM/DD`` files a
draft (``post.move``: the folder is the post's date, the file keeps its name), written from the
``--post`` template (``_templates/post.rst``: the title, the text, then the ``.. author::``,
``.. categories::``, ``.. tags::`` and ``.. comments::`` directives; ``author:: default`` is
``conf.py``'s author). ``master.rst`` is the toctree ``tinker`` keeps: each ``--post`` puts its
post at the top (newest first), each ``--page`` its page at the end (``pages/about``, the About
page, ``tinker --page About``). The draft is left out (a draft is a file under ``drafts/``,
outside the toctree).

The posts' Markdown is written out in reST by ``src_sphinx_alabaster``'s rules (sections,
``.. code-block:: LANG``, ``list-table``, nested lists, in-page links by a section's title).

    python bench/heldout/write_sources.py tinkerer
"""

from __future__ import annotations

from corpus import ABOUT, Post, published
from src_sphinx_alabaster import body_rst, heading
from write_sources import _fresh, _write

HOST = "https://tinkerer.heldout.example/"

#: ``tinker --setup``'s conf.py (Tinkerer 1.7.2, ``writer.write_conf_file``), the lines it asks to
#: edit filled in; ``posts_per_page`` and ``html_sidebars`` as Tinkerer's docs show them.
CONF = f"""# -*- coding: utf-8 -*-

# flake8: noqa

import tinkerer
import tinkerer.paths

# **************************************************************
# TODO: Edit the lines below
# **************************************************************

# Change this to the name of your blog
project = 'Small Lessons'

# Change this to the tagline of your blog
tagline = 'Short programming lessons'

# Change this to the description of your blog
description = 'Short programming lessons, written to test site generators.'

# Change this to your name
author = 'Ana Lima'

# Change this to your copyright string
copyright = '2024, ' + author

# Change this to your blog root URL (required for RSS feed)
website = '{HOST}'

# **************************************************************
# More tweaks you can do
# **************************************************************

# Add your Disqus shortname to enable comments powered by Disqus
disqus_shortname = None

# Change your favicon (new favicon goes in _static directory)
html_favicon = '_static/tinkerer.ico'

# Pick another Tinkerer theme or use your own
html_theme = 'flat'

# Theme-specific options, see docs
html_theme_options = {{}}

# Link to RSS service like FeedBurner if any, otherwise feed is
# linked directly
rss_service = None

# Generate full posts for RSS feed even when using "read more"
rss_generate_full_posts = False

# Number of blog posts per page
posts_per_page = 5

# Character use to replace non-alphanumeric characters in slug
slug_word_separator = '_'

# Set to page under /pages (eg. "about" for "pages/about.html")
landing_page = None

# Set to override the default name of the first page ("Home")
first_page_title = None

# **************************************************************
# Edit lines below to further customize Sphinx build
# **************************************************************

# Add other Sphinx extensions here
extensions = ['tinkerer.ext.blog', 'tinkerer.ext.disqus']

# Add other template paths here
templates_path = ['_templates']

# Add other static paths here
html_static_path = ['_static', tinkerer.paths.static]

# Add other theme paths here
html_theme_path = ['_themes', tinkerer.paths.themes]

# Add file patterns to exclude from build
exclude_patterns = ['drafts/*', '_templates/*']

# Add templates to be rendered in sidebar here
html_sidebars = {{
    '**': ['recent.html', 'categories.html', 'tags.html', 'searchbox.html']
}}

# Add an index to the HTML documents.
html_use_index = False

# **************************************************************
# Do not modify below lines as the values are required by
# Tinkerer to play nice with Sphinx
# **************************************************************

source_suffix = tinkerer.source_suffix
master_doc = tinkerer.master_doc
version = tinkerer.__version__
release = tinkerer.__version__
html_title = project
html_show_sourcelink = False
html_add_permalinks = ''
"""


def docname(p: Post) -> str:
    """Where ``tinker --post`` files the post: its date's folders, the draft's file name."""
    return p.date.replace("-", "/") + "/" + p.slug


def post_page(p: Post) -> str:
    """The ``--post`` template (``_templates/post.rst``) filled in."""
    return (
        heading(p.title, "=")
        + "\n"
        + body_rst(p.body)
        + "\n.. author:: default\n"
        + f".. categories:: {p.category}\n"
        + ".. tags:: "
        + (", ".join(p.tags) or "none")
        + "\n.. comments::\n"
    )


def master(posts: list[Post]) -> str:
    """``master.rst`` (``writer.write_master_file``), the posts newest first, then the pages."""
    entries = [docname(p) for p in sorted(posts, key=lambda p: p.date, reverse=True)] + ["pages/about"]
    return (
        heading("Sitemap", "=")
        + "\n.. toctree::\n   :maxdepth: 1\n\n"
        + "".join(f"   {e}\n" for e in entries)
        + "\n"
    )


def tinkerer() -> None:
    src = _fresh("tinkerer")
    posts = list(published())
    for p in posts:
        _write(src / f"{docname(p)}.rst", post_page(p))
    _write(src / "pages" / "about.rst", heading(ABOUT.title, "=") + "\n" + body_rst(ABOUT.body))
    _write(src / "master.rst", master(posts))
    _write(src / "conf.py", CONF)
