"""The report's Crawl health section: items and pages per round, errors, rate-limit waits, state size."""

from __future__ import annotations

import logging
from collections import Counter

from harvest.report.days import day_range
from harvest.report.health import Health
from harvest.report.model import Cell, Chart, Fact, Figure, Section, Series, Table
from harvest.util.redaction import scrub
from harvest.util.units import format_duration, format_size

logger = logging.getLogger(__name__)

#: Up to this many days, per-day charts are grouped bars; beyond, lines.
_BAR_DAYS = 7
#: Close reasons that are not a problem.
_OK_REASONS = frozenset({"finished", "stop_requested", "closespider_timeout", "closespider_itemcount"})


def _per_day(health: Health, stat: str, what: str, fid: str) -> Figure:
    spiders = sorted({r.spider for r in health.rounds})
    days = day_range(r.started[:10] for r in health.rounds)
    totals: Counter[tuple[str, str]] = Counter()
    for r in health.rounds:
        totals[(r.spider, r.started[:10])] += r.get(stat)
    series = [Series(s, [float(totals[(s, d)]) for d in days]) for s in spiders]
    chart = Chart("bar" if len(days) <= _BAR_DAYS else "lines", days, series, y_label=f"{what} per day")
    return Figure(
        fid,
        f"{what.capitalize()} per spider per day (the sum of the day's rounds)",
        Table(["day", *spiders], [[d, *[totals[(s, d)] for s in spiders]] for d in days]),
        chart if days else None,
    )


def _rounds(health: Health) -> list[Figure]:
    rounds = sorted(health.rounds, key=lambda r: (r.started, r.spider))
    rows: list[list[Cell]] = [
        [
            r.spider,
            r.started,
            r.finish_reason,
            format_duration(r.elapsed_s),
            r.get("item_scraped_count"),
            r.get("response_received_count"),
            r.get("log_count/ERROR"),
        ]
        for r in rounds
    ]
    table = Figure(
        "health-rounds",
        "Every round recorded (one round = one spider process run): items, pages, errors",
        Table(["spider", "started (UTC)", "close reason", "took", "items", "pages", "errors"], rows),
        note="" if rows else "No round is recorded: logs/<spider>/ holds no finished crawl's log.",
    )
    if not rows:
        return [table]
    items = _per_day(health, "item_scraped_count", "items", "health-items")
    pages = _per_day(health, "response_received_count", "pages", "health-pages")
    return [items, pages, table]


def error_kinds(health: Health) -> Counter[tuple[str, str]]:
    """(spider, kind) -> count over the rounds: logged errors, exceptions, HTTP errors, bad endings."""
    kinds: Counter[tuple[str, str]] = Counter()
    for r in health.rounds:
        if r.get("log_count/ERROR"):
            kinds[(r.spider, "logged ERROR")] += r.get("log_count/ERROR")
        for name, n in r.prefixed("downloader/exception_type_count/").items():
            kinds[(r.spider, name.rsplit(".", 1)[-1])] += n
        for status, n in r.prefixed("downloader/response_status_count/").items():
            if status[:1] in ("4", "5"):
                kinds[(r.spider, f"HTTP {status}")] += n
        if r.finish_reason and r.finish_reason not in _OK_REASONS:
            kinds[(r.spider, f"closed: {r.finish_reason}")] += 1
    return kinds


def _errors(health: Health) -> Figure:
    kinds = error_kinds(health)
    ordered = kinds.most_common()
    chart = Chart(
        "barh",
        [f"{s}: {k}" for (s, k), _ in ordered[:20]],
        [Series("count", [float(n) for _, n in ordered[:20]])],
    )
    chart.x_label = "count over the rounds"
    return Figure(
        "health-errors",
        "Errors by spider and kind (logged errors, network exceptions, HTTP 4xx/5xx, bad close reasons)",
        Table(["spider", "kind", "count"], [[s, k, n] for (s, k), n in ordered]),
        chart if ordered else None,
        note="" if ordered else "No error in the rounds recorded.",
    )


