"""The lxml HTML parser every page parse of harvest's parsers uses."""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

#: The heading elements, for ``iter(*HEADINGS)`` and ``tag in HEADINGS``.
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def html_parser(*, remove_pis: bool = False) -> etree.HTMLParser:
    """A UTF-8 HTML parser dropping comments, giving lxml.html elements, looked up in C.

    Every element is an lxml.html ``HtmlElement`` (``text_content``, ``drop_tree``...), as
    lxml.html's own parser gives, but its class is picked in C: lxml.html's lookup runs a
    Python function for every element proxy, a tenth of trafilatura's time (BENCHMARKS.md).
    Its form, input and label classes are not used by harvest. No table of ids is built:
    nothing reads a page through XPath's ``id()`` (lxml's ``get_element_by_id`` is an XPath
    on ``@id``), so it would be parse time for nothing.
    """
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=remove_pis, collect_ids=False
    )
    parser.set_element_class_lookup(
        etree.ElementDefaultClassLookup(
            element=lxml.html.HtmlElement,
            comment=lxml.html.HtmlComment,
            entity=lxml.html.HtmlEntity,
            pi=lxml.html.HtmlProcessingInstruction,
        )
    )
    return parser


#: React's streaming server render (React 18 and 19: Next.js' App Router, Remix, Umi) sends each
#: suspended part of a page after the shell, in ``<div hidden id="S:n">``, and a script call
#: moves it into place: ``$RC("B:n","S:n")`` (a Suspense boundary's ``<template id="B:n">``) or
#: ``$RS("S:n","P:n")`` (a placeholder ``<template id="P:n">``).
_REACT_MOVES_RE = re.compile(r"""\$R([CS])\(\s*["']([^"']+)["']\s*,\s*["']([^"']+)["']""")


def whole_document(tree: etree._Element, html: str) -> None:
    """Make ``tree`` the document a browser builds from ``html``, before any script but React's.

    What comes after ``</html>`` belongs to the ``<body>`` (HTML's "after after body" rule);
    libxml2 puts it in a second ``<html>`` beside the root, where nothing looks. And the parts of
    a page streamed by React's server render are moved where its inline scripts put them: the
    text of a page pre-rendered so (dumi) was in hidden segments after the end of the document,
    and the page was judged a script-only shell or a sidebar's list.
    """
    root = tree.getroottree().getroot()
    _take_in_trailing(root)
    # React's boundaries and placeholders are <template>s: a walk in C says most pages have
    # none, where a search of the page's text for the scripts costs a tenth of a millisecond.
    if next(root.iter("template"), None) is None:
        return
    moves = _REACT_MOVES_RE.findall(html)
    if not moves:
        return
    by_id = {el.get("id"): el for el in root.iter("div", "template") if el.get("id")}
    for kind, first, second in moves:
        # $RC(boundary, segment), $RS(segment, placeholder)
        segment, target = (
            (by_id.get(second), by_id.get(first)) if kind == "C" else (by_id.get(first), by_id.get(second))
        )
        if segment is not None and target is not None and target.tag == "template":
            if kind == "C":
                _drop_fallback(target, html, first)
            _put_in_place(segment, target)


def _drop_fallback(template: etree._Element, html: str, boundary: str) -> None:
    """Remove what a Suspense boundary showed until its content came ("Loading…", a skeleton).

    React's script removes everything from the boundary's ``<!--$?-->`` to its ``<!--/$-->``;
    the parser dropped those comments, so the fallback's elements are counted in the page's
    source (Next.js' App Router: ``<template id="B:0"></template><p>Loading…</p><!--/$-->``).
    A fallback holding a boundary of its own is left as it is.
    """
    found = re.search(rf'<template id="{re.escape(boundary)}"></template>(.*?)<!--/\$-->', html, re.S)
    if found is None or "<!--$" in found.group(1) or not found.group(1).strip():
        return
    try:
        parts = lxml.html.fragments_fromstring(found.group(1))
    except (etree.ParserError, ValueError):
        return
    if parts and isinstance(parts[0], str):
        template.tail = None  # the fallback's own words before its first element
    parent = template.getparent()
    for _ in range(sum(1 for part in parts if not isinstance(part, str))):
        fallback = template.getnext()
        if fallback is None or parent is None:
            return
        parent.remove(fallback)


def _take_in_trailing(root: etree._Element) -> None:
    """Append what the parser put beside the root, after ``</html>``, to the ``<body>``."""
    extra = [sibling for sibling in root.itersiblings() if sibling.tag == "html"]
    if not extra:
        return
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    for sibling in extra:
        inner = sibling.find("body")
        body.extend(list(inner if inner is not None else sibling))


def _put_in_place(segment: etree._Element, target: etree._Element) -> None:
    """Put ``segment``'s content where ``target`` (a ``<template>``) stands; both elements go.

    A boundary's fallback after the template is :func:`_drop_fallback`'s.
    """
    parent = target.getparent()
    if parent is None:
        return
    index = parent.index(target)
    tail = target.tail
    parent.remove(target)
    children = list(segment)
    if segment.text and segment.text.strip():
        if index:
            before = parent[index - 1]
            before.tail = (before.tail or "") + segment.text
        else:
            parent.text = (parent.text or "") + segment.text
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    if tail and children:
        children[-1].tail = (children[-1].tail or "") + tail
    elif tail and index:
        parent[index - 1].tail = (parent[index - 1].tail or "") + tail
    elif tail:
        parent.text = (parent.text or "") + tail
    holder = segment.getparent()
    if holder is not None:
        holder.remove(segment)
