"""harvest's HTTP download handler: response headers bounded in bytes and in number.

Each test downloads real answers of a loopback server with the handler itself, in a child
process that runs the Twisted reactor a crawl runs (the test process keeps no reactor). The
crawl-level behaviour (a page failing in a real ``scrapy crawl``, memory) is in
tests/faults/test_hostile_servers.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from harvest import settings as project_settings
from harvest.util.loopback import LoggedRequest, LoopbackServer, Writer
from tests import PROJECT_ROOT

MAX_BYTES = project_settings.HARVEST_DOWNLOAD_MAX_HEADER_BYTES
MAX_HEADERS = project_settings.HARVEST_DOWNLOAD_MAX_HEADERS
BODY = b"<html><body><p>the body</p></body></html>"

_SCRIPT = """
import json, sys
from scrapy.utils.reactor import install_reactor
install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
from twisted.internet import reactor
from scrapy import Request
from scrapy.utils.defer import deferred_from_coro
from tests import get_crawler
from harvest.middlewares.download_handler import BoundedHttpDownloadHandler

urls, settings = json.loads(sys.argv[1]), json.loads(sys.argv[2])
report = {}

async def main():
    crawler = get_crawler(settings={"TWISTED_REACTOR_ENABLED": True, **settings})
    handler = BoundedHttpDownloadHandler(crawler)
    results = []
    for url in urls:
        try:
            response = await handler.download_request(Request(url, meta={"download_timeout": 20}))
        except Exception as exc:
            results.append({"error": type(exc).__name__, "message": str(exc)})
        else:
            headers = {k.decode(): [v.decode() for v in vs] for k, vs in response.headers.items()}
            results.append({"status": response.status, "headers": headers, "body": response.text})
    await handler.close()
    report.update(results=results, stats=crawler.stats.get_stats())

