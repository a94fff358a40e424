"""trafilatura's costliest discard XPaths, each as one walk in Python selecting the same elements.

trafilatura prunes every tree it reads with XPath expressions that call ``re:test``. lxml runs each
such call in Python, for every element the expression visits, so five of them cost about 2 ms a
page, a sixth of harvest's extraction (BENCHMARKS.md, issue 34): the boilerplate names
(``OVERALL_DISCARD_XPATH``), the raw-tree prune (``RAW_TREE_PRUNE_XPATH``) and the comment
sections (``REMOVE_COMMENTS_AND_LISTS_XPATH``). Two plain ones, run on every block trafilatura
reads, go the same way (``TEASER_DISCARD_XPATH``, ``DISCARD_IMAGE_ELEMENTS``). The same tests
made in Python, once per element, give the same elements in the same (document) order at a
fraction of the cost. So do the expressions trafilatura picks the article's frame with
(``BODY_XPATH``, walked in :mod:`.frames`), of which it reads the first element only.

:func:`walked_prunes` puts the walks in place of those expressions for the duration of a call and
puts trafilatura's own back after. It applies only to the expressions it knows: each one's text
must match its template below, word for word, but for the regular expressions, which are read
from trafilatura's text itself (so a new boilerplate word reaches the walk unchanged). Any other
change to them, or to the lists holding them, leaves trafilatura's own XPaths in use.

XPath's rules kept here: ``@id|@class`` as a string is the first of the two attributes in source
order; a missing attribute is the empty string; ``re:test`` is a search; ``.//*`` is every
element below the context node, in document order.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from lxml import etree

from harvest.parsers import frames

#: One walk: the elements an expression selects below ``tree`` (the same type as a frame's walk).
Walk = frames.Walk

# The expressions' templates: their text with white space runs as one space, each regular
# expression as ``{}``.
_BOILERPLATE = (
    ".//*[self::div or self::item or self::list or self::p or self::section or self::span][ "
    "@data-lp-replacement-content or contains(translate(@role, 'N', 'n'), 'nav') or "
    "contains(@data-component, 'MostPopularStories') or re:test(@id|@class, {}) or "
    "re:test(@id, {}) or re:test(@class, {})]"
)
_HIDDEN = (
    ".//*[@class='comments-title' or starts-with(@id|@class, 'reply-') or "
    "re:test(@id|@style, {}) or contains(@style, 'display:none') or "
    "contains(@style, 'display: none') or re:test(@id, {}) or re:test(@class, {}) or "
    "@aria-hidden='true']"
)
_APPENDED = (
    ".//*[self::div or self::section or self::aside][ re:test(@id, {}) or re:test(@class, {})][ "
    "not(.//h1) or re:test(@id, {}) or re:test(@class, {})]"
)
_SHARE = ".//*[self::div or self::section or self::aside][contains(@class, 'elementor-share-buttons')]"
_TEASER = (
    ".//*[self::div or self::item or self::list or self::p or self::section or self::span][ "
    "contains(translate(@id, 'T', 't'), 'teaser') or contains(translate(@class, 'T', 't'), 'teaser')]"
)
_CAPTION = (
    ".//*[self::div or self::item or self::list or self::p or self::section or self::span][ "
    "contains(@id, 'caption') or contains(@class, 'caption')]"
)
_BASIC = (
    ".//aside|.//div[contains(@class|@id, 'footer')]|.//fencedframe|.//footer|.//script|.//style|"
    ".//svg|.//template|.//*[re:test(@class, {}, 'i') or re:test(@id, {}, 'i')]"
)
_COMMENTS = (
    ".//*[self::div or self::list or self::section or self::details or self::ol or self::ul][ "
    "re:test(@id, {}) or re:test(@class, {})][ not(self::ol or self::ul) or re:test(@id, {}) or "
    "re:test(@class, {})]"
)


def _first(items: list[tuple[str, str]], names: tuple[str, str]) -> str:
    """XPath's string of ``@a|@b``: the first of the two attributes in source order, else ''."""
    for key, value in items:
        if key in names:
            return value
    return ""


def _boilerplate(cookie: str, by_id: str, by_class: str) -> Walk:
    cookie_re, id_re, class_re = re.compile(cookie), re.compile(by_id), re.compile(by_class)

    def walk(tree: Any) -> list[Any]:
        found = []
        for el in tree.iterdescendants("div", "item", "list", "p", "section", "span"):
            items = el.items()
            if not items:
                continue
            attrs = dict(items)
            if (
                "data-lp-replacement-content" in attrs
                or "nav" in attrs.get("role", "").replace("N", "n")
                or "MostPopularStories" in attrs.get("data-component", "")
                or cookie_re.search(_first(items, ("id", "class")))
                or id_re.search(attrs.get("id", ""))
                or class_re.search(attrs.get("class", ""))
            ):
                found.append(el)
        return found

    return walk


