"""The private-address guard for the browser: Chromium connects only through a SOCKS5 proxy harvest runs.

A rendered page's requests never reach Scrapy's downloader middlewares: Chromium follows
redirects, runs scripts (``location = ...``, ``fetch``, XHR, WebSocket), loads frames and
sub-resources on its own, and would resolve host names itself. So the browser is launched with
``--proxy-server=socks5://127.0.0.1:<port>``, loopback included in what is proxied, and every
name mapped to ``~NOTFOUND`` for Chromium's own resolver (:func:`harvest.browser.install.guarded_args`);
``BrowserGuard`` is that proxy, on the crawl's event loop. Every TCP connection Chromium opens
names its ``host:port``; the guard runs :meth:`PrivateAddressMiddleware.check
<harvest.middlewares.safety.PrivateAddressMiddleware.check>` (the rules of plain downloads, with
harvest's resolver) and either refuses (SOCKS reply 2: the request fails in the page, counted as
``harvest/safety/refused/browser``) or connects to *the address it checked* and relays bytes for
the life of the connection. QUIC, WebRTC's UDP and service workers are off, so nothing leaves
the browser another way.

The listening socket is bound when the spider installs the browser (the launch options need its
port before the crawl starts); it is served from ``spider_opened`` to ``spider_closed``.

A navigation refused in the middle of a page (a script's ``location = ...``) leaves Chromium on
an error page: ``BrowserPageMiddleware`` (next to the downloader, so no other middleware sees
it) drops such a page, counted as ``harvest/safety/refused/browser_page``: it stores nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import struct
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import IgnoreRequest

from harvest.exceptions import NotApplicable
from harvest.plumbing.capabilities import capabilities

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

    from harvest.middlewares.safety import PrivateAddressMiddleware

logger = logging.getLogger(__name__)

#: SOCKS5 reply codes (RFC 1928).
_SUCCEEDED, _NOT_ALLOWED, _HOST_UNREACHABLE, _REFUSED, _CMD_UNSUPPORTED, _ATYP_UNSUPPORTED = 0, 2, 4, 5, 7, 8
#: Seconds a client may take for the SOCKS handshake, and a connection to the site to open.
_HANDSHAKE_TIMEOUT = 10.0
_CONNECT_TIMEOUT = 30.0
_CHUNK = 64 * 1024


class BrowserGuard:
    """A SOCKS5 proxy for Chromium that lets through only what the private-address guard allows."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((host, 0))
        # Listening from now on: a connection made before serving starts waits in the backlog.
        self.sock.listen(128)
        self.sock.setblocking(False)
        self.port: int = self.sock.getsockname()[1]
        #: ``host:port`` keys refused this crawl (a page that ends on one stores nothing).
        self.refused: set[str] = set()
        self._guard: PrivateAddressMiddleware | None = None
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def proxy_server(self) -> str:
        """The ``server`` of Playwright's ``proxy`` launch option."""
        return f"socks5://127.0.0.1:{self.port}"

    async def start(self, guard: PrivateAddressMiddleware) -> None:
        """Serve the proxy with ``guard``'s rules on the running event loop."""
        self._guard = guard
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, sock=self.sock)

    async def stop(self) -> None:
        """Stop accepting and close every relayed connection."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.close()
        with contextlib.suppress(OSError):
            self.sock.close()

    def refused_page(self, request: Request, response: Response) -> str | None:
        """Why a rendered page must not be stored (None: store it): it ended on a refused or error URL."""
        parts = urlsplit(response.url)
        if parts.scheme not in {"http", "https"}:
            return f"the browser ended on {response.url!r} (a refused or failed navigation)"
        try:
            port = parts.port or {"http": 80, "https": 443}[parts.scheme]
        except ValueError:
            return f"the browser ended on the invalid URL {response.url!r}"
        key = f"{(parts.hostname or '').lower()}:{port}"
        if key in self.refused:
            return f"the page navigated to {response.url}, which the private-address guard refused"
        return None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await asyncio.wait_for(self._handshake(reader, writer), _HANDSHAKE_TIMEOUT)
        if request is None:
            return
        command, host, port = request
        if command != 1:  # only CONNECT (no BIND, no UDP ASSOCIATE)
            await _reply(writer, _CMD_UNSUPPORTED)
            return
        assert self._guard is not None
        address, refused = await self._guard.check(host, port)
        if refused is not None:
            self.refused.add(f"{host.lower()}:{port}")
            self._guard.log_refusal(
                "refused/browser", f"{host}:{port}", "Refused a browser request to", refused
            )
            await _reply(writer, _NOT_ALLOWED)
            return
        if address is None:
            await _reply(writer, _HOST_UNREACHABLE)
            return
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(address, port), _CONNECT_TIMEOUT
            )
        except (OSError, asyncio.TimeoutError):
            await _reply(writer, _REFUSED)
            return
        await _reply(writer, _SUCCEEDED)
        self._writers.add(up_writer)
        try:
            await asyncio.gather(_relay(reader, up_writer), _relay(up_reader, writer))
        finally:
            self._writers.discard(up_writer)
            up_writer.close()

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> tuple[int, str, int] | None:
        """(command, host, port) of a SOCKS5 request, or None after refusing a bad greeting."""
        version, n_methods = await reader.readexactly(2)
        methods = await reader.readexactly(n_methods)
        if version != 5 or 0 not in methods:
            writer.write(b"\x05\xff")  # no acceptable method
            return None
        writer.write(b"\x05\x00")
        _, command, _, atyp = await reader.readexactly(4)
        if atyp == 1:
            host = socket.inet_ntop(socket.AF_INET, await reader.readexactly(4))
        elif atyp == 4:
            host = socket.inet_ntop(socket.AF_INET6, await reader.readexactly(16))
        elif atyp == 3:
            (length,) = await reader.readexactly(1)
            host = (await reader.readexactly(length)).decode("idna")
        else:
            await _reply(writer, _ATYP_UNSUPPORTED)
            return None
        (port,) = struct.unpack(">H", await reader.readexactly(2))
        return command, host, port


async def _reply(writer: asyncio.StreamWriter, code: int) -> None:
    # The bound address is of no use to Chromium: 0.0.0.0:0.
    writer.write(bytes([5, code, 0, 1]) + ipaddress.IPv4Address(0).packed + b"\x00\x00")
    await writer.drain()


async def _relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            if writer.can_write_eof():
                writer.write_eof()


class BrowserPageMiddleware:
    """Drop a rendered page that ended on a refused or error URL (see the module docstring).

    Active where the private-address guard is (``HARVEST_SAFETY_ENABLED`` and
    ``HARVEST_SAFETY_PRIVATE_ADDRESSES``) and the spider renders through a ``BrowserGuard``
    (its ``browser_guard`` attribute); other responses pass untouched.
    """

    def __init__(self, stats: StatsCollector | None = None) -> None:
        self.stats = stats
        self.guard: BrowserGuard | None = None
        self._logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build where the private-address guard is on."""
        s = crawler.settings
        if not (s.getbool("HARVEST_SAFETY_ENABLED") and s.getbool("HARVEST_SAFETY_PRIVATE_ADDRESSES")):
            raise NotApplicable("the private-address guard is off")
        mw = cls(crawler.stats)
        crawler.signals.connect(mw.spider_opened, signal=signals.spider_opened)
        return mw

    def spider_opened(self, spider: Spider) -> None:
        """Take the spider's browser guard, if it renders pages."""
        self.guard = capabilities(spider).browser_guard

    def process_response(self, request: Request, response: Response) -> Response:
        """Raise IgnoreRequest for a rendered page the guard's refusals left on an error or refused URL."""
        if self.guard is None or "playwright" not in response.flags:
            return response
        reason = self.guard.refused_page(request, response)
        if reason is None:
            return response
        if self.stats is not None:
            self.stats.inc_value("harvest/safety/refused/browser_page")
        host = urlsplit(request.url).netloc
        if host in self._logged:
            logger.debug("Not storing %s: %s", request.url, reason)
        else:
            self._logged.add(host)
            logger.warning(
                "Not storing %s: %s (further ones from this host are logged at DEBUG)", request.url, reason
            )
        raise IgnoreRequest(f"refused/browser_page: {reason}")
