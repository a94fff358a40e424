from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import PROJECT_ROOT, read_jsonl
from tests.scale.blog_site import BlogSite, octopress_root, post_paths
from tests.scale.redis_server import RedisServer, require_redis_server


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A fresh redis-server (no persistence) on a free loopback port."""
    require_redis_server()
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def blog() -> Iterator[BlogSite]:
    """The real Octopress blog on loopback, with a small delay per answer (as a real site)."""
    site = BlogSite(octopress_root(), delay=0.05).start()
    try:
        yield site
    finally:
        site.stop()


@dataclass
class Worker:
    """One ``scrapy crawl`` process of a shared crawl."""

    process: subprocess.Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


@dataclass
class Crawl:
    """Processes of the ``blogs`` spider on one Redis, one data folder, one loopback blog."""

    root: Path
    site: BlogSite
    state_url: str
    settings: dict[str, Any] = field(default_factory=dict)
    workers: list[Worker] = field(default_factory=list)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    def start(self, count: int = 1, *, prefix: Sequence[str] = (), **extra: Any) -> list[Worker]:
        """Start ``count`` workers; ``prefix`` runs them through a command (``ip netns exec ns``)."""
        config = self.root / "config"
        config.mkdir(parents=True, exist_ok=True)
        (config / "blogs.yaml").write_text(
            f"sites:\n  - name: octopress\n    start_urls: ['{self.site.base_url}/']\n", encoding="utf-8"
        )
        settings = {
            "HARVEST_STATE_URL": self.state_url,
            "HARVEST_DATA_DIR": self.data_dir,
            "HARVEST_CONFIG_DIR": config,
            "AUTOTHROTTLE_ENABLED": False,
            "TELNETCONSOLE_ENABLED": False,
            "REMOTE_CONTROL_ENABLED": False,
            # Fast coordination for a small site: a dead worker is noticed in seconds.
            "HARVEST_REDIS_HEARTBEAT": 0.5,
            "HARVEST_REDIS_WORKER_TIMEOUT": 3,
            "MAX_IDLE_TIME_BEFORE_CLOSE": 2,
            "HARVEST_STATE_COMMIT_SECONDS": 1,
            "CLOSESPIDER_TIMEOUT": 150,
            "LOG_LEVEL": "INFO",
            **self.settings,
            **extra,
        }
        env = dict(os.environ)
        env.pop("GITHUB_TOKEN", None)
        started = []
        for _ in range(count):
            log = self.root / f"worker-{len(self.workers)}.log"
            cmd = [*prefix, sys.executable, "-m", "scrapy", "crawl", "blogs"]
            for key, value in {**settings, "LOG_FILE": log}.items():
                cmd += ["-s", f"{key}={value}"]
            worker = Worker(subprocess.Popen(cmd, cwd=PROJECT_ROOT, env=env), log)
            self.workers.append(worker)
            started.append(worker)
        return started

    def wait(self, workers: list[Worker] | None = None, timeout: float = 180) -> list[int]:
        deadline = time.monotonic() + timeout
        codes = []
        for worker in workers if workers is not None else self.workers:
            left = max(0.1, deadline - time.monotonic())
            try:
                codes.append(worker.process.wait(timeout=left))
            except subprocess.TimeoutExpired:
                worker.process.kill()
                log = worker.text()[-4000:]
                raise AssertionError(f"worker did not finish in {timeout}s:\n{log}") from None
        return codes

    def stop_all(self) -> None:
        for worker in self.workers:
            if worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait(timeout=10)

    def documents(self) -> list[dict[str, Any]]:
        return read_jsonl(self.data_dir / "blogs" / "document.jsonl")

    def posts_stored(self) -> list[str]:
        """The post path of every stored document (``/YYYY/MM/slug/``), duplicates kept."""
        base = self.site.base_url
        return [doc["url"].removeprefix(base).rstrip("/") + "/" for doc in self.documents()]

    def post_hits(self) -> dict[str, int]:
        hits = self.site.hits
        return {path: hits[path] + hits[path.rstrip("/")] for path in post_paths(self.site.root)}

    def wait_for(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)


@pytest.fixture
def crawl(tmp_path: Path, blog: BlogSite, redis_server: RedisServer) -> Iterator[Crawl]:
    run = Crawl(tmp_path, blog, redis_server.url)
    try:
        yield run
    finally:
        run.stop_all()
