"""harvest's HttpCompressionMiddleware on real bytes: real encodings, lying labels, cut streams."""

from __future__ import annotations

import gzip
import json
import logging
import zlib

import brotli
import pytest
from backports import zstd
from scrapy import Spider
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware as ScrapyCompression
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Headers, HtmlResponse, Request, Response, TextResponse
from scrapy.responsetypes import responsetypes

from harvest.middlewares.compression import HttpCompressionMiddleware, TruncatedBody
from tests import get_crawler
from tests.faultserver import article_html

HTML = article_html("p1").encode()
JSON = json.dumps({"name": "README.md", "content": "IyBIZWxsbwo=", "encoding": "base64"}).encode()
README = b"# harvest\n\nA README served as text/plain.\n"
LOGGER = "harvest.middlewares.compression"


def _raw_deflate(data: bytes) -> bytes:
    c = zlib.compressobj(wbits=-15)
    return c.compress(data) + c.flush()


ENCODERS = {
    "gzip": gzip.compress,
    "x-gzip": gzip.compress,
    "deflate": zlib.compress,
    "br": brotli.compress,
    "zstd": zstd.compress,
}


def _middleware(**settings: object) -> tuple[HttpCompressionMiddleware, object]:
    crawler = get_crawler(Spider, {"RETRY_TIMES": 2, **settings})
    crawler.spider = Spider.from_crawler(crawler, name="t")
    return HttpCompressionMiddleware.from_crawler(crawler), crawler


def _response(
    body: bytes,
    encoding: str,
    url: str = "http://127.0.0.1:8001/p",
    content_type: str = "text/html; charset=utf-8",
) -> tuple[Request, Response]:
    request = Request(url)
    # Headers, as the downloader passes them: from_args looks its keys up as bytes.
    headers = Headers({"Content-Type": content_type, "Content-Encoding": encoding})
    cls = responsetypes.from_args(headers=headers, url=url)
    return request, cls(url, body=body, headers=headers, request=request)


@pytest.mark.parametrize("encoding", list(ENCODERS))
def test_a_real_encoding_is_decoded_as_scrapy_decodes_it(encoding: str) -> None:
    mw, crawler = _middleware()
    body = ENCODERS[encoding](HTML)
    ours = mw.process_response(*_response(body, encoding))
    theirs = ScrapyCompression.from_crawler(crawler).process_response(*_response(body, encoding))  # type: ignore[arg-type]
    assert isinstance(ours, HtmlResponse)
    assert ours.body == theirs.body == HTML
    assert b"Content-Encoding" not in ours.headers
    assert crawler.stats.get_value("harvest/compression/mislabelled") is None  # type: ignore[attr-defined]


def test_raw_deflate_is_decoded() -> None:
    mw, _ = _middleware()
    request, response = _response(_raw_deflate(HTML), "deflate")
    assert mw.process_response(request, response).body == HTML


@pytest.mark.parametrize("encoding", list(ENCODERS))
@pytest.mark.parametrize(
    ("body", "content_type"),
    [(HTML, "text/html; charset=utf-8"), (JSON, "application/json"), (README, "text/plain; charset=utf-8")],
    ids=["html", "api-json", "readme"],
)
def test_a_plain_body_labelled_encoded_is_used_as_it_is(
    encoding: str, body: bytes, content_type: str
) -> None:
    mw, crawler = _middleware()
    scrapys = ScrapyCompression.from_crawler(crawler)  # type: ignore[arg-type]
    with pytest.raises(Exception):  # noqa: B017 - Scrapy's own middleware fails the page
        scrapys.process_response(*_response(body, encoding, content_type=content_type))
    request, response = _response(body, encoding, content_type=content_type)
    result = mw.process_response(request, response)
    assert isinstance(result, TextResponse)
    assert result.body == body
    assert result.text == body.decode()
    assert b"Content-Encoding" not in result.headers
    assert crawler.stats.get_value("harvest/compression/mislabelled") == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "body",
    [b"x^ starts like a zlib header but is text", b'{"fixed": "Huffman in raw deflate"}', b"hello"],
)
def test_plain_bodies_that_resemble_a_stream_are_kept(body: bytes) -> None:
    for encoding in ("deflate", "br"):
        mw, _ = _middleware()
        request, response = _response(body, encoding, content_type="text/plain")
        assert mw.process_response(request, response).body == body


