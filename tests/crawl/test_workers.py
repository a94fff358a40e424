"""Unit tests of :mod:`harvest.crawl.workers`: the supervisor of a partitioned crawl's workers.

The workers are tiny ``python -c`` scripts: the supervisor appends ``-s HARVEST_CRAWL_WORKERS=N``
to their command (``python -c`` passes it in ``sys.argv``) and gives each its index and run id in
its environment (``HARVEST_CRAWL_WORKER=k``, ``HARVEST_CRAWL_RUN=<id>``), so each script knows
them. Each records every start as a file in a folder, and does what its mode says (exit 0, exit 3,
kill itself with SIGKILL once or always, or wait).
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harvest.crawl.workers import WorkerSupervisor, describe_exit, worker_argv
from tests import PROJECT_ROOT

#: ``python -c WORKER <folder> <mode>``: the worker whose index is in the mode's name misbehaves.
WORKER = r"""
import os, pathlib, signal, sys, time
folder, mode = pathlib.Path(sys.argv[1]), sys.argv[2]
index = os.environ["HARVEST_CRAWL_WORKER"]
given = [*sys.argv[3:], f"worker={index}", f"run={os.environ['HARVEST_CRAWL_RUN']}"]
(folder / f"start-{index}-{os.getpid()}").write_text(" ".join(given))
mine = mode.endswith("-" + index)
if mine and mode.startswith("kill-once") and not (folder / f"killed-{index}").exists():
    (folder / f"killed-{index}").write_text("")
    os.kill(os.getpid(), signal.SIGKILL)
if mine and mode.startswith("kill-always"):
    os.kill(os.getpid(), signal.SIGKILL)
if mine and mode.startswith("exit3"):
    sys.exit(3)
if mode.startswith("kill-always") and not mine:
    time.sleep(120)  # until the supervisor stops it (SIGTERM's default action ends it)
    sys.exit(5)
