"""The content areas found in one walk are the ones trafilatura's ``BODY_XPATH`` picks.

On every page of trafilatura's evaluation set (945 real pages, shared fixtures): for each of
the five kinds, the first element :func:`harvest.parsers.contentarea.content_areas` gives is
the first element the kind's XPath returns (or both have none). A change of trafilatura's
vocabulary shows here.
"""

from __future__ import annotations

from collections import Counter

from trafilatura.xpaths import BODY_XPATH

from harvest.parsers.article import _parse
from harvest.parsers.contentarea import KINDS, content_areas
from tests import eval_pages


def test_content_areas_are_trafilaturas_on_the_evaluation_pages() -> None:
    assert len(BODY_XPATH) == KINDS
    found: Counter[int] = Counter()
    pages = 0
    for file, _, html in eval_pages():
        tree = _parse(html)
        if tree is None:
            continue
        pages += 1
        expected = [next(iter(expression(tree)), None) for expression in BODY_XPATH]
        got = content_areas(tree)
        for kind in range(KINDS):
            assert got[kind] is expected[kind], f"{file}: kind {kind}"
            found[kind] += expected[kind] is not None
    # Every kind occurs on real pages, and is missing from others: both sides are compared.
    assert pages > 900
    assert all(0 < found[kind] < pages for kind in range(KINDS)), found
