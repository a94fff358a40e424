"""Natural keys of items: what makes two items "the same" for dedup, per item type.

Keys are computed from the item's fields as written to JSON Lines, so the same function serves
the dedup pipeline (on items) and the output reconciliation (on lines read back from disk).

- ``trending_repo``: repo, period, language filter, spoken language and the UTC day observed
  (one observation per page per day; the next day is a new observation).
- ``trending_developer``: username, period, language filter and the UTC day observed.
- ``repo``: repo, query and the UTC day observed.
- ``document``: canonical URL and content hash, so an unchanged body is never stored again
  while a changed body on a revisit is. The state stores a document by its content hash (with
  its URL), which answers both "this URL with this text" and "this text under another URL".
- ``page`` (a raw page, the blogs spider with extraction off): canonical URL and the sha256
  of the body, so a page is written again only when its bytes change.
- any other type: the whole record (minus the Markdown body), so only exact copies collapse.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from w3lib.url import canonicalize_url

from harvest.fingerprints import content_hash

logger = logging.getLogger(__name__)

#: Item keys are stored as 16-byte digests: a collision needs ~2^64 keys.
DIGEST_SIZE = 16


def _day(value: Any) -> str:
    """The UTC date part of an ISO 8601 timestamp (``2024-05-01T10:00:00Z`` -> ``2024-05-01``)."""
    text = str(value or "")
    return text[:10]


def _norm(value: Any) -> str:
    return "" if value is None else str(value).strip().lower()


def _trending_repo(r: Mapping[str, Any]) -> list[str]:
    return [
        _norm(r.get("repo")),
        _norm(r.get("since")),
        _norm(r.get("language_filter")),
        _norm(r.get("spoken_language")),
        _day(r.get("observed_at")),
    ]


def _trending_developer(r: Mapping[str, Any]) -> list[str]:
    return [
        _norm(r.get("username")),
        _norm(r.get("since")),
        _norm(r.get("language_filter")),
        _day(r.get("observed_at")),
    ]


def _repo(r: Mapping[str, Any]) -> list[str]:
    return [_norm(r.get("repo")), str(r.get("query") or ""), _day(r.get("observed_at"))]


def _document(r: Mapping[str, Any]) -> list[str]:
    return [canonical_url(str(r.get("url") or "")), document_hash(r)]


def _page(r: Mapping[str, Any]) -> list[str]:
    return [canonical_url(str(r.get("url") or "")), str(r.get("body_sha256") or "")]


_KEY_FIELDS: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "trending_repo": _trending_repo,
    "trending_developer": _trending_developer,
    "repo": _repo,
    "document": _document,
    "page": _page,
}


def canonical_url(url: str) -> str:
    """The URL with query arguments sorted and the fragment dropped (as Scrapy's fingerprints)."""
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def document_hash(record: Mapping[str, Any]) -> str:
    """The document's content hash: its ``content_hash`` field, else the hash of its content."""
    value = record.get("content_hash")
    if value:
        return str(value)
    return content_hash(str(record.get("content") or ""))


def item_key(record: Mapping[str, Any]) -> str:
    """Readable natural key of an item (a mapping of its fields), e.g. ``repo|owner/name|q|2024-05-01``."""
    item_type = str(record.get("type") or "item")
    fields = _KEY_FIELDS.get(item_type)
    if fields is None:
        body = {k: v for k, v in record.items() if k != "content"}
        parts = [hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()]
    else:
        parts = fields(record)
    return "|".join([item_type, *parts])


def key_digest(key: str) -> bytes:
    """The stored form of a key."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=DIGEST_SIZE).digest()


def is_document(record: Mapping[str, Any]) -> bool:
    """Whether the record is a stored document (has content identity beyond its key)."""
    return record.get("type") == "document"
