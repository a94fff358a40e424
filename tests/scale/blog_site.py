"""The real Octopress blog of ../shared/fixtures served on 127.0.0.1, counting every request.

Its absolute links name ``http://1up4dev.org/``: they are rewritten to this server, so the whole
blog (109 posts at ``/YYYY/MM/<slug>/``, a feed, a sitemap, pagination, categories) is crawlable
on loopback. ``hits`` counts requests per path on the server's side, which is how tests check
that several crawl processes together fetched each page exactly once. ``delay`` adds a pause to
every answer, as a real site's latency would.
"""

from __future__ import annotations

import mimetypes
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import unquote, urlsplit

from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply
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


class BlogSite(LoopbackServer):
    """A threaded static server for one site folder, with host rewriting and a request count.

    ``hits`` counts requests by path, unquoted and without the query string; ``clients`` lists
    the client address and path of each request, in order of arrival (which host fetched what,
    when the clients are network namespaces). ``host`` is the address it listens on.
    """

    def __init__(self, root: Path, *, delay: float = 0.0, host: str = "127.0.0.1") -> None:
        super().__init__(host, delay=delay, name="blog-site")
        self.root = root.resolve()
        self.clients: list[tuple[str, str]] = []

    def serve(self, handler: BaseHTTPRequestHandler) -> None:
        self.clients.append((str(handler.client_address[0]), unquote(urlsplit(handler.path).path)))
        super().serve(handler)

    def hit_key(self, request: LoggedRequest) -> str:
        return unquote(urlsplit(request.path).path)

    def resolve(self, request: LoggedRequest) -> Reply:
        status, body, ctype = self.answer(self.hit_key(request))
        return Reply(status, body, content_type=ctype)

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
