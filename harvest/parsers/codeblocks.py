"""Code blocks out of a page before its text is extracted, and back in as fenced Markdown.

trafilatura's weak spot is code: it turns one-line ``<pre>`` blocks into inline code, loses the
language and mangles Sphinx/Pygments markup (line-number gutters, ``¶`` header links). So before
trafilatura sees the page, :func:`take_out_code` replaces every code block by a unique
placeholder paragraph and keeps its text and language aside (read from the classes that Sphinx,
MkDocs, Pygments, Rouge, Prism, highlight.js and Hugo put on ``<pre>``, ``<code>`` and their
wrappers); after extraction :func:`put_back_code` turns each placeholder into a fenced block with
that language. A placeholder trafilatura dropped as boilerplate drops its code too, as it should.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

import lxml.html
from lxml import etree

from harvest.parsers import markup
from harvest.parsers.pagemeta import squash

#: Letters and digits only: Markdown conversion escapes nothing in it.
_TOKEN = "HRVSTCODE{:05d}QX"
_TOKEN_RE = re.compile(r"`*HRVSTCODE(\d{5})QX`*")
_LANG_PREFIX_RE = re.compile(r"^(?:language|lang|highlight-source|highlight|sourcecode|brush:?)-?(.+)$")
#: A highlighter's own prefix before ``lang-``: MediaWiki's SyntaxHighlight writes
#: ``<div class="mw-highlight mw-highlight-lang-go">``, LaTeXML ``ltx_lst_language_Go`` (a name
#: Pygments must know).
_SUFFIX_LANG_RE = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*[-_](?:language|lang)[-_]([a-z0-9+#.-]+)$")
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


@dataclass
class CodeBlock:
    """A code block taken out of a page: its text and the language the page gives it ('' if none)."""

    text: str
    language: str


def _normalize_language(name: str) -> str | None:
    name = name.strip().lower()
    if not name or not re.fullmatch(r"[a-z0-9][a-z0-9+#._-]{0,30}", name):
        return None
    return _LANG_ALIASES.get(name, name)


def _language_from_element(el: etree._Element, *, bare_names: bool, marked: bool = False) -> str | None:
    for attr in ("data-lang", "data-language", "lang"):
        value = el.get(attr)
        if value and el.tag in {"pre", "code"} and attr != "lang":
            lang = _normalize_language(value)
            if lang is not None:
                return lang
    tokens = (el.get("class") or "").lower().split()
    for low in tokens:
        if low in _NOT_LANG_CLASSES and low != "default":
            continue
        m = _LANG_PREFIX_RE.match(low)
        if m and m.group(1) not in _NOT_LANG_CLASSES | {"rouge", "source"}:
            lang = _normalize_language(m.group(1))
            if lang is not None:
                return lang
        elif bare_names and low in _KNOWN_LANGS:
            return _normalize_language(low)
        elif (m := _SUFFIX_LANG_RE.match(low)) is not None and markup.is_language(m.group(1)):
            return _normalize_language(m.group(1))
        elif (bare_names or marked) and "-" in low:
            # A block's marker class, then the marker and the language: Org mode's export writes
            # ``<pre class="src src-go">`` (the language a name Pygments must know), Erlang/OTP's
            # erl_docgen ``<div class="example example-erl">`` around the block alone. Or the
            # language, then a marker and it again: GeSHi (MediaWiki's old SyntaxHighlight,
            # cppreference) writes ``<div class="c source-c"><pre class="de1">``.
            marker, _, name = low.partition("-")
            if (marker in tokens or name in tokens) and markup.is_language(name):
                return _normalize_language(name)
    return None


def _code_language(pre: etree._Element) -> str:
    """The language a page gives a ``<pre>`` block, or '' when it gives none."""
    code = pre.find("code")
    if code is None and (inner := pre.find("pre")) is not None:
        # A <pre> in a <pre>: mdBook's runnable examples (``<pre><pre class="playground"><code
        # class="language-rust">``): the inner one's code names the language.
        code = inner.find("code") if inner.find("code") is not None else inner
    for el in (code, pre):
        if el is not None:
            lang = _language_from_element(el, bare_names=True)
            if lang is not None:
                return lang
    parent, child = pre.getparent(), pre
    for _ in range(4):
        if parent is None or parent.tag in {"body", "article", "main", "section"}:
            break
        lang = _language_from_element(parent, bare_names=False, marked=_holds_only(parent, child))
        if lang is not None:
            return lang
        parent, child = parent.getparent(), parent
    return ""


def _holds_only(wrapper: etree._Element, child: etree._Element) -> bool:
    """Whether ``child`` is all ``wrapper`` holds: an element of its own, no text beside it."""
    return len(wrapper) == 1 and not (wrapper.text or "").strip() and not (child.tail or "").strip()


def _code_text(pre: etree._Element) -> str:
    # A copy button inside the block (TypeDoc's ``<pre><code>…</code><button>Copy</button></pre>``)
    # is a control, not a line of the code.
    for button in list(pre.iter("button")):
        button.drop_tree()
    for br in pre.iter("br"):
        br.tail = "\n" + (br.tail or "")
    # A line per block: Expressive Code (Astro Starlight) writes each line as a <div> with no
    # newline between them, which a browser shows as lines and text_content() would glue.
    for line in pre.iter("div", "p"):
        if line.find(".//div") is None and line.find(".//p") is None:
            if not (line.tail or "").startswith("\n") and not line.text_content().endswith("\n"):
                line.tail = "\n" + (line.tail or "")
    # Non-breaking spaces in code are editor/CMS artefacts (WordPress), and break the code.
    text = pre.text_content().replace("\xa0", " ")
    return text.strip("\n").rstrip()


def _replacement_target(pre: etree._Element) -> etree._Element:
    """The element a code block replaces: its line-number table and wrappers holding only it.

    Wrappers go too because trafilatura drops some of them whole (``<figure>``, Octopress), or
    by a name they have from the heading above (Retype's ``<div id="share-code-1">`` under "Share"
    around its ``<doc-codeblock>``: a custom element, a tag with a hyphen, wraps as a div does).
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
        if parent is None or not (parent.tag in {"div", "figure"} or "-" in parent.tag):
            return node
        others = [c for c in parent if c is not node and isinstance(c.tag, str) and not _code_chrome(c)]
        if others or (parent.text or "").strip() or (node.tail or "").strip():
            return node
        node = parent


