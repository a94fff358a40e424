"""The browser's SOCKS5 proxy as a component, without a browser: refusals, and the address it connects to.

The end-to-end test with Chromium is tests/test_address_guard.py.
"""

from __future__ import annotations

import asyncio
import socket
import struct

from harvest.browser.guard import BrowserGuard
from harvest.middlewares.safety import PrivateAddressMiddleware
from tests import get_crawler


async def socks_connect(
    port: int, host: str, target_port: int
) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    """A SOCKS5 CONNECT by name (as Chromium sends it); the reply code and the stream."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"\x05\x01\x00")
    assert await reader.readexactly(2) == b"\x05\x00"
    name = host.encode()
    writer.write(b"\x05\x01\x00\x03" + bytes([len(name)]) + name + struct.pack(">H", target_port))
    reply = await reader.readexactly(10)
    return reply[1], reader, writer


def test_the_proxy_refuses_private_addresses_and_connects_to_the_address_it_checked() -> None:
    async def scenario() -> None:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(b"echo:" + await reader.read(100))
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        answers = {"evil.example": ["127.0.0.2"], "site.example": ["127.0.0.1", "127.0.0.2"]}

        async def resolve(host: str) -> str:
            return answers[host].pop(0)  # a second lookup would get the next (rebinding) answer

        crawler = get_crawler()
        mw = PrivateAddressMiddleware([f"site.example:{port}"], resolve=resolve, stats=crawler.stats)
        guard = BrowserGuard()
        await guard.start(mw)
        try:
            code, _, writer = await socks_connect(guard.port, "evil.example", port)
            writer.close()
            assert code == 2  # connection not allowed by ruleset
            code, _, writer = await socks_connect(guard.port, "127.0.0.1", port)  # not a configured site
            writer.close()
            assert code == 2
            # The configured site: one lookup, and the connection goes to that answer.
            code, reader, writer = await socks_connect(guard.port, "site.example", port)
            assert code == 0
            writer.write(b"hello")
            assert await reader.read(100) == b"echo:hello"
            writer.close()
            assert answers["site.example"] == ["127.0.0.2"]  # not looked up again
        finally:
            await guard.stop()
            server.close()
        assert crawler.stats.get_value("harvest/safety/refused/browser") == 2
        assert guard.refused == {f"evil.example:{port}", f"127.0.0.1:{port}"}

    asyncio.run(scenario())


def test_the_listening_socket_exists_before_the_crawl() -> None:
    guard = BrowserGuard()
    try:
        # Playwright's launch options need the port before the crawl starts serving it.
        assert guard.proxy_server == f"socks5://127.0.0.1:{guard.port}"
        with socket.create_connection(("127.0.0.1", guard.port), timeout=1):
            pass  # accepted into the backlog even before start()
    finally:
        guard.sock.close()
