"""The report's calendar: day and month axes without gaps, windows ending on the latest day."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from harvest.report.days import (
    MAX_DAYS,
    day_range,
    month_range,
    new_per_day_figure,
    one_day_note,
    window_start,
)
from harvest.report.records import load_dataset
from tests.report.conftest import DAYS, DemoRounds


def _consecutive(days: list[str]) -> bool:
    parsed = [date.fromisoformat(d) for d in days]
    return all(b - a == timedelta(days=1) for a, b in zip(parsed, parsed[1:], strict=False))


@pytest.mark.parametrize(
    "seen",
    [
        ["2024-02-27", "2024-03-02", "2024-02-27"],  # a leap day in between
        ["2025-12-30", "2026-01-02"],  # a new year
        ["2026-12-09"],
    ],
)
def test_a_day_axis_holds_every_day_from_the_first_to_the_last(seen: list[str]) -> None:
    days = day_range(seen)
    first, last = min(seen), max(seen)
    assert days[0] == first and days[-1] == last and set(seen) <= set(days)
    assert _consecutive(days)
    assert len(days) == (date.fromisoformat(last) - date.fromisoformat(first)).days + 1


def test_a_day_axis_keeps_the_most_recent_days_and_skips_what_is_not_a_day() -> None:
    days = day_range(["2023-01-01", "2024-12-31", "2024-06", "", "2024-06-01T10:00:00Z"])
    assert len(days) == MAX_DAYS and days[-1] == "2024-12-31" and _consecutive(days)
    assert days[0] == window_start("2024-12-31", MAX_DAYS)
    assert day_range(["2024-06", ""]) == []
    assert len(day_range(["2024-01-01", "2024-01-31"], limit=7)) == 7


@pytest.mark.parametrize(
    ("latest", "length"), [("2026-12-09", 7), ("2026-01-03", 7), ("2024-03-01", 30), ("2026-12-09", 1)]
)
def test_a_window_of_n_days_ends_on_the_latest_day(latest: str, length: int) -> None:
    start = window_start(latest, length)
    assert len(day_range([start, latest])) == length
    assert start <= latest


def test_a_month_axis_crosses_the_year_with_its_empty_months() -> None:
    assert month_range(["2026-02", "2025-11", "2025-11-20"]) == ["2025-11", "2025-12", "2026-01", "2026-02"]
    assert month_range(["not a month", ""]) == []


def test_only_a_single_day_gets_the_one_day_note() -> None:
    assert one_day_note([]) == "" and one_day_note(["2026-12-01", "2026-12-02"]) == ""
    assert "2026-12-01" in one_day_note(["2026-12-01"])


def test_new_repositories_count_on_their_first_day_of_real_rounds(demo_rounds: DemoRounds) -> None:
    observations = load_dataset(demo_rounds.data).trending
    days = day_range(o.day for o in observations)
    # Rounds on the 1st, 8th and 9th: the axis has the days between, with nothing new on them.
    assert days[0] == DAYS[0][:10] and days[-1] == DAYS[-1][:10] and len(days) == 9
    figure = new_per_day_figure("new", "New", ((o.repo, o.day) for o in observations), days)
    counts = {str(day): int(str(count)) for day, count in figure.table.rows}
    first_seen: dict[str, str] = {}
    for o in sorted(observations, key=lambda o: o.day):
        first_seen.setdefault(o.repo, o.day)
    assert sum(counts.values()) == len(first_seen)  # each repository counted once
    # The demo served the same repositories every day: all are new on the first one.
    assert counts[DAYS[0][:10]] == len(first_seen) and not any(counts[d] for d in days[1:])
    assert figure.chart is not None and figure.chart.categories == days
