"""The fleet's lock-free item counter and the watchdog's hang policy, with real processes where it matters.

The stop flag, lock-free like the counter, is here too. The fleet-level behaviour (a child
killed mid-crawl, a blocked reactor, an announced wait, an idle crawl) is in test_fleet.py.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from scrapy import Spider
from scrapy.http import Request

from harvest.extensions.fleet import FleetChannel, FleetExtension
from harvest.github import grants as github_grants
from harvest.github.middleware import GithubApiMiddleware
from harvest.runner.counter import SlotCounter
from harvest.runner.jobs import Counts, Job
from harvest.runner.stopflag import StopFlag
from harvest.util import waits
from tests import get_crawler, wait_for

pytestmark = pytest.mark.timeout(120)

#: Items the surviving child counts after its sibling was killed. With the old lock-based
#: counter and a lock left held by the dead sibling, each would wait 2 s: 4,000 s in all.
SURVIVOR_ITEMS = 2000


def _extension(counter: Any, slot: int) -> FleetExtension:
    receive, send = multiprocessing.Pipe(duplex=False)
    flag = StopFlag(multiprocessing.get_context("spawn"))
    channel = FleetChannel(counter, flag, send, os.getppid(), slot=slot)
    return FleetExtension(channel, get_crawler(Spider).stats, 1.0, lambda reason: None)


def _count_forever(counter: Any, slot: int) -> None:
    """A child that writes its slot as fast as it can until it is killed."""
    ext = _extension(counter, slot)
    while True:
        ext.item_scraped({}, None)  # type: ignore[arg-type]


def _count_after(counter: Any, slot: int, go: Any, n: int) -> None:
    """A child that counts ``n`` items once ``go`` is set, then exits 0."""
    ext = _extension(counter, slot)
    if not go.wait(60):
        os._exit(2)
    for _ in range(n):
        ext.item_scraped({}, None)  # type: ignore[arg-type]
    os._exit(0)


def test_a_child_killed_while_writing_its_slot_stops_no_sibling_and_loses_no_count() -> None:
    ctx = multiprocessing.get_context("spawn")
    counter = SlotCounter(ctx, 2)
    go = ctx.Event()
    victim_slot, survivor_slot = counter.acquire(), counter.acquire()
    assert victim_slot != survivor_slot
    victim = ctx.Process(target=_count_forever, args=(counter.slots, victim_slot))
    survivor = ctx.Process(target=_count_after, args=(counter.slots, survivor_slot, go, SURVIVOR_ITEMS))
    victim.start()
    survivor.start()
    try:
        wait_for(lambda: counter.slots[victim_slot] > 10_000, "the victim to be writing its slot", poll=0.01)
        assert victim.pid is not None
        os.kill(victim.pid, signal.SIGKILL)  # mid-write: it does nothing else
        victim.join(60)
        assert victim.exitcode == -signal.SIGKILL
        before = counter.total()
        go.set()
        survivor.join(60)  # hang guard: 2,000 items take milliseconds without a lock
        assert survivor.exitcode == 0
    finally:
        for p in (victim, survivor):
            if p.is_alive():
                p.kill()
                p.join()
    assert counter.slots[survivor_slot] == SURVIVOR_ITEMS
    killed_count = counter.slots[victim_slot]
    assert before == killed_count  # the dead child's slot keeps what it wrote
    # Reaped: both slots fold into the base; the total does not move.
    assert counter.release(victim_slot) == killed_count
    assert counter.release(survivor_slot) == SURVIVOR_ITEMS
    assert counter.total() == killed_count + SURVIVOR_ITEMS
    assert list(counter.slots) == [0, 0]


def test_a_reused_slot_keeps_the_previous_runs_count() -> None:
    counter = SlotCounter(multiprocessing.get_context("spawn"), 1)
    slot = counter.acquire()
    with pytest.raises(RuntimeError, match="in use"):
        counter.acquire()
    counter.slots[slot] += 5  # the first process of a spider
    counter.release(slot)
    again = counter.acquire()  # its restart
    assert again == slot and counter.slots[again] == 0 and counter.total() == 5
    counter.slots[again] += 3
    assert counter.total() == 8
    counter.release(again)
    assert counter.total() == 8


def _killed_at_step(flag: Any, step: int) -> None:
    """A child that reads the stop flag once and SIGKILLs itself at the ``step``-th step of the read.

    The steps are the profiler's events (a call entered or returned, a C function called or
    returned): every moment of the read that a kill from outside could find. A read over before
    ``step`` exits 0: every step has been tried.
    """
    seen = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal seen
        seen += 1
        if seen == step:
            os.kill(os.getpid(), signal.SIGKILL)

    sys.setprofile(profile)
    flag.is_set()
    sys.setprofile(None)
    os._exit(0)


def _stop_when_flagged(flag: Any, polls: Any) -> None:
    """A child polling the stop flag like a fleet child's heartbeat; exits 0 once it is set."""
    while not flag.is_set():
        polls[0] += 1
        time.sleep(0.01)
    os._exit(0)


