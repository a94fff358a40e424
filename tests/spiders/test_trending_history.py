"""``scrapy crawl trending_history`` for real, against a loopback web archive of real Trending pages.

The emulator (tests/archive_emulator.py) serves captures of the real pages of
shared/fixtures/trending (2019, 2022 and 2023 daily pages, 2019 and 2022 developers pages) plus
our own weekly/monthly pages, a "Whoa there!" capture, a capture redirected to the sign-in page,
captures outside the window and two captures on one day, under rate limits of its own.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harvest.exceptions import StateError
from harvest.state.sqlite import SqliteStateStore
from tests import (
    OWN_FIXTURES,
    PROJECT_ROOT,
    read_committed_jsonl,
    read_jsonl,
    scrapy_crawl,
    shared_fixture,
    wait_for,
)
from tests.archive_emulator import ArchiveEmulator
from tests.servers import LoopbackServer, Reply

GO = ("trending", "go-trending")
TRENDING = "https://github.com/trending"
DEVELOPERS = "https://github.com/trending/developers"
WINDOW = {"from": "2019-05-01", "to": "2023-05-31"}


def _shared(*parts: str) -> bytes:
    return shared_fixture(*parts).read_bytes()


def _own(name: str) -> bytes:
    return (OWN_FIXTURES / "trending" / name).read_bytes()


def fill(archive: ArchiveEmulator) -> None:
    """The captures every test here reads (see the module docstring)."""
    page_2019 = _shared(*GO, "2019-05-11_7f9d151", "testdata", "github.com_trending.html")
    archive.capture("20190511093000", TRENDING, page_2019)
    # A second capture the same day: the archive's collapse keeps the first.
    archive.capture("20190511180000", TRENDING, page_2019)
    archive.capture("20200101120000", TRENDING, _own("whoa_there.html"))
    archive.capture("20200615120000", TRENDING, redirect_to="https://github.com/login?return_to=%2Ftrending")
    archive.capture("20200615120001", "https://github.com/login?return_to=%2Ftrending", _own("sign_in.html"))
    archive.capture(
        "20220409101500", TRENDING, _shared(*GO, "2022-04-09_8765a6f", "testdata", "github.com_trending.html")
    )
    archive.capture(
        "20230518080000", TRENDING, _shared(*GO, "2023-05-18_bdd2123", "testdata", "github.com_trending.html")
    )
    # Outside the window, before and after.
    archive.capture(
        "20181103000000",
        TRENDING,
        _shared(*GO, "2018-11-03_858012f", "testdata", "github.com_trending_relativepaths.html"),
    )
    archive.capture(
        "20260513082000", TRENDING, _shared("trending", "host452b-trending-on-github", "trending_daily.html")
    )
    archive.capture("20210301120000", f"{TRENDING}?since=weekly", _own("weekly_2026.html"))
    archive.capture("20190601000000", f"{TRENDING}?since=monthly", _own("monthly_2017.html"))
    archive.capture(
        "20190511093500",
        DEVELOPERS,
        _shared(*GO, "2019-05-11_7f9d151", "testdata", "github.com_trending_developers.html"),
    )
    archive.capture(
        "20220409101600",
        DEVELOPERS,
        _shared(*GO, "2022-04-09_8765a6f", "testdata", "github.com_trending_developers.html"),
    )
    # A capture of an error page (the archive keeps those too) is listed with its status.
    archive.capture("20210101000000", DEVELOPERS, b"<html><body>Unicorn!</body></html>", status=500)


def settings_for(
    archive: ArchiveEmulator, tmp_path: Path, github: LoopbackServer, **extra: Any
) -> dict[str, Any]:
    return {
        "HARVEST_ARCHIVE_CDX_URL": f"{archive.base_url}/cdx/search/cdx",
        "HARVEST_ARCHIVE_WEB_URL": f"{archive.base_url}/web",
        # Fast for tests; the pace at low limits has its own test below.
        "HARVEST_ARCHIVE_CDX_PER_MINUTE": 6000,
        "HARVEST_ARCHIVE_WEB_PER_SECOND": 200,
        # A live request would go here: none may.
        "GITHUB_WEB_URL": github.base_url,
        "GITHUB_RAW_URL": github.base_url,
        "GITHUB_API_URL": f"{github.base_url}/api",
        "HARVEST_DATA_DIR": tmp_path / "data",
        "HARVEST_CONFIG_DIR": tmp_path / "config",
        "DOWNLOAD_DELAY": 0,
        "CLOSESPIDER_TIMEOUT": 120,
        **extra,
    }


def crawl(
    archive: ArchiveEmulator,
    tmp_path: Path,
    github: LoopbackServer,
    args: dict[str, str] | None = None,
    **extra: Any,
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "config").mkdir(exist_ok=True)
    return scrapy_crawl(
        "trending_history",
        settings=settings_for(archive, tmp_path, github, **extra),
        args={**WINDOW, "since": "daily,weekly,monthly", **(args or {})},
        timeout=240,
    )


def stat(result: Any, key: str) -> int | None:
    m = re.search(rf"'{re.escape(key)}': (\d+)", result.stderr)
    return int(m.group(1)) if m else None


@pytest.fixture
def archive() -> Any:
    with ArchiveEmulator() as server:
        fill(server)
        yield server


@pytest.fixture
def github() -> Any:
    with LoopbackServer(name="github") as server:
        yield server


def test_history_reads_every_era_dated_by_capture(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path
) -> None:
    result = crawl(archive, tmp_path, github)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr, [line for line in result.stderr.splitlines() if "WARNING" in line]
    out = tmp_path / "data" / "trending_history"
    repos = read_jsonl(out / "trending_repo.jsonl")
    devs = read_jsonl(out / "trending_developer.jsonl")
    by_day = Counter((r["observed_at"][:10], r["since"]) for r in repos)
    # 2019, 2022, 2023 daily (25 rows each), weekly (3 rows), monthly: dated by their captures.
    assert by_day == {
        ("2019-05-11", "daily"): 25,
        ("2022-04-09", "daily"): 25,
        ("2023-05-18", "daily"): 25,
        ("2021-03-01", "weekly"): 3,
        ("2019-06-01", "monthly"): by_day[("2019-06-01", "monthly")],
    }
    assert by_day[("2019-06-01", "monthly")] > 0
    first = next(r for r in repos if r["observed_at"].startswith("2019-05-11") and r["rank"] == 1)
    assert first == {
        "repo": "microsoft/Terminal",
        "url": "https://github.com/microsoft/Terminal",
        "description": "The new Windows Terminal, and the original Windows console host -- all in the same "
        "place!",
        "language": "C++",
        "stars": 33074,
        "forks": 2914,
        "period_stars": 1573,
        "since": "daily",
        "language_filter": None,
        "rank": 1,
        "built_by": ["miniksa", "zadjii-msft", "waf", "LokiMidgard", "DHowett-MSFT"],
        "observed_at": "2019-05-11T09:30:00Z",
        "source_url": f"{archive.base_url}/web/20190511093000id_/{TRENDING}",
        "spoken_language": None,
        "type": "trending_repo",
        "archived": True,
    }
    pilot = next(r for r in repos if r["observed_at"].startswith("2022") and r["rank"] == 1)
    assert (pilot["repo"], pilot["stars"], pilot["forks"], pilot["period_stars"]) == (
        "BoomingTech/Pilot",
        1553,
        534,
        190,
    )
    assert pilot["observed_at"] == "2022-04-09T10:15:00Z"
    smol = next(r for r in repos if r["observed_at"].startswith("2023") and r["rank"] == 25)
    assert (smol["repo"], smol["stars"], smol["period_stars"]) == ("public-apis/public-apis", 240084, 97)
    weekly = sorted((r for r in repos if r["since"] == "weekly"), key=lambda r: r["rank"])
    assert [(r["repo"], r["stars"], r["period_stars"]) for r in weekly] == [
        ("octo-org/mega-lib", 1234567, 12345),
        ("solo/dotfiles", 875, 1),
        ("new-kid/block.chain", 42, None),
    ]
    assert all(r["archived"] is True for r in repos + devs)
    assert Counter(d["observed_at"] for d in devs) == {"2019-05-11T09:35:00Z": 25, "2022-04-09T10:16:00Z": 25}
    torvalds = next(d for d in devs if d["username"] == "torvalds")
    assert (torvalds["name"], torvalds["rank"], torvalds["popular_repo"]) == (
        "Linus Torvalds",
        17,
        "torvalds/linux",
    )
    # Non-Trending captures: skipped and counted, never fatal.
    assert stat(result, "harvest/trending_history/skipped/abuse_page") == 1
    assert stat(result, "harvest/trending_history/skipped/redirect") == 1
    assert (
        stat(result, "harvest/trending_history/skipped/error") is None
    )  # the 500 capture is filtered by the CDX
    # Nothing outside the window, once per capture day, never GitHub itself.
    fetched = archive.playbacks()
    assert all("20190501000000" <= ts <= "20230531235959" for ts, _ in fetched), fetched
    assert len({ts[:8] + o for ts, o in fetched}) == len(fetched)
    assert ("20190511180000", TRENDING) not in fetched
    assert not any("login" in o for _, o in fetched)
    for query in archive.cdx_queries():
        assert (query["from"], query["to"]) == ("20190501000000", "20230531235959")
        assert query["collapse"] == "timestamp:8" and query["filter"] == "statuscode:200"
    assert github.paths_requested() == []
    assert archive.violations == {"cdx": 0, "web": 0}

    # The report's Trending section holds them, marked as archived.
    report = subprocess.run(
        [sys.executable, "-m", "scrapy", "report", "-s", f"HARVEST_DATA_DIR={tmp_path / 'data'}"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr[-3000:]
    html = (tmp_path / "data" / "report" / "index.html").read_text(encoding="utf-8")
    facts = dict(re.findall(r'data-fact="([a-z_]+)" data-value="([^"]*)"', html))
    assert int(facts["trending_observations"]) == len(repos)
    assert int(facts["trending_archived_observations"]) == len(repos) + len(devs)
    days_seen: dict[str, set[str]] = {}
    for r in repos:
        days_seen.setdefault(r["repo"], set()).add(r["observed_at"][:10])
    most = min(days_seen, key=lambda repo: (-len(days_seen[repo]), repo))
    history = html[html.index('id="trending-history"') :]
    assert most in history and "<td>archived</td>" in history

    # A rerun fetches no memento again and adds nothing.
    archive.clear()
    again = crawl(archive, tmp_path, github)
    assert again.returncode == 0, again.stderr[-3000:]
    assert archive.playbacks() == []
    assert len(read_jsonl(out / "trending_repo.jsonl")) == len(repos)


def test_low_limits_hold_and_429_is_honoured(github: LoopbackServer, tmp_path: Path) -> None:
    """At 60 CDX queries a minute and 4 playbacks a second the emulator never has to refuse; at a
    lower limit of its own it refuses (429 + Retry-After) and no request comes during the wait."""
    with ArchiveEmulator(cdx_limit=3, cdx_window=3.0, web_limit=4, web_window=1.0) as archive:
        fill(archive)
        result = crawl(
            archive, tmp_path, github, HARVEST_ARCHIVE_CDX_PER_MINUTE=60, HARVEST_ARCHIVE_WEB_PER_SECOND=4
        )
        assert result.returncode == 0, result.stderr[-3000:]
        assert archive.refusals == {"cdx": 0, "web": 0}
        assert archive.violations == {"cdx": 0, "web": 0}
        assert archive.most_in_window("cdx") <= 3 and archive.most_in_window("web") <= 4
        assert len(archive.served["cdx"]) == 6 and len(archive.served["web"]) == 9
        cdx, web = archive.most_in_window("cdx"), archive.most_in_window("web")
        print(f"pace: {len(archive.served['cdx'])} CDX, {len(archive.served['web'])} playbacks; "
              f"most in a window: cdx {cdx}/3 per 3 s, web {web}/4 per 1 s")  # fmt: skip
    # The archive allows less than we were told: it refuses, we wait as asked, nothing is lost.
    with ArchiveEmulator(
        cdx_limit=2, cdx_window=30.0, web_limit=3, web_window=30.0, retry_after=1.5
    ) as archive:
        fill(archive)
        second = tmp_path / "second"
        second.mkdir()
        result = crawl(archive, second, github)
        assert result.returncode == 0, result.stderr[-3000:]
        assert archive.refusals["cdx"] >= 1 and archive.refusals["web"] >= 1
        assert archive.violations == {"cdx": 0, "web": 0}
        assert (stat(result, "harvest/archive/cdx/waits") or 0) == archive.refusals["cdx"]
        assert "ERROR" not in result.stderr and "WARNING" not in result.stderr
        assert len(
            read_jsonl(second / "data" / "trending_history" / "trending_repo.jsonl")
        ) == 25 * 3 + 3 + by_monthly(tmp_path)


def by_monthly(tmp_path: Path) -> int:
    rows = read_jsonl(tmp_path / "data" / "trending_history" / "trending_repo.jsonl")
    return sum(1 for r in rows if r["since"] == "monthly")


def test_refusal_without_retry_after_backs_off(github: LoopbackServer, tmp_path: Path) -> None:
    with ArchiveEmulator(cdx_limit=2, cdx_window=30.0, retry_after=0.5, send_retry_after=False) as archive:
        fill(archive)
        result = crawl(archive, tmp_path, github, HARVEST_ARCHIVE_BACKOFF=0.6)
        assert result.returncode == 0, result.stderr[-3000:]
        assert archive.refusals["cdx"] >= 1
        assert archive.violations == {"cdx": 0, "web": 0}
        assert "backoff" in result.stderr


def _command(settings: dict[str, Any], args: dict[str, str]) -> list[str]:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "trending_history"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    for key, value in args.items():
        cmd += ["-a", f"{key}={value}"]
    return cmd


def _identity(row: dict[str, Any]) -> tuple[Any, ...]:
    name = row.get("repo") or row.get("username")
    return (
        row["type"],
        name,
        row["since"],
        row["language_filter"],
        row.get("spoken_language"),
        row["observed_at"][:10],
    )


def test_kill_9_and_rerun_loses_nothing_and_writes_nothing_twice(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path
) -> None:
    (tmp_path / "config").mkdir()
    # Slow enough to be killed halfway: two playbacks a second; a commit every page of rows.
    settings = settings_for(
        archive, tmp_path, github, HARVEST_ARCHIVE_WEB_PER_SECOND=2, HARVEST_STATE_COMMIT_ITEMS=25
    )
    args = {**WINDOW, "since": "daily,weekly,monthly"}
    out = tmp_path / "data" / "trending_history"
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    proc = subprocess.Popen(_command(settings, args), cwd=PROJECT_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:

        def halfway() -> bool:
            # A state, not a count of lines written: the commits lag the writes, and killed at 50
            # rows written the state had sometimes committed only the memento of its last row.
            if proc.poll() is not None:
                return True
            if not (tmp_path / "data" / "state").is_dir() or not (out / "trending_repo.jsonl").exists():
                return False
            try:
                committed, last = _committed_rows(tmp_path / "data", out)
            except (AssertionError, StateError):  # no commit yet, or the state not created yet
                return False
            return len(set(committed) - last) >= 2

        wait_for(halfway, "two mementos committed whole", guard=120)
        assert proc.poll() is None, "the crawl ended before it could be killed: slow it down"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    before = archive.playbacks()
    at_kill = len(read_committed_jsonl(out / "trending_repo.jsonl"))
    committed, last = _committed_rows(tmp_path / "data", out)
    archive.clear()
    result = scrapy_crawl("trending_history", settings=settings, args=args, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    after = archive.playbacks()
    rows = read_jsonl(out / "trending_repo.jsonl") + read_jsonl(out / "trending_developer.jsonl")
    keys = Counter(_identity(r) for r in rows)
    assert [k for k, n in keys.items() if n > 1] == []
    daily = [r for r in rows if r["type"] == "trending_repo" and r["since"] == "daily"]
    assert Counter(r["observed_at"][:10] for r in daily) == {
        "2019-05-11": 25, "2022-04-09": 25, "2023-05-18": 25,
    }  # fmt: skip
    assert Counter(r["observed_at"][:10] for r in rows if r["type"] == "trending_developer") == {
        "2019-05-11": 25, "2022-04-09": 25,
    }  # fmt: skip
    # Mementos whose rows were all committed before the kill (within the output offsets the
    # crawl state had recorded) are not fetched again, but for the one whose last row made the
    # commit point (its request is marked done at the next one): only the ones fetched since are.
    # How many those are depends on how far parsing lagged the fetches when the kill landed (two,
    # then three on a loaded machine), so the state says which, not a count.
    again = set(before) & set(after)
    final = Counter(_memento(r) for r in rows)
    stored = {m for m, n in committed.items() if n == final[m]} - last
    print(f"kill -9 after {at_kill} rows: {len(before)} mementos fetched before, {len(after)} after, "
          f"{len(stored)} committed before the last commit point, {len(again)} fetched again")  # fmt: skip
    assert stored, "no memento was committed before the kill: kill it later"
    assert not again & stored, again & stored
    assert len(set(before) | set(after)) == 9
    assert archive.violations == {"cdx": 0, "web": 0}


def _memento(row: dict[str, Any]) -> tuple[str, str]:
    """``(timestamp, original)`` of the memento a row was read from, as the archive logs it."""
    match = re.search(r"/(\d{14})id_/(.+)$", row["source_url"])
    assert match, row["source_url"]
    return match.group(1), match.group(2)


def _committed_rows(data: Path, out: Path) -> tuple[Counter[tuple[str, str]], set[tuple[str, str]]]:
    """Rows per memento within the output offsets a killed crawl's state had committed, and the
    memento of each file's last committed row."""
    store = SqliteStateStore.open(data / "state", "trending_history", readonly=True)
    try:
        offsets = store.output_offsets()
    finally:
        store.close()
    assert offsets, "the crawl state recorded no output offsets"
    rows: Counter[tuple[str, str]] = Counter()
    last: set[tuple[str, str]] = set()
    for name, offset in offsets.items():
        lines = (out / name).read_bytes()[:offset].splitlines()
        rows.update(_memento(json.loads(line)) for line in lines)
        if lines:
            last.add(_memento(json.loads(lines[-1])))
    return rows, last