#: A code block's own controls and assets beside it: a caption (a file name), a copy button,
#: the highlighter's stylesheet and script (Expressive Code puts both in its wrapper).
_CODE_CHROME_TAGS = frozenset({"figcaption", "button", "link", "script", "style", "template"})


def _code_chrome(el: etree._Element) -> bool:
    """Whether ``el``, beside a code block in its wrapper, is the block's chrome, not content.

    A control that shows nothing but a button (Expressive Code's ``<div class="copy">`` holding
    an empty live region and the copy button) is chrome too: as a "sibling with content" it kept
    the code's placeholder inside the ``<figure>``, which trafilatura then dropped whole.
    """
    if el.tag in _CODE_CHROME_TAGS:
        return True
    # Cheapest tests first: a sibling with text and no button or caption is content (most are).
    has_text = bool(el.text_content().strip())
    controls = next(el.iter("button", "figcaption"), None) is not None
    if has_text and not controls:
        return False
    if next(el.iter("img", "video", "picture", "iframe"), None) is not None:
        return False
    # An icon beside a caption or a button is theirs (Fumadocs' title bar: a file icon, the
    # file's name in a <figcaption>, the copy button); a drawing alone is content.
    if not controls and next(el.iter("svg"), None) is not None:
        return False
    return not has_text or not "".join(_TEXT_OUTSIDE_CONTROLS(el)).strip()


_TEXT_OUTSIDE_CONTROLS = etree.XPath(".//text()[not(ancestor::button) and not(ancestor::figcaption)]")


def _is_gutter(pre: etree._Element) -> bool:
    """A line-number column (Pygments ``linenos``, Octopress ``<pre class="line-numbers">``): not code.

    Told by its text, digits only, not by the class: Prism's line-numbers plugin puts
    ``line-numbers`` on the code's own ``<pre>`` (its gutter is an empty span inside the code),
    and every block of a Prism site was lost as a gutter.
    """
    return re.fullmatch(r"[\d\s]*", pre.text_content() or "") is not None


def take_out_code(tree: etree._Element) -> list[CodeBlock]:
    """Replace each code block by a placeholder paragraph; return the blocks in order."""
    if next(tree.iter("pre"), None) is None:  # most pages: one walk rather than three
        return []
    for span in tree.xpath("//pre//span[contains(concat(' ', normalize-space(@class), ' '), ' linenos ')]"):
        span.drop_tree()
    blocks: list[CodeBlock] = []
    prose: list[str] | None = None
    for pre in list(tree.iter("pre")):
        parent = pre.getparent()
        if parent is None or _is_gutter(pre) or any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        target = _replacement_target(pre)
        parent = target.getparent()
        if parent is None:
            continue
        text = _code_text(pre)
        if len(text) >= PAGE_SOURCE_MIN_CHARS:
            prose = _prose_keys(tree) if prose is None else prose
            if _is_page_source(text, prose):
                target.drop_tree()
                continue
        language = _code_language(pre)
        placeholder = lxml.html.Element("p")
        placeholder.text = _TOKEN.format(len(blocks))
        placeholder.tail = target.tail
        parent.replace(target, placeholder)
        blocks.append(CodeBlock(text, language))
    for gutter in tree.xpath("//pre[contains(concat(' ', normalize-space(@class), ' '), ' line-numbers ')]"):
        if _is_gutter(gutter):
            gutter.drop_tree()
    return blocks


#: A code block shorter than this is never the page's own source.
PAGE_SOURCE_MIN_CHARS = 400
#: Paragraphs this long (letters and digits) are the page's prose its source holds word for word.
PAGE_SOURCE_KEY_CHARS = 40


def _prose_keys(tree: etree._Element) -> list[str]:
    """The page's first long paragraphs, squashed (letters and digits only): what its source holds."""
    keys = []
    for p in tree.iter("p"):
        key = squash(p.text_content())
        if len(key) >= PAGE_SOURCE_KEY_CHARS:
            keys.append(key)
            if len(keys) == 3:
                break
    return keys


def _is_page_source(code: str, prose: list[str]) -> bool:
    """Whether a code block is the page's own source: its first long paragraphs all in it.

    pdoc shows each module's source under "View Source" (a CSS toggle), and the module's
    docstring is the page's text: every post was stored twice, once as a code block.
    """
    if not prose:
        return False
    squashed = squash(code)
    return all(key in squashed for key in prose)


def _fence(code: CodeBlock) -> str:
    # Without the indent every line shares: the page's layout, not the code's (POD's verbatim
    # paragraphs are indented by rule, and Pod::Simple keeps the indent in the <pre>).
    text = textwrap.dedent(code.text) if code.text[:1] in {" ", "\t"} else code.text
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * max(3, longest + 1)
    return f"\n\n{fence}{code.language}\n{text}\n{fence}\n\n"


def put_back_code(markdown: str, blocks: list[CodeBlock]) -> tuple[str, int]:
    """``markdown`` with each placeholder left in it fenced again; and how many were."""
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
