"""The byte bound of a rendered page: what Chromium received for it, counted over DevTools.

A page Chromium renders is bounded by nothing a server cannot move but the navigation timeout:
an endless HTML document grows the DOM, an endless script body or ``fetch`` grows the renderer's
buffers, for up to ``HARVEST_BROWSER_NAVIGATION_TIMEOUT`` seconds per page (BENCHMARKS.md,
"Rendered pages"). :class:`PageMeter` opens a DevTools (CDP) session on each page and sums the
``dataLength`` of its ``Network.dataReceived`` events: every byte of the document and of every
sub-resource (scripts, styles, XHR/``fetch``, same-process frames), decoded, as the renderer
holds it (a compressed bomb counts at its inflated size). Past ``HARVEST_BROWSER_MAX_PAGE_BYTES``
it calls back once; the handler (harvest/browser/handler.py) closes the page, which frees its
renderer and fails its navigation, and fails the request with :class:`PageTooLarge`.

Why here and not in the SOCKS relay (harvest/browser/guard.py), which sees every byte too: a
relayed connection is Chromium's, kept alive and reused by whichever page of the context asks
next, so its bytes belong to no one page (and over TLS the relay cannot see where one response
ends). DevTools says which page every byte is for, at the cost of one session and one event per
chunk read (tens of KB), events the browser already produces for Playwright's own session.

What a page's own session does not see, measured with Debian's Chromium 156:

- Scripts fetched off the main thread (Chromium's ``BackgroundResourceFetch``) report no
  ``dataReceived``: the launch options turn that feature off (harvest/browser/install.py;
  Chromium merges it with the features Playwright turns off).
- Dedicated workers and cross-site (out-of-process) frames are targets of their own. The meter
  auto-attaches to them through its session, in DevTools' nested (non-flat) mode, so that
  Playwright's own sessions are untouched, and counts their bytes with the page's; their
  children too. Service workers are blocked already (harvest/browser/install.py).

The bound is checked as events arrive, so a page stops within one event loop turn of passing it:
what a fast server sends meanwhile is the overshoot (BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright.async_api import Error as PlaywrightError

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page

logger = logging.getLogger(__name__)

#: Response bodies DevTools keeps for ``Network.getResponseBody``, which the meter never asks for.
_BUFFER = {"maxTotalBufferSize": 1, "maxResourceBufferSize": 1}
#: Auto-attach to a target's workers and out-of-process frames, as nested (non-flat) sessions.
_AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False}


class PageTooLarge(Exception):
    """A rendered page received more than ``HARVEST_BROWSER_MAX_PAGE_BYTES``; nothing of it is kept.

    Not a subclass of anything RetryMiddleware retries (``RETRY_EXCEPTIONS``): the same server
    would send as much again.
    """

    def __init__(self, url: str, limit: int) -> None:
        super().__init__(
            f"the rendered page received more than {limit} bytes (HARVEST_BROWSER_MAX_PAGE_BYTES)"
        )
        self.url = url


class PageCrashed(Exception):
    """The renderer of a rendered page crashed; nothing of it is kept.

    Out of memory (a script past ``HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB``) or another fault. Not
    retried: the same script would run again.
    """

    def __init__(self, url: str) -> None:
        super().__init__(
            "the browser's renderer crashed on the page (out of memory, e.g. a script past "
            "HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB, or another fault)"
        )
        self.url = url


class PageMeter:
    """Counts the bytes one page receives; calls ``exceeded`` once when they pass ``limit``.

    ``limit`` 0 counts nothing (no session is opened). ``crashed`` is set when the page's
    renderer crashes.
    """

    def __init__(self, limit: int, exceeded: Callable[[], None]) -> None:
        self.limit = limit
        self.received = 0
        self.over = False
        self.crashed = False
        self._exceeded = exceeded
        self._session: CDPSession | None = None
        self._ids = itertools.count(1)
        self._pending: set[asyncio.Future[Any]] = set()

    async def attach(self, page: Page) -> None:
        """Start counting ``page``'s bytes (call before it navigates)."""
        page.on("crash", self._crash)
        if self.limit <= 0:
            return
        session = await page.context.new_cdp_session(page)
        self._session = session
        session.on("Network.dataReceived", self._data)
        session.on("Target.attachedToTarget", lambda params: self._child_attached((), params))
        session.on("Target.receivedMessageFromTarget", lambda params: self._from_child((), params))
        await session.send("Network.enable", _BUFFER)
        await session.send("Target.setAutoAttach", _AUTO_ATTACH)

    def _crash(self, *_: object) -> None:
        self.crashed = True

    def _data(self, params: dict[str, Any]) -> None:
        self._count(int(params.get("dataLength") or 0))

    def _count(self, length: int) -> None:
        self.received += length
        if not self.over and self.received > self.limit:
            self.over = True
            self._exceeded()

    # --- workers and out-of-process frames: nested sessions, addressed by their path of ids ----
    def _child_attached(self, route: tuple[str, ...], params: dict[str, Any]) -> None:
        child = (*route, params["sessionId"])
        self._send(child, "Network.enable", _BUFFER)
        self._send(child, "Target.setAutoAttach", _AUTO_ATTACH)

    def _from_child(self, route: tuple[str, ...], params: dict[str, Any]) -> None:
        child = (*route, params["sessionId"])
        try:
            message = json.loads(params["message"])
        except (KeyError, ValueError):
            return
        method = message.get("method")
        inner = message.get("params") or {}
        if method == "Network.dataReceived":
            self._data(inner)
        elif method == "Target.attachedToTarget":
            self._child_attached(child, inner)
        elif method == "Target.receivedMessageFromTarget":
            self._from_child(child, inner)

    def _send(self, route: tuple[str, ...], method: str, params: dict[str, Any]) -> None:
        """Send a command to the nested session at ``route`` (outermost id first), not waiting."""
        if self._session is None:
            return
        message = json.dumps({"id": next(self._ids), "method": method, "params": params})
        for session_id in reversed(route[1:]):
            message = json.dumps(
                {
                    "id": next(self._ids),
                    "method": "Target.sendMessageToTarget",
                    "params": {"sessionId": session_id, "message": message},
                }
            )
        sent = asyncio.ensure_future(
            self._session.send("Target.sendMessageToTarget", {"sessionId": route[0], "message": message})
        )
        self._pending.add(sent)
        sent.add_done_callback(self._done)

    def _done(self, sent: asyncio.Future[Any]) -> None:
        self._pending.discard(sent)
        # A target that went away before the command reached it: nothing to count there.
        with contextlib.suppress(PlaywrightError, Exception, asyncio.CancelledError):
            sent.result()