def _config(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "trending_history.yaml").write_text(
        "enabled: false\nfrom: 2019-05-01\nto: 2023-05-31\nperiods: [daily, weekly, monthly]\n",
        encoding="utf-8",
    )


def test_fleet_runs_it_only_when_named_and_gives_the_same_items_as_scrapy_crawl(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path
) -> None:
    from harvest.crawl.build import project_settings
    from harvest.runner.plan import build_plan

    _config(tmp_path / "config")
    settings = project_settings({"HARVEST_CONFIG_DIR": str(tmp_path / "config")})
    # Off by default (enabled: false), run when named.
    assert [p.name for p in build_plan(settings, None, {})] == []
    assert [p.name for p in build_plan(settings, ["trending_history"], {})] == ["trending_history"]

    crawled = tmp_path / "crawl"
    crawled.mkdir()
    _config(crawled / "config")
    result = scrapy_crawl("trending_history", settings=settings_for(archive, crawled, github), timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]

    # The archive allows the fleet less: its refusals are waits in the fleet's status, not errors.
    archive.limits["cdx"] = (2, 30.0)
    archive.retry_after = 0.5
    fleet_settings = settings_for(archive, tmp_path, github)
    data = fleet_settings.pop("HARVEST_DATA_DIR")
    argv = [sys.executable, "run_all.py", "--data-dir", str(data), "--once", "--spiders", "trending_history"]
    for key, value in fleet_settings.items():
        argv += ["-s", f"{key}={value}"]
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    fleet = subprocess.run(argv, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=240, env=env)
    assert fleet.returncode == 0, fleet.stdout[-2000:] + fleet.stderr[-3000:]
    assert archive.refusals["cdx"] >= 1 and archive.violations == {"cdx": 0, "web": 0}
    status = json.loads((Path(data) / "fleet" / "status.json").read_text(encoding="utf-8"))
    (row,) = status["spiders"]
    assert (row["name"], row["rate_limit_waits"], row["errors"]) == (
        "trending_history",
        archive.refusals["cdx"],
        0,
    )
    for name in ("trending_repo.jsonl", "trending_developer.jsonl"):
        by_crawl = read_jsonl(crawled / "data" / "trending_history" / name)
        by_fleet = read_jsonl(Path(data) / "trending_history" / name)
        assert by_crawl, name
        assert sorted(map(repr, by_fleet)) == sorted(map(repr, by_crawl)), name
    assert github.paths_requested() == []


