"""Sizes and durations as users type and read them: ``20GB``, ``2h``, ``1.5 MB``, ``3m 20s``."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import Any

import pytimeparse

logger = logging.getLogger(__name__)

# A bare number is seconds (pytimeparse wants a unit); no sign, exponent, inf or nan.
_SECONDS_RE = re.compile(r"^\d+(?:\.\d+)?$")


def parse_duration(value: Any) -> float | None:
    """Seconds from ``90``, ``"90s"``, ``"15m"``, ``"6h"``, ``"7d"``, ``"2w"``; None/"never" -> None.

    Compound and spelled-out durations (``"1h30m"``, ``"3m 20s"``, ``"1 hour"``) are read by
    pytimeparse.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"expected a duration such as '6h' or '7d', got {value!r}")
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError("a duration cannot be negative")
        return float(value)
    if isinstance(value, timedelta):
        return value.total_seconds()
    text = str(value).strip().lower()
    if text in {"never", "none", "off", ""}:
        return None
    if _SECONDS_RE.match(text):
        return float(text)
    # Clock forms are refused: pytimeparse reads "1:30" as 90 seconds, where a user setting a
    # refresh interval may mean an hour and a half. Signs are refused like negative numbers.
    seconds = None if ":" in text or text[0] in "+-" else pytimeparse.parse(text)
    if seconds is None:
        raise ValueError(f"expected a duration such as '90s', '15m', '6h', '7d' or '1h30m', got {value!r}")
    return float(seconds)


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)
# Binary multiples, the way `du -h` and `df -h` count, so the limit matches what users measure.
_SIZE_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4, "p": 1024**5}


def parse_size(text: str) -> int:
    """Bytes from ``"20GB"``, ``"500M"``, ``"1.5TiB"``, ``"4096"`` (1 KB = 1024 bytes)."""
    m = _SIZE_RE.match(str(text))
    if not m or (m.group(3).lower() == "i"):
        raise ValueError(f"expected a size such as 500MB, 20GB or 1TB, got {text!r}")
    value = float(m.group(1)) * _SIZE_UNITS[m.group(2).lower()]
    if value < 1:
        raise ValueError(f"a size must be at least 1 byte, got {text!r}")
    return int(value)


def parse_positive_duration(text: str) -> float:
    """Seconds from ``"2h"``, ``"90s"``, ``"1.5d"``, ``"1h30m"``; zero, negative and "never" are refused."""
    seconds = parse_duration(text)
    if seconds is None or seconds <= 0:
        raise ValueError(f"expected a duration such as 90s, 30m, 2h, 7d or 1h30m, got {text!r}")
    return seconds


def format_size(n: float) -> str:
    """``1536`` -> ``"1.5 KB"`` (binary multiples, like parse_size)."""
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(n) < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def format_duration(seconds: float | None) -> str:
    """``3725`` -> ``"1h 2m"``; ``42.3`` -> ``"42s"``; None -> ``"never"``."""
    if seconds is None:
        return "never"
    s = max(0, int(round(seconds)))
    days, s = divmod(s, 86400)
    hours, s = divmod(s, 3600)
    minutes, s = divmod(s, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    if minutes:
        return f"{minutes}m {s}s"
    return f"{s}s"
