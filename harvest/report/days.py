"""Calendar helpers of the report: day ranges, windows relative to the latest observation."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import date, timedelta

logger = logging.getLogger(__name__)

#: Longest run of days a time axis shows (the most recent ones): a year of daily rounds.
MAX_DAYS = 366


def day_range(days: Iterable[str], limit: int = MAX_DAYS) -> list[str]:
    """Every day from the first to the last of ``days`` (``YYYY-MM-DD``), the last ``limit`` of them."""
    parsed = sorted({date.fromisoformat(d) for d in days if len(d) == 10})
    if not parsed:
        return []
    first = max(parsed[0], parsed[-1] - timedelta(days=limit - 1))
    count = (parsed[-1] - first).days + 1
    return [(first + timedelta(days=i)).isoformat() for i in range(count)]


def window_start(latest_day: str, days: int) -> str:
    """The first day of the ``days``-day window that ends on ``latest_day`` (inclusive)."""
    return (date.fromisoformat(latest_day) - timedelta(days=days - 1)).isoformat()
