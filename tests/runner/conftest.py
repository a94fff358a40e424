"""Fixtures for the fleet tests: a loopback site for the test spiders, and run_all.py as a user runs it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import PROJECT_ROOT, read_jsonl
from tests.servers import LoggedRequest, LoopbackServer, Reply, loopback_server

TEST_SPIDERS = "tests.runner.spiders_for_tests"
SPIDER_NAMES = ("alpha", "beta", "gamma", "crashy", "hangs", "leaky")
#: Pages served per test spider (tests ask for fewer with TEST_PAGES).
MAX_PAGES = 300
#: Longest a held page waits for release: only a guard against a test that forgets to release.
HOLD_GUARD = 120.0


class SpiderSite:
    """The loopback site of the test spiders: ``/<spider>/<i>``, each answered after ``delay`` s.

    With ``hold_from`` set, pages from that index on are held unanswered until :meth:`release`,
    so a test can act while every spider is known to be mid-crawl.
    """

    def __init__(self, server: LoopbackServer) -> None:
        self.server = server
        self.delay = 0.0
        self.hold_from: int | None = None
        self._released = threading.Event()
        for name in SPIDER_NAMES:
            for i in range(MAX_PAGES):
                server.add(f"/{name}/{i}", self._page)

    def release(self) -> None:
        """Answer the held pages (and every later one)."""
        self._released.set()

    def _page(self, request: LoggedRequest) -> Reply:
        if self.hold_from is not None and int(request.path.rsplit("/", 1)[-1]) >= self.hold_from:
            self._released.wait(HOLD_GUARD)
        if self.delay:
            time.sleep(self.delay)
        return Reply(body=f"<html><body><h1>{request.path}</h1><p>Text of {request.path}.</p></body></html>")

    @property
    def url(self) -> str:
        return self.server.base_url

    def fetched(self, spider: str) -> list[str]:
        return [p for p in self.server.paths_requested() if p.startswith(f"/{spider}/")]


@pytest.fixture
def site() -> Iterator[SpiderSite]:
    with loopback_server() as server:
        yield SpiderSite(server)


@dataclass
class FleetDirs:
    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def config(self) -> Path:
        return self.root / "config"

    @property
    def status(self) -> Path:
        return self.data / "fleet" / "status.json"

    def items(self, spider: str, item_type: str = "document") -> list[dict[str, Any]]:
        return read_jsonl(self.data / spider / f"{item_type}.jsonl")

    def write_config(self, spider: str, text: str) -> None:
        self.config.mkdir(parents=True, exist_ok=True)
        (self.config / f"{spider}.yaml").write_text(text, encoding="utf-8")


@pytest.fixture
def dirs(tmp_path: Path) -> FleetDirs:
    d = FleetDirs(tmp_path)
    d.config.mkdir()
    return d


def fleet_argv(dirs: FleetDirs, site_url: str | None, *args: str, **settings: Any) -> list[str]:
    """``python run_all.py`` with the test spiders, the temp folders and quick fleet timings."""
    base = {
        "SPIDER_MODULES": TEST_SPIDERS,
        "HARVEST_CONFIG_DIR": str(dirs.config),
        "HARVEST_FLEET_STATUS_INTERVAL": 0.5,
        "HARVEST_FLEET_POLL_INTERVAL": 0.2,
        "HARVEST_FLEET_LOG_INTERVAL": 2,
        "HARVEST_FLEET_RESTART_BACKOFF": 0.2,
        # No throttling against a loopback server: the tests measure the fleet, not politeness.
        "AUTOTHROTTLE_ENABLED": False,
    }
    if site_url:
        base["TEST_SITE_URL"] = site_url
    base.update(settings)
    argv = [sys.executable, "run_all.py", "--data-dir", str(dirs.data), *args]
    for key, value in base.items():
        argv += ["-s", f"{key}={value}"]
    return argv


def fleet_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("GITHUB_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_fleet(argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=timeout, env=fleet_env()
    )


class FleetProcess:
    """A fleet running in the background, for tests that signal it mid-run."""

    def __init__(self, argv: list[str], log: Path) -> None:
        self.log = log
        self._fh = log.open("w")
        self.proc = subprocess.Popen(
            argv, cwd=PROJECT_ROOT, stdout=self._fh, stderr=subprocess.STDOUT, text=True, env=fleet_env()
        )

    def wait_until(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"the fleet exited ({self.proc.returncode}) before {what}:\n{self.output()}"
                )
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}:\n{self.output()}")

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout)
        finally:
            self._fh.close()

    def output(self) -> str:
        if not self._fh.closed:
            self._fh.flush()
        return self.log.read_text()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self._fh.close()


@pytest.fixture
def background(tmp_path: Path) -> Iterator[Callable[[list[str]], FleetProcess]]:
    started: list[FleetProcess] = []

    def start(argv: list[str]) -> FleetProcess:
        fp = FleetProcess(argv, tmp_path / f"fleet-{len(started)}.out")
        started.append(fp)
        return fp

    yield start
    for fp in started:
        fp.kill()
