"""Durations and sizes as users type them (``7d``, ``1h30m``, ``20GB``) and read them back.

tests/runner/test_policy.py covers the fleet's flags (``parse_size``, ``parse_positive_duration``);
here the config's ``parse_duration``, which also takes numbers, "never" and timedeltas, and the
round trip of what the tables print.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from harvest.util.units import format_duration, format_size, parse_duration, parse_size


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("1d", 86_400),
        ("12h", 43_200),
        ("6H", 21_600),
        ("2w", 14 * 86_400),
        ("1h30m", 5_400),
        ("1 hour", 3_600),
        ("90", 90),
        ("1.5", 1.5),
        (90, 90),
        (0.25, 0.25),
        (timedelta(days=1, minutes=1), 86_460),
    ],
)
def test_a_duration_in_seconds(value: object, seconds: float) -> None:
    assert parse_duration(value) == seconds


@pytest.mark.parametrize("value", [None, "never", "Never", " off ", "none", ""])
def test_never_is_no_duration(value: object) -> None:
    assert parse_duration(value) is None


@pytest.mark.parametrize("value", [True, -1, "-5m", "+5m", "1:30", "soon", "1e3", "inf", "nan", "5 parsecs"])
def test_what_is_not_a_duration_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="duration"):
        parse_duration(value)


@pytest.mark.parametrize("seconds", [0, 42, 200, 3_720, 86_400, 3 * 86_400 + 5 * 3_600])
def test_a_printed_duration_reads_back(seconds: int) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


def test_a_printed_duration_rounds_and_drops_the_smallest_unit() -> None:
    assert format_duration(59.6) == "1m 0s"
    assert format_duration(-3) == "0s"
    assert parse_duration(format_duration(86_400 + 3_661)) == 86_400 + 3_600  # "1d 1h"


@pytest.mark.parametrize("n", [1, 1023, 1024, 1536, 10 * 1024**2, 5 * 1024**3 // 2])
def test_a_printed_size_reads_back(n: int) -> None:
    text = format_size(n)
    assert text.endswith(" B") == (n < 1024)
    assert parse_size(text.replace(" ", "")) == n
