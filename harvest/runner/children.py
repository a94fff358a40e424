"""A fleet child as the supervisor sees it: its process, its pipe, what it reported; signalling it.

:class:`Running` folds the child's reports (progress, close, fatal or config errors) into its
:class:`~harvest.runner.jobs.Job`; :func:`signal_tree` reaches the child and the helpers it
started (its process group).
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from harvest.runner.child import ChildSpec
from harvest.runner.jobs import Counts, Job
from harvest.state.partition import RUN_ENV, WORKER_ENV

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from pathlib import Path


@dataclass
class Running:
    """A live child process and what it has said."""

    job: Job
    process: BaseProcess
    conn: Connection
    #: Its slot of the fleet's item counter, folded back and freed once it is reaped.
    slot: int
    closed: dict[str, Any] | None = None
    fatal: str | None = None
    config_error: str | None = None
    #: Set when the supervisor kills it: "hung" (restart) or "terminated" (grace over).
    killed_for: str | None = None
    kill_sent_at: float | None = None
    conn_open: bool = True
    messages: int = field(default=0)

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        """Fold one report of the child into its job."""
        self.messages += 1
        self.job.heartbeat(now)
        kind = msg.get("kind")
        if kind in ("progress", "closed"):
            counts = Counts(
                msg["items"],
                msg["pages"],
                msg["requests"],
                msg["errors"],
                int(msg.get("rate_limit_waits") or 0),
                int(msg.get("state_commits") or 0),
            )
            self.job.report(
                counts,
                msg.get("last_error"),
                now,
                in_flight=int(msg.get("in_flight") or 0),
                scheduled=int(msg.get("scheduled") or 0),
                waits=list(msg.get("waits") or []),
            )
            if kind == "closed":
                self.closed = msg
        elif kind == "fatal":
            self.fatal = str(msg.get("message"))
        elif kind == "config_error":
            self.config_error = str(msg.get("message"))
        elif kind == "opened":
            self.job.last_progress_at = now

    def drain(self, now: float) -> None:
        """Read every report waiting in the child's pipe (a closed pipe is noted, not raised)."""
        try:
            while self.conn_open and self.conn.poll():
                self.on_message(self.conn.recv(), now)
        except (EOFError, OSError):
            self.conn_open = False
            self.conn.close()


def exit_description(code: int | None) -> str:
    """How a child that did not close its crawl ended, in words (exit code or signal)."""
    if code is None:
        return "vanished"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (out of memory, or killed from outside?)" if -code == signal.SIGKILL else ""
        return f"killed by {name}{hint}"
    return f"exited with code {code} before finishing its crawl"


def signal_group(pgid: int | None, signum: int) -> bool:
    """Signal the process group a child leads; False if there is no such group."""
    if pgid is None:
        return False
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def signal_tree(process: BaseProcess, signum: int) -> None:
    """Signal a child and the helpers it started (its process group), or the child alone."""
    if not signal_group(process.pid, signum) and process.is_alive():
        # Not its own group leader yet (still starting up): the child alone.
        if signum == signal.SIGKILL:
            process.kill()
        else:
            process.terminate()


def child_spec(job: Job, data_dir: Path, child_settings: dict[str, Any], run_id: str) -> ChildSpec:
    """What the child of ``job``'s next process gets: its log file, settings and arguments."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    suffix = f"-r{job.replica}" if job.replicas > 1 else ""
    log_file = data_dir / "logs" / job.spider / f"{stamp}{suffix}-{len(job.pids) + 1}.log"
    settings = dict(child_settings)
    environ = {}
    if job.partitioned:
        # The replicas are the workers of one crawl over the embedded state: each owns a
        # share of the URLs; one run id per round, kept by a worker started again after a
        # crash, so the workers of a round wait for each other (harvest.crawl.handoff).
        settings["HARVEST_CRAWL_WORKERS"] = job.replicas
        environ = {WORKER_ENV: str(job.replica), RUN_ENV: f"{run_id}-{job.spider}-{job.rounds}"}
    spec = ChildSpec(
        spider=job.spider,
        log_file=str(log_file),
        settings=settings,
        environ=environ,
        spider_args={"_job": f"{stamp}-{job.spider}{suffix}"},
    )
    return spec
