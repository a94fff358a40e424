from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.disks import mount_tmpfs, unmount
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


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB file system (tmpfs with size=1m) at ``tmp_path/disk``, unmounted afterwards."""
    mount = tmp_path / "disk"
    mount_tmpfs(mount, "1m")
    try:
        yield mount
    finally:
        unmount(mount)
