"""The byline search in less of the page finds what trafilatura's finds in all of it.

On pages of trafilatura's evaluation set (shared fixtures, tuning side of the benchmark's
split) chosen for each way :func:`harvest.parsers.metasearch.page_author` narrows the search:
no candidate at all, candidates only in comment sections, candidates gathered in the header,
candidates spread over the page, and attribute names lxml cannot copy.
"""

from __future__ import annotations

import gzip
import json
from functools import cache

import pytest
from scrapy.http import HtmlResponse
from trafilatura.metadata import extract_author

from harvest.parsers.article import _parse
from harvest.parsers.metasearch import page_author
from tests import shared_fixture

EVAL = ("extraction", "trafilatura-eval")
PAGES = [
    "elfaro.net-asamblea.html",  # no candidate
    "breakingbelizenews.com-paho.html",  # only comment authors, deleted by trafilatura
    "hertha-blog.de.dame.html",  # candidates in one block, no byline in them
    "jis.gov.jm-investment.html",  # byline in the article's header
    "dw.com.colonial.html",
    "haitiantimes.com-family.html",  # byline and comment form: the whole region is searched
    "hpd.de-Homosexuellenhass.html",  # an attribute name lxml will not copy
]


@cache
def _urls() -> dict[str, str]:
    data = json.loads(shared_fixture(*EVAL, "evaldata.json").read_text(encoding="utf-8"))
    return {item["file"]: url for url, item in data.items()}


@pytest.mark.parametrize("name", PAGES)
def test_byline_searched_in_less_of_the_page_is_trafilaturas(name: str) -> None:
    url = _urls()[name]
    with gzip.open(shared_fixture(*EVAL, "pages", f"{name}.gz"), "rb") as f:
        tree = _parse(HtmlResponse(url=url, body=f.read()).text)
    assert tree is not None
    # The page, and the regions extract_article may hand over: each <article>, <main>, <body>.
    scopes = [tree, *tree.iter("article", "main", "body")]
    got = [page_author(scope) for scope in scopes]
    assert got == [extract_author(scope) or None for scope in scopes]


def test_the_pages_cover_found_and_missing_bylines() -> None:
    found = set()
    for name in PAGES:
        url = _urls()[name]
        with gzip.open(shared_fixture(*EVAL, "pages", f"{name}.gz"), "rb") as f:
            tree = _parse(HtmlResponse(url=url, body=f.read()).text)
        assert tree is not None
        found.add(page_author(tree) is None)
    assert found == {True, False}
