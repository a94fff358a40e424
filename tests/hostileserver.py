"""A loopback server whose hostile pages never end, for tests of the bounds harvest keeps.

tests/faultserver.py's pages plus endpoints that misbehave for ever (until the client hangs up
or the server stops), each a way a server can try to make a crawler hold on to what it sends:

- ``endless-headers/<name>?value=N``: a status line, then header lines (``X-Filler-<i>:`` and N
  bytes, default 100) without end: the header section never ends.
- ``endless-interim/<name>``: ``103 Early Hints`` interim responses without end (each one
  complete, so a parser that forgets each interim response's headers never holds much).
- ``endless-chunked/<name>``: a complete header section, then a chunked HTML body without end.
- ``drip-headers/<name>?every=S``: a status line, then one byte of a header every S seconds.
- ``drip-body/<name>?every=S``: a complete header section, then one byte of body every S seconds.

For rendered pages (a browser loads the sub-resources a page names):

- ``endless-script/<name>``: an article whose ``<script src>`` is ``endless-js/<name>``, a
  JavaScript body without end (a string literal that never closes).
- ``endless-worker/<name>``: an article starting a worker (``worker-js/<name>``) that fetches
  ``endless-chunked/<name>-w`` and reads it whole.
- ``endless-alloc/<name>``: an article whose script allocates arrays without end.

``sent(path)`` is how many bytes the server wrote for ``path`` (with its query), all requests
together: what a client that did not stop would have read.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from tests.faultserver import FaultServer, article_html

#: Bytes written per call: large enough to keep a fast client busy, small enough to stop soon.
_BURST = 64 * 1024


class HostileServer(FaultServer):
    """FaultServer plus the endless endpoints above."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._sent: Counter[str] = Counter()
        self._sent_lock = threading.Lock()

    def sent(self, path: str) -> int:
        with self._sent_lock:
            return self._sent[path]

    def fault(
        self, h: BaseHTTPRequestHandler, count: int, target: str, own: tuple[bytes, str] | None
    ) -> None:
        parts = urlsplit(target)
        seg = parts.path.strip("/").split("/")
        if len(seg) < 2 or seg[0] != "f" or seg[1] not in {*_ENDLESS, *_RENDERED}:
            return super().fault(h, count, target, own)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        wire = h.wfile
        if seg[1] in _RENDERED:
            body, content_type = _RENDERED[seg[1]](seg[2] if len(seg) > 2 else "page")
            return self._send(h, 200, body.encode(), content_type=content_type)

        def write(data: bytes) -> bool:
            """Send ``data``; False once the client hung up or the server is stopping."""
            if self._stall_release.is_set():
                return False
            try:
                wire.write(data)
                wire.flush()
            except OSError:  # BrokenPipe, ConnectionReset: the client stopped reading
                return False
            with self._sent_lock:
                self._sent[h.path] += len(data)
            return True

        h.close_connection = True
        _ENDLESS[seg[1]](self, write, query)
        return None

    # -- the endless answers (each returns when the client hangs up or the server stops) ------
    def _endless_headers(self, write: Callable[[bytes], bool], query: dict[str, str]) -> None:
        value = b"a" * int(query.get("value", "100"))
        if not write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"):
            return
        i = 0
        while True:
            lines = []
            size = 0
            while size < _BURST:
                line = b"X-Filler-%d: %s\r\n" % (i, value)
                lines.append(line)
                size += len(line)
                i += 1
            if not write(b"".join(lines)):
                return

    def _endless_interim(self, write: Callable[[bytes], bool], query: dict[str, str]) -> None:
        interim = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
        burst = interim * (_BURST // len(interim))
        while write(burst):
            pass

    def _endless_js(self, write: Callable[[bytes], bool], query: dict[str, str]) -> None:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/javascript\r\nConnection: close\r\n\r\n"
        if write(head + b"var never = '"):
            while write(b"a" * _BURST):
                pass

    def _endless_chunked(self, write: Callable[[bytes], bool], query: dict[str, str]) -> None:
        head = (
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        data = (b"<p>" + b"x" * 1017 + b"</p>\n") * 64
        chunk = b"%x\r\n%s\r\n" % (len(data), data)
        if write(head + b"%x\r\n<!doctype html><html><body>\r\n" % len(b"<!doctype html><html><body>")):
            while write(chunk):
                pass

    def _drip(self, write: Callable[[bytes], bool], head: bytes, every: float) -> None:
        if not write(head):
            return
        while write(b"a"):
            if self._stall_release.wait(every):
                return

    def _drip_headers(self, write: Callable[[bytes], bool], query: dict[str, str]) -> None:
        self._drip(write, b"HTTP/1.1 200 OK\r\nX-Drip: ", float(query.get("every", "0.2")))

    def _drip_body(self, write: Callable[[bytes], bool], query: dict[str, str]) -> None:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n<p>"
        self._drip(write, head, float(query.get("every", "0.2")))


def _with_script(name: str, script: str) -> tuple[str, str]:
    page = article_html(name)
    return page.replace("</body>", f"{script}</body>"), "text/html; charset=utf-8"


_JS = "application/javascript"
#: Complete answers of the rendered hostile pages: name -> (body, content type).
_RENDERED: dict[str, Callable[[str], tuple[str, str]]] = {
    "endless-script": lambda name: _with_script(name, f'<script src="/f/endless-js/{name}.js"></script>'),
    "endless-worker": lambda name: _with_script(
        name, f'<script>new Worker("/f/worker-js/{name}.js");</script>'
    ),
    "worker-js": lambda name: (f'fetch("/f/endless-chunked/{name}-w").then(r => r.text());', _JS),
    "endless-alloc": lambda name: _with_script(
        name, "<script>var kept = []; for (;;) { kept.push(new Array(1e6).fill(kept.length)); }</script>"
    ),
}

_ENDLESS: dict[str, Callable[[HostileServer, Callable[[bytes], bool], dict[str, str]], None]] = {
    "endless-headers": HostileServer._endless_headers,
    "endless-interim": HostileServer._endless_interim,
    "endless-chunked": HostileServer._endless_chunked,
    "endless-js": HostileServer._endless_js,
    "drip-headers": HostileServer._drip_headers,
    "drip-body": HostileServer._drip_body,
}
