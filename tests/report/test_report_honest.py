"""The report never misleads: real `scrapy crawl` rounds, one day of data, counts, ranks and dates.

A `scrapy crawl` (not the fleet) against the GitHub emulator on loopback leaves its round record;
`scrapy report` then lists a query that found nothing, counts the same errors in its card and
its chart (missing READMEs apart), and draws one day as points with a note. The page is opened
in headless Chromium: its text and a screenshot.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harvest.report import build_report
from harvest.report.model import Chart, Panel, Series
from harvest.report.plots import render_svg
from harvest.report.sample import write_sample
from tests import PROJECT_ROOT, scrapy_crawl
from tests.github_emulator import Limits, github_emulator
from tests.headless import chromium_page

TOKEN = "ghp_R3alLookingT0kenForHarvestTests0032"
FOUND = "topic:web-scraping created:>=2025-10-01"
NOTHING = "topic:no-such-topic-anywhere"

pytestmark = pytest.mark.timeout(300)


def _facts(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-fact="([a-z_]+)" data-value="([^"]*)"', html))


def _tick_labels(svg: str) -> list[str]:
    return [t.strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg) if t.strip()]


def _numbers(labels: list[str]) -> list[float]:
    out = []
    for label in labels:
        text = label.replace("−", "-").replace(",", "")
        if re.fullmatch(r"-?\d+(\.\d+)?", text):
            out.append(float(text))
    return out


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("crawled") / "data"
    config = data.parent / "config"
    config.mkdir()
    (config / "github_search.yaml").write_text(
        f'queries:\n  - query: "{FOUND}"\n    readmes: true\n  - query: "{NOTHING}"\n    readmes: true\n'
    )
    limits = Limits(search_limit=30, search_window=2.0, core_limit=200, core_window=2.0)
    with github_emulator(tokens={TOKEN}, limits=limits) as emulator:
        assert emulator.matching(NOTHING) == []
        result = scrapy_crawl(
            "github_search",
            settings={
                "GITHUB_API_URL": emulator.base_url,
                "HARVEST_DATA_DIR": str(data),
                "HARVEST_CONFIG_DIR": str(config),
                "CLOSESPIDER_TIMEOUT": 150,
            },
            env={"GITHUB_TOKEN": TOKEN},
            timeout=200,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    report = subprocess.run(
        [sys.executable, "-m", "scrapy", "report", "-s", f"HARVEST_DATA_DIR={data}"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert report.returncode == 0, report.stderr
    return data / "report" / "index.html"


def test_a_scrapy_crawl_round_fills_crawl_health_and_counts_errors_once(crawled: Path) -> None:
    html = crawled.read_text(encoding="utf-8")
    facts = _facts(html)
    # The round of a plain `scrapy crawl` (no fleet) is recorded and shown.
    assert facts["health_rounds"] == "1"
    # Both queries, the one that found nothing listed by name.
    assert facts["search_queries"] == "2" and facts["search_queries_empty"] == "1"
    assert "1 query returned no result: " + NOTHING in html
    # Missing READMEs are counted apart, not as errors: the card equals the chart's table.
    missing = int(facts["health_readmes_missing"])
    assert missing > 0
    errors = re.search(r'<figure id="health-errors">.*?</figure>', html, re.S)
    assert errors is not None
    rows = re.findall(r"<tr><td>[^<]*</td><td>([^<]*)</td><td[^>]*>([\d,]+)</td></tr>", errors.group(0))
    assert "HTTP 404" not in [kind for kind, _ in rows]
    assert int(facts["health_errors"]) == sum(int(n.replace(",", "")) for _, n in rows)
    assert f"{missing:,} repositories without a README" in html or f"{missing:,} repository without" in html


@pytest.mark.playwright
@pytest.mark.timeout(180)
def test_the_page_in_chromium_says_what_one_day_can_show(crawled: Path, tmp_path: Path) -> None:
    with chromium_page(1200, 900) as opened:
        opened.page.goto(crawled.as_uri())
        text = opened.page.locator("body").inner_text()
        assert "Only one day observed" in text and "a trend needs two days or more" in text
        assert f"returned no result: {NOTHING}" in text
        assert "READMEs missing (not errors)" in text
        opened.page.locator("#health").screenshot(path=str(tmp_path / "health.png"))
        assert (tmp_path / "health.png").stat().st_size > 5_000
        assert opened.problems() == []


def test_one_day_of_trending_merges_the_week_and_the_month(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_sample(data, 300, days=1)
    html = build_report(data, tmp_path / "report").path.read_text(encoding="utf-8")
    assert 'id="trending-week"' in html and 'id="trending-month"' not in html
    assert "risers are the same (1 day observed in the 30 days): shown once" in html
    multiples = re.search(r'<figure id="trending-multiples">.*?</figure>', html, re.S)
    assert multiples is not None
    labels = _tick_labels(multiples.group(0))
    # Dates carry their year; ranks and stars are whole numbers (not 0.96 ... 1.04).
    dates = [label for label in labels if re.fullmatch(r"\d{4}-\d{2}-\d{2}", label)]
    assert dates and not [label for label in labels if re.fullmatch(r"\d{2}-\d{2}", label)]
    assert all(n == int(n) for n in _numbers(labels))


def test_counts_have_whole_ticks_and_months_are_a_real_axis() -> None:
    counts = render_svg(Chart("bar", ["a", "b"], [Series("documents", [0.0, 1.0])], y_label="documents"))
    assert _numbers(_tick_labels(counts)) and all(n == int(n) for n in _numbers(_tick_labels(counts)))
    from harvest.report.days import month_range

    months = month_range(["2003-05", "2026-01", "2003-05"])
    assert months[0] == "2003-05" and months[-1] == "2026-01" and len(months) == 12 * 22 + 9
    one_day = render_svg(Chart("multiples", panels=[Panel("a/b", ["2026-12-01"], [1.0], [40.0])]))
    labels = _tick_labels(one_day)
    assert "2026-12-01" in labels and all(n == int(n) for n in _numbers(labels))
