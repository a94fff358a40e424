"""Calendar helpers of the report: day ranges, windows relative to the latest observation, new per day."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from datetime import date, timedelta

from harvest.report.model import Chart, Figure, Series, Table

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


def month_range(months: Iterable[str]) -> list[str]:
    """Every month (``YYYY-MM``) from the first to the last of ``months``: empty ones included."""
    parsed = sorted({(int(m[:4]), int(m[5:7])) for m in months if len(m) >= 7 and m[4] == "-"})
    if not parsed:
        return []
    (year, month), last = parsed[0], parsed[-1]
    out = []
    while (year, month) <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def one_day_note(days: list[str]) -> str:
    """The note of a chart over ``days`` when there is only one: a single point is no trend."""
    if len(days) != 1:
        return ""
    return f"Only one day observed ({days[0]}): drawn as points; a trend needs two days or more."


def window_start(latest_day: str, days: int) -> str:
    """The first day of the ``days``-day window that ends on ``latest_day`` (inclusive)."""
    return (date.fromisoformat(latest_day) - timedelta(days=days - 1)).isoformat()


def new_per_day_figure(fid: str, title: str, sightings: Iterable[tuple[str, str]], days: list[str]) -> Figure:
    """Repositories new per day: ``sightings`` are (repository, day) pairs; each counts on its first day."""
    first: dict[str, str] = {}
    for repo, day in sightings:
        if repo not in first or day < first[repo]:
            first[repo] = day
    per_day = Counter(first.values())
    counts = [per_day.get(d, 0) for d in days]
    return Figure(
        fid,
        title,
        Table(["day", "new repositories"], [[d, c] for d, c in zip(days, counts, strict=True)]),
        Chart(
            "bar",
            days,
            [Series("new repositories", [float(c) for c in counts])],
            y_label="repositories",
            time_axis=True,
        ),
        note=one_day_note(days),
    )