def test_a_child_killed_at_any_step_of_reading_the_stop_flag_blocks_no_sibling_nor_the_supervisor() -> None:
    # The chaos test's hang: with a multiprocessing.Event, a child killed inside is_set() left
    # the Event's lock taken, and every sibling blocked in its next poll (and the supervisor in
    # set()). Here a child is killed at each step of a read in turn, then the flag is set.
    ctx = multiprocessing.get_context("spawn")
    flag = StopFlag(ctx)
    polls = ctx.Array("q", 1, lock=False)
    survivor = ctx.Process(target=_stop_when_flagged, args=(flag, polls))
    survivor.start()
    try:
        wait_for(lambda: polls[0] > 0, "the surviving child to be polling the flag", poll=0.01)
        for step in itertools.count(1):
            reader = ctx.Process(target=_killed_at_step, args=(flag, step))
            reader.start()
            reader.join(60)  # hang guard: a read takes microseconds
            assert reader.exitcode in (0, -signal.SIGKILL), f"step {step}: exit code {reader.exitcode}"
            polled = polls[0]
            wait_for(
                lambda: polls[0] > polled,  # noqa: B023 - read in this iteration only
                f"the surviving child to poll again after a reader killed at step {step}",
                poll=0.01,
            )
            if reader.exitcode == 0:
                break  # the read was over before this step: every step has had its kill
        # The supervisor's side of a stop (Fleet.request_stop), guarded: a taken lock would block it.
        setter = threading.Thread(target=flag.set, daemon=True)
        setter.start()
        setter.join(60)
        assert not setter.is_alive(), "the supervisor's set() is blocked by a killed reader"
        survivor.join(60)  # hang guard: it polls every 10 ms
        assert survivor.exitcode == 0
    finally:
        if survivor.is_alive():
            survivor.kill()
            survivor.join()
    assert step > 2, "a read of the flag had fewer steps than expected: was anything tried?"


# --- the watchdog's policy ---------------------------------------------------------------------
def running(now: float = 0.0) -> Job:
    job = Job("github_search")
    job.start_process(1, now, "log")
    return job


def test_no_heartbeat_is_a_blocked_reactor() -> None:
    job = running()
    job.report(Counts(items=1, pages=1, requests=1), None, 1.0, in_flight=3)
    assert job.hang(300.0, 300.0) is None
    assert job.hang(302.0, 300.0) == "hung: no heartbeat for 5m 1s (its reactor is blocked)"


def test_a_process_still_starting_has_the_start_timeout() -> None:
    job = running()
    # Nothing heard yet: slow imports on a loaded machine are not a hang before the start timeout.
    assert job.hang(10.0, 5.0, 120.0) is None
    assert job.hang(121.0, 5.0, 120.0) == "hung: no heartbeat for 2m 1s (its reactor is blocked)"
    # Once it has reported, the hung timeout applies again.
    job.report(Counts(), None, 20.0)
    assert job.hang(26.0, 5.0, 120.0) is not None


