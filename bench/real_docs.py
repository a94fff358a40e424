"""The blogs spider on REAL documentation trees (Debian's -doc packages), scored against each tree.

    python bench/real_docs.py [--heldout] [--trees python,postgresql,...] [--details TREE]
                              [--json FILE] [--keep DIR]

Each tree is served on 127.0.0.1 (port 0) by ``tests.servers.serve_tree``, crawled with
``scrapy crawl blogs`` (a subprocess, ``source: docs``, ``max_pages`` 5000) from its start page,
and compared with an ORACLE read from the tree itself (never from harvest):

========== ===================== ====================================================================
tree       package               documents (the rest: listings, or neither)
========== ===================== ====================================================================
python     python3.11-doc        Sphinx: a page with a ``_sources/*.rst.txt`` whose source is more
                                 than titles, comments, targets and toctree/index/module directives;
                                 the others with a source, ``genindex*``, ``py-modindex``, ``search``
                                 are listings. Title: the source's first section title (inline
                                 markup reduced to its text). Languages: ``highlight-<lang>``
                                 (``default``, ``none``, ``text`` name none).
postgresql postgresql-doc-15     DocBook XSL chunks: a page whose division holds text besides its
                                 title page and ``div.toc``; the book (``index.html``), the index
                                 (``bookindex.html``) and toc-only parts/chapters are listings.
                                 Title: the division's ``h1/h2/h3.title``; a refentry's ``<title>``.
git        git-doc               AsciiDoc man pages and articles, the DocBook user manual; the
                                 pages git's build writes as lists of the others
                                 (``howto-index.html``, ``technical/api-index.html``) are listings,
                                 ``everyday.html`` (a "moved to" note) neither. Title: ``<title>``
                                 (the source's document title; the ``<h1>`` adds "Manual Page").
rust-book  rust-doc              mdBook: the book's own folder (``html/book/*.html``, the old
                                 editions' folders left out); a chapter is an mdBook page with a
                                 ``<main>``; ``print.html`` (the whole book) and ``toc.html`` are
                                 listings, ``404.html`` and the rustdoc "old link" stubs
                                 (``noindex``) neither. Title: the first ``<h1>`` of ``<main>``,
                                 else its first heading. Languages: ``language-<x>``.
node       nodejs-doc            Node's generator: every module page; ``index.html`` and
                                 ``all.html`` (every module again) are listings. Title: the first
                                 heading of ``#apicontent``. Languages: ``language-<x>``.
========== ===================== ====================================================================

Code blocks: the outermost ``<pre>`` elements of the page's main content container
(``div[role=main]``/``div.body``, the DocBook division, ``#content``, ``<main>``, ``#apicontent``),
against the fenced blocks of the stored Markdown. Titles are compared with whitespace, dashes and
quotes made plain (Sphinx's smart quotes turn ``---`` into an em dash).

Every tree is small enough to crawl whole (Python 530 pages, PostgreSQL 1,169, git 242, the Rust
Book 185, Node 65) but the Rust docs: only the Book is served. Absolute links to the trees' public
hosts are left as they are and are not followed (the spider keeps to the start page's host); the
crawl runs with ``http_proxy``/``https_proxy`` set to a loopback canary server (``no_proxy``
127.0.0.1), so a request for any other host reaches that canary and nothing else: its count is the
``foreign`` column and must be 0.

Per tree: HTML pages served, documents (oracle), documents stored, documents missing (fetched or
never fetched), listing pages stored, other pages stored, titles right (``unnumbered``: right but
for a section number or label, ``Chapter 5.``, ``4.2.``), documents given a date (``dated``: the
trees date none but PostgreSQL's release notes), documents whose Markdown has an odd number of
fence lines (``bad fences``: a block left open), documents keeping under 70% of the page's words
(``text <70%``), code blocks kept / expected, languages kept / expected, WARNING lines of the crawl
log (count, the first 5), pages fetched, requests that reached the canary (``foreign``), exit
code, wall time. All five trees take about a minute. ``--details TREE`` lists
every mismatch; ``--json FILE`` writes rows and mismatches; ``--keep DIR`` keeps each crawl's
output folder (``DIR/<tree>/data/blogs/document.jsonl`` and the Markdown) for reading.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import shutil
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from lxml import html as lxml_html
from lxml.html import HtmlElement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import read_jsonl, scrapy_crawl  # noqa: E402
from tests.devsites import code_blocks, markdown_table, norm_path  # noqa: E402
from tests.servers import loopback_server, serve_tree  # noqa: E402

DOC = "document"
LISTING = "listing"
NEITHER = "neither"
#: Sphinx highlight names that name no language.
NO_LANGUAGE = frozenset({"default", "none", "text", ""})
#: The same language under two names.
#: A fence line as tests/devsites.py counts them (at a line's start, in block quotes too).
_FENCE_LINE = re.compile(r"^(?:>[ \t]?)*(?:`{3,}|~{3,})", re.M)
_FENCE_INFO = re.compile(r"^(?:>[ \t]?)*(?:`{3,}|~{3,})[ \t]*([^\s`]*)", re.M)
LANG_ALIAS = {"python3": "python", "py": "python", "py3": "python", "pycon3": "pycon"}


@dataclass
class Page:
    """What the tree says one HTML page is."""

    kind: str
    title: str = ""
    code: int = 0
    langs: list[str] = field(default_factory=list)
    #: Words of the main content container.
    words: int = 0


@dataclass
class Tree:
    name: str
    package: str
    root: Path
    start: str
    judge: Callable[[Path, str], Page]
    #: Files (relative, with a leading slash) served; default every file.
    serve: Callable[[str], bool] = lambda rel: True
    #: ``tuning``: trees the extraction's rules were looked at on; ``heldout``: trees kept out of
    #: that work, run with ``--heldout`` to check the rules on pages nobody tuned on.
    group: str = "tuning"


# --- reading pages -------------------------------------------------------------------------------


def _parse(file: Path) -> HtmlElement:
    return lxml_html.fromstring(file.read_bytes())


def _classes(el: HtmlElement) -> list[str]:
    return (el.get("class") or "").split()


def _outer_pres(container: HtmlElement | None) -> list[HtmlElement]:
    if container is None:
        return []
    return [pre for pre in container.iter("pre") if not any(a.tag == "pre" for a in pre.iterancestors())]


def _code_lang(pre: HtmlElement) -> str:
    """``language-<x>`` on the block or its <code> (first one)."""
    for el in [pre, *pre.iter("code")]:
        for token in _classes(el):
            if token.startswith("language-"):
                return token.removeprefix("language-").lower()
    return ""


def _text(el: HtmlElement | None) -> str:
    return " ".join((el.text_content() if el is not None else "").split())


_NUMBERING = re.compile(
    r"^(?:(?i:chapter|part|appendix)\s+)?(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z](?:\.\d+)*\.)\s+"
)


def unnumbered(text: str) -> str:
    """A plain title without its section number or label (``Chapter 5.``, ``4.2.``, ``Part VI.``,
    an appendix's ``F.1.``)."""
    return _NUMBERING.sub("", text)


def _words(el: HtmlElement | None) -> int:
    """Words shown by ``el`` (scripts, styles and tables of contents left out)."""
    if el is None:
        return 0
    return sum(
        len(t.split())
        for t in el.xpath(
            ".//text()[not(ancestor::script) and not(ancestor::style)"
            " and not(ancestor::*[contains(concat(' ', @class, ' '), ' toc ')"
            " or contains(@class, 'toctree-wrapper')])]"
        )
    )


_MD_NOISE = re.compile(r"\]\([^)]*\)|^(?:```|~~~)\S*$|[#*_`>|\\-]+(?=\s)", re.M)


def markdown_words(body: str) -> int:
    """Words of a stored Markdown file's text: front matter, link targets and markup left out."""
    if body.startswith("---\n"):
        body = body[body.find("\n---\n", 4) + 5 :]
    return len(_MD_NOISE.sub(" ", body).split())


def plain(text: str | None) -> str:
    """A title made comparable: NFKC, dashes and quotes plain, whitespace squeezed."""
    text = unicodedata.normalize("NFKC", text or "")
    text = text.replace("---", "—").replace("--", "–")
    text = re.sub("[‐-―−]", "-", text)
    text = re.sub("[‘’‚‛]", "'", text)
    text = re.sub("[“”„‟]", '"', text)
    return " ".join(text.split())


# --- Sphinx --------------------------------------------------------------------------------------

_UNDERLINE = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_QUIET_DIRECTIVES = frozenset(
    {"toctree", "index", "module", "currentmodule", "highlight", "sectionauthor", "moduleauthor", "only"}
)


def _role(match: re.Match[str]) -> str:
    """A role as Sphinx shows it: its title if it has one, ``~`` the last name, ``()`` after a
    function, ``RFC``/``PEP`` before a number."""
    role, content = match.group(1).split(":")[-1], match.group(2)
    titled = re.match(r"^(.*?)\s*<[^>]*>$", content, re.S)
    if titled:
        return titled.group(1)
    content = content.lstrip("!")
    if content.startswith("~"):
        content = content[1:].rsplit(".", 1)[-1]
    if role in {"func", "meth"}:
        content += "()"
    elif role in {"rfc", "pep"}:
        content = f"{role.upper()} {content}"
    return content


def _rst_inline(text: str) -> str:
    text = re.sub(r":([\w:+-]+):`([^`]*)`", _role, text)
    text = re.sub(r"``([^`]*)``", r"\1", text)
    text = re.sub(r"`([^`]*)`_*", r"\1", text)
    text = re.sub(r"\*\*([^*]*)\*\*|\*([^*]*)\*", lambda m: m.group(1) or m.group(2), text)
    text = text.replace("\\ ", "").replace("\\", "")
    return re.sub(r"(?<![\w.])[~!](?=\w)", "", text)


def rst_summary(source: str) -> tuple[str, bool]:
    """The first section title of a reST source and whether it has more than titles,
    comments, targets and toctree/index/module directives."""
    lines = source.splitlines()
    title = ""
    content = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        after = lines[i + 2] if i + 2 < len(lines) else ""
        if _UNDERLINE.match(line) and nxt.strip() and _UNDERLINE.match(after) and after[0] == line[0]:
            title = title or _rst_inline(nxt.strip())  # overline, title, underline
            i += 3
            continue
        if not stripped or _UNDERLINE.match(line):
            i += 1
            continue
        if not line[:1].isspace() and _UNDERLINE.match(nxt) and len(nxt.strip()) >= len(stripped) - 1:
            title = title or _rst_inline(stripped)
            i += 2
            continue
        if stripped.startswith(".."):
            m = re.match(r"\.\.\s+([\w:-]+)::", stripped)
            name = m.group(1) if m else ""
            if m and name not in _QUIET_DIRECTIVES:
                content = True
            indent = len(line) - len(line.lstrip())
            i += 1
            if name == "only":
                continue  # its body is read like the rest
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                i += 1
            continue
        if re.match(r"^:[\w-]+:(\s.*)?$", stripped) and not title:
            i += 1  # file-wide metadata (:orphan:, :tocdepth:)
            continue
        content = True
        i += 1
    return title, content


def sphinx_page(root: Path, rel: str) -> Page:
    name = rel.lstrip("/")
    source = root / "_sources" / (name[: -len(".html")] + ".rst.txt")
    if not source.is_file():
        if re.match(r"(?:.*/)?(?:genindex(?:-\w+)?|py-modindex|search)\.html$", name):
            return Page(LISTING)
        return Page(NEITHER)
    title, content = rst_summary(source.read_text(encoding="utf-8", errors="replace"))
    if not content:
        return Page(LISTING, title)
    tree = _parse(root / name)
    main = next(
        iter(tree.xpath('//div[@role="main"] | //div[contains(concat(" ",@class," ")," body ")]')), None
    )
    pres = _outer_pres(main)
    langs = []
    for pre in pres:
        lang = ""
        for anc in pre.iterancestors("div"):
            found = [c.removeprefix("highlight-") for c in _classes(anc) if c.startswith("highlight-")]
            if found:
                lang = found[0].lower()
                break
        if lang not in NO_LANGUAGE:
            langs.append(lang)
    return Page(DOC, title, len(pres), langs, _words(main))


# --- DocBook XSL ---------------------------------------------------------------------------------

_DIVISION_TEXT_SKIP = frozenset({"titlepage", "toc", "navheader", "navfooter", "refnamediv"})


def docbook_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    division = None
    for child in body if body is not None else []:
        if child.tag == "div" and not set(_classes(child)) & {"navheader", "navfooter"}:
            division = child
            break
    if division is None:
        return Page(NEITHER)
    kind = _classes(division)[0] if _classes(division) else ""
    if kind in {"book", "index", "set"}:
        return Page(LISTING)
    heads = division.xpath(
        './/*[self::h1 or self::h2 or self::h3][contains(concat(" ",@class," ")," title ")]'
    )
    title = _text(heads[0]) if heads and kind != "refentry" else _text(tree.find(".//title"))
    # Text of the division outside its title page and table of contents.
    own = "".join(
        _text(child)
        for child in division
        if not set(_classes(child)) & _DIVISION_TEXT_SKIP and child.tag not in {"h1", "h2", "h3"}
    )
    if not own.strip():
        return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(division)), words=_words(division))


