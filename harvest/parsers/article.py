"""An article page (blog post, docs page) to clean Markdown plus its metadata.

``extract_article(html, url)`` is a pure function: the same page always gives the same result,
so it runs in a worker process (``harvest.extraction``) as well as inline, and is tested on
saved real pages.

Main-content detection and Markdown come from trafilatura (the best of the extractors measured
on our fixtures). Its weak spot is code: it turns one-line ``<pre>`` blocks into inline code,
loses the language and mangles Sphinx/Pygments markup (line-number gutters, ``¶`` header links).
So before trafilatura sees the page, every code block is taken out and replaced by a unique
placeholder paragraph; its text and language (read from the classes that Sphinx, MkDocs,
Pygments, Rouge, Prism, highlight.js and Hugo put on ``<pre>``, ``<code>`` and their wrappers)
are kept aside, and after extraction each placeholder becomes a fenced block with that language.
A placeholder trafilatura dropped as boilerplate drops its code too, as it should.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import lxml.html
from lxml import etree

from harvest.parsers import markup
from harvest.parsers.rights import PageSignals, page_signals

logger = logging.getLogger(__name__)

#: Letters and digits only: Markdown conversion escapes nothing in it.
_TOKEN = "HRVSTCODE{:05d}QX"
_TOKEN_RE = re.compile(r"`*HRVSTCODE(\d{5})QX`*")
_LANG_PREFIX_RE = re.compile(r"^(?:language|lang|highlight-source|highlight|sourcecode|brush:?)-?(.+)$")
#: Bare class names that name a language (old highlight.js, Octopress, Pandoc ``sourceCode x``).
_KNOWN_LANGS = frozenset(
    """bash sh shell zsh fish console shell-session powershell ps1 bat cmd python py python3 pycon
    ipython ipython3 ruby rb erb javascript js jsx typescript ts tsx json json5 yaml yml toml ini cfg
    conf xml html xhtml css scss sass less sql psql mysql c h cpp cxx c++ cc hpp csharp cs java
    kotlin kt scala groovy gradle go golang rust rs swift objc objectivec php perl pl lua r julia
    haskell hs clojure clj elixir ex erlang erl ocaml fsharp dart nim zig diff patch make makefile
    cmake dockerfile docker nginx apache vim tex latex markdown md rst text plaintext graphql proto
    protobuf hcl terraform jinja django twig handlebars vue svelte elm lisp scheme racket asm nasm
    coffeescript coffee awk sed tcl vb vbnet matlab fortran pascal ada d crystal""".split()
)
#: Pygments/Sphinx names that mean "no highlighting", and Sphinx's ``default`` (python3, falling
#: back to none: https://www.sphinx-doc.org/en/master/usage/configuration.html#confval-highlight_language).
_LANG_ALIASES = {
    "default": "python",
    "python3": "python",
    "py3": "python",
    "ipython3": "ipython",
    "none": "",
    "nohighlight": "",
    "no-highlight": "",
    "plain": "text",
    "plaintext": "text",
    "txt": "text",
    "highlight": "",
    "notranslate": "",
}
_NOT_LANG_CLASSES = frozenset(
    {
        "highlight",
        "hljs",
        "chroma",
        "codehilite",
        "sourcecode",
        "literal-block",
        "notranslate",
        "line-numbers",
        "linenums",
        "prettyprint",
        "code",
        "snippet",
        "highlighter-rouge",
        "block",
        "wrap",
        "copyable",
        "doctest",
        "python-expr",
    }
)
_HEADERLINK_TEXTS = frozenset({"", "¶", "#", "§", "🔗", "¤", "link", "permalink"})
_HEADERLINK_CLASSES = frozenset(
    {
        "headerlink",
        "anchor",
        "anchorjs-link",
        "heading-anchor",
        "header-anchor",
        "hash-link",
        "anchor-link",
        "permalink",
        "heading-link",
        "sectionlink",
    }
)
_TITLE_SEPARATORS_RE = re.compile(r"\s+[-|–—·:»/]{1,2}\s+")
_EMPTY_LINK_RE = re.compile(r"\[(?:¶|#|§)?\]\([^)\s]*\)")
_BLANK_LINES_RE = re.compile(r"\n{3,}")
_LINK_TARGET_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)")
#: Less visible text than this is navigation or an error page, not an article (a one-line
#: post still has more; CJK sentences are short, hence characters rather than words).
MIN_TEXT_CHARS = 40
_ARTICLE_TYPE_RE = re.compile(
    r'"@type"\s*:\s*\[?\s*"(?:BlogPosting|Article|NewsArticle|TechArticle|ScholarlyArticle|Report|'
    r'SocialMediaPosting|HowTo)"'
)
#: The agent token ``<meta name="...">`` robots directives are read for (BOT_NAME).
DEFAULT_AGENT = "harvest"
_META_TAG_RE = re.compile(r"<meta\s[^>]*>", re.I)
_META_ATTR_RE = re.compile(r"""(property|name|content)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)

