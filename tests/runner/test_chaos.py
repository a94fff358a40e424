"""Chaos: ``run_all.py --once`` with the three real spiders while spider processes are SIGKILLed.

The demo sites (trending pages, the GitHub API emulator, raw READMEs, a blog) are served on
127.0.0.1. An undisturbed run goes first, into its own folder. Then, with the sites slowed down
so that every spider is still crawling, the test kills a random spider process 20 times, each
at a random moment of its crawl, and once the supervisor itself, which it starts again at once
on the same data folder (as a service manager would) while the killed supervisor's children stop
on their own. The result must equal the undisturbed run: the same items in every output file
(by natural key, timestamps aside), no item twice, every JSON line parseable, every Markdown
file a line names present, every state file sound, nothing left pending.

Marked ``chaos``: it runs in CI with the rest; skip it locally with ``-m "not chaos"``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harvest.demo import DemoSites, write_demo_config
from harvest.identity import item_key
from harvest.runner.status import read_status
from harvest.state.sqlite import SqliteStateStore
from tests import PROJECT_ROOT, random_seed
from tests.runner.conftest import fleet_env

pytestmark = [pytest.mark.chaos, pytest.mark.timeout(420)]

SPIDERS = ("trending", "github_search", "blogs")
CHILD_KILLS = 20
#: Seconds each demo request takes: while the kills land (long enough that every spider is still
#: crawling), and before and after them.
SLOW, FAST = 1.5, 0.02
#: Fields that differ between two runs of the same items (when they were seen).
VOLATILE = ("observed_at", "fetched_at")


def argv(data: Path, config: Path, sites: DemoSites) -> list[str]:
    settings: dict[str, Any] = {
        "HARVEST_CONFIG_DIR": config,
        **sites.settings(),
        "AUTOTHROTTLE_ENABLED": False,
        # One request at a time per process against 127.0.0.1: with the slow sites, each spider
        # crawls for tens of seconds, so every kill finds it mid-crawl.
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        # Frequent commit points, so kills land before, between and inside them.
        "HARVEST_STATE_COMMIT_ITEMS": 5,
        "HARVEST_STATE_COMMIT_SECONDS": 0.5,
        # Every kill is a crash to the supervisor: restart at once, never give up.
        "HARVEST_FLEET_MAX_CRASHES": 1000,
        "HARVEST_FLEET_RESTART_BACKOFF": 0.1,
        "HARVEST_FLEET_RESTART_BACKOFF_MAX": 0.5,
        "HARVEST_FLEET_STATUS_INTERVAL": 0.5,
        "HARVEST_FLEET_POLL_INTERVAL": 0.2,
        "LOG_LEVEL": "INFO",
    }
    cmd = [
        sys.executable,
        "run_all.py",
        "--once",
        "--no-live",
        "--data-dir",
        str(data),
        "--spiders",
        ",".join(SPIDERS),
    ]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd


def start(cmd: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as fh:
        return subprocess.Popen(cmd, cwd=PROJECT_ROOT, stdout=fh, stderr=subprocess.STDOUT, env=fleet_env())


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None if fields[0] == "Z" else fields


def alive(pid: int) -> bool:
    return _stat(pid) is not None


def process_age(pid: int) -> float:
    fields = _stat(pid)
    if fields is None:
        return 0.0
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")


def has_state_open(pid: int) -> bool:
    """Whether the process has its crawl state open: its crawl is under way, past start-up."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").endswith("/state.sqlite"):
                return True
        except OSError:
            continue
    return False


