"""One pace per site across processes, and robots.txt Crawl-delay, seen from the site's side.

A loopback site logs when each request arrives and when its answer is done; the tests assert on
that log (the time between two arrivals, the requests in progress at once), not on how fast the
machine is.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from harvest.state.pace import Pace, PaceBudget
from tests import PROJECT_ROOT, scrapy_crawl

#: Components these tests do not exercise (the rights middleware fetches more per site).
NOT_UNDER_TEST = {"HARVEST_RIGHTS_ENABLED": False}


@dataclass
class Arrival:
    """One request as the server saw it."""

    path: str
    start: float
    end: float


class PacedSite:
    """A small blog on 127.0.0.1 that answers after ``latency`` s and logs every arrival.

    ``/`` links ``posts`` articles (``/blog/post-<i>``); robots.txt has ``Crawl-delay`` when set.
    """

    def __init__(self, posts: int, *, latency: float = 0.0, crawl_delay: float | None = None) -> None:
        self.posts = posts
        self.latency = latency
        self.crawl_delay = crawl_delay
        self.arrivals: list[Arrival] = []
        self._lock = threading.Lock()
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:  # noqa: N802
                start = time.time()
                status, body, ctype = site.page(self.path)
                if site.latency:
                    time.sleep(site.latency)
                # The end is taken before the answer is written: once it is, the client may give
                # its grant back and the next request arrive before this thread runs again (on a
                # loaded machine), which would count as one request too many in flight.
                end = time.time()
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
                with site._lock:
                    site.arrivals.append(Arrival(self.path, start, end))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def page(self, path: str) -> tuple[int, str, str]:
        """Status, body and content type of ``path``."""
        if path == "/robots.txt":
            extra = f"Crawl-delay: {self.crawl_delay}\n" if self.crawl_delay else ""
            return 200, f"User-agent: *\n{extra}Disallow: /private/\n", "text/plain"
        if path == "/":
            links = "".join(f'<li><a href="/blog/post-{i}">Post {i}</a></li>' for i in range(self.posts))
            return (
                200,
                f"<html><head><title>Blog</title></head><body><ul>{links}</ul></body></html>",
                "text/html",
            )
        if path.startswith("/blog/post-"):
            text = " ".join(f"Sentence {n} of {path} tells something worth reading." for n in range(40))
            article = f"<article><h1>{path}</h1><p>{text}</p></article>"
            return 200, f"<html><head><title>{path}</title></head><body>{article}</body></html>", "text/html"
        if path.startswith(("/alpha/", "/beta/", "/gamma/")):  # the fleet's test spiders
            return 200, f"<html><body><p>Page {path}</p></body></html>", "text/html"
        return 404, "not found", "text/plain"

    def __enter__(self) -> PacedSite:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def log(self) -> list[Arrival]:
        """Arrivals in order."""
        with self._lock:
            return sorted(self.arrivals, key=lambda a: a.start)


def warnings(log: str) -> list[str]:
    """WARNING lines of a crawl's log (components of others switched off here aside)."""
    return [ln for ln in log.splitlines() if "WARNING" in ln and "Disabled harvest." not in ln]


def min_gap(arrivals: list[Arrival]) -> float:
    """Shortest time between two consecutive arrivals."""
    starts = [a.start for a in arrivals]
    return min(b - a for a, b in zip(starts, starts[1:], strict=False))


def pace_problems(arrivals: list[Arrival], interval: float) -> list[str]:
    """How the server's arrivals break a pace of one request per ``interval`` (none: it held).

    What harvest decides is when a grant is given (tested on the grants themselves above); a
    request then still crosses the downloader and the loopback stack, whose delay varies with
    the machine's load, so one arrival can come late and the next on time, closer than the
    interval. Two properties hold whatever that delay is, and fail when the pace is not kept
    (each process pacing alone sends two or three times as often): the mean gap is the interval,
    and any three arrivals in a row span at least one interval.
    """
    starts = sorted(a.start for a in arrivals)
    problems = []
    mean = (starts[-1] - starts[0]) / (len(starts) - 1)
    if mean < interval * 0.9:
        problems.append(f"mean gap {mean:.3f} s < {interval} s")
    spans = [c - a for a, c in zip(starts, starts[2:], strict=False)]
    if spans and min(spans) < interval:
        problems.append(f"three arrivals within {min(spans):.3f} s < {interval} s")
    return problems


