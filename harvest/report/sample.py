"""A made-up data folder of any size, shaped like a fleet's after ``days`` daily rounds.

For the report's benchmark (bench/report.py) and tests: the items are harvest.items dataclasses
written the way the output pipeline writes them (one JSON object per line), and each spider gets
one log per day ending with a Scrapy stats dump, plus a ``fleet/status.json``. Deterministic
for a given seed. Nothing here is real data.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import IO, Any

import orjson

from harvest.items import DocumentItem, RepoItem, TrendingDeveloperItem, TrendingRepoItem

logger = logging.getLogger(__name__)

_LANGUAGES = ["Python", "Rust", "Go", "TypeScript", "C++", "Java", None]
_TOPICS = ["web-scraping", "crawler", "llm", "database", "cli", "search", "rag", "devops", "parser"]
_QUERIES = [
    "topic:web-scraping",
    "topic:crawler language:python",
    "stars:>1000 created:>=2024-01-01",
    "llm agent",
]
_SITES = ["crawl-notes", "docs-example", "tiny-blog", "engineering-log"]
#: Opens (once) and returns the JSON Lines file of a spider and item type.
_Output = Callable[[str, str], IO[bytes]]


@dataclass
class SampleCounts:
    """How many of each item type were written (what a report of the folder must show)."""

    lines: Counter[str] = field(default_factory=Counter)
    rounds: int = 0

    @property
    def total(self) -> int:
        """Every item written."""
        return sum(self.lines.values())


def _line(item: Any) -> bytes:
    data = dataclasses.asdict(item)
    data.pop("content", None)
    data.pop("minhash", None)
    return orjson.dumps(data) + b"\n"


def _stats_dump(started: datetime, counters: dict[str, Any]) -> str:
    stamp = (
        f"datetime.datetime({started.year}, {started.month}, {started.day}, {started.hour}, 0, 0, 0, "
        "tzinfo=datetime.timezone.utc)"
    )
    body = ",\n ".join(f"{k!r}: {v!r}" for k, v in sorted(counters.items()))
    head = f"{started:%Y-%m-%d %H:%M:%S} [scrapy.statscollectors] INFO: Dumping Scrapy stats:\n"
    return head + "{" + body + f",\n 'start_time': {stamp}" + "}\n"


def _day_budget(per_day: int, last_day: bool, items: int, days: int) -> dict[str, int]:
    """How many items of each type one day's round writes."""
    budget = {"trending_repo": per_day * 40 // 100, "trending_developer": per_day // 10}
    budget["repo"] = per_day * 35 // 100
    budget["document"] = per_day - sum(budget.values())
    if last_day:  # the rounding remainder, so the folder holds exactly ``items``
        budget["document"] += max(0, items - per_day * days)
    return budget


def _write_trending(
    rng: random.Random,
    out: _Output,
    repos: list[str],
    stars: dict[str, int],
    stamp: str,
    budget: dict[str, int],
) -> None:
    pool = rng.sample(repos, min(len(repos), budget["trending_repo"]))
    for rank, repo in enumerate(pool):
        stars[repo] += rng.randint(0, 400)
        item = TrendingRepoItem(
            repo=repo,
            url=f"https://github.com/{repo}",
            description="Sample repository",
            language=rng.choice(_LANGUAGES),
            stars=stars[repo],
            forks=stars[repo] // 10,
            period_stars=rng.randint(1, 900),
            since=rng.choice(["daily", "weekly", "monthly"]),
            language_filter=None,
            rank=rank % 25 + 1,
            built_by=[],
            observed_at=stamp,
            source_url="https://github.com/trending",
        )
        out("trending", item.type).write(_line(item))
    for i in range(budget["trending_developer"]):
        dev = TrendingDeveloperItem(
            username=f"dev{rng.randint(0, 300)}",
            name=None,
            rank=i % 25 + 1,
            url="https://github.com/dev",
            popular_repo=None,
            since="daily",
            language_filter=None,
            observed_at=stamp,
            source_url="https://github.com/trending/developers",
        )
        out("trending", dev.type).write(_line(dev))


def _write_search(
    rng: random.Random, out: _Output, repos: list[str], stars: dict[str, int], stamp: str, count: int
) -> None:
    for repo in rng.sample(repos, min(len(repos), count)):
        found = RepoItem(
            repo=repo,
            url=f"https://github.com/{repo}",
            description=None,
            language=rng.choice(_LANGUAGES),
            topics=rng.sample(_TOPICS, rng.randint(0, 3)),
            stars=stars[repo],
            forks=1,
            open_issues=2,
            created_at="2024-01-01T00:00:00Z",
            pushed_at=stamp,
            default_branch="main",
            archived=False,
            fork=False,
            query=rng.choice(_QUERIES),
            observed_at=stamp,
        )
        out("github_search", found.type).write(_line(found))


def _write_documents(rng: random.Random, out: _Output, d: int, day: datetime, stamp: str, count: int) -> None:
    for i in range(count):
        site = rng.choice(_SITES)
        post = rng.randint(0, 5000)
        published = day - timedelta(days=rng.randint(0, 700))
        doc = DocumentItem(
            url=f"https://{site}.example/post/{post}",
            title=f"Post {post}",
            path=f"{site}/post-{post}.md",
            content_hash=f"{d:04d}{i:012d}",
            fetched_at=stamp,
            source="blog",
            site=site,
            published=published.strftime("%Y-%m-%d"),
        )
        out("blogs", doc.type).write(_line(doc))


def _write_round_logs(rng: random.Random, data_dir: Path, day: datetime, budget: dict[str, int]) -> int:
    """One log per spider for the day's round, ending with its stats dump; returns how many."""
    rounds = 0
    for spider, n in (
        ("trending", budget["trending_repo"] + budget["trending_developer"]),
        ("github_search", budget["repo"]),
        ("blogs", budget["document"]),
    ):
        log = data_dir / "logs" / spider / f"{day:%Y%m%dT%H%M%S}-1.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        counters: dict[str, Any] = {
            "item_scraped_count": n,
            "response_received_count": n // 3 + 1,
            "finish_reason": "finished",
            "elapsed_time_seconds": 60.0 + rng.random() * 100,
            "log_count/ERROR": rng.choice([0, 0, 0, 1]),
            "harvest/state/commits": 5,
        }
        if spider == "github_search":
            counters["harvest/github/waits"] = rng.randint(0, 40)
            counters["harvest/github/wait_ms"] = rng.randint(0, 90_000)
        if spider == "blogs":
            counters["harvest/blogs/articles"] = n
            counters["harvest/blogs/extract_failed"] = rng.randint(0, 3)
            counters["harvest/revisit/not_modified"] = rng.randint(0, 50)
        log.write_text(_stats_dump(day, counters), encoding="utf-8")
        rounds += 1
    return rounds


