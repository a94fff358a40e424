"""run_all.py --dashboard: the live table, /status.json and /metrics of a real fleet, in a browser."""

from __future__ import annotations

import json
import re
import signal
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from harvest.report import build_report
from harvest.runner.dashboard import Address, Dashboard, parse_address
from tests.headless import chromium_page
from tests.runner.conftest import FleetDirs, SpiderSite, fleet_argv
from tests.runner.spiders_for_tests.waiting import WAIT_TEXT

TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.headers.get("Content-Type", ""), resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode("utf-8")


def _metrics(text: str) -> dict[tuple[str, str], float]:
    """(sample name, spider name) -> value, for the per-spider samples."""
    values = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            values[(sample.name, sample.labels.get("name", ""))] = sample.value
    return values


def test_parse_address_defaults_to_loopback() -> None:
    assert parse_address("8787") == Address("127.0.0.1", 8787)
    assert parse_address(":8787") == Address("127.0.0.1", 8787)
    assert parse_address("0.0.0.0:9000") == Address("0.0.0.0", 9000)
    assert parse_address("[::1]:9000") == Address("::1", 9000)
    with pytest.raises(ValueError, match="HOST"):
        parse_address("localhost:http")


def test_the_dashboard_is_read_only_and_never_shows_a_token() -> None:
    snapshot: dict[str, Any] = {
        "version": 1,
        "state": "running",
        "items_total": 3,
        "uptime_s": 1.0,
        "spiders": [
            {
                "name": "github_search",
                "spider": "github_search",
                "state": "running",
                "items": 3,
                "last_error": f"403 for https://api.github.com/search?access_token={TOKEN}",
                "waiting_for": f"Authorization: token {TOKEN}",
            }
        ],
    }
    dashboard = Dashboard(Address("127.0.0.1", 0), lambda: snapshot)
    address = dashboard.start()
    try:
        for path in ("", "status.json", "metrics"):
            status, _, body = _get(address.url() + path)
            assert status == 200 and TOKEN not in body, path
        assert "access_token=***" in _get(address.url())[2]
        request = urllib.request.Request(address.url(), data=b"x", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 405
        assert _get(address.url() + "nope")[0] == 404
    finally:
        dashboard.stop()


@pytest.mark.playwright
@pytest.mark.timeout(120)
def test_a_running_fleet_serves_its_table_status_and_metrics(
    site: SpiderSite, dirs: FleetDirs, background: Any, tmp_path: Path
) -> None:
    fleet = background(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--no-live",
            "--spiders",
            "alpha,announces",
            "--dashboard",
            "127.0.0.1:0",
            TEST_PAGES=5,
            TEST_WAIT_SECONDS=25,
        )
    )
    fleet.wait_until(lambda: "Dashboard on http://" in fleet.output(), 60, "the dashboard's address")
    match = re.search(r"Dashboard on (http://127\.0\.0\.1:\d+/)", fleet.output())
    assert match, fleet.output()
    base = match.group(1)

    def settled() -> dict[str, Any] | None:
        status, _, body = _get(base + "status.json")
        if status != 200:
            return None
        snap = json.loads(body)
        rows = {r["name"]: r for r in snap["spiders"]}
        if rows["alpha"]["state"] == "done" and WAIT_TEXT in (rows["announces"]["waiting_for"] or ""):
            return snap
        return None

    fleet.wait_until(lambda: settled() is not None, 60, "alpha done and announces waiting")
    # Nothing moves now (alpha is done, announces waits with nothing in flight): compare.
    _, content_type, metrics_text = _get(base + "metrics")
    snap = settled()
    assert snap is not None and content_type.startswith("text/plain")
    metrics = _metrics(metrics_text)
    for row in snap["spiders"]:
        for key, metric in (
            ("items", "harvest_items_total"),
            ("pages", "harvest_pages_total"),
            ("errors", "harvest_errors_total"),
            ("restarts", "harvest_restarts_total"),
            ("rate_limit_waits", "harvest_rate_limit_waits_total"),
            ("state_commits", "harvest_state_commits_total"),
        ):
            assert metrics[(metric, row["name"])] == row[key], (metric, row)
    assert metrics[("harvest_items_total", "alpha")] == 5
    assert metrics[("harvest_waits", "announces")] == 1
    assert metrics[("harvest_fleet_items_total", "")] == snap["items_total"]
    assert metrics[("harvest_fleet_up", "")] == 1

    with chromium_page(1300, 700) as opened:
        opened.page.goto(base)
        assert opened.page.locator('meta[http-equiv="refresh"]').count() == 1
        for row in snap["spiders"]:
            tr = opened.page.locator(f'tr[data-spider="{row["name"]}"]')
            assert int(tr.locator('[data-col="items"]').inner_text().replace(",", "")) == row["items"]
            assert int(tr.locator('[data-col="pages"]').inner_text().replace(",", "")) == row["pages"]
            assert tr.locator('[data-col="state"]').inner_text().startswith(row["state"])
        waiting = opened.page.locator('tr[data-spider="announces"] [data-col="waiting_for"]').inner_text()
        assert WAIT_TEXT in waiting
        opened.page.screenshot(path=str(tmp_path / "dashboard.png"))
        assert (tmp_path / "dashboard.png").stat().st_size > 5_000
        assert opened.broken_images() == 0
        assert opened.problems() == []

    assert "WARNING" not in fleet.output()  # a normal run warns about nothing
    fleet.signal(signal.SIGINT)  # no need to sit out the rest of the announced wait
    code = fleet.wait(60)
    assert code == 0, fleet.output()
    with pytest.raises(OSError):  # the dashboard closed with the fleet
        _get(base)

    # The report of what this real fleet wrote: its documents, and one round per spider process.
    html = build_report(dirs.data, tmp_path / "report").path.read_text(encoding="utf-8")
    facts = dict(re.findall(r'data-fact="([a-z_]+)" data-value="([^"]*)"', html))
    documents = len(dirs.items("alpha")) + len(dirs.items("announces"))
    assert documents == 10 and int(facts["documents_stored"]) == documents  # 5 pages each
    assert int(facts["health_rounds"]) == 2 and facts["health_unfinished"] == "0"


def test_metrics_carry_the_budget_left_per_token_digest(tmp_path: Path) -> None:
    import sqlite3

    from harvest.runner.metrics import FleetCollector, render_metrics

    budget = tmp_path / "budget.sqlite"
    db = sqlite3.connect(budget)
    db.execute(
        "CREATE TABLE budget (token TEXT, resource TEXT, lim INTEGER, remaining INTEGER,"
        " reset REAL, observed REAL)"
    )
    db.execute("INSERT INTO budget VALUES ('t-0123abcd', 'search', 30, 12, 1796323266.0, 1796323206.0)")
    db.commit()
    db.close()
    snapshot = {"state": "running", "items_total": 0, "spiders": []}
    text = render_metrics(FleetCollector(lambda: snapshot, budget)).decode()
    samples = {
        (s.name, s.labels.get("token"), s.labels.get("resource")): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    assert samples[("harvest_github_rate_remaining", "t-0123abcd", "search")] == 12
    assert samples[("harvest_github_rate_limit", "t-0123abcd", "search")] == 30
    # Nothing known yet: the fleet is starting, and says so.
    assert "harvest_fleet_up 0.0" in render_metrics(FleetCollector(lambda: None, None)).decode()
