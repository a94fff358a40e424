"""The CDX API's answers and playback URLs, and the pages a capture may hold instead of a listing."""

from __future__ import annotations

import json
from datetime import date

import pytest

from harvest.parsers.trending import is_abuse_page, is_empty_listing, is_sign_in_page
from harvest.parsers.wayback import (
    Capture,
    archive_key,
    capture_time,
    cdx_query,
    day_stamp,
    memento_target,
    memento_url,
    parse_cdx,
)
from tests import OWN_FIXTURES, shared_fixture

HEADER = ["timestamp", "original", "statuscode", "digest", "mimetype"]


def test_cdx_rows_and_resume_key() -> None:
    body = json.dumps([
        HEADER,
        ["20210301120000", "https://github.com/trending", "200", "AAA", "text/html"],
        ["20210302083015", "https://github.com/trending", "200", "BBB", "text/html"],
        [],
        ["com,github)/trending 20210303000000"],
    ])  # fmt: skip
    page = parse_cdx(body.encode())
    assert page.captures == [
        Capture("20210301120000", "https://github.com/trending", "200", "AAA", "text/html"),
        Capture("20210302083015", "https://github.com/trending", "200", "BBB", "text/html"),
    ]
    assert page.resume_key == "com,github)/trending 20210303000000"
    assert page.captures[1].day == "20210302"


@pytest.mark.parametrize("body", [b"", b"[]", b"\n"])
def test_an_answer_without_captures_is_not_an_error(body: bytes) -> None:
    page = parse_cdx(body)
    assert page.captures == [] and page.resume_key is None


@pytest.mark.parametrize(
    "body",
    [
        b"<html>Bad gateway</html>",
        b'{"error": 1}',
        json.dumps([HEADER, ["2021", "x"]]).encode(),
        b'[["a","b"]]',
    ],
)
def test_what_is_not_a_cdx_answer_says_so(body: bytes) -> None:
    with pytest.raises(ValueError):
        parse_cdx(body)


def test_query_asks_the_archive_for_one_capture_a_day_in_the_window() -> None:
    url = cdx_query("http://a/cdx", "https://github.com/trending?since=weekly", day_stamp(date(2021, 1, 1)),
                    day_stamp(date(2021, 12, 31), end=True), limit=500, resume_key="k 1")  # fmt: skip
    assert url == (
        "http://a/cdx?url=https%3A%2F%2Fgithub.com%2Ftrending%3Fsince%3Dweekly&from=20210101000000"
        "&to=20211231235959&output=json&fl=timestamp%2Coriginal%2Cstatuscode%2Cdigest%2Cmimetype"
        "&filter=statuscode%3A200&collapse=timestamp%3A8&limit=500&showResumeKey=true&resumeKey=k+1"
    )


def test_memento_urls_and_capture_times() -> None:
    url = memento_url("http://a/web/", "20190511093000", "https://github.com/trending?since=weekly")
    assert url == "http://a/web/20190511093000id_/https://github.com/trending?since=weekly"
    assert memento_target(url) == ("20190511093000", "https://github.com/trending?since=weekly")
    assert memento_target("http://a/web/2019051109id_/http://github.com/login") == (
        "20190511090000",
        "http://github.com/login",
    )
    assert memento_target("http://a/about") is None
    assert capture_time("20190511093000") == "2019-05-11T09:30:00Z"
    with pytest.raises(ValueError):
        capture_time("2019")
    assert archive_key("http://www.GitHub.com:80/trending/") == archive_key("https://github.com/trending")


def test_abuse_and_sign_in_pages_are_told_apart_from_listings() -> None:
    whoa = (OWN_FIXTURES / "trending" / "whoa_there.html").read_text(encoding="utf-8")
    sign_in = (OWN_FIXTURES / "trending" / "sign_in.html").read_text(encoding="utf-8")
    assert is_abuse_page(whoa) and not is_sign_in_page(whoa) and not is_empty_listing(whoa)
    assert is_sign_in_page(sign_in) and not is_abuse_page(sign_in)
    for era in ("2015-09-10_d8dd61c/tests", "2019-05-11_7f9d151/testdata", "2022-04-09_8765a6f/testdata"):
        folder, sub = era.split("/")
        for name in ("github.com_trending.html", "github.com_trending_developers.html"):
            html = shared_fixture("trending", "go-trending", folder, sub, name).read_text(encoding="utf-8")
            assert not is_abuse_page(html) and not is_sign_in_page(html), (era, name)
    daily = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html").read_text(
        encoding="utf-8"
    )
    assert not is_abuse_page(daily) and not is_sign_in_page(daily)
