"""The github_search spider, as a user runs it (`scrapy crawl` subprocesses), against the emulator.

The emulator (tests/github_emulator.py) is built from real recorded GitHub answers and enforces
the result cap, per-window budgets, secondary limits and per-token ETags, with short windows so
that waiting for a reset takes seconds. Its ``violations`` list records every request that
arrived after the client had been told to wait.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from scrapy.settings import Settings

import harvest.settings as project_settings
from harvest.config.github_search import GithubSearchConfig
from harvest.exceptions import ConfigError
from harvest.fingerprints import content_hash
from harvest.spiders.github_search import GithubSearchSpider
from harvest.util.units import parse_duration
from tests import PROJECT_ROOT, read_jsonl, scrapy_crawl
from tests.github_emulator import GithubEmulator, Limits, generate_repos, github_emulator

#: A token shaped like a real one; it must never appear in any output.
TOKEN = "ghp_R3alLookingT0kenForHarvestTests0001"
TOPIC = "topic:web-scraping"

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def emulator() -> Iterator[GithubEmulator]:
    """An emulator with GitHub's rules and short windows: 10 searches per 2 s."""
    with github_emulator(tokens={TOKEN}, limits=Limits(search_limit=10, search_window=2.0)) as emu:
        yield emu


def crawl(
    emu: GithubEmulator,
    data_dir: Path,
    args: dict[str, str],
    *,
    token: str | None = TOKEN,
    settings: dict[str, Any] | None = None,
) -> subprocess.CompletedProcess[str]:
    merged: dict[str, Any] = {
        "GITHUB_API_URL": emu.base_url,
        "HARVEST_DATA_DIR": str(data_dir),
        # Short windows in the emulator: small margins and backoff, same rules.
        "HARVEST_GITHUB_RESET_MARGIN": 0.2,
        "HARVEST_GITHUB_BACKOFF_BASE": 0.5,
        "CLOSESPIDER_TIMEOUT": 150,
        **(settings or {}),
    }
    return scrapy_crawl(
        "github_search", settings=merged, args=args, env={"GITHUB_TOKEN": token} if token else {}, timeout=200
    )


def repos_of(data_dir: Path) -> list[dict[str, Any]]:
    return read_jsonl(data_dir / "github_search" / "repo.jsonl")


def stat(result: subprocess.CompletedProcess[str], key: str) -> int:
    m = re.search(rf"'harvest/{re.escape(key)}': (\d+)", result.stderr)
    return int(m.group(1)) if m else 0


def test_every_result_once_within_limits_then_a_free_revisit(
    emulator: GithubEmulator, tmp_path: Path
) -> None:
    expected = {r.full_name for r in emulator.matching(TOPIC)}
    assert len(expected) == 2500  # 2.5 times GitHub's cap: only slicing reaches them all
    first = crawl(emulator, tmp_path, {"query": TOPIC, "readmes": "false"}, settings={"LOG_LEVEL": "DEBUG"})
    assert first.returncode == 0, first.stderr[-3000:]
    items = repos_of(tmp_path)
    assert len(items) == 2500
    assert {i["repo"] for i in items} == expected  # every result, each exactly once
    assert all(i["query"] == TOPIC and i["type"] == "repo" for i in items)
    sample = next(r for r in emulator.repos if r.full_name == items[0]["repo"])
    assert items[0]["stars"] == sample.stars
    assert items[0]["created_at"][:10] == sample.created.date().isoformat()
    assert emulator.violations == []
    assert 403 not in emulator.statuses()  # no rate-limit answer was ever provoked
    assert max(emulator.max_in_flight.values()) == 1
    spent_first = emulator.quota_spent("search")
    assert 25 <= spent_first <= 30  # ceil(2500/100) pages, plus the probe and the slices' last pages
    assert stat(first, "github_search/slices") >= 3

    answered = len(emulator.events)
    second = crawl(emulator, tmp_path, {"query": TOPIC, "readmes": "false"}, settings={"LOG_LEVEL": "DEBUG"})
    assert second.returncode == 0, second.stderr[-3000:]
    revisit = [e for e in emulator.events[answered:] if e.path.startswith("/search/")]
    assert revisit and all(e.status == 304 for e in revisit)  # same pages, same slices, all unchanged
    assert emulator.quota_spent("search") == spent_first  # the revisit cost no primary quota
    assert len(repos_of(tmp_path)) == 2500  # and added nothing
    assert emulator.violations == []

    # The token never leaves the process: not in logs, outputs, state, stats.
    for result in (first, second):
        assert TOKEN not in result.stdout and TOKEN not in result.stderr
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "validators.sqlite" for p in files)
    for path in files:
        assert TOKEN.encode() not in path.read_bytes(), path


