"""Announced waits and ``Retry-After``: what a crawl says it waits for, and for how long a server asks."""

from __future__ import annotations

import gc
import weakref
from email.utils import formatdate

import pytest
from scrapy.http import Response

from harvest.util import waits
from tests import get_crawler

NOW = 1_800_000_000.0


def _response(value: str | None) -> Response:
    headers = {} if value is None else {"Retry-After": value}
    return Response("http://127.0.0.1/api", status=429, headers=headers)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 7 ", 7.0),
        ("0", 0.0),
        ("-5", 0.0),  # never a wait into the past
        ("1.5", 1.5),
        (formatdate(NOW + 90, usegmt=True), 90.0),
        (formatdate(NOW - 600, usegmt=True), 0.0),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_in_seconds_or_as_an_http_date(value: str | None, seconds: float | None) -> None:
    assert waits.retry_after(_response(value), NOW) == seconds


def test_waits_are_listed_soonest_first_and_per_crawler() -> None:
    crawler, other = get_crawler(), get_crawler()
    crawler.stats.open_spider()
    waits.announce(crawler, "next-round", "waiting for the next round")
    waits.announce(crawler, "github/core", "waiting for the core limit", NOW + 300)
    waits.announce(crawler, "github/search", "waiting for the search limit", NOW + 30)
    assert [w.key for w in waits.current(crawler, NOW)] == ["github/search", "github/core", "next-round"]
    assert waits.current(other, NOW) == []
    # Announcing a key again replaces what it says and keeps when it began; one announcement counted.
    since = waits.current(crawler, NOW)[0].since
    waits.announce(crawler, "github/search", "still waiting for the search limit", NOW + 40)
    again = waits.current(crawler, NOW)[0]
    assert (again.text, again.until, again.since) == ("still waiting for the search limit", NOW + 40, since)
    assert crawler.stats.get_value("harvest/waits/announced") == 3
    waits.clear(crawler, "github/search")
    waits.clear(crawler, "never-announced")
    assert [w.key for w in waits.current(crawler, NOW)] == ["github/core", "next-round"]
    assert waits.current(crawler, NOW)[0].as_dict()["text"] == "waiting for the core limit"


def test_a_wait_long_past_its_end_is_presumed_forgotten() -> None:
    crawler = get_crawler()
    waits.announce(crawler, "k", "waiting", NOW)
    assert [w.key for w in waits.current(crawler, NOW + waits.STALE_AFTER)] == ["k"]
    assert waits.current(crawler, NOW + waits.STALE_AFTER + 1) == []


def test_a_finished_crawler_takes_its_waits_along() -> None:
    crawler = get_crawler()
    waits.announce(crawler, "k", "waiting")
    gone = weakref.ref(crawler)
    del crawler
    gc.collect()
    assert gone() is None  # the registry keeps no finished crawler alive
