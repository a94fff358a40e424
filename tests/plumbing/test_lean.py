"""The blogs spider's cheaper stand-ins for Scrapy's meta-refresh and downloader-stats middlewares."""

from __future__ import annotations

from scrapy import Spider
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefresh
from scrapy.http import HtmlResponse, Request

from harvest.plumbing.lean import DownloaderStats, MetaRefreshMiddleware
from tests import get_crawler

_PAGE = "<html><head><title>t</title>{meta}</head><body><p>{body}</p></body></html>"
PAGES = {
    "plain": _PAGE.format(meta="", body="Nothing to see"),
    "refresh": _PAGE.format(meta='<meta http-equiv="Refresh" content="0; url=/moved/">', body="x"),
    "refresh, upper case": _PAGE.format(meta="<META HTTP-EQUIV=REFRESH CONTENT='1;URL=/m'>", body="x"),
    "word in text only": _PAGE.format(meta="", body="Press F5 to refresh the page"),
    "too slow to follow": _PAGE.format(meta='<meta http-equiv="refresh" content="600; url=/later">', body=""),
    "refresh past 4096 chars": _PAGE.format(
        meta="", body="x" * 5000 + '<meta http-equiv="refresh" content="0; url=/deep">'
    ),
}


def _outcome(result: object, response: HtmlResponse) -> str:
    if result is response:
        return "same response"
    assert isinstance(result, Request)
    return f"redirect to {result.url}"


def test_meta_refresh_answers_exactly_as_scrapys() -> None:
    crawler = get_crawler(Spider)
    ours = MetaRefreshMiddleware.from_crawler(crawler)
    theirs = ScrapyMetaRefresh.from_crawler(crawler)
    outcomes = {}
    for name, html in PAGES.items():
        request = Request("http://127.0.0.1/page")
        response = HtmlResponse(request.url, body=html.encode(), request=request, encoding="utf-8")
        mine = _outcome(ours.process_response(request, response), response)
        assert mine == _outcome(theirs.process_response(request, response), response), name
        outcomes[name] = mine
    assert outcomes["refresh"] == "redirect to http://127.0.0.1/moved/"
    assert outcomes["refresh, upper case"] == "redirect to http://127.0.0.1/m"
    assert outcomes["plain"] == outcomes["word in text only"] == "same response"


def test_downloader_stats_keep_the_counts() -> None:
    crawler = get_crawler(Spider)
    stats = DownloaderStats.from_crawler(crawler)
    for status in (200, 200, 404):
        request = Request("http://127.0.0.1/x")
        stats.process_request(request)
        stats.process_response(request, HtmlResponse(request.url, status=status, body=b"12345"))
    stats.process_exception(Request("http://127.0.0.1/y"), TimeoutError())
    got = crawler.stats.get_stats()
    assert got["downloader/request_count"] == 3
    assert got["downloader/request_method_count/GET"] == 3
    assert got["downloader/response_count"] == 3
    assert got["downloader/response_status_count/200"] == 2
    assert got["downloader/response_status_count/404"] == 1
    assert got["downloader/response_body_bytes"] == 15
    assert got["downloader/exception_type_count/builtins.TimeoutError"] == 1