def _waits(health: Health) -> Figure:
    spiders = sorted({r.spider for r in health.rounds})
    rows: list[list[Cell]] = []
    waits: list[float] = []
    for spider in spiders:
        mine = [r for r in health.rounds if r.spider == spider]
        count = sum(r.get("harvest/github/waits") for r in mine)
        seconds = sum(r.get("harvest/github/wait_ms") for r in mine) / 1000.0
        limited = Counter[str]()
        for r in mine:
            limited.update(r.prefixed("harvest/github/rate_limited/"))
        rows.append(
            [
                spider,
                count,
                round(seconds, 1),
                sum(r.get("harvest/github/requests") for r in mine),
                ", ".join(f"{k}: {v}" for k, v in sorted(limited.items())) or "none",
            ]
        )
        waits.append(float(count))
    chart = Chart(
        "barh", spiders, [Series("waits", waits)], x_label="requests that waited for the rate budget"
    )
    return Figure(
        "health-waits",
        "GitHub rate-limit waits per spider (requests that waited for the shared budget)",
        Table(["spider", "waits", "seconds waited", "API requests", "rate-limited answers"], rows),
        chart if any(waits) else None,
        note="" if any(waits) else "No request waited for the GitHub rate limit.",
    )


def _state(health: Health) -> Figure:
    names = sorted(health.state_sizes, key=lambda n: -health.state_sizes[n])
    chart = Chart(
        "barh",
        names,
        [Series("MB", [health.state_sizes[n] / 1024**2 for n in names])],
        x_label="MB on disk",
    )
    return Figure(
        "health-state",
        "Crawl state size per spider (state/<spider>/ on disk; _shared and _github are shared)",
        Table(
            ["state folder", "bytes", "size"],
            [[n, health.state_sizes[n], format_size(health.state_sizes[n])] for n in names],
        ),
        chart if names else None,
        note="" if names else "No crawl state under state/.",
    )


def _status(health: Health) -> Figure | None:
    status = health.status
    if not status or not isinstance(status.get("spiders"), list):
        return None
    rows: list[list[Cell]] = []
    for row in status["spiders"]:
        if not isinstance(row, dict):
            continue
        rows.append(
            [
                str(row.get("name")),
                str(row.get("state")),
                row.get("items"),
                row.get("pages"),
                row.get("errors"),
                row.get("restarts"),
                row.get("rounds"),
                scrub(str(row.get("last_error") or "")),
            ]
        )
    return Figure(
        "health-fleet",
        f"The fleet's last status ({status.get('state')}, updated {status.get('updated_at')})",
        Table(["spider", "state", "items", "pages", "errors", "restarts", "rounds", "last error"], rows),
    )


def health_section(health: Health) -> Section:
    """The Crawl health section of the report."""
    section = Section("health", "Crawl health")
    if not health.rounds and not health.state_sizes and health.status is None:
        section.empty = "No logs, crawl state or fleet status in the data folder: nothing has crawled yet."
        return section
    section.facts = [
        Fact("health_rounds", "rounds recorded", len(health.rounds)),
        Fact("health_unfinished", "logs without final stats", health.unfinished_logs),
        Fact("health_errors", "errors logged", sum(r.get("log_count/ERROR") for r in health.rounds)),
        Fact("health_waits", "rate-limit waits", sum(r.get("harvest/github/waits") for r in health.rounds)),
        Fact("health_state_bytes", "state size", format_size(sum(health.state_sizes.values()))),
    ]
    section.intro = (
        "From the final stats each spider process logged under logs/<spider>/ (pruned to the newest logs)."
    )
    section.figures = [*_rounds(health), _errors(health), _waits(health), _state(health)]
    fleet = _status(health)
    if fleet is not None:
        section.figures.append(fleet)
    return section