# --- AsciiDoc (git) ------------------------------------------------------------------------------

GIT_LISTINGS = frozenset({"/howto-index.html", "/technical/api-index.html"})
GIT_NEITHER = frozenset({"/everyday.html"})


def git_page(root: Path, rel: str) -> Page:
    if rel in GIT_LISTINGS:
        return Page(LISTING)
    if rel in GIT_NEITHER:
        return Page(NEITHER)
    tree = _parse(root / rel.lstrip("/"))
    title = _text(tree.find(".//title"))
    content = next(iter(tree.xpath('//div[@id="content"] | //div[@class="book"]')), None)
    if content is None:
        return Page(NEITHER, title)
    return Page(DOC, title, len(_outer_pres(content)), words=_words(content))


# --- mdBook --------------------------------------------------------------------------------------


def mdbook_page(root: Path, rel: str) -> Page:
    file = root / rel.lstrip("/")
    raw = file.read_bytes()
    if rel in {"/print.html", "/toc.html"}:
        return Page(LISTING)
    if rel == "/404.html" or b"Book generated using mdBook" not in raw:
        return Page(NEITHER)
    tree = lxml_html.fromstring(raw)
    main = tree.find(".//main")
    if main is None:
        return Page(NEITHER)
    heads = main.xpath(".//h1") or main.xpath(".//*[self::h2 or self::h3 or self::h4]")
    pres = _outer_pres(main)
    langs = [lang for lang in (_code_lang(p) for p in pres) if lang]
    return Page(DOC, _text(heads[0]) if heads else "", len(pres), langs, _words(main))


