"""A partition, not only a pause: the Redis scale-out across real network links.

Three workers of ``blogs`` run on three "hosts", network namespaces of the test's own
(:mod:`tests.scale.netns`), each behind its own link to a bridge where Redis and the blog listen.
One host's link goes down mid-crawl: its packets are dropped, no connection is reset, the worker
hangs in a Redis call with nothing telling it why, as behind a dead switch port. The link stays
down until the others give it up (its lease, ``HARVEST_REDIS_WORKER_TIMEOUT``), then comes back:
the worker's stalled calls complete and find its lease gone.

The hosts share one data folder (workers of one machine, or machines writing to one volume), the
place where the takeover can commit the lines the cut-off worker wrote before the cut; workers
with folders of their own are the README's documented window (stored at worst twice).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from harvest.report.health import parse_stats_dump
from tests.scale.blog_site import BlogSite, octopress_root, post_paths
from tests.scale.conftest import Crawl, Worker
from tests.scale.netns import NetLab, require_netns
from tests.scale.redis_server import RedisServer, require_redis_server
from tests.scale.test_scale_out import assert_every_post_stored_once, assert_one_round

pytestmark = [pytest.mark.redis, pytest.mark.timeout(300)]

#: Scrapy's DEBUG line for an item every pipeline passed: for the output pipeline, a line written.
_SCRAPED = re.compile(r"DEBUG: Scraped from <\d+ (\S+)>")
_FENCED = "was given up as dead by the others"


@pytest.fixture
def lab() -> Iterator[NetLab]:
    """Three hosts on a bridge, removed after the test whatever happened."""
    require_netns()
    require_redis_server()
    net = NetLab(hosts=3).create()
    try:
        yield net
    finally:
        net.destroy()


@pytest.fixture
def net_crawl(tmp_path: Path, lab: NetLab) -> Iterator[Crawl]:
    """Redis and the real Octopress blog on the bridge's address, reachable from every host."""
    root = octopress_root()
    server = RedisServer(tmp_path / "redis", host=lab.hub).start()
    # A real site's latency, long enough that the crawl is still going when the link is cut.
    site = BlogSite(root, delay=0.25, host=lab.hub).start()
    run = Crawl(tmp_path, site, server.url)
    try:
        yield run
    finally:
        run.stop_all()
        site.stop()
        server.stop()


def written(worker: Worker, before: int | None = None) -> list[str]:
    """URLs of the lines ``worker`` wrote (its DEBUG log), those logged before offset ``before``."""
    return _SCRAPED.findall(worker.text()[:before])


def who_wrote(crawl: Crawl, urls: list[str]) -> dict[str, list[str]]:
    """Per URL, each worker's log lines about it (from DEBUG logs): who fetched, dropped, wrote it."""
    return {
        url: [
            f"worker {i}: {line[:300]}"
            for i, worker in enumerate(crawl.workers)
            for line in worker.text().splitlines()
            if url in line
        ]
        for url in urls
    }


def worker_id(worker: Worker) -> str:
    match = re.search(r" round \d+ of blogs in \S+ as worker (\S+)", worker.text())
    assert match, worker.text()[-2000:]
    return match[1]


def test_a_worker_cut_off_mid_crawl_is_fenced_and_every_post_is_stored_once(
    lab: NetLab, net_crawl: Crawl
) -> None:
    """Cut host 0's link once its worker wrote lines, keep it down past the lease, heal it.

    The other two commit the lines it wrote, fetch its requests again and finish the crawl;
    the cut-off worker, back on the network, is fenced: it writes no line after losing its
    lease, and stops with reason ``lease_lost`` (exit 0). Every post is stored exactly once.
    """
    crawl = net_crawl
    posts = post_paths(crawl.site.root)
    # Pace grants held by the cut-off worker expire soon, so the others are not held back.
    common = {"HARVEST_PACE_STALE_AFTER": 2, "HARVEST_RIGHTS_ENABLED": False}
    # Its Redis calls wait out the cut (TCP retransmits once the link is back), as they do for a
    # cut shorter than HARVEST_STATE_BUSY_TIMEOUT; a longer one ends it with redis_unavailable.
    (cut_off,) = crawl.start(
        prefix=lab.prefix(0), LOG_LEVEL="DEBUG", HARVEST_STATE_BUSY_TIMEOUT=150, **common
    )
    others = [crawl.start(prefix=lab.prefix(host), **common)[0] for host in (1, 2)]
    crawl.wait_for(
        lambda: all(" round " in w.text() for w in crawl.workers), 90, "every worker joining the crawl"
    )
    victim = worker_id(cut_off)
    crawl.wait_for(lambda: len(written(cut_off)) >= 3, 90, "the worker of host 0 writing 3 lines")

    lab.cut(0)
    stored_at_cut = len(crawl.documents())
    try:
        assert stored_at_cut < len(posts), "the crawl ended before the cut: nothing to test"
        taken = f"Worker {victim} stopped"
        crawl.wait_for(
            lambda: any(taken in w.text() for w in others), 60, "the others giving the cut-off worker up"
        )
    finally:
        lab.heal(0)

    codes = crawl.wait(timeout=180)
    logs = [w.text() for w in crawl.workers]
    assert codes[1:] == [0, 0], [log[-3000:] for log in logs[1:]]
    log = logs[0]
    # Fenced, with its documented reason: one warning, a clean stop (the others do its work),
    # no error and no traceback for what it could no longer commit or look up.
    assert _FENCED in log, log[-3000:]
    assert "Closing spider (lease_lost)" in log, log[-3000:]
    assert codes[0] == 0, log[-3000:]
    stats = parse_stats_dump(log) or {}
    assert stats.get("finish_reason") == "lease_lost", stats
    errors = [line for line in log.splitlines() if " ERROR: " in line or line.startswith("Traceback")]
    assert not errors, errors[:5]
    assert stats.get("log_count/WARNING") == 1, stats
    # Nothing written after the lease was lost; what it wrote before the cut stays, once.
    fence_at = log.index(_FENCED)
    before, after = written(cut_off, fence_at), _SCRAPED.findall(log[fence_at:])
    assert not after, after
    takeover = next(
        re.search(rf"{taken} \d+s ago; put its (\d+) requests back .*\((\d+) output lines", text)
        for text in logs[1:]
        if taken in text
    )
    assert takeover, logs[1:]
    assert int(takeover[1]) >= 1, takeover[0]  # cut off with work in hand, done by the others
    for text in logs[1:]:
        assert " ERROR: " not in text, text[-3000:]

    assert_one_round(logs)
    assert_every_post_stored_once(crawl)
    urls = Counter(doc["url"] for doc in crawl.documents())
    assert all(urls[url] == 1 for url in before), {url: urls[url] for url in before}
    stored = Counter(crawl.posts_stored())
    print(
        f"partition: {len(posts)} posts, {len(set(stored) & posts)} stored, "
        f"{sum(n - 1 for n in stored.values())} stored twice, {len(posts - set(stored))} lost; "
        f"{stored_at_cut} stored at the cut; host 0 wrote {len(before)} lines before it and "
        f"{len(after)} after; the takeover requeued {takeover[1]} requests and committed "
        f"{takeover[2]} of its lines; host 0 stopped with {stats.get('finish_reason')} "
        f"(exit {codes[0]})"
    )


