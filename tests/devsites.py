"""The development set of real generated sites (shared/fixtures/blogs): served, crawled, scored.

Each site of ``shared/fixtures/blogs/<folder>/site`` is served on a loopback server of its own
(port 0). Its own hosts (``https://46b.it``, entity-encoded in Zola's pages) are rewritten to the
server's origin, the way :func:`tests.servers.serve_tree` maps the Octopress blog's. The loopback
URLs that are not the site (``localhost:1313`` of Hugo's ``hugo server`` output,
``localhost:3000`` of the Eleventy site) point, after the rewrite, at a *canary* loopback server
the caller started: a crawl that followed one would show up in its request log, and no other
service on this machine is ever contacted (README of the fixtures: never 1313 or 3000).

:func:`score` compares ``document.jsonl`` with the site's ``oracle.json``: posts stored, titles,
dates, fenced code blocks, and listing pages stored (the listing paths are those SOURCE.md names;
they are the oracle's side, never the spider's). ``bench/blog_sites.py`` and
``tests/spiders/test_blogs_devset.py`` share it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from lxml import etree

from harvest.util.loopback import LoggedRequest
from tests import OWN_FIXTURES, shared_fixture
from tests.servers import LoopbackServer, Reply, serve_tree

#: Pages of the development set the parser tests read, by (site folder, short name): their path
#: under the site's ``site/`` folder in ``../shared/fixtures/blogs`` (read in place, never copied).
PAGES: dict[tuple[str, str], str] = {
    ("docusaurus-web-dev-docs", "blog-post"): "blog/Guide to using Docusaurus with Material UI/index.html",
    ("docusaurus-web-dev-docs", "blog-tag-docusaurus"): "blog/tags/docusaurus/index.html",
    ("docusaurus-web-dev-docs", "blog"): "blog/index.html",
    ("docusaurus-web-dev-docs", "category-front-end"): "docs/category/front-end-web-design/index.html",
    ("docusaurus-web-dev-docs", "doc-mongodb"): "docs/Back End/Databases/mongodb/index.html",
    ("eleventy-starbugs-weekly", "articles-3"): "articles/3/index.html",
    ("eleventy-starbugs-weekly", "author-larry"): "posts/authors/larry/index.html",
    ("eleventy-starbugs-weekly", "page-list-16"): "page-list/16/index.html",
    ("eleventy-starbugs-weekly", "post-larry-180"): "posts/starbugs-weekly/180/larry-180/index.html",
    ("eleventy-starbugs-weekly", "tag-react"): "tags/react/index.html",
    ("hugo-andyibanez-com", "about"): "about/index.html",
    ("hugo-andyibanez-com", "post-uimenu"): "posts/uimenu-improvements-ios14/index.html",
    ("hugo-andyibanez-com", "posts"): "posts/index.html",
    ("hugo-andyibanez-com", "tag-swift"): "tags/swift/index.html",
    ("jekyll-archives-46bit", "month-2017-03"): "2017/03/index.html",
    ("jekyll-archives-46bit", "post-brexit"): "2017/brexit/index.html",
    ("jekyll-archives-46bit", "writing"): "writing/index.html",
    ("jekyll-archives-46bit", "year-2014"): "2014/index.html",
    ("jekyll-minima-bzoennchen-pages", "post-informatics"): "Pages/2021/06/08/Informatics-a-love-letter.html",
    ("jekyll-minima-bzoennchen-pages", "posts"): "Pages/posts/index.html",
    ("octopress-1up4developers-github-io", "category-hello"): "categories/hello/index.html",
    ("octopress-1up4developers-github-io", "page-2"): "page/2/index.html",
    ("octopress-1up4developers-github-io", "post"): "2014/04/alguns-truques-com-o-repl-do-clojure/index.html",
    ("zola-mawadda-ar", "post-fear"): "words/fear/index.html",
    ("zola-mawadda-ar", "section-words"): "words/index.html",
}


def page_html(folder: str, name: str) -> str:
    """The HTML of a development-set page (:data:`PAGES`); skips (CI: fails) without the fixtures."""
    return shared_fixture("blogs", folder, "site", PAGES[(folder, name)]).read_text(encoding="utf-8")


@dataclass(frozen=True)
class DevSite:
    """One site of the development set: where it is, what its pages call its hosts, its listings."""

    folder: str
    hosts: tuple[str, ...]
    #: Paths (percent-decoded) of the pages SOURCE.md calls listings: followed, never stored.
    listings: tuple[str, ...]
    #: Loopback origins written in the pages that are not the site (pointed at the canary).
    foreign_loopback: tuple[str, ...] = ()
    #: Where a crawl starts (relative to the site's root).
    start: str = "/"
    #: Kept out of the tuning of the classifier and the markup repairs (chosen before looking at
    #: any failure in detail): checked at the end, as sites the spider never met.
    held_out: bool = False
    #: ``source`` of the site's YAML entry.
    source: str = "blog"
    #: Listing pages by exact path (percent-decoded), as the held-out sites' ``listings.json``
    #: lists them from their build.
    listing_paths: tuple[str, ...] = ()
    #: Text of the site's chrome that no post of its oracle contains (the held-out sites' name,
    #: "Small Lessons", in every header): a stored post holding it kept navigation as content.
    chrome_text: str = ""


SITES: tuple[DevSite, ...] = (
    DevSite(
        "octopress-1up4developers-github-io",
        ("http://1up4dev.org",),
        (r"^/$", r"/page/\d+/$", r"^/categories/", r"^/author/", r"^/blog/archives/?$"),
        foreign_loopback=("http://localhost:4000", "http://localhost:9292"),
    ),
    DevSite(
        "jekyll-minima-bzoennchen-pages",
        ("https://bzoennchen.github.io",),
        (r"^/Pages/posts/?$", r"^/Pages/works/?$", r"^/Pages/animations/?$"),
        start="/Pages/",
        held_out=True,
    ),
    DevSite(
        "jekyll-archives-46bit",
        ("https://46b.it",),
        (r"^/$", r"^/\d{4}/?$", r"^/\d{4}/\d{2}/?$", r"^/writing/?$", r"^/art/?$"),
    ),
    DevSite(
        "eleventy-starbugs-weekly",
        ("https://starbugs-blog.netlify.app",),
        (r"^/$", r"^/articles/", r"^/archive/", r"^/page-list/", r"^/tags/", r"^/posts/authors/"),
        foreign_loopback=("http://localhost:3000",),
    ),
    DevSite(
        "zola-mawadda-ar",
        ("https://mawaddanaser.netlify.app",),
        (r"^/$", r"^/(?:words|thoughts|books|science)/?$", r"/page/\d+/?$"),
        held_out=True,
    ),
    DevSite(
        "docusaurus-web-dev-docs",
        ("https://qr-web-dev.netlify.app",),
        (r"^/$", r"^/docs/category/", r"^/blog/?$", r"^/blog/archive/?$", r"^/blog/tags(?:/|$)"),
        source="docs",
    ),
    DevSite(
        "hugo-andyibanez-com",
        # Its pages were written by ``hugo server``: localhost:1313 is the site's own base URL
        # there (every permalink, the sitemap, the feeds), as www.andyibanez.com is in production.
        ("https://www.andyibanez.com", "http://www.andyibanez.com", "http://localhost:1313"),
        (
            r"^/$",
            r"^/posts/?$",
            r"/page/\d+/?$",
            r"^/tags/",
            r"^/categories/",
            r"^/projects/?$",
            r"^/bolivia/?$",
        ),
    ),
)
BY_FOLDER = {s.folder: s for s in SITES}

#: The held-out set (tests/fixtures/heldout, built by bench/heldout/build.sh): generators the dev
#: set does not have, sources written for it, never used to tune anything before being scored.
HELDOUT_FIXTURES = OWN_FIXTURES / "heldout"
#: Generator folder -> ``source`` of its YAML entry (docs generators store every content page).
HELDOUT_SOURCES = {
    "pelican": "blog",
    "hexo": "blog",
    "nikola": "blog",
    "ablog": "blog",
    "mkdocs": "docs",
    "sphinx-furo": "docs",
    "vitepress": "docs",
    "vuepress-hope": "blog",
    "sphinx-rtd": "docs",
    "lektor": "blog",
    "starlight": "docs",
    "astro-blog": "blog",
    "mkdocs-rtd": "docs",
    "sphinx-pydata": "docs",
    "docusaurus-blog": "blog",
    "jupyter-book": "docs",
    "hexo-next": "blog",
    "eleventy-base-blog": "blog",
    "jekyll-deb": "blog",
    "hugo-deb": "blog",
    "nextra": "docs",
    "gatsby-blog": "blog",
    "zensical": "docs",
    "wordpress": "blog",
    "rspress": "docs",
    "vuepress-reco": "blog",
    "hexo-butterfly": "blog",
    "ghost": "blog",
    "honkit": "docs",
    "ikiwiki": "blog",
    "hexo-fluid": "blog",
    "texinfo": "docs",
    "fumadocs": "docs",
    "mediawiki": "docs",
    "docus": "docs",
    "dokuwiki": "docs",
    "hexo-icarus": "blog",
    "docbook": "docs",
    "wordpress-classic": "blog",
    "asciidoctor": "docs",
    "org-publish": "blog",
    "tiddlywiki": "docs",
    "typedoc": "docs",
    "nanoc": "blog",
    "trac": "docs",
    "blosxom": "blog",
    "chronicle": "blog",
    "jsdoc": "docs",
    "pdoc": "docs",
    "staticsite": "blog",
    "doxygen": "docs",
    "gitit": "docs",
    "wintersmith": "blog",
    "hakyll": "blog",
    "sphinx-alabaster": "docs",
    "wagtail": "blog",
    "vocs": "docs",
    "retype": "docs",
    "mezzanine": "blog",
    "dumi": "docs",
    "asciidoc-py": "blog",
    "nextjs": "blog",
    "sveltekit": "blog",
    "nuxt-content": "blog",
    "pandoc": "blog",
    "metalsmith": "blog",
    "vitepress-sugarat": "blog",
    "tinkerer": "blog",
    "zim": "docs",
    "latexml": "blog",
    "rustdoc": "docs",
    "nbconvert": "blog",
    "bookdown": "docs",
    "javadoc": "docs",
    "mkdocs-material-blog": "blog",
    "mdbook": "docs",
    "pydoctor": "docs",
    "fossil": "blog",
    "yard": "docs",
    "djangocms-blog": "blog",
    "rdoc": "docs",
    "urubu": "blog",
    "haddock": "docs",
    "harp": "blog",
    "pod2html": "docs",
    "mandoc": "docs",
    "gtk-doc": "docs",
    "pkgdown": "docs",
    "valaxy": "blog",
}


#: Held-out generators whose default code highlighting writes no language into the page
#: (Pygments through Python-Markdown or docutils: ``<div class="highlight"><pre>``, Nikola's
#: ``<pre class="code literal-block">``; Nextra, whose ``pre`` drops rehype-pretty-code's
#: ``data-language``; WordPress, whose block editor saves ``<pre class="wp-block-code"><code>``
#: and whose core has no language setting, whatever the theme (``wordpress-classic``, a classic
#: PHP theme, prints the same post content); Fumadocs, whose Shiki code block is a ``<figure
#: class="shiki …">`` around a bare ``<pre><code>``; DocBook XSL, whose ``<programlisting
#: language="…">`` is written as a bare ``<pre class="programlisting">`` unless highlighting runs
#: through a Java extension xsltproc has not; Trac, whose ``{{{#!LANG`` block Pygments renders as a
#: bare ``<div class="wiki-code"><div class="code"><pre>``, the processor's name written nowhere;
#: pdoc, whose markdown2 fenced blocks go through Pygments into a bare ``<div class="pdoc-code
#: codehilite"><pre><code>``, the fence's language used for the colours and written nowhere;
#: staticsite, whose Python-Markdown ``codehilite`` (its default extensions, Pygments at build time)
#: writes ``<div class="codehilite"><pre><span></span><code>``, no language class): a language
#: cannot be kept there, only never invented.
#: Doxygen, whose fenced block (the language picks its parser) is a ``<div class="fragment">`` of
#: ``<div class="line">`` rows, no ``<pre>``, no language): a language cannot be kept there, only
#: never invented.
#: Mezzanine, whose rich text is the HTML its author puts in (here Python-Markdown's ``codehilite``,
#: Pygments with its default formatter: ``<div class="codehilite"><pre><span></span><code>``, the
#: language used for the colours and written nowhere; the admin's sanitizer keeps classes only).
#: AsciiDoc.py, whose source filter pipes a ``[source,LANG]`` block through ``pygmentize -f html -l
#: LANG`` into ``<div class="listingblock"><div class="content"><div class="highlight"><pre>``: the
#: language picks the lexer and is written nowhere (GNU source-highlight, its default, writes a
#: bare ``<pre><tt>`` the same way).
#: nbconvert, whose Markdown cells' fenced blocks (every language but the notebook's own: here 25
#: of 33) mistune hands to Pygments without a class, ``<div class="highlight"><pre>``, the fence's
#: language used for the colours and written nowhere; only the code cells declare one (the
#: notebook's lexer, ``<div class="highlight hl-ipython3">``).
#: pydoctor, whose reST ``code-block`` directive ignores its argument: every block, whatever the
#: language it names, goes through pydoctor's own Python colourizer into a bare ``<pre
#: class="py-doctest">`` (C's ``int`` coloured as a Python builtin), the language written nowhere.
#: RDoc, whose Markdown fence keeps its language for one test only: a block named ``ruby``, or any
#: block Ruby's parser accepts (a shell command, a TOML table, Go's, Rust's and C's hello world),
#: is coloured by its Ruby lexer into ``<pre class="ruby">``, every other into a bare ``<pre>``;
#: the fence's name is written nowhere (the one ``class="ruby"`` that is true cannot be told from
#: the thirteen that are RDoc's guess).
#: Urubu, whose Markdown goes through Python-Markdown's ``codehilite`` (its fixed extensions,
#: ``guess_lang`` off, Pygments at build time) into ``<div class="codehilite"><pre><span></span><code>``:
#: the fence's language picks the lexer and is written nowhere.
#: gtk-doc, whose stylesheet writes ``<programlisting language="…">`` as a bare ``<pre
#: class="programlisting">`` (DocBook XSL's default) and whose gtkdoc-fixxref then colours every
#: ``<informalexample>`` with Pygments' lexer for the module's source language, C, whatever the
#: block names (a line-number column beside it, ``<table class="listing_frame">``): the language is
#: written nowhere (gtk-doc's own comment: "the language attribute is not appearing in the html
#: output").
HELDOUT_UNDECLARED_LANGUAGES = frozenset(
    {
        "pelican",
        "nikola",
        "mkdocs",
        "nextra",
        "wordpress",
        "wordpress-classic",
        "fumadocs",
        "docbook",
        "trac",
        "pdoc",
        "staticsite",
        "doxygen",
        "mezzanine",
        "asciidoc-py",
        "nbconvert",
        "pydoctor",
        "rdoc",
        "urubu",
        "gtk-doc",
    }
)


def heldout_page(folder: str, path: str) -> str:
    """The HTML of a held-out site's page (``path`` relative to its ``site/``), committed here."""
    return (HELDOUT_FIXTURES / folder / "site" / path).read_text(encoding="utf-8")


