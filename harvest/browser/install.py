"""A real browser for JavaScript sites, through scrapy-playwright, found without downloading one.

``find_browser()`` picks Playwright's own Chromium when ``playwright install chromium`` put the
revision this Playwright expects on disk, else a system Chromium/Chrome (Debian's ``chromium``
at /usr/bin/chromium), else nothing. ``playwright_settings()`` turns that into the Scrapy
settings that install the scrapy-playwright download handler, and ``install_browser()`` applies
them (with the private-address guard's proxy when the guard is on). The spider calls it only when
a configured site has ``render: true``, so other crawls never start Node or a browser; requests
opt in one by one with ``meta={"playwright": True}`` (``page_meta()``) and all others still go
over plain HTTP.

The shape measured best here: one browser context (the implicit ``default``; naming another
with ``PLAYWRIGHT_MAX_CONTEXTS=1`` deadlocks scrapy-playwright) with a few pages in it; images,
fonts and media are aborted. With the private-address guard on, every connection the browser
makes goes through :class:`harvest.browser.guard.BrowserGuard` (a SOCKS5 proxy applying the
guard's rules and connecting to the address it checked); service workers are blocked.
scrapy-playwright closes every page after its response unless ``playwright_include_page`` is
set, which harvest never does, so a failing page cannot leak.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harvest.exceptions import ConfigError

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

    from harvest.browser.guard import BrowserGuard

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
# scrapy-playwright's handler, with the response header bounds for the requests it does not render.
_HANDLER = "harvest.browser.handler.BoundedPlaywrightDownloadHandler"


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


#: Scripts fetched off the main thread report no bytes to DevTools, so the page meter would not
#: see them (harvest/browser/meter.py). Chromium merges this with the features Playwright turns off.
METERED_ARGS = ("--disable-features=BackgroundResourceFetch",)


def bound_args(settings: BaseSettings) -> list[str]:
    """Chromium switches for the bounds of a rendered page: the script heap and the byte meter."""
    args = list(METERED_ARGS) if settings.getint("HARVEST_BROWSER_MAX_PAGE_BYTES") > 0 else []
    heap = settings.getint("HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB")
    if heap > 0:
        # V8's old generation per isolate (a page's, a worker's): past it the renderer runs
        # out of memory and crashes, instead of growing to V8's default of several GB.
        args.append(f"--js-flags=--max-old-space-size={heap}")
    return args


#: With the guard: no UDP at all from WebRTC (QUIC is off already), so every byte goes through it.
GUARDED_ARGS = ("--force-webrtc-ip-handling-policy=disable_non_proxied_udp",)


def guarded_args(guard: BrowserGuard) -> list[str]:
    """Chromium switches that send every connection through ``guard`` and let Chromium resolve nothing.

    Playwright derives the same from its ``proxy`` option, but drops loopback from the proxy when
    ``PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK`` is set; Chromium keeps the last of a
    repeated switch, and these come last.
    """
    return [
        *GUARDED_ARGS,
        f"--proxy-server={guard.proxy_server}",
        # Loopback too: Chromium bypasses proxies for localhost/127.0.0.0/8/[::1] by default.
        "--proxy-bypass-list=<-loopback>",
        # Every name resolves to "not found" in Chromium; the proxy resolves them (SOCKS5 by name).
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ]


def playwright_settings(
    settings: BaseSettings, browser: Browser, guard: BrowserGuard | None = None
) -> dict[str, Any]:
    """Scrapy settings that install scrapy-playwright with ``browser`` (HARVEST_BROWSER_*).

    With ``guard`` every connection of the browser goes through it (a SOCKS5 proxy, loopback
    included; Chromium resolves no name itself: see ``guarded_args``).
    """
    launch: dict[str, Any] = {
        "headless": True,
        "args": [*CHROMIUM_ARGS, *bound_args(settings)],
        "timeout": settings.getfloat("HARVEST_BROWSER_LAUNCH_TIMEOUT") * 1000,
    }
    if guard is not None:
        launch["args"] += guarded_args(guard)
        launch["proxy"] = {"server": guard.proxy_server}
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


def install_browser(settings: BaseSettings, rendered: Sequence[str], config_file: str) -> BrowserGuard | None:
    """Install scrapy-playwright in ``settings`` for the sites named ``rendered`` (``render: true``).

    ``settings`` must still be open: which sites render is known only once the spider read its
    YAML and ``-a`` arguments (``from_crawler``), and the crawler freezes settings right after.
    A key set above the project's priority (``-s``) is kept. With the private-address guard on,
    the browser connects only through a :class:`~harvest.browser.guard.BrowserGuard`, returned
    for the spider to hold (its ``browser_guard`` attribute, which the safety middleware serves);
    None when the guard is off. Raises ConfigError naming each rendered site of ``config_file``
    when no browser is found.
    """
    browser = find_browser(settings.get("HARVEST_BROWSER_EXECUTABLE", ""))
    if browser is None:
        raise ConfigError(
            config_file,
            [
                (
                    f"sites[{name}].render",
                    "no browser found: install Chromium (apt-get install chromium) "
                    "or set HARVEST_BROWSER_EXECUTABLE",
                )
                for name in rendered
            ],
        )
    logger.info(
        "Sites %s are rendered with %s browser %s",
        list(rendered),
        browser.kind,
        browser.executable or "(Playwright's own)",
    )
    guard = None
    if settings.getbool("HARVEST_SAFETY_ENABLED") and settings.getbool("HARVEST_SAFETY_PRIVATE_ADDRESSES"):
        # Imported here, as needed: the spider imports this module even when nothing renders.
        from harvest.browser.guard import BrowserGuard

        guard = BrowserGuard()
    for key, value in playwright_settings(settings, browser, guard).items():
        if (settings.getpriority(key) or 0) <= 20:
            settings.set(key, value, priority="spider")
    return guard


def page_meta(settings: BaseSettings) -> dict[str, Any]:
    """Request meta that sends one request through the browser (plain, serializable data)."""
    return {
        "playwright": True,
        "playwright_page_goto_kwargs": {"wait_until": settings.get("HARVEST_BROWSER_WAIT_UNTIL")},
        # Service workers fetch outside the page; blocked (the context is created with these).
        "playwright_context_kwargs": {"service_workers": "block"},
    }


def abort_request(request: Any) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST: skip images, fonts and media (a text extractor never needs them).

    Where a request may go is not decided here: Playwright's routing does not see redirects, and
    Chromium would resolve names itself. The guard's proxy (:mod:`harvest.browser.guard`) checks
    every connection instead.
    """
    return bool(request.resource_type in ABORTED_RESOURCE_TYPES)
