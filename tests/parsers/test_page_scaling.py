"""Big pages of one shape are classified and extracted in time proportional to their size.

A guard against work that grows with the square of a page (a hostile server's page, or Vim's
help: one ``<pre>`` of 700 KB and 16,000 links, whose classification took 37 s): each page here
has 20,000 entries and takes a few seconds; the time limit (pytest-timeout) only catches a hang,
with a margin of ten times and more. ``bench/page_scaling.py`` prints the figures and the growth.
"""

from __future__ import annotations

import pytest

from harvest.parsers.article import extract_article
from harvest.parsers.pagekind import classify_page
from tests.bigpages import SHAPES, page

ENTRIES = 20_000


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_page_of_many_entries_is_read_in_linear_time(shape: str) -> None:
    """Before: a page of 20,000 linked headings took 107 s to extract (each heading's block
    listed all its preceding siblings to look at two), a 20,000-link ``<pre>`` minutes to
    classify (the block's whole text read again for each link in it)."""
    html = page(shape, ENTRIES)
    url = "http://127.0.0.1/big.html"
    kind = classify_page(html, url)
    assert kind.kind in {"article", "listing", "unknown", "empty"}
    article = extract_article(html, url)
    if article is not None:
        assert article.markdown
