"""A README's title, from Markdown, reStructuredText or the HTML headings READMEs often embed.

READMEs open in many ways: ``# Name``, a Setext heading (a line underlined with ``====``),
``<h1 align="center">Name</h1>`` around a logo, an RST title with over- and underlines, or
badges first and the heading later.
The title is the first level-1 heading with visible text, else the first heading of any level,
else None (the caller falls back to the repository name). Fenced code blocks are skipped.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterator

logger = logging.getLogger(__name__)

_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ATX_RE = re.compile(r"^\s{0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")
_SETEXT_RE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
# reStructuredText section adornments: a line of one repeated punctuation character.
_RST_ADORN_RE = re.compile(r"""^([=\-~^"'`#*+:.<>_])\1{2,}\s*$""")
_HTML_HEADING_RE = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1\s*>", re.IGNORECASE | re.DOTALL)
_IMAGE_RE = re.compile(r"!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]")
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)|\[([^\]]*)\]\[[^\]]*\]")
_TAG_RE = re.compile(r"<[^>]+>")
_EMPHASIS_RE = re.compile(r"(\*\*|__|\*|_|`|~~)(?=\S)(.+?)(?<=\S)\1")
#: A title longer than this is a paragraph that happens to sit in a heading; cut it.
_MAX_TITLE = 300


def clean_inline(text: str) -> str:
    """Heading text as a reader sees it: no images, tags, link targets or emphasis marks."""
    text = _IMAGE_RE.sub("", text)
    text = _LINK_RE.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    text = _TAG_RE.sub("", text)
    for _ in range(3):  # nested emphasis such as ***bold italic***
        text = _EMPHASIS_RE.sub(r"\2", text)
    text = html.unescape(text)
    return " ".join(text.split())[:_MAX_TITLE].strip()


def _fence_after(line: str, fence: str | None) -> tuple[bool, str | None]:
    """Whether ``line`` is a code fence marker, and the fence open after it (None: outside code)."""
    m = _FENCE_RE.match(line)
    if not m:
        return False, fence
    marker = m.group(1)
    if fence is None:
        return True, marker[0] * 3
    if marker.startswith(fence):
        return True, None
    return True, fence


def _html_heading_at(lines: list[str], i: int) -> tuple[int, str, int] | None:
    """An HTML heading starting on line ``i`` (it may span lines): (level, text, lines it takes)."""
    chunk = "\n".join(lines[i : i + 30])
    hm = _HTML_HEADING_RE.search(chunk)
    if hm and not chunk[: hm.start()].strip("\n").count("\n"):
        return int(hm.group(1)), clean_inline(hm.group(2)), chunk[: hm.end()].count("\n") + 1
    return None


def _underlined_heading(line: str, nxt: str) -> tuple[int, str, int] | None:
    """A Setext or RST heading: ``line`` underlined by ``nxt``."""
    setext = _SETEXT_RE.match(nxt)
    if setext:
        return (1 if setext.group(1)[0] == "=" else 2), clean_inline(line), 2
    if _RST_ADORN_RE.match(nxt) and len(nxt.strip()) >= len(line.strip()):
        return (1 if nxt.strip()[0] in "=#*" else 2), clean_inline(line), 2
    return None


def _heading_at(lines: list[str], i: int) -> tuple[int, str, int] | None:
    """The heading starting on line ``i`` (outside code): (level, cleaned text, lines it takes)."""
    line = lines[i]
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    atx = _ATX_RE.match(line)
    if atx:
        return len(atx.group(1)), clean_inline(atx.group(2) or ""), 1
    if "<h" in line.lower():
        found = _html_heading_at(lines, i)
        if found is not None:
            return found
    # RST title with an overline: ====\nTitle\n====
    if _RST_ADORN_RE.match(line) and i + 2 < len(lines) and lines[i + 2].strip() == line.strip():
        if nxt.strip():
            return 1, clean_inline(nxt), 3
    prev_blank = i == 0 or not lines[i - 1].strip()
    if line.strip() and prev_blank and nxt.strip():
        return _underlined_heading(line, nxt)
    return None


def _headings(text: str) -> Iterator[tuple[int, str]]:
    """(level, cleaned text) of each heading, in document order."""
    lines = text.splitlines()
    fence: str | None = None
    i = 0
    while i < len(lines):
        is_fence, fence = _fence_after(lines[i], fence)
        found = None if is_fence or fence is not None else _heading_at(lines, i)
        if found is None:
            i += 1
            continue
        level, title, used = found
        yield level, title
        i += used


def readme_title(text: str) -> str | None:
    """The README's title (see the module docstring), or None when it has no heading."""
    first_any: str | None = None
    for level, title in _headings(text):
        if not title:
            continue
        if level == 1:
            return title
        if first_any is None:
            first_any = title
    return first_any
