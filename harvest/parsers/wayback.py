"""The Wayback Machine's CDX API and playback URLs: pure functions, no network.

A CDX query (``<cdx>?url=...&from=...&to=...&output=json&fl=...``) answers a JSON array whose
first row names the fields and whose other rows are captures; with ``showResumeKey=true`` and a
``limit`` a page that has more to give ends with an empty row and a row holding the resume key
(passed back as ``resumeKey=`` for the next page). A capture's original bytes come from
``<web>/<timestamp>id_/<original>`` (``id_``: as captured, without the archive's toolbar and
rewritten links).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime, timezone
from urllib.parse import urlencode

#: The fields asked of the CDX API, in order.
CDX_FIELDS = ("timestamp", "original", "statuscode", "digest", "mimetype")
_TIMESTAMP = re.compile(r"^\d{14}$")
#: ``.../<timestamp><flags>/<original>`` in a playback URL (flags such as ``id_``).
_MEMENTO = re.compile(r"/(\d{4,14})([a-z]{2}_)?/(https?://.+|[^/]+\..+)$")


@dataclass(frozen=True)
class Capture:
    """One capture listed by the CDX API."""

    timestamp: str
    original: str
    statuscode: str
    digest: str
    mimetype: str

    @property
    def day(self) -> str:
        """The capture's UTC day, ``YYYYMMDD``."""
        return self.timestamp[:8]


@dataclass(frozen=True)
class CdxPage:
    """One answer of the CDX API: its captures and the key of the next page (None: the last)."""

    captures: list[Capture]
    resume_key: str | None


def day_stamp(day: date, *, end: bool = False) -> str:
    """A 14-digit timestamp: the first (or, with ``end``, the last) second of ``day`` (UTC)."""
    return day.strftime("%Y%m%d") + ("235959" if end else "000000")


def capture_time(timestamp: str) -> str:
    """``20210314093000`` -> ``2021-03-14T09:30:00Z`` (the archive's timestamps are UTC)."""
    if not _TIMESTAMP.match(timestamp):
        raise ValueError(f"not a 14-digit capture timestamp: {timestamp!r}")
    moment = datetime.strptime(timestamp, "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def cdx_query(
    cdx_url: str, page_url: str, start: str, end: str, *, limit: int, resume_key: str | None = None
) -> str:
    """The CDX query for the daily captures of ``page_url`` between two 14-digit timestamps."""
    params = [
        ("url", page_url),
        ("from", start),
        ("to", end),
        ("output", "json"),
        ("fl", ",".join(CDX_FIELDS)),
        ("filter", "statuscode:200"),
        # The archive's own collapse: one capture per day (timestamp's first 8 digits).
        ("collapse", "timestamp:8"),
        ("limit", str(limit)),
        ("showResumeKey", "true"),
    ]
    if resume_key:
        params.append(("resumeKey", resume_key))
    return f"{cdx_url}?{urlencode(params)}"


def parse_cdx(body: bytes | str) -> CdxPage:
    """The captures (and resume key) of a CDX JSON answer; ValueError if it is not one.

    An empty body or ``[]`` is an answer with no captures, not an error.
    """
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    if not text.strip():
        return CdxPage([], None)
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise ValueError("not a JSON array of rows")
    if not rows:
        return CdxPage([], None)
    header = [str(f) for f in rows[0]]
    missing = [f for f in ("timestamp", "original") if f not in header]
    if missing:
        raise ValueError(f"the header row lacks {', '.join(missing)}: {header}")
    captures: list[Capture] = []
    resume_key = None
    body_rows = rows[1:]
    for i, row in enumerate(body_rows):
        if not row:
            # An empty row, then the resume key in a row of its own.
            following = body_rows[i + 1] if i + 1 < len(body_rows) else []
            resume_key = str(following[0]) if following else None
            break
        fields = dict(zip(header, (str(v) for v in row), strict=False))
        timestamp = fields.get("timestamp", "")
        if not _TIMESTAMP.match(timestamp):
            raise ValueError(f"row {i + 2} has no 14-digit timestamp: {row}")
        captures.append(
            Capture(
                timestamp,
                fields.get("original", ""),
                fields.get("statuscode", ""),
                fields.get("digest", ""),
                fields.get("mimetype", ""),
            )
        )
    return CdxPage(captures, resume_key)


def memento_url(web_url: str, timestamp: str, original: str) -> str:
    """``<web>/<timestamp>id_/<original>``: the capture's bytes as the archive received them."""
    return f"{web_url.rstrip('/')}/{timestamp}id_/{original}"


def memento_target(url: str) -> tuple[str, str] | None:
    """``(timestamp, original)`` of a playback URL, or None when ``url`` is not one."""
    match = _MEMENTO.search(url)
    if match is None:
        return None
    stamp, _, original = match.groups()
    if len(stamp) < 14:
        stamp = stamp.ljust(14, "0")
    return stamp, original


def archive_key(url: str) -> str:
    """A URL as the CDX API matches it: no scheme, no ``www.``, lower-case host.

    ``https://github.com/trending?since=weekly`` and ``http://www.github.com/trending?since=weekly``
    are the same page to the archive.
    """
    rest = re.sub(r"^[a-z]+://", "", url.strip(), flags=re.IGNORECASE)
    host, sep, path = rest.partition("/")
    host = host.lower().removeprefix("www.").split(":")[0]
    return f"{host}{sep}{path}".rstrip("/")