def max_concurrent(arrivals: list[Arrival]) -> int:
    """Most requests in progress at the server at once."""
    events = sorted([(a.start, 1) for a in arrivals] + [(a.end, -1) for a in arrivals])
    now = peak = 0
    for _, step in events:
        now += step
        peak = max(peak, now)
    return peak


def blogs_config(root: Path, site: PacedSite, **keys: Any) -> Path:
    """A blogs.yaml naming the loopback site (with per-site ``keys``); returns its folder."""
    config = root / "config"
    config.mkdir(parents=True, exist_ok=True)
    extra = "".join(f"    {k}: {v}\n" for k, v in keys.items())
    (config / "blogs.yaml").write_text(
        f"sites:\n  - name: paced\n    start_urls: ['{site.base_url}/']\n{extra}", encoding="utf-8"
    )
    return config


# --- the shared budget, across OS processes -----------------------------------------------------


def _hammer(path: str, host: str, count: int, out: Any) -> None:
    budget = PaceBudget(path, poll=0.005)
    pace = Pace(0.03, 2)
    for _ in range(count):
        while (grant := budget.acquire(host, pace)).grant is None:
            time.sleep(min(grant.wait, 0.01))
        # The grant's own time: this process may run only later on a loaded machine.
        start = grant.at
        time.sleep(0.02)
        out.put((start, time.time()))
        budget.release(grant.grant)
    budget.close()


def test_the_sqlite_pace_holds_across_processes(tmp_path: Path) -> None:
    """Three processes taking grants for one host: the interval and concurrency hold in total."""
    path = str(tmp_path / "state" / "_pace" / "pace.sqlite")
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_hammer, args=(path, "127.0.0.1:1", 12, queue)) for _ in range(3)]
    for proc in procs:
        proc.start()
    grants = [queue.get(timeout=60) for _ in range(36)]
    for proc in procs:
        proc.join(30)
    arrivals = [Arrival("", start, end) for start, end in sorted(grants)]
    assert min_gap(arrivals) >= 0.03 - 0.002
    assert max_concurrent(arrivals) <= 2
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM inflight").fetchone()[0] == 0


def test_grants_of_a_dead_process_are_purged(tmp_path: Path) -> None:
    """A process killed while holding grants does not block the host for the others."""
    path = tmp_path / "pace.sqlite"
    budget = PaceBudget(path)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    pid = int(dead.stdout)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO inflight VALUES ('x', 'h', ?, ?)", (pid, time.time()))
    assert budget.acquire("h", Pace(0.0, 1)).grant is not None
    budget.close()


# --- grants kept for the next request (no interval) -------------------------------------------


def test_a_grant_without_interval_serves_the_next_request_then_goes_back(tmp_path: Path) -> None:
    """Concurrency-only pace: the answered request's grant is reused, still counted, then given back."""
    from scrapy import Request
    from scrapy.http import Response

    from harvest.middlewares.pace import PaceMiddleware
    from tests import get_crawler

    settings = {"HARVEST_DATA_DIR": str(tmp_path), "HARVEST_PACE_HOLD": 0.2, "DOWNLOAD_DELAY": 0}
    crawler = get_crawler(settings=settings)
    crawler.stats.open_spider()
    mw = PaceMiddleware.from_crawler(crawler)
    other = PaceBudget(mw.path)  # another process's view of the shared store
    host = "127.0.0.1:9"

    async def scenario() -> None:
        first = Request(f"http://{host}/a")
        await mw.process_request(first)
        mw.process_response(first, Response(first.url, request=first))
        assert other.in_flight(host) == 1  # kept, and still counted for everyone
        second = Request(f"http://{host}/b")
        await mw.process_request(second)
        assert other.in_flight(host) == 1  # the same grant, not a second one
        mw.process_response(second, Response(second.url, request=second))
        started = time.monotonic()
        while other.in_flight(host) and time.monotonic() - started < 10:  # hang guard only
            await asyncio.sleep(0.05)
        assert other.in_flight(host) == 0  # given back once idle past HARVEST_PACE_HOLD

    asyncio.run(scenario())
    assert crawler.stats.get_value("harvest/pace/grants") == 2
    assert crawler.stats.get_value("harvest/pace/reused") == 1
    mw.spider_closed(crawler.spider)
    other.close()


