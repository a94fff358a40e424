"""An article page (blog post, docs page) to clean Markdown plus its metadata.

``extract_article(html, url)`` is a pure function: the same page always gives the same result,
so it runs in a worker process (``harvest.extraction``) as well as inline, and is tested on
saved real pages.

Main-content detection and Markdown come from trafilatura (the best of the extractors measured
on our fixtures). The page is parsed once, and only what harvest keeps is read from it: the
head's tags, title, author and date (trafilatura's and htmldate's own functions, without the
searches for categories, tags, site name and licence that ``with_metadata`` adds). The text
comes from trafilatura's fast mode run on the page's declared main region alone (a lone
``<article>`` or ``<main>``, or a content area such as ``entry-content``), with its full
cascade as the fallback when the fast pass kept too little (BENCHMARKS.md has the figures).

Code blocks are taken out before trafilatura sees the page and put back as fenced Markdown
after it (:mod:`harvest.parsers.codeblocks`): trafilatura loses their lines and languages.
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml import etree

from harvest.parsers import (
    codeblocks,
    datelines,
    linkdensity,
    markup,
    mdwriter,
    metasearch,
    prunes,
    textshape,
)
from harvest.parsers.contentarea import content_areas
from harvest.parsers.htmlparser import HEADINGS, html_parser, whole_document
from harvest.parsers.language import weighed_length
from harvest.parsers.pagekind import SITE_MENUS, heading_control, navigation_link, titled_article
from harvest.parsers.pagemeta import (
    GLUED_SEPARATOR_RE,
    SITE_CHROME_ROLES,
    SITE_CHROME_TAGS,
    TITLE_SEPARATORS_RE,
    generic_date,
    is_mark,
    manual_heading,
    manual_title,
    site_names,
    squash,
)
from harvest.parsers.rights import PageSignals, page_signals
from harvest.util.urls import join_url

logger = logging.getLogger(__name__)

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
    "with_metadata": False,
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


def _drop_heading_controls(tree: etree._Element) -> None:
    """Remove the controls of headings: MediaWiki's "[edit]", a link drawn as an icon alone.

    Not the heading's words. erl_docgen puts an "edit on GitHub" link in every function's
    heading, a pencil its stylesheet draws (``<a href="…"><span class="pencil-before"/></a>``):
    trafilatura takes a block whose links have no text for links only, and every function's
    name went.
    """
    for heading in tree.iter(*HEADINGS):
        # A link first, then brackets, cheap: most headings have neither.
        if next(heading.iter("a"), None) is None:
            continue
        for a in list(heading.iter("a")):
            if a.get("href") and not a.text_content().strip() and next(a.iter("img", "svg"), None) is None:
                a.drop_tree()
        if "[" not in heading.text_content():
            continue
        for a in list(heading.iter("a")):
            if a.getparent() is None or (control := heading_control(a, heading)) is None:
                continue
            if control is a:  # the brackets are text around the link
                previous = a.getprevious()
                if previous is not None:
                    previous.tail = (previous.tail or "").rstrip().removesuffix("[")
                elif (parent := a.getparent()) is not None:
                    parent.text = (parent.text or "").rstrip().removesuffix("[")
                a.tail = (a.tail or "").lstrip().removeprefix("]")
            control.drop_tree()


@dataclass
class _Links:
    """The page's links of the kinds the repairs below look at, found in one walk of its ``<a>``s.

    One walk costs less than the four XPaths it replaced (their predicates on every link).
    """

    #: ``href="#…"``: header links, skip links, footnotes.
    in_page: list[etree._Element] = field(default_factory=list)
    #: No ``href``: link targets (:func:`markup.drop_empty_anchors`).
    placeholders: list[etree._Element] = field(default_factory=list)
    #: A ``rel`` naming the next, previous, upper or contents page.
    navigation: list[etree._Element] = field(default_factory=list)

    @classmethod
    def of(cls, tree: etree._Element, url: str) -> _Links:
        links = cls()
        name = url.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        for a in tree.iter("a"):
            href = a.get("href")
            if href is None:
                links.placeholders.append(a)
            elif href.lstrip()[:1] == "#" or (
                # The page's own name before the fragment first (a string test), then the URL.
                "#" in href
                and href.split("#", 1)[0].rstrip("/").endswith(name)
                and markup.page_fragment(url, href) is not None
            ):
                links.in_page.append(a)
            if a.get("rel") is not None and navigation_link(a):
                links.navigation.append(a)
        return links


def _within(links: list[etree._Element], scope: etree._Element) -> list[etree._Element]:
    """The links still in the page, and inside ``scope`` (the page itself or its region)."""
    inside = scope.getparent() is None
    return [a for a in links if a.getparent() is not None and (inside or scope in a.iterancestors())]


def _drop_header_links(in_page: list[etree._Element]) -> None:
    for a in in_page:
        classes = set((a.get("class") or "").lower().split())
        shown = (a.text_content() or "").strip().lower()
        marker = shown in _HEADERLINK_TEXTS or is_mark(shown)
        if (
            classes & _HEADERLINK_CLASSES
            or (marker and any(p.tag in HEADINGS for p in a.iterancestors()))
            or (marker and _links_own_line(a))
        ) and (a.getparent() is not None):
            # A header link that wraps the heading's own text (VuePress' header-anchor around
            # the whole title) leaves its text: dropped with it, every heading was lost.
            if marker:
                a.drop_tree()
            else:
                a.drop_tag()


def _links_own_line(a: etree._Element) -> bool:
    """Whether a mark links to a target in its own line: a declaration's permalink, no heading's.

    Haddock's ``<p class="src"><a id="v:id">id</a> :: cat a a … <a href="#v:id">#</a></p>``.
    """
    target = (a.get("href") or "").strip()[1:]
    parent = a.getparent()
    if not target or parent is None:
        return False
    return parent.get("id") == target or any(el.get("id") == target for el in parent.iter(etree.Element))


def _visible_text(markdown: str) -> str:
    """What a reader sees of the Markdown: link targets and markup removed, whitespace squeezed."""
    text = _LINK_TARGET_RE.sub(r"\1", markdown)
    return re.sub(r"[\s#*_`>|\-]+", " ", text).strip()


def _has_text(markdown: str) -> bool:
    """Whether ``markdown`` shows a reader at least ``MIN_TEXT_CHARS`` characters.

    Its first lines usually tell (the markup removed line by line), without a pass over a
    long text.
    """
    if len(markdown) > _HEAD_CHARS:
        cut = markdown.rfind("\n", 0, _HEAD_CHARS)
        if cut > 0 and len(_visible_text(markdown[:cut])) >= MIN_TEXT_CHARS:
            return True
    text = _visible_text(markdown)
    if len(text) >= MIN_TEXT_CHARS:
        return True
    # A Chinese or Japanese character is a word or a syllable, several Latin letters' worth: a
    # one-line post in those scripts ("ビルドが三倍速くなった。") is short in characters only.
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in "WF")
    return len(text) + (WIDE_CHAR_WEIGHT - 1) * wide >= MIN_TEXT_CHARS


_HEAD_CHARS = 1000
#: How many Latin characters a wide (CJK) character counts for against ``MIN_TEXT_CHARS``: about
#: a word's worth, as a Latin word and its space.
WIDE_CHAR_WEIGHT = 4


def _clean_markdown(markdown: str) -> str:
    markdown = _EMPTY_LINK_RE.sub("", markdown)
    lines = [line.rstrip() for line in markdown.splitlines()]
    return _BLANK_LINES_RE.sub("\n\n", "\n".join(lines)).strip() + "\n"


@dataclass
class _Head:
    """What the page says about itself outside its text, read in one pass over its tags."""

    canonical: str
    og_title: str | None
    head_title: str
    declared_language: str | None
    link_base: str
    description: str | None = None
    #: The site's name it declares (``og:site_name``, else ``application-name``).
    site_name: str | None = None


def _read_head(tree: etree._Element, url: str) -> _Head:
    metas: dict[str, str] = {}
    content_language = None
    for el in tree.iter("meta"):
        value = (el.get("content") or "").strip()
        if not value:
            continue
        key = el.get("property") or el.get("name")
        if key:
            metas.setdefault(key, value)
        elif (el.get("http-equiv") or "").lower() == "content-language" and content_language is None:
            content_language = value.split(",")[0]
    canonical, base = _canonical_and_base(tree, url)
    if canonical is None:
        canonical = _og_canonical(url, metas.get("og:url"))
    html_el = tree if tree.tag == "html" else tree.find(".//html")
    lang = None
    if html_el is not None:
        lang = html_el.get("lang") or html_el.get("{http://www.w3.org/XML/1998/namespace}lang")
        if not lang and (body := html_el.find("body")) is not None:
            lang = body.get("lang")  # the text's language, where Texinfo writes it
    locale = metas.get("og:locale")
    lang = (lang or content_language or (locale.replace("_", "-") if locale else "") or "").strip()
    title_el = tree.find(".//title")
    return _Head(
        canonical=canonical,
        og_title=metas.get("og:title") or metas.get("twitter:title"),
        head_title=(title_el.text_content() if title_el is not None else "").strip(),
        declared_language=lang or None,
        link_base=base,
        description=metas.get("description") or metas.get("og:description"),
        site_name=metas.get("og:site_name") or metas.get("application-name"),
    )


def _pick_title(og_title: str | None, head_title: str, extracted: str | None) -> str | None:
    """The page's own title, in the author's own casing.

    Themes often restyle the ``<h1>`` (Octopress title-cases it); ``og:title`` or the part of
    ``<title>`` that matches the heading keeps the original. trafilatura's choice is the fallback.
    """
    if og_title:
        return og_title
    if head_title and extracted:
        want = re.sub(r"\W+", "", extracted.casefold())
        cuts = list(TITLE_SEPARATORS_RE.finditer(head_title))
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


@dataclass
class _Meta:
    title: str | None
    author: str | None
    published: str | None
    language: str | None


def _read_metadata(tree: etree._Element, url: str, shown_date: str | None) -> _Meta:
    """Title, author, date and language the way trafilatura's ``extract_metadata`` finds them.

    Only the fields harvest keeps: its categories, tags, site name and licence searches cost
    more than the rest together (BENCHMARKS.md). The XPath search for a byline in the body
    runs only when neither ``<meta>`` nor JSON-LD names an author.
    """
    from htmldate import find_date
    from trafilatura import metadata as tm

    meta = tm.examine_meta(tree)
    if meta.author and " " not in meta.author:
        meta.author = None  # a bare handle ("admin"), as trafilatura judges it
    try:
        meta = tm.extract_meta_json(tree, meta)
    except Exception as exc:  # noqa: BLE001 - trafilatura's own guard: JSON-LD of any shape
        logger.debug("JSON-LD metadata of %s unreadable: %s", url, exc)
    title = meta.title or _own_heading(tree, url) or tm.extract_title(tree)
    author = meta.author
    # htmldate's own default for the latest date is today, like trafilatura's set_date_params.
    # No free-text date search: it cost two thirds of htmldate's time, and on 480 blog pages
    # whose dates are known it found the same dates as the markup search (BENCHMARKS.md).
    # A <time> with neither a datetime nor text states no date (a script fills it: dumi's "Last
    # updated"), but htmldate read one from around it: the date an "Updated on" sentence named.
    for time in [
        t for t in tree.iter("time") if not (t.get("datetime") or "").strip() and not t.text_content().strip()
    ]:
        time.drop_tree()
    published = find_date(tree, extensive_search=False, original_date=True, url=url)
    if published and datelines.mentioned_only(tree, published, url):
        # A mention is no date, but the page may show its date as a field further down.
        published = datelines.shown_alone(tree)
    # The date the page shows under its title over a plain <meta name="date"> that says another:
    # a book's date on each of its chapters (bookdown), where a chapter shows its own.
    if not published or (shown_date and published != shown_date and published == generic_date(tree)):
        published = shown_date
    if not published and manual_title(tree) is not None:
        published = datelines.manual_date(tree)
    return _Meta(title or None, author or None, published or None, meta.language or None)


def _own_heading(tree: etree._Element, url: str) -> str | None:
    """The page's one ``<h1>`` besides the site's name, when the page has both.

    trafilatura takes the first of several ``<h1>``s, after the ``<title>``'s pieces unless they
    hold a dot: Django's docs write the site's name as an ``<h1>`` over every page ("Django 3.2.25
    documentation", a link to the docs' home), and each release note ("Django 1.11.11 release
    notes") was titled with it. An ``<h1>`` that is only a link to an index above the page is the
    site's, wherever it is.
    """
    headings = list(tree.iter("h1"))
    if len(headings) < 2:
        return None
    own = [h for h in headings if not _home_link(h, url)]
    if len(own) != 1 or len(own) == len(headings):
        return None
    if any(not (a.get("href") or "#").strip().startswith("#") for a in own[0].iter("a")):
        return None  # a listing's entry: a link to the post (its own anchor, "¶", is no such link)
    return " ".join(own[0].text_content().split()) or None


def _home_link(heading: etree._Element, url: str) -> bool:
    """Whether ``heading`` is all one link, to the index of a folder above ``url`` (its site's home)."""
    links = list(heading.iter("a"))
    shown = squash(heading.text_content())
    if len(links) != 1 or not shown or squash(links[0].text_content()) != shown:
        return False
    href = (links[0].get("href") or "").strip()
    if (joined := join_url(url, href)) is None:
        return False
    target, page = urlsplit(joined).path, urlsplit(url).path
    folder = target.removesuffix("index.html").removesuffix("index.htm")
    # Not the heading's own anchor ("#about"), nor a link to the page itself.
    return not href.startswith("#") and target != page and folder.endswith("/") and page.startswith(folder)


def _byline(scope: etree._Element) -> str | None:
    """The byline trafilatura finds in ``scope``, searched where one can be (:mod:`.metasearch`).

    Not a heading's word: a post's section "Author" or "Author's note" (``<h2 id="author">``,
    as Hugo, Starlight and Nextra write its id) is no author's name.
    """
    author = metasearch.page_author(scope)
    return None if author is None or "author" in author.casefold() else author


def _canonical_and_base(tree: etree._Element, url: str) -> tuple[str | None, str]:
    """The page's ``<link rel="canonical">`` (a web address only) and the base its links resolve on.

    Debian's build of Python's documentation declares each page's ``file://`` path canonical: no
    address of the page, and a path of the machine that built it.
    """
    canonical = None
    base = url
    for el in tree.iter("link", "base"):
        href = (el.get("href") or "").strip()
        if not href:
            continue
        # An address that does not parse ("http://[user@]host/") names nothing.
        if el.tag == "base" and base is url:
            base = join_url(url, href) or base
        elif el.tag == "link" and canonical is None and _is_canonical(el):
            if (found := join_url(url, href)) is not None and urlsplit(found).scheme in {"http", "https"}:
                canonical = found
    return canonical, base


def _is_canonical(link: etree._Element) -> bool:
    return "canonical" in (link.get("rel") or "").lower().split()


def _og_canonical(url: str, og_url: str | None) -> str:
    """The page's address as its ``og:url`` gives it, when no ``<link rel="canonical">`` does.

    Not the site's address on a page below it: a theme that writes the site's URL as every
    page's og:url (Valaxy's) declares no canonical, and named after it every post but the first
    was a duplicate.
    """
    canonical = urljoin(url, og_url) if og_url else url
    if urlsplit(canonical).path in {"", "/"} and urlsplit(url).path.strip("/") not in _HOME_PATHS:
        return url
    return canonical


_PARSER = html_parser(remove_pis=True)
#: The paths a site's home page is served at besides "/".
_HOME_PATHS = frozenset({"", "index.html", "index.htm", "index.php"})
_CONTROL_BYTES = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
#: A character reference to one of those (or U+FFFE, U+FFFF), which the parser would decode into
#: the text after the bytes were cleaned: Pod::Simple writes every special character so, a
#: backspace too ("b&#8;bo&#8;ol&#8;ld" in a post on terminal escapes).
_CONTROL_REF_RE = re.compile(
    rb"&#(?:0*(?:[1-8]|1[1-24-9]|2[0-9]|3[01]|6553[45])(?![0-9])"
    rb"|[xX]0*(?:[1-8bBcCeEfF]|1[0-9a-fA-F]|[fF]{3}[eEfF])(?![0-9a-fA-F]));?"
)


def _parse(html: str) -> etree._Element | None:
    if not html or html.isspace():  # not strip(): a copy of the page
        return None
    # Characters XML does not allow parse, but every later write of that text into a tree
    # raises (lxml keeps trees XML-compatible), and trafilatura then discards the whole page.
    # They go in C loops over the UTF-8 bytes (a regex over the text, such as
    # markup.strip_xml_invalid, cost a third of the parse): lone surrogates cannot be encoded
    # and are left out, control characters are deleted, then U+FFFE and U+FFFF.
    data = html.encode("utf-8", "ignore").translate(None, _CONTROL_BYTES)
    # Looked for in the text, a character each: a search for their three bytes in the UTF-8
    # costs several times more (BENCHMARKS.md).
    if "\ufffe" in html or "\uffff" in html:
        data = data.replace(b"\xef\xbf\xbe", b"").replace(b"\xef\xbf\xbf", b"")
    # No substring test first: a search for "&#" costs as much as the expression's own scan.
    data = _CONTROL_REF_RE.sub(b"", data)
    try:
        tree = lxml.html.document_fromstring(data, parser=_PARSER)
    except (etree.ParserError, ValueError):
        return None
    whole_document(tree, html)
    return tree


def _extract(tree: etree._Element, *, fast: bool, recall: bool = False, short: bool = False) -> Any:
    # Imported here: trafilatura takes ~150 ms to import, and every `scrapy` command loads this
    # module through the spider loader; only processes that extract pay for it.
    from trafilatura import bare_extraction

    # trafilatura's own pipeline, its costliest discard XPaths run as Python walks (.prunes),
    # an API's declarations kept from its link-density test (.linkdensity).
    with prunes.walked_prunes(), linkdensity.declarations_kept():
        return bare_extraction(tree, options=_options(fast, recall, short))


@functools.cache
def _options(fast: bool, recall: bool, short: bool = False) -> Any:
    """Trafilatura's options, built once per mode (building them formats dates: 0.2 ms a page).

    trafilatura copies the options before changing them (its own recall retry does), so one
    object serves every page. ``short``: for a region that is a short post, no minimum size,
    whose shortfall makes trafilatura take its "baseline" instead, the region's whole text as
    one paragraph (date, category, title, text and the next/previous links glued together).
    """
    from trafilatura.settings import DEFAULT_CONFIG, Extractor

    # No URL: trafilatura would resolve every link of the page (a tenth of its time); the few
    # links the text keeps are resolved afterwards (_resolve_links).
    options = Extractor(config=DEFAULT_CONFIG, fast=fast, recall=recall, **_EXTRACTOR_OPTIONS)
    if short:
        options.min_extracted_size = 1
    return options


def _resolve_links(body: etree._Element, base: str) -> None:
    """Make the kept links absolute (the only URLs the Markdown keeps), against ``<base>``.

    A "link" that leads nowhere is written as its text: an ``<a>`` without ``href`` (HTML's
    placeholder: Haddock's named table cells, a shop's "Add the ingredients to your basket"
    button) or with a script for one (``javascript:void(0)``), which Markdown would otherwise
    write as "[Lesson]" or a link to a script. Such a control shown as a glyph only (rustdoc's
    "[−]" collapse toggle, a slider's "<" and ">") is no text at all and goes.
    """
    controls = False
    for ref in body.iter("ref"):
        target = (ref.get("target") or "").strip()
        if not target or target[:11].lower() == "javascript:":
            glyph = not any(c.isalnum() for c in "".join(ref.itertext()))
            ref.tag = _CONTROL if glyph else _NO_LINK
            controls = True
            continue
        if target.startswith(("http://", "https://")):
            continue
        if (joined := join_url(base, target)) is not None:
            ref.set("target", joined)
        else:
            # An address that does not parse (Vim's "ftp://[user@]host/path"): its text alone.
            ref.tag = _NO_LINK
            controls = True
    if controls:
        etree.strip_elements(body, _CONTROL, with_tail=False)
        etree.strip_tags(body, _NO_LINK)


#: The tags links that lead nowhere are renamed to, to be dropped or unwrapped all at once.
_CONTROL = "harvest-control"
_NO_LINK = "harvest-no-link"


def _unname_outline_sections(scope: etree._Element) -> None:
    """Take the id off the text's sections, which generators name after their headings.

    makeinfo names a manual's sections by their node (``<div class="section" id="Comments">``
    over "5.2 Commenting Your Work", ``id="Shared-BLAS"``, ``id="GNU-Free-Documentation-License"``)
    and Sphinx by their titles: names the boilerplate rules read as a comment section, a share bar,
    a licence box, and the section went. A block is a section of the text when it opens with a
    heading, as a sibling of its kind does with a heading of the same level, and both hold prose;
    a blog's comments open with a heading below the post's.
    """
    for el in scope.iter("div", "section"):
        if el.get("id") is None or (level := _opening_heading(el)) is None:
            continue
        if _paragraph_chars(el) < SECTION_PROSE_CHARS:
            continue
        for sibling in (*el.itersiblings(el.tag, preceding=True), *el.itersiblings(el.tag)):
            if _opening_heading(sibling) == level and _paragraph_chars(sibling) >= SECTION_PROSE_CHARS:
                del el.attrib["id"]
                break


def _opening_heading(block: etree._Element, *, wrapped: bool = False) -> str | None:
    """The tag of the heading ``block`` opens with (after anchors and emptied bars), if it opens with one.

    ``wrapped``: the heading may be in wrappers (``div``, ``header``, ``hgroup``) of no text of
    their own.
    """
    first = _first_shown(block)
    while (
        wrapped
        and first is not None
        and first.tag in {"div", "header", "hgroup"}
        and not (first.text or "").strip()
    ):
        first = _first_shown(first)
    return first.tag if first is not None and first.tag in HEADINGS else None


def _drop_declared_boilerplate(scope: etree._Element, page_chars: int) -> None:
    """Remove the blocks whose class or id names them as not the text (newsletter, author box...)."""
    names = _BOILERPLATE_RE
    # A walk in Python costs half an XPath picking the elements that have a class or id.
    found = [
        el
        for el in scope.iter(etree.Element)
        if ((c := el.get("class")) and names.search(c.lower()))
        or ((i := el.get("id")) and names.search(i.lower()))
    ]
    if not found:
        return
    # A wrapper of the text can carry such a name too ("single-content read-more"): a block
    # holding a good share of the page's paragraphs is the text, whatever it is called.
    for el in found:
        if el.tag in {"html", "body", "article", "main"} or el is scope:
            continue
        if el.getparent() is not None and _paragraph_chars(el) <= BOILERPLATE_MAX_SHARE * page_chars:
            el.drop_tree()


#: Class/id fragments that name a block as not the text, in any language's pages (they are
#: the theme's words). Each one measured on trafilatura's tuning pages (BENCHMARKS.md).
BOILERPLATE_TOKENS: tuple[str, ...] = (
    "newsletter",
    "promo",
    "disclaimer",
    "disclosure",
    "authorbox",
    "author-box",
    "author-bio",
    "about-author",
    "saboxplugin-wrap",
    "related",
    "read-more",
    "readmore",
    "cookie",
    "affiliate",
    "subscribe",
    "paywall",
    "share",
    "social",
    "breadcrumb",
    # A post's licence or copyright box, repeating its title, link, author and date (Hexo's
    # Fluid: license-box; NexT and Butterfly: post-copyright).
    "copyright",
    "licens",
    "licenc",
    # Links to the previous and next posts (Eleventy's base blog: ul.links-nextprev).
    "nextprev",
    "prevnext",
    "prev-next",
    "next-prev",
)


_BOILERPLATE_RE = re.compile("|".join(BOILERPLATE_TOKENS))


def _drop_rel_navigation(scope: etree._Element, navigation: list[etree._Element]) -> None:
    """Remove the blocks made of links to the next, previous, upper and contents pages.

    Texinfo opens every page of a manual with "Next: <a rel="next">…</a>, Previous: <a
    rel="prev">…</a>, Up: <a rel="up">…</a> [Contents][Index]", and it was the first line of
    every text stored. A block whose links all say so by their ``rel``, with little text of its
    own between them (labels, punctuation), is the site's navigation.
    """
    for a in _within(navigation, scope):
        block = a.getparent()
        while block is not None and block.tag not in _NAV_BLOCKS:
            block = block.getparent()
        if block is None or block is scope or block.getparent() is None:
            continue
        links = list(block.iter("a"))
        if len(links) < 2 or not all(navigation_link(link) for link in links):
            continue
        own = len("".join(block.text_content().split())) - sum(
            len("".join(link.text_content().split())) for link in links
        )
        if own <= NAV_LABEL_CHARS * len(links):
            block.drop_tree()


def _drop_skip_links(scope: etree._Element, tree: etree._Element, in_page: list[etree._Element]) -> None:
    """Remove links to a part of the page outside the text: "Jump to navigation", "Skip to search".

    MediaWiki opens every article with ``<a class="mw-jump-link" href="#mw-head">Jump to
    navigation</a>`` (to its menus) and one to its search box: a link within the page whose
    target is outside the region extracted, or a form's field, leads away from the text. (A
    footnote's or a heading's anchor is inside it.)
    """
    links = [a for a in _within(in_page, scope) if len((a.get("href") or "").strip()) > 1]
    if not links:
        return
    # A link in running text is part of a sentence (a footnote's "(1)"): those first, cheap.
    links = [a for a in links if not any(el.tag in _RUNNING_TEXT for el in a.iterancestors())]
    if not links:
        return
    ids = {el.get("id"): el for el in tree.iterfind(".//*[@id]")}
    for a in links:
        target = ids.get(a.get("href", "")[1:])
        if target is None or a.getparent() is None:
            continue
        if target.tag in _FIELDS or not (target is scope or scope in target.iterancestors()):
            a.drop_tree()


_FIELDS = frozenset({"input", "textarea", "select", "form"})
#: Blocks of running text: a link in one is part of a sentence (a footnote's "(1)"), not a way out.
_RUNNING_TEXT = frozenset(
    {"p", "li", "td", "th", "dd", "dt", "sup", "sub", "blockquote", "figcaption", "caption"}
)
_NAV_BLOCKS = frozenset({"p", "div", "nav", "ul", "ol", "td", "header", "footer"})
#: Text of its own a navigation block may have per link: a label ("Previous:") and punctuation.
NAV_LABEL_CHARS = 12


def _drop_link_lines(scope: etree._Element, url: str) -> None:
    """Remove the paragraphs of links that are not the text: cross-references and menus."""
    _drop_link_teasers(scope)
    _drop_menu_lines(scope, url)


def _drop_link_teasers(scope: etree._Element) -> None:
    """Remove "Read more: <link>" paragraphs: a short label, then one link that is the rest.

    A cross-reference to another article, in any language ("Lea también:", "Auch lesen:",
    "VEA TAMBIÉN:"); the label is what marks it, not its words.
    """
    for p in scope.xpath(".//p[count(.//a) = 1]"):
        link = p.find(".//a")
        text = " ".join(p.text_content().split())
        link_text = " ".join(link.text_content().split()) if link is not None else ""
        if not link_text or len(link_text) < len(text) / 2 or not text.endswith(link_text):
            continue
        if _TEASER_LABEL_RE.fullmatch(text[: len(text) - len(link_text)]) and p.getparent() is not None:
            p.drop_tree()


#: The label before a cross-reference link: a few words closed by ':', '?' or '!'.
_TEASER_LABEL_RE = re.compile(r"[^.:!?]{2,30}[:?!] ?")


def _drop_menu_lines(scope: etree._Element, url: str) -> None:
    """Remove the paragraphs that are a menu of the site: its links and only separators between.

    "Home | Archive | Tags | Categories | About" written as a paragraph of the text (AsciiDoc.py
    posts that link their site so, at their top): trafilatura keeps a paragraph of links when
    its words are few, and the menu opened every post.
    """
    host = urlsplit(url).hostname
    for p in scope.xpath(".//p[count(.//a) >= $n and not(.//br)]", n=MENU_LINE_LINKS):
        # A menu's entries are labels of the site's pages; links one under the other, named by
        # their address or a title, or to other sites are the author's references (Octopress'
        # "Referências", a podcast's topics linked to an encyclopedia).
        links = list(p.iter("a"))
        if any(len(" ".join(a.text_content().split())) > MENU_LABEL_CHARS for a in links):
            continue
        if any(_link_host(url, a.get("href")) != host for a in links):
            continue
        between = "".join(p.itertext())
        for link in p.iter("a"):
            between = between.replace(link.text_content(), " ", 1)
        # Labels before groups of links ("Tags: a, b. Category: c.") are a menu's too.
        if _MENU_LABEL_RE.sub(" ", between).strip(_MENU_SEPARATORS) or p.getparent() is None:
            continue
        # Its label just before, a paragraph of its own ("Schlagwörter" over a post's tags).
        label = p.getprevious()
        if label is not None and label.tag == "p" and not len(label.findall(".//a")):
            words = " ".join(label.text_content().split())
            # A label says it is one: a colon closes it, or it is bold, all of it.
            bold = len(label) == 1 and label[0].tag in {"strong", "b"} and not (label.text or "").strip()
            if 0 < len(words) <= MENU_LABEL_CHARS and (words.endswith(":") or bold):
                label.drop_tree()
        p.drop_tree()


def _link_host(url: str, href: str | None) -> str | None:
    """The host a link leads to (None for a link that does not parse)."""
    try:
        return urlsplit(urljoin(url, href or "")).hostname
    except ValueError:
        return None


#: Links a paragraph must hold to be a menu line.
MENU_LINE_LINKS = 3
#: A menu entry's label, at most ("Categories", "Getting started").
MENU_LABEL_CHARS = 30
#: What may stand between a menu's links: white space and the separators menus are written with.
_MENU_SEPARATORS = " \t\n\r\xa0|·•/,.-–—>»:"
#: A label of a menu's group: a word or two and a colon.
_MENU_LABEL_RE = re.compile(r"(?<!\w)[^\W\d_]+(?: [^\W\d_]+)?:")


def _drop_bylines(scope: etree._Element, shown: etree._Element | None, meta: _Meta) -> None:
    """Remove the lines that date the post and name its author; the author a line names is kept."""
    _drop_datelines(scope, shown)
    meta.author = _drop_labelled_bylines(scope, meta.author)
    _drop_author_cards(scope, meta.author)


def _drop_datelines(scope: etree._Element, shown: etree._Element | None) -> None:
    """Remove the paragraphs that only date the post: "Published on <time>", "<time> · 5 min".

    trafilatura deletes ``<time>`` with its text, and a dateline's label ("Published on",
    "Posted", "Updated") stayed in the text with nothing after it. The date is read from the
    page's metadata and ``<time datetime>`` before this. A paragraph that says more around its
    date is prose and stays. ``shown``: the date printed as text under the title
    (:func:`datelines.dateline`), whose line goes too, a ``<p>``, a ``<div>`` (Gatsby's
    starter: "January 15, 2023"; vuepress-theme-reco: author, date and tags beside icons), a
    list's item without a link (djangocms-blog's header list: the byline, then the date) or a
    heading (pkgdown's ``<h4 class="date">``: "#### 2023-06-01" under the title).
    """
    dates: list[tuple[etree._Element, tuple[str, ...]]] = [(time, ("p",)) for time in scope.iter("time")]
    if shown is not None and shown is not scope and scope in shown.iterancestors():
        # A heading too, whose text is the date (pkgdown's ``<h4 class="date">`` under the title).
        dates.append((shown, ("p", "div", "li", "h2", "h3", "h4", "h5", "h6")))
    for date, lines in dates:
        line = date.getparent() if date.tag == "time" or date.tag in _INLINE_TAGS else date
        while line is not None and line.tag in _INLINE_TAGS:
            line = line.getparent()
        if line is None or line is scope or line.tag not in lines or line.getparent() is None:
            continue
        if line.tag == "li" and next(line.iter("a"), None) is not None:
            continue  # a listing's entry: its title and its date
        dated = len(" ".join(date.text_content().split())) if date.tag != "time" else 0
        dated += sum(len(" ".join(t.text_content().split())) for t in line.iter("time"))
        # A heading the date alone: with words of its own, it is a heading of the text's.
        label = 0 if line.tag in HEADINGS else DATELINE_LABEL_CHARS
        if len(" ".join(line.text_content().split())) - dated <= label:
            _drop_line(line)


_INLINE_TAGS = frozenset({"span", "a", "em", "strong", "b", "i", "small", "abbr"})


def _drop_author_cards(scope: etree._Element, author: str | None) -> None:
    """Remove the author's card from the article's header: the author is metadata, not text.

    A card is the block around a link whose text is the author's name (to their page), in a
    ``<header>``, holding no heading, no paragraph but the name's own and at most
    ``AUTHOR_CARD_CHARS`` of text: Docusaurus' avatar, name and "Writes small programming
    lessons" came out glued as the post's first line.
    """
    name = squash(author or "")
    if not name:
        return
    for header in list(scope.iter("header")):
        for link in list(header.iter("a")):
            text = link.text_content()
            # Most links of a header (its menu) are not the name: their length says so first.
            if not len(name) <= len(text) <= 3 * len(name) + 20 or link.getparent() is None:
                continue
            if squash(text) != name:
                continue
            card = link
            for ancestor in link.iterancestors():
                if ancestor is header or ancestor is scope:
                    break
                if next(ancestor.iter(*HEADINGS), None) is not None:
                    break
                if len(" ".join(ancestor.text_content().split())) > AUTHOR_CARD_CHARS:
                    break
                # A paragraph beside the name is the article's lead, not the card's.
                if any(link not in p.iterdescendants() for p in ancestor.iter("p")):
                    break
                card = ancestor
            if card is not link and card.getparent() is not None:
                card.drop_tree()


#: An author card's text, at most: a name and a title or a line about the author.
AUTHOR_CARD_CHARS = 120

#: A byline led by its label: "Posted by: <name> 2 months ago", "Written by Ana Lima", "Author:".
_LABELLED_BYLINE_RE = re.compile(r"(?:(?:posted|written|published)\s+by|by|authors?)\s*:?\s*(.*)", re.I)
#: A labelled byline's text, at most: the label, a name, a date.
LABELLED_BYLINE_CHARS = 80
#: A name in a byline's list, at most.
BYLINE_NAME_CHARS = 40


def _drop_labelled_bylines(scope: etree._Element, author: str | None) -> str | None:
    """Remove the lines naming the author under a label; returns the author (the first one named).

    "Posted by:" as a heading over a list of names (Wagtail's tutorial: ``<h3>Posted by:</h3>
    <ul><li>Ana Lima</li></ul>``), or a line holding the label, a link to the author and a date
    (Mezzanine's ``<h6 class="post-meta">Posted by: <a href="/author/ana/">Ana Lima</a> 2 months
    ago</h6>``), or an item of a header's list ("by <a>Ana Lima</a>" beside the date, djangocms-blog's): each
    was stored as the post's first lines, and none gave the author.
    """
    found = author
    # List items only in a header: an article's, where its byline is listed (a page has
    # hundreds of list items elsewhere, and reading each costs).
    items = [li for header in scope.iter("header") for li in header.iter("li")]
    for line in [*scope.iter("h2", "h3", "h4", "h5", "h6", "p"), *items]:
        # The label opens the line: its own text, before any element, says whether to look.
        lead = (line.text or "").lower()
        if "by" not in lead and "author" not in lead:
            continue
        text = " ".join(line.text_content().split())
        if len(text) > LABELLED_BYLINE_CHARS or (m := _LABELLED_BYLINE_RE.fullmatch(text)) is None:
            continue
        if m.group(1):
            # The name is the line's link (the author's page); without one, it is not told apart.
            links = list(line.iter("a"))
            if len(links) != 1 or line.getparent() is None:
                continue
            name = " ".join(links[0].text_content().split())
            if not name or not m.group(1).startswith(name):
                continue  # the link is something else (Lektor's "written by X on D in <category>")
        else:
            names = line.getnext()
            if names is None or names.tag not in {"ul", "ol"} or not 1 <= len(names) <= 3:
                continue
            listed = [" ".join(li.text_content().split()) for li in names]
            if not all(0 < len(n) <= BYLINE_NAME_CHARS for n in listed):
                continue
            name = ", ".join(listed)
            names.drop_tree()
        _drop_line(line)
        found = found or name or None
    return found


def _drop_line(line: etree._Element) -> None:
    """Remove a line; a list item with its list when it was the list's last."""
    parent = line.getparent()
    line.drop_tree()
    if line.tag == "li" and parent is not None and parent.getparent() is not None and not len(parent):
        parent.drop_tree()


#: What a dateline says besides its date: "Published on", "Posted by Jane Doe on", "· 5 min read".
DATELINE_LABEL_CHARS = 40


def _drop_unread(tree: etree._Element) -> None:
    """Remove what no later step reads: scripts (but JSON-LD), styles and inline SVG.

    trafilatura deletes them first thing, but only after copying the tree (several times per
    extraction); JSON-LD stays for its schema.org checks and ``articleBody`` rescue.
    """
    # A tag walk in C (half the cost of an XPath union), over the root and the elements the
    # parser left beside it (markup after ``</html>``), as ``//script`` from the document sees.
    unread = [
        el
        for top in (*tree.itersiblings(preceding=True), tree, *tree.itersiblings())
        for el in top.iter("script", "style", "svg")
        if el.tag != "script" or el.get("type") != "application/ld+json"
    ]
    for el in unread:
        if el.getparent() is not None:
            el.drop_tree()  # the tail, text of the parent, stays


def _drop_after_page_footer(tree: etree._Element) -> None:
    """Remove what a page puts after its own footer: cookie and consent boxes, pop-ups, modals.

    The page's footer is its last ``<footer>`` (or ``role="contentinfo"``) that is not the
    footer of an article, section or other block. What follows it in the document is no part
    of the text; it came through when no region holds the article and trafilatura reads the
    whole page (a cookie notice, a newsletter box, a shop's payment terms, a search form's
    help). A page that puts most of its text after such a footer (a misused tag) is left alone.
    """
    body = tree.find("body")
    if body is None:
        return
    el = _page_footer(body)
    after: dict[etree._Element, int] = {}  # each block after the footer, and its text's length
    while el is not None and el is not body:
        for sib in el.itersiblings():
            if isinstance(sib.tag, str) and sib.tag != "script":
                text = sib.text_content()
                if text.strip():
                    after[sib] = len(text)
        el = el.getparent()
    if not after:
        return
    if sum(after.values()) > AFTER_FOOTER_MAX_SHARE * len(body.text_content()):
        return
    for sib in after:
        sib.drop_tree()  # its tail, text of its parent, stays


def _page_footer(body: etree._Element) -> etree._Element | None:
    """The page's last footer, looked for in the page's frame only, from its end.

    The frame is the body's first ``FOOTER_DEPTH`` levels, without descending into an article,
    a section or another block that has footers of its own. Walked backwards (the last child
    first, and into it before its previous sibling), the first footer met is the last in the
    document, and a page's footer is near its end: a few elements, where walking the whole
    tree cost a third of a millisecond a page.
    """

    def last(el: etree._Element, depth: int) -> etree._Element | None:
        for child in reversed(el):
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag == "footer" or child.get("role") == "contentinfo":
                return child
            if tag not in _BLOCKS_WITH_FOOTERS and depth < FOOTER_DEPTH:
                found = last(child, depth + 1)
                if found is not None:
                    return found
        return None

    return last(body, 1)


#: Elements whose own ``<footer>`` is theirs, not the page's.
_BLOCKS_WITH_FOOTERS = frozenset(
    {"article", "main", "section", "aside", "nav", "header", "footer", "li", "form", "figure", "blockquote"}
)
#: How deep under ``<body>`` the page's footer is looked for (wrappers of the page's frame).
FOOTER_DEPTH = 5
#: A page with more of its text after its footer than this share uses the tag for something else.
AFTER_FOOTER_MAX_SHARE = 0.3


def _mains(tree: etree._Element) -> list[etree._Element]:
    """The page's ``<main>`` elements and ``role="main"`` blocks (not ``<body>`` or ``<html>``).

    Tag walks in C and the role attributes' values cost a third of one XPath testing both on
    every element; read once per page (:func:`_declared_region_is_empty`, :func:`_main_region`).
    """
    mains = list(tree.iter("main"))
    mains += [
        el
        for role in _ROLES(tree)
        if role == "main" and (el := role.getparent()).tag not in {"html", "body", "main"}
    ]
    return mains


def _region(
    tree: etree._Element, head: _Head, mains: list[etree._Element]
) -> tuple[etree._Element | None, bool, bool, bool]:
    """:func:`_main_region`, with the page's paragraphs written as ``<div>``s made ``<p>``s.

    A page that writes its paragraphs so (Publican's DocBook) showed no prose to find its region
    by: it is looked for again. Where its ``<p>``s held a fair share, none was found for a reason.
    """
    title = head.og_title or head.head_title
    found = _main_region(tree, title, mains, head)
    if found[0] is not None:
        markup.paragraph_divs(found[0])  # the rest of the page is read only where it falls short
        return found
    if (made := markup.paragraph_divs(tree)) and (
        total := _paragraph_chars(tree)
    ) - made < DIV_WRITTEN_SHARE * total:
        found = _main_region(tree, title, mains, head)
    return found


def _main_region(
    tree: etree._Element,
    title: str = "",
    mains: list[etree._Element] | None = None,
    head: _Head | None = None,
) -> tuple[etree._Element | None, bool, bool, bool]:
    """The page's main content element if any, and whether it is named, framed and short.

    Named: as the text (its byline is searched in it). Short: a short post's content area
    (:func:`_short_post_area`). Framed: trafilatura takes it as a frame of its own (all but
    :func:`_prose_block`'s).

    A lone outermost ``<article>``, else a lone ``<main>`` (or ``role="main"``), else the
    content area trafilatura itself would take (``entry-content``, ``itemprop=articleBody`` and
    the like; a wider one such as ``#content`` when it holds most of the page's prose, which
    is not named as the text). Extracting from it alone spares trafilatura copying and scanning
    the rest of the page, and keeps the rest's boilerplate out.
    """
    # Only a lone region of a kind counts, so the order of the kinds' union is moot.
    articles = [el for el in tree.iter("article") if next(el.iterancestors("article"), None) is None]
    mains = _mains(tree) if mains is None else mains
    headings = list(tree.iter("h1"))
    if len(headings) > 1 and (names := site_names(head.head_title, head.site_name) if head else set()):
        # Not the site's name written as an <h1> in a bar of its own (mdBook's menu bar): a
        # one-line chapter's <main> holds the page's one title all the same.
        headings = [h for h in headings if squash(h.text_content()) not in names] or headings
    titles = {squash(h.text_content()) for h in headings}  # "Title" and "Title¶" are one
    if (lone := _lone_region(articles, mains, tree, headings, titles)) is not None:
        return lone
    # Else the content area trafilatura itself would take, the first of its kinds the page has.
    # The first kind (entry-content, articleBody...) names the text; the wider kinds (the first
    # of several <article>s, #content, .main) count only when they hold most of the page's
    # prose, as on a page whose text trafilatura finds there: a list of teasers does not.
    areas = content_areas(tree)
    if areas[0] is not None and _shown_chars(areas[0]) >= MIN_REGION_CHARS:
        # A short post all the same when it holds the page's title and little text (a few
        # lines between code blocks: nanoc's div.post), as a declared region is.
        return areas[0], True, True, _short_post_area(areas[:1], headings, titles, tree) is not None
    # Among several <article>s and no <main>, the one holding the page's every <h1> is the post,
    # however short (Icarus' post beside its sidebar's "recent posts" <article> cards, which
    # have none): not named as the text, as the wider areas are not.
    titled = titled_article(tree) if len(articles) > 1 and not mains and len(titles) == 1 else None
    if titled is not None:
        return titled, False, True, False
    for area in areas[1:]:
        if area is None or _shown_chars(area) < MIN_REGION_CHARS:
            continue
        if area.tag == "article" and _part_under_title(area, headings):
            continue
        page = _paragraph_chars(tree)
        if page and _paragraph_chars(area) >= AREA_MIN_SHARE * page:
            # Unframed where it holds <article>s: trafilatura would take the first of them.
            return area, False, next(area.iter("article"), area) is area, False
        if area.tag != "article":
            break
        # The first of several <article>s holds little of the page's prose: a section of it
        # (Erlang/OTP's reference, an <article> per function), the wider areas are looked at.
    short = _short_post_area(areas, headings, titles, tree)
    if short is not None:
        return short, False, True, True
    if any(area is not None and _shown_chars(area) >= MIN_REGION_CHARS for area in areas[1:]):
        return None, False, True, False
    block = _prose_block(tree, title)
    return (block if block is not None else _titled_region(tree, headings)), False, False, False


def _part_under_title(article: etree._Element, headings: list[etree._Element]) -> bool:
    """Whether the first of several ``<article>``s is one part of a text titled outside them all.

    erl_docgen's module pages: the module's ``<h1>``, its summary and description, then an
    ``<article class="func">`` per function; the first function was stored as the page. A page
    of stories keeps its title in the first story.
    """
    if not headings or any(article in h.iterancestors() for h in headings):
        return False
    kind = article.get("class")
    return any(sibling.get("class") == kind for sibling in article.itersiblings("article"))


def _lone_region(
    articles: list[etree._Element],
    mains: list[etree._Element],
    tree: etree._Element,
    headings: list[etree._Element],
    titles: set[str],
) -> tuple[etree._Element, bool, bool, bool] | None:
    """The page's lone ``<article>``, else its lone ``<main>``, as :func:`_main_region` gives it."""
    for found in (articles, mains):
        if len(found) == 1 and _is_lone_region(found[0], tree, headings, titles):
            if found is articles and (whole := _parted_article(found[0])) is not None:
                # Unframed: trafilatura would take the <article> in it, its first frame.
                return whole, False, False, False
            return found[0], True, True, False
    return None


def _elements(el: etree._Element) -> int:
    """How many elements ``el`` holds (not its comments)."""
    return sum(isinstance(child.tag, str) for child in el)


def _parted_article(article: etree._Element) -> etree._Element | None:
    """The block holding a lone ``<article>`` and the sections of the text after it, if any.

    erl_docgen's command pages (Erlang/OTP's ``erl``): the command's description is the page's
    one ``<article>``, its "Flags", "Emulator Flags" and the rest ``<section>``s beside it, nine
    tenths of the text, and the article alone was stored. Sections of the text open with
    headings of one level, two or more of them, and hold more prose than the article; a
    blog's comments are one section.
    """
    up = article
    while (parent := up.getparent()) is not None and parent.tag != "body" and _elements(parent) == 1:
        up = parent
    if parent is None or parent.tag in {"html", "body"}:
        return None
    parts = [
        (level, chars)
        for el in up.itersiblings("section")
        if (level := _opening_heading(el, wrapped=True)) is not None
        and (chars := _paragraph_chars(el)) >= SECTION_PROSE_CHARS
    ]
    levels = Counter(level for level, _ in parts)
    if max(levels.values(), default=0) < 2 or sum(c for _, c in parts) <= _paragraph_chars(article):
        return None
    return parent


def _is_lone_region(
    region: etree._Element, tree: etree._Element, headings: list[etree._Element], titles: set[str]
) -> bool:
    """Whether the page's one ``<article>`` (or ``<main>``) is its text, however short."""
    if _shown_chars(region) >= MIN_REGION_CHARS:
        return True
    # A one-line post is a short region: it is the article when it holds the page's title,
    # its one <h1> (a teaser or a header elsewhere on the page does not). Copies of that
    # <h1> elsewhere (Jupyter Book's print-only title block) are the same title.
    if len(titles) == 1 and any(region in h.iterancestors() for h in headings):
        return True
    # A page whose <h1> is in no region titles itself in its header (Butterfly's post-info
    # above the <article>), one with none elsewhere (ikiwiki's <span class="title">): the
    # lone region holding most of its paragraphs is the post, however short (a Chinese or
    # Japanese character weighs as a short word: djangocms-blog's twelve-character post beside
    # its footer's line).
    return not any(region in h.iterancestors() or h in region.iterancestors() for h in headings) and (
        _paragraph_chars(region, weighed_length)
        >= LONE_REGION_SHARE * _paragraph_chars(tree, weighed_length)
        > 0
    )


def _short_post_area(
    areas: list[etree._Element | None],
    headings: list[etree._Element],
    titles: set[str],
    tree: etree._Element,
) -> etree._Element | None:
    """A content area that is a short post's, on a page without ``<article>`` or ``<main>``.

    The area holding the page's one ``<h1>`` (nanoc's ``div.post``, Org mode's ``#content``),
    or, when the ``<h1>`` is in none (Asciidoctor's ``#header`` above its ``#content``), the one
    holding most of the page's paragraphs: too short to be taken as the text by size, or
    outweighed by the site's status lines (Org's "Author: …", "Created: …"), it is the post all
    the same when every paragraph outside it is such a line. A paragraph of prose outside says
    the area holds a part of the text only (a shop's product header beside its description).
    """
    found = [a for a in areas if a is not None]
    holders = [a for a in found if any(a in h.iterancestors() for h in headings)] if len(titles) == 1 else []
    area = min(holders, key=_shown_chars) if holders else None  # the innermost of them
    if area is None and not any(h in a.iterancestors() for a in found for h in headings):
        page = _paragraph_chars(tree)
        area = next((a for a in found if page and _paragraph_chars(a) >= LONE_REGION_SHARE * page), None)
    if area is None or _shown_chars(area) >= SHORT_REGION_CHARS:
        return None
    for p in tree.iter("p"):
        if _unlinked_chars(p) >= STATUS_LINE_CHARS and not any(
            a is area or _is_chrome(a) for a in p.iterancestors()
        ):
            return None
    return area


#: A paragraph this long outside a short post's area is prose, not a status line beside it.
STATUS_LINE_CHARS = 80


def _declared_region_is_empty(mains: list[etree._Element]) -> bool:
    """Whether the page's one ``<main>`` (or ``role="main"``) says its text needs a script.

    Its only text is a ``<noscript>`` notice: a search page (Sphinx's Read the Docs theme: "Please
    activate JavaScript" and an empty results box), an app its script fills. Its text is not in
    the HTML; the rest of the page is navigation, which extracting the whole page instead stored
    as its text. An image, video or frame there is content; an empty ``<main>`` says nothing
    (WordPress block themes write one and put the article beside it).
    """
    if len(mains) != 1:
        return False
    region = mains[0]
    notices = list(region.iter("noscript"))
    if not notices:
        return False
    # Scripts are gone (_drop_unread): what the region shows is its text but the notices'.
    shown = len("".join(region.text_content().split()))
    if shown > sum(len("".join(n.text_content().split())) for n in notices):
        return False
    return next(region.iter("img", "video", "iframe", "object", "embed", "picture", "pre"), None) is None


def _prose_block(tree: etree._Element, title: str) -> etree._Element | None:
    """The innermost block holding ``PROSE_SHARE`` of the page's paragraph text, if not the body.

    For a page that names no region (no ``<article>``, ``<main>`` or content class: Lektor's
    ``<div class="blog-post">``): trafilatura then finds no frame and keeps only the page's
    loose paragraphs, losing every heading, list and table between them. The block of the
    text's paragraphs is the frame; extracted as an ``<article>`` (see :func:`_extract_main`).
    """
    held: dict[etree._Element, int] = {}
    total = everything = 0
    for p in tree.iter("p"):
        ancestors = list(p.iterancestors())
        chars = len(p.text_content())
        everything += chars
        # The site's header, menus and footer are no prose of the page's (TypeDoc's "Generated
        # using TypeDoc" line outweighed a one-line document's paragraph).
        if any(_is_chrome(a) for a in ancestors):
            continue
        total += chars
        for ancestor in ancestors:
            held[ancestor] = held.get(ancestor, 0) + chars
    if not total:
        return None
    block = tree.find("body")
    while block is not None:
        inner = next((c for c in block if held.get(c, 0) >= PROSE_SHARE * total), None)
        if inner is None or (
            block.tag != "body" and (_a_part(block, inner) or _code_beside(block, inner, held))
        ):
            break
        block = inner
    if block is not None and block.tag == "body":
        return _body_text(block, title, total)
    if block is None or block.tag == "html":
        return None
    # A short post's block counts when it holds the post's title (a heading that is the
    # <title> or a part of it between separators): a few paragraphs alone may be a footer.
    titled = _holds_title(block, title)
    # Else still half of all the page's paragraph text: on a page whose text is not in
    # paragraphs at all, what is left outside its chrome is a promotion bar (sheego.de).
    if not titled and held[block] < AREA_MIN_SHARE * everything:
        return None
    return block if total >= MIN_REGION_CHARS or titled else None


def _code_beside(block: etree._Element, inner: etree._Element, held: dict[etree._Element, int]) -> bool:
    """Whether ``block`` holds as much code beside ``inner`` as ``inner`` holds paragraph text.

    A reference page of a title line and a synopsis (BoostBook's one-macro pages: the macro's
    name in a paragraph, its declaration in a ``<pre>``): the code is the text too.
    """
    beside = sum(len(pre.text_content()) for pre in block.iter("pre") if inner not in pre.iterancestors())
    return beside >= held.get(inner, 0) > 0


def _titled_region(tree: etree._Element, headings: list[etree._Element]) -> etree._Element | None:
    """The block around the page's one ``<h1>`` that holds most of its text, for a page of lists.

    A page whose text is lists, not paragraphs (pkgdown's changelog: each release a heading over
    its items), in a block named nothing trafilatura knows (``<div class="contents col-md-9">``):
    no prose block, and the whole page was read, its navigation bar's every link a line of the
    text. Its title's block, widened until it holds ``TITLED_SHARE`` of the text outside the
    site's header, navigation and footer, is the region.
    """
    if len(headings) != 1 or _paragraph_chars(tree) >= MIN_REGION_CHARS:
        return None
    body = tree.find("body")
    if body is None:
        return None
    chrome = {el for el in body.iter(etree.Element) if el.tag != "a" and _is_chrome(el)}
    # The outermost only: a header's <nav> is in its header's text already.
    total = _shown_chars(body) - sum(
        _shown_chars(el) for el in chrome if chrome.isdisjoint(el.iterancestors())
    )
    if total <= 0:
        return None
    for block in headings[0].iterancestors():
        if block is body or block.tag == "html" or _is_chrome(block):
            return None
        if _shown_chars(block) >= TITLED_SHARE * total:
            # Lists, not paragraphs: a page of prose that found no block kept its reading.
            items = sum(len(li.text_content()) for li in block.iter("li") if li.find(".//li") is None)
            return block if items > _paragraph_chars(block) else None
    return None


#: The share of a page's text outside its chrome that its title's block must hold.
TITLED_SHARE = 0.6


def _subsection(block: etree._Element, inner: etree._Element) -> bool:
    """Whether ``inner`` is a section of ``block``'s text: both open with headings, ``inner``'s lower.

    Sphinx nests sections (Django's "How to use Django with Uvicorn": the ``<h1>``, a paragraph,
    then two ``<h2>`` sections, the second with most of the text): the text is the outer one.
    """
    outer = _opening_heading(block)
    return outer is not None and (sub := _opening_heading(inner)) is not None and sub > outer


def _a_part(block: etree._Element, inner: etree._Element) -> bool:
    """Whether ``inner`` is a part of ``block``'s text, not the text (:func:`_prose_block`)."""
    return _one_of_sections(inner) or _subsection(block, inner) or _title_part(inner)


def _title_part(block: etree._Element) -> bool:
    """Whether ``block`` and its siblings are the text's parts, the title's and the sections after.

    One opens with the ``<h1>``, another after it with a lower heading.

    Apache's manual: ``<div id="preamble">`` (the ``<h1>`` and the introduction) then ``<div
    class="section">``s ("Synopsis", "Options": a line of code and a list each, little prose):
    the preamble, or a module's one directive section, held most of the paragraphs and was
    taken alone.
    """
    parent = block.getparent()
    if parent is None or block.tag not in {"div", "section"}:
        return False  # a layout table's cells are columns, no parts
    # The parts follow the title's: a sidebar's widgets before it ("Suche", "Top-15") are none.
    titled = reached = False
    for part in parent.iterchildren(etree.Element):
        level = _opening_heading(part)
        reached = reached or part is block
        if titled and reached and level is not None and level != "h1":
            return True
        titled = titled or level == "h1"
    return False


def _one_of_sections(block: etree._Element) -> bool:
    """Whether ``block`` is a section of its parent's text: it and a sibling each open with a heading.

    A DocBook reference page's sections are sibling blocks (``div.refsynopsisdiv`` "Synopsis",
    ``div.refsect1`` "Description", "Parameters"…): the longest held most of the paragraphs and
    was taken alone, the synopsis and the other sections lost (PostgreSQL's CREATE TABLE kept
    5 of its 26 code blocks).
    """
    if not _opens_with_heading(block):
        return False
    # A sibling of prose: a sidebar's widgets open with headings too, over lists of links.
    siblings = [*block.itersiblings(preceding=True), *block.itersiblings()]
    return any(isinstance(s.tag, str) and not _is_chrome(s) and _section_beside(s) for s in siblings)


def _section_beside(sibling: etree._Element) -> bool:
    """Whether a block's sibling is a section of the text: a heading over prose or code.

    The heading may open the section's block, or stand beside it: BoostBook's reference pages
    write "Synopsis" as an ``<h2>`` over a ``div.refsynopsisdiv`` holding only its ``<pre>``
    (the macro's page kept its "Description" alone, without its title and synopsis).
    """
    if _opens_with_heading(sibling):
        return _paragraph_chars(sibling) >= SECTION_PROSE_CHARS
    if sibling.tag not in HEADINGS:
        return False
    after = sibling.getnext()
    return (
        after is not None
        and isinstance(after.tag, str)
        and (_paragraph_chars(after) >= SECTION_PROSE_CHARS or next(after.iter("pre"), None) is not None)
    )


#: Under this share of a page's paragraph text in ``<p>``s (the rest written as ``<div>``s), its
#: region is looked for again once those are paragraphs.
DIV_WRITTEN_SHARE = 0.25

#: The paragraph text a sibling section needs to be one of the text's (a sentence or so).
SECTION_PROSE_CHARS = 80


def _opens_with_heading(block: etree._Element) -> bool:
    """Whether ``block`` opens with a heading, in wrappers of no text of their own or not."""
    return _opening_heading(block, wrapped=True) is not None


def _first_shown(block: etree._Element) -> etree._Element | None:
    """``block``'s first element child that shows text.

    Not an empty anchor before a heading: Sphinx's ``<span id="installing-uvicorn"></span><h2>``,
    makeinfo's ``<span id="index-…">``.
    """
    return next((c for c in block if isinstance(c.tag, str) and c.text_content().strip()), None)


def _body_text(body: etree._Element, title: str, total: int) -> etree._Element | None:
    """The text a page writes in ``<body>`` itself, from its title on, gathered in a block.

    A template with no frame at all (Wagtail's tutorial blog, a standalone pandoc page): the
    title heading and ``PROSE_SHARE`` of the page's paragraph text are children of ``<body>``.
    Extracted as the whole page, trafilatura kept the paragraphs but flattened the lists (a
    nested item lost) and, for a short post, took its baseline: everything as loose lines.
    """
    start = None
    # A manual page's title is its NAME section's line (Pod::Simple writes the sections as
    # children of <body>): that section begins the text.
    name = manual_heading(body.getroottree().getroot())
    for child in body.iterchildren("h1", "h2", "header", "hgroup", "div"):
        # The title heading, or the block it opens (pandoc's <header id="title-block-header">
        # around the <h1>, the author and the date).
        heading = child if child.tag in {"h1", "h2"} else next(child.iter("h1", "h2"), None)
        if heading is not None and (heading is name or _holds_title(heading, title)):
            start = child
            break
    if start is None:
        return None
    own = sum(len(p.text_content()) for p in body.iterchildren("p"))
    if own < PROSE_SHARE * total:
        return None
    # A <section>: a <div> holding a one-line Japanese post made trafilatura take its baseline.
    block = body.makeelement("section", {})
    start.addprevious(block)
    while (following := block.getnext()) is not None:
        block.append(following)
    return block


def _holds_title(block: etree._Element, title: str) -> bool:
    """Whether one of ``block``'s headings is ``title`` or a part of it between separators.

    Or the block just before it (or before one of its wrappers) is: Doxygen titles its page in
    ``<div class="header"><div class="headertitle"><div class="title">…`` above ``<div
    class="contents">`` (a separator glued to the site's name: "Small Lessons: Title").
    """
    parts = {
        squash(title),
        *(squash(p) for p in TITLE_SEPARATORS_RE.split(title)),
        *(squash(p) for p in GLUED_SEPARATOR_RE.split(title, maxsplit=1)),
    } - {""}
    if any(squash(h.text_content()) in parts for h in block.iter("h1", "h2", "h3")):
        return True
    el: etree._Element | None = block
    for _ in range(TITLE_BLOCK_LEVELS):
        if el is None or el.tag in {"body", "html"}:
            break
        # The block just before, or the one before that (a dateline between: Chronicle's
        # div.title, div.date, div.body).
        # Two at most, not all of them listed first: a page of 20,000 sections asks this of each.
        elements = (b for b in el.itersiblings(preceding=True) if isinstance(b.tag, str))
        before = list(itertools.islice(elements, 2))
        if any(squash(b.text_content()) in parts for b in before):
            return True
        # Or a block whose first heading is the title (Mezzanine's container of the <h1> and
        # its breadcrumb, above the row of columns whose middle one is the text).
        if (
            before
            and (first := next(before[0].iter("h1"), None)) is not None
            and squash(first.text_content()) in parts
        ):
            return True
        el = el.getparent()
    return False


#: How many of a block's wrappers the title block above it is looked for beside.
TITLE_BLOCK_LEVELS = 3


_ROLES = etree.XPath("//@role")
#: A region with less text than this is a teaser or a header, not the article.
MIN_REGION_CHARS = 200
#: The share of the page's paragraph text a wider content area (not named as the text) must
#: hold to be the region.
AREA_MIN_SHARE = 0.5
#: The share of the page's paragraph text the block of its prose holds (:func:`_prose_block`).
PROSE_SHARE = 0.8
#: A block named as boilerplate that holds more of the page's paragraph text than this share
#: is a wrapper of the text itself.
BOILERPLATE_MAX_SHARE = 0.2
#: Fast extraction keeping less text than this (trafilatura's own minimum), or less than this
#: share of the page's paragraph text, missed the article: the full cascade runs instead.
FALLBACK_CHARS = 250
FALLBACK_SHARE = 0.2
#: A region whose fast pass kept this much text held the article, whatever share of the page's
#: paragraph text that is: the rest is comments or teaser lists, which the full cascade on the
#: whole page would add (a page of text; the regions that fell short kept far less).
REGION_ENOUGH_CHARS = 1000


def _text_len(document: Any) -> int:
    if document is None or document.body is None:
        return 0
    return len(document.raw_text or "")


def _extract_main(
    tree: etree._Element,
    region: etree._Element | None,
    page_chars: int,
    *,
    framed: bool = True,
    short: bool = False,
) -> Any:
    """Trafilatura's fast mode on the region (or the page), its full cascade when that fell short.

    The full cascade (readability and jusText compared, recall retries) costs twice the fast
    mode and finds more on few pages (BENCHMARKS.md), so it runs only for those.
    """
    # A short post: its declared region, or the block of the page's prose holding its title.
    short = region is not None and (
        short or _is_short_region(region) or (not framed and _shown_chars(region) < SHORT_REGION_CHARS)
    )
    if region is not None:
        parent = region.getparent()
        assert parent is not None  # the region is never the root
        index = parent.index(region)
        wrapper = _PARSER.makeelement("html")
        frame = etree.SubElement(wrapper, "body")
        if not framed:
            # A block trafilatura would not take as a frame (no article, main or content
            # class): as one, its headings, lists and tables are read, not only its paragraphs.
            frame = etree.SubElement(frame, "article")
        frame.append(region)  # moved, not copied
        renamed = _text_frames(region) if short else []
        document = _extract(wrapper, fast=True, short=short)
        if not short and _is_declared(region) and _is_baseline(document, region):
            # trafilatura found less than its minimum and took its baseline: the whole region as
            # one paragraph (Hexo Fluid's one-line posts, their template's indentation counted
            # as text, glued to their tags and licence box). It is a short post after all.
            short = True
            renamed = _text_frames(region)
            document = _extract(wrapper, fast=True, short=True)
        for div in renamed:
            div.tag = "div"
        parent.insert(index, region)
    else:
        document = _extract(tree, fast=True)
    got = _text_len(document)
    if got and region is not None and short and _holds_the_text(region, document.raw_text or ""):
        return document
    if region is not None and got >= REGION_ENOUGH_CHARS:
        return document
    if got < FALLBACK_CHARS or got < FALLBACK_SHARE * page_chars:
        full = _extract(tree, fast=False)
        if _text_len(full) > got:
            document = full
        if document is None or document.body is None or not len(document.body):
            # Short posts fall under trafilatura's minimum size; ask again, favouring recall.
            document = _extract(tree, fast=False, recall=True)
    return document


def _text_frames(region: etree._Element) -> list[etree._Element]:
    """Make the ``<div>``s framing a short post's text ``<section>``s; returns them, to restore.

    The region, and the ``<div>`` inside it holding all its paragraphs, and so on down. trafilatura
    deletes a ``<div>`` whose text is mostly links, and a one-line post's frame is, beside its
    tags, share buttons and pager: the whole post went, and trafilatura took its baseline (every
    line of the region glued: Mezzanine's middle column, Retype's ``div#retype-content``).
    """
    renamed = []
    el: etree._Element | None = region
    while el is not None:
        if el.tag == "div":
            el.tag = "section"
            renamed.append(el)
        chars = _paragraph_chars(el)
        el = next((c for c in el if isinstance(c.tag, str) and chars and _paragraph_chars(c) == chars), None)
    return renamed


def _is_short_region(region: etree._Element) -> bool:
    """Whether the region is a short post the page declares (``<article>``, ``<main>``).

    A short text from it is the post, not a miss: the full cascade on the whole page would only
    add the page's header and menus. (A content area found by class name is not declared: a
    short one is often a teaser.) Its code blocks are placeholders here, so a post of a few
    lines between code blocks is short too.
    """
    if not _is_declared(region):
        return False
    # Its own footer (author, licence, tags, next/previous: NexT's copyright list) is not its text.
    footers = sum(len(f.text_content()) for f in region.iter("footer") if f is not region)
    return _shown_chars(region) - footers < SHORT_REGION_CHARS


def _is_declared(region: etree._Element) -> bool:
    return region.tag in {"article", "main"} or region.get("role") == "main"


def _is_baseline(document: Any, region: etree._Element) -> bool:
    """Whether trafilatura's answer is its baseline: one paragraph holding all the region shows."""
    body = document.body if document is not None else None
    if body is None or len(body) != 1 or body[0].tag != "p":
        return False
    shown = len(" ".join(region.text_content().split())) - sum(
        len(s.text or "") for s in region.iter("script")
    )
    return _text_len(document) >= BASELINE_SHARE * shown


#: Share of a region's text in one paragraph that tells trafilatura's baseline (it takes all).
BASELINE_SHARE = 0.9


def _shown_chars(el: etree._Element) -> int:
    """The characters of ``el``'s text a reader sees: its JSON-LD (still in the tree) left out.

    A short post's structured data repeats its headline and description, and counted as text
    it made the post look long enough to be more than its region.
    """
    return len(el.text_content()) - sum(len(s.text or "") for s in el.iter("script"))


def _holds_the_text(region: etree._Element, got: str) -> bool:
    """Whether the text ``got`` from the region holds its share of the page's prose.

    Paragraphs outside the region that are not link texts (a sidebar's entries are) would be
    a body the region left out. A Chinese or Japanese character weighs as a short word: a
    twelve-character post is no scrap beside a keyboard help's four lines (mdBook's).
    """
    outside = sum(
        _unlinked_chars(p, weighed_length)
        for p in region.getroottree().getroot().iter("p")
        if not any(a is region or _is_chrome(a) for a in p.iterancestors())
    )
    return weighed_length(got) >= FALLBACK_SHARE * outside


def _unlinked_chars(paragraph: etree._Element, length: Callable[[str], int] = len) -> int:
    """The characters of a paragraph outside its links (a card's ``<p><a>Title</a></p>``: none)."""
    shown = length(paragraph.text_content())
    return shown - sum(length(a.text_content()) for a in paragraph.iter("a")) if shown else 0


_CHROME_OR_LINK = frozenset({"a", "aside", *SITE_CHROME_TAGS})


def _is_chrome(el: etree._Element) -> bool:
    """A link, or the site's navigation, header or footer: paragraphs there are not a body left out.

    (The PyData theme's "Section Navigation" title and its footer's three lines outweighed a
    one-line post's line, whose region then gave way to the whole page's menus.)
    """
    # An <aside> too: a sidebar's cards (Butterfly's "Announcement") are no body left out. And
    # a block named as the page's header or footer where the theme writes no such tag (Apache's
    # manual: <div id="page-header">, <div id="footer">: their lines outweighed a short page's).
    # A block whose class names it a footer too (BoostBook's ``div.copyright-footer``, in a table:
    # its licence paragraph outweighed a reference page's few lines).
    return (
        el.tag in _CHROME_OR_LINK
        or el.get("role") in SITE_CHROME_ROLES
        or el.get("id") in _CHROME_IDS
        or any(_names_footer(name) for name in (el.get("class") or "").split())
    )


def _names_footer(name: str) -> bool:
    return name == "footer" or name.endswith(("-footer", "_footer"))


#: Ids that name a page's header or footer block (the widespread spellings).
_CHROME_IDS = frozenset({"header", "footer", "page-header", "page-footer", "site-header", "site-footer"})


#: Share of a page's paragraph text a short lone region of a page without ``<h1>`` must hold.
LONE_REGION_SHARE = 0.5


#: A declared region with less text than this (its title, date, tags and next/previous links
#: included, each code block a placeholder) is a post of a line or a few.
SHORT_REGION_CHARS = 1000


def _leads(region: etree._Element) -> list[str]:
    """The text of the region's lead paragraph, if it has one: the first block named as a lead.

    News and CMS themes set the standfirst apart (``lead``, ``intro``, ``teaser-text``,
    ``excerpt``, ``chapo``...), often in the article's header, outside the body container
    trafilatura narrows the region down to, or under a "teaser" name it drops as a link to
    another article. A lead opens the text: most of the region's paragraph text follows it,
    it is prose, not links, and not an item of a list (of teasers); a page has one.
    """
    # A tag walk in C, the names tested in Python: an XPath testing the tokens (or only the
    # tags) on every element costs several times as much.
    found = [
        el
        for el in region.iter("p", "div", "h2", "section", "span")
        if el is not region
        and (_LEAD_RE.search(el.get("class") or "") or _LEAD_RE.search(el.get("id") or ""))
    ]
    if not found:
        return []
    named = set(found)
    inner = [el for el in found if not any(d in named for d in el.iterdescendants())]
    total = _paragraph_chars(region)
    for el in inner:
        if any(a.tag in _NO_LEAD_IN for a in _ancestors_within(el, region)):
            continue
        text = " ".join(el.text_content().split())
        if not LEAD_MIN_CHARS <= len(text) <= LEAD_MAX_CHARS:
            continue
        links = sum(len(a.text_content()) for a in el.iter("a"))
        if links > LEAD_MAX_LINK_SHARE * len(text):
            continue
        after = sum(len(p.text_content()) for p in el.itersiblings() for p in p.iter("p"))
        for anc in el.iterancestors():
            if anc is region:
                break
            after += sum(len(p.text_content()) for sib in anc.itersiblings() for p in sib.iter("p"))
        if after < LEAD_TEXT_AFTER * total:
            continue
        return [text]
    return []


def _lead_scope(tree: etree._Element, region: etree._Element) -> etree._Element:
    """Where the region's lead is looked for: the region, or the article container around it.

    A content area (``news-text-wrap``, ``article-body``) often leaves out the article's header,
    where its title and standfirst are: when the page's one ``<h1>`` is outside the region, the
    scope is the smallest element holding both (never the page's body).
    """
    headings = datelines.title_headings(tree)
    if len(headings) != 1 or region in headings[0].iterancestors():
        return region
    holders = set(headings[0].iterancestors())
    for anc in region.iterancestors():
        if anc.tag in {"body", "html"}:
            break
        if anc in holders:
            return anc
    return region


def _ancestors_within(el: etree._Element, scope: etree._Element) -> list[etree._Element]:
    found = []
    for anc in el.iterancestors():
        if anc is scope:
            break
        found.append(anc)
    return found


def _put_back_leads(body: etree._Element, leads: list[str]) -> None:
    """Insert the lead texts the extraction left out before its first paragraph, after the title."""
    if not leads:
        return
    kept = _flat_text(body)
    first = next((i for i, el in enumerate(body) if el.tag == "p"), len(body))
    index = max((i + 1 for i, el in enumerate(body[:first]) if el.tag == "head"), default=0)
    for text in leads:
        if text[:LEAD_PROBE_CHARS] in kept:
            continue
        p = body.makeelement("p")
        p.text = text
        body.insert(index, p)
        index += 1


def _drop_repeated_summary(body: etree._Element, description: str | None = None) -> None:
    """Remove an opening paragraph that the text's next paragraphs repeat from its start.

    Themes show the post's summary (its first sentences, cut where the description ends)
    under the title, then the post itself: the reader sees the opening twice, the Markdown had
    it twice. Only the first few paragraphs are looked at, and one is removed only when one of
    the next few begins with all of it (but a closing ellipsis) and goes on past it: a
    paragraph the page repeats whole is the page's own text, kept as written.
    """
    paragraphs = [el for el in body if el.tag == "p"][: 2 * SUMMARY_LOOKAHEAD]
    texts = [_flat_text(p) for p in paragraphs]
    # The page's description shown under its title, then the text that begins with the same
    # sentence (Fumadocs: "The tool ships for Python and Node.js; pick one." twice; its Markdown
    # backticks shown as written in one copy): the description goes.
    declared = squash(description) if description and texts and _near_length(texts[0], description) else ""
    if declared and len(texts) > 1 and squash(texts[0]) == declared and squash(texts[1]).startswith(declared):
        body.remove(paragraphs[0])
        return
    for i, whole in enumerate(texts[:SUMMARY_LOOKAHEAD]):
        text = whole.rstrip(".…").rstrip()
        if len(text) < SUMMARY_MIN_CHARS:
            continue
        later = texts[i + 1 : i + 1 + SUMMARY_LOOKAHEAD]
        if any(t.startswith(text) and len(t) > len(whole) for t in later):
            body.remove(paragraphs[i])
            return


def _drop_section_label(body: etree._Element, tree: etree._Element) -> None:
    """Remove a label over the title that names the page's section in the site's navigation.

    Fumadocs prints the page's folder ("Guide") above its ``<h1>``: a breadcrumb of one step,
    marked as nothing. A short line (a few words, no sentence) before the text's first heading,
    that the navigation (``<nav>``, ``<aside>``, ``role="navigation"``) shows as a label too, is
    that section's name. (A kicker above a news title is in no menu.)
    """
    blocks = [el for el in body if isinstance(el.tag, str)]
    if len(blocks) < 2 or blocks[0].tag != "p" or blocks[1].tag != "head":
        return
    label = _flat_text(blocks[0])
    if not label or len(label.split()) > LABEL_WORDS or any(ch in label for ch in ".!?:;"):
        return
    for chrome in SITE_MENUS(tree):
        if any(" ".join(el.text_content().split()) == label for el in chrome.iter() if len(el) == 0):
            body.remove(blocks[0])
            return


#: Words of a section's label at most ("Getting started", "API reference").
LABEL_WORDS = 4


def _near_length(text: str, other: str) -> bool:
    """Whether the two could be one text with its markup marks or not (a tenth apart, at most)."""
    return abs(len(text) - len(other)) <= len(other) // 10 + 4


def _flat_text(el: etree._Element) -> str:
    """The text of an element of trafilatura's output, its runs of white space as one space."""
    return " ".join(" ".join(el.itertext()).split())


#: How many opening paragraphs a summary and its repetition are looked for in.
SUMMARY_LOOKAHEAD = 3
#: A shorter repeated opening is a phrase, not a summary ("Introduction", a name).
SUMMARY_MIN_CHARS = 40

#: Class/id fragments that name a block as the article's lead (standfirst, subheadline, abstract).
LEAD_TOKENS = (
    "lead",
    "intro",
    "teaser",
    "excerpt",
    "chapo",
    "standfirst",
    "abstract",
    "subtitle",
    "subheadline",
)
_LEAD_RE = re.compile("|".join(LEAD_TOKENS))
#: What a lead is never inside: a link, a list's item (of teasers), the title's heading (its words
#: in a ``<span class="leading-none">``, Tailwind's and UnoCSS's line height, in Valaxy's theme).
_NO_LEAD_IN = frozenset({"a", "li", "h1"})
LEAD_MIN_CHARS = 40
LEAD_MAX_CHARS = 1500
LEAD_MAX_LINK_SHARE = 0.3
#: Share of the region's paragraph text that must follow a lead.
LEAD_TEXT_AFTER = 0.5
LEAD_PROBE_CHARS = 60


def _paragraph_chars(scope: etree._Element, length: Callable[[str], int] = len) -> int:
    return sum(length(p.text_content()) for p in scope.iter("p"))


def extract_article(html: str, url: str) -> Article | None:
    """Markdown and metadata of the main content of ``html`` (fetched from ``url``).

    None when the page has no main content worth keeping.
    """
    # _parse leaves out what markup.strip_xml_invalid would (nothing lost to markup).
    tree = _parse(html)
    if tree is None:
        return None
    head = _read_head(tree, url)
    signals = page_signals(tree, url, DEFAULT_AGENT)
    # The date printed under the title (read once: a fallback date, and a line to leave out).
    shown = datelines.dateline(tree, head.declared_language)
    meta = _read_metadata(tree, head.canonical, shown[1] if shown else None)
    _drop_unread(tree)
    _drop_after_page_footer(tree)
    mains = _mains(tree)
    # A substring test on the page first: most pages have no <noscript> at all.
    if ("noscript" in html or "NOSCRIPT" in html) and _declared_region_is_empty(mains):
        return None
    region, named, framed, short_area = _region(tree, head, mains)
    # A wider content area (#content, the first of several <article>s) often leaves out the
    # article's header, where the byline is: the whole page is searched then.
    meta.author = meta.author or _byline(region if region is not None and named else tree)
    if meta.author is None and shown is not None:
        # The name a dateline ends with, in no element named as a byline (nanoc's <p class="meta">).
        byline = datelines.BYLINE_RE.search(" ".join(shown[0].text_content().split()))
        meta.author = byline.group(1) if byline else None
    links = _Links.of(tree, url)
    _drop_header_links(links.in_page)
    _drop_heading_controls(tree)
    # The markup repairs: after the "¶" links, before the boilerplate names.
    # Tab groups: ARIA tab panels, panels toggling aria-hidden, CSS tabs made of radio buttons
    # (the word "radio" alone is in a fifth of pages: the inputs themselves are looked for).
    tabs = (
        "tabpanel" in html
        or 'aria-hidden="false"' in html
        or ("radio" in html and next(tree.iterfind(".//input[@type='radio']"), None) is not None)
    )
    # Chinese and Japanese prose has their full stop or comma (a substring test, not a scan of
    # every character against the wide ranges: a third of a millisecond a page).
    wide = "\u3002" in html or "\u3001" in html or "\uff0c" in html
    # Code as rows of class "line" outside a <pre> (Doxygen): a substring test first.
    markup.repair_tree(
        tree,
        url,
        tabs=tabs,
        wide=wide,
        placeholders=links.placeholders,
        sidebars="sidebar" in html,
        scope=region,
    )
    blocks = codeblocks.take_out_code(tree)
    # The page's paragraph text, before anything is removed: what a region or block is weighed by.
    page_chars = _paragraph_chars(tree)
    scope = tree if region is None else region
    if links.navigation:
        _drop_rel_navigation(scope, links.navigation)
    _unname_outline_sections(scope)
    _drop_declared_boilerplate(scope, page_chars)
    _drop_link_lines(scope, url)
    if region is not None and links.in_page:
        _drop_skip_links(scope, tree, links.in_page)
    # A table of contents block's name, by substring (most pages have none), in the region.
    if "toc" in html:
        markup.drop_contents_blocks(scope, url)
    _drop_bylines(scope, shown[0] if shown else None, meta)
    if region is not None and not any(a is tree for a in region.iterancestors()):
        # A repair or the code take-out moved the region out of the page (a layout block a
        # generator's class names as something else): the page is read whole, not lost.
        region = None
    leads = _leads(_lead_scope(tree, region)) if region is not None else []
    document = _extract_main(tree, region, page_chars, framed=framed, short=short_area)
    if document is None or document.body is None:
        return None
    _put_back_leads(document.body, leads)
    _drop_repeated_summary(document.body, head.description)
    _drop_section_label(document.body, tree)
    textshape.shape(document.body)
    _resolve_links(document.body, head.link_base)
    markdown = textshape.line_breaks(mdwriter.write(document.body))
    markdown, used = codeblocks.put_back_code(markdown, blocks)
    markdown = textshape.quote_lines(markdown)
    # Unicode NFC, the form text on the web is compared and searched in (trafilatura's own
    # output is NFC too): a page's decomposed or composition-excluded characters otherwise make
    # the same words differ from what a reader types.
    markdown = unicodedata.normalize("NFC", _clean_markdown(markdown))
    if not _has_text(markdown):
        return None
    return Article(
        markdown=markdown,
        title=_pick_title(head.og_title, head.head_title, meta.title),
        author=meta.author,
        published=meta.published,
        language=head.declared_language or meta.language,
        canonical_url=head.canonical,
        code_blocks=used,
        robots_meta=signals.robots,
        tdm_reservation_meta=signals.tdm_reservation,
        tdm_policy_meta=signals.tdm_policy,
        license_url=signals.license_url,
    )
