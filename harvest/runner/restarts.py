"""What the fleet does when a child exits: the round's outcome, a restart with backoff, or failure.

A child that closed with an OK reason finished its round (the next one is due after the spider's
``refresh_interval``); one that was stopped, could not reach its hosts or closed with another
reason says so; one that crashed or hung is restarted with exponential backoff and marked failed
after ``HARVEST_FLEET_MAX_CRASHES`` within ``HARVEST_FLEET_CRASH_WINDOW``; a bad config is not
restarted.
"""

from __future__ import annotations

import logging
import signal
from typing import TYPE_CHECKING

from harvest.extensions.fleet import STOP_REASON
from harvest.extensions.reachability import CANNOT_REACH
from harvest.plumbing.closing import OK_REASONS
from harvest.runner.children import exit_description, signal_group
from harvest.runner.jobs import JobState
from harvest.util.units import format_duration

if TYPE_CHECKING:
    from harvest.runner.children import Running
    from harvest.runner.jobs import Job
    from harvest.runner.options import FleetConfig

logger = logging.getLogger(__name__)


class ExitPolicy:
    """The outcome of each child's exit, for jobs run with ``config``."""

    def __init__(self, config: FleetConfig, *, grace: float, once: bool) -> None:
        self.config = config
        self.grace = grace
        self.once = once

    def on_exit(self, r: Running, now: float, *, stopping: bool) -> None:
        """Decide ``r``'s job after its process exited: next round, restart, or failed."""
        job = r.job
        code = r.process.exitcode
        if r.killed_for is not None or r.closed is None or (code or 0) < 0:
            # It did not get to shut down its helpers (extraction pool, browser): end them too.
            signal_group(r.process.pid, signal.SIGKILL)
        if r.killed_for == "terminated":
            job.terminated(f"terminated after the {self.grace:g} s grace period")
            logger.warning("%s (pid %s) terminated", job.name, r.process.pid)
        elif r.killed_for is not None:
            self.crash(job, r.killed_for, now)
        elif r.config_error is not None:
            job.fail(r.config_error)
            logger.error("%s: bad configuration, not restarting:\n%s", job.name, r.config_error)
        elif r.closed is not None:
            reason = str(r.closed["reason"])
            again = not self.once and not stopping
            if reason == STOP_REASON:
                outcome = JobState.STOPPED
            elif reason in OK_REASONS:
                outcome = JobState.DONE
            elif reason == CANNOT_REACH:
                outcome = JobState.UNREACHABLE
                job.last_error = "cannot reach " + (
                    ", ".join(r.closed.get("unreachable") or []) or "its hosts"
                )
            else:
                outcome = JobState.ERROR
                job.last_error = f"closed with reason {reason!r}" + (
                    f": {job.last_error}" if job.last_error else ""
                )
            job.finish_round(reason, outcome, now, again=again)
            log = logger.info if outcome in (JobState.DONE, JobState.STOPPED) else logger.error
            log(
                "%s (pid %s) finished: %s, %d items, %d pages%s",
                job.name,
                r.process.pid,
                reason,
                job.counts.items,
                job.counts.pages,
                f"; {job.last_error}" if outcome not in (JobState.DONE, JobState.STOPPED) else "",
            )
        else:
            why = r.fatal or exit_description(code)
            if stopping:
                job.fail(f"crashed while stopping: {why}")
                logger.error("%s (pid %s) %s while stopping", job.name, r.process.pid, why)
            else:
                self.crash(job, why, now)

    def crash(self, job: Job, why: str, now: float) -> None:
        """Count a crash of ``job``: restart it after a backoff, or mark it failed."""
        c = self.config
        job.crash(
            why,
            now,
            backoff=c.restart_backoff,
            backoff_max=c.restart_backoff_max,
            max_crashes=c.max_crashes,
            window=c.crash_window,
        )
        if job.state == JobState.FAILED:
            logger.error("%s failed: %s (log: %s)", job.name, job.last_error, job.log_file)
        else:
            logger.warning(
                "%s %s; restart %d in %s (log: %s)",
                job.name,
                why,
                job.restarts,
                format_duration(job.next_start - now),
                job.log_file,
            )
