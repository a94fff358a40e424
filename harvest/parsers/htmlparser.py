"""The lxml HTML parser every page parse of harvest's parsers uses."""

from __future__ import annotations

import lxml.html
from lxml import etree


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
