"""The private-address guard end to end: the browser behind it, and DNS answers pinned.

Each test runs ``scrapy crawl blogs`` for real against a configured site on 127.0.0.1 and a
*canary* on 127.0.0.2: a real listener that records every connection. Whatever the site does to
lead the crawler there, the canary must see nothing, and the refusal must be counted.

- Rendered pages (Debian's chromium, for real): a 302 redirect to the canary, a script's
  ``location.href = ...`` to it, a script that ``fetch``es (and opens a WebSocket to) a host
  name that resolves to it (through the test resolver, tests/hosts_resolver.py), an iframe on
  it; and a service worker's registration, blocked.
- A plain crawl through a resolver whose answer for one name is public first and private on
  every later lookup (DNS rebinding): the download connects to the address that was checked.
- The settings that would bypass the guard are config errors naming the setting.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests import read_jsonl, scrapy_crawl, skip_or_fail
from tests.servers import LoopbackServer, Reply, loopback_server

_STAT_RE = re.compile(r"'(harvest/safety/[a-z_/]+)': (\d+)")
#: A global unicast address (documentation ranges are not global): the rebinding name's first answer.
PUBLIC_ADDRESS = "93.184.215.14"


class Canary:
    """A TCP listener on 127.0.0.2 that records each connection (and answers it like a web server)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.sock.bind(("127.0.0.2", 0))
        except OSError as exc:
            self.sock.close()
            skip_or_fail(f"cannot bind 127.0.0.2 here: {exc}")
        self.sock.listen(64)
        self.port: int = self.sock.getsockname()[1]
        self.hits: list[bytes] = []
        self._stop = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(1)
                try:
                    first = conn.recv(4096)
                except OSError:
                    first = b""
                self.hits.append(first)
                body = b"<html><body><h1>Canary</h1><p>internal secret</p></body></html>"
                head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
                try:
                    conn.sendall(head.encode() + body)
                except OSError:
                    pass

    def close(self) -> None:
        """Stop accepting."""
        self._stop = True
        self._thread.join(timeout=2)
        self.sock.close()


@pytest.fixture
def canary() -> Iterator[Canary]:
    """A recording listener on 127.0.0.2; after the test, proof that it does record a connection."""
    listener = Canary()
    try:
        yield listener
    finally:
        listener.close()


def assert_canary_records(canary: Canary) -> None:
    """The canary counts a real connection (so its 0 before means nothing reached it)."""
    before = len(canary.hits)
    with socket.create_connection(("127.0.0.2", canary.port), timeout=2) as conn:
        conn.sendall(b"GET /probe HTTP/1.1\r\nHost: canary\r\n\r\n")
        conn.recv(100)
    assert len(canary.hits) == before + 1


