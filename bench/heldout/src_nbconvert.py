"""The ``nbconvert`` held-out site: a data-science blog of Jupyter notebooks converted by nbconvert 7.

    python bench/heldout/write_sources.py nbconvert

No generator around it: the blog is made the common way, a small script (``make_site.py``)
that runs ``jupyter nbconvert --to html`` (nbconvert 7.17.2, its default ``lab`` template:
JupyterLab's CSS inlined in the page, ``<div class="jp-Cell jp-MarkdownCell">`` and
``<div class="jp-Cell jp-CodeCell">`` cells, ``In [N]:`` prompts, Pygments at build time as
``<div class="highlight hl-python"><pre>``, every heading with an ``¶`` anchor link; the
``<title>`` the notebook's file name, nbconvert's default when the notebook's metadata has no
``title``) over ``posts/*.ipynb`` into ``posts/<slug>.html``, and over ``about.ipynb``, then
writes an index page (its own small HTML: every post, newest first, its date before the link),
a tags page (a ``<h2>`` per tag, its posts newest first) and an Atom feed (``atom.xml``:
title, link, date; no content). No sitemap, pagination or archives (the index lists every
post); the draft is not in ``posts/``.

Each post a notebook (nbformat 4.5, written here as nbformat writes one: sorted keys, one-space
indent, each cell's source as a list of lines; the build reads them back with nbformat, which
validates them): the first Markdown cell the title as a ``#`` heading and ``*Ana Lima,
YYYY-MM-DD*`` under it; the prose as Markdown cells (a new cell at each ``##`` heading and
around each code cell); the Python blocks as code cells (run once: an execution count, and a
short stream output where the code prints), the other languages' blocks as fenced code in the
Markdown cells (nbconvert renders them with Pygments as ``<div class="highlight"><pre>``, no
language in the page); the notebook's metadata ``kernelspec`` (python3) and ``language_info``
(``name: python``) and ``tags`` (read by the script only, for the tags page). About is a
notebook too (``about.ipynb``: its title and one Markdown cell).
"""

from __future__ import annotations

import json
from typing import Any

from corpus import ABOUT, Post, published
from write_sources import _fresh, _write

HOST = "https://nbconvert.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"

#: What a code cell printed when the notebook was run: (post, its Nth Python block) -> stdout.
OUTPUTS: dict[tuple[str, int], str] = {
    ("python-generators-tour", 1): (
        "2023-01-14 09:12:03 ERROR payment gateway timeout\n2023-01-14 09:15:41 ERROR payment gateway timeout\n"
    ),
    ("zeitzonen-richtig-behandeln", 0): "2023-03-26T03:30:00+02:00\n",
    ("regulyarnye-vyrazheniya", 0): "2023 10\n",
    ("reading-large-csv-in-chunks", 0): "48213907\n",
    ("reading-large-csv-in-chunks", 1): (
        "country\nBR    1.204311e+09\nDE    9.873020e+08\nIN    8.112457e+08\n"
        "US    7.905561e+08\nJP    4.410236e+08\nName: amount, dtype: float64\n"
    ),
}

METADATA: dict[str, Any] = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
    "language_info": {
        "codemirror_mode": {"name": "ipython", "version": 3},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
        "version": "3.11.7",
    },
}


def _lines(text: str) -> list[str]:
    """A cell's source as nbformat stores it: its lines, each but the last with its newline."""
    return text.splitlines(keepends=True)


def _notebook(slug: str, title: str, date: str | None, body: str, tags: tuple[str, ...] = ()) -> str:
    cells: list[dict[str, Any]] = []

    def markdown(text: str) -> None:
        text = text.strip("\n")
        if text.strip():
            cells.append(
                {
                    "cell_type": "markdown",
                    "id": f"{slug[:40]}-{len(cells)}",
                    "metadata": {},
                    "source": _lines(text),
                }
            )

    def code(text: str, nth: int) -> None:
        outputs = []
        if (slug, nth) in OUTPUTS:
            outputs.append({"name": "stdout", "output_type": "stream", "text": _lines(OUTPUTS[slug, nth])})
        cells.append(
            {
                "cell_type": "code",
                "execution_count": nth + 1,
                "id": f"{slug[:40]}-{len(cells)}",
                "metadata": {},
                "outputs": outputs,
                "source": _lines(text.rstrip("\n")),
            }
        )

    head = f"# {title}"
    if date:
        head += f"\n\n*{AUTHOR}, {date}*"
    markdown(head)
    prose: list[str] = []
    fence: list[str] | None = None  # the lines of an open Python block
    in_other = False  # inside a fenced block of another language: kept in the Markdown cell
    nth = 0
    for line in body.splitlines():
        if fence is not None:
            if line.strip() == "```":
                code("\n".join(fence), nth)
                nth += 1
                fence = None
            else:
                fence.append(line)
            continue
        if in_other:
            prose.append(line)
            in_other = line.strip() != "```"
            continue
        if line.startswith("```python"):
            markdown("\n".join(prose))
            prose = []
            fence = []
            continue
        if line.startswith("```"):
            in_other = True
        elif line.startswith("## "):
            markdown("\n".join(prose))
            prose = []
        prose.append(line)
    markdown("\n".join(prose))
    metadata = dict(METADATA)
    if tags:
        metadata["tags"] = list(tags)
    nb = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


