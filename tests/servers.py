"""Loopback HTTP servers for tests: 127.0.0.1, port 0, a route table and a request log.

The server itself is :mod:`harvest.util.loopback` (the demo sites need it at run time); this module
keeps the names the tests import, and serves a folder of files as a static site
(:func:`serve_tree`): the real Octopress blog of the shared fixtures is the ``octopress``
fixture of tests/conftest.py, for the blogs spider's tests and the pipelines' kill tests alike.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import yaml

from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply
from tests import shared_fixture

#: A route that is a function of the request.
Handler = Callable[[LoggedRequest], Reply]

#: The real Octopress blog (109 posts) among the shared fixtures, and the host its files name.
OCTO = ("blogs", "octopress-1up4developers-github-io", "site")
OCTO_HOST = b"http://1up4dev.org"
#: The path of one of its posts: ``/2014/04/<slug>/``.
OCTO_POST = re.compile(r"/20\d\d/\d\d/[^/]+/$")

#: Characters a URL path keeps as they are (RFC 3986's unreserved and sub-delims, ``/:@``).
URL_SAFE = "/:@!$&'()*+,;=-._~"

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".xml": "application/xml",
    ".txt": "text/plain",
    ".gz": "application/gzip",
    ".css": "text/css",
    ".js": "application/javascript",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".gif": "image/gif",
    ".json": "application/json",
    ".rss": "application/rss+xml",  # ikiwiki's feeds (index.rss, index.atom), as Apache's mime.types
    ".atom": "application/atom+xml",
}


@contextmanager
def loopback_server() -> Iterator[LoopbackServer]:
    """Start a LoopbackServer for the duration of a ``with`` block."""
    with LoopbackServer() as server:
        yield server


def serve_tree(
    server: LoopbackServer, root: Path, *, rewrite: bytes | None = None, skip: frozenset[str] = frozenset()
) -> None:
    """Serve ``root`` like a static host: ``dir/`` serves ``dir/index.html``, ``dir`` redirects,
    ``dir/?query`` serves ``dir/index.html?query`` (a wget mirror's name for it).

    ``rewrite``: an absolute origin in the files (``http://1up4dev.org``) replaced by the server's.
    """
    base = server.base_url.encode()
    for path in root.rglob("*"):
        if path.is_dir():
            continue
        rel = "/" + path.relative_to(root).as_posix()
        if rel in skip:
            continue
        body = path.read_bytes()
        if rewrite and path.suffix in {".html", ".xml", ".txt"}:
            body = body.replace(rewrite, base)
        reply = Reply(body=body, content_type=_TYPES.get(path.suffix, "application/octet-stream"))
        server.add(rel, reply)
        if path.name == "index.html":
            folder = rel[: -len("index.html")]
            server.add(folder, reply)
            if folder != "/":
                # The Location percent-encoded, as nginx sends it: a header is Latin-1, and a
                # folder named in UTF-8 (nanoc's /tags/日本語/) cannot be written raw.
                location = server.base_url + quote(folder, safe=URL_SAFE)
                server.add(folder.rstrip("/"), Reply(301, headers={"Location": location}))
        elif path.name.startswith("index.html?"):
            # wget --mirror saves the answer to dir/?query as dir/index.html?query.
            server.add(rel[: -len(path.name)] + path.name[len("index.html") :], reply)


@contextmanager
def octopress_server() -> Iterator[LoopbackServer]:
    """The Octopress blog served on a loopback server (its host rewritten to the server's)."""
    root = shared_fixture(*OCTO)
    with loopback_server() as server:
        serve_tree(server, root, rewrite=OCTO_HOST)
        yield server


def octo_post_urls(base: str) -> set[str]:
    """The URLs of every post of the Octopress blog served at ``base``."""
    root = shared_fixture(*OCTO)
    return {f"{base}/{p.parent.relative_to(root).as_posix()}/" for p in root.glob("20*/*/*/index.html")}


def octo_crawl_command(tmp_path: Path, base_url: str, **settings: object) -> list[str]:
    """``scrapy crawl blogs`` of the Octopress blog at ``base_url``, extraction off, data in
    ``tmp_path/data`` (every HTML page written as fetched to ``page*.jsonl``); ``settings`` add
    to or override the defaults below."""
    config_dir = tmp_path / "config"
    config_dir.mkdir(exist_ok=True)
    site = {"name": "octo", "start_urls": [base_url + "/"]}
    (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    values: dict[str, object] = {
        "HARVEST_CONFIG_DIR": config_dir,
        "HARVEST_DATA_DIR": tmp_path / "data",
        "HARVEST_BLOGS_EXTRACTION": "off",
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "HARVEST_STATE_COMMIT_ITEMS": 5,
        "CLOSESPIDER_TIMEOUT": 120,
        **settings,
    }
    cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs"]
    for key, value in values.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd


@contextmanager
def hold_posts_after(server: LoopbackServer, count: int) -> Iterator[None]:
    """Answer the first ``count`` post requests; hold every further one until the block ends.

    A test that kills a crawl half-way waits for some output, then kills it: with the rest of the
    posts held, the kill lands half-way however fast this machine is (an event, not a delay).
    """
    resolve = server.resolve
    answered = 0
    released = threading.Event()
    lock = threading.Lock()

    def gated(request: LoggedRequest) -> Reply:
        nonlocal answered
        if OCTO_POST.match(request.path):
            with lock:
                hold = answered >= count
                if not hold:
                    answered += 1
            if hold:
                released.wait(120)
        return resolve(request)

    server.resolve = gated  # type: ignore[method-assign]
    try:
        yield
    finally:
        released.set()
        server.resolve = resolve  # type: ignore[method-assign]


__all__ = [
    "OCTO",
    "OCTO_HOST",
    "OCTO_POST",
    "Handler",
    "LoggedRequest",
    "LoopbackServer",
    "Reply",
    "hold_posts_after",
    "loopback_server",
    "octo_crawl_command",
    "octo_post_urls",
    "octopress_server",
    "serve_tree",
]