def crawl(
    tmp_path: Path,
    site: dict[str, Any],
    *,
    settings: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 75,
) -> tuple[Any, list[dict[str, Any]], dict[str, int]]:
    """``scrapy crawl blogs`` of one site (the YAML written to tmp_path): result, documents, guard stats."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    result = scrapy_crawl(
        "blogs",
        settings={
            "HARVEST_CONFIG_DIR": config,
            "HARVEST_DATA_DIR": tmp_path / "data",
            "AUTOTHROTTLE_ENABLED": False,
            "HARVEST_BLOGS_EXTRACTION": "inline",
            "TWISTED_DNS_RESOLVER": "tests.hosts_resolver.HostsResolver",
            "DOWNLOAD_TIMEOUT": 5,
            "RETRY_ENABLED": False,
            "CLOSESPIDER_TIMEOUT": timeout - 25,
            "REMOTE_CONTROL_ENABLED": False,
            "TELNETCONSOLE_ENABLED": False,
            **(settings or {}),
        },
        env=env,
        timeout=timeout,
    )
    stats = {k: int(v) for k, v in _STAT_RE.findall(result.stderr)}
    return result, read_jsonl(tmp_path / "data" / "blogs" / "document.jsonl"), stats


def _article(title: str, script: str = "") -> str:
    text = f"<p>{title} is an ordinary article of the configured site, long enough to keep. </p>" * 4
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<article><h1>{title}</h1>{text}</article><script>{script}</script></body></html>"
    )


def _browser_or_skip() -> None:
    from harvest.browser.install import find_browser

    if find_browser() is None:
        skip_or_fail("no Chromium found (apt-get install chromium, or playwright install chromium)")


def _serve_rendered_site(server: LoopbackServer, canary: Canary) -> None:
    target = f"http://127.0.0.2:{canary.port}"
    named = f"http://canary.example:{canary.port}"
    links = "".join(
        f'<a href="{server.base_url}/posts/{p}/">{p}</a>' for p in ("ok", "redirect", "jsnav", "fetch")
    )
    server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
    # Service workers are blocked: a registration does not even fetch its script.
    register = 'navigator.serviceWorker && navigator.serviceWorker.register("/sw.js").catch(function () {});'
    server.add("/posts/ok/", Reply(body=_article("Plain and rendered", register)))
    server.add("/sw.js", Reply(body=f'fetch("{target}/from-sw");', content_type="application/javascript"))
    server.add("/posts/redirect/", Reply(status=302, headers={"Location": f"{target}/redirected"}))
    server.add("/posts/jsnav/", Reply(body=_article("Leaving", f'location.href = "{target}/js-location";')))
    fetch = (
        f'fetch("{named}/fetched").catch(function () {{}});'
        f'try {{ new WebSocket("ws://canary.example:{canary.port}/socket"); }} catch (e) {{}}'
        f'var f = document.createElement("iframe"); f.src = "{target}/frame"; document.body.appendChild(f);'
    )
    server.add("/posts/fetch/", Reply(body=_article("Reaching in", fetch)))


@pytest.mark.playwright
@pytest.mark.timeout(100)
def test_the_browser_never_reaches_a_private_address(tmp_path: Path, canary: Canary) -> None:
    _browser_or_skip()
    with loopback_server() as server:
        _serve_rendered_site(server, canary)
        site = {"name": "spa", "start_urls": [server.base_url + "/"], "render": True}
        result, docs, stats = crawl(tmp_path, site, env={"HARVEST_TEST_HOSTS": "canary.example=127.0.0.2"})
        fetched = server.paths_requested()
    assert result.returncode == 0, result.stderr[-4000:]
    assert "'finish_reason': 'finished'" in result.stderr, result.stderr[-4000:]
    # The browser worked, through the guard: the good pages were rendered and stored ...
    assert {"/posts/ok/", "/posts/redirect/", "/posts/jsnav/", "/posts/fetch/"} <= set(fetched)
    assert "/sw.js" not in fetched
    stored = sorted(urlsplit(d["url"]).path for d in docs)
    assert stored == ["/posts/fetch/", "/posts/ok/"], (stored, result.stderr[-4000:])
    # ... nothing reached the canary: not the 302, not location.href, not fetch/WebSocket/iframe
    # of a name resolving to it ...
    assert canary.hits == [], canary.hits
    # ... and each refusal was counted (127.0.0.2:port, canary.example:port at least once each).
    assert stats.get("harvest/safety/refused/browser", 0) >= 3, stats
    # The page whose script navigated to the canary ended on Chromium's error page: dropped.
    assert stats.get("harvest/safety/refused/browser_page", 0) == 1, stats
    assert "Not storing http://127.0.0.1:" in result.stderr and "/posts/jsnav/" in result.stderr
    assert f"Refused a browser request to 127.0.0.2:{canary.port}" in result.stderr
    assert f"Refused a browser request to canary.example:{canary.port}" in result.stderr
    assert not [d for d in docs if "canary" in Path(d["path"]).read_text(encoding="utf-8").lower()]
    assert_canary_records(canary)


def test_dns_rebinding_never_reaches_a_private_address(tmp_path: Path, canary: Canary) -> None:
    """A name public on its first lookup and private on every later one: nothing reaches the canary.

    Before pinning, the guard checked the first answer and the download looked the name up again
    (Scrapy's DNS cache had evicted it, or was off) and connected to the second.
    """
    name = "rebind.example"
    with loopback_server() as server:
        links = "".join(f'<a href="http://{name}:{canary.port}/{p}">{p}</a>' for p in ("one", "two", "three"))
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
        site = {"name": "site", "start_urls": [server.base_url + "/"], "allowed_domains": ["127.0.0.1", name]}
        result, docs, stats = crawl(
            tmp_path,
            site,
            settings={
                "TWISTED_DNS_RESOLVER": "tests.hosts_resolver.RebindingResolver",
                # No internet in tests: the one download pinned to the public answer fails at once.
                "DOWNLOAD_HANDLERS": {"http": "tests.hosts_resolver.OfflineDownloadHandler"},
                # One request at a time: each lookup of the name comes after the previous download.
                "CONCURRENT_REQUESTS": 1,
            },
            env={"HARVEST_TEST_REBIND": f"{name}={PUBLIC_ADDRESS}/127.0.0.2"},
            timeout=60,
        )
    assert result.returncode == 0, result.stderr[-4000:]
    assert "'finish_reason': 'finished'" in result.stderr, result.stderr[-4000:]
    assert canary.hits == [], canary.hits
    # The first request for the name (its robots.txt) went to the public address it was checked
    # against; every later one was checked against the private answer and refused.
    assert stats.get("harvest/safety/private_address", 0) >= 1, stats
    assert "resolves to the non-public address 127.0.0.2" in result.stderr
    assert docs == []
    assert_canary_records(canary)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("DNSCACHE_ENABLED", "False"),
        ("TWISTED_DNS_RESOLVER", "scrapy.resolver.CachingHostnameResolver"),
    ],
)
def test_settings_that_would_bypass_the_guard_are_config_errors(
    tmp_path: Path, setting: str, value: str
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    site = {"name": "site", "start_urls": ["http://127.0.0.1:9/"]}
    (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    result = scrapy_crawl(
        "blogs",
        settings={"HARVEST_CONFIG_DIR": config, "HARVEST_DATA_DIR": tmp_path / "data", setting: value},
        timeout=60,
    )
    assert result.returncode == 2, result.stderr[-3000:]
    assert setting in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "data").exists()
