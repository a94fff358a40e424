"""The fleet against GitHub's rules: ``run_all.py`` keeps every guarantee ``scrapy crawl`` keeps.

``python run_all.py --once --spiders trending,github_search`` with ``GITHUB_TOKEN`` set, against
the GitHub API emulator enforcing a search limit, a core limit and a secondary limit on
concurrent requests, with a search of more than 1,000 results, and trending's web pages served
from a real saved Trending page. Asserted on the emulator's own request log: every API request
carried the token (0 anonymous), none arrived while the token was told to wait, every result
collected exactly once, the READMEs of trending fetched through the API with the token. Then
two fleets at once on one data folder sharing the token: the budget holds across them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from harvest.parsers.trending import parse_trending_repos
from harvest.runner.status import read_status
from tests import PROJECT_ROOT, read_jsonl, shared_fixture
from tests.github_emulator import GithubEmulator, Limits, Repo, generate_repos, github_emulator
from tests.servers import LoopbackServer, Reply

pytestmark = pytest.mark.timeout(400)

#: Shaped like a real token; it must never appear in any output.
TOKEN = "ghp_FleetT0kenN3verL0gged000000000001"
QUERY = "topic:web-scraping"


def trending_page() -> Path:
    return shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")


def trending_repos(web_url: str) -> list[str]:
    html = trending_page().read_text(encoding="utf-8")
    return [row.repo for row in parse_trending_repos(html, f"{web_url}/trending") if row.repo]


def readme_text(full_name: str) -> str:
    return f"# {full_name}\n\nThe README of {full_name}, served by the emulator.\n"


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    server = LoopbackServer().start()
    server.add("/robots.txt", Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain"))
    server.add_file("/trending", trending_page())
    yield server
    server.stop()


def population(web_url: str) -> list[Repo]:
    """2,500 repositories with the topic (past the 1,000 cap) plus trending's, with READMEs."""
    repos = generate_repos(count=2600, topic_count=2500)
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for i, full_name in enumerate(trending_repos(web_url)):
        owner, name = full_name.split("/")
        repos.append(Repo(id=9_000_000 + i, owner=owner, name=name, description="trending", language=None,
                          topics=[], stars=5, forks=0, open_issues=0, created=now, pushed=now,
                          readme=readme_text(full_name)))  # fmt: skip
    return repos


def write_config(config: Path, *, search_readmes: bool, query: str = QUERY) -> None:
    config.mkdir(parents=True, exist_ok=True)
    (config / "github_search.yaml").write_text(
        f"queries:\n  - query: '{query}'\n    readmes: {str(search_readmes).lower()}\n", encoding="utf-8"
    )
    (config / "trending.yaml").write_text(
        "periods: [daily]\ndevelopers: false\nreadmes: true\n", encoding="utf-8"
    )


def fleet_argv(data: Path, config: Path, web: LoopbackServer, api: GithubEmulator, spiders: str) -> list[str]:
    settings = {
        "HARVEST_CONFIG_DIR": str(config),
        "GITHUB_WEB_URL": web.base_url,
        "GITHUB_RAW_URL": web.base_url,
        "GITHUB_API_URL": api.base_url,
        # GitHub asks for a minute's backoff; the emulator's windows are seconds long.
        "HARVEST_GITHUB_BACKOFF_BASE": "1",
        "AUTOTHROTTLE_ENABLED": "False",
        "CLOSESPIDER_TIMEOUT": "300",
    }
    argv = [sys.executable, "run_all.py", "--data-dir", str(data), "--once", "--spiders", spiders]
    for key, value in settings.items():
        argv += ["-s", f"{key}={value}"]
    return argv


