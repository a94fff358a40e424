"""Big generated pages of one shape each: N entries of one kind in one block.

What a site may serve, or a hostile server: ``tests/parsers/test_page_scaling.py`` guards that
they are read in time proportional to their size, ``bench/page_scaling.py`` prints the figures.
"""

from __future__ import annotations

from collections.abc import Callable

SHAPES: dict[str, Callable[[int], str]] = {
    # Vim's help: one preformatted block of words and links.
    "pre of links": lambda n: (
        "<h1>T</h1><pre>"
        + "".join(f'word {i} <a href="/p{i}.html">link{i}</a> more text\n' for i in range(n))
        + "</pre>"
    ),
    "list of links": lambda n: (
        "<h1>T</h1><ul>"
        + "".join(f'<li><a href="/p{i}.html">link {i}</a> text</li>' for i in range(n))
        + "</ul>"
    ),
    "paragraphs": lambda n: (
        "<h1>T</h1>"
        + "".join(f'<p>para {i} <a href="/p{i}.html">link {i}</a> text and more words.</p>' for i in range(n))
    ),
    "table rows": lambda n: (
        "<h1>T</h1><table>"
        + "".join(f'<tr><td><a href="/p{i}.html">l{i}</a></td><td>cell {i}</td></tr>' for i in range(n))
        + "</table>"
    ),
    "terms": lambda n: (
        "<h1>T</h1><dl>"
        + "".join(f'<dt><a name="a{i}"></a>term {i}</dt><dd>def {i} <code>x</code></dd>' for i in range(n))
        + "</dl>"
    ),
    "linked headings": lambda n: "".join(
        f'<h2 id="s{i}"><a href="/p{i}.html">H{i}</a></h2><p>text {i} words words.</p>' for i in range(n)
    ),
}


def page(shape: str, n: int) -> str:
    return f"<html><head><title>T</title></head><body>{SHAPES[shape](n)}</body></html>"
