"""The supervisor: one OS process per spider run, kept alive, scheduled in rounds, stopped cleanly.

Each spider run is a fresh interpreter started with the ``spawn`` method (a Twisted reactor
cannot restart, and a forked child of a process that touched one fails silently). Children
share one item counter (a shared array with one slot per running child, which that child alone
writes: no lock, see harvest.runner.counter) and one stop flag (a shared byte only the
supervisor writes: no lock either, see harvest.runner.stopflag), and each has its own one-way
pipe for progress reports, so a child killed mid-write can corrupt nothing but its own pipe
and its own slot, and holds nothing a sibling or the supervisor waits for.

The loop waits on every pipe, every process sentinel and a signal wake-up fd at once, so it
reacts at once to a report, an exit or a Ctrl-C, and otherwise sleeps. Its duties:

- start due jobs while fewer than ``--processes`` run (rounds every ``refresh_interval``);
- watchdog: a process that dies mid-round is restarted with exponential backoff and marked
  failed after ``HARVEST_FLEET_MAX_CRASHES`` within ``HARVEST_FLEET_CRASH_WINDOW``; one that
  sends no heartbeat (a blocked reactor), or shows no activity and announces no wait, for
  ``HARVEST_FLEET_HUNG_TIMEOUT`` is killed and counts as a crash (see :meth:`Job.hang`);
- stop: a signal, ``--duration`` or ``--max-data-size`` sets the stop flag; children finish
  their in-flight work and flush; after ``--grace`` seconds the rest are terminated, and a
  second signal terminates them at once;
- status: ``data/fleet/status.json`` every few seconds and the live view.

Split by duty: this loop decides; :mod:`harvest.runner.children` is a child as the supervisor
sees it (its reports, signalling its process group, its spec), :mod:`harvest.runner.restarts`
what an exit means (next round, restart with backoff, failure), :mod:`harvest.runner.signals`
the signals the loop reads, :mod:`harvest.runner.status` the rows of status.json.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from multiprocessing.connection import wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harvest.extensions.fleet import FleetChannel
from harvest.runner.child import run_child
from harvest.runner.children import Running, child_spec, signal_tree
from harvest.runner.counter import SlotCounter
from harvest.runner.jobs import FAILURE_STATES, Job, JobState
from harvest.runner.restarts import ExitPolicy
from harvest.runner.signals import SignalWatch
from harvest.runner.status import STATUS_VERSION, iso, job_row, status_path, write_status
from harvest.runner.stopflag import StopFlag
from harvest.util.sizes import SizeMonitor
from harvest.util.units import format_duration, format_size

if TYPE_CHECKING:
    from harvest.runner.display import Display
    from harvest.runner.options import FleetConfig
    from harvest.runner.plan import SpiderPlan

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_DATA_LIMIT = 3
#: Seconds between SIGTERM and SIGKILL for a child that must go.
_KILL_AFTER = 5.0
#: Longest sleep of the loop; it wakes earlier on any report, exit or signal.
_TICK = 0.5


class Fleet:
    """Runs the planned spiders until they are done, or until told to stop."""

    def __init__(
        self,
        plan: list[SpiderPlan],
        config: FleetConfig,
        display: Display,
        *,
        data_dir: Path,
        child_settings: dict[str, Any],
        processes: int,
        once: bool,
        grace: float,
        duration: float | None = None,
        max_data_size: int | None = None,
        config_dir: str | None = None,
    ) -> None:
        self.config = config
        self.display = display
        self.data_dir = data_dir
        self.child_settings = child_settings
        self.processes = processes
        self.once = once
        self.grace = grace
        self.duration = duration
        self.max_data_size = max_data_size
        self.config_dir = config_dir
        self.jobs = [
            Job(
                p.name,
                replica=i,
                replicas=p.replicas,
                refresh_interval=p.refresh_interval,
                partitioned=p.partitioned,
            )
            for p in plan
            for i in range(p.replicas)
        ]
        #: Names this fleet run in the run ids of its partitioned crawls (harvest.crawl.handoff).
        self.run_id = f"{os.getpid()}-{time.time_ns()}"
        self.ctx = multiprocessing.get_context("spawn")
        # One slot per process that may run at once; a slot is reused only after its child exits.
        self.counter = SlotCounter(self.ctx, self.processes)
        # Not a multiprocessing.Event: a child killed while reading one leaves its lock taken.
        self.stop_flag = StopFlag(self.ctx)
        self.running: dict[int, Running] = {}  # by job index
        self.stop_reason: str | None = None
        self.stop_deadline: float | None = None
        self.size_exceeded = False
        self.forced = False
        self.exit_code: int | None = None
        self.started_wall = time.time()
        self.started = time.monotonic()
        self.monitor = SizeMonitor(data_dir, config.size_check_interval)
        self.signals = SignalWatch()
        self.exits = ExitPolicy(config, grace=grace, once=once)
        self.last_snapshot: dict[str, Any] | None = None
        self._next_status = 0.0
        self._status_file = status_path(data_dir)

    # --- the loop --------------------------------------------------------------------------
    def run(self) -> int:
        """Run the fleet to the end; return the exit code."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.signals.install()
        if self.max_data_size is not None:
            self.monitor.measure()  # a folder already past the limit must not start anything
        self.monitor.start()
        self.display.start()
        logger.info(
            "Fleet of %d spider process(es) (%s), at most %d at once, %s; data in %s",
            len(self.jobs),
            ", ".join(j.name for j in self.jobs),
            self.processes,
            "one round each" if self.once else "rounds on each spider's refresh_interval",
            self.data_dir,
        )
        try:
            while True:
                now = time.monotonic()
                self._handle_signals(now)
                self._check_limits(now)
                self._start_due(now)
                self._watchdog(now)
                if self.stop_deadline is not None and now >= self.stop_deadline:
                    self._terminate_all(f"the {self.grace:g} s grace period is over")
                if not self.running and all(j.is_final for j in self.jobs):
                    break
                self._publish(now)
                self._wait(self._timeout(now))
        finally:
            self.monitor.stop()
            self.display.stop()
            self.signals.restore()
        self.exit_code = self._exit_code()
        self.monitor.measure()
        self._publish(time.monotonic(), force=True, final=True)
        return self.exit_code

    def _timeout(self, now: float) -> float:
        waits = [_TICK]
        slots_free = len(self.running) < self.processes and self.stop_reason is None
        for job in self.jobs:
            # A due job without a free slot waits for an exit, which wakes the loop anyway.
            if job.scheduled and not job.state.is_active and (slots_free or job.next_start > now):
                waits.append(job.next_start - now)
        if self.stop_deadline is not None:
            waits.append(self.stop_deadline - now)
        return max(0.01, min(waits))

    def _wait(self, timeout: float) -> None:
        sources: list[Any] = []
        for r in self.running.values():
            if r.conn_open:
                sources.append(r.conn)
            sources.append(r.process.sentinel)
        if self.signals.wakeup_fd is not None:
            sources.append(self.signals.wakeup_fd)
        ready = wait(sources, timeout)
        if self.signals.wakeup_fd is not None and self.signals.wakeup_fd in ready:
            self.signals.drain_wakeup()
        now = time.monotonic()
        for idx, r in list(self.running.items()):
            if r.conn_open and r.conn in ready:
                r.drain(now)
            if r.process.sentinel in ready:
                r.process.join()
                r.drain(now)
                del self.running[idx]
                self.counter.release(r.slot)  # dead: it can write nothing more
                self.exits.on_exit(r, now, stopping=self.stop_reason is not None)

    # --- child reports -----------------------------------------------------------------------
    # --- starting ----------------------------------------------------------------------------
    def _start_due(self, now: float) -> None:
        if self.stop_reason is not None:
            return
        for idx, job in sorted(enumerate(self.jobs), key=lambda p: p[1].next_start):
            if len(self.running) >= self.processes:
                return
            if job.due(now):
                self._start(idx, job, now)

    def _start(self, idx: int, job: Job, now: float) -> None:
        receive, send = self.ctx.Pipe(duplex=False)
        spec = child_spec(job, self.data_dir, self.child_settings, self.run_id)
        log_file = Path(spec.log_file)
        slot = self.counter.acquire()
        channel = FleetChannel(self.counter.slots, self.stop_flag, send, os.getpid(), slot=slot)
        process = self.ctx.Process(target=run_child, args=(spec, channel), name=f"harvest-{job.name}")
        # The child inherits an ignored SIGINT from the start, so a Ctrl-C that reaches the whole
        # process group cannot kill it while it is still importing (see harvest.runner.child).
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            process.start()
        except BaseException:
            self.counter.release(slot)
            raise
        finally:
            signal.signal(signal.SIGINT, previous)
        send.close()
        assert process.pid is not None
        was_restart = job.state == JobState.RESTARTING
        job.start_process(process.pid, now, str(log_file))
        self.running[idx] = Running(job, process, receive, slot)
        logger.info(
            "%s %s (pid %d, log %s)",
            job.name,
            "restarted" if was_restart else "started",
            process.pid,
            log_file,
        )
        self._prune_logs(log_file.parent)

    def _prune_logs(self, folder: Path) -> None:
        logs = sorted(folder.glob("*.log"), key=lambda p: p.stat().st_mtime)
        for old in logs[: max(0, len(logs) - self.config.log_keep)]:
            old.unlink(missing_ok=True)

    # --- watchdog, limits, stopping ---------------------------------------------------------
    def _watchdog(self, now: float) -> None:
        for r in self.running.values():
            if r.killed_for is None and r.job.state == JobState.RUNNING:
                hang = r.job.hang(now, self.config.hung_timeout, self.config.start_timeout)
                if hang is not None:
                    r.killed_for = hang
                    logger.warning("%s (pid %s) is %s; killing it", r.job.name, r.process.pid, hang)
                    self._kill(r, now)
            if r.kill_sent_at is not None and now - r.kill_sent_at > _KILL_AFTER and r.process.is_alive():
                signal_tree(r.process, signal.SIGKILL)

    def _kill(self, r: Running, now: float) -> None:
        r.kill_sent_at = now
        signal_tree(r.process, signal.SIGTERM)

    def _check_limits(self, now: float) -> None:
        if self.stop_reason is not None:
            return
        if self.duration is not None and now - self.started >= self.duration:
            self.request_stop(f"--duration {format_duration(self.duration)} reached")
        size = self.monitor.size
        if self.max_data_size is not None and size is not None and size > self.max_data_size:
            self.size_exceeded = True
            self.request_stop(
                f"the data folder {self.data_dir} holds {format_size(size)}, past --max-data-size "
                f"{format_size(self.max_data_size)}"
            )

    def request_stop(self, reason: str) -> None:
        """Ask every child to finish in-flight work and exit; terminate them after the grace."""
        if self.stop_reason is not None:
            return
        self.stop_reason = reason
        self.stop_flag.set()
        self.stop_deadline = time.monotonic() + self.grace
        for job in self.jobs:
            job.cancel()
            job.stopping()
        if self.running:
            logger.warning(
                "Stopping (%s): waiting up to %s for %s to finish in-flight work",
                reason,
                format_duration(self.grace),
                ", ".join(r.job.name for r in self.running.values()),
            )
        else:
            logger.warning("Stopping (%s)", reason)

    def _terminate_all(self, why: str) -> None:
        pending = [r for r in self.running.values() if r.killed_for is None]
        self.stop_deadline = None
        if not pending:
            return
        logger.error(
            "%s; terminating: %s", why, ", ".join(f"{r.job.name} (pid {r.process.pid})" for r in pending)
        )
        now = time.monotonic()
        for r in pending:
            r.killed_for = "terminated"
            self._kill(r, now)

    def _handle_signals(self, now: float) -> None:
        for signum in self.signals.pending():
            name = signal.Signals(signum).name
            if self.stop_reason is None:
                self.request_stop(f"received {name}")
                if self.running:
                    logger.warning("Press Ctrl-C again to terminate at once")
            elif not self.forced:
                self.forced = True
                self._terminate_all(f"received {name} again")

    # --- reporting ---------------------------------------------------------------------------
    def items_total(self) -> int:
        """Items written by every process of this fleet run (the counter's slots, summed)."""
        return self.counter.total()

    def snapshot(self, now: float, *, final: bool = False) -> dict[str, Any]:
        """The fleet as status.json and the table show it."""
        wall = time.time()
        rows = [job_row(job, now, wall) for job in self.jobs]
        return {
            "version": STATUS_VERSION,
            "state": "finished" if final else ("stopping" if self.stop_reason else "running"),
            "started_at": iso(self.started_wall),
            "updated_at": iso(wall),
            "uptime_s": round(now - self.started, 1),
            "supervisor_pid": os.getpid(),
            "once": self.once,
            "processes": self.processes,
            "data_dir": str(self.data_dir),
            "config_dir": self.config_dir,
            "data_size_bytes": self.monitor.current(),
            "max_data_size_bytes": self.max_data_size,
            "stop_reason": self.stop_reason,
            "items_total": self.items_total(),
            "exit_code": self.exit_code if final else None,
            "spiders": rows,
        }

    def _publish(self, now: float, *, force: bool = False, final: bool = False) -> None:
        snap = self.snapshot(now, final=final)
        if not final:
            self.display.update(snap)
        if force or now >= self._next_status:
            self._next_status = now + self.config.status_interval
            try:
                write_status(self._status_file, snap)
            except OSError as exc:  # a full disk must not take the supervisor down with it
                logger.error("Cannot write %s: %s", self._status_file, exc)
        self.last_snapshot = snap

    def _exit_code(self) -> int:
        if any(j.state in FAILURE_STATES for j in self.jobs):
            return EXIT_FAILED
        if self.size_exceeded:
            return EXIT_DATA_LIMIT
        return EXIT_OK
