"""Cost of `scrapy crawl github_search` in GitHub API requests, against the emulator.

For each population (default: 2,500 and 10,000 results matching one query, i.e. 2.5 and 10
times GitHub's 1,000-result cap), two runs of a real ``scrapy crawl github_search`` subprocess
against tests/github_emulator.py (GitHub's limits: 30 searches per window, 1,000 results per
search, 100 per page; windows shortened to ``--window`` seconds so the run takes seconds):

1. a first run: search requests used, per 1,000 results, against the minimum ceil(N/100) and
   against ceil(N/100) plus the slicing overhead (each split costs the page that revealed it is
   over the cap, and each extra slice can end on a partial page); results collected and whether
   each arrived exactly once; 403s received; requests the emulator counted as violations;
2. a second run with nothing changed: primary quota spent (304s are free), items added.

For comparison, the naive client that pages one search without slicing (what a plain
``per_page=100`` loop does) is computed too: it reaches at most 1,000 results.

usage: python bench/github_search.py [--results 2500 10000] [--window 3] [--concurrency 1]
"""

from __future__ import annotations

import argparse
import math
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import read_jsonl, scrapy_crawl  # noqa: E402
from tests.github_emulator import Limits, generate_repos, github_emulator  # noqa: E402

# A fresh fake token per run (the emulator accepts it): nothing token-like is committed.
TOKEN = "ghp_" + secrets.token_hex(18)
QUERY = "topic:web-scraping"


def stat(stderr: str, key: str) -> int:
    m = re.search(rf"'harvest/{re.escape(key)}': (\d+)", stderr)
    return int(m.group(1)) if m else 0


def bench(n: int, window: float, concurrency: int) -> dict[str, float | int | str]:
    repos = generate_repos(count=n + 800, topic_count=n)
    limits = Limits(search_window=window, core_window=window, latency=0.002)
    with (
        github_emulator(tokens={TOKEN}, limits=limits, repos=repos) as emu,
        tempfile.TemporaryDirectory() as d,
    ):
        expected = {r.full_name for r in emu.matching(QUERY)}
        assert len(expected) == n
        settings = {
            "GITHUB_API_URL": emu.base_url,
            "HARVEST_DATA_DIR": d,
            "HARVEST_GITHUB_RESET_MARGIN": 0.2,
            "HARVEST_GITHUB_CONCURRENCY": concurrency,
            "LOG_LEVEL": "INFO",
        }
        args = {"query": QUERY, "readmes": "false"}
        start = time.monotonic()
        first = scrapy_crawl("github_search", settings=settings, args=args, env={"GITHUB_TOKEN": TOKEN},
                             timeout=1800)  # fmt: skip
        first_s = time.monotonic() - start
        if first.returncode != 0:
            raise SystemExit(first.stderr[-3000:])
        items = read_jsonl(Path(d) / "github_search" / "repo.jsonl")
        names = [i["repo"] for i in items]
        requests = sum(1 for e in emu.events if e.path.startswith("/search/"))
        quota_first = emu.quota_spent("search")
        forbidden = sum(1 for e in emu.events if e.status in (403, 429))
        splits = stat(first.stderr, "github_search/splits")
        slices = stat(first.stderr, "github_search/slices")
        leaves = 1 + slices - splits
        minimum = math.ceil(n / 100)
        with_slicing = minimum + splits + (leaves - 1)

        answered = len(emu.events)
        start = time.monotonic()
        second = scrapy_crawl("github_search", settings=settings, args=args, env={"GITHUB_TOKEN": TOKEN},
                              timeout=1800)  # fmt: skip
        second_s = time.monotonic() - start
        revisit = [e for e in emu.events[answered:] if e.path.startswith("/search/")]
        added = len(read_jsonl(Path(d) / "github_search" / "repo.jsonl")) - len(items)
        leaked = TOKEN in first.stderr + second.stderr + first.stdout + second.stdout
        return {
            "results": n,
            "collected": len(names),
            "exactly_once": len(names) == len(set(names)) and set(names) == expected,
            "requests": requests,
            "per_1000": round(requests / n * 1000, 2),
            "minimum": minimum,
            "slices": leaves,
            "splits": splits,
            "min_with_slicing": with_slicing,
            "ratio_min": round(requests / minimum, 3),
            "ratio_with_slicing": round(requests / with_slicing, 3),
            "forbidden": forbidden,
            "violations": len(emu.violations),
            "first_s": round(first_s, 1),
            "quota_first": quota_first,
            "revisit_requests": len(revisit),
            "revisit_304": sum(1 for e in revisit if e.status == 304),
            "revisit_quota": emu.quota_spent("search") - quota_first,
            "revisit_added": added,
            "second_s": round(second_s, 1),
            "naive_reachable": min(n, 1000),
            "naive_requests": 10,
            "token_leaked": leaked,
        }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--results", type=int, nargs="+", default=[2500, 10000])
    parser.add_argument("--window", type=float, default=3.0, help="rate-limit window of the emulator (s)")
    parser.add_argument("--concurrency", type=int, default=1, help="HARVEST_GITHUB_CONCURRENCY")
    opts = parser.parse_args()
    rows = [bench(n, opts.window, opts.concurrency) for n in opts.results]
    cols = [
        ("results", "N"), ("collected", "collected"), ("exactly_once", "once"), ("requests", "requests"),
        ("per_1000", "req/1000"), ("minimum", "ceil(N/100)"), ("slices", "slices"), ("splits", "splits"),
        ("min_with_slicing", "min+slicing"), ("ratio_min", "x min"), ("ratio_with_slicing", "x min+slicing"),
        ("forbidden", "403s"), ("violations", "violations"), ("first_s", "run 1 s"),
        ("revisit_304", "revisit 304s"), ("revisit_quota", "revisit quota"),
        ("revisit_added", "revisit items"),
        ("second_s", "run 2 s"), ("naive_reachable", "naive reach"), ("token_leaked", "token leaked"),
    ]  # fmt: skip
    print(f"emulator: GitHub's limits (30 searches/window, cap 1000, 100/page), window {opts.window} s, "
          f"HARVEST_GITHUB_CONCURRENCY={opts.concurrency}")  # fmt: skip
    print("| " + " | ".join(title for _, title in cols) + " |")
    print("|" + "---|" * len(cols))
    for row in rows:
        print("| " + " | ".join(str(row[key]) for key, _ in cols) + " |")


if __name__ == "__main__":
    main()
