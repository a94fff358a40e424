"""trafilatura's link-density test, keeping a short block whose links are a small part of its words.

trafilatura deletes a short block (a ``<div>`` or ``<p>`` under its length gate) when its links
are most of its text, or when it holds two links or more and four in five of them are short
words. The second test catches a tag line ("Tags: python, web") and a share bar; it also
catches an API's declarations, where each name and type is a link amid the signature:
rustdoc's ``fn clone(&self) -> Self`` over "Returns a copy of the value. Read more", Haddock's
``(<<<) :: Category cat => cat b c -> …`` with its "Source" link. Every trait method of a Rust
type and most functions of a Haskell module went so.

:func:`declarations_kept` keeps such a block when its links make less than ``LINK_SHARE`` of its
text: the tag lines and bars the test is for are half links or more. The test is swapped for the
``with`` block only (harvest's own trafilatura call), and applies only while trafilatura's test
is the function it wraps (its name, its module).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: The share of a short block's text its links make, under which two short links or more do not
#: make it boilerplate: a signature's names and types are a small part of its words, a tag
#: line's or a "posted in" line's links about half (BENCHMARKS.md, figures behind comments).
LINK_SHARE = 0.34
#: trafilatura's own share of link text over which a short block is links whatever their lengths.
ALL_LINKS_SHARE = 0.8


def _kept(own: Callable[..., tuple[bool, bool]], module: Any) -> Callable[..., tuple[bool, bool]]:
    def link_density_test(element: Any, favor_precision: bool = False) -> tuple[bool, bool]:
        result, short = own(element, favor_precision)
        # ``short``: judged under trafilatura's size gate, by one of its two link tests there.
        if result and short:
            linklen, count, _, _ = module.collect_link_info(element.findall(".//ref"))
            length = len(module.trim(element.text_content()))
            if count > 1 and linklen <= ALL_LINKS_SHARE * length and linklen < LINK_SHARE * length:
                return False, True
        return result, short

    return link_density_test


@contextmanager
def declarations_kept() -> Iterator[None]:
    """Trafilatura's link-density test, with a signature's links kept, for the ``with`` block."""
    module: Any = importlib.import_module("trafilatura.htmlprocessing")
    own: Any = getattr(module, "link_density_test", None)
    if (
        getattr(own, "__name__", "") != "link_density_test"
        or getattr(own, "__module__", "") != module.__name__
        or not all(hasattr(module, name) for name in ("collect_link_info", "trim"))
    ):
        yield  # not the test this wraps: trafilatura's own, unchanged
        return
    module.link_density_test = _kept(own, module)
    try:
        yield
    finally:
        module.link_density_test = own
