"""Big generated pages of one shape each: N entries of one kind in one block.

What a site may serve, or a hostile server: ``tests/parsers/test_page_scaling.py`` guards that
they are read in time proportional to their size, ``bench/page_scaling.py`` prints the figures.
"""

from __future__ import annotations

from collections.abc import Callable


def _rows(before: str, row: Callable[[int], str], after: str = "") -> Callable[[int], str]:
    """A shape: ``before``, ``n`` rows, ``after``."""
    return lambda n: before + "".join(row(i) for i in range(n)) + after


SHAPES: dict[str, Callable[[int], str]] = {
    # Vim's help: one preformatted block of words and links.
    "pre of links": _rows(
        "<h1>T</h1><pre>", lambda i: f'word {i} <a href="/p{i}.html">link{i}</a> more text\n', "</pre>"
    ),
    "list of links": _rows(
        "<h1>T</h1><ul>", lambda i: f'<li><a href="/p{i}.html">link {i}</a> text</li>', "</ul>"
    ),
    "paragraphs": _rows(
        "<h1>T</h1>", lambda i: f'<p>para {i} <a href="/p{i}.html">link {i}</a> text and more words.</p>'
    ),
    "table rows": _rows(
        "<h1>T</h1><table>",
        lambda i: f'<tr><td><a href="/p{i}.html">l{i}</a></td><td>cell {i}</td></tr>',
        "</table>",
    ),
    "terms": _rows(
        "<h1>T</h1><dl>",
        lambda i: f'<dt><a name="a{i}"></a>term {i}</dt><dd>def {i} <code>x</code></dd>',
        "</dl>",
    ),
    "linked headings": _rows(
        "", lambda i: f'<h2 id="s{i}"><a href="/p{i}.html">H{i}</a></h2><p>text {i} words words.</p>'
    ),
}


def page(shape: str, n: int) -> str:
    return f"<html><head><title>T</title></head><body>{SHAPES[shape](n)}</body></html>"
