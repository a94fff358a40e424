"""A fault-injecting HTTP server for reliability tests (127.0.0.1, port 0).

Each endpoint misbehaves in one way real servers do. Good pages sit around the bad ones, so a
test can assert that the crawl finished AND collected everything that could be collected.
Every request is logged (path and time) so tests can check what was fetched and how often.

Endpoints (all under ``/f/``):

- ``burst/<name>/<n>``: answers 503 (then 500, 502...) ``n`` times, then 200 with an article.
- ``429/<name>?retry_after=S``: 429 once (with ``Retry-After: S`` when given), then 200.
- ``reset/<name>``: sends headers and half the body, then resets the connection (RST).
- ``short/<name>``: promises a Content-Length longer than the body it sends, then closes.
- ``stall/<name>?seconds=S``: sends nothing for S seconds (past the download timeout).
- ``gzip-plain/<name>``: ``Content-Encoding: gzip`` on a plain body.
- ``gzip-double/<name>``: a body gzipped twice, announced as gzip once.
- ``charset-wrong/<name>``: latin-1 bytes announced as UTF-8; ``charset-missing/<name>``: no
  charset anywhere; ``invalid-utf8/<name>``: UTF-8 with invalid bytes.
- ``huge/<name>?mb=N``: an N MB body (default 50) announced by its Content-Length;
  ``huge-stream/<name>?mb=N``: the same without Content-Length (the size shows only while it
  streams, ended by closing the connection).
- ``loop/a`` <-> ``loop/b``: a redirect loop; ``chain/<i>``: a redirect chain of 30 hops.
- ``links/<n>``: an HTML page with ``n`` distinct links (default 100,000) to ``plain/l<i>``.
- ``plain/<name>``: a tiny page that is not an article (cheap to fetch, nothing to extract).
- ``sitemap-bad.xml``, ``feed-bad.xml``: malformed XML.
- ``/robots.txt``: ``Disallow: /`` when the server was built with ``robots_disallow_all``, and
  a ``Sitemap:`` line for each of ``sitemaps``.
- ``good/<name>``: a normal article page.
- ``/``: an index page linking to each of ``index_links`` (paths), with a feed link per ``feeds``.

Another server's pages can be made faulty too: ``pages`` serves given bodies at given paths,
``faults`` makes a path behave like one of the endpoints above, and ``upstream`` forwards every
other request (method, path, headers) to a real server such as tests/github_emulator.py.
"""

from __future__ import annotations

import gzip
import socket
import struct
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply, Writer, send_reply


def article_html(name: str, body: str = "", *, charset: str | None = "utf-8") -> str:
    """A small article page titled ``name`` with a paragraph of real-looking text."""
    meta = f'<meta charset="{charset}">' if charset else ""
    text = body or (
        f"This is the article called {name}. It has enough words to be extracted as the main "
        "content of the page by a boilerplate remover, which needs a few sentences to decide. "
        "Reliability matters: a crawler must keep going when servers misbehave around it."
    )
    return (
        f"<!doctype html><html><head>{meta}<title>{name}</title></head><body>"
        f"<article><h1>{name}</h1><p>{text}</p><p>{text}</p></article></body></html>"
    )


