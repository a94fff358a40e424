"""trafilatura's byline search run on the least of a page that gives the same result.

``extract_author(scope)`` copies ``scope``, deletes its comment sections, ``<time>``,
``<figure>`` and the like (``AUTHOR_DISCARD_XPATHS``), then tries ``AUTHOR_XPATHS`` in turn,
whose regular expressions are a Python call for every element they look at: most of the cost
of a page's metadata. Every element those XPaths can return carries one of a few words in a
few attributes (or is ``<author>``, or has a ``<rel>`` child), so :func:`page_author` finds
these candidates first, with plain string tests in C, and then:

- no candidate with text, or none that the copy keeps: no byline. An element without text is
  never returned, and deleting other elements only takes text away from it (the tail of a
  deleted element stays where it was);
- otherwise trafilatura searches the closest element holding every kept candidate. Inside it
  the same elements match in the same order and lose the same text, since both XPath lists
  test an element's own tag and attributes only (tests/parsers/test_metasearch.py compares
  the two on saved pages).
"""

from __future__ import annotations

import functools
import re

from lxml import etree

#: The attributes ``AUTHOR_XPATHS`` test.
_ATTRIBUTES = ("class", "id", "itemprop", "rel", "data-testid", "data-component")
#: Their values, one C walk each: cheaper than one XPath testing the name of every attribute.
_VALUES = tuple(
    (name, etree.XPath(f"descendant-or-self::*/@{name}", smart_strings=False)) for name in _ATTRIBUTES
)
#: Substrings of every token ``AUTHOR_XPATHS`` look for in those attributes ("[Aa]uthor",
#: "author-?name", "AuthorCard", "[Bb]yline", "BBL"...), with no case or word conditions: an
#: element that matches has one of them.
_TOKEN_RE = re.compile(
    "uthor|yline|byl|BBL|username|screenname|channel-name|zuozhe|bianji|xiaobian|submitted-by"
    "|posted-by|journalist-name|writer"
)


@functools.lru_cache(maxsize=256)
def _candidates_xpath(tests: tuple[tuple[str, str], ...]) -> etree.XPath:
    """The elements whose attribute ``name`` contains ``token``, for each (name, token) found."""
    found = " or ".join(f"contains(@{name}, '{token}')" for name, token in tests)
    return etree.XPath(
        f"descendant-or-self::*[{found}] | descendant-or-self::author | descendant-or-self::*[rel]"
        if found
        else "descendant-or-self::author | descendant-or-self::*[rel]"
    )


def _candidates(scope: etree._Element) -> list[etree._Element]:
    """Every element of ``scope`` that ``AUTHOR_XPATHS`` could return, and maybe a few more."""
    tests = tuple(
        (name, token)
        for name, values in _VALUES
        for token in sorted(set(_TOKEN_RE.findall("\n".join(values(scope)))))
    )
    if not tests and next(scope.iter("author", "rel"), None) is None:
        return []  # about half the regions: one look at the attribute values says so
    return list(_candidates_xpath(tests)(scope))


def _common_ancestor(scope: etree._Element, elements: list[etree._Element]) -> etree._Element:
    """The closest element of ``scope`` (itself included) holding all of ``elements``."""
    path = [*reversed(list(elements[0].iterancestors())), elements[0]]
    path = path[path.index(scope) :]
    for el in elements[1:]:
        if el is path[-1]:
            continue
        holders = {el, *el.iterancestors()}
        while path[-1] not in holders:
            path.pop()
    return path[-1]


def _kept(scope: etree._Element, elements: list[etree._Element]) -> list[etree._Element] | None:
    """Those of ``elements`` that trafilatura's copy of ``scope`` keeps (None: cannot tell).

    An element goes with the first of its ancestors below ``scope`` (or itself) that
    ``AUTHOR_DISCARD_XPATHS`` pick: they test an element's own tag and attributes, so each one
    is tested on a bare copy of it.
    """
    from trafilatura.xpaths import AUTHOR_DISCARD_XPATHS

    chains = []
    for el in elements:
        chain = []
        while el is not scope:
            chain.append(el)
            el = el.getparent()
        chains.append(chain)
    holder = etree.Element("div")
    copies = {}
    try:
        for el in dict.fromkeys(el for chain in chains for el in chain):
            copies[etree.SubElement(holder, el.tag, dict(el.attrib))] = el
    except ValueError:  # a name lxml will not create ("fb:like", ":class")
        return None
    deleted = {copies[found] for expression in AUTHOR_DISCARD_XPATHS for found in expression(holder)}
    return [el for el, chain in zip(elements, chains, strict=True) if deleted.isdisjoint(chain)]


#: A comment section: an element whose id or class names comments, or one comment's own anchor
#: (``id="comment-12"``: WordPress, classic and block themes alike, and Drupal).
_COMMENT_RE = re.compile(r"comment", re.I)


def _in_comments(el: etree._Element, scope: etree._Element) -> bool:
    """Whether ``el`` sits in a comment section below ``scope``: its names are commenters'."""
    for anc in el.iterancestors():
        if anc is scope or anc.tag in {"body", "html"}:
            return False
        if _COMMENT_RE.search(anc.get("id") or "") or _COMMENT_RE.search(anc.get("class") or ""):
            return True
    return False


def page_author(scope: etree._Element) -> str | None:
    """``trafilatura.metadata.extract_author(scope)``, searched in less of ``scope``.

    Not in a comment section: trafilatura leaves out sections whose class begins with
    "comments", and WordPress' block themes name theirs ``wp-block-comments``, where each
    comment's ``wp-block-comment-author-name`` made the first commenter the post's author.
    """
    shown = [el for el in _candidates(scope) if el.text_content().strip() and not _in_comments(el, scope)]
    if not shown:
        return None
    kept = _kept(scope, shown)
    if kept is not None and not kept:
        return None
    # Imported here: trafilatura takes ~150 ms to import, and every `scrapy` command loads
    # the parsers.
    from trafilatura.metadata import extract_author

    return extract_author(scope if kept is None else _common_ancestor(scope, kept)) or None
