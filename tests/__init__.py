"""Shared test helpers: fixture paths, loopback servers, running `scrapy crawl` for real."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: Real pages other people wrote; read in place, never copied (see ../shared/README.md).
SHARED_FIXTURES = Path(os.environ.get("HARVEST_SHARED_FIXTURES", PROJECT_ROOT.parent / "shared" / "fixtures"))
#: Small pages the project wrote itself.
OWN_FIXTURES = Path(__file__).resolve().parent / "fixtures"


#: Under CI (``CI=true``, as .ci/run and most CI services set it) every requirement is installed:
#: a missing one is a broken CI, so the test fails instead of skipping.
IN_CI = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def skip_or_fail(reason: str) -> NoReturn:
    """Skip the test with ``reason`` on a user's machine; fail it under CI (``CI=true``)."""
    if IN_CI:
        pytest.fail(f"{reason} [CI=true: a missing requirement fails instead of skipping]", pytrace=False)
    pytest.skip(reason)


def require(condition: object, reason: str) -> None:
    """Go on if ``condition`` holds, else :func:`skip_or_fail` with ``reason``."""
    if not condition:
        skip_or_fail(reason)


#: The seed of the randomized tests (crash, chaos); ``HARVEST_TEST_SEED=N`` replays a failure.
DEFAULT_TEST_SEED = 20260101


def random_seed() -> int:
    """The random seed for this run: fixed, or ``HARVEST_TEST_SEED``; printed for a replay."""
    raw = os.environ.get("HARVEST_TEST_SEED", "").strip()
    seed = int(raw) if raw else DEFAULT_TEST_SEED
    print(f"random seed {seed} (replay with HARVEST_TEST_SEED={seed})")
    return seed


def shared_fixture(*parts: str) -> Path:
    """Path of a shared fixture, or skip the test with the reason when it is absent (CI: fail)."""
    path = SHARED_FIXTURES.joinpath(*parts)
    require(
        path.exists(), f"shared fixture {path} not found (set HARVEST_SHARED_FIXTURES to the fixtures folder)"
    )
    return path


def eval_pages() -> Iterator[tuple[str, str, str]]:
    """trafilatura's evaluation pages (shared fixtures), as the crawler decodes them: (file, URL, HTML).

    Each is one real article page. The set's index names a few pages its archive does not hold:
    left out.
    """
    from scrapy.http import HtmlResponse

    folder = shared_fixture("extraction", "trafilatura-eval")
    data = json.loads((folder / "evaldata.json").read_text(encoding="utf-8"))
    for url, item in sorted(data.items()):
        path = folder / "pages" / f"{item['file']}.gz"
        if path.is_file():
            with gzip.open(path, "rb") as f:
                yield item["file"], url, HtmlResponse(url=url, body=f.read()).text


def get_crawler(spider_cls: Any = None, settings: dict[str, Any] | None = None) -> Any:
    """A Crawler with the project's settings plus ``settings``, for component tests.

    Built by :func:`harvest.crawl.build.build_crawler`, the one function every entry point uses, so a
    component test sees the components a real crawl has. No Twisted reactor is required
    (component tests build middlewares and pipelines without an engine); pass
    ``TWISTED_REACTOR_ENABLED=True`` in ``settings`` for a test that crawls.
    """
    from scrapy.crawler import AsyncCrawlerRunner, CrawlerRunner
    from scrapy.spiders import Spider
    from scrapy.utils.reactor import is_reactor_installed

    from harvest.crawl.build import build_crawler, project_settings

    merged = project_settings({"TWISTED_REACTOR_ENABLED": False, **(settings or {})})
    runner = CrawlerRunner(merged) if is_reactor_installed() else AsyncCrawlerRunner(merged)
    crawler = build_crawler(runner, spider_cls or Spider, validate=False)
    crawler._apply_settings()
    return crawler


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


def wait_for(predicate: Callable[[], object], what: str, guard: float = 60.0, poll: float = 0.05) -> None:
    """Wait until ``predicate()`` holds; ``guard`` seconds only catch a hang."""
    deadline = time.monotonic() + guard
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(poll)


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