class FaultServer(LoopbackServer):
    """Threaded HTTP/1.1 server on 127.0.0.1 with the faulty endpoints listed above.

    Answers are written to the request handler itself (:meth:`respond` returns a writer), so
    that a fault can cut a body, reset the connection or hold it. ``hits`` counts requests per
    path with its query string; ``count(path)`` reads it.
    """

    def __init__(
        self,
        *,
        robots_disallow_all: bool = False,
        index_links: list[str] | None = None,
        feeds: list[str] | None = None,
        sitemaps: list[str] | None = None,
        pages: dict[str, tuple[bytes, str]] | None = None,
        faults: dict[str, str] | None = None,
        upstream: str | None = None,
    ) -> None:
        super().__init__(name="faults")
        self.robots_disallow_all = robots_disallow_all
        self.index_links = list(index_links or [])
        self.feeds = list(feeds or [])
        self.sitemaps = list(sitemaps or [])
        #: path (with query) -> (body, content type): good pages of another site (GitHub's).
        self.pages = dict(pages or {})
        #: path (with query) -> a fault endpoint (``/f/burst/x/2``) that path behaves like; its
        #: good answer is the path's entry in ``pages``.
        self.faults = dict(faults or {})
        #: base URL every request no fault or page claims is forwarded to
        self.upstream = upstream.rstrip("/") if upstream else None
        self._stall_release = threading.Event()

    # -- plumbing ------------------------------------------------------------------------------
    def stop(self) -> None:
        self._stall_release.set()
        super().stop()

    @property
    def log(self) -> list[tuple[float, str]]:
        """(arrival time, path) of every request, in order."""
        with self._lock:
            return [(r.arrived, r.path) for r in self.requests]

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    def requested(self) -> set[str]:
        """Every path requested, without query strings."""
        with self._lock:
            return {urlsplit(p).path for p in self.hits}

    def respond(self, request: LoggedRequest) -> Writer:
        return lambda h: self.handle(h, request.nth)

    @staticmethod
    def _send(
        h: BaseHTTPRequestHandler,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
        content_type: str = "text/html; charset=utf-8",
    ) -> None:
        sent = {k: v for k, v in (headers or {}).items() if v is not None}
        send_reply(h, Reply(status, body, sent, content_type))

    # -- routing -------------------------------------------------------------------------------
    def handle(self, h: BaseHTTPRequestHandler, count: int) -> None:
        own = self.pages.get(h.path)
        if h.path in self.faults:
            return self.fault(h, count, self.faults[h.path], own)
        if own is not None:
            return self._send(h, 200, own[0], content_type=own[1])
        if self.upstream is not None and not h.path.startswith("/f/"):
            return self._forward(h)
        return self.fault(h, count, h.path, None)

    def _forward(self, h: BaseHTTPRequestHandler) -> None:
        headers = {k: v for k, v in h.headers.items() if k.lower() not in {"host", "connection"}}
        request = urllib.request.Request(f"{self.upstream}{h.path}", headers=headers, method=h.command)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback only
                status, reply_headers, body = answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as exc:
            status, reply_headers, body = exc.code, exc.headers, exc.read()
        h.send_response(status)
        for key, value in reply_headers.items():
            if key.lower() not in {"content-length", "transfer-encoding", "connection", "date", "server"}:
                h.send_header(key, value)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def fault(  # noqa: C901
        self, h: BaseHTTPRequestHandler, count: int, target: str, own: tuple[bytes, str] | None
    ) -> None:
        """Answer as ``target`` (a path of this server) does; its good body is ``own`` if given."""
        parts = urlsplit(target)
        path, query = parts.path, parse_qs(parts.query)
        seg = path.strip("/").split("/")
        html = own[1] if own else "text/html; charset=utf-8"

        def page(name: str) -> bytes:
            return own[0] if own else article_html(name).encode()

        if path == "/robots.txt":
            lines = ["User-agent: *", "Disallow: /" if self.robots_disallow_all else "Disallow:"]
            lines += [f"Sitemap: {self.url(p)}" for p in self.sitemaps]
            return self._send(h, 200, ("\n".join(lines) + "\n").encode(), content_type="text/plain")
        if path == "/":
            feeds = "".join(
                f'<link rel="alternate" type="application/rss+xml" href="{p}">' for p in self.feeds
            )
            links = "".join(f'<a href="{p}">{p}</a>\n' for p in self.index_links)
            head = f"<head><title>index</title>{feeds}</head>"
            index = f"<!doctype html><html>{head}<body>{links}</body></html>"
            return self._send(h, 200, index.encode())
        if len(seg) < 2 or seg[0] != "f":
            return self._send(h, 404, b"not found", content_type="text/plain")
        kind, rest = seg[1], seg[2:]
        name = rest[0] if rest else "page"

        if kind == "good":
            return self._send(h, 200, page(name), content_type=html)
        if kind == "plain":
            return self._send(h, 200, f"<html><body><p>{name}</p></body></html>".encode())
        if kind == "burst":
            n = int(rest[1]) if len(rest) > 1 else 3
            if count <= n:
                status = (503, 500, 502)[(count - 1) % 3]
                return self._send(h, status, b"<h1>temporarily broken</h1>")
            return self._send(h, 200, page(name), content_type=html)
        if kind == "429":
            if count == 1:
                headers = {}
                if "retry_after" in query:
                    headers["Retry-After"] = query["retry_after"][0]
                return self._send(h, 429, b"slow down", headers, content_type="text/plain")
            return self._send(h, 200, page(name), content_type=html)
        if kind == "reset":
            body = page(name)
            h.send_response(200)
            h.send_header("Content-Type", html)
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body[: len(body) // 2])
            h.wfile.flush()
            # SO_LINGER 0 makes close() send a RST instead of a FIN: a reset mid-body.
            h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            h.connection.close()
            h.close_connection = True
            return None
        if kind == "short":
            body = page(name)
            h.send_response(200)
            h.send_header("Content-Type", html)
            h.send_header("Content-Length", str(len(body) + 5000))
            h.end_headers()
            h.wfile.write(body)
            h.wfile.flush()
            h.close_connection = True
            h.connection.shutdown(socket.SHUT_RDWR)
            return None
        if kind == "stall":
            seconds = float(query.get("seconds", ["30"])[0])
            self._stall_release.wait(seconds)
            return self._send(h, 200, page(name), content_type=html)
        if kind == "gzip-plain":
            return self._send(h, 200, page(name), {"Content-Encoding": "gzip"}, content_type=html)
        if kind == "gzip-double":
            body = gzip.compress(gzip.compress(page(name)))
            return self._send(h, 200, body, {"Content-Encoding": "gzip"}, content_type=html)
        if kind == "charset-wrong":
            text = article_html(name, "Café crème brûlée, naïve façade: déjà vu à Zürich.", charset=None)
            return self._send(h, 200, text.encode("latin-1"), content_type="text/html; charset=utf-8")
        if kind == "charset-missing":
            text = article_html(name, "Café crème brûlée, naïve façade: déjà vu à Zürich.", charset=None)
            return self._send(h, 200, text.encode("utf-8"), content_type="text/html")
        if kind == "invalid-utf8":
            body = article_html(name).encode().replace(b"enough", b"en\xff\xfeough")
            return self._send(h, 200, body)
        if kind == "huge":
            mb = int(query.get("mb", ["50"])[0])
            chunk = (b"<p>" + b"x" * 1017 + b"</p>\n") * 1024  # 1 MiB
            h.send_response(200)
            h.send_header("Content-Type", html)
            h.send_header("Content-Length", str(len(chunk) * mb))
            h.end_headers()
            try:
                for _ in range(mb):
                    h.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up at its size limit: that is the point
            return None
        if kind == "huge-stream":
            mb = int(query.get("mb", ["50"])[0])
            chunk = (b"<p>" + b"x" * 1017 + b"</p>\n") * 1024
            h.send_response(200)
            h.send_header("Content-Type", html)
            h.send_header("Connection", "close")
            h.end_headers()
            h.close_connection = True
            try:
                for _ in range(mb):
                    h.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return None
        if kind == "loop":
            other = "b" if name == "a" else "a"
            return self._send(h, 302, b"", {"Location": f"/f/loop/{other}"})
        if kind == "chain":
            i = int(name) if name.isdigit() else 0
            if i < 30:
                return self._send(h, 302, b"", {"Location": f"/f/chain/{i + 1}"})
            return self._send(h, 200, article_html("chain-end").encode())
        if kind == "links":
            n = int(name) if name.isdigit() else 100_000
            links = "".join(f'<a href="/f/plain/l{i}">l{i}</a>\n' for i in range(n))
            return self._send(h, 200, f"<html><body>{links}</body></html>".encode())
        if kind == "sitemap-bad.xml":
            body = b'<?xml version="1.0"?><urlset><url><loc>/f/good/s1</loc></url><url><loc>'
            return self._send(h, 200, body, content_type="application/xml")
        if kind == "feed-bad.xml":
            body = b'<?xml version="1.0"?><rss><channel><item><link>/f/good/r1</link></item><ite'
            return self._send(h, 200, body, content_type="application/rss+xml")
        return self._send(h, 404, b"not found", content_type="text/plain")
