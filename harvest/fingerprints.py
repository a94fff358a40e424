"""Content hashes and timestamps shared by spiders and the dedup pipeline."""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Callable
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


def _system_clock() -> datetime:
    return datetime.now(timezone.utc)


def _clock_from_environment() -> Callable[[], datetime]:
    """``HARVEST_NOW`` (ISO 8601, e.g. ``2026-03-01T23:59:58Z``) fixes the clock, for tests."""
    fixed = os.environ.get("HARVEST_NOW")
    if not fixed:
        return _system_clock
    moment = datetime.fromisoformat(fixed.replace("Z", "+00:00")).astimezone(timezone.utc)
    return lambda: moment


#: The clock behind :func:`utc_now` (observation and fetch times); a test replaces it in-process,
#: or sets ``HARVEST_NOW`` for a crawl it runs as a subprocess.
clock: Callable[[], datetime] = _clock_from_environment()


def utc_now() -> str:
    """Current UTC time as ISO 8601 with a Z suffix, second precision."""
    return clock().replace(microsecond=0).isoformat().replace("+00:00", "Z")