def test_heartbeats_without_activity_or_wait_are_a_hang() -> None:
    job = running()
    job.report(Counts(items=1, pages=1, requests=1), None, 1.0)
    for t in range(2, 400):
        job.report(Counts(items=1, pages=1, requests=1), None, float(t), scheduled=4)
    hang = job.hang(400.0, 300.0)
    assert hang is not None and hang.startswith("hung: no progress for")
    assert "nothing in flight and no announced wait (4 requests scheduled)" in hang


def test_an_announced_wait_or_a_request_in_flight_is_not_a_hang() -> None:
    wait = waits.Wait("github/search", "waiting for the GitHub search rate limit until 18:42:10Z", 1e10)
    job = running()
    for t in range(1, 3600):
        job.report(Counts(requests=1), None, float(t), waits=[wait.as_dict()])
    assert job.hang(3600.0, 300.0) is None
    assert job.waiting_for() == wait.text
    slow = running()
    for t in range(1, 600):
        slow.report(Counts(requests=1), None, float(t), in_flight=1)
    assert slow.hang(600.0, 300.0) is None
    # Once the wait ends and nothing else happens, the clock starts from the last activity.
    for t in range(3600, 3950):
        job.report(Counts(requests=1), None, float(t))
    assert job.hang(3950.0, 300.0) is not None and job.waiting_for() is None


# --- harvest.util.waits --------------------------------------------------------------------------
def test_waits_are_per_crawler_sorted_and_stale_ones_drop_out() -> None:
    a, b = get_crawler(Spider), get_crawler(Spider)
    now = time.time()
    waits.announce(a, "later", "later", now + 100)
    waits.announce(a, "open", "open-ended")
    waits.announce(a, "soon", "soon", now + 10)
    assert [w.key for w in waits.current(a)] == ["soon", "later", "open"]
    assert waits.current(b) == []
    waits.announce(a, "soon", "sooner", now + 5)  # replaces, keeps its start
    assert waits.current(a)[0].text == "sooner"
    assert a.stats.get_value("harvest/waits/announced") == 3
    waits.clear(a, "soon")
    waits.clear(a, "unknown")
    assert [w.key for w in waits.current(a, now + 100 + waits.STALE_AFTER + 1)] == ["open"]


def test_a_github_rate_limit_wait_is_announced_with_its_end_then_cleared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crawler = get_crawler(Spider)
    mw = GithubApiMiddleware(
        "https://api.github.com", tmp_path, consumer="github_search", token=None, crawler=crawler
    )
    mw.open()
    assert mw.budget is not None
    until = time.time() + 3600
    mw.budget.block(mw.token_key, until, failure=False)
    seen: list[list[waits.Wait]] = []

    async def pause(seconds: float, waiters: list[Any]) -> None:
        seen.append(waits.current(crawler))
        if len(seen) == 2:
            raise _Cancelled  # as a request cancelled mid-wait

    monkeypatch.setattr(github_grants, "_pause", pause)
    monkeypatch.setattr(mw.grants, "_closing", lambda: False)  # no engine in a component test
    with pytest.raises(_Cancelled):
        asyncio.run(mw.process_request(Request("https://api.github.com/search/repositories?q=x")))
    mw.close()
    # One wait per resource, refreshed in place on each pass.
    assert [(w.key, w.since) for w in seen[1]] == [(w.key, w.since) for w in seen[0]]
    [wait] = seen[0]
    assert wait.key == "github/search" and wait.until == pytest.approx(until, abs=5)
    end = time.strftime("%H:%M:%S", time.gmtime(wait.until))
    assert wait.text.startswith(f"waiting for the GitHub search rate limit until {end}Z")
    assert waits.current(crawler) == []  # cleared however the wait ended


class _Cancelled(Exception):
    pass
