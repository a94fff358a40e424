"""Org mode's ``org-publish`` (ox-html), Emacs 28.2's bundled Org 9.5: the held-out
``org-publish`` sources.

A blog as Org users publish one with ``org-publish-project-alist`` (``src/publish.el``, run as
``emacs --batch -l publish.el -f org-publish-all``): one ``.org`` file per published post under
``posts/`` (``#+TITLE:``, ``#+DATE:`` as an Org timestamp, which ``org-publish-find-date`` reads,
``#+AUTHOR:``, ``#+FILETAGS:``, ``#+INDEX:`` entries for the tags and the category), the home
page and the About page under ``pages/``. The ``posts`` component writes its sitemap
(``:auto-sitemap t``) as ``posts/index.org``, the index of posts: newest first
(``:sitemap-sort-files anti-chronologically``), each entry the post's date and its link
(``:sitemap-format-entry``); ``:makeindex t`` writes ``posts/theindex.org`` from the
``#+INDEX:`` entries (each tag and category, by letter, one link per post named by the term).
Org's export defaults otherwise (XHTML 1.0 Strict, the default inline CSS), with the options
most Org blogs set: no section numbers, no table of contents, ``^:{}`` (``a_b`` stays as it
is), a preamble of navigation links and a postamble with the date, the author, the tags and the
creator line.

The posts' Markdown is written out in Org by hand-rolled rules (the corpus' Markdown is small):
``##`` headings become level-1 headlines (``<h2>`` under the title's ``<h1>``), fenced code
``#+BEGIN_SRC LANG`` (lines that Org would read as syntax escaped with a comma, as Org does),
pipe tables Org tables (a ``|---+---|`` rule under the header), lists as they are (Org nests a
list by its items' indentation, two spaces here), inline code ``~code~``, bold ``*bold*``, an
in-page link ``[[*Heading][text]]``. The U+0008 backspace is kept. Org has no drafts: the draft
sits in ``drafts/``, which no component publishes. No feed: ox-rss is not in Debian's
``elpa-org-contrib`` (0.4, 2022), and no other package on apt has it.

    python bench/heldout/write_sources.py org-publish
"""

from __future__ import annotations

import datetime as dt
import re

from corpus import ABOUT, POSTS, Post
from write_sources import _fresh, _write

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")
#: Lines of a source block that Org would read as its own syntax (``org-escape-code-in-string``).
_ORG_SYNTAX = re.compile(r"^([ \t]*)(,*(?:\*|#\+))", re.M)


def timestamp(date: str) -> str:
    """A date as an Org timestamp, the form ``org-publish-find-date`` reads: ``<2023-01-15 Sun>``."""
    day = dt.date.fromisoformat(date)
    return f"<{date} {day.strftime('%a')}>"


def _slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def inline(text: str, headings: dict[str, str]) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(text[pos : m.start()])
        if m.group(1) is not None:
            out.append("~" + m.group(1) + "~")
        elif m.group(2) is not None:
            out.append("*" + m.group(2) + "*")
        else:
            out.append(f"[[*{headings[m.group(4)]}][{m.group(3)}]]")
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _table(lines: list[str], headings: dict[str, str]) -> list[str]:
    rows = [[inline(c.strip(), headings) for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]
    out = ["| " + " | ".join(head) + " |", "|" + "+".join("-" * (len(c) + 2) for c in head) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in body]
    return out


def body_org(body: str) -> str:
    """A post's Markdown body in Org."""
    lines = body.rstrip("\n").split("\n")
    headings = {_slug(ln[3:]): ln[3:] for ln in lines if ln.startswith("## ")}
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            code = _ORG_SYNTAX.sub(r"\1,\2", "\n".join(lines[i + 1 : j]))
            out += [f"#+BEGIN_SRC {lang}".rstrip(), code, "#+END_SRC"]
            i = j + 1
        elif line.startswith("## "):
            out.append("* " + line[3:])
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j], headings)
            i = j
        else:
            out.append(inline(line, headings))
            i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


def post_org(p: Post) -> str:
    tags = ":" + ":".join(p.tags) + ":" if p.tags else ""
    head = [
        f"#+TITLE: {p.title}",
        f"#+DATE: {timestamp(p.date)}",
        "#+AUTHOR: Ana Lima",
    ]
    if tags:
        head.append(f"#+FILETAGS: {tags}")
    index = [f"#+INDEX: {t}" for t in dict.fromkeys((*p.tags, p.category))]
    return "\n".join(head + index) + "\n\n" + body_org(p.body)