def test_one_info_line_per_host_and_every_response_counted(caplog: pytest.LogCaptureFixture) -> None:
    mw, crawler = _middleware()
    urls = ["http://127.0.0.1:8001/a", "http://127.0.0.1:8001/b", "http://127.0.0.1:8002/c"]
    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        for url in urls:
            mw.process_response(*_response(HTML, "gzip", url))
    records = [r for r in caplog.records if r.name == LOGGER]
    assert [r.levelname for r in records] == ["INFO", "INFO"]
    assert [urls[0] in r.getMessage() for r in records] == [True, False]
    assert urls[2] in records[1].getMessage()
    assert crawler.stats.get_value("harvest/compression/mislabelled") == 3  # type: ignore[attr-defined]


def test_an_empty_body_is_not_mislabelled() -> None:
    mw, crawler = _middleware()
    request, response = _response(b"", "gzip")
    assert mw.process_response(request, response).body == b""
    assert crawler.stats.get_value("harvest/compression/mislabelled") is None  # type: ignore[attr-defined]


def test_only_the_layer_that_is_missing_is_skipped() -> None:
    # "br, gzip": br applied first, then gzip. Here only gzip was: the br label is the lie.
    mw, crawler = _middleware()
    request, response = _response(gzip.compress(HTML), "br, gzip")
    assert mw.process_response(request, response).body == HTML
    assert crawler.stats.get_value("harvest/compression/mislabelled") == 1  # type: ignore[attr-defined]


#: Fifty different articles in one body, each encoding's stream cut in half. (Brotli gives no
#: output before its first meta-block ends: a stream cut before that reads as "not brotli".)
_LONG = b"".join(article_html(f"p{i}").encode() for i in range(50))
TRUNCATED = {
    name: ENCODERS[name](_LONG)[: len(ENCODERS[name](_LONG)) // 2]
    for name in ("gzip", "deflate", "zstd", "br")
}


@pytest.mark.parametrize("encoding", list(TRUNCATED))
def test_a_truncated_stream_is_retried_then_fails(encoding: str, caplog: pytest.LogCaptureFixture) -> None:
    mw, crawler = _middleware()
    request, response = _response(TRUNCATED[encoding], encoding)
    for attempt in (1, 2):
        retry = mw.process_response(request, response)
        assert isinstance(retry, Request)
        assert retry.url == request.url and retry.meta["retry_times"] == attempt and retry.dont_filter
        request = retry
        response = _response(TRUNCATED[encoding], encoding)[1].replace(request=request)
    with caplog.at_level(logging.ERROR), pytest.raises(TruncatedBody, match=f"{encoding} body truncated"):
        mw.process_response(request, response)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].startswith("Gave up retrying"), errors
    stats = crawler.stats.get_stats()  # type: ignore[attr-defined]
    assert stats["harvest/compression/truncated"] == 3
    assert stats["retry/count"] == 2 and stats["retry/max_reached"] == 1
    assert "harvest/compression/mislabelled" not in stats


def test_a_truncated_gzip_with_dont_retry_fails_at_once() -> None:
    mw, _ = _middleware()
    request = Request("http://127.0.0.1:8001/p", meta={"dont_retry": True})
    response = _response(TRUNCATED["gzip"], "gzip")[1].replace(request=request)
    with pytest.raises(TruncatedBody):
        mw.process_response(request, response)


def test_the_size_limit_still_holds() -> None:
    mw, crawler = _middleware(DOWNLOAD_MAXSIZE=100_000, DOWNLOAD_WARNSIZE=50_000)
    bomb = gzip.compress(b"\0" * 1_000_000)
    with pytest.raises(IgnoreRequest, match="DOWNLOAD_MAXSIZE"):
        mw.process_response(*_response(bomb, "gzip"))
    # A plain body is measured by the downloader, not here: no false alarm from the fallback.
    assert mw.process_response(*_response(b"<p>" + b"x" * 60_000, "gzip")).body.startswith(b"<p>")
