"""The supervisor of a partitioned crawl: ``scrapy crawl <spider> -s HARVEST_CRAWL_WORKERS=N``.

The ``scrapy crawl`` process is worker 0 (:mod:`harvest.commands.crawl`): once the settings and
config are validated, it starts workers 1 to N-1, each the same command with its index and one
run id in its environment (``HARVEST_CRAWL_WORKER=<k>``, ``HARVEST_CRAWL_RUN``: the supervisor's
channel to its workers, not settings; :mod:`harvest.state.partition`, :mod:`harvest.crawl.handoff`),
crawls its own share, then waits for them. A worker that dies (``kill -9``, a crash) is started
again with the same index, up to ``HARVEST_CRAWL_MAX_RESTARTS`` times in all: it resumes its own
state like any killed crawl, so nothing it collected is lost or written twice. Ctrl-C or SIGTERM
stops worker 0, which stops the others; they close cleanly. If worker 0 itself is killed, the
others see it gone (its pid is in their ``HARVEST_CRAWL_SUPERVISOR``) and close cleanly; the next
run resumes. A worker that ends with an error (a full disk, a state it cannot open) is not
started again, and its share is nobody else's: the others stop cleanly (worker 0 with
:data:`WORKER_FAILED`) rather than wait for it. The exit code is 0 when every worker ended well,
else 1.

Worker 0 crawling in the ``scrapy crawl`` process, rather than a separate supervisor process
starting N workers, saves one Python and Scrapy start-up (~0.5 s) and the supervisor's memory.
``python -m harvest.crawl.workers --count N -- <command>`` runs :class:`WorkerSupervisor` on its
own (N workers of any command); this module imports neither Scrapy nor harvest's crawl code.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from types import FrameType

logger = logging.getLogger(__name__)

#: How often the supervisor looks at its workers (seconds).
#: The worker's channel (harvest.state.partition.WORKER_ENV, RUN_ENV, SUPERVISOR_ENV): spelled out
#: here because this module imports nothing of harvest (it runs without Scrapy).
_WORKER_ENV = "HARVEST_CRAWL_WORKER"
_RUN_ENV = "HARVEST_CRAWL_RUN"
_SUPERVISOR_ENV = "HARVEST_CRAWL_SUPERVISOR"
POLL = 0.2
#: Close reason of worker 0 when another worker ended for good (an error exit, or its restarts
#: used up): its data is consistent, the crawl unfinished.
WORKER_FAILED = "crawl_worker_failed"


def describe_exit(code: int) -> str:
    """Describe a ``Popen.returncode``: exit code 3, or signal SIGKILL."""
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


class Worker(Protocol):
    """The part of ``subprocess.Popen`` the supervisor uses (a started or a forked worker)."""

    @property
    def pid(self) -> int:
        """Its process id."""
        ...

    def poll(self) -> int | None:
        """Its exit code once it ended (-N for signal N), else None."""
        ...

    def send_signal(self, sig: int) -> None:
        """Send it ``sig`` (nothing once it ended)."""
        ...

    def kill(self) -> None:
        """Send it SIGKILL."""
        ...


class ForkedWorker:
    """A worker forked from this process (:meth:`WorkerSupervisor.fork_all`), seen as a Popen."""

    def __init__(self, pid: int) -> None:
        self._pid = pid
        self.returncode: int | None = None

    @property
    def pid(self) -> int:
        """Its process id."""
        return self._pid

    def poll(self) -> int | None:
        """Its exit code as ``Popen.returncode`` gives it (-N for signal N), None while it runs."""
        if self.returncode is None:
            pid, status = os.waitpid(self._pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        """Send it ``sig`` (nothing once it ended and was reaped)."""
        if self.poll() is None:
            os.kill(self._pid, sig)

    def kill(self) -> None:
        """Send it SIGKILL."""
        self.send_signal(signal.SIGKILL)


def can_fork() -> bool:
    """Whether workers can be forked from this process: a POSIX system and no other thread.

    A thread would not exist in the child, and a lock it held would stay held there.
    """
    return hasattr(os, "fork") and threading.active_count() == 1


@dataclass
class WorkerSupervisor:
    """Runs ``count`` workers of ``argv`` (the crawl command, without the worker settings)."""

    argv: Sequence[str]
    count: int
    max_restarts: int = 5
    #: The first worker index it starts: 1 when the ``scrapy crawl`` process is worker 0 itself.
    first: int = 0
    cwd: Path | None = None
    #: The supervisor's own pid (also in a worker forked from it, which watches it).
    pid: int = field(default_factory=os.getpid)
    run_id: str = field(default_factory=lambda: f"{os.getpid()}-{time.time_ns()}")
    procs: dict[int, Worker] = field(default_factory=dict)
    exits: dict[int, int] = field(default_factory=dict)
    restarts: int = 0
    stopping: bool = False

    def worker_settings(self) -> dict[str, str]:
        """The settings every worker of this crawl runs with: the number of workers, decided."""
        return {"HARVEST_CRAWL_WORKERS": str(self.count)}

    def worker_environ(self, index: int, *, started: bool = True) -> dict[str, str]:
        """What makes a process worker ``index`` of this run: its environment (not settings).

        ``started``: by this supervisor (not worker 0 itself), so it watches this process.
        """
        environ = {_WORKER_ENV: str(index), _RUN_ENV: self.run_id}
        if started and self.first:
            environ[_SUPERVISOR_ENV] = str(self.pid)
        return environ

    def command(self, index: int) -> list[str]:
        """Worker ``index``'s command line (its index and run are in its environment)."""
        command = list(self.argv)
        for key, value in self.worker_settings().items():
            command += ["-s", f"{key}={value}"]
        return command

    def start(self, index: int) -> None:
        """Start worker ``index`` (output goes where the supervisor's goes)."""
        # In a session (and process group) of its own: a terminal's Ctrl-C reaches the supervisor
        # only, which passes it on once. In the terminal's group a worker got the key's SIGINT and
        # then the supervisor's, and Scrapy takes a second signal as "force an unclean shutdown".
        environ = {**os.environ, **self.worker_environ(index)}
        self.procs[index] = subprocess.Popen(  # noqa: S603
            self.command(index), cwd=self.cwd, env=environ, start_new_session=True
        )
        self.log_started(index)

    def log_started(self, index: int, how: str = "started anew") -> None:
        """Say that worker ``index`` runs, with its pid (what a user needs to signal it)."""
        logger.info(
            "Started crawl worker %d of %d (pid %d, %s)", index, self.count, self.procs[index].pid, how
        )

    def fork_all(self) -> int | None:
        """Fork workers ``first`` to ``count - 1`` from this process; in a worker, its index.

        Returns None in this process. A forked worker is this process as it is now, with
        Python, Scrapy and the spider already imported: it crawls ~0.5 s sooner than one
        started anew, and that start-up's CPU is not spent again. It must be called before
        anything a child cannot share is made: another thread (see :func:`can_fork`), the
        reactor, the log handlers, an open state. The caller applies :meth:`worker_environ` and
        :meth:`worker_settings` in the child; a worker started again after a crash is started
        anew (:meth:`start`), since by then this process runs its crawl.
        """
        try:
            for index in range(self.first, self.count):
                # Buffered output would be written by both processes.
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    # Its own session, as start() gives (Ctrl-C reaches the supervisor only).
                    os.setsid()
                    self.procs.clear()
                    return index
                self.procs[index] = ForkedWorker(pid)
        except BaseException:
            self.kill_all()
            raise
        return None

    def stop(self, signum: int = signal.SIGTERM) -> None:
        """Ask every running worker to close cleanly (once)."""
        if self.stopping:
            return
        self.stopping = True
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signum)

    def stop_unless_finished(self, finished: bool) -> None:
        """Worker 0 (this process) ended: unless its crawl finished, the others stop too.

        A finished worker 0 means every worker was idle with every spool read (the others end
        on their own); a stopped or failed one leaves them nothing to wait for.
        """
        if not finished:
            self.stop()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        logger.info("Stopping the %d crawl workers (%s)", self.count, signal.Signals(signum).name)
        self.stop(signal.SIGINT if signum == signal.SIGINT else signal.SIGTERM)

    def step(self) -> None:
        """Collect ended workers; start again one that died while the crawl goes on."""
        for index, proc in list(self.procs.items()):
            code = proc.poll()
            if code is None:
                continue
            del self.procs[index]
            if code >= 0 or self.stopping:
                # Only a worker killed by a signal is started again: an error exit (bad config,
                # a failed state) would end the same way again.
                self.exits[index] = code
                if code != 0 and not self.stopping:
                    # Its share is nobody else's: the others, waiting for it to be idle, would
                    # wait for ever. They stop cleanly; the next run resumes the crawl.
                    logger.info(
                        "Crawl worker %d ended with %s; stopping the others (the next run resumes)",
                        index,
                        describe_exit(code),
                    )
                    self.stop()
                continue
            if self.restarts >= self.max_restarts:
                logger.error(
                    "Crawl worker %d ended with %s and %d restarts were used "
                    "(HARVEST_CRAWL_MAX_RESTARTS); stopping the others. Their state is "
                    "committed: the next run resumes them",
                    index,
                    describe_exit(code),
                    self.restarts,
                )
                self.exits[index] = code
                self.stop()
                continue
            self.restarts += 1
            logger.warning(
                "Crawl worker %d ended with %s; starting it again (restart %d of %d): it resumes "
                "from its committed state",
                index,
                describe_exit(code),
                self.restarts,
                self.max_restarts,
            )
            self.start(index)
            if self.stopping:
                # A signal came while it was being started: it stops with the others.
                self.procs[index].send_signal(signal.SIGTERM)

    def _wait(self) -> None:
        """Until a worker ends (at once) or ``POLL`` passes: ``step`` then reaps it.

        ``waitid`` with ``WNOWAIT`` leaves the ended child to its ``Popen`` (which keeps its exit
        code); a poll alone let the crawl's end wait up to ``POLL`` for nothing.
        """
        pids = {proc.pid for proc in self.procs.values()}
        try:
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
        except (ChildProcessError, AttributeError):  # no child; or no waitid on this platform
            ended = None
        if ended is None or ended.si_pid not in pids:
            # Another child of this process (a test's) ended: waitid would return at once again.
            time.sleep(POLL)

    def start_all(self) -> None:
        """Start workers ``first`` to ``count - 1`` (none is left behind if one cannot start)."""
        try:
            for index in range(self.first, self.count):
                self.start(index)
        except BaseException:
            self.kill_all()
            raise

    def kill_all(self) -> None:
        """Kill every running worker (the supervisor itself failed: no orphans)."""
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()

    def run(self) -> int:
        """Start every worker and wait for all of them; the exit code (see the module docstring)."""
        self.start_all()
        return self.wait()

    def wait(self) -> int:
        """Wait for the started workers (starting again one that dies); the exit code.

        Ctrl-C and SIGTERM meanwhile are passed on to the workers, which close cleanly.
        """
        previous = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            while self.procs:
                self.step()
                if self.procs:
                    self._wait()
        except BaseException:
            # A failure of the supervisor itself (no process could be started): no orphans.
            self.kill_all()
            raise
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        failed = {i: c for i, c in self.exits.items() if c != 0}
        if failed:
            # A worker that exits with 1 has said why in its own ERROR line (a full disk, a state
            # it cannot open): the summary repeats no error then; a signal or a crash is news.
            level = logging.INFO if set(failed.values()) == {1} else logging.ERROR
            logger.log(
                level,
                "Crawl workers ended badly: %s",
                ", ".join(f"worker {i}: {describe_exit(c)}" for i, c in sorted(failed.items())),
            )
            return 1
        logger.info("All %d crawl workers finished", self.count)
        return 0


