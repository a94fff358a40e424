"""RateBudget: the shared per-token budget, in one process and across real processes."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path
from typing import TypedDict, cast

import pytest

from harvest.exceptions import StateError
from harvest.github.budget import RateBudget, rate_limit_snapshot

TOKEN = "t-test"


def test_unknown_window_sends_one_probe(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite", concurrency=3)
    first = budget.acquire(TOKEN, "search", now=1000.0)
    assert first.grant is not None
    second = budget.acquire(TOKEN, "search", now=1000.0)
    assert second.grant is None and second.reason == "probe"
    # Another resource of the same token is a different budget.
    assert budget.acquire(TOKEN, "core", now=1000.0).grant is not None


def test_requests_in_flight_count_against_remaining(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite", concurrency=10, margin=0.5)
    budget.observe(TOKEN, "search", limit=30, remaining=3, reset=1060.0, now=1000.0)
    grants = [budget.acquire(TOKEN, "search", now=1001.0) for _ in range(4)]
    assert [g.grant is not None for g in grants] == [True, True, True, False]
    assert grants[3].reason == "exhausted"
    assert grants[3].wait == pytest.approx(1060.5 - 1001.0)
    # An answer says 2 left (it was counted before the others arrived): still 2 in flight.
    budget.release(grants[0].grant)
    budget.observe(TOKEN, "search", limit=30, remaining=2, reset=1060.0, now=1002.0)
    assert budget.acquire(TOKEN, "search", now=1002.0).grant is None
    # At the reset (plus margin) one probe may learn the new window, once the old requests ended.
    assert budget.acquire(TOKEN, "search", now=1060.6).reason == "probe"
    budget.release(grants[1].grant)
    budget.release(grants[2].grant)
    probe = budget.acquire(TOKEN, "search", now=1060.6)
    assert probe.grant is not None
    assert budget.acquire(TOKEN, "search", now=1060.6).reason == "probe"


def test_out_of_order_answers_never_raise_remaining(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite")
    budget.observe(TOKEN, "search", limit=30, remaining=5, reset=2000.0, now=1000.0)
    budget.observe(TOKEN, "search", limit=30, remaining=7, reset=2000.0, now=1000.0)  # late answer
    assert budget.window(TOKEN, "search").remaining == 5
    budget.observe(TOKEN, "search", limit=30, remaining=29, reset=1500.0, now=1000.0)  # older window
    assert budget.window(TOKEN, "search").remaining == 5
    budget.observe(TOKEN, "search", limit=30, remaining=29, reset=2060.0, now=2001.0)  # new window
    assert budget.window(TOKEN, "search").remaining == 29


def test_concurrency_is_per_token(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite", concurrency=2)
    budget.observe(TOKEN, "search", limit=30, remaining=30, reset=2000.0, now=1000.0)
    budget.observe(TOKEN, "core", limit=5000, remaining=5000, reset=2000.0, now=1000.0)
    a = budget.acquire(TOKEN, "search", now=1000.0)
    b = budget.acquire(TOKEN, "core", now=1000.0)
    c = budget.acquire(TOKEN, "search", now=1000.0)
    assert a.grant and b.grant and c.grant is None and c.reason == "concurrency"
    assert budget.acquire("t-other", "search", now=1000.0).grant is not None
    budget.release(a.grant)
    assert budget.acquire(TOKEN, "search", now=1000.0).grant is not None


def test_blocks_and_backoff_counter(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite")
    assert budget.block(TOKEN, 1100.0, failure=True) == 1
    assert budget.block(TOKEN, 1050.0, failure=True) == 2  # an earlier end never shortens a block
    assert budget.blocked_until(TOKEN) == 1100.0
    waiting = budget.acquire(TOKEN, None, now=1000.0)  # even requests free of the primary limit
    assert waiting.grant is None and waiting.reason == "blocked" and waiting.wait == pytest.approx(100.0)
    assert budget.acquire(TOKEN, None, now=1100.0).grant is not None
    budget.succeeded(TOKEN)
    assert budget.failures(TOKEN) == 0


def test_exhaust_until_reset(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite", margin=1.0)
    budget.exhaust(TOKEN, "search", 1030.0)
    decision = budget.acquire(TOKEN, "search", now=1000.0)
    assert decision.grant is None and decision.wait == pytest.approx(31.0)
    assert budget.acquire(TOKEN, "search", now=1030.5).grant is None  # inside the margin
    assert budget.acquire(TOKEN, "search", now=1031.0).grant is not None


def test_stale_grants_are_dropped(tmp_path: Path) -> None:
    budget = RateBudget(tmp_path / "b.sqlite", concurrency=1, stale_after=60.0)
    assert budget.acquire(TOKEN, "core", now=1000.0).grant is not None  # never released
    assert budget.acquire(TOKEN, "core", now=1030.0).grant is None
    assert budget.acquire(TOKEN, "core", now=1061.0).grant is not None


def test_rate_limit_snapshot_of_the_recorded_body() -> None:
    from tests import shared_fixture
    from tests.github_emulator import load_replay

    rec = load_replay(shared_fixture("github-api", "pygithub-replaydata", "tests", "ReplayData",
                                     "RateLimiting.testGetRateLimit.txt"))[0]  # fmt: skip
    snap = rate_limit_snapshot(rec.json())
    assert snap["search"] == (30, 30, 1734071358.0)
    assert snap["core"] == (5000, 4988, 1734072198.0)
    assert snap["code_search"] == (10, 10, 1734071358.0)
    assert rate_limit_snapshot({"message": "Not Found"}) == {}


def test_unusable_file_is_a_state_error(tmp_path: Path) -> None:
    (tmp_path / "dir.sqlite").mkdir()
    with pytest.raises(StateError, match="dir.sqlite"):
        RateBudget(tmp_path / "dir.sqlite")


# --- across processes ----------------------------------------------------------------------------
class ServerLog(TypedDict):
    """The shared fake server's counters (a Manager dict, written by every worker under the lock)."""

    used: int
    reset: float
    in_flight: int
    max_in_flight: int
    violations: int
    windows: int
    granted_at: list[float]


