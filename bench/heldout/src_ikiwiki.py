"""The ``ikiwiki`` held-out site: ikiwiki 3.20200202 (Debian 12), set up as its blog example.

    python bench/heldout/write_sources.py ikiwiki

ikiwiki is a wiki compiler that doubles as a blog engine: Debian's and many Free Software
projects' sites. Its blog is the one ``ikiwiki --setup /etc/ikiwiki/auto-blog.setup`` creates
(the files of ``/usr/share/ikiwiki/examples/blog``): the front page inlines the newest posts
(``show=5`` here) beside the sidebar (``[[!sidebar]]``: calendar, recent comments, archives, tag
list), ``posts`` lists every post (``archive=yes``), ``tags`` is a tag cloud, ``archives`` the
calendar archives that ``ikiwiki-calendar`` writes (build.sh runs it: a page per year and per
month), ``comments`` the recent comments. The setup (``blog.setup``, YAML as ``ikiwiki
--dumpsetup`` writes it) keeps auto-blog.setup's plugins and settings that need no server:
goodstuff, comments, calendar, sidebar, trail; RSS and Atom; ``tagbase: tags`` (tag pages made
by the tag plugin, ``autotag.tmpl``). Not its CGI wrapper, version control, websetup nor
blogspam: the site is built once, not edited on the web; ``cgiurl`` still names the wiki's CGI
(``/ikiwiki.cgi``, absent from the build: it 404s) as a real site's pages do.

Each post is ``posts/<slug>.mdwn``: Markdown (ikiwiki's mdwn plugin on Discount, fenced code on)
with ``[[!meta title=... date=... author=...]]`` and ``[[!tag ...]]`` lines at the top. Two posts
have one comment each (``posts/<slug>/comment_1_<md5>._comment``, as the comments plugin stores
them). The About page is ``about.mdwn``, linked from the sidebar. ikiwiki has no draft flag: the
draft lies in ``drafts/``, which the setup's ``exclude`` leaves out of the build.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

from corpus import ABOUT, POSTS
from write_sources import _fresh, _write

HOST = "https://ikiwiki.heldout.example"

SETUP = """# IkiWiki::Setup::Yaml - YAML formatted setup file
#
# The settings of /etc/ikiwiki/auto-blog.setup that need no server (no CGI wrapper, no version
# control, no websetup or blogspam). srcdir and destdir are set by bench/heldout/build.sh.
wikiname: Small Lessons
adminemail: ana@example.org
adminuser:
- ana
add_plugins:
- goodstuff
- comments
- calendar
- sidebar
- trail
disable_plugins: []
srcdir: wiki
destdir: html
url: %(host)s
cgiurl: %(host)s/ikiwiki.cgi
templatedir: /usr/share/ikiwiki/templates
underlaydir: /usr/share/ikiwiki/basewiki
timezone: UTC
rss: 1
atom: 1
usedirs: 1
discussion: 0
comments_pagespec: posts/* and !*/Discussion
archive_pagespec: page(posts/*) and !*/Discussion
global_sidebars: 0
locked_pages: '* and !postcomment(*)'
tagbase: tags
tag_autocreate: 1
tag_autocreate_commit: 0
exclude: ^drafts/
""" % {"host": HOST}

INDEX = """[[!if test="enabled(sidebar)" then=\"\"\"
[[!sidebar]]
\"\"\" else=\"\"\"
[[!inline pages=sidebar raw=yes]]
\"\"\"]]

[[!inline pages="page(./posts/*) and !*/Discussion" show="5"
actions=yes rootpage="posts"]]


This blog is powered by [ikiwiki](http://ikiwiki.info).
"""

POSTS_PAGE = """Here is a full list of posts to the [[blog|index]].

[[!inline pages="page(./posts/*) and !*/Discussion" archive=yes feedshow=10 quick=yes trail=yes]]
"""

SIDEBAR = """[[!if test="enabled(calendar)" then=\"\"\"
[[!calendar pages="page(./posts/*) and !*/Discussion"]]
\"\"\"]]

[[Recent Comments|comments]]

[[Archives]]

[[About]]

[[Tags]]:
[[!pagestats style="list" pages="./tags/*" among="./posts/*"]]
"""

TAGS = """[[!pagestats pages="./tags/*" among="./posts/*"]]

On the right you can see the tag cloud for this blog.
"""

ARCHIVES = """[[!if test="archives/*" then=\"\"\"
Browse through blog archives by year:
[[!map pages="./archives/* and !./archives/*/* and !*/Discussion"]]
\"\"\"
else=\"\"\"
You need to use the `ikiwiki-calendar` program to generate calendar-based
archive pages.
\"\"\"]]
"""

COMMENTS = """[[!sidebar content=\"\"\"
[[!inline pages="comment_pending(./posts/*)" feedfile=pendingmoderation
description="comments pending moderation" show=-1]]
Comments in the [[!commentmoderation desc="moderation queue"]]:
[[!pagecount pages="comment_pending(./posts/*)"]]
\"\"\"]]

Recent comments on posts in the [[blog|index]]:
[[!inline pages="./posts/*/Discussion or comment(./posts/*)"
template="comment"]]
"""

#: One approved comment on two posts (what a visitor wrote through the CGI, as stored).
COMMENTS_ON = {
    "python-generators-tour": (
        "Bruno",
        "Pipelines",
        "2023-01-16T09:30:00Z",
        "The pipeline section saved me a rewrite. Thanks!",
    ),
    "rust-vs-go-field-report": (
        "Chen",
        "Memory figures",
        "2024-06-02T18:05:00Z",
        "Were the memory figures measured under the same load?",
    ),
}


#: Posts edited after their date (the body says so): their file's time, ikiwiki's "Last edited".
EDITED = {"rust-vs-go-field-report": "2024-06-01"}

#: The time of every other source file (the index, sidebar, tags, archives and About pages).
SITE_TIME = "2024-06-01"


def _quoted(value: str) -> str:
    """A directive parameter: triple quotes when the value has a double quote."""
    return f'"""{value}"""' if '"' in value else f'"{value}"'


def _page(title: str, date: str, body: str, tags: tuple[str, ...] = (), author: str = "") -> str:
    head = [f"[[!meta title={_quoted(title)}]]", f'[[!meta date="{date} 00:00:00"]]']
    if author:
        head.append(f'[[!meta author="{author}"]]')
    if tags:
        head.append("[[!tag " + " ".join(tags) + "]]")
    return "\n".join(head) + "\n\n" + body


def ikiwiki() -> None:
    src = _fresh("ikiwiki")
    wiki = src / "wiki"
    for p in POSTS:
        folder = "drafts" if p.draft else "posts"
        _write(wiki / folder / f"{p.slug}.mdwn", _page(p.title, p.date, p.body, p.tags, "Ana Lima"))
    for slug, (name, subject, date, text) in COMMENTS_ON.items():
        digest = hashlib.md5(f"{slug}{date}".encode()).hexdigest()
        _write(
            wiki / "posts" / slug / f"comment_1_{digest}._comment",
            f'[[!comment format=mdwn\n username="{name.lower()}"\n nickname="{name}"\n'
            f' subject="{subject}"\n date="{date}"\n content="""\n{text}\n"""]]\n',
        )
    _write(wiki / "about.mdwn", f"[[!meta title={_quoted(ABOUT.title)}]]\n\n{ABOUT.body}")
    _write(wiki / "index.mdwn", INDEX)
    _write(wiki / "posts.mdwn", POSTS_PAGE)
    _write(wiki / "sidebar.mdwn", SIDEBAR)
    _write(wiki / "tags.mdwn", TAGS)
    _write(wiki / "archives.mdwn", ARCHIVES)
    _write(wiki / "comments.mdwn", COMMENTS)
    _write(src / "blog.setup", SETUP)


def _stamp(day: str) -> float:
    return datetime.strptime(day, "%Y-%m-%d").replace(hour=12, tzinfo=timezone.utc).timestamp()


def _found(pattern: str, source: Path) -> str:
    """The first group of ``pattern`` in ``source`` (the writer put it there)."""
    m = re.search(pattern, source.read_text(encoding="utf-8"))
    if m is None:
        raise ValueError(f"{source}: no {pattern!r}")
    return m.group(1)


def mtimes(wiki: Path) -> None:
    """Give the sources the times a blog's files have: ikiwiki dates a page's "Last edited" by
    its file's time (Git's commit time on a site kept in Git). A post's is its day (noon UTC),
    unless it was edited later (EDITED); a comment's its date; other files SITE_TIME."""
    for f in wiki.rglob("*"):
        day = SITE_TIME
        if f.suffix == ".mdwn" and f.parent.name == "posts":
            day = EDITED.get(f.stem) or _found(r'meta date="(\S+)', f)
        elif f.suffix == "._comment" or f.name.endswith("._comment"):
            day = _found(r'date="(\d{4}-\d\d-\d\d)', f)
        os.utime(f, (_stamp(day), _stamp(day)))


if __name__ == "__main__":
    # build.sh: python src_ikiwiki.py mtimes <copy of src/wiki>
    if sys.argv[1:2] != ["mtimes"] or len(sys.argv) != 3:
        sys.exit("usage: src_ikiwiki.py mtimes WIKI")
    mtimes(Path(sys.argv[2]))
