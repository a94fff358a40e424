"""Pages whose HTTP header says UTF-8 while their bytes are in a legacy single-byte encoding.

A server's default ``Content-Type: text/html; charset=utf-8`` (Apache's ``AddDefaultCharset``,
a CDN rule) often covers old pages saved in Latin-1 / Windows-1252. The header wins in Scrapy
(and in browsers), so every accented letter becomes U+FFFD: "Zürich" is stored as "Z\ufffdrich".

:func:`misdeclared_encoding` names the encoding to decode such a page with instead, and only
when the evidence is clear: the header's UTF-8 gave replacement characters, the page itself
declares no charset (or declares another one), and its bytes hold not a single valid UTF-8
multi-byte sequence. A UTF-8 page with a few corrupt bytes keeps UTF-8 (its invalid bytes read
as U+FFFD, as a browser shows them); so does a page whose ``<meta>`` confirms UTF-8.
"""

from __future__ import annotations

import codecs
import re

from scrapy.http import TextResponse
from w3lib.encoding import html_body_declared_encoding

#: A well-formed UTF-8 sequence of two to four bytes (RFC 3629).
_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xef][\x80-\xbf]{2}"
    rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
#: What WHATWG decodes "latin1" / "iso-8859-1" / no declaration as.
_LEGACY = "cp1252"


def _codec(name: str | None) -> str | None:
    try:
        return codecs.lookup(name).name if name else None
    except LookupError:
        return None


def misdeclared_encoding(response: TextResponse) -> str | None:
    """The encoding to read ``response`` with instead of its header's UTF-8, or None.

    Cheap for the usual page: one scan of the decoded text for U+FFFD.
    """
    if "\ufffd" not in response.text or _codec(response.encoding) != "utf-8":
        return None
    body = response.body
    declared = _codec(html_body_declared_encoding(body))
    if declared == "utf-8":
        return None
    if declared is not None:
        return declared
    if _UTF8_MULTIBYTE.search(body):
        return None
    return _LEGACY
