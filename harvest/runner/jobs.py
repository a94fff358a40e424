"""The supervisor's bookkeeping for one spider process slot: state, counts, crashes, rounds.

A :class:`Job` is one spider (or one replica of it) across the whole fleet run: each round and
each restart is a new OS process, and the job adds up what they did. The watchdog's policy
lives here as plain methods on plain data, so it is tested without starting any process.

Hang detection (:meth:`Job.hang`) reads the heartbeats the live process sends every poll
interval (harvest.extensions.fleet): a process that sends none for the timeout has a blocked
reactor; one that sends them but shows no activity (no change in items, pages or requests,
nothing in flight) and announces no wait (harvest.util.waits) for the timeout is stuck. A process
that announces a wait, however long, is neither while its heartbeats keep coming.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from harvest.util.units import format_duration

logger = logging.getLogger(__name__)

#: Seconds of samples kept for the items/min column.
_RATE_WINDOW = 60.0


class JobState(str, Enum):
    """Where a job is; the values are what the table and status.json show."""

    QUEUED = "queued"  # due to run, waiting for a free process slot
    RUNNING = "running"
    STOPPING = "stopping"  # asked to stop, finishing in-flight work
    RESTARTING = "restarting"  # crashed or hung; restarts after a backoff delay
    WAITING = "waiting"  # round done; the next round starts at next_start
    DONE = "done"  # no more rounds (--once, or refresh_interval: never)
    STOPPED = "stopped"  # stopped cleanly on request before its round finished
    FAILED = "failed"  # crashed too often, or its config is bad: not restarted
    UNREACHABLE = "unreachable"  # its round ended because no host answered
    ERROR = "error"  # its round ended with a close reason that means bad data
    TERMINATED = "terminated"  # killed after the grace period

    @property
    def is_active(self) -> bool:
        """A process of the job is alive."""
        return self in (JobState.RUNNING, JobState.STOPPING)


#: States that make the fleet's exit code non-zero when a job ends in them.
FAILURE_STATES = frozenset({JobState.FAILED, JobState.UNREACHABLE, JobState.ERROR, JobState.TERMINATED})


@dataclass
class Counts:
    """What a process reported (cumulative within that process)."""

    items: int = 0
    pages: int = 0
    requests: int = 0
    errors: int = 0
    #: Requests that waited for the GitHub rate budget (stat harvest/github/waits).
    rate_limit_waits: int = 0
    #: Crawl state commits (stat harvest/state/commits).
    state_commits: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.items + other.items,
            self.pages + other.pages,
            self.requests + other.requests,
            self.errors + other.errors,
            self.rate_limit_waits + other.rate_limit_waits,
            self.state_commits + other.state_commits,
        )


@dataclass
class Job:
    """One spider process slot (``trending``, or ``blogs#2`` for a replica)."""

    spider: str
    replica: int = 0
    replicas: int = 1
    refresh_interval: float | None = None
    #: The replicas are the workers of one partitioned crawl (HARVEST_CRAWL_WORKERS).
    partitioned: bool = False
    state: JobState = JobState.QUEUED
    #: Will start a process at ``next_start`` (queued, restarting, or between rounds).
    scheduled: bool = True
    pid: int | None = None
    pids: list[int] = field(default_factory=list)
    #: Sum over finished processes; ``current`` is the live one's report.
    done_counts: Counts = field(default_factory=Counts)
    current: Counts = field(default_factory=Counts)
    restarts: int = 0
    rounds: int = 0
    crash_times: deque[float] = field(default_factory=deque)
    consecutive_crashes: int = 0
    last_error: str | None = None
    last_reason: str | None = None
    started_at: float | None = None
    round_started_at: float | None = None
    next_start: float = 0.0
    #: Last sign of activity of the live process: counts changed, requests in flight, or a wait.
    last_progress_at: float = 0.0
    #: Last message of any kind from the live process (its reactor was turning).
    last_heartbeat_at: float = 0.0
    #: Whether the live process has sent anything yet (until then it is starting up).
    heard_from: bool = False
    #: The live process's last heartbeat: requests in the downloader and in the scheduler...
    in_flight: int = 0
    scheduled_requests: int = 0
    #: ...and the waits it announced (harvest.util.waits.Wait as dicts).
    waits: list[dict[str, Any]] = field(default_factory=list)
    log_file: str | None = None
    _samples: deque[tuple[float, int]] = field(default_factory=deque)

    @property
    def name(self) -> str:
        """Display name: the spider, with ``#<replica>`` when it runs in several processes."""
        return self.spider if self.replicas == 1 else f"{self.spider}#{self.replica}"

    @property
    def is_final(self) -> bool:
        """Nothing more will happen to this job in this fleet run."""
        return not self.scheduled and not self.state.is_active

    def due(self, now: float) -> bool:
        """Whether a process of this job should start now (given a free slot)."""
        return self.scheduled and not self.state.is_active and self.next_start <= now

    def cancel(self) -> None:
        """The fleet is stopping: drop what was scheduled."""
        if not self.scheduled:
            return
        self.scheduled = False
        if self.state == JobState.WAITING:
            self.state = JobState.DONE
        elif self.state in (JobState.QUEUED, JobState.RESTARTING):
            self.state = JobState.STOPPED

    @property
    def counts(self) -> Counts:
        """Totals of this job over the whole fleet run."""
        return self.done_counts + self.current

    def start_process(self, pid: int, now: float, log_file: str) -> None:
        """A new process of this job is running."""
        if self.state != JobState.RESTARTING:
            self.round_started_at = now
        self.state = JobState.RUNNING
        self.scheduled = False
        self.pid = pid
        self.pids.append(pid)
        self.current = Counts()
        self.started_at = now
        self.last_progress_at = now
        self.last_heartbeat_at = now
        self.heard_from = False
        self._clear_activity()
        self.log_file = log_file

    def heartbeat(self, now: float) -> None:
        """The live process sent something: its reactor is turning."""
        self.last_heartbeat_at = now
        self.heard_from = True

    def report(
        self,
        counts: Counts,
        last_error: str | None,
        now: float,
        *,
        in_flight: int = 0,
        scheduled: int = 0,
        waits: list[dict[str, Any]] | None = None,
    ) -> None:
        """A progress report (heartbeat) from the live process.

        Activity is any change in counts, a request in flight, or an announced wait.
        """
        self.heartbeat(now)
        changed = (counts.items, counts.pages, counts.requests) != (
            self.current.items,
            self.current.pages,
            self.current.requests,
        )
        self.in_flight = in_flight
        self.scheduled_requests = scheduled
        self.waits = list(waits or [])
        if changed or in_flight > 0 or self.waits:
            self.last_progress_at = now
        self.current = counts
        if last_error:
            self.last_error = last_error
        self._samples.append((now, self.counts.items))
        while self._samples and now - self._samples[0][0] > _RATE_WINDOW:
            self._samples.popleft()

    def items_per_minute(self, now: float) -> float:
        """Items written per minute over the last minute (or since the process started)."""
        if not self._samples:
            return 0.0
        t0, n0 = self._samples[0]
        span = now - t0
        if span < 1.0:
            return 0.0
        return (self.counts.items - n0) * 60.0 / span

    def hung_for(self, now: float) -> float:
        """Seconds since the live process last showed activity."""
        return now - self.last_progress_at

    def silent_for(self, now: float) -> float:
        """Seconds since the live process last sent anything."""
        return now - self.last_heartbeat_at

    def hang(self, now: float, timeout: float, start_timeout: float = 0.0) -> str | None:
        """Why the live process counts as hung after ``timeout`` seconds, or None if it does not.

        Before its first heartbeat the process is still starting (imports, state), which a loaded
        machine slows down: then it has ``start_timeout`` seconds if that is longer.
        """
        if not self.heard_from:
            timeout = max(timeout, start_timeout)
        silent = self.silent_for(now)
        if silent > timeout:
            return f"hung: no heartbeat for {format_duration(silent)} (its reactor is blocked)"
        idle = self.hung_for(now)
        if idle > timeout:
            return (
                f"hung: no progress for {format_duration(idle)}, nothing in flight and no announced wait"
                + (f" ({self.scheduled_requests} requests scheduled)" if self.scheduled_requests else "")
            )
        return None

    def waiting_for(self) -> str | None:
        """What the live process said it waits for (the soonest wait, and how many more)."""
        if not self.waits:
            return None
        text = str(self.waits[0].get("text") or self.waits[0].get("key"))
        return text + (f" (+{len(self.waits) - 1} more)" if len(self.waits) > 1 else "")

    def _clear_activity(self) -> None:
        self.in_flight = 0
        self.scheduled_requests = 0
        self.waits = []

    def _end_process(self) -> None:
        self.done_counts = self.done_counts + self.current
        self.current = Counts()
        self.pid = None
        self._clear_activity()

    def finish_round(self, reason: str, outcome: JobState, now: float, *, again: bool) -> None:
        """The process ended its crawl with ``reason``; ``again``: schedule the next round.

        ``outcome`` is DONE, STOPPED, UNREACHABLE or ERROR. Round starts are ``refresh_interval``
        apart; a round that overran its interval is followed by the next one at once.
        """
        self._end_process()
        self.last_reason = reason
        self.consecutive_crashes = 0
        self.rounds += 1
        self.state = outcome
        self.scheduled = again and self.refresh_interval is not None and outcome != JobState.STOPPED
        if self.scheduled:
            assert self.refresh_interval is not None
            started = self.round_started_at if self.round_started_at is not None else now
            self.next_start = max(now, started + self.refresh_interval)
            if outcome == JobState.DONE:
                self.state = JobState.WAITING

    def crash(
        self, why: str, now: float, *, backoff: float, backoff_max: float, max_crashes: int, window: float
    ) -> None:
        """The process died (or hung) mid-round: restart with backoff, or give up."""
        self._end_process()
        self.last_error = why
        self.crash_times.append(now)
        while self.crash_times and now - self.crash_times[0] > window:
            self.crash_times.popleft()
        self.consecutive_crashes += 1
        if len(self.crash_times) >= max_crashes:
            self.state = JobState.FAILED
            self.scheduled = False
            self.last_error = f"{why}; {len(self.crash_times)} crashes within {window:g} s, giving up"
            return
        self.state = JobState.RESTARTING
        self.scheduled = True
        self.restarts += 1
        self.next_start = now + min(backoff_max, backoff * 2 ** (self.consecutive_crashes - 1))

    def stopping(self) -> None:
        """The fleet asked the live process to finish its in-flight work and exit."""
        if self.state == JobState.RUNNING:
            self.state = JobState.STOPPING

    def terminated(self, why: str) -> None:
        """The live process was killed by the supervisor after the grace period."""
        self._end_process()
        self.state = JobState.TERMINATED
        self.scheduled = False
        self.last_error = why

    def fail(self, why: str) -> None:
        """Mark the job failed for good (e.g. a bad config): restarting would not help."""
        self._end_process()
        self.state = JobState.FAILED
        self.scheduled = False
        self.last_error = why