_EXTRACTOR_OPTIONS: dict[str, Any] = {
    "output_format": "markdown",
    "formatting": True,
    "links": True,
    "tables": True,
    "images": False,
    "comments": False,
    "with_metadata": True,
}


@dataclass
class Article:
    """What an article page yields: Markdown body and metadata (None when the page has none)."""

    markdown: str
    title: str | None
    author: str | None
    published: str | None
    language: str | None
    canonical_url: str | None
    code_blocks: int = 0
    #: Opt-out and licence signals of the page's HTML (flat: the worker protocol sends asdict()):
    #: robots directives of ``<meta name="robots">``, TDMRep meta values, ``rel="license"``.
    robots_meta: list[str] = field(default_factory=list)
    tdm_reservation_meta: str | None = None
    tdm_policy_meta: str | None = None
    license_url: str | None = None
    #: The MinHash signature of ``markdown`` (:func:`harvest.parsers.neardup.to_bytes`) when the
    #: extractor computed it: extraction workers do, so the crawl process does not have to.
    minhash: bytes | None = field(default=None, repr=False, compare=False)

    def signals(self) -> PageSignals:
        """The page's own rights signals, for :func:`harvest.parsers.rights.combine`."""
        return PageSignals(
            list(self.robots_meta), self.tdm_reservation_meta, self.tdm_policy_meta, self.license_url
        )


@dataclass
class _Code:
    text: str
    language: str


def looks_like_article(html: str) -> bool:
    """Whether the page declares itself an article (``og:type`` article, schema.org, pub time).

    A cheap scan of the head, for pages whose URL says nothing (``/my-post/``).
    """
    head = html[:65536]
    if _ARTICLE_TYPE_RE.search(head):
        return True
    for tag in _META_TAG_RE.findall(head):
        attrs = {
            m.group(1).lower(): (m.group(2) if m.group(2) is not None else m.group(3) or "")
            for m in _META_ATTR_RE.finditer(tag)
        }
        key = (attrs.get("property") or attrs.get("name") or "").lower()
        if key == "og:type" and attrs.get("content", "").strip().lower() == "article":
            return True
        if key == "article:published_time" and attrs.get("content"):
            return True
    return False


def _normalize_language(name: str) -> str | None:
    name = name.strip().lower()
    if not name or not re.fullmatch(r"[a-z0-9][a-z0-9+#._-]{0,30}", name):
        return None
    return _LANG_ALIASES.get(name, name)


def _language_from_element(el: etree._Element, *, bare_names: bool) -> str | None:
    for attr in ("data-lang", "data-language", "lang"):
        value = el.get(attr)
        if value and el.tag in {"pre", "code"} and attr != "lang":
            lang = _normalize_language(value)
            if lang is not None:
                return lang
    for token in (el.get("class") or "").split():
        low = token.lower()
        if low in _NOT_LANG_CLASSES and low != "default":
            continue
        m = _LANG_PREFIX_RE.match(low)
        if m and m.group(1) not in _NOT_LANG_CLASSES | {"rouge", "source"}:
            lang = _normalize_language(m.group(1))
            if lang is not None:
                return lang
        elif bare_names and low in _KNOWN_LANGS:
            return _normalize_language(low)
    return None


def _code_language(pre: etree._Element) -> str:
    """The language a page gives a ``<pre>`` block, or '' when it gives none."""
    code = pre.find("code")
    for el in (code, pre):
        if el is not None:
            lang = _language_from_element(el, bare_names=True)
            if lang is not None:
                return lang
    parent = pre.getparent()
    for _ in range(4):
        if parent is None or parent.tag in {"body", "article", "main", "section"}:
            break
        lang = _language_from_element(parent, bare_names=False)
        if lang is not None:
            return lang
        parent = parent.getparent()
    return ""


def _code_text(pre: etree._Element) -> str:
    for br in pre.iter("br"):
        br.tail = "\n" + (br.tail or "")
    # Non-breaking spaces in code are editor/CMS artefacts (WordPress), and break the code.
    text = pre.text_content().replace("\xa0", " ")
    return text.strip("\n").rstrip()


