"""scrapy report: built from a data folder's outputs, logs and status; opened in a real browser."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harvest.report import build_report, parse_since
from harvest.report.health import parse_stats_dump
from harvest.report.records import load_dataset
from harvest.report.sample import write_sample
from tests import PROJECT_ROOT
from tests.headless import chromium_page

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def _facts(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-fact="([a-z_]+)" data-value="([^"]*)"', html))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    data = tmp_path_factory.mktemp("sample") / "data"
    counts = write_sample(data, 3_000, days=12)
    return data, dict(counts.lines)


@pytest.fixture(scope="module")
def built(sample: tuple[Path, dict[str, int]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    data, _ = sample
    return build_report(data, tmp_path_factory.mktemp("report")).path


def _scrapy_report(
    data: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "report", "-s", f"HARVEST_DATA_DIR={data}", *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_the_report_shows_what_the_data_folder_holds(
    sample: tuple[Path, dict[str, int]], built: Path
) -> None:
    data, lines = sample
    html = built.read_text(encoding="utf-8")
    facts = _facts(html)
    assert int(facts["trending_observations"]) == lines["trending_repo"]
    assert int(facts["trending_developer_observations"]) == lines["trending_developer"]
    assert int(facts["search_results"]) == lines["repo"]
    assert int(facts["documents_stored"]) == lines["document"]
    assert int(facts["health_rounds"]) == 3 * 12  # one log per spider and day
    assert facts["trending_days"] == "12"
    # Every section, every figure titled, every chart with its table.
    for section in ("trending", "search", "documents", "health"):
        assert f'<section id="{section}"' in html
    figures = re.findall(r"<figure id=\"([a-z-]+)\"><figcaption>([^<]+)</figcaption>", html)
    assert len(figures) >= 15 and all(title.strip() for _, title in figures)
    assert html.count("<svg") == html.count("<details>") >= 12
    assert html.count('aria-hidden="true"') >= html.count("<svg")
    # Self-contained: no script, no external resource.
    assert "<script" not in html
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_filters_by_spider_and_since(sample: tuple[Path, dict[str, int]], tmp_path: Path) -> None:
    data, lines = sample
    only = build_report(data, tmp_path / "a", spider="github_search").path.read_text(encoding="utf-8")
    assert int(_facts(only)["search_results"]) == lines["repo"]
    assert 'data-empty="trending"' in only and "trending_observations" not in _facts(only)
    recent = load_dataset(data, since=parse_since("2026-11-30"))
    assert {o.day for o in recent.trending} == {"2026-11-30", "2026-12-01"}
    assert parse_since("2026-11-30") == "2026-11-30T00:00:00Z"
    with pytest.raises(ValueError, match="duration"):
        parse_since("yesterday-ish")


def test_an_empty_data_folder_gives_a_report_that_says_so(tmp_path: Path) -> None:
    result = _scrapy_report(tmp_path / "nothing", "--output", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "empty report" in result.stdout
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert 'data-empty="report"' in html and "holds no items" in html
    assert "WARNING" not in result.stderr


def test_the_command_writes_under_the_data_dir_by_default_and_never_shows_a_token(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_sample(data, 300, days=3)
    status = json.loads((data / "fleet" / "status.json").read_text())
    status["spiders"] = [
        {
            "name": "blogs",
            "state": "error",
            "last_error": f"GET https://x.example/?access_token={TOKEN} failed",
        }
    ]
    (data / "fleet" / "status.json").write_text(json.dumps(status))
    result = _scrapy_report(data, "--since", "2026-11-30", env={**_env(), "GITHUB_TOKEN": TOKEN})
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr
    html = (data / "report" / "index.html").read_text(encoding="utf-8")
    assert TOKEN not in html and "access_token=***" in html
    bad = _scrapy_report(data, "--since", "whenever")
    assert bad.returncode == 2 and "--since" in bad.stderr


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env.pop("GITHUB_TOKEN", None)
    return env


def test_stats_dumps_are_read_from_logs() -> None:
    text = (
        "2026-12-03 18:40:12 [scrapy.statscollectors] INFO: Dumping Scrapy stats:\n"
        "{'finish_reason': 'finished',\n 'item_scraped_count': 349,\n"
        " 'start_time': datetime.datetime(2026, 12, 3, 18, 40, 5, 671764, tzinfo=datetime.timezone.utc)}\n"
        "2026-12-03 18:40:12 [scrapy.core.engine] INFO: Spider closed (finished)\n"
    )
    stats = parse_stats_dump(text)
    assert stats == {"finish_reason": "finished", "item_scraped_count": 349, "start_time": "2026-12-03 18:40"}
    assert parse_stats_dump("no dump here") is None


@pytest.mark.playwright
@pytest.mark.timeout(120)
def test_the_report_in_chromium(sample: tuple[Path, dict[str, int]], built: Path, tmp_path: Path) -> None:
    data, lines = sample
    with chromium_page(1200, 900) as opened:
        opened.page.goto(built.as_uri())
        shown = opened.page.locator('[data-fact="trending_observations"]').inner_text()
        assert int(shown.replace(",", "")) == lines["trending_repo"]
        shown = opened.page.locator('[data-fact="search_results"]').inner_text()
        assert int(shown.replace(",", "")) == lines["repo"]
        assert opened.page.locator("figure svg").count() >= 12
        # A table fallback opens and holds the chart's rows.
        opened.page.locator("#trending-new summary").click()
        rows = opened.page.locator("#trending-new tbody tr").count()
        assert rows == 12
        opened.page.screenshot(path=str(tmp_path / "report.png"), full_page=False)
        assert (tmp_path / "report.png").stat().st_size > 10_000
        assert opened.broken_images() == 0
        assert opened.problems() == []


def test_the_demo_ends_by_saying_where_the_report_is(tmp_path: Path) -> None:
    from rich.console import Console

    from harvest.runner.cli import _demo_report

    data = tmp_path / "demo"
    write_sample(data, 200, days=2)
    console = Console(record=True, width=200)
    _demo_report(console, data)
    said = console.export_text()
    assert f"Report: {data / 'report' / 'index.html'}" in said
    assert (data / "report" / "index.html").is_file()


def test_page_lines_are_read_without_their_html(tmp_path: Path) -> None:
    import dataclasses

    import orjson

    from harvest.items import PageItem

    folder = tmp_path / "blogs"
    folder.mkdir()
    pages = [
        PageItem(
            url=f"https://b.example/{i}",
            site="b",
            status=200,
            fetched_at="2026-12-01T00:00:00Z",
            body_sha256=str(i),
            html='<p>"html": {x}</p>' * 100,
        )
        for i in range(3)
    ]
    (folder / "page.jsonl").write_bytes(b"".join(orjson.dumps(dataclasses.asdict(p)) + b"\n" for p in pages))
    dataset = load_dataset(tmp_path)
    assert [(p.url, p.site, p.status) for p in dataset.pages] == [(p.url, "b", 200) for p in pages]
    assert dataset.unreadable == 0


def test_an_unknown_spider_is_an_error_and_the_report_before_is_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_sample(data, 200, days=2)
    full = _scrapy_report(data)
    assert full.returncode == 0, full.stderr
    before = (data / "report" / "index.html").read_bytes()
    bad = _scrapy_report(data, "--spider", "trendng")
    assert bad.returncode == 2, bad.stderr
    said = [line for line in bad.stderr.splitlines() if line.strip()]
    assert said[-1].endswith(
        "--spider: no spider named 'trendng' (spiders: blogs, github_search, trending, trending_history); "
        "did you mean 'trending'?"
    )
    assert "Traceback" not in bad.stderr
    assert (data / "report" / "index.html").read_bytes() == before


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_the_report_is_readable_as_the_umask_says(tmp_path: Path, umask: int) -> None:
    import os

    data = tmp_path / "data"
    write_sample(data, 100, days=1)
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import os, sys; os.umask({umask}); from scrapy.cmdline import execute; "
            f"sys.argv = ['scrapy', 'report', '-s', 'HARVEST_DATA_DIR={data}']; execute()",
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    mode = os.stat(data / "report" / "index.html").st_mode & 0o777
    assert mode == 0o666 & ~umask, oct(mode)
