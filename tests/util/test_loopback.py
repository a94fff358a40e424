"""harvest.util.loopback: the one loopback HTTP server of the demo, the tests and the benchmarks."""

from __future__ import annotations

import http.client
import socket
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply, Writer
from tests import wait_for
from tests.servers import loopback_server, serve_tree


def fetch(url: str, method: str = "GET", data: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one request (HTTP errors included)."""
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - loopback only
            return answer.status, dict(answer.headers.items()), answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read()


def test_routes_by_path_then_without_query_and_404_otherwise(tmp_path: Path) -> None:
    page = tmp_path / "page.xml"
    page.write_bytes(b"<x/>")
    with loopback_server() as server:
        server.add("/a", Reply(body="plain a"))
        server.add("/a?x=1", Reply(201, b"exact", {"X-Test": "yes"}, "text/plain"))
        server.add("/who", lambda request: Reply(body=request.method))
        server.add_file("/page.xml", page, "application/xml")
        assert server.base_url == f"http://127.0.0.1:{server.port}"
        assert fetch(server.base_url + "/a?x=2")[2] == b"plain a"
        status, headers, body = fetch(server.base_url + "/a?x=1")
        assert (status, headers["X-Test"], headers["Content-Type"], body) == (
            201,
            "yes",
            "text/plain",
            b"exact",
        )
        assert fetch(server.base_url + "/who", "POST", b"payload")[2] == b"POST"
        status, headers, body = fetch(server.base_url + "/page.xml")
        assert (headers["Content-Type"], headers["Content-Length"], body) == ("application/xml", "4", b"<x/>")
        assert fetch(server.base_url + "/nowhere")[0] == 404
    assert server.paths_requested() == ["/a?x=2", "/a?x=1", "/who", "/page.xml", "/nowhere"]
    assert server.requests[2].body == b"payload"


def test_head_and_304_send_no_body() -> None:
    with loopback_server() as server:
        server.add("/", Reply(body="twelve bytes"))
        server.add("/same", Reply(304, "", {"ETag": '"e"'}))
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        # One keep-alive connection: a stray body would be read as the next answer's status line.
        for method, path in (("HEAD", "/"), ("GET", "/same"), ("GET", "/")):
            conn.request(method, path)
            answer = conn.getresponse()
            body = answer.read()
            if method == "HEAD":
                assert (answer.status, answer.headers["Content-Length"], body) == (200, "12", b"")
            elif path == "/same":
                assert (answer.status, answer.headers["ETag"], body) == (304, '"e"', b"")
            else:
                assert (answer.status, body) == (200, b"twelve bytes")
        conn.close()


def test_log_counts_and_arrival_times_under_concurrency() -> None:
    with LoopbackServer(delay=0.2) as server:
        server.add("/slow", Reply(body="ok"))
        before = time.monotonic()
        threads = [threading.Thread(target=fetch, args=(server.base_url + "/slow",)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        after = time.monotonic()
        assert server.count("/slow") == 8
        assert sorted(r.nth for r in server.requests) == list(range(1, 9))
        assert all(before <= r.arrived <= after for r in server.requests)
        assert server.peak_in_flight > 1  # answered in parallel (an event, not a duration)
        # The server counts a request done after its last byte went out, which the client may
        # see first: wait for the count (the guard only catches a hang).
        wait_for(lambda: server.in_flight == 0, "every request counted done", guard=10)
        server.clear()
        assert (server.requests, server.count("/slow"), server.peak_in_flight) == ([], 0, 0)


def test_a_failing_route_answers_500_and_the_server_goes_on() -> None:
    def broken(request: LoggedRequest) -> Reply:
        raise RuntimeError("a bug in a page")

    with loopback_server() as server:
        server.add("/broken", broken)
        server.add("/fine", Reply(body="fine"))
        assert fetch(server.base_url + "/broken")[0] == 500
        assert fetch(server.base_url + "/fine")[::2] == (200, b"fine")


class _Cutting(LoopbackServer):
    """Promises 100 bytes, sends 10 and closes: a writer takes over the socket."""

    def respond(self, request: LoggedRequest) -> Reply | Writer:
        if request.path != "/cut":
            return super().respond(request)

        def write(handler: BaseHTTPRequestHandler) -> None:
            handler.send_response(200)
            handler.send_header("Content-Length", "100")
            handler.end_headers()
            handler.wfile.write(b"0123456789")
            handler.wfile.flush()
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)

        return write


def test_a_writer_controls_the_socket_and_hit_key_is_overridable() -> None:
    class Counting(_Cutting):
        def hit_key(self, request: LoggedRequest) -> str:
            return request.path.split("?")[0]

    with Counting() as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/cut")
        answer = conn.getresponse()
        with pytest.raises(http.client.IncompleteRead) as cut:
            answer.read()
        assert cut.value.partial == b"0123456789"
        conn.close()
        fetch(server.base_url + "/cut?again=1")
        assert server.count("/cut") == 2
        assert server.hits == {"/cut": 2}


def test_stop_frees_the_port_and_is_safe_twice() -> None:
    server = LoopbackServer()
    server.stop()  # never started: returns at once
    with LoopbackServer() as server:
        port = server.port
    server.stop()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass


def test_ipv6_host() -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    try:
        server = LoopbackServer("::1")
    except OSError:
        pytest.skip("no ::1 here")
    with server:
        server.add("/", Reply(body="six"))
        assert server.base_url == f"http://[::1]:{server.port}"
        assert fetch(server.base_url + "/")[2] == b"six"


def test_serve_tree_redirects_a_utf8_folder_with_its_location_percent_encoded(tmp_path: Path) -> None:
    """nanoc writes a tag's page as /tags/日本語/index.html and links /tags/日本語: the server
    answers the path without its slash with a 301 to the folder. A header is Latin-1, so the
    Location was a UnicodeEncodeError that dropped the connection (the crawl's "Gave up
    retrying"); nginx sends it percent-encoded, and so does serve_tree."""
    folder = tmp_path / "tags" / "日本語"
    folder.mkdir(parents=True)
    (folder / "index.html").write_bytes(b"<html><body>tag</body></html>")
    with loopback_server() as server:
        serve_tree(server, tmp_path)
        # A client sends the path percent-encoded (tests.devsites.serve_site adds these names).
        quoted = "/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E"
        server.add(quoted, server.routes["/tags/日本語"])
        server.add(quoted + "/", server.routes["/tags/日本語/"])
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", quoted)
        answer = conn.getresponse()
        assert answer.status == 301
        assert answer.getheader("Location") == server.base_url + quoted + "/"
        conn.close()
        status, _, body = fetch(server.base_url + quoted)  # the redirect followed
        assert (status, body) == (200, b"<html><body>tag</body></html>")
