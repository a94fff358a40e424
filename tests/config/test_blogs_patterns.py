"""The default URL hints of ``blogs.yaml``: what they take for an article, what they never store.

The page classifier (harvest.parsers.pagekind) decides what a page is; these patterns are only
hints. They must not keep a content page from being fetched: a site-search exclusion is a search
*with a query*, not any path that ends in ``/search/`` (a docs page about search).
"""

from __future__ import annotations

import re

import pytest

from harvest.config.blogs import DEFAULT_ARTICLE_PATTERNS, DEFAULT_EXCLUDE_PATTERNS, asset_link


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


@pytest.mark.parametrize(
    "url",
    [
        # TiddlyWiki's static build writes every page as /static/<title>.html: all 19 posts were
        # dropped as "listing pages" by an /static/ exclusion.
        "https://tiddlywiki.example/static/Quick%20note.html",
        "https://blog.example/assets/guide/",
        "https://docs.example/_static/demo.htm",
    ],
)
def test_a_page_in_an_asset_folder_is_judged_like_any_page(url: str) -> None:
    assert not _excluded(url)
    assert not asset_link(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.example/_static/fonts/lato-normal",
        "https://blog.example/wp-content/uploads/2023/01/report",
        "https://blog.example/assets/data.json",
        "https://docs.example/_images/diagram.webp",
    ],
)
def test_a_file_in_an_asset_folder_is_skipped_before_fetching(url: str) -> None:
    assert asset_link(url)


def test_sphinx_sources_and_module_code_are_never_stored() -> None:
    assert _excluded("https://docs.example/_sources/index.rst.txt")
    assert _excluded("https://docs.example/_modules/pkg/mod.html")
    assert _excluded("https://blog.example/wp-json/wp/v2/posts")