# --- Node ----------------------------------------------------------------------------------------


def node_page(root: Path, rel: str) -> Page:
    if rel in {"/index.html", "/all.html"}:
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    content = tree.find('.//div[@id="apicontent"]')
    if content is None:
        return Page(NEITHER)
    heads = content.xpath(".//*[self::h1 or self::h2 or self::h3]")
    title = ""
    if heads:
        head = copy.deepcopy(heads[0])
        # The heading's anchors: its "#" mark, the source link, the legacy anchor.
        for mark in head.xpath('.//span[a[@class="mark"]] | .//a[@class="srclink" or @aria-hidden]'):
            mark.drop_tree()
        title = _text(head)
    pres = _outer_pres(content)
    langs = [lang for lang in (_code_lang(p) for p in pres) if lang]
    return Page(DOC, title, len(pres), langs, _words(content))


TREES = {
    "python": Tree(
        "python",
        "python3.11-doc",
        Path("/usr/share/doc/python3.11/html"),
        "/index.html",
        sphinx_page,
    ),
    "postgresql": Tree(
        "postgresql",
        "postgresql-doc-15",
        Path("/usr/share/doc/postgresql-doc-15/html"),
        "/index.html",
        docbook_page,
    ),
    "git": Tree("git", "git-doc", Path("/usr/share/doc/git-doc"), "/", git_page),
    "rust-book": Tree(
        "rust-book",
        "rust-doc",
        Path("/usr/share/doc/rust-doc/html/book"),
        "/index.html",
        mdbook_page,
        serve=lambda rel: not re.match(r"/(?:first|second|2018)-edition/", rel),
    ),
    "node": Tree("node", "nodejs-doc", Path("/usr/share/doc/nodejs/api"), "/index.html", node_page),
}