def _replacement_target(pre: etree._Element) -> etree._Element:
    """The element a code block replaces: its line-number table and wrappers holding only it.

    Wrappers go too because trafilatura drops some of them whole (``<figure>``, Octopress).
    """
    node = pre
    table = next((a for a in pre.iterancestors() if a.tag == "table"), None)
    if table is not None:
        classes = (table.get("class") or "").split()
        has_gutter = table.xpath(
            ".//td[contains(@class,'gutter') or contains(@class,'linenos')]"
            " | .//pre[contains(concat(' ', normalize-space(@class), ' '), ' line-numbers ')]"
        )
        if "highlighttable" in classes or has_gutter:
            node = table
    while True:
        parent = node.getparent()
        if parent is None or parent.tag not in {"div", "figure"}:
            return node
        others = [
            c
            for c in parent
            if c is not node and isinstance(c.tag, str) and c.tag not in {"figcaption", "button"}
        ]
        if others or (parent.text or "").strip() or (node.tail or "").strip():
            return node
        node = parent


def _is_gutter(pre: etree._Element) -> bool:
    """A line-number column (Pygments ``linenos``, Octopress ``line-numbers``): not code."""
    classes = (pre.get("class") or "").split()
    return "line-numbers" in classes or re.fullmatch(r"[\d\s]*", pre.text_content() or "") is not None


def _take_out_code(tree: etree._Element) -> list[_Code]:
    """Replace each code block by a placeholder paragraph; return the blocks in order."""
    for span in tree.xpath("//pre//span[contains(concat(' ', normalize-space(@class), ' '), ' linenos ')]"):
        span.drop_tree()
    blocks: list[_Code] = []
    for pre in list(tree.iter("pre")):
        parent = pre.getparent()
        if parent is None or _is_gutter(pre) or any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        target = _replacement_target(pre)
        parent = target.getparent()
        if parent is None:
            continue
        text = _code_text(pre)
        language = _code_language(pre)
        placeholder = lxml.html.Element("p")
        placeholder.text = _TOKEN.format(len(blocks))
        placeholder.tail = target.tail
        parent.replace(target, placeholder)
        blocks.append(_Code(text, language))
    for gutter in tree.xpath("//pre[contains(concat(' ', normalize-space(@class), ' '), ' line-numbers ')]"):
        gutter.drop_tree()
    return blocks


def _drop_header_links(tree: etree._Element) -> None:
    for a in list(tree.iter("a")):
        href = a.get("href") or ""
        classes = set((a.get("class") or "").lower().split())
        text = (a.text_content() or "").strip().lower()
        in_heading = any(p.tag in {"h1", "h2", "h3", "h4", "h5", "h6"} for p in a.iterancestors())
        if (classes & _HEADERLINK_CLASSES and href.startswith("#")) or (
            in_heading and href.startswith("#") and text in _HEADERLINK_TEXTS
        ):
            parent = a.getparent()
            if parent is not None:
                a.drop_tree()


def _fence(code: _Code) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", code.text)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"\n\n{fence}{code.language}\n{code.text}\n{fence}\n\n"


def _put_back_code(markdown: str, blocks: list[_Code]) -> tuple[str, int]:
    used = 0

    def repl(m: re.Match[str]) -> str:
        nonlocal used
        index = int(m.group(1))
        if index >= len(blocks):
            return m.group(0)
        used += 1
        return _fence(blocks[index])

    out = _TOKEN_RE.sub(repl, markdown)
    return out, used


def _visible_text(markdown: str) -> str:
    """What a reader sees of the Markdown: link targets and markup removed, whitespace squeezed."""
    text = _LINK_TARGET_RE.sub(r"\1", markdown)
    return re.sub(r"[\s#*_`>|\-]+", " ", text).strip()


def _clean_markdown(markdown: str) -> str:
    markdown = _EMPTY_LINK_RE.sub("", markdown)
    lines = [line.rstrip() for line in markdown.splitlines()]
    return _BLANK_LINES_RE.sub("\n\n", "\n".join(lines)).strip() + "\n"


def _meta(tree: etree._Element, *keys: str) -> str | None:
    for key in keys:
        for el in tree.xpath(f"//meta[@property='{key}' or @name='{key}']"):
            value = (el.get("content") or "").strip()
            if value:
                return value
    return None


def _pick_title(og_title: str | None, head_title: str, extracted: str | None) -> str | None:
    """The page's own title, in the author's own casing.

    Themes often restyle the ``<h1>`` (Octopress title-cases it); ``og:title`` or the part of
    ``<title>`` that matches the heading keeps the original. trafilatura's choice is the fallback.
    """
    if og_title:
        return og_title
    if head_title and extracted:
        want = re.sub(r"\W+", "", extracted.casefold())
        cuts = list(_TITLE_SEPARATORS_RE.finditer(head_title))
        # "Post - With A Dash - Site": try every cut, not only the pieces between separators.
        candidates = [
            head_title,
            *(head_title[: m.start()] for m in cuts),
            *(head_title[m.end() :] for m in cuts),
        ]
        for part in candidates:
            if want and re.sub(r"\W+", "", part.casefold()) == want:
                return part.strip()
    return extracted or (head_title or None)