deferred_from_coro(main()).addBoth(lambda result: (reactor.stop(), result)[1])
reactor.run()
print(json.dumps(report))
"""


class _RawServer(LoopbackServer):
    """Answers each path with the raw bytes given for it, then closes the connection."""

    def __init__(self) -> None:
        super().__init__(name="raw")
        self.raw: dict[str, bytes] = {}

    def respond(self, request: LoggedRequest) -> Writer:
        data = self.raw[request.path]

        def write(h: BaseHTTPRequestHandler) -> None:
            h.close_connection = True
            try:
                h.wfile.write(data)
            except OSError:
                pass  # the client stopped reading at its bound

        return write


@pytest.fixture
def server() -> Iterator[_RawServer]:
    with _RawServer() as srv:
        yield srv


def _answer(headers: list[tuple[str, str]], *, interim: bytes = b"", body: bytes = BODY) -> bytes:
    fields = [f"{k}: {v}".encode() for k, v in headers]
    lines = [b"HTTP/1.1 200 OK", *fields, b"Content-Length: %d" % len(body)]
    return interim + b"\r\n".join(lines) + b"\r\n\r\n" + body


def _download(server: _RawServer, paths: list[str], **settings: Any) -> tuple[list[Any], dict[str, Any]]:
    urls = [server.base_url + p for p in paths]
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT, json.dumps(urls), json.dumps(settings)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    return report["results"], report["stats"]


def test_a_large_real_header_section_under_the_bounds_is_read_whole(server: _RawServer) -> None:
    # 99 headers and ~60 KB (the bounds: 100 and 64 KB), Set-Cookie repeated as sites do.
    headers = [("Content-Type", "text/html")] + [("Set-Cookie", f"c{i}={'v' * 580}") for i in range(97)]
    server.raw["/big"] = _answer(headers)
    assert sum(len(k) + len(v) + 4 for k, v in headers) > 56 * 1024
    [result], stats = _download(server, ["/big"])
    assert result.get("status") == 200, result
    assert result["body"] == BODY.decode()
    assert len(result["headers"]["Set-Cookie"]) == 97
    assert "harvest/download/headers_too_large" not in stats


def test_one_header_more_than_the_count_bound_fails_the_page(server: _RawServer) -> None:
    at_bound = [(f"X-H{i}", "v") for i in range(MAX_HEADERS - 1)]  # + Content-Length
    server.raw["/at"] = _answer(at_bound)
    server.raw["/over"] = _answer([*at_bound, ("X-One-More", "v")])
    at, over = _download(server, ["/at", "/over"])[0]
    assert at.get("status") == 200, at
    assert over == {
        "error": "ResponseHeadersTooLarge",
        "message": f"more than {MAX_HEADERS} response headers (HARVEST_DOWNLOAD_MAX_HEADERS)",
    }


def test_headers_past_the_byte_bound_fail_the_page(server: _RawServer) -> None:
    bound = 4096
    server.raw["/under"] = _answer([("X-Pad", "a" * (bound - 200))])
    server.raw["/over"] = _answer([("X-Pad", "a" * (bound - 200)), ("X-More", "b" * 300)])
    # One line longer than the whole bound (Twisted alone would drop the connection at 16 KB).
    server.raw["/line"] = _answer([("X-Long", "c" * (bound * 4))])
    results, stats = _download(server, ["/under", "/over", "/line"], HARVEST_DOWNLOAD_MAX_HEADER_BYTES=bound)
    assert results[0].get("status") == 200, results[0]
    message = f"response headers of more than {bound} bytes (HARVEST_DOWNLOAD_MAX_HEADER_BYTES)"
    assert results[1] == {"error": "ResponseHeadersTooLarge", "message": message}
    assert results[2] == {"error": "ResponseHeadersTooLarge", "message": message}
    assert stats["harvest/download/headers_too_large"] == 2


def test_a_header_line_over_twisteds_16_kb_but_under_the_bound_is_read(server: _RawServer) -> None:
    # A long Content-Security-Policy or cookie: browsers read it, and the bound is the section's.
    server.raw["/csp"] = _answer([("Content-Security-Policy", "default-src " + "x" * 20_000)])
    [result], _ = _download(server, ["/csp"])
    assert result.get("status") == 200, result
    assert len(result["headers"]["Content-Security-Policy"][0]) > 20_000


def test_interim_answers_count_toward_the_bounds(server: _RawServer) -> None:
    hint = b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
    server.raw["/two"] = _answer([("X-Real", "yes")], interim=b"HTTP/1.1 100 Continue\r\n\r\n" + hint)
    # Each interim answer is complete and small: only a bound over all of them stops a series.
    server.raw["/many"] = _answer([("X-Real", "yes")], interim=hint * 2000)
    two, many = _download(server, ["/two", "/many"])[0]
    assert two.get("status") == 200 and two["headers"]["X-Real"] == ["yes"], two
    assert "Link" not in two["headers"]  # the interim answer's headers are not the page's
    assert many.get("error") == "ResponseHeadersTooLarge", many


def test_a_failed_page_leaves_the_next_download_of_its_host_alone(server: _RawServer) -> None:
    server.raw["/over"] = _answer([(f"X-H{i}", "v") for i in range(MAX_HEADERS * 3)])
    server.raw["/fine"] = _answer([("X-Fine", "yes")])
    results, stats = _download(server, ["/over", "/fine", "/over", "/fine"])
    assert [r.get("error") or r["status"] for r in results] == ["ResponseHeadersTooLarge", 200] * 2
    assert stats["harvest/download/headers_too_large"] == 2


def test_the_bounds_are_settings(server: _RawServer) -> None:
    server.raw["/six"] = _answer([(f"X-H{i}", "v") for i in range(5)])
    [result], _ = _download(server, ["/six"], HARVEST_DOWNLOAD_MAX_HEADERS=5)
    assert result == {
        "error": "ResponseHeadersTooLarge",
        "message": "more than 5 response headers (HARVEST_DOWNLOAD_MAX_HEADERS)",
    }


def test_a_bound_of_zero_is_no_bound(server: _RawServer) -> None:
    # As DOWNLOAD_MAXSIZE=0 is. Twisted's own 16 KB line limit stays without a byte bound.
    server.raw["/many"] = _answer([(f"X-H{i}", "v" * 1000) for i in range(MAX_HEADERS * 2)])
    server.raw["/line"] = _answer([("X-Long", "c" * 20_000)])
    (many, line), stats = _download(
        server, ["/many", "/line"], HARVEST_DOWNLOAD_MAX_HEADERS=0, HARVEST_DOWNLOAD_MAX_HEADER_BYTES=0
    )
    assert many.get("status") == 200 and len(many["headers"]) == MAX_HEADERS * 2 + 1, many.keys()
    assert line.get("error") == "DownloadFailedError", line
    assert "harvest/download/headers_too_large" not in stats


def test_the_project_installs_the_bounded_handler_for_http_and_https() -> None:
    from tests import get_crawler

    handlers = get_crawler().settings.getwithbase("DOWNLOAD_HANDLERS")
    path = "harvest.middlewares.download_handler.BoundedHttpDownloadHandler"
    assert handlers["http"] == handlers["https"] == path