def _hidden(hidden: str, by_id: str, by_class: str) -> Walk:
    hidden_re, id_re, class_re = re.compile(hidden), re.compile(by_id), re.compile(by_class)

    def walk(tree: Any) -> list[Any]:
        found = []
        # Every element is visited: attributes read one by one (in C), the source order of two
        # of them (XPath's "@a|@b") looked up only when an element has both.
        for el in tree.iterdescendants(etree.Element):
            if not el.keys():
                continue
            id_, class_, style = el.get("id"), el.get("class"), el.get("style")
            if id_ is None and class_ is None and style is None:
                if el.get("aria-hidden") == "true":
                    found.append(el)
                continue
            if id_ is None:
                id_or_class, id_or_style = class_ or "", style or ""
            else:
                id_or_class = id_ if class_ is None else _first(el.items(), ("id", "class"))
                id_or_style = id_ if style is None else _first(el.items(), ("id", "style"))
            if (
                class_ == "comments-title"
                or id_or_class.startswith("reply-")
                or hidden_re.search(id_or_style)
                or (style is not None and ("display:none" in style or "display: none" in style))
                or (id_ is not None and id_re.search(id_))
                or (class_ is not None and class_re.search(class_))
                or el.get("aria-hidden") == "true"
            ):
                found.append(el)
        return found

    return walk


def _named_then(tags: tuple[str, ...], exempt: Callable[[Any], bool]) -> Callable[..., Walk]:
    """Walks of two tests on a block's id and class, the second passed by ``exempt`` too.

    The XPath: ``tags[re:test(@id, A) or re:test(@class, B)][E or re:test(@id, C) or
    re:test(@class, D)]``, where ``E`` is ``exempt(element)``.
    """

    def make(id_any: str, class_any: str, id_then: str, class_then: str) -> Walk:
        id_any_re, class_any_re = re.compile(id_any), re.compile(class_any)
        id_then_re, class_then_re = re.compile(id_then), re.compile(class_then)

        def walk(tree: Any) -> list[Any]:
            found = []
            for el in tree.iterdescendants(*tags):
                id_, class_ = el.get("id", ""), el.get("class", "")
                if not (id_ or class_) or not (id_any_re.search(id_) or class_any_re.search(class_)):
                    continue
                if exempt(el) or id_then_re.search(id_) or class_then_re.search(class_):
                    found.append(el)
            return found

        return walk

    return make


#: The raw-tree prune: a block named as an appended article, unless it holds an ``<h1>``.
_appended = _named_then(("div", "section", "aside"), lambda el: next(el.iterdescendants("h1"), None) is None)
#: Comment sections: any block so named, a list only when named more strictly.
_comments = _named_then(
    ("div", "list", "section", "details", "ol", "ul"), lambda el: el.tag not in ("ol", "ul")
)


def _share() -> Walk:
    def walk(tree: Any) -> list[Any]:
        return [
            el
            for el in tree.iterdescendants("div", "section", "aside")
            if "elementor-share-buttons" in el.get("class", "")
        ]

    return walk


def _named(word: str, *, fold_t: bool = False) -> Walk:
    """Blocks whose id or class holds ``word`` (with ``fold_t``, its T in either case)."""

    def walk(tree: Any) -> list[Any]:
        found = []
        for el in tree.iterdescendants("div", "item", "list", "p", "section", "span"):
            id_, class_ = el.get("id", ""), el.get("class", "")
            if fold_t:
                id_, class_ = id_.replace("T", "t"), class_.replace("T", "t")
            if word in id_ or word in class_:
                found.append(el)
        return found

    return walk


#: Elements ``BASIC_CLEAN_XPATH`` removes whatever their attributes.
_BASIC_TAGS = frozenset({"aside", "fencedframe", "footer", "script", "style", "svg", "template"})


def _basic(by_class: str, by_id: str) -> Walk:
    """What trafilatura's basic cleaning removes (before its baseline, jusText, its page measure)."""
    class_re, id_re = re.compile(by_class, re.IGNORECASE), re.compile(by_id, re.IGNORECASE)

    def walk(tree: Any) -> list[Any]:
        found = []
        for el in tree.iterdescendants(etree.Element):
            tag = el.tag
            if tag in _BASIC_TAGS:
                found.append(el)
                continue
            class_, id_ = el.get("class"), el.get("id")
            if class_ is None and id_ is None:
                continue
            if tag == "div":
                if id_ is None or class_ is None:
                    class_or_id = class_ if id_ is None else id_
                else:
                    class_or_id = _first(el.items(), ("class", "id"))
                if "footer" in class_or_id:
                    found.append(el)
                    continue
            if (class_ is not None and class_re.search(class_)) or (id_ is not None and id_re.search(id_)):
                found.append(el)
        return found

    return walk


