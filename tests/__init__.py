"""Shared test helpers: fixture paths, loopback servers, running `scrapy crawl` for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: Real pages other people wrote; read in place, never copied (see ../shared/README.md).
SHARED_FIXTURES = Path(
    os.environ.get("HARVEST_SHARED_FIXTURES", PROJECT_ROOT.parent / "shared" / "fixtures")
)
#: Small pages the project wrote itself.
OWN_FIXTURES = Path(__file__).resolve().parent / "fixtures"


def shared_fixture(*parts: str) -> Path:
    """Path of a shared fixture, or skip the test with the reason when it is absent."""
    path = SHARED_FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"shared fixture {path} not found (set HARVEST_SHARED_FIXTURES to the fixtures folder)"
        )
    return path


def get_crawler(spider_cls: Any = None, settings: dict[str, Any] | None = None) -> Any:
    """A Crawler with the project's settings plus ``settings``, for component tests.

    No Twisted reactor is required (component tests build middlewares and pipelines without an
    engine); pass ``TWISTED_REACTOR_ENABLED=True`` in ``settings`` for a test that crawls.
    """
    from scrapy.settings import Settings
    from scrapy.spiders import Spider
    from scrapy.utils.test import get_crawler as scrapy_get_crawler

    import harvest.settings as project_settings

    merged = Settings()
    merged.setmodule(project_settings, priority="project")
    merged.set("TWISTED_REACTOR_ENABLED", False, priority="project")
    merged.update(settings or {}, priority="cmdline")
    return scrapy_get_crawler(spider_cls or Spider, merged.copy_to_dict())


def scrapy_crawl(
    spider: str,
    *,
    settings: dict[str, Any] | None = None,
    args: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    extra: list[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m scrapy crawl`` in the project root as a user would; return the result."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", spider]
    for key, value in (settings or {}).items():
        if isinstance(value, (dict, list)):
            value = json.dumps(value)
        cmd += ["-s", f"{key}={value}"]
    for key, value in (args or {}).items():
        cmd += ["-a", f"{key}={value}"]
    cmd += extra or []
    full_env = dict(os.environ)
    full_env.pop("GITHUB_TOKEN", None)
    full_env.update(env or {})
    return subprocess.run(
        cmd, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=timeout, env=full_env
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every JSON object of a JSON Lines file (missing file: empty list)."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def read_committed_jsonl(path: Path) -> list[dict[str, Any]]:
    """The complete lines of a JSON Lines file a process is writing, or was killed writing.

    A SIGKILL can land inside a write: the torn last line has no newline yet. harvest cuts it
    when it next opens the file, so a test reading between the kill and the restart skips it.
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    return [json.loads(line) for line in complete.decode("utf-8").splitlines() if line.strip()]