# --- crawl and score -----------------------------------------------------------------------------


@dataclass
class Result:
    tree: str
    row: dict[str, Any]
    details: dict[str, list[Any]]
    warnings: list[str]


def _files(tree: Tree) -> tuple[list[str], frozenset[str], dict[str, str]]:
    """HTML pages served, files not served, and HTML aliases (a symlink to a page of the tree)."""
    pages: list[str] = []
    skip: set[str] = set()
    aliases: dict[str, str] = {}
    for path in sorted(tree.root.rglob("*")):
        rel = "/" + path.relative_to(tree.root).as_posix()
        if path.is_dir():
            continue
        if not path.exists() or not tree.serve(rel):  # broken symlinks too
            skip.add(rel)
            continue
        if path.suffix == ".html":
            if path.is_symlink() and path.resolve().is_relative_to(tree.root.resolve()):
                target = "/" + path.resolve().relative_to(tree.root.resolve()).as_posix()
                aliases[norm_path(rel)] = norm_path(target)
                continue
            pages.append(rel)
    return pages, frozenset(skip), aliases


def _langs(values: Iterable[str]) -> Counter[str]:
    return Counter(LANG_ALIAS.get(v.lower(), v.lower()) for v in values if v)


def run_tree(tree: Tree, work: Path, timeout: float) -> Result:
    pages, skip, aliases = _files(tree)
    oracle = {norm_path(rel): tree.judge(tree.root, rel) for rel in pages}
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with loopback_server() as server, loopback_server() as canary:
        serve_tree(server, tree.root, skip=skip)
        entry = {
            "name": tree.name,
            "start_urls": [server.base_url + tree.start],
            "source": "docs",
            "max_pages": 5000,
        }
        config_dir = work / "config"
        config_dir.mkdir(exist_ok=True)
        (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [entry]}), encoding="utf-8")
        data_dir = work / "data"
        proxy = canary.base_url
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config_dir,
                "HARVEST_DATA_DIR": data_dir,
                "AUTOTHROTTLE_ENABLED": False,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                "CLOSESPIDER_TIMEOUT": int(timeout - 60),
            },
            env={"http_proxy": proxy, "https_proxy": proxy, "no_proxy": "127.0.0.1,localhost"},
            timeout=timeout,
        )
        fetched = {norm_path(r.path.split("?")[0]) for r in server.requests}
        foreign = len(canary.requests)
    wall = time.monotonic() - started
    (work / "crawl.log").write_text(result.stderr, encoding="utf-8")
    docs = read_jsonl(data_dir / "blogs" / "document.jsonl")
    stored: dict[str, dict[str, Any]] = {}
    for doc in docs:
        path = norm_path(doc["url"])
        stored.setdefault(aliases.get(path, path), doc)
    fetched = {aliases.get(p, p) for p in fetched}
    wanted = {p: page for p, page in oracle.items() if page.kind == DOC}
    details: dict[str, list[Any]] = {
        k: []
        for k in (
            "missing (fetched)",
            "missing (never fetched)",
            "listings stored",
            "other pages stored",
            "wrong titles (path, oracle, stored)",
            "titles right but for their number (path, oracle, stored)",
            "dates stored (the tree dates none)",
            "odd number of fence lines (path, fence lines)",
            "text short: under 70% of the page's words (path, stored, page)",
            "code short (path, kept, expected)",
            "code extra (path, stored, expected)",
            "languages lost (path, expected, stored)",
        )
    }
    short_text = 0
    titles = titles_unnumbered = titled = broken = dated = code_kept = code_want = langs_kept = langs_want = 0
    for path, page in sorted(wanted.items()):
        code_want += page.code
        want_langs = _langs(page.langs)
        langs_want += sum(want_langs.values())
        doc = stored.get(path, {})
        if not doc:
            details["missing (fetched)" if path in fetched else "missing (never fetched)"].append(path)
            continue
        titled += bool(page.title)
        if not page.title:
            pass  # the page declares no title: nothing to compare
        elif plain(doc.get("title")) == plain(page.title):
            titles += 1
            titles_unnumbered += 1
        elif unnumbered(plain(doc.get("title"))) == unnumbered(plain(page.title)):
            titles_unnumbered += 1
            details["titles right but for their number (path, oracle, stored)"].append(
                (path, page.title, doc.get("title"))
            )
        else:
            details["wrong titles (path, oracle, stored)"].append((path, page.title, doc.get("title")))
        if doc.get("published"):
            dated += 1
            details["dates stored (the tree dates none)"].append((path, doc["published"]))
        body = Path(doc["path"]).read_text(encoding="utf-8") if doc.get("path") else ""
        if page.words >= 100 and markdown_words(body) < 0.7 * page.words:
            short_text += 1
            details["text short: under 70% of the page's words (path, stored, page)"].append(
                (path, markdown_words(body), page.words)
            )
        fences = len(_FENCE_LINE.findall(body))
        if fences % 2:
            broken += 1
            details["odd number of fence lines (path, fence lines)"].append((path, fences))
        got = code_blocks(body)
        code_kept += min(got, page.code)
        if got < page.code:
            details["code short (path, kept, expected)"].append((path, got, page.code))
        elif got > page.code:
            details["code extra (path, stored, expected)"].append((path, got, page.code))
        # Every fence line naming a language opens a block (a closing fence names none): read
        # so, a stray fence (bad fences) does not shift every later block's language.
        got_langs = _langs(m for m in _FENCE_INFO.findall(body) if re.fullmatch(r"[\w+#.-]+", m))
        kept = sum((want_langs & got_langs).values())
        langs_kept += kept
        if kept < sum(want_langs.values()):
            details["languages lost (path, expected, stored)"].append(
                (path, dict(want_langs), dict(got_langs))
            )
    for path in sorted(stored):
        kind = oracle[path].kind if path in oracle else NEITHER
        if kind == NEITHER:
            details["other pages stored"].append(path)
        elif kind == LISTING:
            details["listings stored"].append(path)
    warnings = [line for line in result.stderr.splitlines() if " WARNING: " in line or "] WARNING" in line]
    found = sum(1 for p in wanted if p in stored)
    row = {
        "tree": tree.name,
        "pages": len(pages),
        "docs": len(wanted),
        "stored": found,
        "missing": len(wanted) - found,
        "listings stored": len(details["listings stored"]),
        "other stored": len(details["other pages stored"]),
        "titles": f"{titles}/{titled}",
        "unnumbered": f"{titles_unnumbered}/{titled}",
        "dated": dated,
        "bad fences": broken,
        "text <70%": short_text,
        "code": f"{code_kept}/{code_want}",
        "langs": f"{langs_kept}/{langs_want}",
        "warnings": len(warnings),
        "fetched": len(fetched),
        "foreign": foreign,
        "exit": result.returncode,
        "wall s": round(wall),
    }
    return Result(tree.name, row, details, warnings)