PUBLISH_EL = r""";;; publish.el --- publish the Small Lessons blog with org-publish  -*- lexical-binding: t -*-

;; emacs --batch -l publish.el -f org-publish-all
;; Sources in posts/ (the blog) and pages/ (home and About); the site in public/.

(require 'ox-publish)
(require 'htmlize nil t)  ; fontified source blocks when elpa-htmlize is installed

(defvar small-lessons-root (file-name-directory (or load-file-name buffer-file-name)))

;; Every file, every time; the publishing cache kept inside the build folder.
(setq org-publish-use-timestamps-flag nil
      org-publish-timestamp-directory (expand-file-name ".org-timestamps/" small-lessons-root)
      make-backup-files nil
      ;; htmlize: CSS class names, not the batch terminal's (colourless) faces.
      org-html-htmlize-output-type 'css
      org-export-with-broken-links 'mark)

(defun small-lessons-sitemap-entry (entry style project)
  "A line of the posts' index: the post's date, then its link."
  (if (directory-name-p entry)
      entry
    (format "%s — [[file:%s][%s]]"
            (format-time-string "%Y-%m-%d" (org-publish-find-date entry project))
            entry
            (org-publish-find-title entry project))))

(defun small-lessons-postamble (info)
  "The date (when the page has one), the author, the tags and the creator."
  (let ((date (org-export-get-date info "%Y-%m-%d"))
        (tags (plist-get info :filetags)))
    (concat
     (when date
       (format "<p class=\"date\">Published: %s</p>\n" (org-export-data date info)))
     (format "<p class=\"author\">Author: %s</p>\n"
             (org-export-data (plist-get info :author) info))
     (when tags
       (format "<p class=\"tags\">Tags: %s</p>\n" (mapconcat #'identity tags ", ")))
     (format "<p class=\"creator\">%s</p>" (plist-get info :creator)))))

(defvar small-lessons-preamble
  "<nav><a href=\"/\">Small Lessons</a> | <a href=\"/posts/\">Posts</a> | <a href=\"/posts/theindex.html\">Tags</a> | <a href=\"/about.html\">About</a></nav>")

(defvar small-lessons-common
  (list :author "Ana Lima"
        :section-numbers nil
        :with-toc nil
        :with-sub-superscript '{}
        :html-preamble small-lessons-preamble
        :html-postamble #'small-lessons-postamble))

(setq org-publish-project-alist
      `(("posts"
         :base-directory ,(expand-file-name "posts" small-lessons-root)
         :base-extension "org"
         :publishing-directory ,(expand-file-name "public/posts" small-lessons-root)
         :publishing-function org-html-publish-to-html
         :auto-sitemap t
         :sitemap-filename "index.org"
         :sitemap-title "Posts"
         :sitemap-style list
         :sitemap-sort-files anti-chronologically
         :sitemap-format-entry small-lessons-sitemap-entry
         :makeindex t
         ,@small-lessons-common)
        ("pages"
         :base-directory ,(expand-file-name "pages" small-lessons-root)
         :base-extension "org"
         :publishing-directory ,(expand-file-name "public" small-lessons-root)
         :publishing-function org-html-publish-to-html
         ,@small-lessons-common)
        ("small-lessons" :components ("posts" "pages"))))

;;; publish.el ends here
"""

HOME = """#+TITLE: Small Lessons
#+AUTHOR: Ana Lima

Short programming lessons, written down as I learn them: Python, JavaScript, C, Rust, Go,
databases and the shell.

- [[file:posts/index.org][All posts]], newest first
- [[file:posts/theindex.org][Tags and categories]]
- [[file:about.org][About this site]]
"""


def org_publish() -> None:
    src = _fresh("org-publish")
    for p in POSTS:
        folder = "drafts" if p.draft else "posts"
        _write(src / folder / f"{p.slug}.org", post_org(p))
    _write(src / "pages" / "index.org", HOME)
    _write(
        src / "pages" / "about.org",
        f"#+TITLE: {ABOUT.title}\n#+AUTHOR: Ana Lima\n\n{body_org(ABOUT.body)}",
    )
    _write(src / "publish.el", PUBLISH_EL)
