"""Generate a static blog for crawl benchmarks: N interlinked article pages, each ~6 KB.

Every page ``/posts/p<i>.html`` is a blog post (header, nav, an article with headings,
paragraphs, a list and a code block, an aside, a footer) that links to the next page plus nine
pseudo-random others, so every page is reachable from ``/index.html`` and a full crawl builds
~10 requests per page, most of them duplicates (as on real blogs). ``--js`` adds 300
JavaScript-rendered pages under ``/js/`` whose text exists only after their scripts run.

Deterministic: the same N gives the same bytes, so runs compare.

usage: python bench/gen_site.py OUT_DIR --pages 2000 [--js 300]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
from pathlib import Path

WORDS = (
    "crawler scheduler request response pipeline middleware extraction markdown article feed "
    "sitemap robots politeness throughput latency memory process worker queue frontier dedup "
    "content hash revisit render browser javascript selector parser encoding unicode charset "
    "python scrapy twisted asyncio reactor callback deferred signal stats settings spider item "
    "the a of and to in is that it for on with as was be by this are or from at an which have "
    "not but one all were when we there can more if out so what up about into than them only"
).split()
LINKS_PER_PAGE = 10
# Real blog pages carry a few KB of inline CSS and scripts (themes, analytics); parsers pay for it.
_STYLE = " ".join(
    f".c{k} {{ margin: {k}px; padding: {k % 7}px; color: #{k * 37 % 4096:03x}; font-size: {10 + k % 9}px; }}"
    for k in range(40)
)
_SCRIPT = " ".join(
    f"window.dataLayer = window.dataLayer || []; dataLayer.push({{event: 'view', slot: {k}}});"
    for k in range(15)
)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(4, 7)))


def page_html(i: int, n: int) -> str:
    """The HTML of post ``i`` of ``n``."""
    rng = random.Random(i)
    links = [(i + 1) % n, *(rng.randrange(n) for _ in range(LINKS_PER_PAGE - 1))]
    title = f"Post {i}: {' '.join(rng.choice(WORDS) for _ in range(5))}"
    paras = "\n".join(f"<p>{_paragraph(rng)}</p>" for _ in range(4))
    more = "\n".join(f"<p>{_paragraph(rng)}</p>" for _ in range(3))
    items = "".join(f"<li>{_sentence(rng)}</li>" for _ in range(4))
    code = "\n".join(f"    result_{k} = process(item_{k}, depth={k})" for k in range(6))
    related = "".join(f'<li><a href="/posts/p{j}.html">Post {j}</a></li>' for j in links)
    comments = "\n".join(
        f'<div class="comment"><p class="who">reader{rng.randrange(999)} said:</p>'
        f"<p>{_paragraph(rng)}</p></div>"
        for _ in range(4)
    )
    tags = " ".join(f'<span class="tag">{rng.choice(WORDS)}</span>' for _ in range(40))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - Bench Blog</title>
<meta name="description" content="{_sentence(rng)}"><link rel="stylesheet" href="/style.css">
<style>{_STYLE}</style>
<script>{_SCRIPT}</script></head>
<body><header><a href="/index.html">Bench Blog</a><nav><a href="/index.html">Home</a>
<a href="/posts/p0.html">First post</a></nav></header>
<main><article><h1>{title}</h1><p class="meta">Posted on 2024-{1 + i % 12:02d}-{1 + i % 28:02d}
by Bench Author</p>
{paras}
<h2>Details</h2>
<ul>{items}</ul>
<pre><code class="language-python">def handle(items):
{code}
    return result_0</code></pre>
{more}
</article>
<section class="comments"><h3>Comments</h3>
{comments}
</section>
<aside><h3>About</h3><p>{_paragraph(rng)}</p><h3>Tags</h3><div class="cloud">{tags}</div>
<h3>Related posts</h3><ul>{related}</ul></aside></main>
<footer><p>Copyright 2024 Bench Blog. All rights reserved.</p></footer></body></html>
"""


def js_page_html(i: int, n: int) -> str:
    """A page whose article exists only after its script runs (text base64-encoded in the script)."""
    rng = random.Random(10_000_000 + i)
    paragraphs = [_paragraph(rng) for _ in range(4)]
    encoded = json.dumps([base64.b64encode(p.encode()).decode() for p in paragraphs])
    nxt = (i + 1) % n
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>JS post {i}</title>
<meta property="og:type" content="article"></head>
<body><main id="app">Loading…</main><a href="/js/p{nxt}.html">next</a>
<script>
setTimeout(function () {{
  var a = document.createElement("article"), h = document.createElement("h1");
  h.textContent = "JS post {i}"; a.appendChild(h);
  {encoded}.forEach(function (b) {{ var p = document.createElement("p"); p.textContent = atob(b);
    a.appendChild(p); }});
  document.getElementById("app").replaceChildren(a);
}}, 20);
</script></body></html>
"""


def generate(out: Path, pages: int, js_pages: int = 0) -> Path:
    """Write the site under ``out`` (skipped when a complete copy is there); return ``out``."""
    marker = out / ".complete"
    if marker.exists() and marker.read_text() == f"{pages} {js_pages}":
        return out
    (out / "posts").mkdir(parents=True, exist_ok=True)
    for i in range(pages):
        (out / "posts" / f"p{i}.html").write_text(page_html(i, pages), encoding="utf-8")
    index = "".join(f'<li><a href="/posts/p{i}.html">Post {i}</a></li>' for i in range(min(pages, 10)))
    (out / "index.html").write_text(
        f"<!DOCTYPE html><html><head><title>Bench Blog</title></head><body><ul>{index}</ul></body></html>",
        encoding="utf-8",
    )
    (out / "style.css").write_text("body { font-family: sans-serif; }\n", encoding="utf-8")
    if js_pages:
        (out / "js").mkdir(exist_ok=True)
        for i in range(js_pages):
            (out / "js" / f"p{i}.html").write_text(js_page_html(i, js_pages), encoding="utf-8")
        links = "".join(f'<a href="/js/p{i}.html">{i}</a> ' for i in range(js_pages))
        (out / "js" / "index.html").write_text(
            f"<!DOCTYPE html><html><body>{links}</body></html>", encoding="utf-8"
        )
    marker.write_text(f"{pages} {js_pages}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--js", type=int, default=0)
    args = parser.parse_args()
    generate(args.out, args.pages, args.js)
    print(args.out)


if __name__ == "__main__":
    main()
