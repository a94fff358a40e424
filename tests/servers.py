"""Loopback HTTP servers for tests: 127.0.0.1, port 0, a route table and a request log."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Reply:
    """What a route answers."""

    status: int = 200
    body: bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "text/html; charset=utf-8"

    def encoded(self) -> bytes:
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


@dataclass
class LoggedRequest:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]


Handler = Callable[["LoggedRequest"], Reply]


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1:<free port>.

    Routes map a path (with query string, or without it as a fallback) to a Reply or to a
    function of the request. Unknown paths answer 404. ``requests`` logs everything received,
    so tests can assert on what was (or was not) fetched.
    """

    def __init__(self) -> None:
        self.routes: dict[str, Reply | Handler] = {}
        self.requests: list[LoggedRequest] = []
        self._lock = threading.Lock()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def _serve(self) -> None:
                logged = LoggedRequest(self.command, self.path, dict(self.headers.items()))
                with server._lock:
                    server.requests.append(logged)
                reply = server.resolve(logged)
                body = reply.encoded()
                self.send_response(reply.status)
                headers = {"Content-Type": reply.content_type, **reply.headers}
                for key, value in headers.items():
                    self.send_header(key, value)
                if "Content-Length" not in headers:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            do_GET = _serve  # noqa: N815
            do_HEAD = _serve  # noqa: N815
            do_POST = _serve  # noqa: N815

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def resolve(self, request: LoggedRequest) -> Reply:
        route = self.routes.get(request.path)
        if route is None:
            route = self.routes.get(urlsplit(request.path).path)
        if route is None:
            return Reply(404, "not found", content_type="text/plain")
        return route(request) if callable(route) else route

    def add(self, path: str, reply: Reply | Handler) -> None:
        self.routes[path] = reply

    def add_file(self, path: str, file: Path, content_type: str = "text/html; charset=utf-8") -> None:
        self.routes[path] = Reply(body=file.read_bytes(), content_type=content_type)

    def paths_requested(self) -> list[str]:
        with self._lock:
            return [r.path for r in self.requests]

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def loopback_server() -> Iterator[LoopbackServer]:
    """Start a LoopbackServer for the duration of a ``with`` block."""
    server = LoopbackServer().start()
    try:
        yield server
    finally:
        server.stop()