def heldout_site(folder: str) -> DevSite:
    """A held-out site: its own host ``https://<folder>.heldout.example``, its build's listings."""
    listed = json.loads((HELDOUT_FIXTURES / folder / "listings.json").read_text(encoding="utf-8"))
    return DevSite(
        folder,
        (f"https://{folder}.heldout.example",),
        (),
        held_out=True,
        source=HELDOUT_SOURCES[folder],
        listing_paths=tuple(norm_path(p) for p in listed),
        chrome_text="Small Lessons",
    )


_REFRESH_RE = re.compile(rb"<meta[^>]+http-equiv=[\"']?refresh", re.I)
_FENCE_RE = re.compile(r"^(?:>[ \t]?)*(`{3,}|~{3,})", re.M)
_FENCE_INFO_RE = re.compile(r"^(?:>[ \t]?)*(?:`{3,}|~{3,})[ \t]*([^\s`]*)", re.M)


def _entity_form(origin: str) -> str:
    return origin.replace("/", "&#x2F;")


def apply_served(server: LoopbackServer, served: Path) -> None:
    """What a site's files cannot say about their answers, from ``served.json`` beside ``site/``
    (a site mirrored from a running server: ``wordpress``): ``content_types`` by path (a feed at
    ``/feed/``, saved as ``feed/index.html``, is served as the XML it is) and ``redirects`` by
    path with its query string (``/?p=5``: a 301 to the path given); ``query_fallback`` false: a
    query string the mirror lacks answers 404 (``_no_query_fallback``)."""
    table = json.loads(served.read_text(encoding="utf-8"))
    for path, content_type in table.get("content_types", {}).items():
        route = server.routes.get(path)
        if isinstance(route, Reply):
            route.content_type = content_type  # the Reply its other paths share too
    for path, target in table.get("redirects", {}).items():
        server.add(path, Reply(301, headers={"Location": server.base_url + target}))