def spider_children(supervisor: int) -> list[int]:
    """Live spider processes of a supervisor (its spawned children, not its resource tracker)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat(int(entry))
        if fields is None or int(fields[1]) != supervisor:
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            found.append(int(entry))
    return found


def outputs(data: Path) -> dict[str, Counter[str]]:
    """``<spider>/<file>`` -> natural keys of its lines (timestamps aside), each checked on the way.

    Documents of trending and github_search are one group, by content hash: a README both meet
    is stored by whichever claims it first, which depends on timing, but only once.
    """
    out: dict[str, Counter[str]] = {}
    for spider in SPIDERS:
        for path in sorted((data / spider).glob("*.jsonl")):
            raw = path.read_bytes()
            assert not raw or raw.endswith(b"\n"), f"{path} ends with a partial line"
            name = f"{spider}/{path.name}"
            if path.name == "document.jsonl" and spider != "blogs":
                name = "readmes"
            keys = out.setdefault(name, Counter())
            for n, line in enumerate(raw.splitlines(), 1):
                try:
                    record = json.loads(line)
                except ValueError as exc:
                    raise AssertionError(f"{path} line {n} is not JSON: {exc}") from None
                if record.get("type") == "document":
                    md = Path(record["path"])
                    assert md.is_file(), f"{path} line {n} names {md}, which does not exist"
                    assert md.read_text(encoding="utf-8").startswith("---\n"), md
                    keys[record["content_hash"]] += 1
                else:
                    keys[item_key({**record, **dict.fromkeys(VOLATILE, "")})] += 1
    return out


def check_state(data: Path) -> None:
    """Every state file reads (SQLite: integrity check), no spider has work pending."""
    files = sorted((data / "state").rglob("*.sqlite"))
    assert {f"{s}/state.sqlite" for s in SPIDERS} | {"_shared/content.sqlite"} <= {
        f"{p.parent.name}/{p.name}" for p in files
    }, files
    for path in files:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], path
        finally:
            conn.close()
    for path in sorted((data / "state").rglob("*.json")):
        json.loads(path.read_text(encoding="utf-8"))
    for spider in SPIDERS:
        store = SqliteStateStore.open(data / "state", spider, readonly=True)
        try:
            assert store.frontier_size() == 0, f"{spider}: requests left pending"
            sizes = {p.name: p.stat().st_size for p in (data / spider).glob("*.jsonl")}
            assert store.output_offsets() == sizes, f"{spider}: committed offsets differ from the files"
        finally:
            store.close()


def set_latency(sites: DemoSites, seconds: float) -> None:
    for server in sites.servers.values():
        server.latency = seconds


def wait_exit(proc: subprocess.Popen[bytes], timeout: float, log: Path) -> int:
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"run_all.py did not finish within {timeout:.0f} s; see {log}") from None


def test_sigkill_chaos_loses_nothing_and_stores_nothing_twice(tmp_path: Path) -> None:
    seed = random_seed()
    rng = random.Random(seed)
    sites = DemoSites(latency=FAST).start()
    # The emulator's search limit (30 a minute) would make every restarted search wait a minute.
    sites.search_window.limit = 100_000
    for server in sites.servers.values():
        # A killed client leaves a broken pipe behind: expected here, not worth a traceback.
        server.httpd.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
    config, clean, chaos = tmp_path / "config", tmp_path / "clean", tmp_path / "chaos"
    write_demo_config(config, sites)
    clean_log, chaos_log = tmp_path / "clean.log", tmp_path / "chaos.log"
    started = time.monotonic()
    procs: list[subprocess.Popen[bytes]] = []
    orphans: list[int] = []  # children of the killed supervisor
    try:
        procs.append(start(argv(clean, config, sites), clean_log))
        clean_code = wait_exit(procs[0], 90, clean_log)
        # Slow sites while the kills land, so that every spider is still crawling when they do.
        set_latency(sites, SLOW)
        fleet = start(argv(chaos, config, sites), chaos_log)
        procs.append(fleet)
        supervisor_kill_at = rng.randrange(6, CHILD_KILLS - 4)
        kills: list[tuple[int, float]] = []  # (pid, seconds it had been crawling)
        supervisor_killed_at: float | None = None
        orphans_stopped_in: float | None = None
        crawling_since: dict[int, float] = {}  # pid -> when its crawl state was first seen open
        target: tuple[int, float] | None = None  # (pid, seconds of crawling before its kill)
        deadline = time.monotonic() + 240
        while len(kills) < CHILD_KILLS and time.monotonic() < deadline and fleet.poll() is None:
            time.sleep(0.05)
            now = time.monotonic()
            if orphans_stopped_in is None and supervisor_killed_at is not None:
                if not any(alive(pid) for pid in orphans):
                    orphans_stopped_in = now - supervisor_killed_at
            children = spider_children(fleet.pid)
            for pid in children:
                if pid not in crawling_since and has_state_open(pid):
                    crawling_since[pid] = now
            crawling = [pid for pid in children if pid in crawling_since]
            if target is None or target[0] not in crawling:
                # A random spider, killed at a random moment of its crawl.
                target = (rng.choice(crawling), rng.uniform(0.2, 3.0)) if crawling else None
                continue
            pid, after = target
            if now - crawling_since[pid] < after:
                continue
            target = None
            if len(kills) == supervisor_kill_at and supervisor_killed_at is None:
                orphans = children
                fleet.send_signal(signal.SIGKILL)
                fleet.wait(10)
                supervisor_killed_at = time.monotonic()
                # Started again at once, as a service manager would, while the old children stop.
                fleet = start(argv(chaos, config, sites), chaos_log)
                procs.append(fleet)
                continue
            os.kill(pid, signal.SIGKILL)
            kills.append((pid, now - crawling_since[pid]))
        set_latency(sites, FAST)
        while orphans_stopped_in is None and supervisor_killed_at is not None:
            if not any(alive(pid) for pid in orphans):
                orphans_stopped_in = time.monotonic() - supervisor_killed_at
            elif time.monotonic() - supervisor_killed_at > 30:
                raise AssertionError(f"{orphans} outlived their killed supervisor by 30 s (seed {seed})")
            time.sleep(0.1)
        chaos_code = wait_exit(fleet, 120, chaos_log)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        for pid in orphans:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        sites.stop()
    elapsed = time.monotonic() - started
    where = f"(seed {seed}, {elapsed:.0f} s, logs in {tmp_path})"

    assert clean_code == 0, f"the undisturbed run failed {where}"
    assert chaos_code == 0, f"the restarted run failed {where}"
    assert len(kills) == CHILD_KILLS, f"only {len(kills)} kills landed before the round ended {where}"
    assert supervisor_killed_at is not None, f"the supervisor was never killed {where}"
    assert orphans_stopped_in is not None and orphans_stopped_in < 30, where
    status = read_status(chaos / "fleet" / "status.json")
    restarts = sum(r["restarts"] for r in status["spiders"])
    assert status["exit_code"] == 0
    # Every spider killed under the restarted supervisor was restarted by it (a kill is a crash).
    killed_under_last_fleet = len(kills) - supervisor_kill_at
    assert killed_under_last_fleet >= 4, where
    assert restarts >= killed_under_last_fleet, (
        f"{restarts} restarts for {killed_under_last_fleet} kills {where}"
    )
    assert not [r for r in status["spiders"] if r["state"] == "failed"], f"{status['spiders']} {where}"
    # Each kill landed at the random moment drawn for it, mid-crawl.
    assert all(age >= 0.2 for _, age in kills), f"{kills} {where}"

    expected, got = outputs(clean), outputs(chaos)
    for run, found in (("undisturbed", expected), ("chaos", got)):
        for name, keys in found.items():
            twice = sorted(k for k, n in keys.items() if n > 1)
            assert not twice, f"{run} {name}: {len(twice)} items stored twice ({twice[:3]}) {where}"
    for name in sorted(expected.keys() | got.keys()):
        missing = set(expected.get(name, ())) - set(got.get(name, ()))
        extra = set(got.get(name, ())) - set(expected.get(name, ()))
        assert not missing and not extra, (
            f"{name}: {len(missing)} items lost ({sorted(missing)[:3]}), {len(extra)} extra "
            f"({sorted(extra)[:3]}) {where}"
        )
    assert sum(len(k) for k in expected.values()) > 300, expected.keys()
    check_state(clean)
    check_state(chaos)
    ages = sorted(age for _, age in kills)
    print(
        f"chaos: {len(kills)} spider kills (after {ages[0]:.1f}-{ages[-1]:.1f} s of crawling), "
        f"{restarts} restarts in the last fleet, orphans stopped {orphans_stopped_in:.1f} s after "
        f"the supervisor's kill {where}"
    )