def test_readmes_become_documents(tmp_path: Path) -> None:
    limits = Limits(search_limit=30, search_window=2.0, core_limit=16, core_window=2.0)
    with github_emulator(tokens={TOKEN}, limits=limits) as emulator:
        query = f"{TOPIC} created:>=2025-10-01"
        matching = emulator.matching(query)
        assert 20 <= len(matching) <= 80
        result = crawl(emulator, tmp_path, {"query": query})
        assert result.returncode == 0, result.stderr[-3000:]
        docs = read_jsonl(tmp_path / "github_search" / "document.jsonl")
        with_readme = {r.full_name: r for r in matching if r.readme is not None}
        assert {d["repo"] for d in docs} == set(with_readme)
        assert stat(result, "github_search/readme_missing") == len(matching) - len(with_readme) > 0
        doc = docs[0]
        repo = with_readme[doc["repo"]]
        assert doc["source"] == "readme" and doc["title"] == repo.name
        assert doc["content_hash"] == content_hash(repo.readme or "")
        assert doc["canonical_url"] == f"https://github.com/{repo.full_name}"
        path = Path(doc["path"])
        assert path.parent == tmp_path / "github_search" / "readmes" and path.suffix == ".md"
        text = path.read_text(encoding="utf-8")
        assert text.endswith((repo.readme or "").rstrip() + "\n") and "Ünïcödé survives" in text
        # 16 READMEs per 2 s window: the core budget was waited for, never overrun.
        assert emulator.violations == [] and 403 not in emulator.statuses()


def announced_waits(result: subprocess.CompletedProcess[str], resource: str = "search") -> list[float]:
    """The waits the GitHub middleware announced in its log ("waiting 599.8 s (exhausted)")."""
    pattern = rf"GitHub {resource} budget of token \S+: waiting (\d+(?:\.\d+)?) s \(exhausted\)"
    return [float(w) for w in re.findall(pattern, result.stderr)]


def test_a_long_wait_does_not_hold_up_closing(emulator: GithubEmulator, tmp_path: Path) -> None:
    reset = emulator.exhaust(TOKEN, "search", 600)  # spent by another program for ten minutes
    result = crawl(emulator, tmp_path, {"query": TOPIC}, settings={"CLOSESPIDER_TIMEOUT": 3})
    ended = time.time()
    assert result.returncode == 0, result.stderr[-3000:]  # closespider_timeout: a clean stop
    assert f"Search '{TOPIC}' interrupted while waiting for the rate limit" in result.stderr
    assert "Closing spider (closespider_timeout)" in result.stderr  # not the end of the wait
    # The wait was announced, for the time left until the reset (plus the reset margin): however
    # late the crawl started, it announced no less than what was left when it ended.
    waits = announced_waits(result)
    assert waits, result.stderr[-3000:]
    assert reset - ended <= waits[0] <= 600 + 1, waits
    assert not any(e.path.startswith("/search/") for e in emulator.events)  # nothing sent early


