"""A real browser for JavaScript sites, through scrapy-playwright, found without downloading one.

``find_browser()`` picks Playwright's own Chromium when ``playwright install chromium`` put the
revision this Playwright expects on disk, else a system Chromium/Chrome (Debian's ``chromium``
at /usr/bin/chromium), else nothing. ``playwright_settings()`` turns that into the Scrapy
settings that install the scrapy-playwright download handler. The spider applies them only when
a configured site has ``render: true``, so other crawls never start Node or a browser; requests
opt in one by one with ``meta={"playwright": True}`` and all others still go over plain HTTP.

The shape measured best here: one browser context (the implicit ``default``; naming another
with ``PLAYWRIGHT_MAX_CONTEXTS=1`` deadlocks scrapy-playwright) with a few pages in it; images,
fonts and media are aborted, and so are subrequests to private addresses on other hosts.
scrapy-playwright closes every page after its response unless ``playwright_include_page`` is
set, which harvest never does, so a failing page cannot leak.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from harvest.middlewares.safety import host_port, is_public_address

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: Flags for a headless Chromium in a container: no sandbox as root, no GPU, /tmp instead of a
#: small /dev/shm, and none of the background calls home (updates, sync, QUIC probes).
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
)
#: Where distributions put Chromium or Chrome.
SYSTEM_BROWSERS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/lib/chromium/chromium",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/snap/bin/chromium",
)
_SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Resource types a text extractor never needs.
ABORTED_RESOURCE_TYPES = frozenset({"image", "media", "font"})
_HANDLER = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"


@dataclass(frozen=True)
class Browser:
    """A browser Playwright can drive: its own build (``executable`` None) or a system one."""

    kind: str
    executable: str | None


def _playwright_browsers_dir() -> Path:
    env = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if env and env != "0":
        return Path(env)
    return Path.home() / ".cache" / "ms-playwright"


def _playwright_own_chromium() -> bool:
    """Whether the Chromium revision this Playwright expects is installed (and complete)."""
    try:
        import playwright

        manifest = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
        browsers = json.loads(manifest.read_text(encoding="utf-8"))["browsers"]
    except (ImportError, OSError, ValueError, KeyError):
        return False
    root = _playwright_browsers_dir()
    for entry in browsers:
        if entry.get("name") not in {"chromium", "chromium-headless-shell"}:
            continue
        folder = root / f"{entry['name'].replace('-', '_')}-{entry['revision']}"
        if (folder / "INSTALLATION_COMPLETE").exists():
            return True
    return False


def find_browser(executable: str = "") -> Browser | None:
    """The browser to use: ``executable`` if given, Playwright's own, else a system Chromium."""
    if executable:
        path = shutil.which(executable) or executable
        return Browser("configured", path) if os.access(path, os.X_OK) else None
    if _playwright_own_chromium():
        return Browser("playwright", None)
    for path in SYSTEM_BROWSERS:
        if os.access(path, os.X_OK):
            return Browser("system", path)
    for name in _SYSTEM_NAMES:
        found = shutil.which(name)
        if found:
            return Browser("system", found)
    return None


def playwright_settings(settings: BaseSettings, browser: Browser) -> dict[str, Any]:
    """Scrapy settings that install scrapy-playwright with ``browser`` (HARVEST_BROWSER_*)."""
    launch: dict[str, Any] = {
        "headless": True,
        "args": list(CHROMIUM_ARGS),
        "timeout": settings.getfloat("HARVEST_BROWSER_LAUNCH_TIMEOUT") * 1000,
    }
    if browser.executable:
        launch["executable_path"] = browser.executable
    handlers = dict(settings.getdict("DOWNLOAD_HANDLERS"))
    handlers.update({"http": _HANDLER, "https": _HANDLER})
    return {
        "DOWNLOAD_HANDLERS": handlers,
        "PLAYWRIGHT_BROWSER_TYPE": "chromium",
        "PLAYWRIGHT_LAUNCH_OPTIONS": launch,
        # Exactly one context, the implicit "default", which every request uses (see module doc).
        "PLAYWRIGHT_MAX_CONTEXTS": 1,
        "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": settings.getint("HARVEST_BROWSER_PAGES"),
        "PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT": settings.getfloat("HARVEST_BROWSER_NAVIGATION_TIMEOUT")
        * 1000,
        "PLAYWRIGHT_ABORT_REQUEST": abort_request,
    }


def page_meta(settings: BaseSettings) -> dict[str, Any]:
    """Request meta that sends one request through the browser (plain, serializable data)."""
    return {
        "playwright": True,
        "playwright_page_goto_kwargs": {"wait_until": settings.get("HARVEST_BROWSER_WAIT_UNTIL")},
    }


def abort_request(request: Any) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST: skip images/fonts/media, and private hosts other than the page's.

    The page's own host was checked by the safety middleware before the browser got the URL;
    its scripts must not reach into the machine's network behind that check.
    """
    if request.resource_type in ABORTED_RESOURCE_TYPES:
        return True
    if request.is_navigation_request():
        return False
    parts = urlsplit(request.url)
    if parts.scheme not in {"http", "https", "ws", "wss"}:
        return False
    host = (parts.hostname or "").strip("[]")
    try:
        page_url = request.frame.page.url
    except Exception:  # noqa: BLE001 - service-worker requests have no frame: judge the URL alone
        page_url = ""
    page = urlsplit(page_url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    try:
        same_origin = page_url and host_port(host, parts.port, scheme) == host_port(
            page.hostname, page.port, page.scheme
        )
    except ValueError:
        return True
    if same_origin:
        return False
    private_name = host == "localhost" or host.endswith(".localhost")
    looks_like_ip = host.replace(".", "").isdigit() or ":" in host
    return private_name or (looks_like_ip and not is_public_address(host))
