"""Cost of one pace per site across processes: pages/s with 1 and 3 replicas, pace on and off.

A blog of ``--posts`` articles on 127.0.0.1 whose server waits ``--latency`` seconds per answer
(I/O-bound, as real crawling is) is crawled by ``run_all.py --once --replicas blogs=N`` with the
Redis state (replicas need it), for N in 1 and 3, with the shared pace on (the default) and off
(``HARVEST_PACE_ENABLED=False``: Scrapy's per-process limits only). The site's own log gives the
figures: pages/s between its first and last request, the most requests in progress at once and
the shortest time between two arrivals. Then the cost of a grant itself: SQLite acquire+release
pairs per second in one process.

    python bench/pace.py [--posts 120] [--latency 0.1] [--delay 0] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harvest.state.pace import Pace, PaceBudget  # noqa: E402
from tests.scale.redis_server import RedisServer  # noqa: E402
from tests.state.test_pace import NOT_UNDER_TEST, PacedSite, max_concurrent, min_gap, run_replicas  # noqa: E402


def one_run(
    posts: int, latency: float, replicas: int, pace: bool, site_keys: dict[str, object]
) -> dict[str, float]:
    """One fleet run on a fresh Redis and data folder; the site's figures."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        server = RedisServer(root / "redis").start()
        NOT_UNDER_TEST["HARVEST_PACE_ENABLED"] = pace
        try:
            with PacedSite(posts, latency=latency) as site:
                wall = run_replicas(root, site, replicas, server.url, **site_keys)
                arrivals = site.log()
        finally:
            server.stop()
    window = arrivals[-1].end - arrivals[0].start
    return {
        "requests": len(arrivals),
        "pages_s": len(arrivals) / window,
        "in_flight": max_concurrent(arrivals),
        "min_gap_ms": min_gap(arrivals) * 1000,
        "wall": wall,
    }


def grant_rate(seconds: float = 2.0) -> float:
    """SQLite acquire+release pairs per second in one process (no contention)."""
    with tempfile.TemporaryDirectory() as tmp:
        budget = PaceBudget(Path(tmp) / "pace.sqlite")
        pace = Pace(0.0, 4)
        count = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            budget.release(budget.acquire("h", pace).grant)
            count += 1
        budget.close()
    return count / seconds


def main() -> None:
    """Run every combination and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=120)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--delay", type=float, default=0.0, help="the site's download_delay")
    parser.add_argument("--concurrency", type=int, default=4, help="the site's concurrency")
    args = parser.parse_args()
    site_keys: dict[str, object] = {"concurrency": args.concurrency}
    if args.delay:
        site_keys["download_delay"] = args.delay
    header = "| pace | replicas | requests | pages/s | most at once at the site | shortest gap ms | wall s |"
    print(header)
    print("|---|---|---|---|---|---|---|")
    for pace in (True, False):
        for replicas in (1, 3):
            r = one_run(args.posts, args.latency, replicas, pace, site_keys)
            print(
                f"| {'shared' if pace else 'off'} | {replicas} | {r['requests']} | {r['pages_s']:.1f} | "
                f"{r['in_flight']} | {r['min_gap_ms']:.0f} | {r['wall']:.1f} |",
                flush=True,
            )
    print(f"\nSQLite grants (acquire + release) per second, one process: {grant_rate():,.0f}")


if __name__ == "__main__":
    main()
