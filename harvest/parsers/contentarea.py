"""The content areas trafilatura looks for first, found in one walk over the page.

trafilatura's ``BODY_XPATH`` lists five kinds of element that hold an article's text, in the
order it tries them: a named text container (``entry-content``, ``itemprop=articleBody``...),
the first ``<article>``, a story container (``story-body``, ``single-post``...), a main content
area (``#content``, ``main-content``...) and the first ``<main>`` or ``main*`` block. Evaluated
on a whole page, those XPaths test regular expressions on every ``<div>`` (a Python call each,
from lxml's XPath engine) and cost 3.8 ms a page over all five kinds; the same tests made in
Python on one tag walk cost 0.6 ms (BENCHMARKS.md, issue 34).

:func:`content_areas` gives, for each kind, the first element in document order that the kind's
XPath picks, as ``BODY_XPATH[kind](tree)[0]`` would (the first kind's ``[1]`` keeps the first
match of each parent, and the first of those in document order is the first match of all).
The vocabulary below is trafilatura's (``trafilatura/xpaths.py``, 2.3); a test compares the two
on the 945 real pages of trafilatura's evaluation set, so a change of trafilatura's words shows.
"""

from __future__ import annotations

import re

from lxml import etree

#: A named text container: ``@id`` and ``@class`` tokens of ``BODY_XPATH[0]``.
_TEXT_ID_RE = re.compile(
    r"(?:entry|article|art)-content|article__content|article(?:-|__)?body|articleBody|body-text"
)
_TEXT_CLASS_RE = re.compile(
    r"post[-_]text|post-body|post-?entry|post[-_]?content|postContent|post_inner_wrapper|article-?text"
    r"|articleText|(?:entry|page|text|article|art)-content|article__content|article(?:-|__)?body|articleBody"
    r"|ArticleContent|body-text|article__container"
)
_TEXT_CLASSES = frozenset({"post", "entry"})
#: A story container: ``BODY_XPATH[2]``.
_STORY_ID_RE = re.compile(r"^primary|story-body")
_STORY_CLASS_RE = re.compile(
    r"^article |post-bodycopy|story-?content|(?:theme|blog|section|single)-content|single-post|main-column"
    r"|wpb_text_column|story-body|field-body"
)
_STORY_FULLTEXT_RE = re.compile("fulltext", re.IGNORECASE)
_STORY_IDS = frozenset({"article", "story"})
_STORY_CLASSES = frozenset({"postarea", "art-postcontent", "text", "cell", "story"})
#: A main content area: ``BODY_XPATH[3]`` (its ``translate()`` lowers only the letters it names).
_MAIN_ID_RE = re.compile(r"content-main|content-body|contentBody")
_MAIN_CLASS_RE = re.compile(r"content[-_]main|content(?:-|__)body")
_LOWER_CM = str.maketrans("CM", "cm")
_LOWER_CP = str.maketrans("CP", "cp")

KINDS = 5


def _is_text(el: etree._Element, cls: str | None, id_: str | None) -> bool:
    return (
        cls in _TEXT_CLASSES
        or id_ == "articleContent"
        or el.get("itemprop") == "articleBody"
        or (id_ is not None and _TEXT_ID_RE.search(id_) is not None)
        or (cls is not None and _TEXT_CLASS_RE.search(cls) is not None)
    )


def _is_story(el: etree._Element, cls: str | None, id_: str | None) -> bool:
    return (
        el.get("role") == "article"
        or id_ in _STORY_IDS
        or cls in _STORY_CLASSES
        or (id_ is not None and _STORY_ID_RE.search(id_) is not None)
        or (cls is not None and (_STORY_FULLTEXT_RE.search(cls) or _STORY_CLASS_RE.search(cls)) is not None)
    )


def _is_main_content(cls: str | None, id_: str | None) -> bool:
    if id_ is not None and (
        id_ == "content" or _MAIN_ID_RE.search(id_) is not None or "main-content" in id_.translate(_LOWER_CM)
    ):
        return True
    return cls is not None and (
        cls == "content"
        or _MAIN_CLASS_RE.search(cls) is not None
        or "main-content" in cls.translate(_LOWER_CM)
        or "page-content" in cls.translate(_LOWER_CP)
    )


def _is_main(el: etree._Element, cls: str | None, id_: str | None) -> bool:
    return (
        el.tag == "main"
        or (cls or "").startswith("main")
        or (id_ or "").startswith("main")
        or (el.get("role") or "").startswith("main")
    )


def content_areas(tree: etree._Element) -> list[etree._Element | None]:
    """The first element of each of trafilatura's five kinds of content area (None: no such element)."""
    first: list[etree._Element | None] = [None] * KINDS
    missing = KINDS
    for el in tree.iter("article", "div", "main", "section"):
        if el is tree:
            continue  # an XPath from the tree looks at its descendants only
        cls, id_ = el.get("class"), el.get("id")
        if first[0] is None and _is_text(el, cls, id_):
            first[0] = el
            missing -= 1
        if first[1] is None and el.tag == "article":
            first[1] = el
            missing -= 1
        if first[2] is None and _is_story(el, cls, id_):
            first[2] = el
            missing -= 1
        if first[3] is None and _is_main_content(cls, id_):
            first[3] = el
            missing -= 1
        if first[4] is None and _is_main(el, cls, id_):
            first[4] = el
            missing -= 1
        if not missing:
            break
    return first