#: Per list of trafilatura.xpaths: its expressions' templates and the walks they make.
_LISTS: dict[str, list[tuple[str, Callable[..., Walk]]]] = {
    "OVERALL_DISCARD_XPATH": [(_BOILERPLATE, _boilerplate), (_HIDDEN, _hidden)],
    "RAW_TREE_PRUNE_XPATH": [(_APPENDED, _appended), (_SHARE, _share)],
    "REMOVE_COMMENTS_AND_LISTS_XPATH": [(_COMMENTS, _comments)],
    "TEASER_DISCARD_XPATH": [(_TEASER, functools.partial(_named, "teaser", fold_t=True))],
    "DISCARD_IMAGE_ELEMENTS": [(_CAPTION, functools.partial(_named, "caption"))],
    "BODY_XPATH": [
        (frames.NAMED, frames.named),
        (frames.ARTICLE, frames.article),
        (frames.STORY, frames.story),
        (frames.CONTENT, frames.content),
        (frames.MAIN, frames.main),
    ],
}
#: The lists trafilatura reads the first selected element of.
_FIRST_ONLY = frozenset({"BODY_XPATH"})


def _read(template: str, path: str) -> list[str] | None:
    """The regular expressions of ``path`` if it is ``template`` word for word, else None."""
    text = " ".join(path.split())
    pattern = "".join(
        part if part == "{}" else re.escape(part) for part in re.split(r"(\{\})", template)
    ).replace("\\ ", " ")
    match = re.fullmatch(pattern.replace("{}", "'([^']*)'"), text)
    if match is None:
        return None
    found = list(match.groups())
    # XPath tests a missing attribute as '': a pattern matching it would select every element.
    if any(re.search(regex, "") for regex in found):
        return None
    return found


@dataclass(frozen=True)
class Swap:
    """trafilatura's own expressions in one place, the walks for them, and how to put either."""

    own: list[Any]
    walks: list[Walk]
    put: Callable[[list[Any]], None]
    #: trafilatura reads only the first element each expression selects (``next(...)``): the
    #: walks give that one alone.
    first_only: bool = False


def _list_swap(target: list[Any], walks: list[Walk], *, first_only: bool = False) -> Swap:
    def put(expressions: list[Any]) -> None:
        target[:] = expressions

    return Swap(list(target), walks, put, first_only)


def _global_swap(module: Any, name: str, walk: Walk) -> Swap:
    def put(expressions: list[Any]) -> None:
        setattr(module, name, expressions[0])

    return Swap([getattr(module, name)], [walk], put)


@functools.cache
def swaps() -> list[Swap]:
    """A :class:`Swap` for every expression known here, or none if any is not the one known.

    The lists of ``trafilatura.xpaths`` are changed in place (every module holds the same
    list); ``BASIC_CLEAN_XPATH`` is a global of ``trafilatura.baseline``, which reads it there.
    """
    from trafilatura import xpaths

    # The module: trafilatura's package exports a function of the same name.
    baseline = importlib.import_module("trafilatura.baseline")

    found = []
    for name, known in _LISTS.items():
        target = getattr(xpaths, name, None)
        if not isinstance(target, list) or len(target) != len(known):
            return []
        walks = []
        for expression, (template, make) in zip(target, known, strict=True):
            regexes = _read(template, getattr(expression, "path", ""))
            if regexes is None:
                return []
            walks.append(make(*regexes))
        found.append(_list_swap(target, walks, first_only=name in _FIRST_ONLY))
    regexes = _read(_BASIC, getattr(getattr(baseline, "BASIC_CLEAN_XPATH", None), "path", ""))
    if regexes is None:
        return []
    found.append(_global_swap(baseline, "BASIC_CLEAN_XPATH", _basic(*regexes)))
    return found


def applies() -> bool:
    """Whether trafilatura's expressions are the ones this module knows (the walks are used)."""
    return bool(swaps())


@contextmanager
def walked_prunes() -> Iterator[None]:
    """Replace trafilatura's known discard XPaths by their walks for the ``with`` block."""
    known = swaps()
    for swap in known:
        swap.put(swap.walks)
    try:
        yield
    finally:
        for swap in known:
            swap.put(swap.own)
