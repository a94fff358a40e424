"""Derive a held-out site's ``oracle.json`` and ``listings.json`` from its sources and build.

    python bench/heldout/make_oracle.py GENERATOR [...]

``oracle.json`` (the dev set's format): one entry per post (blogs) or content page (docs sites),
read from the *sources* (front matter: title, date; fenced code blocks or ``code-block``
directives counted in the source body), its ``url_path`` from the generator's permalink rule,
checked to exist in the build. ``listings.json``: the build's listing pages (indexes, tags,
categories, archives, pagination, search and general-index pages), by the generator's documented
output paths. Neither reads anything harvest wrote.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent / "tests" / "fixtures" / "heldout"
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})", re.M)
_RST_CODE = re.compile(r"^\s*\.\. (?:code-block|code|sourcecode)::", re.M)
_H1 = re.compile(r"^# (.+)$", re.M)


def code_languages(body: str) -> list[str]:
    """The language of each code block of a source, in order ('' when it names none).

    Fenced blocks (not MyST directives such as ```{admonition}, but ```{code-block} python) and
    reST ``code-block`` directives.
    """
    langs: list[str] = []
    fence = ""
    for line in body.splitlines():
        if m := _RST_CODE.match(line):
            langs.append(line[m.end() :].strip())
            continue
        m = _FENCE.match(line)
        if not m:
            continue
        if not fence:
            fence = m.group(1)
            info = line.strip()[len(fence) :].strip()
            if info.startswith("{"):
                directive, _, rest = info[1:].partition("}")
                if directive in ("code", "code-block", "sourcecode"):
                    langs.append(rest.strip())
            else:
                langs.append(info.split()[0] if info else "")
        elif m.group(1).startswith(fence) and not line.strip()[len(m.group(1)) :].strip():
            fence = ""
    return langs


def code_blocks(body: str) -> int:
    return len(code_languages(body))


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    if text.startswith("---\n"):
        head, _, body = text[4:].partition("\n---\n")
        return yaml.safe_load(head) or {}, body
    return {}, text


def key_lines(text: str, prefix: str = "") -> tuple[dict[str, str], str]:
    """Pelican's ``Key: value`` header or Nikola's ``.. key: value`` comment."""
    meta: dict[str, str] = {}
    lines = text.splitlines()
    start = 1 if lines and lines[0] == "<!--" else 0
    end = start
    for end in range(start, len(lines)):
        m = re.match(rf"^{re.escape(prefix)}(\w+):\s*(.*)$", lines[end])
        if not m:
            break
        meta[m.group(1).lower()] = m.group(2).strip()
    return meta, "\n".join(lines[end:])


def _date(value: Any) -> str | None:
    return str(value)[:10] if value else None


def _entry(path: str, title: str, date: str | None, body: str) -> dict[str, Any]:
    langs = code_languages(body)
    return {
        "url_path": path,
        "title": title,
        "date": date,
        "code_blocks": len(langs),
        "code_languages": langs,
    }


def pelican(src: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted((src / "content").glob("*.*")):
        text = f.read_text(encoding="utf-8")
        if f.suffix == ".rst":
            title = text.splitlines()[0]
            meta = dict(re.findall(r"^:(\w+): (.+)$", text, re.M))
            body = text
        else:
            meta, body = key_lines(text)
            title = meta["title"]
        if meta.get("status") == "draft":
            continue
        out.append(_entry(f"/{meta['slug']}.html", title, _date(meta["date"]), body))
    return out


def nbconvert(src: Path) -> list[dict[str, Any]]:
    """The posts, ``posts/<slug>.ipynb`` (the script converts every notebook there; the draft is
    not written), at the page ``jupyter nbconvert --to html`` writes for each,
    ``/posts/<slug>.html``; the title the first cell's ``#`` heading, the date its ``*Ana Lima,
    YYYY-MM-DD*`` line; the code blocks in the cells' order: a code cell is one block in the
    notebook's language (``language_info.name``), a Markdown cell's fenced blocks are counted as
    in any Markdown source. About (``about.ipynb``) is a page; the index and tags pages the
    script's own HTML: listings."""
    out = []
    for f in sorted((src / "posts").glob("*.ipynb")):
        nb = json.loads(f.read_text(encoding="utf-8"))
        language = nb["metadata"]["language_info"]["name"]
        first = "".join(nb["cells"][0]["source"])
        title = _H1.search(first)
        date = re.search(r"^\*[^,*]+, (\d{4}-\d{2}-\d{2})\*$", first, re.M)
        assert title and date, f
        langs: list[str] = []
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                langs.append(language)
            elif cell["cell_type"] == "markdown":
                langs += code_languages("".join(cell["source"]))
        out.append(
            {
                "url_path": f"/posts/{f.stem}.html",
                "title": title.group(1),
                "date": date.group(1),
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return out


_RUST_INNER_DOC = re.compile(r"^//!(?: |$)(.*)$")


def rustdoc(src: Path) -> list[dict[str, Any]]:
    """Every post module of the crate's section modules (``src/<section>/<module>.rs``: the posts
    and the install page) and the crate's root (``src/lib.rs``: About): rustdoc's page of a module,
    ``/small_lessons/<section>/<module>/index.html`` (the crate's, ``/small_lessons/index.html``),
    the title the module doc's first ``#`` heading (the page's ``<title>`` and ``<h1>`` are the
    module's path). The body is the module's ``//!`` lines; a fence's language is the first
    comma-separated word of its info string (``rust,ignore`` is Rust, as rustdoc reads it). The
    section modules' pages are listings; the items' pages (struct, trait, functions) and the
    source pages (``/src/**``) are not the corpus': not in the oracle. No date (rustdoc has none)."""
    out = []
    root = src / "src"
    for f in sorted([*root.glob("*/*.rs"), root / "lib.rs"]):
        lines = []
        for line in f.read_text(encoding="utf-8").splitlines():
            m = _RUST_INNER_DOC.match(line)
            if not m:
                break
            lines.append(m.group(1))
        doc = "\n".join(lines)
        doc = re.sub(r"^(\s*(?:> ?)?(?:`{3,}|~{3,})\w+),\w+", r"\1", doc, flags=re.M)
        doc = re.sub(r"^> ?", "", doc, flags=re.M)  # the install page's note holds a code block
        title = _H1.search(doc)
        if not title:
            raise ValueError(f"{f}: no title heading")
        rel = f.relative_to(root).with_suffix("")
        path = "/small_lessons/" + ("" if rel.name == "lib" else rel.as_posix() + "/") + "index.html"
        out.append(_entry(path, title.group(1).strip(), None, doc))
    return sorted(out, key=lambda e: e["url_path"])


_TEX_SPECIAL = re.compile(
    r"\\(?:textbackslash|textasciitilde|textbar|textless|textgreater|\^)\{\}|\\([{}$&#%_])"
)
_TEX_NAMED = {
    "textbackslash": "\\",
    "textasciitilde": "~",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "^": "^",
}
_TEX_BLOCK = re.compile(r"^\\begin\{(lstlisting|verbatim)\}(?:\[([^\]]*)\])?", re.M)
_TEX_MONTHS = "January February March April May June July August September October November December".split()


def _tex_text(text: str) -> str:
    """Running text of the ``latexml`` sources back from LaTeX's escapes (src_latexml.escape)."""
    return _TEX_SPECIAL.sub(lambda m: m.group(1) or _TEX_NAMED[m.group(0)[1:].removesuffix("{}")], text)


def latexml(src: Path) -> list[dict[str, Any]]:
    """The notes, ``posts/<slug>.tex`` (the script converts every file there; the draft is not
    written), at the page ``make-site.sh`` writes for each, ``/<slug>.html``; the title the
    ``\\title``, the date the ``\\date`` (``January 15, 2023``: LaTeXML writes it under the
    authors, ``<div class="ltx_dates">(January 15, 2023)</div>``). Code blocks: ``lstlisting``
    (the language its ``language=`` option, lower-cased: listings' names are case-insensitive)
    and ``verbatim`` (none). About (``about.tex``, no date) is a page; ``index.html`` the
    listing."""
    out = []
    for f in sorted((src / "posts").glob("*.tex")):
        text = f.read_text(encoding="utf-8")
        title = re.search(r"^\\title\{(.+)\}$", text, re.M)
        date = re.search(r"^\\date\{(\w+) (\d+), (\d{4})\}$", text, re.M)
        assert title and date, f
        iso = f"{date.group(3)}-{_TEX_MONTHS.index(date.group(1)) + 1:02d}-{int(date.group(2)):02d}"
        langs = []
        for m in _TEX_BLOCK.finditer(text):
            opts = dict(o.strip().split("=", 1) for o in (m.group(2) or "").split(",") if "=" in o)
            langs.append(opts.get("language", "").lower() if m.group(1) == "lstlisting" else "")
        out.append(
            {
                "url_path": f"/{f.stem}.html",
                "title": _tex_text(title.group(1)),
                "date": iso,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return out


def tinkerer(src: Path) -> list[dict[str, Any]]:
    """The posts, ``YYYY/MM/DD/<slug>.rst`` (a post is a document under a date's folders; the
    draft is not in the sources), at the page ``sphinx-build`` writes for each,
    ``/YYYY/MM/DD/<slug>.html``; the title the file's first line (the section title, the
    ``<h1>``), the date its folders (Tinkerer dates a post by them alone, and shows it as
    ``<div class="timestamp postmeta"><span>May 02, 2024</span></div>``); the code blocks its
    ``code-block`` directives. About (``pages/about.rst``) is a page."""
    out = []
    for f in sorted(src.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/*.rst")):
        rel = f.relative_to(src).as_posix()
        text = f.read_text(encoding="utf-8")
        date = rel[:10].replace("/", "-")
        out.append(_entry("/" + rel[: -len(".rst")] + ".html", text.split("\n", 1)[0], date, text))
    return out


def metalsmith(src: Path) -> list[dict[str, Any]]:
    """The ``posts`` collection: ``src/src/posts/<slug>.md`` (Metalsmith's source folder is the
    project's ``src/``; the draft is not in the sources) at the permalink
    ``@metalsmith/permalinks`` gives it, ``/posts/<slug>/``; the title and the date from the front
    matter. About, the home page's intro and the tags index are pages outside the collection."""
    out = []
    for f in sorted((src / "src" / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/posts/{f.stem}/", meta["title"], _date(meta["date"]), body))
    return out


def pandoc(src: Path) -> list[dict[str, Any]]:
    """The posts, ``posts/<slug>.md`` (the script builds every file there; the draft is not
    written), at the page ``make-site.sh`` writes for each, ``/posts/<slug>.html``; the title
    and date from the YAML metadata block (the template's ``<h1 class="title">`` and ``<p
    class="date">``). About (``about.md``) is a page; the index and tags pages are generated
    Markdown: listings."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/posts/{f.stem}.html", meta["title"], _date(meta["date"]), body))
    return out


def nuxt_content(src: Path) -> list[dict[str, Any]]:
    """The ``blog`` collection's posts (``content/blog/<slug>.md``; the draft is not in the
    sources): ``app/pages/blog/[...slug].vue`` at the entry's path, ``/blog/<slug>``, pre-rendered
    as ``/blog/<slug>/index.html``. The title and date the front matter's (the ``<h1>`` and the
    ``<time datetime>`` under it). About (``content/about.md``, the ``pages`` collection) is a page."""
    out = []
    for f in sorted((src / "content" / "blog").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/blog/{f.stem}/", meta["title"], _date(meta["date"]), body))
    return out


def nextjs(src: Path) -> list[dict[str, Any]]:
    """The blog-starter's posts (``_posts/<slug>.md``) but drafts (``lib/api.ts`` filters
    ``draft: true``), at ``/posts/<slug>`` (``app/posts/[slug]/page.tsx``; no trailing slash,
    Next's default; mirrored as ``posts/<slug>.html``); the title and date from the front matter
    (``date``: an ISO time at 09:30 UTC, the page's ``<time dateTime>``)."""
    out = []
    for f in sorted((src / "_posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/posts/{f.stem}", meta["title"], _date(meta["date"]), body))
    return out


def hakyll(src: Path) -> list[dict[str, Any]]:
    """The posts, ``posts/YYYY-MM-DD-slug.md`` (the starter's ``posts/*``; Hakyll has no drafts:
    the draft is not in the sources), at the rule's ``setExtension "html"``:
    ``/posts/YYYY-MM-DD-slug.html``; the title from the front matter, the date from the file
    name (``dateField`` reads it there when the front matter has none). About (``about.rst``)
    and Contact (``contact.markdown``) are pages."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/posts/{f.stem}.html", meta["title"], f.stem[:10], body))
    return out


def hexo(src: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted((src / "source" / "_posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        d = str(meta["date"])
        out.append(_entry(f"/{d[:4]}/{d[5:7]}/{d[8:10]}/{f.stem}/", meta["title"], d[:10], body))
    return out


#: Prism's own names for the fence aliases it knows (prismjs 1.30.0's components.json, the
#: common ones): Hexo's Prism wrapper (hexo-util's ``prismHighlight``) writes ``language-docker``
#: for a ```` ```dockerfile ```` fence, so the page names ``docker``, and that is the name to keep.
PRISM_NAMES = {
    "dockerfile": "docker",
    "sh": "bash",
    "shell": "bash",
    "js": "javascript",
    "yml": "yaml",
    "py": "python",
}


def hexo_prism(src: Path) -> list[dict[str, Any]]:
    """Hexo's posts, highlighted by Prism at build time: languages under Prism's names."""
    out = hexo(src)
    for e in out:
        e["code_languages"] = [PRISM_NAMES.get(lang, lang) for lang in e["code_languages"]]
    return out


def mkdocs(src: Path) -> list[dict[str, Any]]:
    out = []
    docs = src / "docs"
    for f in sorted(docs.rglob("*.md")):
        rel = f.relative_to(docs)
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        title = _H1.search(body).group(1)  # type: ignore[union-attr]
        if rel.parts[0] == "blog":
            if rel.parts[1] != "posts" or meta.get("draft"):
                continue  # the blog's index is its listing
            d = str(meta["date"])
            out.append(_entry(f"/blog/{d[:4]}/{d[5:7]}/{d[8:10]}/{meta['slug']}/", title, d[:10], body))
        elif rel.name != "index.md":
            out.append(_entry("/" + rel.with_suffix("").as_posix() + "/", title, None, body))
    return out


def sphinx_furo(src: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted(src.rglob("*.md")):
        rel = f.relative_to(src)
        if rel.name == "index.md":
            continue
        body = f.read_text(encoding="utf-8")
        out.append(_entry("/" + rel.with_suffix(".html").as_posix(), _H1.search(body).group(1), None, body))  # type: ignore[union-attr]
    return out


def lektor_fields(text: str) -> dict[str, str]:
    """A Lektor ``contents.lr``: fields split at ``---`` lines, ``----`` unescaped to ``---``."""
    fields: dict[str, str] = {}
    for chunk in re.split(r"^---$", text, flags=re.M):
        key, _, value = chunk.strip("\n").partition(":")
        value = re.sub(r"^-(-{3,})$", r"\1", value, flags=re.M)
        fields[key.strip()] = value.strip() if "\n" not in value else value.lstrip(" ").lstrip("\n")
    return fields


def lektor(src: Path) -> list[dict[str, Any]]:
    """Blog posts at the blog model's slug_format: /blog/YYYY/M/<id>/ (month not zero-padded)."""
    out = []
    for f in sorted((src / "content" / "blog").glob("*/contents.lr")):
        fields = lektor_fields(f.read_text(encoding="utf-8"))
        if "pub_date" not in fields or fields.get("_discoverable") == "no":
            continue  # categories; the draft (built, but in no listing)
        d = fields["pub_date"]
        path = f"/blog/{d[:4]}/{int(d[5:7])}/{f.parent.name}/"
        out.append(_entry(path, fields["title"], d, fields["body"]))
    return out


def ablog(src: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        title = _H1.search(body).group(1)  # type: ignore[union-attr]
        out.append(_entry(f"/posts/{f.stem}.html", title, _date(meta["date"]), body))
    return out


def nikola(src: Path) -> list[dict[str, Any]]:
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = key_lines(f.read_text(encoding="utf-8"), ".. ")
        if "draft" in [t.strip() for t in meta.get("tags", "").split(",")]:
            continue
        out.append(_entry(f"/posts/{meta['slug']}/", meta["title"], _date(meta["date"]), body))
    return out


def vitepress(src: Path) -> list[dict[str, Any]]:
    out = []
    docs = src / "docs"
    for f in sorted(docs.rglob("*.md")):
        rel = f.relative_to(docs)
        if rel.name == "index.md":
            continue
        body = f.read_text(encoding="utf-8")
        out.append(_entry("/" + rel.with_suffix(".html").as_posix(), _H1.search(body).group(1), None, body))  # type: ignore[union-attr]
    return out


def vuepress_hope(src: Path) -> list[dict[str, Any]]:
    """VuePress writes ``posts/<file>.md`` to ``/posts/<file>.html``; the draft is outside pagePatterns."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/posts/{f.stem}.html", meta["title"], _date(meta["date"]), body))
    return out


def starlight(src: Path) -> list[dict[str, Any]]:
    """Every docs page but the splash home: ``/<section>/<file>/`` (Starlight's slug is the path)."""
    out = []
    docs = src / "src" / "content" / "docs"
    for f in sorted([*docs.rglob("*.md"), *docs.rglob("*.mdx")]):
        rel = f.relative_to(docs)
        if rel.stem == "index":
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry("/" + rel.with_suffix("").as_posix() + "/", meta["title"], None, body))
    return out


def astro_blog(src: Path) -> list[dict[str, Any]]:
    """The blog collection's posts but drafts: ``/blog/<entry id>/`` (the id is the file's name)."""
    out = []
    for f in sorted((src / "src" / "content" / "blog").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/blog/{f.stem}/", meta["title"], _date(meta["pubDate"]), body))
    return out


def docusaurus_blog(src: Path) -> list[dict[str, Any]]:
    """The blog's posts but drafts, at the root (``routeBasePath: '/'``): ``/<slug>/``.

    Docusaurus' blog permalink is ``<routeBasePath>/<slug>`` (the front matter's ``slug``, else
    the file's name without a ``YYYY-MM-DD-`` prefix: these files have none, so no date path),
    built as ``<slug>/index.html``.
    """
    out = []
    for f in sorted((src / "blog").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        body = body.replace("<!-- truncate -->\n\n", "")
        out.append(_entry(f"/{meta.get('slug', f.stem)}/", meta["title"], _date(meta["date"]), body))
    return out


def jupyter_book(src: Path) -> list[dict[str, Any]]:
    """Every chapter of ``_toc.yml`` but its root (intro.md, the book's landing page, where
    index.html redirects): ``<path>.html`` (Sphinx's html builder)."""
    out = []
    toc = yaml.safe_load((src / "_toc.yml").read_text(encoding="utf-8"))
    for part in toc["parts"]:
        for chapter in part["chapters"]:
            f = src / f"{chapter['file']}.md"
            body = f.read_text(encoding="utf-8")
            title = _H1.search(body).group(1)  # type: ignore[union-attr]
            out.append(_entry(f"/{chapter['file']}.html", title, None, body))
    return sorted(out, key=lambda e: e["url_path"])


def vitepress_sugarat(src: Path) -> list[dict[str, Any]]:
    """VitePress writes ``docs/posts/<slug>.md`` to ``/posts/<slug>.html`` (front matter ``title``,
    ``date``). The docs page ``docs/guide/install.md`` (``/guide/install.html``) and About are
    ``publish: false``: the theme lists neither among its posts, nor does its feed; on a blog they
    are pages, not posts, as every blog source's About is. The draft lies in ``drafts/``
    (``srcExclude``)."""
    docs = src / "docs"
    out = []
    for f in sorted((docs / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/posts/{f.stem}.html", meta["title"], _date(meta["date"]), body))
    return sorted(out, key=lambda e: e["url_path"])


def valaxy(src: Path) -> list[dict[str, Any]]:
    """Valaxy routes ``pages/posts/<slug>.md`` to ``/posts/<slug>`` (written as
    ``posts/<slug>.html``; the pages, feeds and sitemap link the route), front matter ``title``,
    ``date``; the draft (``draft: true``) is not built. About (``pages/about/index.md``) is a
    page, not a post."""
    out = []
    for f in sorted((src / "pages" / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/posts/{f.stem}", meta["title"], _date(meta["date"]), body))
    return sorted(out, key=lambda e: e["url_path"])


#: The date line a dumi post states under its title (dumi has no post date of its own).
_DUMI_DATELINE = re.compile(r"^_Published (\d{4}-\d{2}-\d{2})_$", re.M)


def dumi(src: Path) -> list[dict[str, Any]]:
    """Every page of ``docs/`` but ``index.md`` (the ``hero`` landing page): ``/<path>/`` (Umi's
    exportStatic writes ``<route>/index.html``; the pages, the canonical and the sitemap link
    ``<route>`` without the slash). The title is the front matter's (the page's ``<title>`` and
    its sidebar entry; the body's ``# …`` is the same words); a post (``docs/blog/``) is dated by
    the ``_Published YYYY-MM-DD_`` line under its title, the docs pages and About have no date."""
    out = []
    docs = src / "docs"
    for f in sorted(docs.rglob("*.md")):
        rel = f.relative_to(docs)
        if rel.as_posix() == "index.md":
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        dateline = _DUMI_DATELINE.search(body) if rel.parts[0] == "blog" else None
        path = "/" + rel.with_suffix("").as_posix() + "/"
        out.append(_entry(path, meta["title"], dateline.group(1) if dateline else None, body))
    return sorted(out, key=lambda e: e["url_path"])


def mezzanine(src: Path) -> list[dict[str, Any]]:
    """The import's blog posts (``posts/<slug>.md``: a ``key: <JSON>`` header, a blank line, the
    Markdown) at Mezzanine's post URL with ``BLOG_SLUG`` empty and ``BLOG_URLS_DATE_FORMAT``
    unset, ``/<slug>/``; the title and the publish date of the header. The About page is a page."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        head, _, body = f.read_text(encoding="utf-8").partition("\n\n")
        meta = {k: json.loads(v) for k, _, v in (line.partition(": ") for line in head.splitlines())}
        out.append(_entry(f"/{f.stem}/", meta["title"], _date(meta["publish_date"]), body))
    return sorted(out, key=lambda e: e["url_path"])


def djangocms_blog(src: Path) -> list[dict[str, Any]]:
    """The import's blog posts (``posts/<slug>.md``: a ``key: <JSON>`` header, a blank line, the
    Markdown) at djangocms-blog's default permalink (``full_date``) under the page its apphook is
    on (``/blog/``): ``/blog/YYYY/MM/DD/<slug>/``; the title and the publish date of the header.
    Home (the latest posts) and the blog's lists are listings; About is a CMS page."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        head, _, body = f.read_text(encoding="utf-8").partition("\n\n")
        meta = {k: json.loads(v) for k, _, v in (line.partition(": ") for line in head.splitlines())}
        date = _date(meta["date_published"])
        assert date is not None
        path = f"/blog/{date[:4]}/{date[5:7]}/{date[8:10]}/{f.stem}/"
        out.append(_entry(path, meta["title"], date, body))
    return sorted(out, key=lambda e: e["url_path"])


def harp(src: Path) -> list[dict[str, Any]]:
    """Harp's posts, ``public/posts/<slug>.md`` (the draft is not in the sources), compiled to
    ``posts/<slug>.html`` and linked at Harp's clean URL, ``/posts/<slug>``; the title and the date
    from ``public/posts/_data.json`` (the layout writes them above the Markdown's HTML). About
    (``about.md``) is a page; ``posts/index.ejs`` is the posts' listing."""
    posts = src / "public" / "posts"
    data = json.loads((posts / "_data.json").read_text(encoding="utf-8"))
    out = []
    for f in sorted(posts.glob("*.md")):
        meta = data[f.stem]
        out.append(
            _entry(f"/posts/{f.stem}", meta["title"], _date(meta["date"]), f.read_text(encoding="utf-8"))
        )
    return out


def retype(src: Path) -> list[dict[str, Any]]:
    """Retype: a page per Markdown file at ``/<folder>/<name>/``, its title the ``#`` heading (the
    front matter's ``label`` is the sidebar's); the blog's posts (``blog/<name>.md``, dated in
    their front matter) at ``/blog/<name>/``; ``README.md`` the home page (``/``, a welcome text:
    neither post nor listing). Its code blocks name their language in Prism's class (``<pre
    class="language-docker">`` for a ```` ```dockerfile ```` fence): under Prism's names."""
    out = []
    for f in sorted(src.rglob("*.md")):
        rel = f.relative_to(src)
        if rel.name == "README.md":
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        title = _H1.search(body).group(1)  # type: ignore[union-attr]
        date = _date(meta.get("date")) if rel.parts[0] == "blog" else None
        entry = _entry("/" + rel.with_suffix("").as_posix() + "/", title, date, body)
        entry["code_languages"] = [PRISM_NAMES.get(lang, lang) for lang in entry["code_languages"]]
        out.append(entry)
    return out


def vocs(src: Path) -> list[dict[str, Any]]:
    """Every page of ``docs/pages`` but the landing page (``index.mdx``) and the blog's index
    (``blog.mdx``, a listing): ``/<path>/`` (``full-static`` writes ``<route>/index.html``; the pages
    link ``<route>``, which a static host answers with a 301 to the folder), the title its front
    matter's, the date the blog posts' front matter ``date`` (the JSON-LD's ``datePublished``; the
    docs pages and About have none)."""
    out = []
    pages = src / "docs" / "pages"
    for f in sorted([*pages.rglob("*.md"), *pages.rglob("*.mdx")]):
        rel = f.relative_to(pages)
        if rel.as_posix() in ("index.mdx", "blog.mdx"):
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        path = "/" + rel.with_suffix("").as_posix() + "/"
        out.append(_entry(path, meta["title"], _date(meta.get("date")), body))
    return sorted(out, key=lambda e: e["url_path"])


def wagtail(src: Path) -> list[dict[str, Any]]:
    """The posts the management command loads (``posts.json``), children of the blog index
    (slug ``blog``): ``/blog/<slug>/``, the date the post's ``date`` field, the body its Markdown.
    The home page, About and the tags page are pages of other types."""
    data = json.loads((src / "posts.json").read_text(encoding="utf-8"))
    out = [_entry(f"/blog/{p['slug']}/", p["title"], p["date"], p["body"]) for p in data["posts"]]
    return sorted(out, key=lambda e: e["url_path"])


def wintersmith(src: Path) -> list[dict[str, Any]]:
    """The blog template's articles, ``contents/articles/<slug>/index.md`` (the paginator's
    ``articles`` folder, one folder an article; the draft is not in the sources), at their page's
    URL, ``/articles/<slug>/`` (``index.html`` is dropped from the link); the title and the date
    (``2023-01-15 12:00``, read in UTC) from the front matter. About (``contents/about.md``) is a
    page outside the articles; the authors' JSON files have no template (no page)."""
    out = []
    for f in sorted((src / "contents" / "articles").glob("*/index.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/articles/{f.parent.name}/", meta["title"], _date(meta["date"]), body))
    return out


def eleventy_base_blog(src: Path) -> list[dict[str, Any]]:
    """The posts but drafts: ``content/blog/<file>.md`` at ``/blog/<file>/`` (Eleventy's default
    permalink, the input folder ``content/`` left out)."""
    out = []
    for f in sorted((src / "content" / "blog").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/blog/{f.stem}/", meta["title"], _date(meta["date"]), body))
    return out


def jekyll_deb(src: Path) -> list[dict[str, Any]]:
    """``_posts/YYYY-MM-DD-slug.md`` at Jekyll's default permalink (``date``):
    ``/:categories/:year/:month/:day/:title.html`` (one category per post here)."""
    out = []
    for f in sorted((src / "_posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        d, slug = f.stem[:10], f.stem[11:]
        path = f"/{meta['categories']}/{d[:4]}/{d[5:7]}/{d[8:10]}/{slug}.html"
        out.append(_entry(path, meta["title"], _date(meta["date"]), body))
    return out


def hugo_deb(src: Path) -> list[dict[str, Any]]:
    """The posts section but drafts: ``/posts/<file>/`` (Hugo's default permalink, pretty URLs)."""
    out = []
    for f in sorted((src / "content" / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/posts/{f.stem}/", meta["title"], _date(meta["date"]), body))
    return out


def nextra(src: Path) -> list[dict[str, Any]]:
    """Every page of ``content/`` but its index (the home page): ``/<section>/<file>/`` (Next's
    static export with ``trailingSlash: true`` writes ``<route>/index.html`` and links ``<route>/``)."""
    out = []
    content = src / "content"
    for f in sorted([*content.rglob("*.md"), *content.rglob("*.mdx")]):
        rel = f.relative_to(content)
        if rel.stem == "index":
            continue
        body = f.read_text(encoding="utf-8")
        title = _H1.search(body).group(1)  # type: ignore[union-attr]
        out.append(_entry("/" + rel.with_suffix("").as_posix() + "/", title, None, body))
    return sorted(out, key=lambda e: e["url_path"])


def gatsby_blog(src: Path) -> list[dict[str, Any]]:
    """The posts but drafts: ``content/blog/<folder>/index.md`` at ``/<folder>/`` (the starter's
    slug, ``createFilePath``; Gatsby writes ``<slug>index.html``)."""
    out = []
    for f in sorted((src / "content" / "blog").glob("*/index.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/{f.parent.name}/", meta["title"], _date(meta["date"]), body))
    return out


def zensical(src: Path) -> list[dict[str, Any]]:
    """The ``mkdocs`` layout (docs pages at ``/<section>/<file>/``, blog posts at
    ``/blog/YYYY/MM/DD/<slug>/``, drafts left out) plus the About page (``/about/``), but the tags
    index (``tags.md``: the tags plugin's listing marker, a listing)."""
    return [e for e in mkdocs(src) if e["url_path"] != "/tags/"]


def material_post_slug(title: str) -> str:
    """The slug Material for MkDocs' blog plugin makes of a post's title (its default
    ``post_slugify``, pymdownx's Unicode slugify in lower case): NFC, lower case, every character
    but word characters, spaces and dashes dropped, each space a dash (``Rust vs Go | A field
    report - part 2`` -> ``rust-vs-go--a-field-report---part-2``; non-ASCII letters kept)."""
    slug = unicodedata.normalize("NFC", title).strip().lower()
    return re.sub(r"[^\w\- ]", "", slug).replace(" ", "-")


def mkdocs_material_blog(src: Path) -> list[dict[str, Any]]:
    """The blog plugin's posts, ``docs/blog/posts/*.md`` but drafts (``draft: true``: ``mkdocs
    build`` leaves them out), at its default ``post_url_format`` ``{date}/{slug}`` under the blog,
    ``/blog/YYYY/MM/DD/<slug>/`` (no ``slug`` in the front matter: the title's, by
    :func:`material_post_slug`, non-ASCII letters kept as they are); the title the post's
    ``# Title``, the date the front matter's. The home page, About and the tags index are pages."""
    out = []
    for f in sorted((src / "docs" / "blog" / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        title = _H1.search(body).group(1)  # type: ignore[union-attr]
        d = str(meta["date"])
        path = f"/blog/{d[:4]}/{d[5:7]}/{d[8:10]}/{material_post_slug(title)}/"
        out.append(_entry(path, title, d[:10], body))
    return out


def _wp_title(title: str) -> str:
    """A title as WordPress shows it: ``wptexturize`` (every ``the_title`` on the page, in the
    ``<title>``, the feeds) writes a hyphen between spaces, or after a space at the end, as an
    en dash (``Rust vs Go | A field report – part 2``, ``TIL: git switch –``). No other title
    of the corpus has what it changes (quotes, ``--``, ``...``)."""
    return re.sub(r"(?<=\s)-(?=\s|$)", "\u2013", title)


def wordpress(src: Path) -> list[dict[str, Any]]:
    """The published posts (``status: publish``) at the site's permalink structure
    ``/%year%/%monthnum%/%day%/%postname%/``; titles as WordPress shows them (:func:`_wp_title`)."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta["status"] != "publish":
            continue
        d = str(meta["date"])
        path = f"/{d[:4]}/{d[5:7]}/{d[8:10]}/{meta['slug']}/"
        out.append(_entry(path, _wp_title(meta["title"]), d[:10], body))
    return sorted(out, key=lambda e: e["url_path"])


def rspress(src: Path) -> list[dict[str, Any]]:
    """Every page of ``docs/`` but its index (the ``pageType: home`` landing page):
    ``/<section>/<file>`` (Rspress' SSG writes ``<route>.html``; with ``route.cleanUrls`` on, the
    pages and the sitemap link ``<route>``, which a static host serves from that file)."""
    out = []
    docs = src / "docs"
    for f in sorted([*docs.rglob("*.md"), *docs.rglob("*.mdx")]):
        rel = f.relative_to(docs)
        if rel.stem == "index":
            continue
        body = f.read_text(encoding="utf-8")
        title = _H1.search(body).group(1)  # type: ignore[union-attr]
        out.append(_entry("/" + rel.with_suffix("").as_posix(), title, None, body))
    return sorted(out, key=lambda e: e["url_path"])


def vuepress_reco(src: Path) -> list[dict[str, Any]]:
    """VuePress 1 writes ``blogs/<category>/<file>.md`` to ``/blogs/<category>/<file>.html``; the
    draft lies outside the config's ``patterns``, the About page (``publish: false``) is a page."""
    out = []
    for f in sorted((src / "blogs").glob("*/*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        path = "/" + f.relative_to(src).with_suffix(".html").as_posix()
        out.append(_entry(path, meta["title"], _date(meta["date"]), body))
    return sorted(out, key=lambda e: e["url_path"])


def ghost(src: Path) -> list[dict[str, Any]]:
    """The import's published posts (not its page, not its draft) at the collection's permalink of
    ``routes.yaml`` (Ghost's default ``/{slug}/``); the body is the Markdown of each mobiledoc's
    Markdown cards, the date the post's ``published_at``."""
    permalink = yaml.safe_load((src / "routes.yaml").read_text(encoding="utf-8"))["collections"]["/"][
        "permalink"
    ]
    data = json.loads((src / "small-lessons.ghost.json").read_text(encoding="utf-8"))["db"][0]["data"]
    out = []
    for post in data["posts"]:
        if post["type"] != "post" or post["status"] != "published":
            continue
        doc = json.loads(post["mobiledoc"])
        body = "\n\n".join(card["markdown"] for kind, card in doc["cards"] if kind == "markdown")
        path = permalink.replace("{slug}", post["slug"])
        out.append(_entry(path, post["title"], _date(post["published_at"]), body))
    return sorted(out, key=lambda e: e["url_path"])


_SUMMARY_LINK = re.compile(r"^\s*[*+-] \[(.+)\]\(([^)#]+\.md)\)\s*$", re.M)


def honkit(src: Path) -> list[dict[str, Any]]:
    """Every page ``SUMMARY.md`` links but the introduction (``README.md``, built as
    ``index.html``, a welcome text): ``<file>.html`` beside the source, titled as the summary
    names it (HonKit's page title; each page's ``# `` heading says the same). A code block in a
    blockquote (the install page's note) counts: its ``> `` prefixes are dropped first."""
    out = []
    summary = (src / "SUMMARY.md").read_text(encoding="utf-8")
    for title, path in _SUMMARY_LINK.findall(summary):
        if path == "README.md":
            continue
        body = re.sub(r"^> ?", "", (src / path).read_text(encoding="utf-8"), flags=re.M)
        out.append(_entry("/" + path[: -len(".md")] + ".html", title, None, body))
    return sorted(out, key=lambda e: e["url_path"])


_BOOKDOWN_CHAPTER = re.compile(r"^# (.+?) \{#([^\s}]+)[^}]*\}$", re.M)
_BOOKDOWN_DATE = re.compile(r"^\*(\d{4}-\d{2}-\d{2})\*$", re.M)


def bookdown(src: Path) -> list[dict[str, Any]]:
    """Every chapter of the book, ``NN-<name>.Rmd`` (``index.Rmd``, the preface, is the welcome
    page; ``_``-named files, the draft, bookdown skips): the page bookdown's gitbook writes for
    it when it splits the book by chapter, ``/<id>.html`` (the id the chapter heading gives,
    ``# Title {#id}``), titled by that heading (the page shows it numbered, ``2 Title``); the date
    the italic line under it (``*2023-01-15*``; none on the install page and About); the code
    blocks its fences, a code block in a blockquote (the install page's note) too."""
    out = []
    for f in sorted(src.glob("[0-9][0-9]-*.Rmd")):
        text = f.read_text(encoding="utf-8")
        m = _BOOKDOWN_CHAPTER.search(text)
        assert m, f
        after = text[m.end() :].lstrip("\n").split("\n", 1)[0]
        d = _BOOKDOWN_DATE.match(after)
        body = re.sub(r"^> ?", "", text, flags=re.M)
        out.append(_entry(f"/{m.group(2)}.html", m.group(1), d.group(1) if d else None, body))
    return sorted(out, key=lambda e: e["url_path"])


def pkgdown(src: Path) -> list[dict[str, Any]]:
    """Every vignette, ``vignettes/<name>.Rmd`` (pkgdown skips the ``_``-named ones: the draft), at
    the article page pkgdown writes for it, ``/articles/<name>.html``; the title and date its YAML
    header's ``title`` and ``date`` (none on the install page), which the page shows in its
    ``<h1>`` and ``<h4 class="date">``; the code blocks its fences (the hidden setup chunk,
    ```` ```{r, include = FALSE} ````, is a knitr chunk, not a block of the page), a code block in
    a blockquote (the install page's note) too. The README, pkgdown's home page (``index.html``:
    the About text), is neither a vignette nor a listing."""
    out = []
    for f in sorted((src / "vignettes").glob("*.Rmd")):
        if f.name.startswith("_"):
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        body = re.sub(r"^> ?", "", body, flags=re.M)
        out.append(_entry(f"/articles/{f.stem}.html", meta["title"], _date(meta.get("date")), body))
    return sorted(out, key=lambda e: e["url_path"])


_MDBOOK_CHAPTER = re.compile(r"^\s*(?:- )?\[(.+)\]\(([^)#]+\.md)\)\s*$", re.M)
_MDBOOK_DATE = re.compile(r"^\*Published (\d{4}-\d{2}-\d{2})\*$")


def mdbook(src: Path) -> list[dict[str, Any]]:
    """Every chapter ``src/SUMMARY.md`` links (the prefix chapter About, then the parts' numbered
    chapters; the part titles, ``# Guide``, are no pages): the page mdBook writes for it beside
    the source, ``/<path>.html`` (``/guide/<slug>.html``, ``/about.html``), titled by the chapter's
    ``# `` heading (the summary's link text says the same; the page's ``<title>`` is ``Title -
    Small Lessons``); the date the italic line under the heading (``*Published 2023-01-15*``;
    none on About and the install page); the code blocks its fences, a code block in a
    blockquote (the install page's note) too. ``index.html``, mdBook's copy of the first chapter
    (About), is neither a chapter of its own nor a listing."""
    out = []
    summary = (src / "src" / "SUMMARY.md").read_text(encoding="utf-8")
    for _, path in _MDBOOK_CHAPTER.findall(summary):
        text = (src / "src" / path).read_text(encoding="utf-8")
        m = _H1.search(text)
        assert m, path
        after = text[m.end() :].lstrip("\n").split("\n", 1)[0]
        d = _MDBOOK_DATE.match(after)
        body = re.sub(r"^> ?", "", text, flags=re.M)
        out.append(_entry("/" + path[: -len(".md")] + ".html", m.group(1), d.group(1) if d else None, body))
    return sorted(out, key=lambda e: e["url_path"])


_IKI_META = re.compile(r'^\[\[!meta (\w+)=(?:"""(.*?)"""|"(.*?)")\]\]$')


def ikiwiki(src: Path) -> list[dict[str, Any]]:
    """ikiwiki's blog posts, ``wiki/posts/<slug>.mdwn``, at its ``usedirs`` path ``/posts/<slug>/``:
    the title and date from the ``[[!meta ...]]`` lines at the top, the body after the directive
    lines (meta, tag). The draft lies in ``wiki/drafts/``, out of the build (``exclude``)."""
    out = []
    for f in sorted((src / "wiki" / "posts").glob("*.mdwn")):
        lines = f.read_text(encoding="utf-8").split("\n")
        meta: dict[str, str] = {}
        while lines and lines[0].startswith("[[!"):
            if m := _IKI_META.match(lines[0]):
                meta[m.group(1)] = m.group(2) if m.group(2) is not None else m.group(3)
            lines.pop(0)
        out.append(_entry(f"/posts/{f.stem}/", meta["title"], _date(meta["date"]), "\n".join(lines)))
    return out


def _texi_text(text: str) -> str:
    """A Texinfo line's text: its three escaped characters unescaped."""
    return re.sub(r"@([@{}])", r"\1", text)


def texinfo_file_name(node: str) -> str:
    """The HTML file of a node, as texi2any 6.8 names it when splitting by node (its default,
    TRANSLITERATE_FILE_NAMES, on): the node name transliterated to ASCII (Texinfo's own table,
    then Perl's Text::Unidecode: a CJK character becomes a word and a space, ``я`` is ``ya``),
    then protected as the manual's "HTML Xref Node Name Expansion" says: ASCII letters and
    digits kept, each space a ``-``, any other character ``_`` and four hex digits (``-`` is
    ``_002d``). Asked of Texinfo's own Perl (``Texinfo::Convert::NodeNameNormalization``, the
    functions texi2any runs: the node names here are plain text), not copied."""
    import subprocess
    import unicodedata

    share = "/usr/share/texinfo"
    script = (
        "use Texinfo::Convert::NodeNameNormalization; "
        "print Texinfo::Convert::NodeNameNormalization::_unicode_to_protected("
        "Texinfo::Convert::NodeNameNormalization::_unicode_to_transliterate($ARGV[0]))"
    )
    name = unicodedata.normalize("NFC", re.sub(r"\s+", " ", node.strip()))
    out = subprocess.run(
        [
            "perl",
            f"-I{share}",
            f"-I{share}/lib/libintl-perl/lib",
            f"-I{share}/lib/Unicode-EastAsianWidth/lib",
            "-CSA",
            "-e",
            script,
            name,
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    ).stdout
    return out + ".html"


_TEXI_BLOCK = re.compile(r"^@(example|lisp|verbatim)\b(.*)$", re.M)


def texinfo(src: Path) -> list[dict[str, Any]]:
    """Every ``@section`` node (the posts and the install page) and the About chapter of
    ``small-lessons.texi``, at the file texi2any writes for its node (:func:`texinfo_file_name`).
    Code blocks: ``@example``, ``@lisp`` and ``@verbatim``; the language is ``@example``'s first
    argument (the Texinfo manual: "use the first argument to specify the language of the code";
    HTML writes it as a class name), ``lisp`` for ``@lisp``, none for ``@verbatim``. The
    Guide, Reference and Appendix chapters (a text and their menu), Top and Index are listings."""
    text = (src / "small-lessons.texi").read_text(encoding="utf-8")
    out = []
    for chunk in re.split(r"^(?=@node )", text, flags=re.M)[1:]:
        node = chunk.split("\n", 1)[0][len("@node ") :].strip()
        head = re.search(r"^@(chapter|section|unnumbered|top) (.+)$", chunk, re.M)
        if not head or not (head.group(1) == "section" or node == "About"):
            continue
        langs = []
        for m in _TEXI_BLOCK.finditer(chunk):
            kind, args = m.group(1), m.group(2).strip()
            lang = args.split(",")[0].strip()
            langs.append("lisp" if kind == "lisp" else "" if kind == "verbatim" else lang)
        out.append(
            {
                "url_path": "/" + texinfo_file_name(node),
                "title": _texi_text(head.group(2).strip()),
                "date": None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_ZIM_TITLE = re.compile(r"^====== (.+?) ======$", re.M)
_ZIM_CREATED = re.compile(r"^Creation-Date: (\d{4}-\d{2}-\d{2})", re.M)
_ZIM_CODE = re.compile(r"^\{\{\{code:(.*)$", re.M)
_ZIM_LANG = re.compile(r'\blang="([^"]*)"')


def zim(src: Path) -> list[dict[str, Any]]:
    """Every page of the Zim notebook (``src/notebook``) but the home page and the namespace pages
    (``Guide.txt``, ``Reference.txt``, ``Appendix.txt``: a sentence and links to their pages): the
    posts, the install page and About, at the file ``zim --export`` writes for it (the page's file
    name with ``.html``: ``/Guide/Page_name.html``, percent-encoded); the title its first heading
    (``====== Title ======``, the page's ``<h1>`` and ``<title>``); the date of its
    ``Creation-Date`` header, which the page shows as its "Created <weekday> <day> <month> <year>"
    line (Zim's page template); code blocks from the source-view plugin's ``{{{code:`` objects,
    the language their ``lang`` attribute (a GtkSourceView id: ``sh``, ``js``; none on the
    Dockerfile's)."""
    from urllib.parse import quote

    notebook = src / "notebook"
    listing = {"Home.txt", "Guide.txt", "Reference.txt", "Appendix.txt"}
    out = []
    for f in sorted(notebook.rglob("*.txt")):
        rel = f.relative_to(notebook).as_posix()
        if rel in listing:
            continue
        text = f.read_text(encoding="utf-8")
        title = _ZIM_TITLE.search(text)
        created = _ZIM_CREATED.search(text)
        langs = []
        for m in _ZIM_CODE.finditer(text):
            lang = _ZIM_LANG.search(m.group(1))
            langs.append(lang.group(1) if lang else "")
        out.append(
            {
                "url_path": "/" + quote(rel[: -len(".txt")] + ".html"),
                "title": title.group(1) if title else f.stem.replace("_", " "),
                "date": created.group(1) if created else None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_SYNTAXHIGHLIGHT = re.compile(r"<syntaxhighlight(?: lang=\"([^\"]*)\")?>")
_DISPLAYTITLE = re.compile(r"^\{\{DISPLAYTITLE:(.+?)\}\}$", re.M)


def mediawiki(src: Path) -> list[dict[str, Any]]:
    """The wiki's content pages (``pages.json``: the posts, the install page and the About page,
    not the Main Page nor the categories) at ``/wiki/<title>`` (spaces as underscores, the Short
    URL manual's ``$wgArticlePath``); the title the page shows (its ``DISPLAYTITLE``, else its
    name); the date of its one revision, the date its "This page was last edited on" footer shows
    (a wiki page states no other); code blocks from the wikitext's ``<syntaxhighlight lang>``."""
    import html

    out = []
    for page in json.loads((src / "pages.json").read_text(encoding="utf-8")):
        if page["kind"] not in ("post", "docs", "about"):
            continue
        text = (src / page["file"]).read_text(encoding="utf-8")
        shown = _DISPLAYTITLE.search(text)
        title = html.unescape(shown.group(1)) if shown else page["title"]
        langs = [m.group(1) or "" for m in _SYNTAXHIGHLIGHT.finditer(text)]
        path = "/wiki/" + page["title"].replace(" ", "_")
        out.append(
            {
                "url_path": path,
                "title": title,
                "date": page["timestamp"][:10],
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_DW_CODE = re.compile(r"^<code(?: ([^>\s]+))?>", re.M)
_DW_TITLE = re.compile(r"^====== (.+?) ======$", re.M)


def dokuwiki(src: Path) -> list[dict[str, Any]]:
    """The wiki's content pages (``pages.json``: the posts, the install page and the About page;
    not the start pages nor the sidebar) at ``/<id>`` (nice URLs, ``userewrite`` 1: the page id,
    namespaces joined by ``:``); the title its first heading (``useheading``: the ``<h1>`` and the
    ``<title>`` show it); the date of its one revision, which its "Last modified" line shows (a
    wiki page states no other); code blocks from the text's ``<code LANG>``."""
    out = []
    for page in json.loads((src / "pages.json").read_text(encoding="utf-8")):
        if page["kind"] not in ("post", "docs", "about"):
            continue
        text = (src / page["file"]).read_text(encoding="utf-8")
        title = _DW_TITLE.search(text)
        langs = [m.group(1) or "" for m in _DW_CODE.finditer(text)]
        out.append(
            {
                "url_path": "/" + page["id"],
                "title": title.group(1) if title else page["title"],
                "date": page["timestamp"][:10],
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_TRAC_CODE = re.compile(r"^\{\{\{(?:#!(\S+))?$", re.M)
_TRAC_TITLE = re.compile(r"^= (.+?) =$", re.M)
#: Trac's built-in processors that make HTML containers, not code (WikiHtml).
_TRAC_HTML = frozenset({"div", "span", "table", "tr", "td", "th", "html", "htmlcomment"})


def trac(src: Path) -> list[dict[str, Any]]:
    """The wiki's content pages (``pages.json``: the posts, the install page and the About page;
    not ``WikiStart`` nor the section pages) at ``/wiki/<name>`` (tracd ``--single-env``); the title
    its level-1 heading (the ``<h1>``; Trac's ``<title>`` is the page's name); the date of its one
    version, which its "Last modified" line shows (a wiki page states no other); code blocks from
    the text's ``{{{#!LANG`` processor blocks (not the ``#!div`` boxes around the install page's
    notes)."""
    out = []
    for page in json.loads((src / "pages.json").read_text(encoding="utf-8")):
        if page["kind"] not in ("post", "docs", "about"):
            continue
        text = (src / page["file"]).read_text(encoding="utf-8")
        title = _TRAC_TITLE.search(text)
        langs = [m.group(1) or "" for m in _TRAC_CODE.finditer(text) if m.group(1) not in _TRAC_HTML]
        out.append(
            {
                "url_path": "/wiki/" + page["name"],
                "title": title.group(1) if title else page["title"],
                "date": page["timestamp"][:10],
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_GITIT_TITLE = re.compile(r"^title: (.+)$", re.M)


def gitit(src: Path) -> list[dict[str, Any]]:
    """The wiki's content pages (``pages.json``: the posts, the install page and the About page;
    not the ``Front Page``) at ``/<page name>`` (``/Guide/Python generators tour``, linked
    percent-encoded); the title its metadata block's ``title:`` (the ``<h1 class="pageTitle">`` and
    the ``<title>`` after the wiki's name); a post's date that of its one commit, which the Front
    Page shows beside its link (the page itself states none; its history, ``/_history/``, is
    closed by robots.txt), none for the install page and About (no public page shows theirs);
    code blocks from the Markdown's fences."""
    out = []
    for page in json.loads((src / "pages.json").read_text(encoding="utf-8")):
        if page["kind"] not in ("post", "docs", "about"):
            continue
        text = (src / page["file"]).read_text(encoding="utf-8")
        head, _, body = text.partition("\n...\n")
        title = _GITIT_TITLE.search(head)
        langs = code_languages(body)
        out.append(
            {
                "url_path": "/" + page["name"],
                "title": title.group(1) if title else page["title"],
                "date": page["timestamp"][:10] if page["kind"] == "post" else None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


def fossil(src: Path) -> list[dict[str, Any]]:
    """The technotes (``entries.json``'s ``technote`` entries; not the wiki's About and home pages)
    at ``/technote/<id>``, the id Fossil drew at random when the build entered the note
    (``technotes.json``, which the build writes beside ``site/``); the title the note's leading
    ``#`` heading, which Fossil takes as the page's title (and its timeline comment); the date the
    technote's time (``--technote``), which the timeline shows (the page itself states none);
    code blocks from the note's fences."""
    ids = json.loads((src.parent / "technotes.json").read_text(encoding="utf-8"))
    out = []
    for e in json.loads((src / "entries.json").read_text(encoding="utf-8")):
        if e["kind"] != "technote":
            continue
        text = (src / e["file"]).read_text(encoding="utf-8")
        heading = _H1.search(text)
        langs = code_languages(text)
        out.append(
            {
                "url_path": "/technote/" + ids[e["slug"]],
                "title": heading.group(1) if heading else e["comment"],
                "date": e["time"][:10],
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["date"])


def docbook(src: Path) -> list[dict[str, Any]]:
    """Every chapter of ``book.xml`` (the posts and the install page) and its ``<preface>`` (About),
    at the file the chunked HTML writes for it with ``use.id.as.filename``: ``/<id>.html``. The
    title its ``<title>`` (the page prints it after a label, "Chapter 2. ", which the source does
    not hold); the date its ``<chapterinfo><pubdate>``, which the chapter's title page shows (none
    on the install page and About); the code blocks its ``<programlisting>`` elements, the language
    their ``language`` attribute (which the HTML does not write). Parts (Guide, Reference,
    Appendix), the book's ``index.html`` and the index are listings."""
    import xml.etree.ElementTree as ET

    book = ET.parse(src / "book.xml").getroot()
    out = []
    for el in book.iter():
        if el.tag not in ("chapter", "preface"):
            continue
        pubdate = el.find("chapterinfo/pubdate")
        langs = [pl.get("language", "") for pl in el.iter("programlisting")]
        out.append(
            {
                "url_path": f"/{el.get('id')}.html",
                "title": "".join(el.find("title").itertext()),  # type: ignore[union-attr]
                "date": pubdate.text if pubdate is not None else None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_ADOC_SOURCE = re.compile(r"^\[source(?:,([^,\]]*))?[,\]]", re.M)
_ADOC_ATTR = re.compile(r"^:([\w-]+):[ \t]*(.*)$", re.M)


def asciidoctor(src: Path) -> list[dict[str, Any]]:
    """Every ``.adoc`` of the sources but ``index.adoc`` (the site's index, a listing): the posts
    in ``guide/``, ``reference/`` and ``appendix/``, the install page and About, at the file
    ``asciidoctor -R`` writes for it (``/<folder>/<name>.html``). The title its document title
    (``= ``, the ``<title>`` and ``<h1>``); the date its ``:revdate:`` attribute, which the
    header's details line shows (none on the install page and About: their footer's "Last
    updated" is the build's time, not a date of theirs); the code blocks its ``[source,LANG]``
    listings, the language the block's (Rouge writes it as ``<code data-lang>``)."""
    out = []
    for f in sorted(src.rglob("*.adoc")):
        rel = f.relative_to(src).as_posix()
        if rel == "index.adoc":
            continue
        text = f.read_text(encoding="utf-8")
        head = text.split("\n\n", 1)[0]
        attrs = dict(_ADOC_ATTR.findall(head))
        langs = [(m.group(1) or "").strip() for m in _ADOC_SOURCE.finditer(text)]
        out.append(
            {
                "url_path": "/" + rel[: -len(".adoc")] + ".html",
                "title": head.split("\n", 1)[0][len("= ") :],
                "date": attrs.get("revdate") or None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


_ORG_KEYWORD = re.compile(r"^#\+(\w+):[ \t]*(.*)$", re.M)
_ORG_SRC = re.compile(r"^[ \t]*#\+begin_src\b[ \t]*(\S*)", re.M | re.I)


def org_publish(src: Path) -> list[dict[str, Any]]:
    """The ``posts`` component of ``publish.el`` (``posts/<slug>.org``, at
    ``/posts/<slug>.html``): the title its ``#+TITLE:``, the date its ``#+DATE:`` timestamp
    (``<2023-01-15 Sun>``, which the postamble and the sitemap show), the code blocks its
    ``#+BEGIN_SRC LANG`` blocks. ``posts/index.org`` (the sitemap) and ``posts/theindex.org``
    (``:makeindex``) are written by the build, not in the sources. The home page and About
    (``pages/``) are neither posts nor listings of posts; the draft (``drafts/``) is published
    by no component."""
    out = []
    for f in sorted((src / "posts").glob("*.org")):
        text = f.read_text(encoding="utf-8")
        meta = {m.group(1).upper(): m.group(2).strip() for m in _ORG_KEYWORD.finditer(text)}
        langs = [m.group(1) for m in _ORG_SRC.finditer(text)]
        out.append(
            {
                "url_path": f"/posts/{f.stem}.html",
                "title": meta["TITLE"],
                "date": meta["DATE"].strip("<>[]")[:10],
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return out


def _tid(path: Path) -> tuple[dict[str, str], str]:
    """A TiddlyWiki ``.tid`` file: its ``name: value`` header, then, after a blank line, the text."""
    head, _, text = path.read_text(encoding="utf-8").partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines())
    return fields, text


def _uri_component(text: str) -> str:
    """JavaScript's ``encodeURIComponent`` (UTF-8; letters, digits and ``-_.!~*'()`` kept)."""
    from urllib.parse import quote

    return quote(text, safe="!'()*")


def tiddlywiki(src: Path) -> list[dict[str, Any]]:
    """The dated tiddlers of ``tiddlers/`` (the posts, the install page and About: the structure
    tiddlers, sections, tags, categories and lists, have no ``created``), each at the page the
    static build renders for it, ``static/<encodeURIComponent(title)>.html``, linked as
    TiddlyWiki's static templates link it (``$uri_doubleencoded$``: the title encoded twice, so
    the file name's own ``%`` is ``%25`` in the URL); the title its ``title`` field (the page's
    ``<h2 class="tc-title">``); the date its ``created`` (``YYYYMMDDhhmmssSSS``, UTC; the page shows
    ``modified``, the same day); the code blocks from its Markdown text."""
    out = []
    for f in sorted((src / "tiddlers").glob("*.tid")):
        fields, text = _tid(f)
        if "created" not in fields:
            continue
        created = fields["created"]
        entry = _entry(
            "/static/" + _uri_component(_uri_component(fields["title"])) + ".html",
            fields["title"],
            f"{created[:4]}-{created[4:6]}-{created[6:8]}",
            text,
        )
        # What the page declares: a fence in a language the highlight plugin's bundle has no
        # grammar for is written as a bare <pre><code>, its language nowhere.
        entry["code_languages"] = ["" if lang in _TW_NO_GRAMMAR else lang for lang in entry["code_languages"]]
        out.append(entry)
    return sorted(out, key=lambda e: e["url_path"])


#: Corpus languages TiddlyWiki 5.4.1's highlight plugin (highlight.js 11.11.1, its "common"
#: bundle in plugins/tiddlywiki/highlight/files/highlight.min.js) registers no grammar for.
_TW_NO_GRAMMAR = frozenset({"dockerfile", "haskell"})


#: Fumadocs' ``<Tabs>`` (Radix tabs): only the active (first) ``<Tab>`` is rendered; the others'
#: panels are pre-rendered empty (``hidden``, Radix unmounts inactive content), so their code
#: blocks are in no page.
_TABS = re.compile(r"^<Tabs\b.*?^</Tabs>", re.M | re.S)
_LATER_TAB = re.compile(r"(?<=</Tab>)(.*?)(?=</Tabs>)", re.S)


def fumadocs(src: Path) -> list[dict[str, Any]]:
    """Every docs page of ``content/docs`` but its index (``/docs``, a welcome text and cards):
    ``/docs/<section>/<file>`` (the loader's ``baseUrl`` and the file's path; Next's static export
    without ``trailingSlash`` writes ``<route>.html`` and links ``<route>``), the title its front
    matter's (``DocsTitle``; the body has no ``# title``), the code blocks of each ``<Tabs>``' first
    ``<Tab>`` only (the others are not in the page: ``_TABS``); and the About page, a TSX page of the
    ``(home)`` route group (``app/(home)/about/page.tsx``: ``/about``, its ``<h1>``, no code)."""
    out = []
    docs = src / "content" / "docs"
    for f in sorted(docs.rglob("*.mdx")):
        rel = f.relative_to(docs)
        if rel.stem == "index":
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        body = _TABS.sub(lambda m: _LATER_TAB.sub("", m.group(0)), body)
        out.append(_entry("/docs/" + rel.with_suffix("").as_posix(), meta["title"], None, body))
    about = (src / "app" / "(home)" / "about" / "page.tsx").read_text(encoding="utf-8")
    out.append(_entry("/about", re.search(r"<h1>(.+?)</h1>", about).group(1), None, ""))  # type: ignore[union-attr]
    return sorted(out, key=lambda e: e["url_path"])


_NUMBERED = re.compile(r"^\d+\.")


def docus(src: Path) -> list[dict[str, Any]]:
    """Every page of ``content/`` but ``index.md`` (the landing page): Docus makes each a docs
    page, the About page (``4.about.md``) too. Its path is the file's, Nuxt Content's order prefixes
    (``1.guide/2.python-generators-tour.md``) and the extension dropped: ``/guide/python-generators-tour``
    (Nitro writes ``<route>.html`` and the pages link ``<route>``). The title is the front matter's
    (``UPageHeader``'s ``<h1>``); the body names none. Every code block is in the page, the code
    group's hidden tab too."""
    out = []
    content = src / "content"
    for f in sorted(content.rglob("*.md")):
        rel = f.relative_to(content)
        if rel.as_posix() == "index.md":
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        parts = [_NUMBERED.sub("", p) for p in rel.with_suffix("").parts]
        out.append(_entry("/" + "/".join(parts), meta["title"], None, body))
    return sorted(out, key=lambda e: e["url_path"])


#: The characters TypeDoc keeps in a file name besides ASCII letters and digits and any character
#: from U+00A0 on (typedoc 0.28's ``createNormalizedUrl``); every other one becomes ``_``.
_TYPEDOC_KEPT = set("()+,-._")


def typedoc_file_name(name: str) -> str:
    """The file name TypeDoc's default router (``kind``) gives a reflection's page: its name with
    every character but ASCII letters and digits, ``()+,-._`` and the characters from U+00A0 on
    made ``_`` (``Rust vs Go | A field report - part 2`` is ``Rust_vs_Go___A_field_report_-_part_2``)."""
    return "".join(
        c if (c.isascii() and c.isalnum()) or c in _TYPEDOC_KEPT or ord(c) >= 0xA0 else "_" for c in name
    )


def typedoc(src: Path) -> list[dict[str, Any]]:
    """Every project document ``typedoc.json`` names (the posts, the install page and About):
    ``/documents/<name>.html``, the name the front matter's ``title`` (TypeDoc's document name),
    made a file name by ``typedoc_file_name``. TypeDoc's API pages (the module, the class, the
    interface and the functions) are content pages too, but not the corpus': not in the oracle.
    No date (TypeDoc's documents have none)."""
    config = json.loads((src / "typedoc.json").read_text(encoding="utf-8"))
    out = []
    for rel in config["projectDocuments"]:
        meta, body = front_matter((src / rel).read_text(encoding="utf-8"))
        body = re.sub(r"^> ?", "", body, flags=re.M)  # the install page's alert holds a code block
        path = f"/documents/{typedoc_file_name(meta['title'])}.html"
        out.append(_entry(path, meta["title"], None, body))
    return sorted(out, key=lambda e: e["url_path"])


def nanoc(src: Path) -> list[dict[str, Any]]:
    """The articles, ``content/posts/<slug>.md`` (``kind: article``), but the draft (``draft:
    true``, dropped by the Rules' preprocess block): the default rule's ``/posts/<slug>/``; the
    title and ``created_at`` from the front matter. About (``content/about.md``) is no article."""
    out = []
    for f in sorted((src / "content" / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft") or meta.get("kind") != "article":
            continue
        out.append(_entry(f"/posts/{f.stem}/", meta["title"], _date(meta["created_at"]), body))
    return out


def staticsite(src: Path) -> list[dict[str, Any]]:
    """The posts, ``posts/<slug>.md`` (the blog's ``pages: "posts/*"``; the draft is not in the
    sources: staticsite 2.3 documents ``draft`` but drops only pages dated in the future):
    ``/posts/<slug>/`` (a page is written as ``<name>/index.html``; the theme links it without the
    slash); the title and the date (``2023-01-15 12:00``) from the front matter. About
    (``about.md``, outside ``posts/``) is a page."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/posts/{f.stem}/", meta["title"], _date(meta["date"]), body))
    return out


def urubu(src: Path) -> list[dict[str, Any]]:
    """The posts, ``blog/<slug>.md`` (``layout: post``; the draft is not in the sources: Urubu has
    no drafts): ``/blog/<slug>.html`` (Urubu's ``link_ext``); the title and the date from the front
    matter. About (``about.md``) is a page; ``blog/index.md`` is the blog's index."""
    out = []
    for f in sorted((src / "blog").glob("*.md")):
        if f.name == "index.md":
            continue
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        out.append(_entry(f"/blog/{f.stem}.html", meta["title"], _date(meta["date"]), body))
    return out


_PRE_CODE = re.compile(r'<pre><code(?: class="language-([^"]*)")?>')


def blosxom(src: Path) -> list[dict[str, Any]]:
    """Every entry of the data folder, ``data/<category>/<name>.txt`` (Blosxom has no pages and no
    drafts), at its permalink as Blosxom's default ``html`` flavour writes it: "permanent link to
    this entry" is ``$url/$yr/$mo_num/$da#$fn``, the page of the entry's day (``/YYYY/MM/DD/``,
    one entry a day here: the posts' dates differ). ``$static_entries`` also writes
    ``/<category>/<name>.html``, the same story without the day in the head, which no page links
    (the feeds' ``<guid isPermaLink="false">`` names it without ``.html``). The title the entry's
    first line; the date the file's time (``mtimes.json``, the only date Blosxom knows); the code
    blocks the body's ``<pre><code>`` (Python-Markdown's ``fenced_code``: ``class="language-…"``)."""
    times = json.loads((src / "mtimes.json").read_text(encoding="utf-8"))
    out = []
    for f in sorted((src / "data").rglob("*.txt")):
        title, _, body = f.read_text(encoding="utf-8").partition("\n")
        day = times[f.relative_to(src / "data").as_posix()][:10]
        langs = [m.group(1) or "" for m in _PRE_CODE.finditer(body)]
        out.append(
            {
                "url_path": f"/{day[:4]}/{day[5:7]}/{day[8:10]}/",
                "title": title,
                "date": day,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


def jsdoc(src: Path) -> list[dict[str, Any]]:
    """Every tutorial with no children in ``tutorials/tutorials.json`` (the posts, the install page
    and About): ``/tutorial-<name>.html`` (the default template's ``tutorialToUrl``; the names are
    ASCII slugs, which its ``getUniqueFilename`` keeps as they are), the title ``tutorials.json``'s.
    The three section tutorials (a line of text under the list of their children) are listings;
    JSDoc's API pages (the module's, the class's, the source file's) are content pages but not
    the corpus': not in the oracle. No date (JSDoc's tutorials have none)."""
    tree = json.loads((src / "tutorials" / "tutorials.json").read_text(encoding="utf-8"))
    out = []

    def walk(nodes: dict[str, Any]) -> None:
        for name, meta in nodes.items():
            if meta.get("children"):
                walk(meta["children"])
                continue
            body = (src / "tutorials" / f"{name}.md").read_text(encoding="utf-8")
            body = re.sub(r"^> ?", "", body, flags=re.M)  # the install page's note holds a code block
            out.append(_entry(f"/tutorial-{name}.html", meta["title"], None, body))

    walk(tree)
    return sorted(out, key=lambda e: e["url_path"])


_PY_DOCSTRING = re.compile(r'^r?"""(.*?)"""', re.S)


def pdoc(src: Path) -> list[dict[str, Any]]:
    """Every module of the package's section subpackages (the posts and the install page) and
    ``about.py`` (About): pdoc's page of a module, ``/<package>/<section>/<module>.html``; the
    title the module docstring's first ``#`` heading (the post's title). The package's and the
    subpackages' pages (``__init__.py``) are the welcome text and the listings. No date (pdoc's
    pages have none). The code blocks are the module docstring's fences (the functions' source,
    which pdoc shows under "View Source", is not the post's)."""
    out = []
    package = src / "small_lessons"
    for f in sorted([*package.glob("*/*.py"), package / "about.py"]):
        if f.name == "__init__.py":
            continue
        m = _PY_DOCSTRING.match(f.read_text(encoding="utf-8"))
        if not m:
            raise ValueError(f"{f}: no module docstring")
        doc = re.sub(r"^> ?", "", m.group(1), flags=re.M)  # the install page's alert holds a code block
        title = _H1.search(doc)
        if not title:
            raise ValueError(f"{f}: no title heading")
        path = "/" + f.relative_to(src).with_suffix(".html").as_posix()
        out.append(_entry(path, title.group(1).strip(), None, doc))
    return out


_RST_DATE_FIELD = re.compile(r"^:Date: (\d{4}-\d{2}-\d{2})$", re.M)


def pydoctor(src: Path) -> list[dict[str, Any]]:
    """Every module of the package's section subpackages (the posts and the install page) and
    ``about.py`` (About): pydoctor's page of a module, named by its dotted path,
    ``/small_lessons.<section>.<module>.html``. The title the module docstring's first line (its
    PEP 257 summary line, the docstring's first ``<p>``; the page's ``<title>`` and ``<h1>`` are the
    dotted path); the date the docstring's ``:Date:`` field (shown after the text as an "Unknown
    Field: date" table; none on the install page and About); the code blocks its ``code-block``
    directives (pydoctor colours each as Python, ``<pre class="py-doctest">``, and writes no
    language). The package's page (``small_lessons.html``, and ``index.html``, its copy) is the
    welcome text; the subpackages' pages are listings; the class's page is API, not the corpus'."""
    out = []
    package = src / "small_lessons"
    for f in sorted([*package.glob("*/*.py"), package / "about.py"]):
        if f.name == "__init__.py":
            continue
        m = _PY_DOCSTRING.match(f.read_text(encoding="utf-8"))
        if not m:
            raise ValueError(f"{f}: no module docstring")
        doc = m.group(1)
        title = doc.split("\n", 1)[0].replace("\\|", "|")
        date = _RST_DATE_FIELD.search(doc)
        dotted = ".".join(f.relative_to(src).with_suffix("").parts)
        out.append(_entry(f"/{dotted}.html", title, date.group(1) if date else None, doc))
    return out


_DOXYGEN_TITLE = re.compile(r"^# (.+?) \{#([\w-]+)\}$", re.M)


def doxygen(src: Path) -> list[dict[str, Any]]:
    """Every Markdown page of a section folder (``pages/<section>/*.md``: the posts and the
    install page) and ``pages/about.md``: Doxygen's page of a level-1 header with an id (``# Title
    {#label}``) is ``/<label>.html`` (the labels are lower-case ASCII with hyphens, which Doxygen's
    file names keep), its title the header's. The main page (``index.html``) is the welcome text;
    the section pages (``pages/<section>.md``: a ``@subpage`` list) are listings. The API pages
    (the header file's, its source's, the struct's) are content pages but not the corpus': not in
    the oracle. No date (Doxygen's pages have none)."""
    out = []
    pages = src / "pages"
    for f in sorted([*pages.glob("*/*.md"), pages / "about.md"]):
        m = _DOXYGEN_TITLE.match(f.read_text(encoding="utf-8"))
        if not m:
            raise ValueError(f"{f}: no level-1 header with an id")
        body = f.read_text(encoding="utf-8")[m.end() :]
        out.append(_entry(f"/{m.group(2)}.html", m.group(1), None, body))
    return sorted(out, key=lambda e: e["url_path"])


_YARD_TITLE = re.compile(r"^# @title (.+)$")


def yard(src: Path) -> list[dict[str, Any]]:
    """Every extra file of ``.yardopts`` (the names after its ``-``: the posts and the install
    page, ``docs/<section>/<name>.md``): YARD's page of an extra file is ``/file.<name>.html`` (the
    file's name without its folder or extension), its title the file header's ``# @title`` (the
    file list's and the page's ``<title>``, "File: <title> — Small Lessons"; the text repeats it as
    its ``#`` heading). The README (About) is YARD's index page, the site's home page: neither a
    post nor a listing. The API pages (the module's, the classes', the top-level namespace's)
    are not the corpus'. No date (YARD's extra files have none)."""
    opts = (src / ".yardopts").read_text(encoding="utf-8").splitlines()
    out = []
    for name in opts[opts.index("-") + 1 :]:
        f = src / name
        head, _, body = f.read_text(encoding="utf-8").partition("\n")
        m = _YARD_TITLE.match(head)
        if not m:
            raise ValueError(f"{f}: no @title header")
        body = re.sub(r"^> ?", "", body, flags=re.M)  # the install page's note holds a code block
        out.append(_entry(f"/file.{f.stem}.html", m.group(1), None, body))
    return sorted(out, key=lambda e: e["url_path"])


_RDOC_DATE = re.compile(r"^\*Published (\d{4}-\d{2}-\d{2})\*$")


def rdoc(src: Path) -> list[dict[str, Any]]:
    """Every Markdown page under ``doc/`` (the posts and the install page) and ``README.md``
    (About): RDoc's page of ``doc/<section>/<slug>.md`` is ``/doc/<section>/<slug>_md.html`` (the
    file's path, its dots made ``_``), the README's ``/README_md.html`` (the "Pages" list's link;
    ``index.html``, the main page, is a copy of it: neither a page of its own nor a listing).
    The title the file's ``#`` heading, its first line (the page's ``<title>`` is the file's
    name, ``<slug> - Small Lessons``); the date the italic line under it (``*Published
    2023-01-15*``; none on About and the install page); the code blocks its fences, a code block in
    a block quote (the install page's note) too. The API pages (the module's, the class's) are
    not the corpus'."""
    out = []
    for f in sorted([*(src / "doc").glob("*/*.md"), src / "README.md"]):
        text = f.read_text(encoding="utf-8")
        m = _H1.match(text)
        if not m:
            raise ValueError(f"{f}: no # heading on its first line")
        after = text[m.end() :].lstrip("\n").split("\n", 1)[0]
        d = _RDOC_DATE.match(after)
        body = re.sub(r"^> ?", "", text, flags=re.M)
        path = f.relative_to(src).as_posix()
        url_path = "/" + path.replace(".", "_") + ".html"  # RDoc's TopLevel#http_url
        out.append(_entry(url_path, m.group(1), d.group(1) if d else None, body))
    return sorted(out, key=lambda e: e["url_path"])


_HADDOCK_TITLE = re.compile(r"^-- = (.+)$", re.M)
_HADDOCK_DATE = re.compile(r"^-- /Published: (\d{4}-\d{2}-\d{2})/$", re.M)
_HADDOCK_BIRD = re.compile(r"^-- >(?: |$)")


def haddock(src: Path) -> list[dict[str, Any]]:
    """Every module of the sections (``SmallLessons/<Section>/<Module>.hs``: the posts and the
    install page): Haddock's page of a module is ``/<Module-Name-With-Dashes>.html``
    (``SmallLessons-Guide-PythonGeneratorsTour.html``; its ``<title>`` the module's name), the
    title its header's level-1 heading (``-- = Title``, Haddock's escapes undone; the same text as
    the header's ``Description`` field, shown beside the module on the contents page), the date
    the ``/Published: YYYY-MM-DD/`` line under it (none on the install page). The code blocks the
    header's bird-track blocks (runs of ``-- >`` lines: a bare ``<pre>`` each; Haddock's markup
    names no language, so the sources name none). ``SmallLessons.hs`` (the API: a record, two
    functions) is not the corpus'; the prologue (About) is the contents page's text (a listing);
    the hyperlinked source pages (``src/<Module.Name>.html``) are code, neither."""
    out = []
    for f in sorted(src.glob("SmallLessons/*/*.hs")):
        text = f.read_text(encoding="utf-8")
        head = text[: text.index("\nmodule ")]
        m = _HADDOCK_TITLE.search(head)
        if not m:
            raise ValueError(f"{f}: no level-1 heading")
        title = re.sub(r"\\(.)", r"\1", m.group(1))
        described = re.search(r"^-- Description : (.+)$", head, re.M)
        if not described or described.group(1) != title:
            raise ValueError(f"{f}: the Description field is not the title")
        date = _HADDOCK_DATE.search(head)
        blocks, previous = 0, False
        for line in head.splitlines():
            bird = bool(_HADDOCK_BIRD.match(line))
            blocks += bird and not previous
            previous = bird
        path = "/" + "-".join(f.relative_to(src).with_suffix("").parts) + ".html"
        out.append(
            {
                "url_path": path,
                "title": title,
                "date": date.group(1) if date else None,
                "code_blocks": blocks,
                "code_languages": [""] * blocks,
            }
        )
    return out


_POD_NAME = re.compile(r"^=head1 NAME\n\n(\S+) - (.+)$", re.M)
_POD_DATE = re.compile(r"^=head1 DATE\n\nPublished (\d{4}-\d{2}-\d{2})\.$", re.M)
_POD_ESCAPES = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}


def pod2html(src: Path) -> list[dict[str, Any]]:
    """Every POD manual of the sections (``lib/Small/Lessons/<Section>/<Module>.pod``: the posts and
    the install page): Pod::Simple::HTMLBatch's page of a module is its name's path under the
    output folder, ``/Small/Lessons/Guide/PythonGeneratorsTour.html`` (its ``<title>`` the module's
    name), the title the ``=head1 NAME`` line after the module's name and its `` - `` (``E<...>``
    escapes undone), the date the ``=head1 DATE`` section's ``Published YYYY-MM-DD.`` (none on the
    install page). The code blocks are the verbatim paragraphs (indented lines), those only blank
    lines apart one block, as Pod::Simple joins them into one ``<pre>``; POD names no language.
    ``Small/Lessons.pm`` (About as its DESCRIPTION, then the API: three functions) and
    ``Small/Lessons/Index.pm`` (a class) are the distribution's API, not the corpus'."""
    out = []
    for f in sorted(src.glob("lib/Small/Lessons/*/*.pod")):
        text = f.read_text(encoding="utf-8")
        m = _POD_NAME.search(text)
        if not m:
            raise ValueError(f"{f}: no NAME line")
        module = "::".join(f.relative_to(src / "lib").with_suffix("").parts)
        if m.group(1) != module:
            raise ValueError(f"{f}: the NAME line names {m.group(1)}, not {module}")
        title = re.sub(r"E<(\w+)>", lambda e: _POD_ESCAPES[e.group(1)], m.group(2))
        date = _POD_DATE.search(text)
        blocks, previous = 0, False
        for line in text.splitlines():
            if not line.strip():
                continue  # a blank line: the verbatim block goes on if the next line is indented
            verbatim = line[0] in " \t"
            blocks += verbatim and not previous
            previous = verbatim
        out.append(
            {
                "url_path": "/" + "/".join(f.relative_to(src / "lib").with_suffix(".html").parts),
                "title": title,
                "date": date.group(1) if date else None,
                "code_blocks": blocks,
                "code_languages": [""] * blocks,
            }
        )
    return out


_MDOC_DD = re.compile(r"^\.Dd (\w+ \d{1,2}, \d{4})$", re.M)
_MDOC_NAME = re.compile(r"^\.Nm (\S+)\n\.Nd (.+)$", re.M)
_MDOC_LITERAL = re.compile(r"^\.Bd -literal\b", re.M)


def mandoc(src: Path) -> list[dict[str, Any]]:
    """Every section-7 page (``man7/*.7``: the posts, ``small-lessons-install.7`` and the
    introduction ``small-lessons.7``, the About text over the list of pages) at the file build.sh
    writes for it, ``/<name>.7.html``; the title the page's ``.Nd`` (its one-line description:
    mandoc writes it after the name in NAME, ``<span class="Nd">``; the ``<title>`` is
    ``NAME(7)``), mdoc's escapes undone; the date its ``.Dd`` (``January 15, 2023``, which mandoc
    prints in the page's footer). The code blocks its ``.Bd -literal`` displays (a bare ``<pre>``:
    mdoc names no language). ``lessons.1`` and ``lessons_excerpt.3`` (the command and the library
    function) are not the corpus'."""
    out = []
    for f in sorted(src.glob("man7/*.7")):
        text = f.read_text(encoding="utf-8")
        name, dd = _MDOC_NAME.search(text), _MDOC_DD.search(text)
        if not name or not dd or name.group(1) != f.stem:
            raise ValueError(f"{f}: no .Dd or NAME section for its file name")
        title = name.group(2).replace("\\&", "").replace("\\(dq", '"').replace("\\e", "\\")
        blocks = len(_MDOC_LITERAL.findall(text))
        out.append(
            {
                "url_path": f"/{f.name}.html",
                "title": title,
                "date": datetime.strptime(dd.group(1), "%B %d, %Y").strftime("%Y-%m-%d"),
                "code_blocks": blocks,
                "code_languages": [""] * blocks,
            }
        )
    return out


def gtk_doc(src: Path) -> list[dict[str, Any]]:
    """Every hand-written component of the gtk-doc module (``docs/<section>/<slug>.xml``: the
    posts' and the install page's ``<chapter>``; ``docs/about.xml``: the ``<preface>``), at the
    file DocBook XSL's chunker writes for it with gtk-doc's ``use.id.as.filename``:
    ``/<id>.html``. The title its ``<title>`` (gtk-doc's ``chapter.autolabel`` 0: the heading is
    the bare title; the page's ``<title>`` adds ": Small Lessons Reference Manual"); the date its
    ``<chapterinfo><pubdate>``, which the chapter's title page shows (none on the install page
    and About); the code blocks its ``<programlisting>`` elements, the language their
    ``language`` attribute (which the HTML does not write: gtkdoc-fixxref colours every block as
    C). The book's ``index.html``, the part pages, the API reference's part page, the API index and
    the annotation glossary are listings; the API pages (one per ``<SECTION>`` of
    ``small-lessons-sections.txt``) are content but not the corpus': not in the oracle."""
    import xml.etree.ElementTree as ET

    out = []
    docs = src / "docs"
    for f in sorted([*docs.glob("*/*.xml"), docs / "about.xml"]):
        el = ET.parse(f).getroot()
        pubdate = el.find("chapterinfo/pubdate")
        langs = [pl.get("language", "") for pl in el.iter("programlisting")]
        out.append(
            {
                "url_path": f"/{el.get('id')}.html",
                "title": "".join(el.find("title").itertext()),  # type: ignore[union-attr]
                "date": pubdate.text if pubdate is not None else None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


def _chronicle_link(title: str) -> str:
    """Chronicle's fileToTitle: every character of the title but ``[a-z0-9]`` (either case) made
    ``_`` (the entry is read as UTF-8: a kana or a Cyrillic letter is one ``_``), then ``.html``."""
    return re.sub(r"[^a-zA-Z0-9]", "_", title) + ".html"


def chronicle(src: Path) -> list[dict[str, Any]]:
    """Every entry of the input folder, ``blog/<slug>.txt`` (Chronicle has no pages; the draft is
    not there), at the page Chronicle writes for it: the title's ``fileToTitle`` at the root (no
    ``date-archive-path``). The title the ``Title:`` header; the date the ``Date:`` header's day
    (``15 January 2023 12:00``, read in UTC); the code blocks the body's Markdown.pl code blocks
    (runs of lines indented by four spaces after a blank line, outside a list: Text::Markdown writes
    each as ``<pre><code>``, no language: the dialect has no fences, so the sources name none)."""
    out = []
    for f in sorted((src / "blog").glob("*.txt")):
        head, _, body = f.read_text(encoding="utf-8").partition("\n\n")
        meta = {}
        for line in head.splitlines():
            key, _, value = line.partition(":")
            meta[key.strip().lower()] = value.strip()
        day = datetime.strptime(meta["date"], "%d %B %Y %H:%M").date().isoformat()
        blocks = 0
        previous_code = False
        for chunk in re.split(r"\n\s*\n", body.strip("\n")):
            lines = chunk.split("\n")
            code = all(line.startswith("    ") for line in lines)
            if code and not previous_code:
                blocks += 1
            previous_code = code
        out.append(
            {
                "url_path": "/" + _chronicle_link(meta["title"]),
                "title": meta["title"],
                "date": day,
                "code_blocks": blocks,
                "code_languages": [""] * blocks,
            }
        )
    return sorted(out, key=lambda e: e["url_path"])


#: Listing pages of each build, by the generator's documented output paths (relative to site/).
LISTING_GLOBS: dict[str, tuple[str, ...]] = {
    "pelican": (
        "index*.html",
        "tag/*.html",
        "category/*.html",
        "author/*.html",
        "archives.html",
        "tags.html",
        "categories.html",
        "authors.html",
        "[0-9][0-9][0-9][0-9]/index.html",
        "[0-9][0-9][0-9][0-9]/[0-9][0-9]/index.html",
    ),
    "hexo": (
        "index.html",
        "page/*/index.html",
        "archives/**/index.html",
        "tags/**/index.html",
        "categories/**/index.html",
    ),
    "mkdocs": (
        "blog/index.html",
        "blog/page/*/index.html",
        "blog/archive/**/index.html",
        "blog/category/**/index.html",
    ),
    "sphinx-furo": ("genindex.html", "search.html"),
    "sphinx-rtd": ("genindex.html", "search.html"),
    "ablog": ("index.html", "blog/**/*.html", "genindex.html", "search.html"),
    "nikola": (
        "index.html",
        "index-*.html",
        "archive.html",
        "[0-9][0-9][0-9][0-9]/**/index.html",
        "[0-9][0-9][0-9][0-9]/index.html",
        "categories/**/*.html",
        "categories/*.html",
    ),
    "vitepress": (),
    # vuepress-theme-hope's blog: the home's article list (paginated in the browser, one page
    # built), its article, star and timeline lists, category and tag maps and their pages, and
    # the catalog it writes for the posts/ folder (no README there).
    "vuepress-hope": (
        "index.html",
        "article/index.html",
        "star/index.html",
        "timeline/index.html",
        "category/**/index.html",
        "tag/**/index.html",
        "posts/index.html",
    ),
    "lektor": (
        "blog/index.html",
        "blog/page/*/index.html",
        "blog/tag/*/index.html",
        "blog/categories/index.html",
        "blog/categories/*/index.html",
    ),
    # Starlight writes no listing: the splash home (a hero and two cards) and 404.html are
    # neither posts nor listings, and its search is a modal on every page (Pagefind), not a page.
    "starlight": (),
    # blog/[...page].astro (paginate, 5 a page: /blog/, /blog/2/ ...), tags/index.astro,
    # tags/[tag].astro, categories/[category].astro. The home page is a welcome text, not a list.
    "astro-blog": (
        "blog/index.html",
        "blog/[0-9]*/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "categories/*/index.html",
    ),
    # MkDocs' search plugin writes search.html for the readthedocs theme (its results page).
    "mkdocs-rtd": ("search.html",),
    "sphinx-pydata": ("genindex.html", "search.html"),
    "sphinx-alabaster": (
        "index.html",
        "guide/index.html",
        "reference/index.html",
        "appendix/index.html",
        "genindex.html",
        "search.html",
    ),
    # The classic blog at the root: the paginated index (/, /page/N/, 5 a page), the tags list
    # and each tag's pages (/tags/<tag>/, /tags/<tag>/page/N/), the archive, the authors list and
    # each author's pages (/authors/ana/, /authors/ana/page/N/). The About page (src/pages) and
    # 404.html are neither posts nor listings.
    "docusaurus-blog": (
        "index.html",
        "page/*/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "tags/*/page/*/index.html",
        "archive/index.html",
        "authors/**/index.html",
    ),
    # Jupyter Book (Sphinx): the general index and the search page; intro.html (the root, a
    # welcome text) and index.html (a meta refresh to it) are neither.
    "jupyter-book": ("genindex.html", "search.html"),
    # Hexo's generators as on `hexo`, plus NexT's tags and categories index pages
    # (source/tags/index.md and source/categories/index.md, `type: tags`/`categories`).
    "hexo-next": (
        "index.html",
        "page/*/index.html",
        "archives/**/index.html",
        "tags/**/index.html",
        "categories/**/index.html",
    ),
    # The base blog: the home page (the latest three posts), /blog/ (the archive: every post),
    # /tags/ and one page per tag. No pagination and no categories: 25 pages.
    "eleventy-base-blog": ("index.html", "blog/index.html", "tags/index.html", "tags/*/index.html"),
    # minima's home as jekyll-paginate's index (/, /pageN/, 5 a page) and jekyll-archives'
    # category, tag, year and month pages. The About page (/about/) is neither.
    "jekyll-deb": (
        "index.html",
        "page[0-9]*/index.html",
        "category/*/index.html",
        "tag/*/index.html",
        "[0-9][0-9][0-9][0-9]/index.html",
        "[0-9][0-9][0-9][0-9]/[0-9][0-9]/index.html",
    ),
    # Hugo: the home (5 a page: /page/N/), the posts section, the tags and categories term lists
    # and each term's pages. Hugo's /page/1/ of each list is an alias (a meta refresh to the
    # list's first page), not a listing: only pages 2 and up are globbed.
    "hugo-deb": (
        "index.html",
        "page/[2-9]/index.html",
        "posts/index.html",
        "posts/page/[2-9]/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "tags/*/page/[2-9]/index.html",
        "categories/index.html",
        "categories/*/index.html",
        "categories/*/page/[2-9]/index.html",
    ),
    # Hexo's generators as on `hexo` (5 a page), plus Butterfly's tags and categories index
    # pages (source/tags/index.md and source/categories/index.md, `type: "tags"`/`"categories"`).
    "hexo-butterfly": (
        "index.html",
        "page/*/index.html",
        "archives/**/index.html",
        "tags/**/index.html",
        "categories/**/index.html",
    ),
    # Hexo's generators as on `hexo` (5 a page), plus Fluid's own tags and categories index
    # pages (its generators write /tags/ and /categories/, no source page). Neither the About
    # page (`layout: about`), Fluid's links page (/links/, on by default, in no menu: a page of
    # friend links) nor 404.html is a listing.
    "hexo-fluid": (
        "index.html",
        "page/*/index.html",
        "archives/**/index.html",
        "tags/**/index.html",
        "categories/**/index.html",
    ),
    # Nextra's docs theme writes no listing: the home page is a welcome text, 404.html (and
    # Next's _not-found/) neither; its search (Pagefind) is a box on every page, not a page.
    "nextra": (),
    # The starter's home (every post, with the Bio), the "Adding Pagination" recipe's /blog/ and
    # /blog/N/ (5 a page), the "Creating Tags Pages" recipe's /tags/ and /tags/<tag>/, the same
    # for categories. The About page and the 404 pages (/404/, /404.html) are neither.
    "gatsby-blog": (
        "index.html",
        "blog/index.html",
        "blog/*/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "categories/index.html",
        "categories/*/index.html",
    ),
    # Zensical's blog (Material's blog plugin, ported): the index and its pages (5 a page), the
    # archive's years and the categories; the tags plugin's index (tags.md, one section per tag).
    # The home page is a welcome text, the About page a page.
    # The blog-starter's home page (every post, the newest as its hero), the tags and categories
    # indexes and their pages (``app/tags/page.tsx``, ``app/tags/[tag]/page.tsx``, mirrored as
    # ``tags.html`` and ``tags/<tag>.html``; the same for categories). The About page is neither;
    # no pagination or archive.
    "nextjs": ("index.html", "tags.html", "tags/*.html", "categories.html", "categories/*.html"),
    "zensical": (
        "blog/index.html",
        "blog/page/*/index.html",
        "blog/archive/**/index.html",
        "blog/category/**/index.html",
        "tags/index.html",
    ),
    # Material's blog plugin (5 a page): the blog's index and its pages, the yearly archives,
    # the categories and the author's profile (each paged); the tags plugin's index page.
    "mkdocs-material-blog": (
        "blog/index.html",
        "blog/page/*/index.html",
        "blog/archive/**/index.html",
        "blog/category/**/index.html",
        "blog/author/**/index.html",
        "tags/index.html",
    ),
    # WordPress' archives (5 a page: .../page/N/): the home page, categories, tags, the author,
    # years and months (/YYYY/, /YYYY/MM/: WordPress answers them, no page of the theme links
    # them). The feeds at .../feed/ are saved as index.html too: they are XML, neither.
    "wordpress": (
        "index.html",
        "page/*/index.html",
        "category/*/index.html",
        "category/*/page/*/index.html",
        "tag/*/index.html",
        "tag/*/page/*/index.html",
        "author/*/index.html",
        "author/*/page/*/index.html",
        "[0-9][0-9][0-9][0-9]/index.html",
        "[0-9][0-9][0-9][0-9]/page/*/index.html",
        "[0-9][0-9][0-9][0-9]/[0-9][0-9]/index.html",
        "[0-9][0-9][0-9][0-9]/[0-9][0-9]/page/*/index.html",
    ),
    # Ghost's default routes (Casper, 5 a page): the home collection (/, /page/N/), each tag's and
    # the author's pages (/tag/<slug>/ and /author/<slug>/, + page/N/). The About page (a Ghost
    # page) and the feed (/rss/, saved as rss/index.html) are neither.
    "ghost": (
        "index.html",
        "page/*/index.html",
        "tag/*/index.html",
        "tag/*/page/*/index.html",
        "author/*/index.html",
        "author/*/page/*/index.html",
    ),
    # A Texinfo manual split by node: the Top node (index.html: the manual's table of contents,
    # @contents, and its master menu), the chapter nodes that only introduce their sections (a
    # sentence and the menu, written as a list of the sections), and the index node (@printindex:
    # every @cindex entry, letter by letter). The redirection files texi2any writes for each
    # @anchor (Counting-rows.html: a meta refresh to the anchor) are neither.
    "texinfo": ("index.html", "Guide.html", "Reference.html", "Appendix.html", "Index.html"),
    # Zim's export: the index page (--index-page: index.html, every page by namespace) and the
    # namespace pages (a sentence and links to their pages). About is a content page; the
    # notebook's home (Home.html: a welcome text, dated as every Zim page, and links to the
    # namespaces and About) is neither, as the welcome pages of Retype, Vocs and Astro are.
    "zim": ("index.html", "Guide.html", "Reference.html", "Appendix.html"),
    # Rspress' default theme writes no listing: the home page (pageType: home, a hero and
    # feature cards) and 404.html are neither; its search is a modal on every page.
    "rspress": (),
    # Fumadocs' docs layout writes no listing: the home page (a welcome text), the docs index
    # (/docs: a welcome text and three cards), 404.html and _not-found.html are neither; its
    # search is a dialog on every page, its index a JSON route (not kept).
    "fumadocs": (),
    # Docus writes no listing: the landing page (content/index.md, a hero), 200.html (the
    # single-page app's empty shell) and 404.html are neither; its search is a command palette on
    # every page, not a page.
    "docus": (),
    # dumi's default theme writes no listing: the landing page (docs/index.md, a hero and feature
    # cards) and 404.html are neither; the blog is pages in the sidebar (grouped by year), its nav
    # entry the newest post; search is a box over the route metadata, in the browser.
    "dumi": (),
    # vuepress-theme-reco's blog: the home's post list (5 a page, paged in the browser: one page
    # built), @vuepress/plugin-blog's category and tag classifiers (/categories/, /tag/ and one
    # page per term, paged in the browser too) and the timeline. about.html and 404.html are
    # neither.
    # ikiwiki's blog (the auto-blog.setup example): the home page (the five newest posts, inline),
    # posts/ (every post, archive=yes), the tag cloud and the tag plugin's pages (tags/<tag>/),
    # ikiwiki-calendar's archives (archives/, archives/YYYY/, archives/YYYY/MM/), the recent
    # comments, the sidebar page (calendar, links, the tag list), recentchanges (a list of edits,
    # empty without version control). About and the basewiki's help pages (ikiwiki/**, sandbox,
    # shortcuts, smileys, templates) are neither.
    "ikiwiki": (
        "index.html",
        "posts/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "archives/index.html",
        "archives/*/index.html",
        "archives/*/*/index.html",
        "comments/index.html",
        "sidebar/index.html",
        "recentchanges/index.html",
    ),
    "vuepress-reco": (
        "index.html",
        "categories/index.html",
        "categories/*/index.html",
        "tag/index.html",
        "tag/*/index.html",
        "timeline/index.html",
    ),
    # HonKit writes no listing: index.html is the book's introduction (README.md, a welcome
    # text), the search is a box over the lunr index (search_index.json), no glossary here.
    "honkit": (),
    # bookdown's gitbook writes no listing: index.html is the preface (a welcome text), the search
    # is a box over search_index.json; 404.html is the not-found page.
    "bookdown": (),
    # pkgdown's indexes: the articles index (the _pkgdown.yml sections, Guide, Reference and
    # Appendix, each a list of its vignettes' titles), the reference index (the functions, each
    # with its title). The home page (index.html, the README: the About text), the changelog
    # (news/index.html, NEWS.md: every release's notes, text that lists no page), authors.html
    # (Authors and Citation), the reference topics (reference/<function>.html) and 404.html are
    # neither.
    "pkgdown": ("articles/index.html", "reference/index.html"),
    # mdBook writes no tags, archives or feeds; its whole-book page, print.html (every chapter one
    # after the other, noindex, linked from every page's print button), and toc.html (the sidebar's
    # table of contents for browsers without scripts: every chapter's link, noindex, the
    # <noscript> iframe's page) list the chapters. index.html is a copy of the first chapter
    # (About), 404.html the not-found page; the search is a box over searchindex-*.js.
    "mdbook": ("print.html", "toc.html"),
    # MediaWiki: the Main Page (``/`` is a 301 to it, served.json), every category page (5 pages
    # a page; its "next page" links are under the script path /w/, closed by robots.txt), and
    # the special pages the wiki links (AllPages,
    # RecentChanges, Categories, SpecialPages, and each page's WhatLinksHere and
    # RecentChangesLinked): lists of pages, all marked noindex. The About page (the project
    # namespace's, linked from the footer) is a content page.
    # Hexo's generators as on `hexo` (5 a page), plus Icarus' own tags and categories index
    # pages (hexo-component-inferno's generators write /tags/ and /categories/, no source page).
    # The About page (a page: no date, no meta line) is no listing.
    "hexo-icarus": (
        "index.html",
        "page/*/index.html",
        "archives/**/index.html",
        "tags/**/index.html",
        "categories/**/index.html",
    ),
    "mediawiki": (
        "wiki/Main_Page",
        "wiki/Category:*",
        "wiki/Special:*",
        "wiki/Special:*/**/*",
    ),
    # DokuWiki: the start page (``/``, and ``/start`` whose canonical it is: the welcome text and
    # every page by namespace), each namespace's start page (its pages, newest first), the
    # sidebar page (the links of the sidebar), and the index (``?do=index``, the site tools'
    # "Sitemap": every namespace and page; marked noindex), kept at the start pages only. The
    # About page is a content page.
    "dokuwiki": (
        "index.html",
        "start",
        "*:start",
        "sidebar",
        "start?do=index",
        "*:start?do=index",
    ),
    "docbook": ("index.html", "guide.html", "reference.html", "appendix.html", "subject-index.html"),
    # nanoc: the home page (the five newest posts, excerpts), the archive (every post by year),
    # the tags index and one page per tag (items the Rules' preprocess block creates). About is
    # a page; the feed and the sitemap are XML.
    "nanoc": ("index.html", "archive/index.html", "tags/index.html", "tags/*/index.html"),
    # staticsite: the blog page (index.md: the ten newest posts in full, then a link to the
    # archive), its archive (archive/: every post, newest first), the posts folder's directory
    # index (posts/: a table of its pages, linked from no page), the tags taxonomy's index (tags/)
    # and each tag's blog-like page and archive (tags/<tag>/, tags/<tag>/archive/). About is a
    # page; the feeds (index.rss, index.atom, per tag too) are XML.
    "staticsite": (
        "index.html",
        "archive/index.html",
        "posts/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "tags/*/archive/index.html",
    ),
    # urubu: the home page (a welcome text and the five newest posts), the blog's index paginated
    # by items_per_page (blog/index.html, blog/index2.html …: five a page, newest first), the tags
    # index (tag/) and one page per tag (tag/<tag>/: its posts, newest first). About is a page.
    "urubu": ("index.html", "blog/index.html", "blog/index[0-9]*.html", "tag/index.html", "tag/*/index.html"),
    # blosxom: the home page (every entry, $num_entries 40), each category's index (a data folder),
    # the year and month archives (every entry of the period in full). The day archives
    # (YYYY/MM/DD/) are the entries' permalinks (one entry a day); the entries' own pages
    # (<category>/<name>.html) are linked from nowhere; the feeds are RSS.
    "blosxom": ("index.html", "*/index.html", "20[0-9][0-9]/[01][0-9]/index.html"),
    # chronicle: the index (the ten newest entries in full), one page per tag (every entry of the
    # tag in full) and per month (archive/YYYY/MM/: every entry of the month in full). The feeds
    # are RSS beside them (index.rss, tags/T/T.rss, archive/YYYY/MM/MM.rss).
    "chronicle": ("index.html", "tags/*/index.html", "archive/20[0-9][0-9]/[01][0-9]/index.html"),
    # TypeDoc: the project's index of members (modules.html: the documents by group, then the
    # module), the module's page (modules/index.html: its classes, interfaces and functions, each
    # with its summary) and the class hierarchy (hierarchy.html). index.html is the README (a
    # welcome text), neither; the API pages (classes/, interfaces/, functions/) are content.
    "typedoc": ("modules.html", "modules/*.html", "hierarchy.html"),
    # JSDoc: the section tutorials (guide, reference, appendix: the default template lists a
    # tutorial's children above its title, and these have one line of text under it). index.html
    # is the README (a welcome text), neither; the module's, the class's and the source file's
    # pages are content (every member documented in full; the source in a <pre>).
    "jsdoc": ("tutorial-guide.html", "tutorial-reference.html", "tutorial-appendix.html"),
    # org-publish: the posts component's sitemap (``:auto-sitemap``, ``posts/index.org``: every
    # post, newest first, with its date) and its index (``:makeindex``, ``posts/theindex.org``:
    # the ``#+INDEX:`` terms, the tags and categories, by letter, each linking its posts). The
    # home page (a welcome text and three links) and About are neither.
    "org-publish": ("posts/index.html", "posts/theindex.html"),
    "asciidoctor": ("index.html",),
    # TiddlyWiki's static build: the snapshot of $:/DefaultTiddlers in the page template
    # (static.html: the Welcome tiddler, the sidebar), every tiddler in one page
    # (alltiddlers.html), and every tiddler page but the oracle's (main leaves those out): Welcome,
    # TableOfContents, the sections, Tags, Categories, Archive, each tag's and category's page.
    "tiddlywiki": ("static.html", "alltiddlers.html", "static/*.html"),
    # pdoc: each section subpackage's page (``small_lessons/<section>.html``: a sentence and its
    # modules, by name and title, and the "Submodules" list in the sidebar). The package's page
    # (``small_lessons.html``, the welcome text) and ``index.html`` (a meta refresh to it) are
    # neither; About (``small_lessons/about.html``) is a content page.
    "pdoc": ("small_lessons/*.html",),
    # rustdoc: each section module's page (``small_lessons/<section>/index.html``: a sentence, the
    # list of its lessons as links, and the "Modules" table of every submodule with its summary
    # line) and ``small_lessons/all.html`` (List of all items: modules, structs, traits,
    # functions). The crate's page (``small_lessons/index.html``) is About; ``settings.html``
    # (the theme's settings, filled by script) is neither.
    # pydoctor: each section subpackage's page (``small_lessons.<section>.html``: a sentence, the
    # list of its modules with their titles, the "Modules" table of every module with its summary
    # line), the module index (``moduleIndex.html``: the package tree, each with its summary), the
    # class hierarchy (``classIndex.html``), the index of names (``nameIndex.html``), the summary of
    # undocumented objects (``undoccedSummary.html``) and ``all-documents.html`` (every object,
    # its kind and summary; fetched by the search script, linked by no page). The package's page
    # (``small_lessons.html``, the welcome text, and ``index.html``, its copy) and the help page
    # (``apidocs-help.html``) are neither; the class's page is content (API).
    "pydoctor": (
        "small_lessons.guide.html",
        "small_lessons.reference.html",
        "small_lessons.appendix.html",
        "moduleIndex.html",
        "classIndex.html",
        "nameIndex.html",
        "undoccedSummary.html",
        "all-documents.html",
    ),
    "rustdoc": (
        "small_lessons/guide/index.html",
        "small_lessons/reference/index.html",
        "small_lessons/appendix/index.html",
        "small_lessons/all.html",
    ),
    # Doxygen: the section pages (guide, reference, appendix: a sentence and the ``@subpage`` list
    # of their pages), the index pages of its menu bar (Related Pages: the tree of every page;
    # File List; Data Structures and their index; the Data Fields and Globals indexes), each
    # folder's Directory Reference (its files and subfolders) and the search's result frames
    # (search/*.html: empty shells filled by script). The main page (index.html, the welcome
    # text) is neither; the header's page, its source and the struct's page are content.
    "doxygen": (
        "guide.html",
        "reference.html",
        "appendix.html",
        "pages.html",
        "files.html",
        "annotated.html",
        "classes.html",
        "functions*.html",
        "globals*.html",
        "dir_*.html",
        "search/*.html",
    ),
    # YARD: the Alphabetic Index (_index.html: every extra file, then every namespace A-Z), the
    # three lists its sidebar's <iframe> shows (class_list.html, method_list.html, file_list.html)
    # and the top-level namespace's page (its one module, "Defined Under Namespace"). index.html
    # (the README, About) is the home page, neither; frames.html is a script that redirects to it;
    # the module's and classes' pages are content (every method documented in full).
    "yard": (
        "_index.html",
        "class_list.html",
        "method_list.html",
        "file_list.html",
        "top-level-namespace.html",
    ),
    # RDoc: table_of_contents.html (every page by its file's name with its headings, then every
    # class and module and every method), the sidebar's "Pages", "Classes" and "Methods" links'
    # target. index.html (the README, About: the main page) is the home page, neither; the
    # module's and class's pages are content (every method documented in full).
    "rdoc": ("table_of_contents.html",),
    # Trac: the start page (``/`` and ``/wiki``, copies of ``/wiki/WikiStart``: the welcome text and
    # every page by section), the section pages (the ``TitleIndex`` macro's list of their pages),
    # ``TitleIndex`` and ``RecentChanges`` (every page, by name and by date; Trac's own pages,
    # marked noindex), the timeline and the moments of it the pages' dates link, and the search
    # form. Pages are ``<route>.html`` (wget's -E) served at ``<route>``. Not listings of posts:
    # the ticket system's roadmap, milestones and reports (empty), each page's history and diff
    # (``?action=``, its own path with a query).
    "trac": (
        "index.html",
        "wiki.html",
        "wiki/WikiStart.html",
        "wiki/Guide.html",
        "wiki/Reference.html",
        "wiki/Appendix.html",
        "wiki/TitleIndex.html",
        "wiki/RecentChanges.html",
        "timeline.html",
        "timeline?from=*.html",
        "search.html",
    ),
    # gitit: the front page (``/`` and ``/Front%20Page``: the welcome text and every page by
    # section) and each section's folder (``/Guide/``: gitit's list of the pages the folder holds).
    # ``Help`` (gitit's own help page, in every gitit wiki) is neither; gitit's ``_index``,
    # ``_categories`` and ``_activity`` are closed by its robots.txt (not mirrored).
    "gitit": ("index.html", "Front Page", "*/index.html"),
    # Fossil: the timeline of every event (``/timeline``, the menu's), of the technotes
    # (``/timeline?y=e``) and of each tag around a note's moment (``/timeline?r=TAG&c=…``, the tag
    # links of the timeline's rows; ``trunk`` the initial check-in's), the wiki's index (``/wiki``:
    # its links to the lists and search) and its list of pages (``/wcontent``). The home page
    # (``/home``, also ``/index``, the target of ``/``'s redirect: a welcome text and two links) and
    # About (a wiki page) are neither; the feed is RSS.
    "fossil": ("timeline", "timeline[?]y=e", "timeline[?]r=*", "wiki", "wcontent"),
    # Mezzanine's blog at the root (BLOG_SLUG empty): the post list (5 a page, ``?page=N``, saved
    # by wget as ``index.html?page=N``), each category, tag (keyword) and the author, the archive
    # by month (``/archive/YYYY/M/``, the sidebar's links). Their feeds (``…/feeds/rss/``, saved as
    # ``index.html``) are XML; the About page (``/pages/about/``) is a page.
    "mezzanine": (
        "index.html",
        "index.html?page=*",
        "category/*/index.html",
        "category/*/index.html?page=*",
        "tag/*/index.html",
        "tag/*/index.html?page=*",
        "author/*/index.html",
        "author/*/index.html?page=*",
        "archive/*/index.html",
        "archive/*/*/index.html",
    ),
    # Retype's blog: its index, paged by pageSize (/blog/, /blog/N/, 5 a page), the tags and
    # categories pages it writes from the posts' front matter (/tags/, /tags/<tag>/,
    # /categories/, /categories/<name>/). The home page (README.md) is a welcome text, About a page.
    "retype": (
        "blog/index.html",
        "blog/[0-9]*/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "categories/index.html",
        "categories/*/index.html",
    ),
    # Vocs: the blog's index (blog.mdx, written by hand: every post, newest first, with its date
    # and first sentence; Vocs 2 has no blog of its own). The landing page (index.html: a tagline
    # and buttons) is neither; 404.html, 404.d/ and _root.d/ are Waku's shells.
    "vocs": ("blog/index.html",),
    # Wagtail's tutorial blog: the blog index (``BlogIndexPage``: every post in full, no
    # pagination) and the tags page (``BlogTagIndexPage``) bare and with each tag's query
    # (``/tags/?tag=python``, saved by wget as ``tags/index.html?tag=python``). The home page (hero
    # text and links) and About are neither.
    "wagtail": ("blog/index.html", "tags/index.html", "tags/index.html?tag=*"),
    # Hakyll: the starter's home page (index.html: a welcome text over every post) and archive
    # (archive.html: every post), the tag cloud (tags.html), one page per tag (tagsRules:
    # tags/<tag>.html) and per category (categories/<category>.html). About and Contact are
    # pages; the feed is atom.xml.
    "hakyll": ("index.html", "archive.html", "tags.html", "tags/*.html", "categories/*.html"),
    # Wintersmith's blog template: the paginator's pages (``index.html``, then ``page/N/``: three
    # articles a page, each its date, title and intro) and the archive (every article by year and
    # month). The feed is ``feed.xml``; About (``about.html``) is a page.
    "wintersmith": ("index.html", "page/*/index.html", "archive.html"),
    # Tinkerer: the aggregated pages (index.html, then pageN.html: five posts a page, each in
    # full), the archive (every post by year), one page per category and per tag, master.html
    # (the root toctree, "Sitemap": every post and page) and Sphinx's search.html. About
    # (pages/about.html) is a page; the feed is rss.html.
    # Javadoc's standard doclet: each package's summary (a sentence, then its classes' table with
    # each class's first sentence) and class tree, and the doclet's indexes: All Classes and
    # Interfaces, All Packages, the index of every name (index-all.html), the class hierarchy
    # (overview-tree.html) and the Constant Field Values (every class's PUBLISHED). index.html,
    # the overview page (About's text over the packages' table), overview-summary.html (a
    # redirect to it) and help-doc.html (the doclet's "How This API Document Is Organized") are
    # neither.
    "javadoc": (
        "org/example/lessons/*/package-summary.html",
        "org/example/lessons/*/package-tree.html",
        "allclasses-index.html",
        "allpackages-index.html",
        "index-all.html",
        "overview-tree.html",
        "constant-values.html",
    ),
    "tinkerer": (
        "index.html",
        "page[0-9]*.html",
        "archive.html",
        "categories/*.html",
        "tags/*.html",
        "master.html",
        "search.html",
    ),
    # @sugarat/theme: the home page (``layout: home``) is the post list, the first page of cards
    # in the HTML (its pagination, ``?pageIndex=N``, and tag filter, ``?tag=…``, are drawn in the
    # browser: no page of their own). No archive, tag or category pages; About and the docs page
    # are pages.
    "vitepress-sugarat": ("index.html",),
    # Valaxy with valaxy-theme-yun: the home page and its /page/N pages (build.ssgForPagination,
    # 5 a page, each post's title, date, category, tags and excerpt), the posts page (every post
    # by year), the archives, categories and tags pages (the theme's layouts: the archive's
    # timeline of every post; the category tree and the tag cloud, whose posts are listed in the
    # browser at ?category= and ?tag=, no page of their own). Each folder's page is built twice,
    # <route>.html and <route>/index.html; the sitemap links the first (/archives), the menus
    # the second (/archives/). About is a page.
    "valaxy": (
        "index.html",
        "page/*.html",
        "posts.html",
        "posts/index.html",
        "archives.html",
        "archives/index.html",
        "categories.html",
        "categories/index.html",
        "tags.html",
        "tags/index.html",
    ),
    # Metalsmith: the home page (its intro and the five newest, each its date and excerpt), the
    # archive (metalsmith-pagination: /archive/, /archive/N/, five a page), the tags index and
    # metalsmith-tags' pages (/tags/<tag>/, /categories/<name>/). About is a page; the feed is
    # rss.xml.
    "metalsmith": (
        "index.html",
        "archive/index.html",
        "archive/*/index.html",
        "tags/index.html",
        "tags/*/index.html",
        "categories/*/index.html",
    ),
    # The pandoc site's script: the index (every post, newest first) and the tags page (a section
    # per tag), both generated Markdown. About is a page; atom.xml the feed.
    "pandoc": ("index.html", "tags.html"),
    # The nbconvert blog's script: the index (every post, newest first) and the tags page (a
    # section per tag), its own HTML. About (about.html, a notebook) is a page; atom.xml the feed.
    "nbconvert": ("index.html", "tags.html"),
    # The LaTeXML notes: the site's own index (every note, newest first, with its date). About is
    # a page; LaTeXML writes no tag, category, archive or feed pages.
    "latexml": ("index.html",),
    # SvelteKit's blog routes (adapter-static's <route>.html): / (every post, newest first),
    # /tags and /tags/<tag>, /categories and /categories/<category>. About (/about) is a page;
    # the feed and sitemap are rss.xml and sitemap.xml.
    "sveltekit": ("index.html", "tags.html", "tags/*.html", "categories.html", "categories/*.html"),
    # AsciiDoc.py's blog (its pages written by src_asciidoc_py.py): the home page (every post,
    # newest first, with its date), the archive by year, the tags and categories indexes and a
    # page per tag and per category. About is a page.
    "asciidoc-py": (
        "index.html",
        "archive.html",
        "tags.html",
        "tags/*.html",
        "categories.html",
        "categories/*.html",
    ),
}
# The same WordPress with a classic theme (Twenty Twenty-One): the same archives, the years and
# months now linked too (the footer's Archives widget links each month).
LISTING_GLOBS["wordpress-classic"] = LISTING_GLOBS["wordpress"]
# Nuxt Content blog: the home page (app/pages/index.vue: every post, newest first), the tags page
# (tags/index.vue: every tag with its count) and each tag's page (tags/[tag].vue). About is a page;
# 200.html and 404.html are Nuxt's fallback shells (an empty layout), neither.
LISTING_GLOBS["nuxt-content"] = ("index.html", "tags/index.html", "tags/*/index.html")
# djangocms-blog on django CMS: Home (the blog's "latest articles" plugin: the five newest posts,
# each its abstract), the blog's list (``/blog/``, 5 a page, ``?page=N``, saved by wget as
# ``index.html?page=N``), each category, tag and the author (with their pages), the archive by year
# and by month (``/blog/YYYY/``, ``/blog/YYYY/M/``: the sidebar's archive plugin). The feeds
# (``…/feed/``, saved as ``index.html``) are XML; About (``/about/``) is a page.
# Haddock: the contents page (index.html: the prologue, here the About text, then the tree of
# every module with its Description) and the index of names (doc-index.html: every exported name,
# A-Z, with its module; one page below Haddock's 150 names a letter). Each module's page is content
# (the posts, the install page, the API module); src/*.html, the hyperlinked source, is code.
LISTING_GLOBS["haddock"] = ("index.html", "doc-index.html")
LISTING_GLOBS["mandoc"] = ("index.html",)
LISTING_GLOBS["djangocms-blog"] = (
    "index.html",
    "blog/index.html",
    "blog/index.html?page=*",
    "blog/category/*/index.html",
    "blog/category/*/index.html?page=*",
    "blog/tag/*/index.html",
    "blog/tag/*/index.html?page=*",
    "blog/author/*/index.html",
    "blog/author/*/index.html?page=*",
    "blog/[0-9]*/index.html",
    "blog/[0-9]*/index.html?page=*",
    "blog/[0-9]*/[0-9]*/index.html",
    "blog/[0-9]*/[0-9]*/index.html?page=*",
)
# Harp: the home page (the five newest posts), the posts' index (``posts/index.ejs``: every post,
# newest first, dated), the tags page (every tag, its count) and one page per tag (``tags/<tag>.ejs``,
# each the partial ``tags/_tag.ejs``), linked at their clean URLs (``/tags/python``). About is a
# page; ``404.html`` (Harp's answer to a missing path) is neither; the feed is RSS.
LISTING_GLOBS["harp"] = ("index.html", "posts/index.html", "tags/index.html", "tags/*.html")
# Pod::Simple::HTMLBatch: the contents page (index.html: every module by its name, grouped by its
# first part). Each module's page is content (the manuals, the install page, the two API modules).
LISTING_GLOBS["pod2html"] = ("index.html",)
# gtk-doc: the book's index.html (its title page and table of contents), the part pages (Guide,
# Reference, Appendix: the partintro and the part's chapters; the API reference's: its pages with
# their purpose) and the API index (every symbol A-Z with its page). The annotation glossary is
# text (each annotation's definition under its letter), no listing. The index of deprecated
# symbols is linked from the API index but not written (build.sh says why).
LISTING_GLOBS["gtk-doc"] = (
    "index.html",
    "guide.html",
    "reference.html",
    "appendix.html",
    "api-reference.html",
    "api-index-full.html",
)

_RST_FIELD = re.compile(r"^:(\w+): (.+)$", re.M)


def sveltekit(src: Path) -> list[dict[str, Any]]:
    """The posts but the draft: ``src/posts/<slug>.md`` at ``/blog/<slug>`` (the route
    ``blog/[slug]``; adapter-static writes ``blog/<slug>.html``, linked without the extension:
    SvelteKit's default ``trailingSlash: 'never'``); title and date from the front matter, which
    mdsvex exports as the component's ``metadata``. About (``routes/about/+page.md``) is a page."""
    out = []
    for f in sorted((src / "src" / "posts").glob("*.md")):
        meta, body = front_matter(f.read_text(encoding="utf-8"))
        if meta.get("draft"):
            continue
        out.append(_entry(f"/blog/{f.stem}", meta["title"], _date(meta["date"]), body))
    return out


def sphinx_alabaster(src: Path) -> list[dict[str, Any]]:
    """Every ``.rst`` of the sources but the toctree pages (``index.rst``, the root's and each
    section's: listings), at the page ``sphinx-build -b html`` writes for it
    (``/<folder>/<name>.html``): the posts, the install page and About. The title the file's
    first line (the section title, the ``<h1>``); the date the ``:Date:`` field under it, which the
    page shows as a field list (none on the install page and About); the code blocks its
    ``code-block`` directives (Pygments colours them in ``<div class="highlight-LANG
    notranslate">``)."""
    out = []
    for f in sorted(src.rglob("*.rst")):
        rel = f.relative_to(src).as_posix()
        if f.name == "index.rst":
            continue
        text = f.read_text(encoding="utf-8")
        fields = dict(_RST_FIELD.findall(text.split("\n\n", 2)[1]))
        title = text.split("\n", 1)[0]
        out.append(_entry("/" + rel[: -len(".rst")] + ".html", title, fields.get("Date"), text))
    return out


_ASCIIDOC_REVISION = re.compile(r"^v[^,\s]+, (\d{4}-\d{2}-\d{2})$")


def asciidoc_py(src: Path) -> list[dict[str, Any]]:
    """The blog's posts, ``posts/<slug>.txt`` (the draft is not in the sources), at the page the
    build's ``asciidoc`` writes beside each, ``/posts/<slug>.html``. The title the document title
    (``= ``, the ``<title>`` and ``<h1>``); the date the revision line's (``v1.0, 2023-01-15``, the
    header's third line: shown under the ``<h1>`` as ``version 1.0, 2023-01-15``); the code blocks
    its ``----`` listing blocks, the language the ``[source,LANG]`` line above one (none above a
    plain listing). About and the listing pages are not posts."""
    out = []
    for f in sorted((src / "posts").glob("*.txt")):
        lines = f.read_text(encoding="utf-8").split("\n")
        m = _ASCIIDOC_REVISION.match(lines[2])
        langs: list[str] = []
        inside = False
        for i, line in enumerate(lines):
            if line != "----":
                continue
            if not inside:
                above = re.match(r"^\[source,([^,\]]+)", lines[i - 1])
                langs.append(above.group(1).strip() if above else "")
            inside = not inside
        out.append(
            {
                "url_path": f"/posts/{f.stem}.html",
                "title": lines[0][len("= ") :],
                "date": m.group(1) if m else None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return out


#: Sites whose file names hold URI escapes, linked escaped again (TiddlyWiki); Trac's mirror
#: names its timeline files with the escapes its links hold, served as they are.
ESCAPED_NAMES = frozenset({"tiddlywiki"})
#: Sites whose pages are ``<route>.html`` files served and linked at ``<route>`` (Trac's mirror;
#: Next.js' pages saved by wget; SvelteKit's adapter-static with its default ``trailingSlash: 'never'``;
#: Harp's compiled ``<name>.html``, a folder's ``index.html`` linked at the folder).
CLEAN_URLS = frozenset({"trac", "nextjs", "sveltekit", "harp", "valaxy"})

_JAVADOC_COMMENT = re.compile(r"/\*\*(.*?)\*/", re.S)
_JAVADOC_H2 = re.compile(r"<h2>(.*?)</h2>", re.S)
_JAVADOC_SINCE = re.compile(r"^@since[ \t]+(\S+)", re.M)
_JAVADOC_PRE = re.compile(r"<pre><code(?: class=\"language-([^\"]*)\")?>")


def javadoc(src: Path) -> list[dict[str, Any]]:
    """Every class of the section packages (``src/org/example/lessons/<section>/<Class>.java``: the
    posts and the install page), at the page the standard doclet writes for it,
    ``/org/example/lessons/<section>/<Class>.html``. The title the class comment's first heading
    (``<h2>``: the post's title, under the page's own ``<h1>``, "Class <Class>"), its entities
    decoded; the date its ``@since`` tag, which the page prints ("Since:", none on the install
    page); the code blocks the comment's ``<pre><code>`` elements, the language their
    ``language-…`` class. ``overview.html`` (About) is the text of the overview page,
    ``index.html``, above the packages' table: not a page of its own. The packages' pages and the
    doclet's indexes are listings."""
    import html

    out = []
    for f in sorted((src / "src").glob("org/example/lessons/*/*.java")):
        if f.name == "package-info.java":
            continue
        m = _JAVADOC_COMMENT.search(f.read_text(encoding="utf-8"))
        if not m:
            raise ValueError(f"{f}: no class comment")
        doc = re.sub(r"^[ \t]*\* ?", "", m.group(1), flags=re.M)
        title = _JAVADOC_H2.search(doc)
        if not title:
            raise ValueError(f"{f}: no title heading")
        since = _JAVADOC_SINCE.search(doc)
        langs = [lang or "" for lang in _JAVADOC_PRE.findall(doc)]
        out.append(
            {
                "url_path": "/" + f.relative_to(src / "src").with_suffix(".html").as_posix(),
                "title": html.unescape(title.group(1)),
                "date": since.group(1) if since else None,
                "code_blocks": len(langs),
                "code_languages": langs,
            }
        )
    return out


ORACLES = {
    "pelican": pelican,
    "hexo": hexo,
    "mkdocs": mkdocs,
    "sphinx-furo": sphinx_furo,
    "ablog": ablog,
    "nikola": nikola,
    "vitepress": vitepress,
    "vuepress-hope": vuepress_hope,
    "sphinx-rtd": sphinx_furo,
    "lektor": lektor,
    "starlight": starlight,
    "astro-blog": astro_blog,
    "mkdocs-rtd": mkdocs,
    "sphinx-pydata": sphinx_furo,
    "docusaurus-blog": docusaurus_blog,
    "jupyter-book": jupyter_book,
    "hexo-next": hexo,
    "eleventy-base-blog": eleventy_base_blog,
    "jekyll-deb": jekyll_deb,
    "hugo-deb": hugo_deb,
    "nextra": nextra,
    "gatsby-blog": gatsby_blog,
    "zensical": zensical,
    "wordpress": wordpress,
    "nanoc": nanoc,
    "blosxom": blosxom,
    "chronicle": chronicle,
    "rspress": rspress,
    "vuepress-reco": vuepress_reco,
    "hexo-butterfly": hexo_prism,
    "hexo-fluid": hexo,
    "ghost": ghost,
    "typedoc": typedoc,
    "jsdoc": jsdoc,
    "honkit": honkit,
    "bookdown": bookdown,
    "mdbook": mdbook,
    "ikiwiki": ikiwiki,
    "texinfo": texinfo,
    "fumadocs": fumadocs,
    "mediawiki": mediawiki,
    "org-publish": org_publish,
    "docus": docus,
    "asciidoctor": asciidoctor,
    "docbook": docbook,
    "dokuwiki": dokuwiki,
    "hexo-icarus": hexo,
    "wordpress-classic": wordpress,
    "tiddlywiki": tiddlywiki,
    "trac": trac,
    "pdoc": pdoc,
    "staticsite": staticsite,
    "doxygen": doxygen,
    "gitit": gitit,
    "dumi": dumi,
    "mezzanine": mezzanine,
    "retype": retype,
    "vocs": vocs,
    "wagtail": wagtail,
    "sphinx-alabaster": sphinx_alabaster,
    "hakyll": hakyll,
    "wintersmith": wintersmith,
    "tinkerer": tinkerer,
    "vitepress-sugarat": vitepress_sugarat,
    "metalsmith": metalsmith,
    "pandoc": pandoc,
    "nbconvert": nbconvert,
    "nuxt-content": nuxt_content,
    "sveltekit": sveltekit,
    "nextjs": nextjs,
    "asciidoc-py": asciidoc_py,
    "javadoc": javadoc,
    "rustdoc": rustdoc,
    "latexml": latexml,
    "zim": zim,
    "mkdocs-material-blog": mkdocs_material_blog,
    "pydoctor": pydoctor,
    "fossil": fossil,
    "yard": yard,
    "djangocms-blog": djangocms_blog,
    "rdoc": rdoc,
    "urubu": urubu,
    "haddock": haddock,
    "harp": harp,
    "pod2html": pod2html,
    "mandoc": mandoc,
    "gtk-doc": gtk_doc,
    "pkgdown": pkgdown,
    "valaxy": valaxy,
}

#: Sites whose listing globs match their content pages too (TiddlyWiki's static/*.html; pdoc's
#: About, a module beside the section subpackages): the oracle's pages are taken out.
LISTINGS_BUT_ORACLE = {"tiddlywiki", "pdoc"}


def built_file(site: Path, url_path: str) -> Path:
    if "%" in url_path:  # a file whose name holds escapes is served at its name escaped again
        from urllib.parse import unquote

        url_path = unquote(url_path)
    target = site / url_path.lstrip("/")
    if url_path.endswith("/"):
        return target / "index.html"
    clean = target.with_name(target.name + ".html")  # a clean URL: <route> served from <route>.html
    return clean if not target.is_file() and clean.is_file() else target


def listings(name: str, site: Path) -> list[str]:
    found = set()
    for pattern in LISTING_GLOBS[name]:
        for f in site.glob(pattern):
            if not f.is_file():
                continue  # MediaWiki's wiki/Special:WhatLinksHere/ holds pages, is none
            # A file named with escapes (TiddlyWiki's static/<URI-encoded title>.html) is served
            # at its name escaped again: a server decodes the request's path once.
            rel = "/" + f.relative_to(site).as_posix()
            if name in ESCAPED_NAMES:
                rel = rel.replace("%", "%25")
            # wget saves the answer to dir/?query as dir/index.html?query (Mezzanine's ?page=N).
            rel = rel.replace("/index.html?", "/?")
            if "/index.html?" in rel:  # wget's name for the answer to dir/?query
                rel = rel.replace("/index.html?", "/?", 1)
            if name in CLEAN_URLS and not rel.endswith("/index.html") and rel.endswith(".html"):
                rel = rel[: -len(".html")]
            found.add(
                rel[: -len("index.html")] if rel.endswith("/index.html") or rel == "/index.html" else rel
            )
    return sorted(found)


def main(names: list[str]) -> int:
    for name in names:
        folder = ROOT / name
        oracle = ORACLES[name](folder / "src")
        missing = [e["url_path"] for e in oracle if not built_file(folder / "site", e["url_path"]).is_file()]
        if missing:
            print(f"make_oracle: {name}: not in the build: {missing}", file=sys.stderr)
            return 1
        pages = listings(name, folder / "site")
        posts = {e["url_path"] for e in oracle}
        if name in LISTINGS_BUT_ORACLE:
            pages = [p for p in pages if p not in posts]
        clash = posts & set(pages)
        if clash:
            print(f"make_oracle: {name}: posts among listings: {sorted(clash)}", file=sys.stderr)
            return 1
        (folder / "oracle.json").write_text(
            json.dumps(oracle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        (folder / "listings.json").write_text(
            json.dumps(pages, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        print(
            f"{name}: {len(oracle)} entries, {sum(e['code_blocks'] for e in oracle)} code blocks, "
            f"{len(pages)} listing pages"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or list(ORACLES)))
