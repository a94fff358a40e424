"""Content hashes and timestamps shared by spiders and the dedup pipeline."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import datetime, timezone

_WS_RE = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """Text as a reader sees it: NFC, line endings and runs of whitespace collapsed, trimmed.

    Two copies of a document that differ only in bytes (CRLF, trailing spaces, re-wrapped
    whitespace, composed vs decomposed accents) normalize to the same string.
    """
    text = unicodedata.normalize("NFC", text)
    return _WS_RE.sub(" ", text).strip()


def content_hash(text: str) -> str:
    """sha256 hex of the normalized text: the identity of a document's content."""
    return hashlib.sha256(normalize_text(text).encode("utf-8")).hexdigest()


def utc_now() -> str:
    """Current UTC time as ISO 8601 with a Z suffix, second precision."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
