"""The ``blosxom`` held-out site: Blosxom 2.1.2 (Debian 12), a weblog in its static rendering mode.

    /tmp/genv/bin/python bench/heldout/write_sources.py blosxom   # Python-Markdown 3.11.3 in GENV

Blosxom is the classic Perl weblog of the early 2000s: one script, no database. Its entries are
text files in a data folder, ``title`` on the first line and the body (HTML) below it; the
folders are the categories (``/programming/``), and an entry's date is its file's modification
time (``mtime``), nothing else. Run from the shell with the static password
(``perl blosxom -password=…``, the "static rendering" of its documentation), it writes the home
page, every category's index, the date archives (``/YYYY/``, ``/YYYY/MM/``, ``/YYYY/MM/DD/``, one
for each day an entry was written) and, with ``$static_entries = 1``, a page of each entry
(``/<category>/<name>.html``), each in every static flavour: ``html`` (``index.html``) and ``rss``
(``index.rss``, RSS 2.0).

``src/`` is what a Blosxom author keeps: ``blosxom.conf``, a copy of Debian's
``/etc/blosxom/blosxom.conf`` (read through ``BLOSXOM_CONFIG_FILE``) with the blog's title,
description and URL, ``$datadir`` the ``data/`` folder beside it, ``$static_dir`` a ``static/``
folder beside it and the static settings (password, ``$static_entries = 1``); Debian's plugins
(``/etc/blosxom/plugins``: ``config``, ``flavourdir``, ``00RssLimit``, which keeps an RSS feed to
the five newest entries) as the package sets them. No flavour files: the ``html`` and ``rss``
flavours are the defaults built into the script (Debian ships none in
``/var/lib/blosxom/data/flavours``). ``data/<category>/<slug>.txt`` holds each post: its title, then
its Markdown converted to HTML by Python-Markdown 3.11.3 (``fenced_code`` and ``tables``, no
``codehilite``: a block is ``<pre><code class="language-…">``, as highlight.js and Prism in the
browser expect it). ``mtimes.json`` records each entry's date, the modification time build.sh gives
the file (``src_blosxom.py mtimes``) before the build: noon UTC on the post's day, the build run
with ``TZ=UTC``. A Git checkout keeps no file times; a Blosxom blog moved or restored from one
loses its dates without such a record.

Blosxom has no pages (every ``.txt`` under the data folder is an entry, dated, in the feeds), no
tags, no drafts (an entry is published when its file exists) and no pagination (the home page
shows ``$num_entries``, 40: every post here). About is therefore left out, as is the draft.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

from corpus import POSTS
from write_sources import _fresh, _write

HOST = "https://blosxom.heldout.example"

#: The static password: the script renders statically only when given it on the command line.
STATIC_PASSWORD = "small-lessons"

#: Debian's /etc/blosxom/blosxom.conf (blosxom 2.1.2-2.1), its settings for this blog filled in.
BLOSXOM_CONF = """# blosxom  --  resource file for the Debian GNU/Linux package
#              of the blosxom weblog application
#
# This file is sourced by /usr/lib/cgi-bin/blosxom.
#
# Storing values here instead of directly in the Perl code permits
# easier upgrades of the package without risks of losing these very
# configuration settings.
#
# Whichever variable ought to get adjusted can be set here. Values in
# cgi script act as default which may be overwritten from here.
#
# The Debian GNU/Linux extensions to blosxom are
# Copyright 2003  Dirk Eddelbuettel <edd@debian.org> and GPL'ed
#
# This copy: the Small Lessons blog, rendered statically (build.sh runs
# BLOSXOM_CONFIG_FILE=blosxom.conf perl /usr/lib/cgi-bin/blosxom -password=... -all=1
# in a copy of this folder; $config_dir is this file's folder).

# --- Configurable variables -----

# What's this blog's title?
$blog_title = "Small Lessons";

# What's this blog's description (for outgoing RSS feed)?
$blog_description = "Short programming lessons, written down as I learn them.";

# What's this blog's primary language (for outgoing RSS feed)?
$blog_language = "en";

# What's this blog's text encoding ?
# $blog_encoding = "UTF-8";

# Where are this blog's entries kept?
# $datadir = "/Library/WebServer/Documents/blosxom";
$datadir = "$config_dir/data";

# What's my preferred base URL for this blog (leave blank for automatic)?
$url = "%(host)s";

# Should I stick only to the datadir for items or travel down the
# directory hierarchy looking for items?  If so, to what depth?
# 0 = infinite depth (aka grab everything), 1 = datadir only, n = n levels down
# $depth = 0;

# How many entries should I show on the home page?
# $num_entries = 40;

# What file extension signifies a blosxom entry?
# $file_extension = "txt";

# What is the default flavour?
# $default_flavour = "html";

# Should I show entries from the future (i.e. dated after now)?
# $show_future_entries = 0;

# --- Plugins (Optional) -----

# File listing plugins blosxom should load
# (if empty blosxom will load all plugins in $plugin_dir and $plugin_path directories)
# $plugin_list = "";

# Where are my plugins kept?
$plugin_dir = "/etc/blosxom/plugins";

# Where should my plugins keep their state information?
$plugin_state_dir = "/var/lib/blosxom/state";

# Additional plugins location
# List of directories, separated by ';' on windows, ':' everywhere else
# $plugin_path = "";

# --- Static Rendering -----

# Where are this blog's static files to be created?
# $static_dir = "/Library/WebServer/Documents/blog";
$static_dir = "$config_dir/static";

# What's my administrative password (you must set this for static rendering)?
$static_password = "%(password)s";

# What flavours should I generate statically?
# @static_flavours = qw/html rss/;

# Should I statically generate individual entries?
# 0 = no, 1 = yes
$static_entries = 1;

# Should I encode entities for xml content-types? (plugins can turn this off if they do it themselves)
# $encode_xml_entities = 1;

# ------------ leave this last line

1;
""" % {"host": HOST, "password": STATIC_PASSWORD}


def entry_html(body: str) -> str:
    """A post's Markdown as the HTML body of its Blosxom entry (Python-Markdown, no highlighting)."""
    import markdown

    return markdown.markdown(body.lstrip("\n"), extensions=["fenced_code", "tables"])


def blosxom() -> None:
    src = _fresh("blosxom")
    times = {}
    for p in POSTS:
        if p.draft:
            continue  # Blosxom has no drafts: an entry is published when its file is there
        name = f"{p.category}/{p.slug}.txt"
        _write(src / "data" / name, f"{p.title}\n{entry_html(p.body)}\n")
        times[name] = f"{p.date}T12:00:00+00:00"
    _write(src / "mtimes.json", json.dumps(times, indent=1, sort_keys=True) + "\n")
    _write(src / "blosxom.conf", BLOSXOM_CONF)


def mtimes(data: Path, table: Path) -> None:
    """Give each entry its date, the only date Blosxom knows: the file's modification time."""
    for name, stamp in json.loads(table.read_text(encoding="utf-8")).items():
        when = datetime.fromisoformat(stamp).astimezone(timezone.utc).timestamp()
        os.utime(data / name, (when, when))


if __name__ == "__main__":
    # build.sh: python src_blosxom.py mtimes <copy of src/data> <src/mtimes.json>
    if sys.argv[1:2] != ["mtimes"] or len(sys.argv) != 4:
        sys.exit("usage: src_blosxom.py mtimes DATA MTIMES_JSON")
    mtimes(Path(sys.argv[2]), Path(sys.argv[3]))