@pytest.mark.timeout(480)
def test_a_worker_cut_off_past_its_redis_timeout_stops_cleanly_and_nothing_is_lost(
    lab: NetLab, net_crawl: Crawl
) -> None:
    """A cut longer than the cut-off worker's Redis timeout (``HARVEST_STATE_BUSY_TIMEOUT``).

    It stops on its own while still cut off, with reason ``redis_unavailable`` (exit 1) and an
    error naming the Redis URL; the others give it up, take its work and finish; every
    post is stored once, none lost.
    """
    crawl = net_crawl
    common = {"HARVEST_PACE_STALE_AFTER": 2, "HARVEST_RIGHTS_ENABLED": False}
    # DEBUG: each worker's log names every line it wrote, so a post stored twice says by whom.
    (cut_off,) = crawl.start(prefix=lab.prefix(0), LOG_LEVEL="DEBUG", HARVEST_STATE_BUSY_TIMEOUT=6, **common)
    for host in (1, 2):
        crawl.start(prefix=lab.prefix(host), LOG_LEVEL="DEBUG", **common)
    crawl.wait_for(
        lambda: all(" round " in w.text() for w in crawl.workers), 90, "every worker joining the crawl"
    )
    victim = worker_id(cut_off)
    crawl.wait_for(lambda: len(crawl.documents()) >= 5, 90, "5 posts stored")
    lab.cut(0)
    try:
        stored_at_cut = len(crawl.documents())
        assert stored_at_cut < len(post_paths(crawl.site.root)), "the crawl ended before the cut"
        # Hang guard only: its Redis calls time out one after the other, so it may take a few
        # of them to stop.
        crawl.wait_for(lambda: cut_off.process.poll() is not None, 240, "the cut-off worker stopping")
    finally:
        lab.heal(0)
    codes = crawl.wait(timeout=180)
    logs = [w.text() for w in crawl.workers]
    assert codes == [1, 0, 0], [log[-3000:] for log in logs]
    log = logs[0]
    assert "Closing spider (redis_unavailable)" in log, log[-3000:]
    stopping = [line for line in log.splitlines() if "stopping this crawl cleanly. Nothing is lost" in line]
    assert stopping and crawl.state_url in stopping[0], log[-3000:]
    # Said once: whichever call met the cut first (a lookup, a commit, the near-duplicate index,
    # the pace), no second error, no traceback, and no page reported as failed for it.
    errors = [line for line in log.splitlines() if " ERROR: " in line]
    assert [line for line in errors if "redis://" in line] == stopping[:1], errors
    # The site is behind the same cut: saying it cannot be reached is right, and nothing else.
    assert all("[harvest.extensions.reachability]" in line for line in errors if line not in stopping), errors
    assert "Traceback" not in log, log[log.index("Traceback") - 500 :][:3000]
    warnings = [line for line in log.splitlines() if " WARNING: " in line]
    assert not [line for line in warnings if "paces its requests alone" not in line], warnings[:5]
    assert any(f"Worker {victim} stopped" in text for text in logs[1:]), [t[-3000:] for t in logs[1:]]
    twice = [url for url, n in Counter(doc["url"] for doc in crawl.documents()).items() if n > 1]
    assert not twice, who_wrote(crawl, twice)
    assert_every_post_stored_once(crawl)