def written(path: Path) -> int:
    """Complete lines of a JSON Lines file a crawl may be appending to (a last line can be partial)."""
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_killed_runs_lose_nothing_and_duplicate_nothing(tmp_path: Path) -> None:
    """kill -9 twice mid-crawl: the ETag of a page is stored only after its items, so the
    restart refetches what was not written (and answers 304 for what was)."""
    limits = Limits(search_limit=30, search_window=2.0, latency=0.03)
    query = f"{TOPIC} created:>=2020-01-01"
    with github_emulator(tokens={TOKEN}, limits=limits) as emulator:
        cmd = [sys.executable, "-m", "scrapy", "crawl", "github_search", "-a", f"query={query}",
               "-a", "readmes=false", "-s", f"GITHUB_API_URL={emulator.base_url}",
               "-s", f"HARVEST_DATA_DIR={tmp_path}"]  # fmt: skip
        env = {**os.environ, "GITHUB_TOKEN": TOKEN}
        out = tmp_path / "github_search" / "repo.jsonl"
        for at_least in (250, 700):
            proc = subprocess.Popen(cmd, cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)  # fmt: skip
            deadline = time.monotonic() + 60
            while written(out) < at_least and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.05)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            assert written(out) < emulator.search_count(query)  # killed mid-crawl
        result = crawl(emulator, tmp_path, {"query": query, "readmes": "false"})
        assert result.returncode == 0, result.stderr[-3000:]
        names = [i["repo"] for i in read_jsonl(out)]
        assert len(names) == len(set(names)) == emulator.search_count(query)
        assert emulator.violations == []


@pytest.mark.parametrize(
    "limits",
    [
        # A secondary limit every 6th request, with Retry-After (the 2018 recording's form)...
        Limits(search_limit=30, search_window=2.0, secondary_every=6, secondary_retry_after=1),
        # ... and without it (2021 on): exponential backoff from HARVEST_GITHUB_BACKOFF_BASE.
        Limits(
            search_limit=30,
            search_window=2.0,
            secondary_every=6,
            secondary_retry_after=None,
            secondary_block=0.4,
        ),  # fmt: skip
    ],
    ids=["retry-after", "backoff"],
)
def test_secondary_limits_are_waited_out(limits: Limits, tmp_path: Path) -> None:
    query = f"{TOPIC} created:>=2021-01-01"
    with github_emulator(tokens={TOKEN}, limits=limits) as emu:
        result = crawl(emu, tmp_path, {"query": query, "readmes": "false"})
        assert result.returncode == 0, result.stderr[-3000:]
        assert {i["repo"] for i in repos_of(tmp_path)} == {r.full_name for r in emu.matching(query)}
        assert len(repos_of(tmp_path)) == emu.search_count(query)
        assert emu.secondary_limited >= 2  # the limits did hit...
        assert emu.violations == []  # ... and nothing was sent before they allowed it


