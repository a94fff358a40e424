"""The ``pandoc`` held-out site: a personal blog built by a shell script around pandoc 2.17.

    python bench/heldout/write_sources.py pandoc

No generator: the site is what many people make with pandoc alone (Debian 12's pandoc
2.17.1.1, skylighting 0.12.3.1), a small POSIX shell script, ``make-site.sh``, that runs
``pandoc -s -t html5`` once per page with pandoc's **default HTML5 template** (no
``--template``: ``<header id="title-block-header">`` with ``<h1 class="title">``, ``<p
class="author">``, ``<p class="date">``; ``<meta name="author">`` and ``<meta
name="dcterms.date">`` in the head; the template's inline stylesheet), ``--highlight-style
pygments`` (``<div class="sourceCode" id="cbN"><pre class="sourceCode LANG"><code
class="sourceCode LANG">``, an anchor per line), ``--title-prefix "Small Lessons"``
(``<title>Small Lessons – Title</title>``), ``--metadata-file site.yaml`` (the site's
``lang: en``, which a post's own ``lang`` overrides) and the three includes such sites add
to a template that has no navigation: ``--include-in-header`` (the feed's ``<link
rel="alternate">``), ``--include-before-body`` (a ``<nav>``: Home, Tags, About) and
``--include-after-body`` (a ``<footer>``). No table of contents (``--toc`` off).

``src/``: ``posts/<slug>.md`` (a YAML metadata block: ``title``, ``author``, ``date``
(``YYYY-MM-DD``), ``tags`` (a list, read by the script only), ``lang`` for the posts not in
English), ``about.md`` (a title only), ``site.yaml``, ``include/*.html``, ``templates/``
(two small pandoc templates the script renders each post's metadata through: ``meta.tsv``, a
line ``date<TAB>slug<TAB>title<TAB>tags`` (``-t plain --wrap=none``: a long title stays on
its line), and ``entry.xml``, the post's Atom ``<entry>`` (``-t html5``: the title escaped))
and ``make-site.sh``. The script writes ``posts/<slug>.html``, ``about.html``, then generates
Markdown for the index (``index.md``: a sentence, then every post newest first, ``- 2024-05-02 — [Title](/posts/<slug>.html)``)
and the tags page (``tags.md``: a ``##`` heading per tag, its posts newest first) and runs
them through the same template (``index.html``, ``tags.html``: neither has a date or an
author), and writes ``atom.xml`` with ``printf`` (the feed's head, then the entries: title,
link, id, updated (the date at midnight UTC), author; no content). No sitemap, robots.txt,
pagination or archive pages (the index lists every post). The draft is not written (the
script builds every file of ``posts/``).
"""

from __future__ import annotations

import json

from corpus import ABOUT, published
from write_sources import _fresh, _write

HOST = "https://pandoc.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"

#: The posts not written in English: their own ``lang`` (the site's is ``en``).
LANGS = {
    "zeitzonen-richtig-behandeln": "de",
    "hiddouki-shori-no-kihon": "ja",
    "regulyarnye-vyrazheniya": "ru",
    "medir-rendimiento-api": "es",
    "sqlite-bendi-huancun": "zh",
    "kyou-no-memo": "ja",
}

SITE_YAML = "lang: en\n"

HEAD_HTML = f"""<link rel="alternate" type="application/atom+xml" title="{SITENAME}" href="/atom.xml" />
"""

NAV_HTML = """<nav class="site-nav">
<a href="/">Home</a> · <a href="/tags.html">Tags</a> · <a href="/about.html">About</a>
</nav>
"""

FOOTER_HTML = f"""<footer class="site-footer">
<hr />
<p>© 2024 {AUTHOR} · <a href="/atom.xml">Atom feed</a> · Made with <a href="https://pandoc.org/">pandoc</a>
and a shell script.</p>
</footer>
"""

META_TSV = "$date$\t$slug$\t$title$\t$for(tags)$$tags$$sep$,$endfor$\n"

ENTRY_XML = f"""  <entry>
    <title>$title$</title>
    <link href="{HOST}/posts/$slug$.html" />
    <id>{HOST}/posts/$slug$.html</id>
    <updated>$date$T00:00:00Z</updated>
    <author><name>$for(author)$$author$$sep$, $endfor$</name></author>
  </entry>
"""

