"""Walks for the expressions trafilatura picks an article's frame with (``BODY_XPATH``).

trafilatura tries five expressions in turn on every tree it extracts from, and reads the first
element each selects (``next(...)``). Three call ``re:test`` on each candidate's id and class,
which lxml runs in Python for every element the expression visits, whatever it finds first.
Each walk here makes the same tests, in document order, and stops at the first element that
passes. :mod:`.prunes` puts them in place, with the same checks of trafilatura's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: One walk: the first element an expression selects below ``tree``, or none.
Walk = Callable[[Any], list[Any]]

# The expressions' templates: their text with white space runs as one space, each regular
# expression as ``{}``.
NAMED = (
    ".//*[self::article or self::div or self::main or self::section][ @class='post' or "
    "@class='entry' or @itemprop='articleBody' or @id='articleContent' or re:test(@id, {}) or "
    "re:test(@class, {}) ][1]"
)
ARTICLE = "(.//article)[1]"
STORY = (
    "(.//*[self::article or self::div or self::main or self::section][ @role='article' or "
    "@id='article' or @id='story' or @class='postarea' or @class='art-postcontent' or "
    "@class='text' or @class='cell' or @class='story' or re:test(@id, {}) or "
    "re:test(@class, {}, 'i') or re:test(@class, {}) ])[1]"
)
CONTENT = (
    "(.//*[self::article or self::div or self::main or self::section][ @id='content' or "
    "@class='content' or re:test(@id, {}) or re:test(@class, {}) or "
    "contains(translate(@id, 'CM','cm'), 'main-content') or "
    "contains(translate(@class, 'CM','cm'), 'main-content') or "
    "contains(translate(@class, 'CP','cp'), 'page-content') ])[1]"
)
MAIN = (
    "(.//*[self::article or self::div or self::section][ starts-with(@class, 'main') or "
    "starts-with(@id, 'main') or starts-with(@role, 'main')])[1]|(.//main)[1]"
)
_FRAMES = ("article", "div", "main", "section")


def named(by_id: str, by_class: str) -> Walk:
    """A frame named as the article's body (``post``, ``entry``, ``articleBody``, ``article-content``...)."""
    id_re, class_re = re.compile(by_id), re.compile(by_class)

    def walk(tree: Any) -> list[Any]:
        for el in tree.iterdescendants(*_FRAMES):
            id_, class_ = el.get("id"), el.get("class")
            if (
                class_ in ("post", "entry")
                or id_ == "articleContent"
                or (id_ is not None and id_re.search(id_))
                or (class_ is not None and class_re.search(class_))
                or el.get("itemprop") == "articleBody"
            ):
                return [el]
        return []

    return walk


def article() -> Walk:
    """The first ``<article>``."""

    def walk(tree: Any) -> list[Any]:
        first = next(tree.iterdescendants("article"), None)
        return [] if first is None else [first]

    return walk


def story(by_id: str, any_case: str, by_class: str) -> Walk:
    """A frame named as the story (``story``, ``text``, ``fulltext`` in any case, ``single-post``...)."""
    id_re, any_case_re, class_re = (
        re.compile(by_id),
        re.compile(any_case, re.IGNORECASE),
        re.compile(by_class),
    )

    def walk(tree: Any) -> list[Any]:
        for el in tree.iterdescendants(*_FRAMES):
            id_, class_ = el.get("id"), el.get("class")
            if (
                id_ in ("article", "story")
                or class_ in _STORY_CLASSES
                or (id_ is not None and id_re.search(id_))
                or (class_ is not None and (any_case_re.search(class_) or class_re.search(class_)))
                or el.get("role") == "article"
            ):
                return [el]
        return []

    return walk


_STORY_CLASSES = frozenset({"postarea", "art-postcontent", "text", "cell", "story"})


def content(by_id: str, by_class: str) -> Walk:
    """A frame named as the page's content (``content``, ``content-main``, ``page-content``...)."""
    id_re, class_re = re.compile(by_id), re.compile(by_class)

    def walk(tree: Any) -> list[Any]:
        for el in tree.iterdescendants(*_FRAMES):
            id_, class_ = el.get("id"), el.get("class")
            if id_ is not None and (
                id_ == "content"
                or id_re.search(id_)
                or "main-content" in id_.replace("C", "c").replace("M", "m")
            ):
                return [el]
            if class_ is not None and (
                class_ == "content"
                or class_re.search(class_)
                or "main-content" in class_.replace("C", "c").replace("M", "m")
                or "page-content" in class_.replace("C", "c").replace("P", "p")
            ):
                return [el]
        return []

    return walk


def main() -> Walk:
    """A ``<main>``, or a frame whose class, id or role begins with "main", whichever comes first."""

    def walk(tree: Any) -> list[Any]:
        for el in tree.iterdescendants(*_FRAMES):
            if (
                el.tag == "main"
                or el.get("class", "").startswith("main")
                or el.get("id", "").startswith("main")
                or el.get("role", "").startswith("main")
            ):
                return [el]
        return []

    return walk
