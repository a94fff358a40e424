"""The discard walks select what trafilatura's XPaths select, on the trees trafilatura prunes.

Every page of trafilatura's evaluation set (945 real pages) and a quarter of the blog fixtures'
pages (real Jekyll, Eleventy, Zola, Docusaurus, Hugo and Octopress sites) is extracted by
harvest with each walk of :mod:`harvest.parsers.prunes` checked against the XPath it replaces,
call by call, on the very tree trafilatura hands it (raw pages, regions, converted subtrees with
trafilatura's own ``item`` and ``list`` tags): the same elements, in the same order. A change of
trafilatura's expressions shows here, or turns the walks off (tested below).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from harvest.parsers import prunes
from harvest.parsers.article import _parse, extract_article
from tests import eval_pages, shared_fixture


class _Checked:
    """An XPath of trafilatura and its walk: both run, compared, the XPath's answer returned."""

    def __init__(
        self, xpath: Any, walk: prunes.Walk, seen: Counter[str], failures: list[str], *, first_only: bool
    ) -> None:
        self.xpath, self.walk, self.seen, self.failures = xpath, walk, seen, failures
        self.name = " ".join(xpath.path.split())
        self.first_only = first_only

    def __call__(self, tree: Any) -> list[Any]:
        expected, got = _compared(self.xpath(tree), self.walk(tree), first_only=self.first_only)
        self.seen[self.name] += bool(expected)
        if len(expected) != len(got) or any(a is not b for a, b in zip(expected, got, strict=True)):
            self.failures.append(f"{self.name[:80]}: {len(expected)} elements, the walk {len(got)}")
        return list(expected)


def _compared(expected: list[Any], got: list[Any], *, first_only: bool) -> tuple[list[Any], list[Any]]:
    """What trafilatura reads of both answers: all the elements, or the first alone."""
    return (expected[:1], got[:1]) if first_only else (expected, got)


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Counter[str], list[str]]]:
    """While the test runs, every walk harvest puts in place is checked against its XPath."""
    assert prunes.applies(), "trafilatura's discard XPaths changed: the walks are off"
    seen: Counter[str] = Counter()
    failures: list[str] = []

    @contextmanager
    def checking() -> Iterator[None]:
        for swap in prunes.swaps():
            swap.put(
                [
                    _Checked(x, w, seen, failures, first_only=swap.first_only)
                    for x, w in zip(swap.own, swap.walks, strict=True)
                ]
            )
        try:
            yield
        finally:
            for swap in prunes.swaps():
                swap.put(swap.own)

    monkeypatch.setattr(prunes, "walked_prunes", checking)
    yield seen, failures


def test_the_walks_select_trafilaturas_elements_on_the_evaluation_pages(
    checked: tuple[Counter[str], list[str]],
) -> None:
    seen, failures = checked
    pages = 0
    for _, url, html in eval_pages():
        extract_article(html, url)
        pages += 1
        assert not failures, f"{url}: {failures[0]}"
    assert pages > 900
    # Each expression selected elements on some pages, so both sides were compared; all but the
    # one naming a single page builder's share buttons, which no page of the set has.
    assert len(seen) == sum(len(swap.walks) for swap in prunes.swaps()), seen
    assert [name for name, n in seen.items() if not n] == [prunes._SHARE], seen


def test_the_walks_select_trafilaturas_elements_on_whole_raw_pages() -> None:
    """On each evaluation page as parsed, before harvest or trafilatura removed anything from it
    (scripts, styles, SVG and templates are still there for the basic cleaning's tags)."""
    pages = 0
    for _, url, html in eval_pages():
        tree = _parse(html)
        if tree is None:
            continue
        pages += 1
        for swap in prunes.swaps():
            for xpath, walk in zip(swap.own, swap.walks, strict=True):
                expected, got = _compared(xpath(tree), walk(tree), first_only=swap.first_only)
                assert len(expected) == len(got), f"{url}: {xpath.path[:80]}"
                assert all(a is b for a, b in zip(expected, got, strict=True)), f"{url}: {xpath.path[:80]}"
    assert pages > 900


def test_the_walks_select_trafilaturas_elements_on_the_blog_sites(
    checked: tuple[Counter[str], list[str]],
) -> None:
    _seen, failures = checked
    files = sorted(shared_fixture("blogs").rglob("*.html"))[::4]
    assert len(files) > 300
    for path in files:
        url = f"http://blog.invalid/{path.relative_to(shared_fixture('blogs')).as_posix()}"
        extract_article(path.read_text(encoding="utf-8", errors="replace"), url)
        assert not failures, f"{path}: {failures[0]}"


def test_an_expression_that_changed_leaves_trafilaturas_own_in_use() -> None:
    from trafilatura.xpaths import OVERALL_DISCARD_XPATH

    template = prunes._HIDDEN
    path = OVERALL_DISCARD_XPATH[1].path
    regexes = prunes._read(template, path)
    assert regexes is not None and "akismet" in regexes[1]
    # A word of the expression other than its regular expressions, changed: not the same test.
    assert prunes._read(template, path.replace("display:none", "display:hidden")) is None
    # A regular expression matching the empty string would select every element without the
    # attribute under the walk's reading of a missing one: refused too.
    assert prunes._read(template, path.replace("'reader-comments|akismet'", "'x*'")) is None