def test_a_grant_that_cannot_be_given_back_is_left_to_expire(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The shared store failing (a full disk, seen in tests/faults) while an idle grant's hold
    runs out: the sweep is a timer callback, and the error escaped it as an unhandled traceback
    logged at ERROR. It is said once at INFO: the grant expires on its own."""
    from scrapy import Request
    from scrapy.http import Response

    from harvest.middlewares.pace import PaceMiddleware
    from tests import get_crawler

    settings = {"HARVEST_DATA_DIR": str(tmp_path), "HARVEST_PACE_HOLD": 0.1, "DOWNLOAD_DELAY": 0}
    crawler = get_crawler(settings=settings)
    crawler.stats.open_spider()
    mw = PaceMiddleware.from_crawler(crawler)
    host = "127.0.0.1:9"
    unhandled: list[dict[str, object]] = []

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, context: unhandled.append(context))
        for path in ("a", "b"):
            request = Request(f"http://{host}/{path}")
            await mw.process_request(request)
            mw.process_response(request, Response(request.url, request=request))
        assert mw.store is not None
        mw.store._db.close()  # type: ignore[attr-defined]  # the store fails from now on
        # Until the sweep ran (the hold is 0.1 s); 10 s only catches a hang.
        deadline = time.monotonic() + 10
        while mw._idle:
            assert time.monotonic() < deadline, "the idle grant was never swept"
            await asyncio.sleep(0.05)

    with caplog.at_level(logging.INFO, logger="harvest.middlewares.pace"):
        asyncio.run(scenario())
    assert unhandled == []
    assert mw._idle == {}  # swept: nothing is kept for reuse
    said = [r for r in caplog.records if "Could not give back a pace grant" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.INFO]


def _paced_after_the_store_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, state_url: str, fail: Any
) -> tuple[list[float], list[str]]:
    """Two requests through the shared store, ``fail()``, then four more: their grant times and
    the middleware's warnings (the pace is one request every 0.2 s)."""
    from scrapy import Request
    from scrapy.http import Response

    from harvest.middlewares.pace import PaceMiddleware
    from tests import get_crawler

    settings = {
        "HARVEST_DATA_DIR": str(tmp_path),
        "HARVEST_STATE_URL": state_url,
        "DOWNLOAD_DELAY": 0.2,
        "HARVEST_STATE_BUSY_TIMEOUT": 5,
    }
    crawler = get_crawler(settings=settings)
    crawler.stats.open_spider()
    mw = PaceMiddleware.from_crawler(crawler)
    granted: list[float] = []

    async def scenario() -> None:
        for n in range(6):
            if n == 2:
                fail(mw)
            request = Request(f"http://127.0.0.1:9/{n}")
            await mw.process_request(request)  # raised the store's error to every request
            granted.append(time.monotonic())
            mw.process_response(request, Response(request.url, request=request))

    try:
        with caplog.at_level(logging.INFO, logger="harvest.middlewares.pace"):
            asyncio.run(scenario())
    finally:
        mw.spider_closed(crawler.spider)
    assert crawler.stats.get_value("harvest/pace/grants") == 6
    assert crawler.stats.get_value("harvest/pace/store_failed") == 1
    return granted, [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_failing_sqlite_pace_store_leaves_each_site_paced_in_this_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The shared file failing (a full disk) failed every request of the crawl with a warning of
    its own; now the process paces alone, at the same pace, and says so once."""

    def fail(mw: Any) -> None:
        mw.store._db.close()

    granted, warned = _paced_after_the_store_fails(tmp_path, caplog, "", fail)
    gaps = [b - a for a, b in zip(granted, granted[1:], strict=False)]
    assert min(gaps[2:]) >= 0.19, gaps  # the site's pace holds after the failure too
    assert len(warned) == 1 and "pace.sqlite" in warned[0] and "alone" in warned[0], warned


def test_a_lost_redis_pace_store_leaves_each_site_paced_in_this_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis gone: the same, and the warning names the Redis URL without its password."""
    from tests.scale.redis_server import RedisServer, require_redis_server

    require_redis_server()
    server = RedisServer(tmp_path / "redis", password="s3cret-pace").start()
    try:
        granted, warned = _paced_after_the_store_fails(
            tmp_path, caplog, server.url, lambda _mw: server.stop()
        )
    finally:
        server.stop()
    gaps = [b - a for a, b in zip(granted, granted[1:], strict=False)]
    assert min(gaps[2:]) >= 0.19, gaps
    assert len(warned) == 1 and "alone" in warned[0], warned
    assert "s3cret-pace" not in warned[0] and str(server.port) in warned[0], warned


def test_a_worker_of_a_partitioned_crawl_sends_its_share_of_the_sites_concurrency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers, concurrency 4: each has at most 2 in flight, the third waits for an answer."""
    from scrapy import Request, Spider
    from scrapy.http import Response

    from harvest.middlewares.pace import PaceMiddleware
    from tests import get_crawler

    settings = {
        "HARVEST_DATA_DIR": str(tmp_path),
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "HARVEST_CRAWL_WORKERS": 2,
    }
    monkeypatch.setenv("HARVEST_CRAWL_WORKER", "1")  # its supervisor's channel: the environment

    class Paced(Spider):
        name = "paced"

    crawler = get_crawler(Paced, settings=settings)
    crawler.stats.open_spider()
    mw = PaceMiddleware.from_crawler(crawler)
    other = PaceBudget(mw.path)  # the other worker's view of the shared store
    host = "127.0.0.1:9"

    async def scenario() -> None:
        first, second, third = (Request(f"http://{host}/{name}") for name in "abc")
        await mw.process_request(first)
        await mw.process_request(second)
        waiting = asyncio.ensure_future(mw.process_request(third))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # 2 of 4 in flight: the store would grant, the share does not
        assert other.in_flight(host) == 2  # two slots left for the other worker
        mw.process_response(first, Response(first.url, request=first))
        await asyncio.wait_for(waiting, 10)  # woken by the answer (10 s: hang guard only)
        assert other.in_flight(host) == 2  # the answered request's grant, reused
        for request in (second, third):
            mw.process_response(request, Response(request.url, request=request))

    asyncio.run(scenario())
    assert crawler.stats.get_value("harvest/pace/grants") == 3
    mw.spider_closed(crawler.spider)
    other.close()


def test_an_answer_wakes_the_oldest_waiting_request_only(tmp_path: Path) -> None:
    """Concurrency 2, five requests let in: each answer frees one slot and wakes one request,
    the oldest; the others keep waiting, not woken to find the slot taken and wait again
    (16 requests let in for 4 slots woke ~12 per answer, most of a crawl's CPU-bound time)."""
    from scrapy import Request
    from scrapy.http import Response

    from harvest.middlewares.pace import PaceMiddleware
    from tests import get_crawler

    settings = {"HARVEST_DATA_DIR": str(tmp_path), "DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 2}
    crawler = get_crawler(settings=settings)
    crawler.stats.open_spider()
    mw = PaceMiddleware.from_crawler(crawler)
    host = "127.0.0.1:9"

    async def scenario() -> None:
        requests = [Request(f"http://{host}/{i}") for i in range(5)]
        for request in requests[:2]:
            await mw.process_request(request)
        waiting = [asyncio.ensure_future(mw.process_request(r)) for r in requests[2:]]
        await asyncio.sleep(0.2)
        assert not any(w.done() for w in waiting)
        queued = list(mw._waiters[host])
        assert len(queued) == 3
        mw.process_response(requests[0], Response(requests[0].url, request=requests[0]))
        await asyncio.wait_for(waiting[0], 10)  # the oldest (10 s: hang guard only)
        await asyncio.sleep(0.2)
        assert not waiting[1].done() and not waiting[2].done()
        # The two still waiting were never woken: the same waits as before the answer.
        assert mw._waiters[host] == queued[1:]
        assert not any(w.called for w in queued[1:])
        for request, future in zip(requests[1:3], waiting[1:], strict=True):
            mw.process_response(request, Response(request.url, request=request))
            await asyncio.wait_for(future, 10)
        for request in requests[2:]:
            mw.process_response(request, Response(request.url, request=request))

    asyncio.run(scenario())
    assert crawler.stats.get_value("harvest/pace/grants") == 5
    mw.spider_closed(crawler.spider)


def test_a_grant_under_an_interval_is_given_back_with_its_answer(tmp_path: Path) -> None:
    """With a delay every request takes its own grant (the store keeps the interval)."""
    from scrapy import Request
    from scrapy.http import Response

    from harvest.middlewares.pace import PaceMiddleware
    from tests import get_crawler

    settings = {"HARVEST_DATA_DIR": str(tmp_path), "HARVEST_PACE_HOLD": 5.0, "DOWNLOAD_DELAY": 0.01}
    crawler = get_crawler(settings=settings)
    crawler.stats.open_spider()
    mw = PaceMiddleware.from_crawler(crawler)
    other = PaceBudget(mw.path)
    host = "127.0.0.1:9"

    async def scenario() -> None:
        request = Request(f"http://{host}/a")
        await mw.process_request(request)
        assert other.in_flight(host) == 1
        mw.process_response(request, Response(request.url, request=request))
        assert other.in_flight(host) == 0

    asyncio.run(scenario())
    assert crawler.stats.get_value("harvest/pace/reused") is None
    mw.spider_closed(crawler.spider)
    other.close()


# --- robots.txt Crawl-delay -----------------------------------------------------------------


def test_robots_crawl_delay_is_enforced_logged_once_and_recorded(tmp_path: Path) -> None:
    """Crawl-delay 0.5 beats the site's 0.1: arrivals 0.5 s apart, one INFO line, in the state."""
    with PacedSite(posts=5, crawl_delay=0.5) as site:
        config = blogs_config(tmp_path, site, download_delay=0.1)
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_DATA_DIR": tmp_path / "data",
                "HARVEST_CONFIG_DIR": config,
                "HARVEST_BLOGS_EXTRACTION": "off",
                "CLOSESPIDER_TIMEOUT": 60,
                # One process, one log line (each worker of a partitioned crawl says it once).
                "HARVEST_CRAWL_WORKERS": 1,
                **NOT_UNDER_TEST,
            },
            timeout=90,
        )
        arrivals = site.log()
    assert result.returncode == 0, result.stderr[-3000:]
    assert len([a for a in arrivals if a.path.startswith("/blog/post-")]) == 5
    assert not pace_problems(arrivals, 0.5), [round(a.start, 3) for a in arrivals]
    host = site.base_url.removeprefix("http://")
    lines = [line for line in result.stderr.splitlines() if "asks for Crawl-delay" in line]
    assert len(lines) == 1 and "INFO" in lines[0] and host in lines[0], lines
    assert not warnings(result.stderr)
    with sqlite3.connect(tmp_path / "data" / "state" / "_pace" / "pace.sqlite") as db:
        row = db.execute(
            "SELECT site, configured, crawl_delay, interval FROM sites WHERE host = ?", (host,)
        ).fetchone()
    assert row == ("paced", 0.1, 0.5, 0.5)


# --- one pace for three replicas --------------------------------------------------------------


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh redis-server on loopback (skipped without redis-server; CI: fails)."""
    from tests.scale.redis_server import RedisServer, require_redis_server

    require_redis_server()
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server.url
    finally:
        server.stop()


def run_replicas(tmp_path: Path, site: PacedSite, replicas: int, state_url: str, **site_keys: Any) -> float:
    """``run_all.py --once --replicas blogs=N`` against ``site``; returns the seconds it took."""
    config = blogs_config(tmp_path, site, **site_keys)
    cmd = [sys.executable, "run_all.py", "--once", "--spiders", "blogs", "--replicas", f"blogs={replicas}",
           "--no-live", "--data-dir", str(tmp_path / "data"), "-s", f"HARVEST_STATE_URL={state_url}",
           "-s", f"HARVEST_CONFIG_DIR={config}", "-s", "HARVEST_BLOGS_EXTRACTION=off",
           "-s", "MAX_IDLE_TIME_BEFORE_CLOSE=1", "-s", "HARVEST_REDIS_IDLE_POLL=0.2"]  # fmt: skip
    for key, value in NOT_UNDER_TEST.items():
        cmd += ["-s", f"{key}={value}"]
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    started = time.monotonic()
    result = subprocess.run(cmd, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return time.monotonic() - started


def test_three_replicas_keep_one_pace_in_total(tmp_path: Path, redis_url: str) -> None:
    """``--replicas blogs=3``: the site's delay and concurrency hold over the three, not each."""
    with PacedSite(posts=24, latency=0.25) as site:
        run_replicas(tmp_path, site, 3, redis_url, download_delay=0.1, concurrency=2)
        arrivals = site.log()
    logs = sorted((tmp_path / "data" / "logs" / "blogs").glob("*.log"))
    assert len(logs) == 3
    # Each process that fetched from the site asked for its robots.txt first, once (the spider's
    # own request for its Sitemap: lines gets that answer): at least two processes shared the
    # pace (on a loaded machine the third may find the 24 posts taken).
    robots = sum(1 for a in arrivals if a.path == "/robots.txt")
    assert 2 <= robots <= 3, robots
    assert len({a.path for a in arrivals if a.path.startswith("/blog/post-")}) == 24
    assert not pace_problems(arrivals, 0.1), [round(a.start, 3) for a in arrivals]
    assert max_concurrent(arrivals) <= 2
    for log in logs:
        assert not warnings(log.read_text(encoding="utf-8"))


@pytest.mark.parametrize("delay", [0.1, 0.0], ids=["interval", "concurrency-only"])
def test_spiders_of_one_fleet_share_the_sqlite_pace(tmp_path: Path, delay: float) -> None:
    """Three spider processes of one fleet on one data folder, one site: one pace (SQLite).

    With no delay the pace is concurrency alone and grants are kept for the next request
    (HARVEST_PACE_HOLD): the total in flight still holds.
    """
    (tmp_path / "config").mkdir()
    with PacedSite(posts=0, latency=0.2) as site:
        cmd = [sys.executable, "run_all.py", "--once", "--spiders", "alpha,beta,gamma", "--processes", "3",
               "--no-live", "--data-dir", str(tmp_path / "data"),
               "-s", "SPIDER_MODULES=tests.runner.spiders_for_tests", "-s", f"TEST_SITE_URL={site.base_url}",
               "-s", "TEST_PAGES=8", "-s", f"HARVEST_CONFIG_DIR={tmp_path / 'config'}",
               "-s", f"DOWNLOAD_DELAY={delay}", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=2",
               # AutoThrottle's delay is an interval too: off, the pace is concurrency alone.
               "-s", f"AUTOTHROTTLE_ENABLED={bool(delay)}"]  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
        result = subprocess.run(cmd, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=120)
        arrivals = site.log()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert len([a for a in arrivals if a.path.count("/") == 2 and a.path != "/robots.txt"]) == 24
    assert max_concurrent(arrivals) <= 2
    logs = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "data" / "logs").rglob("*.log"))
    reused = sum(int(n) for n in re.findall(r"'harvest/pace/reused': (\d+)", logs))
    if delay:
        assert not pace_problems(arrivals, delay), [round(a.start, 3) for a in arrivals]
        assert reused == 0  # a grant under an interval serves one request
    else:
        assert reused > 0
