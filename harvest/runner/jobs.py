"""The supervisor's bookkeeping for one spider process slot: state, counts, crashes, rounds.

A :class:`Job` is one spider (or one replica of it) across the whole fleet run: each round and
each restart is a new OS process, and the job adds up what they did. The watchdog's policy
lives here as plain methods on plain data, so it is tested without starting any process.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from enum import Enum

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

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.items + other.items,
            self.pages + other.pages,
            self.requests + other.requests,
            self.errors + other.errors,
        )


@dataclass
class Job:
    """One spider process slot (``trending``, or ``blogs#2`` for a replica)."""

    spider: str
    replica: int = 0
    replicas: int = 1
    refresh_interval: float | None = None
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
    last_progress_at: float = 0.0
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
        self.log_file = log_file

    def report(self, counts: Counts, last_error: str | None, now: float) -> None:
        """A progress report from the live process; any change in counts is progress."""
        if (counts.items, counts.pages, counts.requests) != (
            self.current.items,
            self.current.pages,
            self.current.requests,
        ):
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
        """Seconds since the live process last made progress."""
        return now - self.last_progress_at

    def _end_process(self) -> None:
        self.done_counts = self.done_counts + self.current
        self.current = Counts()
        self.pid = None

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