def _worker(path: str, requests: int, server: ServerLog, lock: object, limit: int, window: float) -> None:
    """One harvest process: takes grants, "sends" requests to a shared fake server, reports back."""
    budget = RateBudget(path, concurrency=2, margin=0.02, poll=0.002)
    done = 0
    while done < requests:
        decision = budget.acquire(TOKEN, "search")
        if decision.grant is None:
            time.sleep(min(decision.wait, 0.01))
            continue
        with lock:  # type: ignore[attr-defined]
            now = time.time()
            if now >= server["reset"]:
                server["used"], server["reset"] = 0, now + window
                server["windows"] += 1
            server["used"] += 1
            server["granted_at"] = [*server["granted_at"], now]
            server["in_flight"] += 1
            server["max_in_flight"] = max(server["max_in_flight"], server["in_flight"])
            if server["used"] > limit:
                server["violations"] += 1
            remaining, reset = max(0, limit - server["used"]), server["reset"]
        time.sleep(0.003)
        with lock:  # type: ignore[attr-defined]
            server["in_flight"] -= 1
        budget.observe(TOKEN, "search", limit=limit, remaining=remaining, reset=reset)
        budget.release(decision.grant)
        done += 1
    budget.close()


def test_processes_sharing_a_token_share_one_budget(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        initial = ServerLog(
            used=0, reset=0.0, in_flight=0, max_in_flight=0, violations=0, windows=0, granted_at=[]
        )
        server = manager.dict(initial)
        lock = manager.Lock()
        limit, window = 6, 0.4
        procs = [
            ctx.Process(target=_worker, args=(str(tmp_path / "b.sqlite"), 8, server, lock, limit, window))
            for _ in range(3)
        ]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=60)
            assert p.exitcode == 0
        # A plain copy of the proxy: the keys of `initial`, each written with its declared type.
        log = cast(ServerLog, server.copy())
        assert log["violations"] == 0
        assert log["max_in_flight"] <= 2
        # 24 requests at 6 per 0.4 s window: at least 4 windows, so at least 3 full waits between
        # the first and the last request the server recorded (process start-up not included).
        granted = log["granted_at"]
        assert len(granted) == 24
        assert log["windows"] >= 4
        assert max(granted) - min(granted) >= 3 * window


def _grab_and_die(path: str) -> None:
    budget = RateBudget(path, concurrency=1)
    assert budget.acquire(TOKEN, "core").grant is not None
    os._exit(0)  # killed with its grant: never released


def test_grants_of_a_dead_process_are_dropped(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    proc = ctx.Process(target=_grab_and_die, args=(str(tmp_path / "b.sqlite"),))
    proc.start()
    proc.join(timeout=60)
    budget = RateBudget(tmp_path / "b.sqlite", concurrency=1)
    assert budget.window(TOKEN, "core").in_flight == 1
    assert budget.acquire(TOKEN, "core").grant is not None
