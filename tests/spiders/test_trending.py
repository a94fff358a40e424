"""``scrapy crawl trending`` for real, against a loopback GitHub serving real Trending pages."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from harvest.fingerprints import content_hash
from tests import OWN_FIXTURES, read_jsonl, scrapy_crawl, shared_fixture
from tests.servers import LoggedRequest, LoopbackServer, Reply

ROBOTS = Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain")
TEXT = "text/plain; charset=utf-8"
README_OPENHUMAN = (
    "# OpenHuman\r\n\r\nYour personal AI.  \r\n\r\n## Install\r\n\r\n    pip install openhuman\r\n"
)
README_AGENTMEMORY = "agentmemory\n===========\n\nPersistent memory for agents.\n"
README_MEGALIB = '<h1 align="center">\n  <img src="logo.png"> mega-lib\n</h1>\n\nFast.\n'
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def daily_2026() -> Path:
    return shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")


def developers_2022() -> Path:
    return shared_fixture(
        "trending", "go-trending", "2022-04-09_8765a6f", "testdata", "github.com_trending_developers.html"
    )


def own(name: str) -> Path:
    return OWN_FIXTURES / "trending" / name


def crawl(
    server: LoopbackServer,
    tmp_path: Path,
    *,
    config: str | None = None,
    args: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[Any, Path]:
    """Run the spider with every endpoint on ``server``; return (process result, data dir)."""
    config_dir = tmp_path / "config"
    config_dir.mkdir(exist_ok=True)
    if config is not None:
        (config_dir / "trending.yaml").write_text(config, encoding="utf-8")
    data_dir = tmp_path / "data"
    result = scrapy_crawl(
        "trending",
        settings={
            "GITHUB_WEB_URL": server.base_url,
            "GITHUB_RAW_URL": server.base_url,
            "GITHUB_API_URL": f"{server.base_url}/api",
            "HARVEST_DATA_DIR": data_dir,
            "HARVEST_CONFIG_DIR": config_dir,
            # Politeness delays are for github.com; a loopback test needs none.
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_DELAY": 0,
            "CLOSESPIDER_TIMEOUT": 60,
        },
        args=args,
        env=env,
        timeout=120,
    )
    return result, data_dir / "trending"


def stat(result: Any, key: str) -> int | None:
    m = re.search(rf"'{re.escape(key)}': (\d+)", result.stderr)
    return int(m.group(1)) if m else None


def finish_reason(result: Any) -> str | None:
    m = re.search(r"'finish_reason': '([^']+)'", result.stderr)
    return m.group(1) if m else None


def read_document(path: str) -> tuple[dict[str, Any], str]:
    text = Path(path).read_text(encoding="utf-8")
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body.lstrip("\n")


# --- a full round ------------------------------------------------------------------------------


def test_round_collects_repos_developers_and_readmes(server: LoopbackServer, tmp_path: Path) -> None:
    base = server.base_url
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending?since=daily", daily_2026())
    server.add_file("/trending?since=weekly", own("weekly_2026.html"))
    server.add_file("/trending/developers?since=daily", developers_2022())
    server.add_file("/trending/developers?since=weekly", own("developers_2026.html"))
    server.add("/tinyhumansai/openhuman/HEAD/README.md", Reply(body=README_OPENHUMAN, content_type=TEXT))
    server.add("/rohitg00/agentmemory/HEAD/README.rst", Reply(body=README_AGENTMEMORY, content_type=TEXT))
    server.add("/octo-org/mega-lib/HEAD/readme.md", Reply(body=README_MEGALIB, content_type=TEXT))

    result, out = crawl(server, tmp_path, config="periods: [daily, weekly]\n")

    assert result.returncode == 0, result.stderr[-3000:]
    assert finish_reason(result) == "finished"
    repos = read_jsonl(out / "trending_repo.jsonl")
    assert len(repos) == 11 + 3
    daily = sorted((r for r in repos if r["since"] == "daily"), key=lambda r: r["rank"])
    weekly = sorted((r for r in repos if r["since"] == "weekly"), key=lambda r: r["rank"])
    assert [r["rank"] for r in daily] == list(range(1, 12))
    first = daily[0]
    assert ISO_UTC.match(first.pop("observed_at"))
    assert first == {
        "repo": "tinyhumansai/openhuman",
        "url": f"{base}/tinyhumansai/openhuman",
        "description": "Your Personal AI super intelligence. Private, Simple and extremely powerful.",
        "language": "Rust",
        "stars": 3342,
        "forks": 310,
        "period_stars": 1014,
        "since": "daily",
        "language_filter": None,
        "rank": 1,
        "built_by": ["senamakel", "claude", "graycyrus", "github-actions", "M3gA-Mind"],
        "source_url": f"{base}/trending?since=daily",
        "spoken_language": None,
        "type": "trending_repo",
    }
    assert [(r["repo"], r["stars"], r["period_stars"]) for r in weekly] == [
        ("octo-org/mega-lib", 1234567, 12345),
        ("solo/dotfiles", 875, 1),
        ("new-kid/block.chain", 42, None),
    ]
    assert weekly[1]["language"] is None and weekly[1]["description"] is None

    developers = read_jsonl(out / "trending_developer.jsonl")
    assert len(developers) == 25 + 3
    assert {d["since"] for d in developers} == {"daily", "weekly"}
    rich = next(d for d in developers if d["username"] == "Rich-Harris")
    assert ISO_UTC.match(rich.pop("observed_at"))
    assert rich == {
        "username": "Rich-Harris",
        "name": "Rich Harris",
        "rank": 1,
        "url": f"{base}/Rich-Harris",
        "popular_repo": "Rich-Harris/degit",
        "since": "daily",
        "language_filter": None,
        "source_url": f"{base}/trending/developers?since=daily",
        "type": "trending_developer",
    }

    documents = {d["repo"]: d for d in read_jsonl(out / "document.jsonl")}
    assert set(documents) == {"tinyhumansai/openhuman", "rohitg00/agentmemory", "octo-org/mega-lib"}
    expected = {
        "tinyhumansai/openhuman": ("README.md", README_OPENHUMAN, "OpenHuman"),
        "rohitg00/agentmemory": ("README.rst", README_AGENTMEMORY, "agentmemory"),
        "octo-org/mega-lib": ("readme.md", README_MEGALIB, "mega-lib"),
    }
    for repo, (name, text, title) in expected.items():
        doc = documents[repo]
        assert doc["url"] == f"{base}/{repo}/HEAD/{name}"
        assert doc["title"] == title
        assert doc["source"] == "readme"
        assert doc["type"] == "document"
        assert doc["content_hash"] == content_hash(text)
        assert ISO_UTC.match(doc["fetched_at"])
        assert "content" not in doc
        assert Path(doc["path"]).parent == out / "readmes"
        front, body = read_document(doc["path"])
        assert front["url"] == doc["url"]
        assert front["repo"] == repo
        assert front["content_hash"] == doc["content_hash"]
        assert front["fetched_at"] == doc["fetched_at"]
        assert body.rstrip() == text.replace("\r\n", "\n").rstrip()

    # README names are tried in order, and the search stops at the first that exists.
    paths = server.paths_requested()
    tried = [p.rsplit("/", 1)[1] for p in paths if p.startswith("/rohitg00/agentmemory/HEAD/")]
    assert tried == ["README.md", "readme.md", "Readme.md", "README.rst"]
    # The 11 repositories without any README are counted, each after trying all 7 names.
    assert stat(result, "harvest/trending/readme_missing") == 11
    assert len([p for p in paths if p.startswith("/apernet/hysteria/HEAD/")]) == 7
    assert stat(result, "harvest/trending/readmes") == 3
    assert "ERROR" not in result.stderr


def test_languages_readmes_once_and_unknown_language(server: LoopbackServer, tmp_path: Path) -> None:
    """Two languages list the same repositories: each README is fetched once; a 404 language is
    logged and counted, and the run still succeeds."""
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending/python", daily_2026())
    server.add_file("/trending/c++", daily_2026())
    server.add("/tinyhumansai/openhuman/HEAD/README.md", Reply(body=README_OPENHUMAN, content_type=TEXT))

    result, out = crawl(
        server,
        tmp_path,
        config="languages: [go]\nperiods: [monthly]\nspoken_language: en\n",
        args={"language": "python,klingon,C++", "since": "weekly", "developers": "false"},
    )

    assert result.returncode == 0, result.stderr[-3000:]
    paths = server.paths_requested()
    assert "/trending/python?since=weekly&spoken_language_code=en" in paths
    assert "/trending/klingon?since=weekly&spoken_language_code=en" in paths
    assert "/trending/c++?since=weekly&spoken_language_code=en" in paths
    assert not any(p.startswith("/trending/go") or "monthly" in p for p in paths)
    assert not any(p.startswith("/trending/developers") for p in paths)
    assert stat(result, "harvest/trending/unknown_language") == 1
    assert re.search(r"WARNING: GitHub does not know the language 'klingon'", result.stderr)

    repos = read_jsonl(out / "trending_repo.jsonl")
    assert sorted({(r["language_filter"], r["since"], r["spoken_language"]) for r in repos}) == [
        ("c++", "weekly", "en"),
        ("python", "weekly", "en"),
    ]
    assert len(repos) == 22
    assert paths.count("/tinyhumansai/openhuman/HEAD/README.md") == 1
    assert len(read_jsonl(out / "document.jsonl")) == 1


def test_second_round_same_day_adds_nothing(server: LoopbackServer, tmp_path: Path) -> None:
    """Same page twice in one day: one observation per row; READMEs fresh for readme_revisit.

    The clock is injected (``HARVEST_NOW``): the rounds run at the start and the end of one UTC
    day, then a third early the next day, whatever the time of day the test runs.
    """
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    server.add("/tinyhumansai/openhuman/HEAD/README.md", Reply(body=README_OPENHUMAN, content_type=TEXT))
    morning = {"HARVEST_NOW": "2026-03-01T00:00:01Z"}
    first, out = crawl(server, tmp_path, args={"developers": "false"}, env=morning)
    assert first.returncode == 0, first.stderr[-3000:]
    readme_fetches = server.paths_requested().count("/tinyhumansai/openhuman/HEAD/README.md")

    evening = {"HARVEST_NOW": "2026-03-01T23:59:59Z"}
    second, _ = crawl(server, tmp_path, args={"developers": "false"}, env=evening)

    assert second.returncode == 0, second.stderr[-3000:]
    assert server.paths_requested().count("/trending?since=daily") == 2  # listings: every round
    repos = read_jsonl(out / "trending_repo.jsonl")
    assert len(repos) == 11
    assert {r["observed_at"] for r in repos} == {"2026-03-01T00:00:01Z"}
    assert len(read_jsonl(out / "document.jsonl")) == 1
    # The stored README is fresh (readme_revisit: 7d): not even requested again.
    assert server.paths_requested().count("/tinyhumansai/openhuman/HEAD/README.md") == readme_fetches
    assert stat(second, "harvest/trending/readme_skipped") == 1

    # A second later it is another day: a new observation of every row.
    next_day, _ = crawl(
        server, tmp_path, args={"developers": "false"}, env={"HARVEST_NOW": "2026-03-02T00:00:00Z"}
    )
    assert next_day.returncode == 0, next_day.stderr[-3000:]
    repos = read_jsonl(out / "trending_repo.jsonl")
    assert len(repos) == 22
    assert sorted({r["observed_at"] for r in repos}) == ["2026-03-01T00:00:01Z", "2026-03-02T00:00:00Z"]


def test_readmes_off(server: LoopbackServer, tmp_path: Path) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    result, out = crawl(server, tmp_path, args={"readmes": "false", "developers": "false"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(read_jsonl(out / "trending_repo.jsonl")) == 11
    assert server.paths_requested() == ["/robots.txt", "/trending?since=daily"]


# --- the layout canary ---------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["changed_layout.html", "unnamed_rows.html"])
def test_changed_layout_fails_loudly(server: LoopbackServer, tmp_path: Path, page: str) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", own(page))
    result, out = crawl(server, tmp_path, args={"developers": "false"})

    assert result.returncode == 1
    assert finish_reason(result) == "layout_changed"
    assert stat(result, "harvest/trending/layout_changed") == 1
    url = f"{server.base_url}/trending?since=daily"
    error = re.search(
        r"\[harvest\.spiders\.trending\] ERROR: Trending page (\S+) answered 200", result.stderr
    )
    assert error and error.group(1) == url
    assert read_jsonl(out / "trending_repo.jsonl") == []


def test_changed_developers_layout_fails_loudly(server: LoopbackServer, tmp_path: Path) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    server.add_file("/trending/developers", own("changed_layout.html"))
    result, _ = crawl(server, tmp_path, args={"readmes": "false"})
    assert result.returncode == 1
    assert finish_reason(result) == "layout_changed"
    assert f"ERROR: Trending page {server.base_url}/trending/developers?since=daily" in result.stderr


def test_empty_language_page_is_not_a_layout_change(server: LoopbackServer, tmp_path: Path) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending/abap", own("empty_language.html"))
    result, out = crawl(server, tmp_path, args={"language": "abap", "developers": "false"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert stat(result, "harvest/trending/empty_page") == 1
    assert stat(result, "harvest/trending/layout_changed") is None
    assert read_jsonl(out / "trending_repo.jsonl") == []


def test_whoa_there_is_a_rate_limit_waited_out_not_a_layout_change(
    server: LoopbackServer, tmp_path: Path
) -> None:
    """GitHub's abuse-detection page answered live: wait, ask again, and read the real page."""
    server.add("/robots.txt", ROBOTS)
    whoa = own("whoa_there.html").read_bytes()
    daily = daily_2026().read_bytes()
    server.add("/trending", lambda request: Reply(body=whoa if request.nth <= 2 else daily))
    result, out = crawl_with(server, tmp_path, {"HARVEST_TRENDING_ABUSE_BACKOFF": 0.3})
    assert result.returncode == 0, result.stderr[-3000:]
    assert stat(result, "harvest/abuse_page/waits") == 2
    assert stat(result, "harvest/trending/layout_changed") is None
    assert len(read_jsonl(out / "trending_repo.jsonl")) == 11
    arrivals = [r.arrived for r in server.requests if r.path.startswith("/trending")]
    assert len(arrivals) == 3
    # Waited as long as asked (0.3 s, then doubled), never sooner.
    assert arrivals[1] - arrivals[0] >= 0.3 and arrivals[2] - arrivals[1] >= 0.6
    assert "WARNING" not in result.stderr


