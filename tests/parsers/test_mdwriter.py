"""The Markdown writer calls trafilatura's escape only on the texts it changes, on real pages.

trafilatura's evaluation pages (945 real article pages, shared fixtures): every text the writer
leaves alone is one trafilatura's own escape returns as it is, and the Markdown harvest writes is
the same, character for character, as with trafilatura's escape called on every text.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from trafilatura import xml as tx

from harvest.parsers import mdwriter
from harvest.parsers.article import _parse, extract_article
from tests import eval_pages


def test_every_text_left_alone_is_one_trafilaturas_escape_keeps() -> None:
    needs = mdwriter.needs_escaping(tx._INLINE_SPECIAL_CHARS)
    skipped = changed = 0
    for _, _, html in list(eval_pages())[::5]:
        tree = _parse(html)
        assert tree is not None
        for el in tree.iter():
            for text in (el.text, el.tail):
                if not text:
                    continue
                if needs.search(text) is None:
                    skipped += 1
                    assert tx._escape_and_convert_math(text) == text, text
                elif tx._escape_and_convert_math(text) != text:
                    changed += 1
    # Both kinds are there: most texts are left alone, and escaping changes others.
    assert skipped > 10_000 and changed > 100, (skipped, changed)


def test_the_markdown_is_the_same_as_with_every_text_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = list(eval_pages())[1::8]
    written = [extract_article(html, url) for _, url, html in pages]

    @contextlib.contextmanager
    def everywhere(_: Any) -> Iterator[None]:
        yield

    monkeypatch.setattr(mdwriter, "_escapes_only_where_needed", everywhere)
    compared = 0
    for (name, url, html), article in zip(pages, written, strict=True):
        again = extract_article(html, url)
        assert (article is None) == (again is None), name
        if article is not None and again is not None:
            assert article.markdown == again.markdown, name
            compared += 1
    assert compared > 100