def test_a_budget_spent_elsewhere_is_waited_for(emulator: GithubEmulator, tmp_path: Path) -> None:
    # Another program used the token's search budget: spent from the crawl's first request (so
    # however slowly it starts, it finds 2.5 s to wait).
    emulator.exhaust(TOKEN, "search", 2.5, on_first_request=True)
    query = f"{TOPIC} created:>=2024-01-01"
    result = crawl(emulator, tmp_path, {"query": query, "readmes": "false"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(repos_of(tmp_path)) == emulator.search_count(query)
    # GET /rate_limit (free) told the spider before any search was sent: no 403 at all.
    assert 403 not in emulator.statuses() and emulator.violations == []
    # The wait was announced and counted, and the first search arrived after the reset (by the
    # emulator's own request log).
    reset = emulator.exhausted_reset(TOKEN, "search")
    assert reset is not None
    assert announced_waits(result), result.stderr[-3000:]
    assert stat(result, "github/waits") >= 1
    searches = [e for e in emulator.events if e.path.startswith("/search/")]
    assert searches and min(e.arrived for e in searches) >= reset


def test_processes_sharing_a_token_share_its_budget(tmp_path: Path) -> None:
    """Two crawls at once (as in the fleet) on one token: together they stay within its budget."""
    limits = Limits(search_limit=4, search_window=2.0, latency=0.01)
    with github_emulator(tokens={TOKEN}, limits=limits) as emulator:
        shared = {"HARVEST_GITHUB_STATE_DIR": str(tmp_path / "github-state")}
        # 4 + 2 pages for a budget of 4 per window: together they must wait for a reset.
        queries = [f"{TOPIC} created:2017-01-01..2018-12-31", f"{TOPIC} created:>=2025-03-01"]
        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(
                lambda i: crawl(emulator, tmp_path / f"d{i}", {"query": queries[i], "readmes": "false"},
                                settings=shared),
                range(2),
            ))  # fmt: skip
        for i, result in enumerate(results):
            assert result.returncode == 0, result.stderr[-3000:]
            assert len(repos_of(tmp_path / f"d{i}")) == emulator.search_count(queries[i])
        assert emulator.violations == [] and 403 not in emulator.statuses()
        assert max(emulator.max_in_flight.values()) == 1  # HARVEST_GITHUB_CONCURRENCY across processes
        spent = [e for e in emulator.events if e.counted]
        assert len(spent) == 6
        # A budget of 4 a window: the 6 searches needed at least two windows, none was counted
        # past its window's budget, and each came after the windows before its own had reset
        # (how they fall depends on when each process started: on a loaded machine the first
        # window may close before the fourth search).
        windows = sorted({e.reset for e in spent if e.reset is not None})
        assert len(windows) >= 2, windows
        assert max(sum(1 for e in spent if e.reset == w) for w in windows) <= 4
        for earlier, later in zip(windows, windows[1:], strict=False):
            assert all(e.arrived >= earlier for e in spent if e.reset == later)


def test_another_cap_page_size_and_a_crowded_day(tmp_path: Path) -> None:
    """The cap (100) and page size (50) come from the server's answers, not from GitHub's numbers;
    a single day holding more than the cap is cut by stars."""
    limits = Limits(search_limit=60, search_window=2.0, result_cap=100, max_per_page=50)
    repos = generate_repos(hot_days={date(2021, 5, 4): 260})
    with github_emulator(tokens={TOKEN}, limits=limits, repos=repos) as emulator:
        query = f"{TOPIC} created:2019-01-01..2022-12-31"
        expected = {r.full_name for r in emulator.matching(query)}
        assert len(expected) > 1000
        result = crawl(emulator, tmp_path, {"query": query, "readmes": "false"})
        assert result.returncode == 0, result.stderr[-3000:]
        items = repos_of(tmp_path)
        assert len(items) == len(expected) and {i["repo"] for i in items} == expected
        assert any("stars:" in e.path or "stars%3A" in e.path for e in emulator.events)
        assert 422 not in emulator.statuses() and emulator.violations == []


def test_incomplete_results_are_asked_again(tmp_path: Path) -> None:
    limits = Limits(search_limit=60, search_window=2.0, incomplete_first=1)
    with github_emulator(tokens={TOKEN}, limits=limits) as emulator:
        query = f"{TOPIC} created:>=2024-06-01"
        result = crawl(emulator, tmp_path, {"query": query, "readmes": "false"})
        assert result.returncode == 0, result.stderr[-3000:]
        assert len(repos_of(tmp_path)) == emulator.search_count(query)  # nothing lost to the timeout
        assert stat(result, "github_search/incomplete_retried") >= 1
        assert stat(result, "github_search/incomplete_accepted") == 0


def test_results_still_incomplete_are_kept_and_reported(tmp_path: Path) -> None:
    limits = Limits(search_limit=60, search_window=2.0, incomplete_first=10)
    with github_emulator(tokens={TOKEN}, limits=limits) as emulator:
        query = f"{TOPIC} created:>=2025-09-01"
        assert emulator.search_count(query) <= 100
        result = crawl(emulator, tmp_path, {"query": query, "readmes": "false"})
        assert result.returncode == 0, result.stderr[-3000:]
        assert 0 < len(repos_of(tmp_path)) < emulator.search_count(query)
        assert stat(result, "github_search/incomplete_retried") == 2  # HARVEST_GITHUB_INCOMPLETE_RETRIES
        assert stat(result, "github_search/incomplete_accepted") == 1
        warning = rf"WARNING: Search '{re.escape(query)}': .* still incomplete after 2 retries"
        assert re.search(warning, result.stderr)


def test_a_bad_query_stops_only_itself(emulator: GithubEmulator, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    good = f"{TOPIC} created:>=2025-06-01"
    (config / "github_search.yaml").write_text(yaml.safe_dump({"queries": [
        {"query": f"{TOPIC} created:nope", "readmes": False},
        {"query": " OR ".join(["a"] * 7), "readmes": False},
        {"query": good, "readmes": False},
    ]}))  # fmt: skip
    result = crawl(emulator, tmp_path / "data", {}, settings={"HARVEST_CONFIG_DIR": str(config)})
    assert result.returncode == 1  # a failed search is not a successful crawl
    assert re.search(
        r"ERROR: Search 'topic:web-scraping created:nope' failed: GitHub answered 422: Validation Failed: "
        r"Invalid date 'nope'",
        result.stderr,
    )
    assert "over the limit of 5" in result.stderr  # refused before sending: 6 operators
    assert not any("a+OR+a" in e.path for e in emulator.events)
    assert len(repos_of(tmp_path / "data")) == emulator.search_count(good) > 0  # the others went on
    assert "Closing spider (query_failed)" in result.stderr


def test_a_bad_token_is_a_clear_error(emulator: GithubEmulator, tmp_path: Path) -> None:
    wrong = "ghp_WrongTokenThatGitHubRejects000000"
    result = crawl(emulator, tmp_path, {"query": TOPIC}, token=wrong)
    assert result.returncode == 1
    assert f"ERROR: Search '{TOPIC}' failed: GitHub answered 401: Bad credentials" in result.stderr
    assert wrong not in result.stderr and wrong not in result.stdout
    assert repos_of(tmp_path) == []
    assert emulator.quota_spent() == 0


def test_max_results_and_argument_errors(emulator: GithubEmulator, tmp_path: Path) -> None:
    args = {"query": TOPIC, "max_results": "150", "sort": "stars", "readmes": "no"}
    result = crawl(emulator, tmp_path, args)
    assert result.returncode == 0, result.stderr[-3000:]
    items = repos_of(tmp_path)
    assert len(items) == 150
    top = sorted(emulator.matching(TOPIC), key=lambda r: (-r.stars, r.id))[:150]
    assert [i["repo"] for i in items] == [r.full_name for r in top]  # GitHub's order, first 150
    assert emulator.quota_spent("search") == 2  # no slicing needed below the cap

    bad = crawl(emulator, tmp_path, {"query": TOPIC, "max_results": "lots"})
    assert bad.returncode == 2 and "-a max_results" in bad.stderr
    bad_sort = crawl(emulator, tmp_path, {"query": TOPIC, "sort": "popularity"})
    assert bad_sort.returncode == 2 and "-a sort" in bad_sort.stderr
    assert emulator.quota_spent("search") == 2  # rejected before any request


def test_a_fresh_search_is_skipped(emulator: GithubEmulator, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    query = f"{TOPIC} created:>=2025-10-01"
    (config / "github_search.yaml").write_text(
        yaml.safe_dump({"queries": [{"query": query, "readmes": False, "refresh_interval": "1h"}]})
    )
    settings = {"HARVEST_CONFIG_DIR": str(config)}
    first = crawl(emulator, tmp_path / "data", {}, settings=settings)
    assert first.returncode == 0, first.stderr[-3000:]
    searched = sum(1 for e in emulator.events if e.path.startswith("/search/"))
    assert searched == 1 and len(repos_of(tmp_path / "data")) == emulator.search_count(query)
    second = crawl(emulator, tmp_path / "data", {}, settings=settings)
    assert second.returncode == 0, second.stderr[-3000:]
    assert f"Search '{query}' is fresh" in second.stderr
    assert sum(1 for e in emulator.events if e.path.startswith("/search/")) == searched
    # -a reset=1 forgets when it ran (and its ETags): it runs again, in full.
    third = crawl(emulator, tmp_path / "data", {"reset": "1"}, settings=settings)
    assert third.returncode == 0, third.stderr[-3000:]
    assert [e.status for e in emulator.events if e.path.startswith("/search/")] == [200, 200]


# --- configuration (in-process: no crawl) ----------------------------------------------------------
def resolve(config_dir: Path, text: str | None, args: dict[str, str] | None = None) -> GithubSearchConfig:
    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    settings.set("HARVEST_CONFIG_DIR", str(config_dir))
    if text is not None:
        (config_dir / "github_search.yaml").write_text(text)
    config = GithubSearchSpider.resolve_config(settings, args or {})
    assert isinstance(config, GithubSearchConfig)
    return config


def test_the_shipped_config_is_valid() -> None:
    config = resolve(PROJECT_ROOT / "spiders_config", None)
    raw = yaml.safe_load((PROJECT_ROOT / "spiders_config" / "github_search.yaml").read_text(encoding="utf-8"))
    # The file's searches and durations, as written (each query a string or a mapping).
    queries = [{"query": q} if isinstance(q, str) else q for q in raw["queries"]]
    assert [q.query for q in config.queries] == [q["query"] for q in queries]
    assert config.readme_revisit == parse_duration(raw["readme_revisit"])
    assert config.refresh_interval == parse_duration(raw["refresh_interval"])
    assert [q.refresh_interval for q in config.queries] == [
        parse_duration(q["refresh_interval"]) if "refresh_interval" in q else None for q in queries
    ]
    assert [q.readmes for q in config.queries] == [q.get("readmes", True) for q in queries]


def test_config_forms_and_overrides(tmp_path: Path) -> None:
    text = (
        "readme_revisit: never\nqueries:\n  - topic:a\n"
        "  - {query: 'topic:b  stars:>5', sort: stars, refresh_interval: 6h}\n"
    )
    config = resolve(tmp_path, text)
    assert config.readme_revisit is None
    a, b = config.queries
    assert (a.query, a.sort, a.order, a.max_results, a.readmes, a.refresh_interval) == (
        "topic:a",
        "best-match",
        "desc",
        None,
        True,
        None,
    )
    assert (b.query, b.sort, b.refresh_interval) == ("topic:b stars:>5", "stars", 6 * 3600)
    # -a options without -a query apply to every configured search.
    limited = resolve(tmp_path, None, {"max_results": "50", "readmes": "false", "order": "asc"})
    assert [(q.max_results, q.readmes, q.order) for q in limited.queries] == [(50, False, "asc")] * 2
    # -a query replaces them.
    adhoc = resolve(tmp_path, None, {"query": "topic:c", "sort": "forks", "max_results": "all"})
    assert [(q.query, q.sort, q.max_results) for q in adhoc.queries] == [("topic:c", "forks", None)]


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        ("queries:\n  - {query: x, sortt: stars}\n", {}, "queries[0].sortt: unknown key"),
        ("queries:\n  - {query: x, sort: popularity}\n", {}, "queries[0].sort"),
        ("queries:\n  - {query: x, max_results: 0}\n", {}, "queries[0].max_results"),
        ("queries:\n  - x\n  - x\n", {}, "listed twice"),
        ("queries: []\n", {}, "no searches"),
        ("queries:\n  - x\n", {"readmes": "maybe"}, "-a readmes"),
        ("queries:\n  - x\n", {"query": "   "}, "-a query"),
        ("queries:\n  - x\n", {"language": "go"}, "-a language: unknown argument"),
    ],
)
def test_config_errors_name_the_key(tmp_path: Path, text: str, args: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        resolve(tmp_path, text, args)
    assert message in str(err.value)