MAKE_SITE = f'''"""make_site.py: build the blog into OUT (default: _site) with nbconvert's default HTML template.

    python make_site.py [OUT]

Each notebook of posts/ becomes posts/<slug>.html, about.ipynb about.html (``jupyter nbconvert
--to html``); the index, the tags page and the Atom feed are written from each post's first
cell (its ``#`` title and ``*Author, YYYY-MM-DD*`` line) and its notebook's ``tags``.
"""

import html
import re
import subprocess
import sys
from pathlib import Path

import nbformat

SITE = "{SITENAME}"
URL = "{HOST}"
OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "_site")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<link rel="alternate" type="application/atom+xml" title="{{site}}" href="/atom.xml">
<style>
body {{{{ font-family: sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }}}}
.date {{{{ color: #666; font-variant-numeric: tabular-nums; margin-right: .5rem; }}}}
ul.posts {{{{ list-style: none; padding: 0; }}}}
</style>
</head>
<body>
<header><a href="/">{{site}}</a> · <a href="/tags.html">Tags</a> · <a href="/about.html">About</a></header>
<main>
<h1>{{heading}}</h1>
{{content}}
</main>
<footer><p>Notebooks converted with <a href="https://nbconvert.readthedocs.io/">nbconvert</a>. <a href="/atom.xml">Atom feed</a></p></footer>
</body>
</html>
"""


def convert(notebooks, out):
    subprocess.run(
        ["jupyter", "nbconvert", "--to", "html", "--log-level", "WARN", "--output-dir", str(out), *map(str, notebooks)],
        check=True,
    )


def head(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    first = "".join(nb.cells[0].source)
    title = re.search(r"^# (.+)$", first, re.M).group(1)
    date = re.search(r"^\\*[^,*]+, (\\d{{4}}-\\d{{2}}-\\d{{2}})\\*$", first, re.M).group(1)
    return {{"slug": path.stem, "title": title, "date": date, "tags": list(nb.metadata.get("tags", []))}}


def item(post):
    return (
        f'<li><span class="date">{{post["date"]}}</span> '
        f'<a href="/posts/{{post["slug"]}}.html">{{html.escape(post["title"])}}</a></li>'
    )


def main():
    notebooks = sorted(Path("posts").glob("*.ipynb"))
    posts = sorted((head(p) for p in notebooks), key=lambda p: (p["date"], p["slug"]), reverse=True)
    convert(notebooks, OUT / "posts")
    convert([Path("about.ipynb")], OUT)

    items = "\\n".join(item(p) for p in posts)
    content = f"<p>Short programming lessons, written down as notebooks. Newest first:</p>\\n<ul class=\\"posts\\">\\n{{items}}\\n</ul>"
    (OUT / "index.html").write_text(PAGE.format(title=SITE, site=SITE, heading="Posts", content=content), encoding="utf-8")

    tags = sorted({{t for p in posts for t in p["tags"]}})
    sections = []
    for tag in tags:
        items = "\\n".join(item(p) for p in posts if tag in p["tags"])
        sections.append(f'<h2 id="{{html.escape(tag)}}">{{html.escape(tag)}}</h2>\\n<ul class="posts">\\n{{items}}\\n</ul>')
    (OUT / "tags.html").write_text(
        PAGE.format(title=f"Tags - {{SITE}}", site=SITE, heading="Tags", content="\\n".join(sections)), encoding="utf-8"
    )

    entries = "".join(
        f"  <entry>\\n    <title>{{html.escape(p['title'])}}</title>\\n"
        f"    <link href=\\"{{URL}}/posts/{{p['slug']}}.html\\"/>\\n    <id>{{URL}}/posts/{{p['slug']}}.html</id>\\n"
        f"    <updated>{{p['date']}}T00:00:00Z</updated>\\n  </entry>\\n"
        for p in posts
    )
    (OUT / "atom.xml").write_text(
        f'<?xml version="1.0" encoding="utf-8"?>\\n<feed xmlns="http://www.w3.org/2005/Atom">\\n'
        f"  <title>{{SITE}}</title>\\n  <link href=\\"{{URL}}/\\"/>\\n  <link rel=\\"self\\" href=\\"{{URL}}/atom.xml\\"/>\\n"
        f"  <id>{{URL}}/</id>\\n  <updated>{{posts[0]['date']}}T00:00:00Z</updated>\\n"
        f"  <author><name>Ana Lima</name></author>\\n{{entries}}</feed>\\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
'''


def _post(p: Post) -> str:
    return _notebook(p.slug, p.title, p.date, p.body, p.tags)


def nbconvert() -> None:
    src = _fresh("nbconvert")
    for p in published():  # the draft is not in posts/: the script converts every notebook there
        _write(src / "posts" / f"{p.slug}.ipynb", _post(p))
    _write(src / "about.ipynb", _notebook(ABOUT.slug, ABOUT.title, None, ABOUT.body))
    _write(src / "make_site.py", MAKE_SITE)