def _no_query_fallback(server: LoopbackServer) -> None:
    """A path with a query string the mirror does not have answers 404, not the page without it
    (the loopback server's fallback): DokuWiki's ``/<page>?do=edit`` and the other actions a
    crawler should not follow are not the page (``served.json``'s ``query_fallback``: false)."""

    def only_bare(reply: Reply) -> Callable[[LoggedRequest], Reply]:
        def answer(request: LoggedRequest) -> Reply:
            if urlsplit(request.path).query:
                return Reply(404, "not found", content_type="text/plain")
            return reply

        return answer

    for path, route in list(server.routes.items()):
        if "?" not in path and isinstance(route, Reply):
            server.routes[path] = only_bare(route)


def serve_site(server: LoopbackServer, root: Path, site: DevSite, canary: LoopbackServer) -> None:
    """Serve ``root`` on ``server`` with ``site``'s hosts mapped to it and foreign loopback to ``canary``."""
    serve_tree(server, root)
    if (root.parent / "served.json").is_file():
        apply_served(server, root.parent / "served.json")
    base = server.base_url
    swaps: list[tuple[bytes, bytes]] = []
    for host in site.hosts:
        swaps.append((host.encode(), base.encode()))
        swaps.append((_entity_form(host).encode(), _entity_form(base).encode()))
    # The canary keeps the pages' own host name (localhost): only its port changes.
    canary_origin = f"http://localhost:{canary.port}"
    for origin in site.foreign_loopback:
        swaps.append((origin.encode(), canary_origin.encode()))
        swaps.append((_entity_form(origin).encode(), _entity_form(canary_origin).encode()))
    done: set[int] = set()
    for path, route in list(server.routes.items()):
        if isinstance(route, Reply) and isinstance(route.body, bytes) and id(route) not in done:
            done.add(id(route))
            body = route.body
            for old, new in swaps:
                body = body.replace(old, new)
            route.body = body
        aliases = [path]
        # GitHub Pages and Netlify answer /art/snow with art/snow.html (Jekyll links it so).
        if path.endswith(".html") and not path.endswith("/index.html") and path[:-5] not in server.routes:
            server.routes[path[:-5]] = server.routes[path]
            aliases.append(path[:-5])
        # Paths with spaces arrive percent-encoded, in either case (RFC 3986 2.1: WordPress
        # links /tag/%e4%b8%ad%e6%96%87/, lower case), the extensionless ones too (SvelteKit
        # links /tags/中文, served from tags/中文.html).
        for alias in aliases:
            quoted = quote(alias, safe="/:@!$&'()*+,;=-._~?")
            if quoted != alias:
                if alias == path:
                    server.routes[quoted] = server.routes[path]
                else:
                    server.routes.setdefault(quoted, server.routes[path])
                lower = re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), quoted)
                server.routes.setdefault(lower, server.routes[path])
    served = root.parent / "served.json"
    if served.is_file() and not json.loads(served.read_text(encoding="utf-8")).get("query_fallback", True):
        _no_query_fallback(server)


