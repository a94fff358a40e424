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


def _headings(text: str) -> Iterator[tuple[int, str]]:
    """(level, cleaned text) of each heading, in document order."""
    lines = text.splitlines()
    fence: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FENCE_RE.match(line)
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
            i += 1
            continue
        if fence is not None:
            i += 1
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        atx = _ATX_RE.match(line)
        if atx:
            yield len(atx.group(1)), clean_inline(atx.group(2) or "")
            i += 1
            continue
        if "<h" in line.lower():
            # An HTML heading may span lines: read up to its closing tag.
            chunk = "\n".join(lines[i : i + 30])
            hm = _HTML_HEADING_RE.search(chunk)
            if hm and not chunk[: hm.start()].strip("\n").count("\n"):
                yield int(hm.group(1)), clean_inline(hm.group(2))
                i += chunk[: hm.end()].count("\n") + 1
                continue
        # RST title with an overline: ====\nTitle\n====
        if _RST_ADORN_RE.match(line) and i + 2 < len(lines) and lines[i + 2].strip() == line.strip():
            if nxt.strip():
                yield 1, clean_inline(nxt)
                i += 3
                continue
        prev_blank = i == 0 or not lines[i - 1].strip()
        if line.strip() and prev_blank and nxt.strip():
            setext = _SETEXT_RE.match(nxt)
            if setext:
                yield (1 if setext.group(1)[0] == "=" else 2), clean_inline(line)
                i += 2
                continue
            if _RST_ADORN_RE.match(nxt) and len(nxt.strip()) >= len(line.strip()):
                yield (1 if nxt.strip()[0] in "=#*" else 2), clean_inline(line)
                i += 2
                continue
        i += 1


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