"""

#: Longest a test waits for a supervisor subprocess: a guard against a hang only.
GUARD = 180


def _argv(folder: Path, mode: str) -> list[str]:
    return [sys.executable, "-c", WORKER, str(folder), mode]


def _starts(folder: Path, index: int) -> list[str]:
    """The settings each start of worker ``index`` was given, one string per start."""
    return [p.read_text() for p in sorted(folder.glob(f"start-{index}-*"))]


# --- describe_exit -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (0, "exit code 0"),
        (3, "exit code 3"),
        (-signal.SIGKILL, "signal SIGKILL"),
        (-signal.SIGTERM, "signal SIGTERM"),
        (-signal.SIGSEGV, "signal SIGSEGV"),
        (-200, "signal 200"),
    ],
)
def test_describe_exit(code: int, text: str) -> None:
    assert describe_exit(code) == text


# --- WorkerSupervisor --------------------------------------------------------------------------


def test_command_appends_the_worker_count_and_the_environment_names_the_worker() -> None:
    sup = WorkerSupervisor(["scrapy", "crawl", "blogs"], 3, run_id="run-7")
    assert sup.command(2) == ["scrapy", "crawl", "blogs", "-s", "HARVEST_CRAWL_WORKERS=3"]
    assert sup.worker_environ(2) == {"HARVEST_CRAWL_WORKER": "2", "HARVEST_CRAWL_RUN": "run-7"}
    watched = WorkerSupervisor(["scrapy"], 3, run_id="run-7", first=1, pid=4242)
    assert watched.worker_environ(2)["HARVEST_CRAWL_SUPERVISOR"] == "4242"
    assert "HARVEST_CRAWL_SUPERVISOR" not in watched.worker_environ(0, started=False)


def test_each_supervisor_has_its_own_run_id() -> None:
    first, second = WorkerSupervisor(["x"], 2), WorkerSupervisor(["x"], 2)
    assert first.run_id and second.run_id
    assert first.run_id != second.run_id


def test_workers_that_exit_0_make_a_run_of_0(tmp_path: Path) -> None:
    sup = WorkerSupervisor(_argv(tmp_path, "ok"), 2, run_id="r1")
    assert sup.run() == 0
    assert sup.exits == {0: 0, 1: 0}
    assert sup.restarts == 0
    assert sup.procs == {}
    for index in range(2):
        (start,) = _starts(tmp_path, index)
        assert start == f"-s HARVEST_CRAWL_WORKERS=2 worker={index} run=r1"


def test_a_worker_killed_by_a_signal_is_started_again(tmp_path: Path) -> None:
    sup = WorkerSupervisor(_argv(tmp_path, "kill-once-1"), 2, max_restarts=3, run_id="r1")
    assert sup.run() == 0
    assert (tmp_path / "killed-1").exists()
    assert sup.restarts == 1
    assert sup.exits == {0: 0, 1: 0}
    assert len(_starts(tmp_path, 0)) == 1
    starts = _starts(tmp_path, 1)
    assert len(starts) == 2
    # The same index and the same run: it resumes its own share of this run.
    assert set(starts) == {"-s HARVEST_CRAWL_WORKERS=2 worker=1 run=r1"}


def test_a_worker_exiting_with_an_error_is_not_started_again(tmp_path: Path) -> None:
    sup = WorkerSupervisor(_argv(tmp_path, "exit3-1"), 2, max_restarts=3)
    assert sup.run() == 1
    # Worker 0 finished, or was stopped by the supervisor when worker 1 failed first.
    assert sup.exits[1] == 3 and sup.exits[0] in {0, -signal.SIGTERM}, sup.exits
    assert sup.restarts == 0
    assert len(_starts(tmp_path, 1)) == 1


def test_after_max_restarts_the_others_are_stopped(tmp_path: Path) -> None:
    sup = WorkerSupervisor(_argv(tmp_path, "kill-always-1"), 2, max_restarts=2)
    assert sup.run() == 1
    assert sup.restarts == 2
    assert len(_starts(tmp_path, 1)) == 3  # the first start and 2 restarts
    assert len(_starts(tmp_path, 0)) == 1
    assert sup.exits == {0: -signal.SIGTERM, 1: -signal.SIGKILL}
    assert sup.stopping
    assert sup.procs == {}


def test_no_restart_at_all_with_max_restarts_0(tmp_path: Path) -> None:
    sup = WorkerSupervisor(_argv(tmp_path, "kill-always-0"), 2, max_restarts=0)
    assert sup.run() == 1
    assert sup.restarts == 0
    assert len(_starts(tmp_path, 0)) == 1
    assert sup.exits == {0: -signal.SIGKILL, 1: -signal.SIGTERM}


def test_run_puts_back_the_signal_handlers(tmp_path: Path) -> None:
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    assert WorkerSupervisor(_argv(tmp_path, "ok"), 1).run() == 0
    assert {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)} == before


# --- worker_argv -------------------------------------------------------------------------------


def test_worker_argv_puts_the_command_name_back() -> None:
    argv = worker_argv(argv=["blogs", "-s", "HARVEST_CRAWL_WORKERS=2"])
    assert argv == [sys.executable, "-m", "scrapy", "crawl", "blogs", "-s", "HARVEST_CRAWL_WORKERS=2"]


def test_worker_argv_does_not_duplicate_the_command_name() -> None:
    argv = worker_argv(argv=["crawl", "blogs", "-a", "site=octo"])
    assert argv == [sys.executable, "-m", "scrapy", "crawl", "blogs", "-a", "site=octo"]


def test_worker_argv_of_another_command() -> None:
    assert worker_argv("runspider", ["x.py"]) == [sys.executable, "-m", "scrapy", "runspider", "x.py"]


def test_worker_argv_reads_sys_argv_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # What sys.argv holds once Scrapy's execute() has popped the command name.
    monkeypatch.setattr(sys, "argv", ["/usr/bin/scrapy", "blogs", "-s", "LOG_LEVEL=INFO"])
    assert worker_argv() == [sys.executable, "-m", "scrapy", "crawl", "blogs", "-s", "LOG_LEVEL=INFO"]


# --- main(): python -m harvest.crawl.workers --------------------------------------------------


def _supervise(folder: Path, mode: str, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "harvest.crawl.workers", "--count", "2", *options, "--"]
    return subprocess.run(
        [*command, *_argv(folder, mode)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=GUARD,
        check=False,
    )


def test_main_exits_0_when_both_workers_exit_0(tmp_path: Path) -> None:
    result = _supervise(tmp_path, "ok")
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(_starts(tmp_path, 0)) == len(_starts(tmp_path, 1)) == 1
    assert "All 2 crawl workers finished" in result.stderr
    assert "Started crawl worker 1 of 2" in result.stderr


def test_main_exits_1_when_a_worker_fails(tmp_path: Path) -> None:
    result = _supervise(tmp_path, "exit3-0")
    assert result.returncode == 1, result.stderr[-3000:]
    assert "worker 0: exit code 3" in result.stderr


def test_main_passes_max_restarts_on(tmp_path: Path) -> None:
    result = _supervise(tmp_path, "kill-always-1", "--max-restarts", "1")
    assert result.returncode == 1, result.stderr[-3000:]
    assert len(_starts(tmp_path, 1)) == 2
    assert "worker 1: signal SIGKILL" in result.stderr


def test_main_writes_its_log_to_the_log_file(tmp_path: Path) -> None:
    log = tmp_path / "supervisor.log"
    result = _supervise(tmp_path, "ok", "--log-file", str(log))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "All 2 crawl workers finished" in log.read_text(encoding="utf-8")
    assert "All 2 crawl workers finished" not in result.stderr


def test_the_module_does_not_import_scrapy() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import harvest.crawl.workers, sys; print('scrapy' in sys.modules)"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=GUARD,
        check=True,
    )
    assert result.stdout.strip() == "False"


def test_the_running_supervisor_does_not_import_scrapy_nor_twisted(tmp_path: Path) -> None:
    script = (
        "import runpy, sys\n"
        "sys.argv = ['workers', '--count', '2', '--', *sys.argv[1:]]\n"
        "try:\n"
        "    runpy.run_module('harvest.crawl.workers', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code)\n"
        "print('scrapy' in sys.modules, 'twisted' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, *_argv(tmp_path, "ok")],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=GUARD,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split("\n")[-3:] == ["exit 0", "False False", ""]
    assert len(_starts(tmp_path, 0)) == len(_starts(tmp_path, 1)) == 1
