"""Read GitHub REST API answers: search result pages, ``Link`` headers, README contents, errors.

Pure functions over decoded JSON and header text; no Scrapy, no I/O. They accept every shape the
API has sent since the search endpoint left beta (2014 bodies lack ``incomplete_results`` and
``topics``; 2012-era README answers lack ``html_url``), so a field GitHub stops sending becomes
``None`` rather than a crash.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)
#: GitHub's wording when a page lies past the result cap ("Only the first 1000 search results
#: are available"); the number is read, never assumed.
_CAP_RE = re.compile(r"only the first (\d+) search results", re.IGNORECASE)


@dataclass
class SearchPage:
    """One page of ``GET /search/repositories``."""

    total_count: int
    incomplete_results: bool
    items: list[dict[str, Any]] = field(default_factory=list)


def parse_link_header(value: str | bytes | None) -> dict[str, str]:
    """``rel`` -> URL from a ``Link`` header; an absent or empty header gives ``{}``."""
    if not value:
        return {}
    if isinstance(value, bytes):
        value = value.decode("latin-1")  # HTTP header bytes; GitHub's URLs are ASCII anyway
    # Imported here: requests (and urllib3 under it) is ~3 MB and 30 ms of every crawl process's
    # start-up, and only GitHub API responses carry Link headers.
    from requests.utils import parse_header_links  # noqa: PLC0415

    links: dict[str, str] = {}
    # requests' parser (behind ``Response.links``) reads RFC 8288 elements with quoted or bare
    # parameter values; one element may carry several space-separated rels (``rel="prev first"``).
    for link in parse_header_links(value):
        url = link.pop("url", "").strip()
        # Parameter names are case-insensitive (RFC 8288 3.), and requests keeps them as sent.
        rels = " ".join(v for k, v in link.items() if k.lower() == "rel")
        for name in rels.split() if url else ():
            links.setdefault(name.lower(), url)
    return links


def load_json(body: bytes | str) -> Any:
    """Decode a JSON body; raises ValueError with a short excerpt when it is not JSON."""
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        excerpt = body[:120] if isinstance(body, str) else body[:120].decode("utf-8", "replace")
        raise ValueError(f"not a JSON body ({exc}): {excerpt!r}") from None


def parse_search_page(data: Any) -> SearchPage:
    """A search answer's count, completeness flag and raw items; raises ValueError on other shapes."""
    if not isinstance(data, dict) or "items" not in data or not isinstance(data["items"], list):
        raise ValueError("not a search result: expected an object with an 'items' list")
    total = data.get("total_count")
    items = [it for it in data["items"] if isinstance(it, dict)]
    return SearchPage(
        total_count=int(total) if isinstance(total, int) else len(items),
        # 2014 bodies have no such key: they were complete or GitHub did not say.
        incomplete_results=bool(data.get("incomplete_results", False)),
        items=items,
    )


def as_int(value: Any) -> int:
    """An API number, 0 when missing or not a number."""
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def as_str(value: Any) -> str | None:
    """An API string, None when missing, empty or not a string."""
    return value if isinstance(value, str) and value != "" else None


def repo_key(raw: dict[str, Any]) -> str | None:
    """A repository's identity within one run: its numeric id, else its lower-cased full name."""
    if isinstance(raw.get("id"), int):
        return f"id:{raw['id']}"
    name = as_str(raw.get("full_name"))
    return f"name:{name.lower()}" if name else None


@dataclass
class Readme:
    """A README decoded from ``GET /repos/{owner}/{repo}/readme``."""

    text: str
    name: str | None
    html_url: str | None
    download_url: str | None
    sha: str | None


def parse_readme(data: Any) -> Readme:
    """Decode a README answer (base64 ``content`` with embedded newlines); ValueError if unusable."""
    if not isinstance(data, dict) or not isinstance(data.get("content"), str):
        raise ValueError("not a README answer: expected an object with a 'content' string")
    encoding = str(data.get("encoding") or "base64").lower()
    raw = data["content"]
    if encoding == "base64":
        try:
            # The API wraps base64 at 60 columns; b64decode drops the newlines (validate=False).
            blob = base64.b64decode(raw)
        except (binascii.Error, ValueError) as exc:
            raise ValueError(f"README content is not valid base64: {exc}") from None
        text = blob.decode("utf-8", errors="replace")
    elif encoding in {"utf-8", "utf8", "none", ""}:
        text = raw
    else:
        raise ValueError(f"README content has an unknown encoding {encoding!r}")
    links: dict[str, Any] = data["_links"] if isinstance(data.get("_links"), dict) else {}
    return Readme(
        text=text.lstrip("\ufeff"),
        name=as_str(data.get("name")) or as_str(data.get("path")),
        html_url=as_str(data.get("html_url")) or as_str(links.get("html")),
        download_url=as_str(data.get("download_url")),
        sha=as_str(data.get("sha")),
    )


def error_message(body: bytes | str) -> str:
    """GitHub's explanation from an error body: ``message`` plus each ``errors[].message``.

    Non-JSON bodies (a proxy's HTML page) give their first 200 characters, whitespace collapsed.
    """
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        return re.sub(r"\s+", " ", text).strip()[:200] or "(empty body)"
    if not isinstance(data, dict):
        return str(data)[:200]
    parts = [str(data["message"])] if data.get("message") else []
    for err in data.get("errors") or []:
        if isinstance(err, dict):
            detail = err.get("message") or " ".join(
                f"{k}={err[k]}" for k in ("resource", "field", "code") if err.get(k)
            )
            if detail:
                parts.append(str(detail))
        elif isinstance(err, str):
            parts.append(err)
    return ": ".join(parts) if parts else "(no message)"


def result_cap_from_message(message: str) -> int | None:
    """The result cap named by a 422 "Only the first N search results are available", if any."""
    m = _CAP_RE.search(message)
    return int(m.group(1)) if m else None


def is_rate_limit_message(message: str) -> bool:
    """True for GitHub's primary and secondary (formerly "abuse") rate-limit wordings."""
    text = message.lower()
    return "rate limit" in text or "abuse" in text
