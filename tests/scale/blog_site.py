"""The real Octopress blog of ../shared/fixtures served on 127.0.0.1, counting every request.

Its absolute links name ``http://1up4dev.org/``: they are rewritten to this server, so the whole
blog (109 posts at ``/YYYY/MM/<slug>/``, a feed, a sitemap, pagination, categories) is crawlable
on loopback. ``hits`` counts requests per path on the server's side, which is how tests check
that several crawl processes together fetched each page exactly once. ``delay`` adds a pause to
every answer, as a real site's latency would.
"""

from __future__ import annotations

import mimetypes
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from tests import shared_fixture

ORIGINAL_HOST = b"http://1up4dev.org"


def octopress_root() -> Path:
    """The fixture's document root (skips the test when the shared fixtures are absent)."""
    return shared_fixture("blogs", "octopress-1up4developers-github-io", "site")


def post_paths(root: Path) -> set[str]:
    """URL paths of the blog's posts: ``/YYYY/MM/<slug>/``."""
    return {
        "/" + p.parent.relative_to(root).as_posix() + "/"
        for p in root.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/*/index.html")
    }


class BlogSite:
    """A threaded static server for one site folder, with host rewriting and a request count."""

    def __init__(self, root: Path, *, delay: float = 0.0) -> None:
        self.root = root.resolve()
        self.delay = delay
        self.hits: Counter[str] = Counter()
        self._lock = threading.Lock()
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:  # noqa: N802
                path = unquote(urlsplit(self.path).path)
                with site._lock:
                    site.hits[path] += 1
                if site.delay:
                    time.sleep(site.delay)
                status, body, ctype = site.answer(path)
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        class _Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a crawler killed mid-request resets its connections: expected here

        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def answer(self, path: str) -> tuple[int, bytes, str]:
        target = (self.root / path.lstrip("/")).resolve()
        if self.root not in target.parents and target != self.root:
            return 404, b"not found", "text/plain"
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return 404, b"not found", "text/plain"
        body = target.read_bytes()
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        textual = {"text/html", "application/xml", "text/xml", "text/plain"}
        if ctype in textual or target.suffix in {".xml", ".txt"}:
            body = body.replace(ORIGINAL_HOST, self.base_url.encode())
            ctype += "; charset=utf-8"
        return 200, body, ctype

    def start(self) -> BlogSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