def fleet_env() -> dict[str, str]:
    return {**os.environ, "GITHUB_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}


def assert_no_token_leaked(data: Path, *outputs: str) -> None:
    for text in outputs:
        assert TOKEN not in text
    for path in data.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_fleet_sends_the_token_and_keeps_the_limits(tmp_path: Path, web: LoopbackServer) -> None:
    limits = Limits(search_limit=10, search_window=2.0, core_limit=6, core_window=2.0, max_concurrent=1,
                    latency=0.02)  # fmt: skip
    data, config = tmp_path / "data", tmp_path / "config"
    write_config(config, search_readmes=False)
    with github_emulator(tokens={TOKEN}, limits=limits, repos=population(web.base_url)) as api:
        expected = {r.full_name for r in api.matching(QUERY)}
        assert len(expected) > limits.result_cap  # the search must be sliced to be complete
        argv = fleet_argv(data, config, web, api, "trending,github_search")
        result = subprocess.run(
            argv, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=360, env=fleet_env()
        )
        events = list(api.events)
        violations = list(api.violations)
        secondary = api.secondary_limited
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-4000:]
    status = read_status(data / "fleet" / "status.json")
    assert {r["name"]: r["state"] for r in status["spiders"]} == {"trending": "done", "github_search": "done"}

    # Every API request carried the token; none arrived while the token was told to wait.
    labels = Counter(e.token for e in events)
    assert labels.get("anonymous", 0) == 0, labels
    assert violations == [], violations[:5]
    assert secondary == 0  # never more than one request in flight for the token
    # Every result of the search collected exactly once.
    repos = [r["repo"] for r in read_jsonl(data / "github_search" / "repo.jsonl")]
    assert len(repos) == len(set(repos)) and set(repos) == expected
    # Trending's READMEs came through the API, authenticated, one request per repository.
    trending = trending_repos(web.base_url)
    readme_events = [e for e in events if e.path.endswith("/readme")]
    assert sorted(
        e.path.split("/")[2] + "/" + e.path.split("/")[3] for e in readme_events if e.status == 200
    ) == (sorted(trending))
    docs = {d["repo"]: d for d in read_jsonl(data / "trending" / "document.jsonl")}
    assert set(docs) == set(trending)
    assert not any(p.startswith("/") and "README" in p for p in web.paths_requested())  # no raw guessing
    # What it cost, for the closing note (visible with -s).
    searches = sum(1 for e in events if e.path.startswith("/search/"))
    print(f"fleet vs emulator: {len(events)} API requests ({searches} searches, {len(readme_events)} "
          f"READMEs), 0 anonymous, {len(violations)} violations, {len(repos)} results")  # fmt: skip
    assert_no_token_leaked(data, result.stdout, result.stderr)


def test_two_fleets_on_one_data_folder_share_the_token_budget(tmp_path: Path, web: LoopbackServer) -> None:
    """One fleet runs github_search (search + READMEs), the other trending (READMEs): one token."""
    limits = Limits(search_limit=10, search_window=2.0, core_limit=5, core_window=2.0, max_concurrent=1,
                    latency=0.02)  # fmt: skip
    data = tmp_path / "data"
    small_query = "topic:web-scraping created:2025-10-15..2025-12-31"
    with github_emulator(tokens={TOKEN}, limits=limits, repos=population(web.base_url)) as api:
        expected = {r.full_name for r in api.matching(small_query)}
        assert 20 <= len(expected) <= 50, len(expected)
        procs = []
        for name, spiders in (("a", "github_search"), ("b", "trending")):
            config = tmp_path / f"config-{name}"
            write_config(config, search_readmes=True, query=small_query)
            procs.append(subprocess.Popen(fleet_argv(data, config, web, api, spiders), cwd=PROJECT_ROOT,
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                          env=fleet_env()))  # fmt: skip
        outputs = [p.communicate(timeout=360)[0] for p in procs]
        events = list(api.events)
        violations = list(api.violations)
        secondary = api.secondary_limited
    for proc, out in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, out[-4000:]
    assert Counter(e.token for e in events).get("anonymous", 0) == 0
    assert violations == [], violations[:5]
    assert secondary == 0
    core = [e for e in events if e.resource == "core" and e.counted]
    # Both fleets spent the one core budget: READMEs of the search and of trending.
    assert len(core) > limits.core_limit * 2
    repos = [r["repo"] for r in read_jsonl(data / "github_search" / "repo.jsonl")]
    assert len(repos) == len(set(repos)) and set(repos) == expected
    assert {d["repo"] for d in read_jsonl(data / "trending" / "document.jsonl")} == set(
        trending_repos(web.base_url)
    )
    assert_no_token_leaked(data, *outputs)
