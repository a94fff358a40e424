"""The web archive's limits shared by OS processes: SQLite file or Redis, seen from the grants."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harvest.state.archive import ArchiveBudget, RedisArchiveBudget

INTERVAL = 0.05


def _open(where: str) -> Any:
    if where.startswith("redis://"):
        import redis

        return RedisArchiveBudget(redis.Redis.from_url(where), poll=0.005)
    return ArchiveBudget(where, poll=0.005)


def _hammer(where: str, count: int, out: Any) -> None:
    limits = _open(where)
    for _ in range(count):
        while (decision := limits.acquire("cdx", INTERVAL)).grant is None:
            time.sleep(min(decision.wait, 0.01))
        # The grant's own time: this process may run only later on a loaded machine.
        start = decision.at
        time.sleep(0.01)
        out.put((start, time.time()))
        limits.release(decision.grant)
    limits.close()


def _grants_of_three_processes(where: str) -> list[tuple[float, float]]:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_hammer, args=(where, 8, queue)) for _ in range(3)]
    for proc in procs:
        proc.start()
    grants = sorted(queue.get(timeout=60) for _ in range(24))
    for proc in procs:
        proc.join(30)
    return grants


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    from tests.scale.redis_server import RedisServer, require_redis_server

    require_redis_server()
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_one_request_at_a_time_and_the_interval_hold_across_processes(
    store: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    where = request.getfixturevalue("redis_url") if store == "redis" else str(tmp_path / "archive.sqlite")
    grants = _grants_of_three_processes(where)
    # One at a time: each grant starts after the previous one ended...
    assert all(later[0] >= earlier[1] for earlier, later in zip(grants, grants[1:], strict=False))
    # ...and at least the interval after the previous grant (small slack for clock reads).
    gaps = [later[0] - earlier[0] for earlier, later in zip(grants, grants[1:], strict=False)]
    assert min(gaps) >= INTERVAL - 0.005, gaps
    # ...and the interval after the previous answer: a request that left late cannot bring the
    # next one closer to it at the archive.
    after_answer = [later[0] - earlier[1] for earlier, later in zip(grants, grants[1:], strict=False)]
    assert min(after_answer) >= INTERVAL - 0.005, after_answer


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_a_refusal_blocks_every_process_and_backs_off_doubling(
    store: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    where = request.getfixturevalue("redis_url") if store == "redis" else str(tmp_path / "archive.sqlite")
    one, other = _open(where), _open(where)
    try:
        assert one.block("web", 30.0, 60.0, 3600.0) == (30.0, 1)
        refused = other.acquire("web", 0.0)
        assert refused.grant is None and refused.reason == "blocked" and 29.0 < refused.wait <= 30.0
        # The other endpoint is not blocked.
        assert other.acquire("cdx", 0.0).grant is not None
        # No Retry-After: 60 s, then 120, 240... up to the most.
        assert [other.block("web", None, 60.0, 200.0)[0] for _ in range(3)] == [120.0, 200.0, 200.0]
        other.succeeded("web")
        assert one.block("web", None, 60.0, 200.0) == (60.0, 1)
    finally:
        one.close()
        other.close()
