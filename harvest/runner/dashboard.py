"""``run_all.py --dashboard HOST:PORT``: the live fleet over HTTP, read-only.

Serves, from a thread of the supervisor (it only reads the latest snapshot, which the
supervisor replaces as a whole, so no lock is needed):

- ``/``: the live table as a page that refreshes itself (harvest.runner.dashboard_page);
- ``/status.json``: the snapshot that ``data/fleet/status.json`` holds;
- ``/metrics``: Prometheus text format (harvest.runner.metrics).

Bound to 127.0.0.1 unless an address is given. Only GET and HEAD are answered; every string
served goes through harvest.util.redaction first, so no token (nor anything that looks like one)
leaves the process.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST

from harvest.config.settings_model import retired_value
from harvest.github import state_dir
from harvest.runner.dashboard_page import render_dashboard
from harvest.runner.metrics import FleetCollector, render_metrics
from harvest.util.redaction import scrub_data

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: Seconds between the dashboard page's own refreshes: the fleet's status changes every
#: HARVEST_FLEET_STATUS_INTERVAL, faster refreshes show nothing new.
REFRESH = 2.0

LOOPBACK = "127.0.0.1"
_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # The page needs its inline style and nothing else: no script, no frame, no fetch.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
}


@dataclass(frozen=True)
class Address:
    """Where the dashboard listens."""

    host: str
    port: int

    def url(self) -> str:
        """The base URL a browser opens."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def parse_address(text: str) -> Address:
    """``8787``, ``:8787``, ``127.0.0.1:8787``, ``0.0.0.0:8787``, ``[::1]:8787`` (no host = loopback)."""
    text = text.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = "", text
    host = host.strip("[]") or LOOPBACK
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"expected [HOST:]PORT such as 127.0.0.1:8787, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"a port is 0-65535, got {port}")
    return Address(host, port)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "harvest-dashboard"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (the base class's name)
        logger.debug("dashboard: %s %s", self.address_string(), format % args)

    def _send(self, status: int, content_type: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in _HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _answer(self, head: bool) -> None:
        dashboard = self.server.dashboard
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            page = render_dashboard(dashboard.snapshot(), dashboard.refresh_s)
            self._send(200, "text/html; charset=utf-8", page.encode("utf-8"), head)
        elif path == "/status.json":
            snap = dashboard.snapshot()
            if snap is None:
                self._send(503, "application/json", b'{"error": "the fleet is starting"}\n', head)
            else:
                body = json.dumps(snap, indent=2, ensure_ascii=False) + "\n"
                self._send(200, "application/json; charset=utf-8", body.encode("utf-8"), head)
        elif path == "/metrics":
            self._send(200, CONTENT_TYPE_LATEST, render_metrics(dashboard.collector), head)
        elif path == "/favicon.ico":
            self._send(204, "image/x-icon", b"", head)
        else:
            self._send(
                404, "text/plain; charset=utf-8", b"not found: try /, /status.json or /metrics\n", head
            )

    def do_GET(self) -> None:  # noqa: N802  (http.server's naming)
        """Answer a GET."""
        self._answer(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        """Answer a HEAD (headers of the GET)."""
        self._answer(head=True)

    def _refuse(self) -> None:
        self.send_response(405)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # read-only


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    dashboard: Dashboard

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Log a failed answer through logging (not a traceback on stderr); a gone client is no error."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            logger.debug("dashboard: %s went away", client_address)
            return
        logger.error("dashboard: could not answer %s", client_address, exc_info=error)


class _Server6(_Server):
    address_family = socket.AF_INET6


class Dashboard:
    """The HTTP server of one fleet run; :meth:`start` binds (OSError if it cannot)."""

    def __init__(
        self,
        address: Address,
        snapshot: Callable[[], dict[str, Any] | None],
        *,
        refresh_s: float = 2.0,
        budget_file: Path | None = None,
    ) -> None:
        self.address = address
        self._snapshot = snapshot
        self.refresh_s = refresh_s
        self.collector = FleetCollector(self.snapshot, budget_file)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def snapshot(self) -> dict[str, Any] | None:
        """The latest snapshot with every string scrubbed of secrets."""
        snap = self._snapshot()
        return None if snap is None else scrub_data(snap)

    def start(self) -> Address:
        """Bind and serve in a daemon thread; returns the bound address (port 0 = any)."""
        server_class = _Server6 if ":" in self.address.host else _Server
        server = server_class((self.address.host, self.address.port), _Handler)
        server.dashboard = self
        self._server = server
        self.address = Address(self.address.host, server.server_address[1])
        self._thread = threading.Thread(target=server.serve_forever, name="harvest-dashboard", daemon=True)
        self._thread.start()
        logger.info("Dashboard on %s (read-only: /, /status.json, /metrics)", self.address.url())
        return self.address

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


def open_dashboard(
    text: str, snapshot: Callable[[], dict[str, Any] | None], settings: BaseSettings
) -> Dashboard:
    """Start the dashboard at ``text`` (``[HOST:]PORT``); ValueError or OSError if it cannot."""
    dashboard = Dashboard(
        parse_address(text),
        snapshot,
        refresh_s=retired_value(settings, "HARVEST_FLEET_DASHBOARD_REFRESH", REFRESH),
        budget_file=state_dir(settings) / "budget.sqlite",
    )
    dashboard.start()
    return dashboard
