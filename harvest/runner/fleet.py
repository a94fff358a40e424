"""The supervisor: one OS process per spider run, kept alive, scheduled in rounds, stopped cleanly.

Each spider run is a fresh interpreter started with the ``spawn`` method (a Twisted reactor
cannot restart, and a forked child of a process that touched one fails silently). Children
share one item counter (a shared array with one slot per running child, which that child alone
writes: no lock, see harvest.runner.counter) and one stop event, and each has its own one-way
pipe for progress reports, so a child killed mid-write can corrupt nothing but its own pipe
and its own slot.

The loop waits on every pipe, every process sentinel and a signal wake-up fd at once, so it
reacts at once to a report, an exit or a Ctrl-C, and otherwise sleeps. Its duties:

- start due jobs while fewer than ``--processes`` run (rounds every ``refresh_interval``);
- watchdog: a process that dies mid-round is restarted with exponential backoff and marked
  failed after ``HARVEST_FLEET_MAX_CRASHES`` within ``HARVEST_FLEET_CRASH_WINDOW``; one that
  sends no heartbeat (a blocked reactor), or shows no activity and announces no wait, for
  ``HARVEST_FLEET_HUNG_TIMEOUT`` is killed and counts as a crash (see :meth:`Job.hang`);
- stop: a signal, ``--duration`` or ``--max-data-size`` sets the stop event; children finish
  their in-flight work and flush; after ``--grace`` seconds the rest are terminated, and a
  second signal terminates them at once;
- status: ``data/fleet/status.json`` every few seconds and the live view.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from multiprocessing.connection import wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harvest.commands.crawl import OK_REASONS
from harvest.extensions.fleet import STOP_REASON, FleetChannel
from harvest.extensions.reachability import CANNOT_REACH
from harvest.runner.child import ChildSpec, run_child
from harvest.runner.counter import SlotCounter
from harvest.runner.jobs import FAILURE_STATES, Counts, Job, JobState
from harvest.runner.status import STATUS_VERSION, iso, status_path, write_status
from harvest.util.sizes import SizeMonitor
from harvest.util.units import format_duration, format_size

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

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


def _exit_description(code: int | None) -> str:
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


def _signal_group(pgid: int | None, signum: int) -> bool:
    """Signal the process group a child leads; False if there is no such group."""
    if pgid is None:
        return False
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _signal_tree(process: BaseProcess, signum: int) -> None:
    """Signal a child and the helpers it started (its process group), or the child alone."""
    if not _signal_group(process.pid, signum) and process.is_alive():
        # Not its own group leader yet (still starting up): the child alone.
        if signum == signal.SIGKILL:
            process.kill()
        else:
            process.terminate()


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
        self.stop_event = self.ctx.Event()
        self.running: dict[int, Running] = {}  # by job index
        self.stop_reason: str | None = None
        self.stop_deadline: float | None = None
        self.size_exceeded = False
        self.forced = False
        self.exit_code: int | None = None
        self.started_wall = time.time()
        self.started = time.monotonic()
        self.monitor = SizeMonitor(data_dir, config.size_check_interval)
        self._signals: list[int] = []
        self._wakeup_r: int | None = None
        self._wakeup_w: int | None = None
        self.last_snapshot: dict[str, Any] | None = None
        self._next_status = 0.0
        self._status_file = status_path(data_dir)

    # --- the loop --------------------------------------------------------------------------
    def run(self) -> int:
        """Run the fleet to the end; return the exit code."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        previous = self._install_signals()
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
            self._restore_signals(previous)
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
        if self._wakeup_r is not None:
            sources.append(self._wakeup_r)
        ready = wait(sources, timeout)
        if self._wakeup_r is not None and self._wakeup_r in ready:
            try:
                os.read(self._wakeup_r, 512)
            except BlockingIOError:
                pass
        now = time.monotonic()
        for idx, r in list(self.running.items()):
            if r.conn_open and r.conn in ready:
                self._drain(r, now)
            if r.process.sentinel in ready:
                r.process.join()
                self._drain(r, now)
                del self.running[idx]
                self.counter.release(r.slot)  # dead: it can write nothing more
                self._on_exit(r, now)

    def _drain(self, r: Running, now: float) -> None:
        try:
            while r.conn_open and r.conn.poll():
                self._on_message(r, r.conn.recv(), now)
        except (EOFError, OSError):
            r.conn_open = False
            r.conn.close()

    # --- child reports -----------------------------------------------------------------------
    def _on_message(self, r: Running, msg: dict[str, Any], now: float) -> None:
        r.messages += 1
        r.job.heartbeat(now)
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
            r.job.report(
                counts,
                msg.get("last_error"),
                now,
                in_flight=int(msg.get("in_flight") or 0),
                scheduled=int(msg.get("scheduled") or 0),
                waits=list(msg.get("waits") or []),
            )
            if kind == "closed":
                r.closed = msg
        elif kind == "fatal":
            r.fatal = str(msg.get("message"))
        elif kind == "config_error":
            r.config_error = str(msg.get("message"))
        elif kind == "opened":
            r.job.last_progress_at = now

    def _on_exit(self, r: Running, now: float) -> None:
        job = r.job
        code = r.process.exitcode
        if r.killed_for is not None or r.closed is None or (code or 0) < 0:
            # It did not get to shut down its helpers (extraction pool, browser): end them too.
            _signal_group(r.process.pid, signal.SIGKILL)
        stopping = self.stop_reason is not None
        if r.killed_for == "terminated":
            job.terminated(f"terminated after the {self.grace:g} s grace period")
            logger.warning("%s (pid %s) terminated", job.name, r.process.pid)
        elif r.killed_for is not None:
            self._crash(job, r.killed_for, now)
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
            why = r.fatal or _exit_description(code)
            if stopping:
                job.fail(f"crashed while stopping: {why}")
                logger.error("%s (pid %s) %s while stopping", job.name, r.process.pid, why)
            else:
                self._crash(job, why, now)

    def _crash(self, job: Job, why: str, now: float) -> None:
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
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        suffix = f"-r{job.replica}" if job.replicas > 1 else ""
        log_file = self.data_dir / "logs" / job.spider / f"{stamp}{suffix}-{len(job.pids) + 1}.log"
        settings = {
            **self.child_settings,
            "HARVEST_FLEET_REPLICA": job.replica,
            "HARVEST_FLEET_REPLICAS": job.replicas,
        }
        if job.partitioned:
            # The replicas are the workers of one crawl over the embedded state: each owns a
            # share of the URLs; one run id per round, kept by a worker started again after a
            # crash, so the workers of a round wait for each other (harvest.crawl.handoff).
            settings |= {
                "HARVEST_CRAWL_WORKERS": job.replicas,
                "HARVEST_CRAWL_WORKER": str(job.replica),
                "HARVEST_CRAWL_RUN": f"{self.run_id}-{job.spider}-{job.rounds}",
            }
        spec = ChildSpec(
            spider=job.spider,
            log_file=str(log_file),
            settings=settings,
            spider_args={"_job": f"{stamp}-{job.spider}{suffix}"},
        )
        slot = self.counter.acquire()
        channel = FleetChannel(self.counter.slots, self.stop_event, send, os.getpid(), slot=slot)
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
                _signal_tree(r.process, signal.SIGKILL)

    def _kill(self, r: Running, now: float) -> None:
        r.kill_sent_at = now
        _signal_tree(r.process, signal.SIGTERM)

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
        self.stop_event.set()
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

    # --- signals -----------------------------------------------------------------------------
    def _install_signals(self) -> dict[int, Any]:
        previous: dict[int, Any] = {}
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, self._on_signal)
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self._wakeup_r, self._wakeup_w = r, w
        previous[-1] = signal.set_wakeup_fd(w)
        return previous

    def _restore_signals(self, previous: dict[int, Any]) -> None:
        signal.set_wakeup_fd(previous.pop(-1))
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for fd in (self._wakeup_r, self._wakeup_w):
            if fd is not None:
                os.close(fd)
        self._wakeup_r = self._wakeup_w = None

    def _on_signal(self, signum: int, frame: Any) -> None:
        self._signals.append(signum)  # handled in the loop: a signal handler must stay tiny

    def _handle_signals(self, now: float) -> None:
        while self._signals:
            signum = self._signals.pop(0)
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
        rows = []
        for job in self.jobs:
            counts = job.counts
            next_in = (job.next_start - now) if job.scheduled and not job.state.is_active else None
            waiting_for = job.waiting_for() if job.state.is_active else None
            if next_in is not None and job.state == JobState.WAITING:
                waiting_for = f"sleeping until the next round at {iso(wall + next_in)}"
            rows.append(
                {
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
                    "waits": [
                        {**w, "until": iso(w.get("until")), "since": iso(w.get("since"))} for w in job.waits
                    ],
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
            )
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
            "data_size_bytes": self.monitor.size,
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
