"""Build ``index.html`` from a data folder: load, analyse, render, write atomically.

A write that fails (a full disk) leaves no temporary file and raises
:class:`harvest.report.writefolder.WriteError`; one a kill cut short is removed by the next build.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from harvest.report.crawling import health_section
from harvest.report.documents import documents_section
from harvest.report.health import load_health
from harvest.report.model import Report
from harvest.report.page import render_page
from harvest.report.records import load_dataset
from harvest.report.search import search_section
from harvest.report.trending import trending_section
from harvest.report.writefolder import WriteFolder, writing
from harvest.util.files import atomic_write_text
from harvest.util.units import parse_positive_duration

logger = logging.getLogger(__name__)

REPORT_FILE = "index.html"


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote and what it took."""

    path: Path
    size_bytes: int
    seconds: float
    items: int
    empty: bool


def parse_since(text: str, now: datetime | None = None) -> str:
    """An ISO 8601 UTC lower bound from ``2026-11-01``, ``2026-11-01T12:00`` or a duration (``7d``)."""
    text = text.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            seconds = parse_positive_duration(text)
        except ValueError:
            raise ValueError(
                f"expected a date (2026-11-01), a time (2026-11-01T12:00) or a duration (7d), got {text!r}"
            ) from None
        moment = (now or datetime.now(timezone.utc)) - timedelta(seconds=seconds)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_report(
    data_dir: Path, output_dir: Path, *, since: str | None = None, spider: str | None = None
) -> BuildResult:
    """Write ``output_dir/index.html`` for ``data_dir`` (``since``: ISO UTC, see :func:`parse_since`)."""
    started = time.perf_counter()
    dataset = load_dataset(data_dir, since=since, spider=spider)
    health = load_health(data_dir, since=since, spider=spider)
    filters = "".join(
        [f"; items since {since}" if since else "", f"; spider {spider} only" if spider else ""]
    )
    report = Report(
        title="harvest report",
        generated_at=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        data_dir=str(data_dir),
        filters=filters,
        sections=[
            trending_section(dataset.trending, dataset.developers),
            search_section(dataset.search),
            documents_section(dataset.documents, dataset.pages, health.rounds),
            health_section(health),
        ],
    )
    if dataset.items == 0 and not health.rounds and health.status is None:
        report.empty = (
            f"The data folder {data_dir} holds no items, logs or fleet status"
            + (" matching the filters" if filters else "")
            + ": run `python run_all.py` (or `python run_all.py --demo`) first."
        )
    html = render_page(report)
    path = output_dir / REPORT_FILE
    # The folder's lock: a temporary file a killed report left is removed, never a live one's.
    with WriteFolder(output_dir, wait=True), writing(path):
        atomic_write_text(path, html)
    result = BuildResult(
        path, path.stat().st_size, time.perf_counter() - started, dataset.items, bool(report.empty)
    )
    logger.debug(
        "Report of %d items written to %s (%d bytes) in %.1f s",
        result.items,
        path,
        result.size_bytes,
        result.seconds,
    )
    return result
