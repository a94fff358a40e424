"""Loopback HTTP servers for tests: 127.0.0.1, port 0, a route table and a request log.

The server itself is :mod:`harvest.loopback` (the demo sites need it at run time); this module
keeps the names the tests import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from harvest.loopback import LoggedRequest, LoopbackServer, Reply

#: A route that is a function of the request.
Handler = Callable[[LoggedRequest], Reply]


@contextmanager
def loopback_server() -> Iterator[LoopbackServer]:
    """Start a LoopbackServer for the duration of a ``with`` block."""
    with LoopbackServer() as server:
        yield server


__all__ = ["Handler", "LoggedRequest", "LoopbackServer", "Reply", "loopback_server"]
