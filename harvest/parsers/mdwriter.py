"""The extracted text's tree written as Markdown, by trafilatura's ``xmltotxt`` steps on it.

``xmltotxt`` copies the tree first (for a caller that keeps it: harvest does not) and unescapes
its whole output at the end, whose text lxml had already unescaped: a link's ``&section=1``
became ``§ion=1`` (HTML's legacy ``&sect``), a text's ``&amp;`` a ``&``. Its steps are run here
without either; a trafilatura that lacks them gets ``xmltotxt`` with the ampersands escaped
beforehand (:func:`.textshape.keep_ampersands`).

The first step escapes every text and tail of the tree for CommonMark and rewrites its LaTeX
spans, a regular-expression split and a scan per character kind each: the costliest part of the
writing. Most of a page's texts hold none of the characters either looks for and come back as
they went, so it is only called on those that do (:func:`_escapes_only_where_needed`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from lxml import etree

from harvest.parsers import textshape

#: trafilatura's (2.3) ``xmltotxt`` steps before it writes a tree as Markdown.
_STEPS = (
    "_escape_and_convert_math_tree",
    "_collapse_emphasis",
    "_merge_adjacent_hi",
    "_strip_block_whitespace",
)
#: trafilatura's LaTeX spans, ``\[...\]`` and ``\(...\)``: each holds a backslash.
_MATH_SPANS = r"((?s:(?<!\S)\\\[.+?\\\])|\\\(.+?\\\))"


def write(body: etree._Element) -> str:
    """``body`` (trafilatura's XML body) as Markdown; the tree is changed on the way."""
    from trafilatura import xml as tx  # lazily, as bare_extraction (article._extract_main)

    steps = [step for name in _STEPS if (step := getattr(tx, name, None)) is not None]
    if len(steps) != len(_STEPS) or not hasattr(tx, "process_element"):
        textshape.keep_ampersands(body)
        return str(tx.xmltotxt(body, include_formatting=True))
    with _escapes_only_where_needed(tx):
        for step in steps:
            step(body)
    written: list[str] = []
    tx.process_element(body, written, True)
    return tx.sanitize("".join(written), True) or ""


@contextmanager
def _escapes_only_where_needed(tx: Any) -> Iterator[None]:
    """Put in place of trafilatura's escape of a text for the ``with`` block: run where it changes one.

    It escapes the inline characters it names and rewrites the LaTeX spans: a text with none of
    those characters and no backslash is returned as it is. A trafilatura whose escape reads
    other spans keeps its own.
    """
    own = getattr(tx, "_escape_and_convert_math", None)
    specials = getattr(tx, "_INLINE_SPECIAL_CHARS", None)
    spans = getattr(tx, "_MATH_SPAN_RE", None)
    if own is None or not isinstance(specials, tuple) or getattr(spans, "pattern", None) != _MATH_SPANS:
        yield
        return
    needs = needs_escaping(specials)

    def escape(text: str) -> str:
        return own(text) if needs.search(text) else text

    tx._escape_and_convert_math = escape
    try:
        yield
    finally:
        tx._escape_and_convert_math = own


@functools.cache
def needs_escaping(specials: tuple[str, ...]) -> re.Pattern[str]:
    """Any of the inline characters ``specials``, or a backslash (every LaTeX span has one)."""
    return re.compile("[" + "".join(re.escape(ch) for ch in (*specials, "\\")) + "]")
