"""Several processes of ``blogs`` sharing one crawl in a real Redis, against the real blog fixture.

Counted on the server's side: every page each URL names is fetched once in total, and every
post is stored once in total, whether the processes finish, one is killed, or Redis goes away.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests import PROJECT_ROOT
from tests.scale.blog_site import post_paths
from tests.scale.conftest import Crawl, Worker
from tests.scale.redis_server import CuttableProxy, RedisServer, require_redis_server

pytestmark = [pytest.mark.redis, pytest.mark.timeout(300)]


def scraped(worker: Worker | Path) -> int:
    """Items a worker stored (from the stats Scrapy dumps at the end of its log)."""
    text = worker.read_text(encoding="utf-8") if isinstance(worker, Path) else worker.text()
    match = re.search(r"'item_scraped_count': (\d+)", text)
    return int(match[1]) if match else 0


def assert_every_post_stored_once(crawl: Crawl) -> None:
    stored = Counter(crawl.posts_stored())
    posts = post_paths(crawl.site.root)
    assert set(stored) == posts, (sorted(posts - set(stored))[:5], sorted(set(stored) - posts)[:5])
    twice = {p: n for p, n in stored.items() if n > 1}
    assert not twice, twice


def assert_one_round(logs: list[str]) -> None:
    """Every worker started or joined the same round of the crawl; exactly one started it."""
    found = [re.search(r"(Started|Joined) round (\d+) of blogs", log) for log in logs]
    assert all(found), [log[-2000:] for log, m in zip(logs, found, strict=True) if not m]
    assert len({m[2] for m in found if m}) == 1, [m[0] for m in found if m]
    assert [m[1] for m in found if m].count("Started") == 1, [m[0] for m in found if m]


def posts_fetched(crawl: Crawl) -> int:
    return sum(1 for n in crawl.post_hits().values() if n)


def test_three_processes_fetch_and_store_each_post_once(crawl: Crawl) -> None:
    crawl.site.delay = 0.2  # long enough that all three processes get work
    crawl.start(3)
    assert crawl.wait() == [0, 0, 0], [w.text()[-3000:] for w in crawl.workers]

    assert_every_post_stored_once(crawl)
    # Each URL of the blog was requested once in total, by whichever process popped it (robots.txt
    # aside: Scrapy's RobotsTxtMiddleware fetches it in every process, outside the scheduler).
    hits = {path: n for path, n in crawl.site.hits.items() if path != "/robots.txt"}
    posts = post_paths(crawl.site.root)
    post_urls = {p: n for p, n in hits.items() if p in posts or p + "/" in posts}
    assert post_urls and set(post_urls.values()) == {1}, {p: n for p, n in post_urls.items() if n != 1}
    # All three took part in one shared crawl, and between them stored each post once. (How the
    # work was split is not guaranteed: a worker that starts late may find nothing left to do.)
    assert_one_round([w.text() for w in crawl.workers])
    counts = [scraped(w) for w in crawl.workers]
    assert sum(counts) == len(posts), counts


def test_a_killed_process_loses_nothing(crawl: Crawl) -> None:
    crawl.site.delay = 0.2
    victim, *others = crawl.start(3)
    crawl.wait_for(lambda: posts_fetched(crawl) >= 30, 120, "30 posts fetched")
    # Killed mid-crawl as a member of it: a victim still starting on a loaded machine would
    # leave nothing to put back.
    crawl.wait_for(lambda: " round " in victim.text(), 60, "the victim joining the crawl")
    victim.kill()
    assert crawl.wait(others) == [0, 0], [w.text()[-3000:] for w in others]

    # The survivors put the victim's requests back (after committing what it had written).
    logs = "".join(w.text() for w in others)
    assert re.search(r"Worker \S+ stopped \d+s ago; put its \d+ requests back", logs), logs[-3000:]
    assert_every_post_stored_once(crawl)


def test_killed_processes_resume_on_restart(crawl: Crawl) -> None:
    crawl.site.delay = 0.2
    first = crawl.start(2)
    crawl.wait_for(lambda: posts_fetched(crawl) >= 30, 120, "30 posts fetched")
    for worker in first:
        worker.kill()
    # Killed mid-crawl: posts were fetched, not all of them stored.
    assert len(crawl.documents()) < len(post_paths(crawl.site.root))

    crawl.site.delay = 0.0
    restart = crawl.start(1)
    assert crawl.wait(restart) == [0], restart[0].text()[-3000:]
    assert "Joined round 1 of blogs" in restart[0].text()
    assert_every_post_stored_once(crawl)


def test_redis_going_away_stops_cleanly_and_a_restart_resumes(tmp_path: Path, blog: object) -> None:
    require_redis_server()
    password = "pw-never-logged"
    redis = RedisServer(tmp_path / "redis", password=password).start()
    proxy = CuttableProxy(redis.port)
    run = Crawl(tmp_path, blog, proxy.url(password))  # type: ignore[arg-type]
    try:
        run.site.delay = 0.2
        workers = run.start(2)
        run.wait_for(lambda: posts_fetched(run) >= 20, 120, "20 posts fetched")
        # Both in the crawl when Redis goes: a worker still starting on a loaded machine would
        # fail to open its state instead (tested by test_unreachable_redis_fails_fast_naming_the_url).
        run.wait_for(lambda: all(" round " in w.text() for w in workers), 60, "both workers joining")
        proxy.cut()  # Redis unreachable; its data survives, as in a partition or a failover
        codes = run.wait(workers, timeout=120)  # (the timeout only guards against a hang)
        # The crawl did not finish: not a success.
        assert all(code != 0 for code in codes), (codes, [w.text()[-4000:] for w in workers])
        masked = f"redis://:***@127.0.0.1:{proxy.port}/0"
        for worker in workers:
            log = worker.text()
            assert password not in log
            assert "stopping this crawl cleanly" in log, log[-3000:]
            assert masked in log, log[-3000:]
            assert re.search(r"'finish_reason': '(redis_unavailable|state_error)'", log), log[-2000:]

        proxy.restore()
        run.site.delay = 0.0
        restart = run.start(1)
        assert run.wait(restart) == [0], restart[0].text()[-3000:]
        assert_every_post_stored_once(run)
    finally:
        run.stop_all()
        proxy.close()
        redis.stop()


def test_unreachable_redis_fails_fast_naming_the_url(tmp_path: Path, blog: object) -> None:
    require_redis_server()
    unused = RedisServer(tmp_path / "never-started")  # a free port nothing listens on
    run = Crawl(tmp_path, blog, f"redis://:secret@127.0.0.1:{unused.port}/0")  # type: ignore[arg-type]
    worker = run.start(1)[0]
    assert run.wait([worker], timeout=60) == [1]
    log = worker.text()
    assert f"redis://:***@127.0.0.1:{unused.port}/0" in log
    assert "cannot reach Redis" in log
    assert "secret" not in log
    assert not run.documents()
    assert sum(blog.hits.values()) == 0  # type: ignore[attr-defined]


def test_the_fleet_runs_replicas_on_redis(crawl: Crawl) -> None:
    """``run_all.py --replicas blogs=3`` with the Redis state: one crawl shared by three processes."""
    crawl.site.delay = 0.2
    crawl.start(0)  # writes the config only
    cmd = [sys.executable, "run_all.py", "--once", "--spiders", "blogs", "--replicas", "blogs=3", "--no-live",
           "--data-dir", str(crawl.data_dir), "-s", f"HARVEST_STATE_URL={crawl.state_url}",
           "-s", f"HARVEST_CONFIG_DIR={crawl.root / 'config'}", "-s", "AUTOTHROTTLE_ENABLED=False",
           "-s", "MAX_IDLE_TIME_BEFORE_CLOSE=2"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    result = subprocess.run(cmd, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert_every_post_stored_once(crawl)
    logs = sorted((crawl.data_dir / "logs" / "blogs").glob("*.log"))
    assert len(logs) == 3
    assert_one_round([log.read_text(encoding="utf-8") for log in logs])
    counts = [scraped(log) for log in logs]
    assert sum(counts) == len(post_paths(crawl.site.root)), counts
