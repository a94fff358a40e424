"""``data/fleet/status.json``: the fleet as a monitor sees it, rewritten atomically.

The file holds the same rows as the live table (one per spider process slot), plus the fleet's
start time, supervisor pid, every pid each spider has had, the shared item total and the data
folder's size. Each row also carries the live process's last heartbeat: ``in_flight`` and
``scheduled_requests``, ``waits`` (what it announced it waits for, see harvest.util.waits, with ISO
``until`` times), ``waiting_for`` (the soonest of them in words, or the next round of a
spider between rounds) and ``last_heartbeat_s`` (seconds since it last reported).

It is replaced through a temporary file and a rename, so a reader never sees half of it, and it
is left behind with ``"state": "finished"`` and the exit code at the end.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from harvest.runner.jobs import Job, JobState
from harvest.util.files import atomic_write_text

logger = logging.getLogger(__name__)

#: Bumped when a field changes meaning; readers can check it.
STATUS_VERSION = 1


def iso(timestamp: float | None) -> str | None:
    """A wall-clock time as ISO 8601 UTC with a Z suffix (None stays None)."""
    if timestamp is None:
        return None
    return (
        datetime.fromtimestamp(timestamp, timezone.utc)
        .replace(microsecond=0)
        .isoformat()
        .replace("+00:00", "Z")
    )


def status_path(data_dir: str | Path) -> Path:
    """Where the fleet's status file lives under the data folder."""
    return Path(data_dir) / "fleet" / "status.json"


def write_status(path: Path, snapshot: dict[str, Any]) -> None:
    """Replace the status file with ``snapshot`` (atomically)."""
    atomic_write_text(path, json.dumps(snapshot, indent=2, ensure_ascii=False) + "\n")


def read_status(path: Path) -> dict[str, Any]:
    """Read a status file (for tools and tests)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("version") != STATUS_VERSION:
        raise ValueError(f"{path} is not a version {STATUS_VERSION} fleet status file")
    return data


def job_row(job: Job, now: float, wall: float) -> dict[str, Any]:
    """One spider process slot as status.json and the live table show it."""
    counts = job.counts
    next_in = (job.next_start - now) if job.scheduled and not job.state.is_active else None
    waiting_for = job.waiting_for() if job.state.is_active else None
    if next_in is not None and job.state == JobState.WAITING:
        waiting_for = f"sleeping until the next round at {iso(wall + next_in)}"
    return {
        "name": job.name,
        "spider": job.spider,
        "replica": job.replica,
        "state": job.state.value,
        "pid": job.pid,
        "last_pid": job.pids[-1] if job.pids else None,
        "pids": list(job.pids),
        "items": counts.items,
        "pages": counts.pages,
        "requests": counts.requests,
        "items_per_min": round(job.items_per_minute(now), 1),
        "in_flight": job.in_flight,
        "scheduled_requests": job.scheduled_requests,
        "waiting_for": waiting_for,
        "waits": [{**w, "until": iso(w.get("until")), "since": iso(w.get("since"))} for w in job.waits],
        "last_heartbeat_s": round(job.silent_for(now), 1) if job.state.is_active else None,
        "errors": counts.errors,
        "rate_limit_waits": counts.rate_limit_waits,
        "state_commits": counts.state_commits,
        "restarts": job.restarts,
        "rounds": job.rounds,
        "last_error": job.last_error,
        "last_reason": job.last_reason,
        "refresh_interval_s": job.refresh_interval,
        "next_round_in_s": None if next_in is None else max(0.0, round(next_in, 1)),
        "next_round_at": None if next_in is None else iso(wall + next_in),
        "log_file": job.log_file,
    }