def test_whoa_there_that_never_ends_is_skipped_not_a_layout_change(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", own("whoa_there.html"))
    result, out = crawl_with(
        server, tmp_path, {"HARVEST_TRENDING_ABUSE_BACKOFF": 0.1, "HARVEST_TRENDING_ABUSE_RETRIES": 2}
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert finish_reason(result) == "finished"
    assert stat(result, "harvest/trending/rate_limited") == 1
    assert stat(result, "harvest/trending/layout_changed") is None
    assert server.count("/trending?since=daily") == 3


def crawl_with(server: LoopbackServer, tmp_path: Path, settings: dict[str, Any]) -> tuple[Any, Path]:
    """:func:`crawl` with extra settings, repositories only, no READMEs."""
    data_dir = tmp_path / "data"
    (tmp_path / "config").mkdir(exist_ok=True)
    result = scrapy_crawl(
        "trending",
        settings={
            "GITHUB_WEB_URL": server.base_url,
            "GITHUB_RAW_URL": server.base_url,
            "GITHUB_API_URL": f"{server.base_url}/api",
            "HARVEST_DATA_DIR": data_dir,
            "HARVEST_CONFIG_DIR": tmp_path / "config",
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_DELAY": 0,
            "CLOSESPIDER_TIMEOUT": 60,
            **settings,
        },
        args={"readmes": "false", "developers": "false"},
        timeout=120,
    )
    return result, data_dir / "trending"


# --- bad config: exit 2 before any request -------------------------------------------------------


@pytest.mark.parametrize(
    ("yaml_text", "key"),
    [
        ("languages: [python]\nperiod: [daily]\n", "period"),  # unknown key
        ("developers: sometimes\n", "developers"),  # wrong type
        ("periods: [daily, yearly]\n", "periods[1]"),  # bad period
    ],
)
def test_bad_yaml_fails_before_any_request(
    server: LoopbackServer, tmp_path: Path, yaml_text: str, key: str
) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    result, out = crawl(server, tmp_path, config=yaml_text)
    assert result.returncode == 2
    assert str(tmp_path / "config" / "trending.yaml") in result.stderr
    assert f"  {key}:" in result.stderr
    assert server.requests == []
    assert not out.exists()


def test_bad_argument_fails_before_any_request(server: LoopbackServer, tmp_path: Path) -> None:
    server.add_file("/trending", daily_2026())
    result, _ = crawl(server, tmp_path, args={"since": "yearly"})
    assert result.returncode == 2
    assert "-a since:" in result.stderr
    assert server.requests == []


# --- READMEs through the API when a token is set -------------------------------------------------


def test_token_fetches_readmes_from_the_api(server: LoopbackServer, tmp_path: Path) -> None:
    token = "ghp_test0token0never0logged"
    base = server.base_url

    def readme(request: LoggedRequest) -> Reply:
        assert request.headers.get("Accept") == "application/vnd.github+json"
        if request.headers.get("Authorization") != f"Bearer {token}":
            return Reply(401, '{"message": "Bad credentials"}', content_type="application/json")
        if not request.path.startswith("/api/repos/tinyhumansai/openhuman/"):
            return Reply(404, '{"message": "Not Found"}', content_type="application/json")
        body = {
            "name": "README.md",
            "encoding": "base64",
            "content": base64.encodebytes(README_OPENHUMAN.encode()).decode(),
            "download_url": f"{base}/raw/tinyhumansai/openhuman/main/README.md",
        }
        return Reply(body=json.dumps(body), content_type="application/json")

    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    for row_repo in ("tinyhumansai/openhuman", "rohitg00/agentmemory"):
        server.add(f"/api/repos/{row_repo}/readme", readme)
    result, out = crawl(server, tmp_path, args={"developers": "false"}, env={"GITHUB_TOKEN": token})

    assert result.returncode == 0, result.stderr[-3000:]
    api_paths = [p for p in server.paths_requested() if p.startswith("/api/")]
    assert len(api_paths) == 11  # one API call per repository, no file-name guessing
    assert not any("/HEAD/" in p for p in server.paths_requested())
    documents = read_jsonl(out / "document.jsonl")
    assert [(d["repo"], d["url"], d["title"]) for d in documents] == [
        ("tinyhumansai/openhuman", f"{base}/raw/tinyhumansai/openhuman/main/README.md", "OpenHuman")
    ]
    assert documents[0]["content_hash"] == content_hash(README_OPENHUMAN)
    assert stat(result, "harvest/trending/readme_missing") == 10
    # The token is sent, and never written anywhere: not in the log, the outputs or the state.
    assert token not in result.stdout + result.stderr
    files = [p for p in out.parent.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in files)
    for path in files:
        assert token.encode() not in path.read_bytes(), path