def _pick_language(tree: etree._Element, extracted: str | None) -> str | None:
    html_el = tree if tree.tag == "html" else tree.find(".//html")
    lang = html_el.get("lang") if html_el is not None else None
    lang = lang or html_el.get("{http://www.w3.org/XML/1998/namespace}lang") if html_el is not None else lang
    if not lang:
        for el in tree.xpath(
            "//meta[translate(@http-equiv,'CONTENT-LANGUAGE','content-language')='content-language']"
        ):
            lang = (el.get("content") or "").split(",")[0]
            break
    if not lang:
        locale = _meta(tree, "og:locale")
        lang = locale.replace("_", "-") if locale else None
    lang = (lang or extracted or "").strip()
    return lang or None


def _pick_canonical(tree: etree._Element, url: str) -> str:
    for el in tree.xpath("//link[@href]"):
        if "canonical" in (el.get("rel") or "").lower().split():
            href = (el.get("href") or "").strip()
            if href:
                return urljoin(url, href)
    og_url = _meta(tree, "og:url")
    return urljoin(url, og_url) if og_url else url


def _parse(html: str) -> etree._Element | None:
    if not html.strip():
        return None
    try:
        # lxml refuses str input that carries an XML encoding declaration.
        return lxml.html.document_fromstring(html.encode("utf-8"), parser=_PARSER)
    except (etree.ParserError, ValueError):
        return None


_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)


def _extract(tree: etree._Element, url: str, *, recall: bool) -> Any:
    # Imported here: trafilatura takes ~150 ms to import, and every `scrapy` command loads this
    # module through the spider loader; only processes that extract pay for it.
    from trafilatura import bare_extraction
    from trafilatura.settings import DEFAULT_CONFIG, Extractor

    options = Extractor(config=DEFAULT_CONFIG, url=url, recall=recall, **_EXTRACTOR_OPTIONS)
    return bare_extraction(tree, options=options)


def _absolutize_links(tree: etree._Element, url: str) -> None:
    """Make ``<a href>`` absolute (the only URLs the Markdown keeps), honouring ``<base>``."""
    base = tree.find(".//base[@href]")
    if base is not None:
        url = urljoin(url, (base.get("href") or "").strip())
    for a in tree.iter("a"):
        href = a.get("href")
        if href is None:
            continue
        href = href.strip()
        if href.startswith("#") or href.startswith(("http://", "https://")):
            continue
        try:
            a.set("href", urljoin(url, href))
        except ValueError:
            del a.attrib["href"]


def _prepare(html: str, url: str) -> tuple[etree._Element, list[_Code]] | None:
    # Hook: pre-extraction repairs of harvest.parsers.markup (nothing lost to markup).
    tree = _parse(markup.strip_xml_invalid(html))
    if tree is None:
        return None
    _absolutize_links(tree, url)
    _drop_header_links(tree)
    markup.repair_tree(tree, url)  # hook, after the "¶" links are gone
    return tree, _take_out_code(tree)


def extract_article(html: str, url: str) -> Article | None:
    """Markdown and metadata of the main content of ``html`` (fetched from ``url``).

    None when the page has no main content worth keeping.
    """
    prepared = _prepare(html, url)
    if prepared is None:
        return None
    tree, blocks = prepared
    # Read the head before trafilatura, which prunes the tree it is given.
    canonical = _pick_canonical(tree, url)
    og_title = _meta(tree, "og:title", "twitter:title")
    head_title = (tree.findtext(".//title") or "").strip()
    declared_language = _pick_language(tree, None)
    signals = page_signals(tree, url, DEFAULT_AGENT)
    document = _extract(tree, url, recall=False)
    if document is None or document.body is None or not len(document.body):
        # Short posts fall under trafilatura's minimum size; ask again, favouring recall.
        prepared = _prepare(html, url)
        if prepared is None:
            return None
        tree, blocks = prepared
        document = _extract(tree, url, recall=True)
        if document is None or document.body is None:
            return None
    from trafilatura.xml import xmltotxt

    markdown = xmltotxt(document.body, include_formatting=True)
    markdown, used = _put_back_code(markdown, blocks)
    markdown = _clean_markdown(markdown)
    if len(_visible_text(markdown)) < MIN_TEXT_CHARS:
        return None
    return Article(
        markdown=markdown,
        title=_pick_title(og_title, head_title, document.title),
        author=document.author or None,
        published=document.date or None,
        language=declared_language or document.language or None,
        canonical_url=canonical,
        code_blocks=used,
        robots_meta=signals.robots,
        tdm_reservation_meta=signals.tdm_reservation,
        tdm_policy_meta=signals.tdm_policy,
        license_url=signals.license_url,
    )