def _summary(res: Result) -> None:
    d = res.details
    print(f"\n## {res.tree}")
    missing = d["missing (fetched)"] + d["missing (never fetched)"]
    print(f"- documents missing: {len(missing)} {missing[:10]}")
    print(f"- listing pages stored: {len(d['listings stored'])} {d['listings stored']}")
    print(f"- other pages stored: {len(d['other pages stored'])} {d['other pages stored'][:10]}")
    print(f"- WARNING lines: {len(res.warnings)}")
    for line in res.warnings[:5]:
        print(f"    {line[:300]}")


def _details(res: Result) -> None:
    print(f"\n## {res.tree}: every mismatch")
    for label, values in res.details.items():
        if values:
            print(f"- {label}: {len(values)}")
            for value in values:
                print(f"    {value}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", default="", help="comma-separated (default: every tuning tree installed)")
    parser.add_argument("--heldout", action="store_true", help="the held-out trees instead")
    parser.add_argument("--details", action="append", default=[], metavar="TREE", help="list every mismatch")
    parser.add_argument("--json", type=Path, help="write rows and mismatches to this file")
    parser.add_argument("--keep", type=Path, help="keep each crawl's output under DIR/<tree>/")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per crawl (default 900)")
    options = parser.parse_args()
    names = [n.strip() for n in options.trees.split(",") if n.strip()] or [
        name for name, tree in TREES.items() if (tree.group == "heldout") == options.heldout
    ]
    unknown = [n for n in names + options.details if n not in TREES]
    if unknown:
        parser.error(f"unknown tree(s) {unknown}; choose from {sorted(TREES)}")
    work = options.keep or Path(tempfile.mkdtemp(prefix="bench-real-docs-"))
    results = []
    try:
        for name in names:
            tree = TREES[name]
            if not (tree.root / tree.start.lstrip("/")).exists() and not tree.root.is_dir():
                print(f"{name}: skipped, not installed (apt-get install {tree.package})")
                continue
            shutil.rmtree(work / name, ignore_errors=True)
            results.append(run_tree(tree, work / name, options.timeout))
            print(f"{name}: done ({results[-1].row['wall s']} s)", file=sys.stderr)
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    if not results:
        return 0
    print(markdown_table([r.row for r in results]))
    for res in results:
        _summary(res)
    for res in results:
        if res.tree in options.details:
            _details(res)
    if options.json:
        payload = [{"row": r.row, "details": r.details, "warnings": r.warnings} for r in results]
        options.json.write_text(json.dumps(payload, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0 if all(r.row["exit"] == 0 and r.row["foreign"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
