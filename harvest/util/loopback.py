"""One small HTTP server on loopback, for the demo sites, the tests and the benchmarks.

:class:`LoopbackServer` is a quiet, threaded HTTP/1.1 server bound to ``127.0.0.1`` (or a
given host) on a free port. Every request it receives (GET, HEAD or POST) is logged with its
arrival time, counted per path, and answered with the :class:`Reply` of
:meth:`LoopbackServer.resolve`: by default from a route table, paths mapped to a ``Reply`` or to
a function of the request; a subclass overrides ``resolve`` to answer in its own way. For
answers no ``Reply`` can describe, a subclass overrides :meth:`LoopbackServer.respond` instead,
which may return a function that writes to the request handler itself: that is how a server
sends half a body, resets the connection or drips bytes slowly.

A server runs in threads of the calling process: ``start()`` it (or use it as a context
manager), read ``base_url``, ``stop()`` it.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeAlias, TypeVar
from urllib.parse import urlsplit

logger = logging.getLogger(__name__)

#: Statuses whose answers carry no body (RFC 9110), whatever ``Content-Length`` says.
_BODILESS = frozenset({204, 304})


@dataclass
class Reply:
    """What a server answers: status, body, extra headers and the content type."""

    status: int = 200
    body: bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "text/html; charset=utf-8"

    def encoded(self) -> bytes:
        """The body as bytes (text is encoded as UTF-8)."""
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


@dataclass
class LoggedRequest:
    """One request the server received."""

    method: str
    #: The request target as sent: path and query string.
    path: str
    headers: dict[str, str]
    #: ``time.monotonic()`` when the request's headers had arrived.
    arrived: float = 0.0
    #: The request body (POST), empty otherwise.
    body: bytes = b""
    #: How many requests for this path (by :meth:`LoopbackServer.hit_key`) had arrived, this one included.
    nth: int = 1


#: Writes a whole answer to the handler (status line, headers, body) however it likes.
Writer: TypeAlias = Callable[[BaseHTTPRequestHandler], None]
#: What :meth:`LoopbackServer.respond` returns.
Answer: TypeAlias = Reply | Writer
#: A route: a fixed reply, or a function of the request.
Route: TypeAlias = Reply | Callable[[LoggedRequest], Reply]

_S = TypeVar("_S", bound="LoopbackServer")


def send_reply(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
    """Write ``reply`` to ``handler``: status, ``Content-Type``, its headers, ``Content-Length``, body.

    The reply's own headers win over the defaults (a ``Content-Length`` among them is sent as
    given). No body is written for HEAD requests, nor for 204 and 304.
    """
    body = reply.encoded()
    handler.send_response(reply.status)
    headers = {"Content-Type": reply.content_type, **reply.headers}
    for key, value in headers.items():
        handler.send_header(key, value)
    if not any(key.lower() == "content-length" for key in headers):
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if handler.command != "HEAD" and reply.status not in _BODILESS:
        handler.wfile.write(body)


class QuietHTTPServer(ThreadingHTTPServer):
    """A threaded HTTP server that neither prints errors nor keeps the process alive.

    Connections that a client drops, or that a handler resets on purpose, are expected on a
    test server: they are not reported.
    """

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], owner: LoopbackServer) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.owner = owner
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Say nothing: see the class docstring."""


