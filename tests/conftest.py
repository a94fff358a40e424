from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import LoopbackServer, loopback_server, octopress_server


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A fresh loopback server per test (routes are added by the test)."""
    with loopback_server() as srv:
        yield srv


@pytest.fixture
def octopress() -> Iterator[LoopbackServer]:
    """The real Octopress blog of the shared fixtures on a loopback server (tests/servers.py)."""
    with octopress_server() as srv:
        yield srv