def test_long_windows_page_through_the_cdx_answer(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path
) -> None:
    """Two rows per CDX answer: the resume key brings the rest, nothing is asked twice."""
    result = crawl(
        archive, tmp_path, github, args={"since": "daily", "developers": "false"}, HARVEST_ARCHIVE_CDX_LIMIT=2
    )
    assert result.returncode == 0, result.stderr[-3000:]
    queries = archive.cdx_queries()
    # Daily captures in the window, collapsed: 5 days, so 3 answers (2 + 2 + 1).
    assert [q.get("resumeKey") is not None for q in queries] == [False, True, True]
    assert len({q.get("resumeKey") for q in queries}) == 3
    assert sorted(ts for ts, _ in archive.playbacks()) == [
        "20190511093000", "20200101120000", "20200615120000", "20220409101500", "20230518080000",
    ]  # fmt: skip


def test_a_window_without_one_readable_capture_fails_loudly(github: LoopbackServer, tmp_path: Path) -> None:
    with ArchiveEmulator() as archive:
        archive.capture("20200101120000", TRENDING, _own("whoa_there.html"))
        archive.capture("20200102120000", TRENDING, _own("changed_layout.html"))
        archive.capture(
            "20200103120000", TRENDING, redirect_to="https://github.com/login?return_to=%2Ftrending"
        )
        result = crawl(archive, tmp_path, github, args={"since": "daily", "developers": "false"})
    assert result.returncode == 1
    assert "'finish_reason': 'no_archived_pages'" in result.stderr
    errors = [line for line in result.stderr.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and "None of the 3 captures" in errors[0], errors
    assert stat(result, "harvest/trending_history/skipped/abuse_page") == 1
    assert stat(result, "harvest/trending_history/skipped/no_rows") == 1
    assert stat(result, "harvest/trending_history/skipped/redirect") == 1


def test_a_window_the_archive_has_no_capture_of_is_not_an_error(
    github: LoopbackServer, tmp_path: Path
) -> None:
    with ArchiveEmulator() as archive:
        result = crawl(archive, tmp_path, github)
        assert len(archive.cdx_queries()) == 6
    assert result.returncode == 0, result.stderr[-3000:]
    assert "ERROR" not in result.stderr and "WARNING" not in result.stderr


@pytest.fixture
def redis_url(tmp_path: Path) -> Any:
    from tests.scale.redis_server import RedisServer, require_redis_server

    require_redis_server()
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server.url
    finally:
        server.stop()


def test_two_replicas_on_redis_share_the_crawl_and_the_archive_limits(
    github: LoopbackServer, tmp_path: Path, redis_url: str
) -> None:
    """``--replicas trending_history=2`` on a Redis state: one crawl, one pace, nothing twice."""
    _config(tmp_path / "config")
    with ArchiveEmulator(cdx_limit=6, cdx_window=3.0, web_limit=8, web_window=1.0) as archive:
        fill(archive)
        settings = settings_for(archive, tmp_path, github, HARVEST_STATE_URL=redis_url,
                                HARVEST_ARCHIVE_CDX_PER_MINUTE=120, HARVEST_ARCHIVE_WEB_PER_SECOND=8,
                                MAX_IDLE_TIME_BEFORE_CLOSE=1, HARVEST_REDIS_IDLE_POLL=0.2)  # fmt: skip
        data = settings.pop("HARVEST_DATA_DIR")
        argv = [sys.executable, "run_all.py", "--data-dir", str(data), "--once", "--no-live",
                "--spiders", "trending_history", "--replicas", "trending_history=2"]  # fmt: skip
        for key, value in settings.items():
            argv += ["-s", f"{key}={value}"]
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
        fleet = subprocess.run(argv, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=240, env=env)
        assert fleet.returncode == 0, fleet.stdout[-2000:] + fleet.stderr[-3000:]
        assert archive.refusals == {"cdx": 0, "web": 0}
        assert archive.violations == {"cdx": 0, "web": 0}
        fetched = archive.playbacks()
    assert len(fetched) == len(set(fetched)) == 9
    rows = read_jsonl(Path(data) / "trending_history" / "trending_repo.jsonl")
    rows += read_jsonl(Path(data) / "trending_history" / "trending_developer.jsonl")
    assert [k for k, n in Counter(_identity(r) for r in rows).items() if n > 1] == []
    assert len(rows) == 25 * 3 + 3 + by_monthly(tmp_path) + 25 * 2
    logs = sorted((Path(data) / "logs" / "trending_history").glob("*.log"))
    assert len(logs) == 2


def test_live_and_archived_observations_of_one_day_are_one(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path
) -> None:
    """The live spider stored today's page: an archived capture of today adds nothing, and the
    other way round. Both orders, first stored wins."""
    from datetime import datetime, timezone

    today = datetime.now(timezone.utc).strftime("%Y%m%d")
    page = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")
    archive.capture(f"{today}000001", TRENDING, page.read_bytes())
    github.add("/robots.txt", Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain"))
    github.add_file("/trending", page)
    day = f"{today[:4]}-{today[4:6]}-{today[6:]}"

    def live(folder: Path) -> subprocess.CompletedProcess[str]:
        settings = settings_for(archive, folder, github)
        return scrapy_crawl("trending", settings=settings, args={"readmes": "false", "developers": "false"})

    def history(folder: Path) -> subprocess.CompletedProcess[str]:
        return crawl(
            archive, folder, github, args={"from": day, "to": day, "since": "daily", "developers": "false"}
        )

    first, second = tmp_path / "live-first", tmp_path / "archive-first"
    for folder in (first, second):
        (folder / "config").mkdir(parents=True)
    for folder, order in ((first, (live, history)), (second, (history, live))):
        results = [run(folder) for run in order]
        assert all(r.returncode == 0 for r in results), [r.stderr[-2000:] for r in results]
        assert stat(results[1], "harvest/dedup/sibling_seen") == 11
        live_rows = read_jsonl(folder / "data" / "trending" / "trending_repo.jsonl")
        archived_rows = read_jsonl(folder / "data" / "trending_history" / "trending_repo.jsonl")
        stored = live_rows + archived_rows
        assert len(stored) == 11 and len({_identity(r) for r in stored}) == 11
        assert (len(live_rows), len(archived_rows)) == ((11, 0) if folder == first else (0, 11))


@pytest.mark.parametrize(
    ("args", "named"),
    [
        ({"from": "2021-13-01", "to": "2021-12-31"}, "-a from"),
        ({"from": "2021-06-01", "to": "2021-01-31"}, "after to"),
        ({"from": "2021-06-01", "to": ""}, "-a to"),
        ({"from": "2021-06-01", "to": "2021-06-30", "since": "yearly"}, "-a since"),
    ],
)
def test_a_bad_window_fails_before_any_request(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path, args: dict[str, str], named: str
) -> None:
    (tmp_path / "config").mkdir()
    result = scrapy_crawl(
        "trending_history", settings=settings_for(archive, tmp_path, github), args=args, timeout=120
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert named in result.stderr
    assert "Traceback" not in result.stderr
    assert archive.paths_requested() == []


def test_the_shipped_yaml_is_valid_and_off_in_the_fleet() -> None:
    import yaml

    from harvest.config.trending_history import TrendingHistoryConfig

    raw = yaml.safe_load(
        (PROJECT_ROOT / "spiders_config" / "trending_history.yaml").read_text(encoding="utf-8")
    )
    config = TrendingHistoryConfig.model_validate(raw)
    assert config.enabled is False and config.start is not None and config.end is not None
    trending = yaml.safe_load((PROJECT_ROOT / "spiders_config" / "trending.yaml").read_text(encoding="utf-8"))
    # The same page keys as trending.yaml (no READMEs: the archive's are not fetched).
    assert set(trending) - {"readmes", "readme_revisit", "refresh_interval"} <= set(raw)


def test_an_export_holds_live_and_archived_rows_told_apart(
    archive: ArchiveEmulator, github: LoopbackServer, tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    github.add("/robots.txt", Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain"))
    github.add_file(
        "/trending", shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")
    )
    (tmp_path / "config").mkdir()
    settings = settings_for(archive, tmp_path, github)
    live = scrapy_crawl("trending", settings=settings, args={"readmes": "false", "developers": "false"})
    assert live.returncode == 0, live.stderr[-2000:]
    history = crawl(archive, tmp_path, github, args={"since": "daily", "developers": "false"})
    assert history.returncode == 0, history.stderr[-2000:]
    out = tmp_path / "export"
    export = subprocess.run(
        [sys.executable, "-m", "scrapy", "export", "all", "--output", str(out),
         "-s", f"HARVEST_DATA_DIR={tmp_path / 'data'}"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert export.returncode == 0, export.stderr[-2000:]
    frame = pq.read_table(out / "trending_repo" / "part-00000.parquet").to_pandas()
    assert sorted(frame.groupby(["spider", "archived"]).size().items()) == [
        (("trending", False), 11),
        (("trending_history", True), 75),
    ]


def test_a_playback_redirect_is_followed_only_to_the_same_page_the_same_day(
    github: LoopbackServer, tmp_path: Path
) -> None:
    page = _shared(*GO, "2022-04-09_8765a6f", "testdata", "github.com_trending.html")
    with ArchiveEmulator() as archive:
        # The archive sends the first capture of the day on to a later one of the same page.
        archive.capture("20210505000000", TRENDING, redirect_to="http://www.github.com/trending")
        archive.capture("20210505101010", TRENDING, page)
        # This one leads to the next day: not followed.
        archive.capture("20210506235900", TRENDING, redirect_to="https://github.com/trending")
        archive.capture("20210507000100", TRENDING, page)
        result = crawl(archive, tmp_path, github, args={"from": "2021-05-05", "to": "2021-05-06",
                                                        "since": "daily", "developers": "false"})  # fmt: skip
        fetched = archive.playbacks()
    assert result.returncode == 0, result.stderr[-3000:]
    assert sorted(ts for ts, _ in fetched) == ["20210505000000", "20210505101010", "20210506235900"]
    rows = read_jsonl(tmp_path / "data" / "trending_history" / "trending_repo.jsonl")
    assert {r["observed_at"] for r in rows} == {"2021-05-05T10:10:10Z"} and len(rows) == 25
    assert {r["source_url"] for r in rows} == {
        f"{archive.base_url}/web/20210505101010id_/http://www.github.com/trending"
    }
    assert stat(result, "harvest/trending_history/skipped/redirect") == 1
