"""Crawl health as the data folder records it: per-round stats from the logs, state sizes, status.

Every spider process run writes one log under ``HARVEST_DATA_DIR/logs/<spider>/`` (the fleet)
and ends it with Scrapy's stats dump. :func:`load_health` reads the end of each log, parses that
dump into a :class:`RoundStats` (a round that was killed has none, and is counted as such), and
measures the crawl state's folders; ``fleet/status.json`` adds the fleet's last known table.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harvest.util.sizes import folder_size

logger = logging.getLogger(__name__)

#: Bytes read from the end of each log: the stats dump is the last thing a crawl logs.
_TAIL_BYTES = 256 * 1024
_DUMP_MARKER = "Dumping Scrapy stats:"
_DATETIME_RE = re.compile(r"datetime\.datetime\(([^)]*)\)")
_STAMP_RE = re.compile(r"^(\d{8}T\d{6})")


@dataclass(frozen=True)
class RoundStats:
    """The stats one spider process logged when its crawl closed."""

    spider: str
    log_name: str
    #: ``YYYY-MM-DD HH:MM`` (UTC) when the round started.
    started: str
    finish_reason: str
    elapsed_s: float
    #: Every numeric stat, by Scrapy's name (``item_scraped_count``, ``harvest/github/waits``...).
    counters: dict[str, float] = field(default_factory=dict)

    def get(self, name: str) -> int:
        """A counter as a whole number (0 when absent)."""
        return int(self.counters.get(name, 0))

    def prefixed(self, prefix: str) -> dict[str, int]:
        """Counters under ``prefix`` (without it), e.g. exception types."""
        return {k[len(prefix) :]: int(v) for k, v in self.counters.items() if k.startswith(prefix)}


@dataclass
class Health:
    """What the logs, the state folders and the status file say about the crawls."""

    rounds: list[RoundStats] = field(default_factory=list)
    #: Log files without a stats dump (a killed or still running process).
    unfinished_logs: int = 0
    #: Bytes of ``state/<spider>/`` (and the shared folders ``_shared``, ``_github``).
    state_sizes: dict[str, int] = field(default_factory=dict)
    #: ``fleet/status.json`` as last written, or None.
    status: dict[str, Any] | None = None


def _datetime_text(match: re.Match[str]) -> str:
    parts = [p.strip() for p in match.group(1).split(",")][:6]
    numbers = [int(p) for p in parts if p.isdigit()]
    numbers += [0] * (6 - len(numbers))
    y, mo, d, h, mi, _ = numbers
    return repr(f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}")


def parse_stats_dump(text: str) -> dict[str, Any] | None:
    """The last stats dict Scrapy logged in ``text`` (None if there is none or it is unreadable)."""
    at = text.rfind(_DUMP_MARKER)
    if at < 0:
        return None
    start = text.find("{", at)
    end = text.find("}\n", start)
    if start < 0:
        return None
    body = text[start : end + 1] if end >= 0 else text[start:].rstrip()
    body = _DATETIME_RE.sub(_datetime_text, body)
    try:
        value = ast.literal_eval(body)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _read_tail(path: Path) -> str:
    with path.open("rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - _TAIL_BYTES))
        return fh.read().decode("utf-8", "replace")


def round_from_log(spider: str, path: Path) -> RoundStats | None:
    """The round a log file records, or None when it has no stats dump."""
    stats = parse_stats_dump(_read_tail(path))
    if stats is None:
        return None
    counters = {
        k: float(v) for k, v in stats.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
    }
    started = stats.get("start_time")
    if not isinstance(started, str):
        m = _STAMP_RE.match(path.name)
        started = (
            f"{m.group(1)[:4]}-{m.group(1)[4:6]}-{m.group(1)[6:8]} {m.group(1)[9:11]}:{m.group(1)[11:13]}"
            if m
            else ""
        )
    return RoundStats(
        spider=spider,
        log_name=path.name,
        started=started,
        finish_reason=str(stats.get("finish_reason") or ""),
        elapsed_s=float(counters.get("elapsed_time_seconds", 0.0)),
        counters=counters,
    )


def _read_rounds(health: Health, logs: Path, since: str | None, spider: str | None) -> None:
    """Add each log's round (from ``since``, of ``spider`` if given) or count it unfinished."""
    for folder in sorted(p for p in logs.iterdir() if p.is_dir() and p.name != "fleet"):
        if spider is not None and folder.name != spider:
            continue
        for path in sorted(folder.glob("*.log")):
            stats = round_from_log(folder.name, path)
            if stats is None:
                health.unfinished_logs += 1
            elif since is None or stats.started.replace(" ", "T") >= since[:16]:
                health.rounds.append(stats)


def _read_status(path: Path) -> dict[str, Any] | None:
    """``fleet/status.json`` as a dict (None when absent or unreadable)."""
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        logger.info("%s is not readable JSON; the report leaves it out", path)
        return None
    return data if isinstance(data, dict) else None


def load_health(data_dir: Path, *, since: str | None = None, spider: str | None = None) -> Health:
    """Read the rounds' stats, the state sizes and the status file under ``data_dir``."""
    health = Health()
    logs = data_dir / "logs"
    if logs.is_dir():
        _read_rounds(health, logs, since, spider)
    state = data_dir / "state"
    if state.is_dir():
        for folder in sorted(p for p in state.iterdir() if p.is_dir()):
            if spider is None or folder.name in (spider, "_shared", "_github"):
                health.state_sizes[folder.name] = folder_size(folder)
    health.status = _read_status(data_dir / "fleet" / "status.json")
    return health