def main(args: Sequence[str] | None = None) -> int:
    """``python -m harvest.crawl.workers --count N [--max-restarts R] -- <worker command>``."""
    parser = argparse.ArgumentParser(
        prog="python -m harvest.crawl.workers", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--count", type=int, required=True, help="worker processes")
    parser.add_argument("--max-restarts", type=int, default=5, help="HARVEST_CRAWL_MAX_RESTARTS")
    parser.add_argument("--log-level", default="INFO", help="LOG_LEVEL")
    parser.add_argument("--log-file", default="", help="LOG_FILE (default: stderr)")
    parser.add_argument("argv", nargs="+", help="the worker command, after --")
    options = parser.parse_args(args)
    # Scrapy's log format, so the supervisor's lines read like the workers' around them.
    logging.basicConfig(
        level=options.log_level.upper(),
        format="%(asctime)s [%(name)s] %(levelname)s: %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        filename=options.log_file or None,
    )
    return WorkerSupervisor(options.argv, options.count, max_restarts=options.max_restarts).run()


def worker_argv(command: str = "crawl", argv: Sequence[str] | None = None) -> list[str]:
    """This ``scrapy <command>`` command line, to run again as a worker (``python -m scrapy ...``).

    Scrapy's ``execute`` pops the command name out of ``sys.argv`` (its ``_pop_command_name``),
    so it is put back in front of the remaining arguments.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None or not args or args[0] != command:
        # sys.argv never holds it any more (even for a spider that happens to be named so).
        args.insert(0, command)
    return [sys.executable, "-m", "scrapy", *args]


if __name__ == "__main__":
    sys.exit(main())
