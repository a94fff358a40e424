"""The default URL hints of ``blogs.yaml``: what they take for an article, what they never store.

The page classifier (harvest.parsers.pagekind) decides what a page is; these patterns are only
hints. They must not keep a content page from being fetched: a site-search exclusion is a search
*with a query*, not any path that ends in ``/search/`` (a docs page about search).
"""

from __future__ import annotations

import re

import pytest

from harvest.config.blogs import DEFAULT_ARTICLE_PATTERNS, DEFAULT_EXCLUDE_PATTERNS


def _excluded(url: str) -> bool:
    return any(re.search(p, url) for p in DEFAULT_EXCLUDE_PATTERNS)


def _article(url: str) -> bool:
    return any(re.search(p, url) for p in DEFAULT_ARTICLE_PATTERNS)


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.example/appendix/search/",
        "https://docs.example/guide/search",
        "https://docs.example/plugins/search.html",
    ],
)
def test_pages_about_search_are_not_excluded(url: str) -> None:
    assert not _excluded(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://blog.example/search/?q=scrapy",
        "https://docs.example/search.html?q=xpath&check_keywords=yes",
        "https://blog.example/?s=python",
        "https://blog.example/search?query=x",
    ],
)
def test_search_result_pages_are_excluded(url: str) -> None:
    assert _excluded(url)


@pytest.mark.parametrize(
    ("url", "article"),
    [
        # Jekyll's /:year/:title/ (46b.it): a year, then a slug.
        ("https://46b.it/2017/brexit/", True),
        ("https://46b.it/2017/03/", False),
        ("https://46b.it/2017/", False),
        ("https://blog.example/2014/04/some-post/", True),
    ],
)
def test_year_and_slug_is_an_article_hint(url: str, article: bool) -> None:
    assert _article(url) is article