class _Handler(BaseHTTPRequestHandler):
    """Hands every request to the :class:`LoopbackServer` that owns the socket server."""

    protocol_version = "HTTP/1.1"
    server: QuietHTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Log nothing (the server keeps its own request log)."""

    def _serve(self) -> None:
        self.server.owner.serve(self)

    do_GET = _serve  # noqa: N815
    do_HEAD = _serve  # noqa: N815
    do_POST = _serve  # noqa: N815


class LoopbackServer:
    """A threaded HTTP server on ``host``:<free port> with a route table and a request log.

    Routes map a path (with its query string, or without it as a fallback) to a :class:`Reply`
    or to a function of the :class:`LoggedRequest`; unknown paths answer 404. ``requests`` logs
    every request received, ``hits`` counts them per :meth:`hit_key`, so callers can check what
    was (or was not) fetched, and how often. ``delay`` seconds pass before each answer, as a
    real site's latency would; ``peak_in_flight`` is the most requests answered at once.
    """

    def __init__(self, host: str = "127.0.0.1", *, delay: float = 0.0, name: str = "loopback") -> None:
        self.name = name
        self.delay = delay
        self.routes: dict[str, Route] = {}
        self.requests: list[LoggedRequest] = []
        self.hits: Counter[str] = Counter()
        self.in_flight = 0
        self.peak_in_flight = 0
        self._lock = threading.Lock()
        self.httpd = QuietHTTPServer((host, 0), self)
        self.host = host
        self.port = int(self.httpd.server_address[1])
        self.base_url = f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name=name, daemon=True)

    # --- answering ---------------------------------------------------------------------------
    def resolve(self, request: LoggedRequest) -> Reply:
        """The reply to ``request``: its route's, or 404 (subclasses answer their own way)."""
        route = self.routes.get(request.path)
        if route is None:
            route = self.routes.get(urlsplit(request.path).path)
        if route is None:
            return Reply(404, "not found", content_type="text/plain")
        return route(request) if callable(route) else route

    def respond(self, request: LoggedRequest) -> Answer:
        """The answer to ``request``: :meth:`resolve`'s reply, unless a subclass writes its own."""
        return self.resolve(request)

    def hit_key(self, request: LoggedRequest) -> str:
        """What ``hits`` counts ``request`` under: its path as sent, query string included."""
        return request.path

    def serve(self, handler: BaseHTTPRequestHandler) -> None:
        """Log, wait ``delay`` and answer one request (in the handler's thread)."""
        request = self._arrive(handler)
        try:
            if self.delay:
                time.sleep(self.delay)
            try:
                answer = self.respond(request)
            except Exception:  # a bug in one answer must answer 500, not kill the server thread
                logger.exception("%s server failed on %s %s", self.name, request.method, request.path)
                answer = Reply(500, "internal error", content_type="text/plain")
            if isinstance(answer, Reply):
                send_reply(handler, answer)
            else:
                answer(handler)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _arrive(self, handler: BaseHTTPRequestHandler) -> LoggedRequest:
        arrived = time.monotonic()
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length > 0 else b""
        request = LoggedRequest(handler.command, handler.path, dict(handler.headers.items()), arrived, body)
        key = self.hit_key(request)
        with self._lock:
            self.requests.append(request)
            self.hits[key] += 1
            request.nth = self.hits[key]
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        return request

    # --- the route table ---------------------------------------------------------------------
    def add(self, path: str, reply: Route) -> None:
        """Answer ``path`` (with or without a query string) with ``reply``."""
        self.routes[path] = reply

    def add_file(self, path: str, file: Path, content_type: str = "text/html; charset=utf-8") -> None:
        """Answer ``path`` with the bytes of ``file``."""
        self.routes[path] = Reply(body=file.read_bytes(), content_type=content_type)

    # --- the log -----------------------------------------------------------------------------
    def paths_requested(self) -> list[str]:
        """The path (with query) of every request received, in order of arrival."""
        with self._lock:
            return [r.path for r in self.requests]

    def count(self, key: str) -> int:
        """How many requests arrived for ``key`` (a path, as :meth:`hit_key` makes it)."""
        with self._lock:
            return self.hits[key]

    def clear(self) -> None:
        """Forget the requests received so far (the log, the counts, the in-flight peak)."""
        with self._lock:
            self.requests.clear()
            self.hits.clear()
            self.peak_in_flight = self.in_flight

    # --- running -----------------------------------------------------------------------------
    def start(self: _S) -> _S:
        """Start serving in a daemon thread; returns the server itself."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port."""
        if self._thread.is_alive():
            self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self: _S) -> _S:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