MAKE_SITE = f"""#!/bin/sh
# make-site.sh: build the blog into OUT (default: _site) with pandoc's default HTML5 template.
#   sh make-site.sh [OUT]
set -eu
out="${{1:-_site}}"
url="{HOST}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tab="$(printf '\\t')"

page() {{  # page SRC DEST: one page through the default template, with the site's includes
  pandoc "$1" -s -t html5 --highlight-style pygments \\
    --title-prefix "{SITENAME}" --metadata-file site.yaml \\
    --include-in-header include/head.html \\
    --include-before-body include/nav.html \\
    --include-after-body include/footer.html \\
    -o "$2"
}}

mkdir -p "$out/posts"
: >"$tmp/posts.tsv"
for f in posts/*.md; do
  slug="$(basename "$f" .md)"
  page "$f" "$out/posts/$slug.html"
  pandoc "$f" -t plain --wrap=none --template templates/meta.tsv -M slug="$slug" >>"$tmp/posts.tsv"
  pandoc "$f" -t html5 --wrap=none --template templates/entry.xml -M slug="$slug" >"$tmp/$slug.entry"
done
page about.md "$out/about.html"
LC_ALL=C sort -r "$tmp/posts.tsv" >"$tmp/sorted.tsv"

# The index: every post, newest first.
{{
  printf -- '---\\ntitle: Posts\\n---\\n\\n'
  printf 'Short programming lessons, written down as I learn them. Newest first:\\n\\n'
  while IFS="$tab" read -r date slug title tags; do
    printf -- '- %s — [%s](/posts/%s.html)\\n' "$date" "$title" "$slug"
  done <"$tmp/sorted.tsv"
}} >"$tmp/index.md"
page "$tmp/index.md" "$out/index.html"

# The tags page: one section per tag, its posts newest first.
while IFS="$tab" read -r date slug title tags; do
  printf '%s\\n' "$tags" | tr ',' '\\n' | while read -r tag; do
    [ -n "$tag" ] && printf '%s\\t%s\\t%s\\t%s\\n' "$tag" "$date" "$slug" "$title"
  done
done <"$tmp/sorted.tsv" | LC_ALL=C sort -t "$tab" -k1,1 -k2,2r >"$tmp/tags.tsv"
{{
  printf -- '---\\ntitle: Tags\\n---\\n'
  last=""
  while IFS="$tab" read -r tag date slug title; do
    if [ "$tag" != "$last" ]; then printf '\\n## %s\\n\\n' "$tag"; last="$tag"; fi
    printf -- '- [%s](/posts/%s.html) (%s)\\n' "$title" "$slug" "$date"
  done <"$tmp/tags.tsv"
}} >"$tmp/tags.md"
page "$tmp/tags.md" "$out/tags.html"

# The Atom feed: every post, newest first.
updated="$(head -n 1 "$tmp/sorted.tsv" | cut -f 1)"
{{
  printf '<?xml version="1.0" encoding="utf-8"?>\\n<feed xmlns="http://www.w3.org/2005/Atom">\\n'
  printf '  <title>{SITENAME}</title>\\n'
  printf '  <link href="%s/" />\\n  <link rel="self" href="%s/atom.xml" />\\n' "$url" "$url"
  printf '  <id>%s/</id>\\n  <updated>%sT00:00:00Z</updated>\\n' "$url" "$updated"
  while IFS="$tab" read -r date slug title tags; do cat "$tmp/$slug.entry"; done <"$tmp/sorted.tsv"
  printf '</feed>\\n'
}} >"$out/atom.xml"
"""


def _front(title: str, date: str | None = None, extra: dict[str, object] | None = None) -> str:
    lines = ["---", f"title: {json.dumps(title, ensure_ascii=False)}"]
    if date:
        lines += [f"author: {AUTHOR}", f"date: {date}"]
    for key, value in (extra or {}).items():
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines) + "\n---\n\n"


def pandoc() -> None:
    src = _fresh("pandoc")
    for p in published():  # the draft is not in posts/: the script builds every file there
        extra: dict[str, object] = {"tags": list(p.tags)}
        if p.slug in LANGS:
            extra["lang"] = LANGS[p.slug]
        _write(src / "posts" / f"{p.slug}.md", _front(p.title, p.date, extra) + p.body)
    _write(src / "about.md", _front(ABOUT.title) + ABOUT.body)
    _write(src / "site.yaml", SITE_YAML)
    _write(src / "include" / "head.html", HEAD_HTML)
    _write(src / "include" / "nav.html", NAV_HTML)
    _write(src / "include" / "footer.html", FOOTER_HTML)
    _write(src / "templates" / "meta.tsv", META_TSV)
    _write(src / "templates" / "entry.xml", ENTRY_XML)
    _write(src / "make-site.sh", MAKE_SITE)
