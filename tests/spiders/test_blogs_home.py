"""The blogs spider's home page: never an article, under its root or its root's index.html."""

from __future__ import annotations

import pytest

from harvest.spiders.blogs_sites import home_page


@pytest.mark.parametrize(
    ("url", "home"),
    [
        ("https://typedoc.example/", True),
        ("https://typedoc.example", True),
        # TypeDoc links its home page as index.html from every page's header and its sitemap:
        # it was stored as an article while / was skipped.
        ("https://typedoc.example/index.html", True),
        ("https://docs.example/index.htm", True),
        ("https://docs.example/guide/index.html", False),
        ("https://docs.example/index.html/about", False),
        ("https://blog.example/myindex.html", False),
    ],
)
def test_the_root_and_its_index_html_are_the_home_page(url: str, home: bool) -> None:
    assert home_page(url) is home
