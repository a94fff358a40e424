"""The host a URL names, for URLs read from pages: any of them may not parse.

``urlsplit(url).hostname`` and ``urljoin`` raise ``ValueError`` on what a page may write in an ``href``: Vim's
help shows netrw's syntax as links (``ftp://[user@]host/path``, a bracketed "IPv6 address" that
is none), and a link or canonical such as ``http://[::1`` (unclosed). One such link ended the
page's parse: the page was lost and the crawl logged an ERROR.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit


def url_host(url: str) -> str:
    """``url``'s host in lower case; "" when it names none or does not parse."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def join_url(base: str, href: str) -> str | None:
    """``urljoin(base, href)``; None when either does not parse (``http://[user@]host/``)."""
    try:
        return urljoin(base, href)
    except ValueError:
        return None