def redirect_stubs(root: Path) -> set[str]:
    """Paths of the meta-refresh alias pages of the tree (old URLs of posts: not content)."""
    stubs = set()
    for path in root.rglob("*.html"):
        if not path.is_file():
            continue  # Gatsby's page-data/404.html/ is a folder (its page-data.json)
        head = path.read_bytes()[:2048]
        if _REFRESH_RE.search(head) and len(path.read_bytes()) < 4096:
            rel = "/" + path.relative_to(root).as_posix()
            stubs.add(norm_path(rel))
    return stubs


def markdown_table(rows: list[dict[str, object]]) -> str:
    """Rows of figures (one dict a row, the first's keys the columns) as a Markdown table, aligned."""
    cols = list(rows[0])
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in cols}
    lines = ["| " + " | ".join(c.ljust(widths[c]) for c in cols) + " |"]
    lines.append("|" + "|".join("-" * (widths[c] + 2) for c in cols) + "|")
    lines += ["| " + " | ".join(str(r[c]).ljust(widths[c]) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def norm_path(path: str) -> str:
    """A page's path as the oracle writes it: percent-decoded, no index.html, no trailing slash."""
    path = unquote(urlsplit(path).path if "://" in path else path)
    path = re.sub(r"(?:^|/)index\.html?$", "/", path)
    return path.rstrip("/") or "/"


def code_blocks(markdown: str) -> int:
    """Fenced code blocks of a Markdown text (an opening and a closing fence each)."""
    return len(_FENCE_RE.findall(markdown)) // 2


def code_languages(markdown: str) -> list[str]:
    """The language of each fenced code block of a Markdown text ('' when it names none)."""
    return _FENCE_INFO_RE.findall(markdown)[0::2]


def _page_tree(root: Path, path: str) -> etree._Element | None:
    """The parsed page the site serves at ``path`` (a folder's ``index.html``), None if none."""
    from harvest.parsers.pagekind import parse_html

    file = root / path.lstrip("/")
    file = file / "index.html" if file.is_dir() else file
    return parse_html(file.read_text(encoding="utf-8")) if file.is_file() else None


def _page_declared_date(root: Path, path: str) -> str | None:
    from harvest.parsers.pagemeta import declared_date

    tree = _page_tree(root, path)
    return declared_date(tree) if tree is not None else None


def _page_code_classes(root: Path, path: str) -> set[str]:
    """The names a page's code blocks carry in their classes (``language-`` or ``lang-`` cut)."""
    if (tree := _page_tree(root, path)) is None:
        return set()
    return {
        token.removeprefix("language-").removeprefix("lang-")
        for el in tree.iter("pre", "code")
        for token in (el.get("class") or "").lower().split()
    }


def _squeeze(text: str | None) -> str:
    return " ".join((text or "").split())


@dataclass
class Score:
    """How a crawl of one site compares with its oracle."""

    site: str
    held_out: bool
    posts: int = 0
    found: int = 0
    titles_right: int = 0
    dated: int = 0
    dates_right: int = 0
    #: Dates that differ from the oracle's (the source's front-matter ``date``) but are the date
    #: the page itself declares as published (JSON-LD ``datePublished``, its feed agreeing): Hugo
    #: writes ``publishDate`` there.
    dates_as_declared: int = 0
    code_oracle: int = 0
    code_kept: int = 0
    #: Code blocks whose language the oracle knows (the held-out set's ``code_languages``), and
    #: how many of them were stored with that language.
    langs_oracle: int = 0
    langs_kept: int = 0
    #: Languages stored that the source gives none of the page's blocks (a guess gone wrong).
    langs_wrong: int = 0
    listings_stored: int = 0
    other_stored: int = 0
    pages_fetched: int = 0
    foreign_requests: int = 0
    missing: list[str] = field(default_factory=list)
    wrong_titles: list[tuple[str, str, str]] = field(default_factory=list)
    wrong_dates: list[tuple[str, str | None, str]] = field(default_factory=list)
    invented_dates: list[tuple[str, str | None]] = field(default_factory=list)
    code_short: list[tuple[str, int, int]] = field(default_factory=list)
    langs_lost: list[tuple[str, list[str], list[str]]] = field(default_factory=list)
    code_extra: list[tuple[str, int, int]] = field(default_factory=list)
    #: Stored posts whose body holds the site's chrome (:attr:`DevSite.chrome_text`).
    chrome: list[str] = field(default_factory=list)
    listings: list[str] = field(default_factory=list)

    @staticmethod
    def ratio(part: int, whole: int) -> float:
        return 1.0 if whole == 0 else part / whole

    def row(self) -> dict[str, Any]:
        """The bench table's figures."""
        has_oracle = (
            self.code_oracle > 0 or self.dated > 0 or self.titles_right > 0 or bool(self.wrong_titles)
        )
        return {
            "site": self.site + (" (held out)" if self.held_out else ""),
            "found": f"{self.found}/{self.posts}",
            "titles": f"{self.titles_right}/{self.posts}" if has_oracle else "-",
            "dates": (
                f"{self.dates_right}/{self.dated}"
                + (f" (+{self.dates_as_declared} as declared)" if self.dates_as_declared else "")
                if has_oracle
                else "-"
            ),
            "code kept": f"{self.code_kept}/{self.code_oracle}" if has_oracle else "-",
            "code langs": f"{self.langs_kept}/{self.langs_oracle}" if self.langs_oracle else "-",
            "chrome in body": len(self.chrome) if self.langs_oracle else "-",
            "listings stored": self.listings_stored,
            "other stored": self.other_stored,
            "pages fetched": self.pages_fetched,
            "foreign loopback": self.foreign_requests,
        }


def load_oracle(folder: Path) -> list[dict[str, Any]]:
    path = folder / "oracle.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def octopress_oracle(root: Path) -> list[dict[str, Any]]:
    """The Octopress blog has no oracle.json: its posts are its ``/YYYY/MM/slug/`` pages (SOURCE.md)."""
    return [
        {"url_path": "/" + p.parent.relative_to(root).as_posix() + "/", "title": None, "date": None}
        for p in root.glob("20*/*/*/index.html")
    ]


def score(
    site: DevSite,
    folder: Path,
    docs: list[dict[str, Any]],
    pages_fetched: int,
    foreign_requests: int,
) -> Score:
    """Compare the documents a crawl stored with the oracle of ``site`` (at ``folder``)."""
    root = folder / "site"
    oracle = load_oracle(folder) or octopress_oracle(root)
    has_titles = any(e.get("title") for e in oracle)
    result = Score(site.folder, site.held_out, pages_fetched=pages_fetched, foreign_requests=foreign_requests)
    stored: dict[str, dict[str, Any]] = {}
    for doc in docs:
        stored.setdefault(norm_path(doc["url"]), doc)
    listing_res = [re.compile(p) for p in site.listings]
    stubs = redirect_stubs(root)
    oracle_paths = set()
    for entry in oracle:
        path = norm_path(entry["url_path"])
        oracle_paths.add(path)
        result.posts += 1
        result.code_oracle += int(entry.get("code_blocks") or 0)
        if entry.get("date"):
            result.dated += 1
        found = stored.get(path)
        if found is None:
            result.missing.append(path)
            continue
        doc = found
        result.found += 1
        if has_titles:
            if _squeeze(doc.get("title")) == _squeeze(entry["title"]):
                result.titles_right += 1
            else:
                result.wrong_titles.append((path, _squeeze(entry["title"]), _squeeze(doc.get("title"))))
        if entry.get("date"):
            stored_date = (doc.get("published") or "")[:10]
            if stored_date == entry["date"]:
                result.dates_right += 1
            elif stored_date and stored_date == _page_declared_date(root, path):
                result.dates_as_declared += 1
            else:
                result.wrong_dates.append((path, doc.get("published"), entry["date"]))
        elif doc.get("published"):
            # The sources date none of it (a docs page, a book): a date stored is made up.
            result.invented_dates.append((path, doc.get("published")))
        want = int(entry.get("code_blocks") or 0)
        body = Path(doc["path"]).read_text(encoding="utf-8") if doc.get("path") else ""
        got = code_blocks(body)
        result.code_kept += min(got, want)
        if got < want:
            result.code_short.append((path, got, want))
        elif got > want and entry.get("code_languages") is not None:
            # The held-out sources have every block of the page: more is a block stored twice.
            result.code_extra.append((path, got, want))
        if site.chrome_text and site.chrome_text in body.split("---\n", 2)[-1]:
            result.chrome.append(path)
        langs = [lang for lang in entry.get("code_languages") or () if lang]
        if langs:
            stored_langs = Counter(lang for lang in code_languages(body) if lang)
            kept = stored_langs & Counter(langs)
            # Not the oracle's, and not the page's either: made up. A language the page itself
            # names on the block is what it declares (RDoc labels every block its Ruby parser
            # accepts "ruby"): kept as declared, not invented.
            declared = _page_code_classes(root, path) if set(stored_langs) - set(langs) else set()
            result.langs_wrong += sum(
                n for lang, n in stored_langs.items() if lang not in langs and lang not in declared
            )
            result.langs_oracle += len(langs)
            result.langs_kept += sum(kept.values())
            if sum(kept.values()) < len(langs):
                result.langs_lost.append((path, langs, code_languages(body)))
    for path in stored:
        if path in oracle_paths:
            continue
        if (
            path in stubs
            or path in site.listing_paths
            or any(r.search(path if path == "/" else path + "/") for r in listing_res)
        ):
            result.listings_stored += 1
            result.listings.append(path)
        else:
            result.other_stored += 1
    return result


@dataclass
class Crawled:
    """One crawl of a dev site: its score, the process result and the crawl's stats."""

    score: Score
    returncode: int
    stderr: str
    stats: dict[str, int]


_STAT_RE = re.compile(r"'((?:harvest|downloader|item|finish)[^']*)': '?(\w+)'?")


def crawl_site(
    site: DevSite, fixtures: Path, work: Path, *, settings: dict[str, Any] | None = None, timeout: float = 600
) -> Crawled:
    """Serve ``site`` on loopback, ``scrapy crawl blogs`` it as a new user would, score the result.

    The site's YAML entry is its name and start page only: every other key takes its default.
    """
    import yaml

    from tests import read_jsonl, scrapy_crawl
    from tests.servers import loopback_server

    folder = fixtures / site.folder
    work.mkdir(parents=True, exist_ok=True)
    with loopback_server() as server, loopback_server() as canary:
        serve_site(server, folder / "site", site, canary)
        entry: dict[str, Any] = {"name": site.folder, "start_urls": [server.base_url + site.start]}
        if site.source != "blog":
            entry["source"] = site.source
        config_dir = work / "config"
        config_dir.mkdir(exist_ok=True)
        (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [entry]}), encoding="utf-8")
        data_dir = work / "data"
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config_dir,
                "HARVEST_DATA_DIR": data_dir,
                "AUTOTHROTTLE_ENABLED": False,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                "CLOSESPIDER_TIMEOUT": int(timeout - 60),
                "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
                **(settings or {}),
            },
            timeout=timeout,
        )
        fetched = len(server.requests)
        foreign = len(canary.requests)
    docs = read_jsonl(data_dir / "blogs" / "document.jsonl")
    stats = {k: int(v) for k, v in _STAT_RE.findall(result.stderr) if v.isdigit()}
    return Crawled(score(site, folder, docs, fetched, foreign), result.returncode, result.stderr, stats)


HELDOUT: tuple[DevSite, ...] = tuple(heldout_site(f) for f in HELDOUT_SOURCES)