def write_sample(data_dir: Path, items: int, *, days: int = 30, seed: int = 17) -> SampleCounts:
    """Write about ``items`` items over ``days`` days into ``data_dir``; return what was written."""
    rng = random.Random(seed)
    counts = SampleCounts()
    end = datetime(2026, 12, 1, 6, 0, tzinfo=timezone.utc)
    per_day = max(1, items // days)
    # At least a day's items: a day's trending page and searches each list distinct repositories,
    # and a pool smaller than their budget wrote fewer lines than the counts returned claimed.
    repos = [f"owner{i % 97}/project-{i}" for i in range(max(50, items // 20, per_day))]
    stars = {r: rng.randint(5, 50_000) for r in repos}
    files: dict[tuple[str, str], IO[bytes]] = {}

    def out(spider: str, kind: str) -> IO[bytes]:
        key = (spider, kind)
        if key not in files:
            (data_dir / spider).mkdir(parents=True, exist_ok=True)
            files[key] = (data_dir / spider / f"{kind}.jsonl").open("wb")
        return files[key]

    try:
        for d in range(days):
            day = end - timedelta(days=days - 1 - d)
            stamp = day.strftime("%Y-%m-%dT%H:%M:%SZ")
            budget = _day_budget(per_day, d == days - 1, items, days)
            _write_trending(rng, out, repos, stars, stamp, budget)
            _write_search(rng, out, repos, stars, stamp, budget["repo"])
            _write_documents(rng, out, d, day, stamp, budget["document"])
            counts.lines.update(budget)
            counts.rounds += _write_round_logs(rng, data_dir, day, budget)
    finally:
        for fh in files.values():
            fh.close()
    status = {
        "version": 1,
        "state": "finished",
        "updated_at": end.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "spiders": [],
    }
    (data_dir / "fleet").mkdir(parents=True, exist_ok=True)
    (data_dir / "fleet" / "status.json").write_text(orjson.dumps(status).decode(), encoding="utf-8")
    return counts
