"""The fleet's Prometheus metrics: built from the status snapshot and the shared GitHub budget.

A :class:`FleetCollector` turns the snapshot that ``status.json`` holds into metric families on
every scrape (nothing is kept between scrapes, so /metrics can never disagree with
/status.json), plus the rate-limit budget each token digest has left, read from the shared
``budget.sqlite`` (harvest.github.budget) without locking it. Counters are per process slot
(label ``name``: ``blogs#1`` for a replica) with the ``spider`` label.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

#: Counters of each status row: (row key, metric name without ``_total``, help).
COUNTERS = (
    ("items", "harvest_items", "Items written by the spider during this fleet run."),
    ("pages", "harvest_pages", "Responses received by the spider during this fleet run."),
    ("requests", "harvest_requests", "Requests sent by the spider during this fleet run."),
    ("errors", "harvest_errors", "ERROR log records of the spider during this fleet run."),
    ("restarts", "harvest_restarts", "Times the fleet restarted the spider after a crash or hang."),
    ("rounds", "harvest_rounds", "Rounds the spider finished during this fleet run."),
    ("rate_limit_waits", "harvest_rate_limit_waits", "Requests that waited for a rate limit."),
    ("state_commits", "harvest_state_commits", "Crawl state commits of the spider during this fleet run."),
)
#: Every state a row can be in (harvest.runner.jobs.JobState), one gauge series each.
STATES = (
    "queued",
    "running",
    "stopping",
    "restarting",
    "waiting",
    "done",
    "stopped",
    "failed",
    "unreachable",
    "error",
    "terminated",
)


@dataclass(frozen=True)
class BudgetRow:
    """The last known rate-limit window of one token digest and resource."""

    token: str
    resource: str
    limit: int | None
    remaining: int | None
    reset: float | None


def read_budget(path: Path) -> list[BudgetRow]:
    """The rows of the shared budget file (read-only; empty when there is none)."""
    if not path.is_file():
        return []
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
        try:
            rows = db.execute("SELECT token, resource, lim, remaining, reset FROM budget").fetchall()
        finally:
            db.close()
    except sqlite3.Error as exc:
        logger.debug("Cannot read %s: %s", path, exc)
        return []
    return [BudgetRow(str(t), str(r), lim, rem, reset) for t, r, lim, rem, reset in rows]


class FleetCollector(Collector):
    """Metric families from the latest snapshot (``snapshot()`` None: the fleet is starting)."""

    def __init__(self, snapshot: Callable[[], dict[str, Any] | None], budget_file: Path | None) -> None:
        self.snapshot = snapshot
        self.budget_file = budget_file

    def collect(self) -> Iterator[Metric]:
        """Yield every family (called on each scrape)."""
        snap = self.snapshot()
        up = GaugeMetricFamily("harvest_fleet_up", "1 while the fleet runs, 0 once it finished.")
        up.add_metric([], 0.0 if snap is None or snap.get("state") == "finished" else 1.0)
        yield up
        if snap is None:
            return
        rows = [r for r in snap.get("spiders", []) if isinstance(r, dict)]
        labels = ["spider", "name"]
        for key, name, text in COUNTERS:
            family = CounterMetricFamily(name, text, labels=labels)
            for row in rows:
                family.add_metric([str(row["spider"]), str(row["name"])], float(row.get(key) or 0))
            yield family
        gauges = (
            ("items_per_min", "harvest_items_per_minute", "Items per minute over the last minute."),
            ("in_flight", "harvest_in_flight_requests", "Requests in the spider's downloader."),
            (
                "scheduled_requests",
                "harvest_scheduled_requests",
                "Requests waiting in the spider's scheduler.",
            ),
        )
        for key, name, text in gauges:
            gauge = GaugeMetricFamily(name, text, labels=labels)
            for row in rows:
                gauge.add_metric([str(row["spider"]), str(row["name"])], float(row.get(key) or 0))
            yield gauge
        waiting = GaugeMetricFamily(
            "harvest_waits", "Waits the spider announced (e.g. the GitHub rate limit).", labels=labels
        )
        state = GaugeMetricFamily(
            "harvest_spider_state", "1 for the state each spider is in.", labels=[*labels, "state"]
        )
        for row in rows:
            waiting.add_metric([str(row["spider"]), str(row["name"])], float(len(row.get("waits") or [])))
            for value in STATES:
                state.add_metric(
                    [str(row["spider"]), str(row["name"]), value], 1.0 if row.get("state") == value else 0.0
                )
        yield waiting
        yield state
        items = CounterMetricFamily(
            "harvest_fleet_items", "Items written by every process of this fleet run."
        )
        items.add_metric([], float(snap.get("items_total") or 0))
        yield items
        size = GaugeMetricFamily("harvest_data_size_bytes", "Bytes under the data folder (last measurement).")
        size.add_metric([], float(snap.get("data_size_bytes") or 0))
        yield size
        if snap.get("max_data_size_bytes"):
            cap = GaugeMetricFamily(
                "harvest_data_size_limit_bytes", "--max-data-size: the fleet stops past it."
            )
            cap.add_metric([], float(snap["max_data_size_bytes"]))
            yield cap
        yield from self._budget()

    def _budget(self) -> Iterator[Metric]:
        rows = read_budget(self.budget_file) if self.budget_file is not None else []
        if not rows:
            return
        labels = ["token", "resource"]
        remaining = GaugeMetricFamily(
            "harvest_github_rate_remaining", "Requests left in the window (per token digest).", labels=labels
        )
        limit = GaugeMetricFamily(
            "harvest_github_rate_limit", "Requests allowed per window (per token digest).", labels=labels
        )
        reset = GaugeMetricFamily(
            "harvest_github_rate_reset_timestamp_seconds",
            "When the window resets (Unix time).",
            labels=labels,
        )
        for row in rows:
            key = [row.token, row.resource]
            if row.remaining is not None:
                remaining.add_metric(key, float(row.remaining))
            if row.limit is not None:
                limit.add_metric(key, float(row.limit))
            if row.reset is not None:
                reset.add_metric(key, float(row.reset))
        yield remaining
        yield limit
        yield reset


def render_metrics(collector: FleetCollector) -> bytes:
    """The Prometheus text exposition of ``collector`` (a fresh registry: no process metrics)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    return generate_latest(registry)
