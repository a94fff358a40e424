"""The fleet for real: run_all.py subprocesses, spawned spider processes, a loopback site.

Test spiders (tests/runner/spiders_for_tests) keep these fast and deterministic; the same
behaviour with the three real spiders is in test_fleet_real_spiders.py. Tests assert events (the
status file, the supervisor's messages, the logs); a time limit only guards against a hang.
"""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from harvest.runner.status import read_status
from harvest.util.machine import cpu_count
from tests import wait_for
from tests.runner.conftest import FleetDirs, SpiderSite, fleet_argv, run_fleet
from tests.runner.spiders_for_tests.waiting import WAIT_TEXT

pytestmark = pytest.mark.timeout(180)

#: HARVEST_FLEET_HUNG_TIMEOUT of the watchdog tests: above a spawned child's start-up on a busy
#: machine (it sends its first heartbeat once its crawl opens).
HUNG_TIMEOUT = 5


def rows(dirs: FleetDirs) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in read_status(dirs.status)["spiders"]}


def status_or_empty(dirs: FleetDirs) -> dict[str, Any]:
    try:
        return read_status(dirs.status)
    except (FileNotFoundError, ValueError):
        return {}


def assert_consistent(dirs: FleetDirs, spider: str) -> list[str]:
    """Every JSON line parses, no URL twice, and each document's Markdown file exists."""
    items = dirs.items(spider)
    urls = [i["url"] for i in items]
    assert len(urls) == len(set(urls)), f"{spider}: duplicate items {sorted(urls)}"
    for item in items:
        md = Path(item["path"])
        assert md.is_file(), f"{spider}: {md} listed in document.jsonl but missing"
        assert md.read_text(encoding="utf-8").startswith("---\n")
    return urls


def test_once_runs_three_spiders_in_distinct_processes_and_counts_every_item(
    site: SpiderSite, dirs: FleetDirs
):
    result = run_fleet(fleet_argv(dirs, site.url, "--once", "--spiders", "alpha,beta,gamma", TEST_PAGES=15))
    assert result.returncode == 0, result.stdout + result.stderr

    status = read_status(dirs.status)
    assert status["state"] == "finished" and status["exit_code"] == 0
    by_name = {r["name"]: r for r in status["spiders"]}
    written = 0
    pids = {}
    for name in ("alpha", "beta", "gamma"):
        urls = assert_consistent(dirs, name)
        assert sorted(urls) == sorted(f"{site.url}/{name}/{i}" for i in range(15))
        writers = {i["author"] for i in dirs.items(name)}
        assert len(writers) == 1, f"{name} items come from several processes: {writers}"
        pids[name] = int(writers.pop())
        assert by_name[name]["pids"] == [pids[name]]
        assert by_name[name]["state"] == "done"
        assert by_name[name]["items"] == 15
        assert list((dirs.data / "logs" / name).glob("*.log")), f"no log for {name}"
        written += len(urls)
    assert len(set(pids.values())) == 3
    assert status["supervisor_pid"] not in pids.values()
    # The shared counter (children add to it on item_scraped) equals what was written.
    assert status["items_total"] == written == 45
    assert "harvest fleet: summary" in result.stdout
    assert f"{dirs.data / 'alpha'}/  document.jsonl (15 lines)" in result.stdout


def test_sigterm_stops_within_grace_and_the_next_once_completes_without_duplicates(
    site: SpiderSite, dirs: FleetDirs, background
):
    site.delay = 0.3
    pages = 40
    argv = fleet_argv(
        dirs,
        site.url,
        "--once",
        "--spiders",
        "alpha,beta,gamma",
        "--grace",
        "20",
        TEST_PAGES=pages,
        CONCURRENT_REQUESTS_PER_DOMAIN=2,
    )
    fleet = background(argv)
    fleet.wait_until(lambda: status_or_empty(dirs).get("items_total", 0) >= 6, 60, "the first items")
    fleet.signal(signal.SIGTERM)
    code = fleet.wait(120)  # hang guard
    out = fleet.output()
    assert code == 0, out
    # Every child finished its in-flight work and exited on its own: nobody was terminated.
    assert "grace period is over" not in out and "terminating" not in out

    status = read_status(dirs.status)
    assert status["stop_reason"] == "received SIGTERM"
    written = 0
    for name in ("alpha", "beta", "gamma"):
        row = {r["name"]: r for r in status["spiders"]}[name]
        assert row["state"] == "stopped", row
        written += len(assert_consistent(dirs, name))
    assert 6 <= written < 3 * pages, "the stop did not interrupt the round"
    assert status["items_total"] == written

    site.delay = 0
    result = run_fleet(
        fleet_argv(dirs, site.url, "--once", "--spiders", "alpha,beta,gamma", TEST_PAGES=pages)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("alpha", "beta", "gamma"):
        urls = assert_consistent(dirs, name)
        assert sorted(urls) == sorted(f"{site.url}/{name}/{i}" for i in range(pages))


def test_crashing_spider_is_restarted_then_marked_failed_while_the_others_finish(
    site: SpiderSite, dirs: FleetDirs
):
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "alpha,crashy",
            TEST_PAGES=12,
            TEST_CRASH_AFTER=2,
            HARVEST_FLEET_MAX_CRASHES=3,
        )
    )
    assert result.returncode == 1, result.stdout + result.stderr
    by_name = rows(dirs)
    crashy = by_name["crashy"]
    assert crashy["state"] == "failed"
    assert crashy["restarts"] == 2
    assert len(crashy["pids"]) == len(set(crashy["pids"])) == 3
    assert "killed by SIGKILL" in crashy["last_error"] and "3 crashes" in crashy["last_error"]
    assert by_name["alpha"]["state"] == "done" and len(dirs.items("alpha")) == 12
    assert "crashy: failed" in result.stdout
    assert "restart 1" in result.stderr and "restart 2" in result.stderr


def test_helpers_of_a_crashed_spider_do_not_outlive_it(site: SpiderSite, dirs: FleetDirs, tmp_path: Path):
    pids_file = tmp_path / "helpers"
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "leaky",
            TEST_PAGES=1,
            TEST_HELPER_PIDS=pids_file,
            HARVEST_FLEET_MAX_CRASHES=2,
        )
    )
    assert result.returncode == 1, result.stdout + result.stderr
    helpers = [int(p) for p in pids_file.read_text().split()]
    assert len(helpers) == 2  # one per run: the spider was restarted once
    _wait_gone(helpers, "a helper process was left running")


def test_a_child_whose_reactor_is_blocked_is_killed_as_hung_and_restarted(site: SpiderSite, dirs: FleetDirs):
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "hangs",
            TEST_PAGES=5,
            HARVEST_FLEET_HUNG_TIMEOUT=HUNG_TIMEOUT,
            HARVEST_FLEET_MAX_CRASHES=2,
        )
    )
    assert result.returncode == 1, result.stdout + result.stderr
    row = rows(dirs)["hangs"]
    assert row["state"] == "failed"
    assert row["restarts"] == 1 and len(row["pids"]) == 2
    assert "hung: no heartbeat for" in row["last_error"], row
    assert "(its reactor is blocked); killing it" in result.stderr
    assert "hangs hung: no heartbeat for" in result.stderr and "restart 1" in result.stderr


def test_a_child_announcing_a_long_wait_is_not_killed_and_shows_what_it_waits_for(
    site: SpiderSite, dirs: FleetDirs, background
):
    # It waits 3 hung timeouts with nothing in flight, then finishes its crawl normally.
    fleet = background(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "announces",
            TEST_PAGES=2,
            TEST_WAIT_SECONDS=3 * HUNG_TIMEOUT,
            HARVEST_FLEET_HUNG_TIMEOUT=HUNG_TIMEOUT,
        )
    )

    def announced() -> dict[str, Any]:
        spiders = status_or_empty(dirs).get("spiders") or [{}]
        return spiders[0] if WAIT_TEXT in (spiders[0].get("waiting_for") or "") else {}

    fleet.wait_until(lambda: bool(announced()), 60, "the wait in status.json")
    row = announced()
    assert row["state"] == "running" and row["in_flight"] == 0
    [wait] = row["waits"]
    assert wait["key"] == "test" and wait["until"].endswith("Z")
    code = fleet.wait(30 * HUNG_TIMEOUT)  # hang guard
    out = fleet.output()
    assert code == 0, out
    row = rows(dirs)["announces"]
    assert row["state"] == "done" and row["last_reason"] == "finished", row
    assert row["restarts"] == 0 and len(row["pids"]) == 1 and "hung" not in out
    log = "".join(p.read_text() for p in (dirs.data / "logs" / "announces").glob("*.log"))
    assert "The announced wait is over; closing" in log


def test_a_child_idling_with_nothing_in_flight_and_no_wait_is_restarted(site: SpiderSite, dirs: FleetDirs):
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "idles",
            TEST_PAGES=2,
            HARVEST_FLEET_HUNG_TIMEOUT=HUNG_TIMEOUT,
            HARVEST_FLEET_MAX_CRASHES=2,
        )
    )
    assert result.returncode == 1, result.stdout + result.stderr
    row = rows(dirs)["idles"]
    assert row["state"] == "failed" and row["restarts"] == 1 and len(row["pids"]) == 2
    assert "hung: no progress for" in row["last_error"], row
    assert "nothing in flight and no announced wait" in row["last_error"]
    assert "no heartbeat" not in result.stderr  # its reactor kept turning


def test_a_child_killed_mid_crawl_keeps_its_count_and_the_others_counting(site: SpiderSite, dirs: FleetDirs):
    site.delay = 0.05
    pages = 20
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "alpha,beta,crashy",
            "--processes",
            "3",
            TEST_PAGES=pages,
            TEST_CRASH_AFTER=3,
            HARVEST_FLEET_MAX_CRASHES=3,
            CONCURRENT_REQUESTS_PER_DOMAIN=2,
        )
    )
    assert result.returncode == 1, result.stdout + result.stderr
    status = read_status(dirs.status)
    by_name = {r["name"]: r for r in status["spiders"]}
    crashy = by_name["crashy"]
    assert crashy["state"] == "failed" and len(crashy["pids"]) == 3  # SIGKILLed three times
    assert "killed by SIGKILL" in crashy["last_error"]
    for name in ("alpha", "beta"):
        assert by_name[name]["state"] == "done" and by_name[name]["items"] == pages
        assert len(assert_consistent(dirs, name)) == pages
    crashy_lines = len(dirs.items("crashy"))
    assert crashy_lines >= 3  # each of its processes wrote before it died
    # The survivors' items are all counted; the killed processes' counts survive their deaths
    # and restarts (folded into the total). Nothing is counted twice: a kill can only lose the
    # count of an item whose line was written a moment before its item_scraped signal.
    crashy_counted = status["items_total"] - 2 * pages
    assert crashy_lines - len(crashy["pids"]) <= crashy_counted <= crashy_lines
    assert crashy_counted >= 1
    logs = "".join(p.read_text() for p in (dirs.data / "logs").glob("*/*.log"))
    # The lock-based counter's symptom (a sibling died holding its lock) cannot occur.
    assert "locked by a dead process" not in logs + result.stderr
    assert "counter_lock_timeout" not in logs


def test_max_data_size_stops_the_fleet_and_says_why(site: SpiderSite, dirs: FleetDirs):
    site.delay = 0.1
    pages = 300
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--spiders",
            "alpha,beta",
            "--max-data-size",
            "100KB",
            TEST_PAGES=pages,
            HARVEST_FLEET_SIZE_CHECK_INTERVAL=0.3,
        )
    )
    assert result.returncode == 3, result.stdout + result.stderr
    status = read_status(dirs.status)
    assert "past --max-data-size 100.0 KB" in status["stop_reason"]
    assert "past --max-data-size 100.0 KB" in result.stdout
    assert status["data_size_bytes"] > 100 * 1024
    assert all(r["state"] == "stopped" for r in status["spiders"]), status["spiders"]
    assert len(dirs.items("alpha")) + len(dirs.items("beta")) < 2 * pages


def test_processes_far_beyond_this_machine_are_refused(dirs: FleetDirs):
    refused = max(100, cpu_count() * 4 + 1)  # past 4 per CPU on any machine
    result = run_fleet(fleet_argv(dirs, None, "--processes", str(refused)))
    assert result.returncode == 2
    assert f"argument --processes: {refused} processes are far beyond this machine" in result.stderr
    assert "--force" in result.stderr
    assert not dirs.data.exists(), "nothing may start before the flags are checked"


def test_unreachable_host_fails_fast_with_cannot_reach(dirs: FleetDirs):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again below: connections are refused
    result = run_fleet(fleet_argv(dirs, f"http://127.0.0.1:{port}", "--once", "--spiders", "alpha"))
    assert result.returncode == 1, result.stdout + result.stderr
    row = rows(dirs)["alpha"]
    assert row["state"] == "unreachable"
    assert row["last_error"] == f"cannot reach 127.0.0.1:{port} (connection refused)"
    assert row["restarts"] == 0
    assert f"cannot reach 127.0.0.1:{port}" in result.stdout


def test_rounds_repeat_on_the_refresh_interval(site: SpiderSite, dirs: FleetDirs, background):
    dirs.write_config("alpha", "refresh_interval: 1s\n")
    fleet = background(fleet_argv(dirs, site.url, "--spiders", "alpha", TEST_PAGES=3))

    def rounds() -> int:
        rows = status_or_empty(dirs).get("spiders") or [{}]
        return int(rows[0].get("rounds", 0))

    fleet.wait_until(lambda: rounds() >= 2, 90, "a second round")
    fleet.signal(signal.SIGINT)
    assert fleet.wait(30) == 0, fleet.output()
    row = read_status(dirs.status)["spiders"][0]
    assert len(row["pids"]) >= row["rounds"] >= 2  # every round is a fresh process
    assert len(set(row["pids"])) == len(row["pids"])
    # Documents are stored once, however many rounds ran.
    assert sorted(assert_consistent(dirs, "alpha")) == sorted(f"{site.url}/alpha/{i}" for i in range(3))


def test_duration_stops_the_fleet_gracefully(site: SpiderSite, dirs: FleetDirs):
    site.delay = 0.2
    result = run_fleet(fleet_argv(dirs, site.url, "--spiders", "alpha", "--duration", "3s", TEST_PAGES=200))
    assert result.returncode == 0, result.stdout + result.stderr
    status = read_status(dirs.status)
    assert status["stop_reason"] == "--duration 3s reached"
    assert status["spiders"][0]["state"] == "stopped"
    assert len(assert_consistent(dirs, "alpha")) < 200


def test_bad_spider_config_exits_2_naming_file_and_key_before_starting(dirs: FleetDirs):
    dirs.write_config("alpha", "refresh_interval: soon\n")
    result = run_fleet(fleet_argv(dirs, "http://127.0.0.1:9", "--once"))
    assert result.returncode == 2
    assert str(dirs.config / "alpha.yaml") in result.stderr and "refresh_interval" in result.stderr
    assert not (dirs.data / "logs" / "alpha").exists()


def test_grace_period_over_terminates_and_says_which(site: SpiderSite, dirs: FleetDirs, background):
    site.delay = 60  # in-flight requests cannot finish in time
    fleet = background(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "alpha",
            "--grace",
            "2",
            TEST_PAGES=3,
            DOWNLOAD_TIMEOUT=120,
        )
    )
    fleet.wait_until(
        lambda: any(r.get("requests", 0) >= 1 for r in status_or_empty(dirs).get("spiders", [])),
        60,
        "a request in flight",
    )
    fleet.signal(signal.SIGTERM)
    code = fleet.wait(120)  # hang guard
    out = fleet.output()
    row = rows(dirs)["alpha"]
    assert code == 1, out
    assert row["state"] == "terminated"
    assert f"the 2 s grace period is over; terminating: alpha (pid {row['last_pid']})" in out
    assert f"Terminated after the grace period: alpha (pid {row['last_pid']})" in out


def test_second_ctrl_c_terminates_at_once(site: SpiderSite, dirs: FleetDirs, background):
    site.delay = 60
    fleet = background(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "alpha",
            "--grace",
            "100",
            TEST_PAGES=3,
            DOWNLOAD_TIMEOUT=120,
        )
    )
    fleet.wait_until(
        lambda: any(r.get("requests", 0) >= 1 for r in status_or_empty(dirs).get("spiders", [])),
        60,
        "a request in flight",
    )
    fleet.signal(signal.SIGINT)
    fleet.wait_until(
        lambda: status_or_empty(dirs).get("state") == "stopping", 10, "the fleet to start stopping"
    )
    fleet.signal(signal.SIGINT)
    code = fleet.wait(120)  # hang guard: the grace (100 s) is not waited for
    assert code == 1
    assert rows(dirs)["alpha"]["state"] == "terminated"
    out = fleet.output()
    assert "received SIGINT again; terminating: alpha" in out
    assert "grace period is over" not in out


def test_replicas_run_several_processes(site: SpiderSite, dirs: FleetDirs):
    # On the embedded state the replicas are the workers of one crawl (tests/crawl/test_partition.py):
    # they wait for each other, so they must all fit in the fleet's processes.
    argv = fleet_argv(
        dirs, site.url, "--once", "--spiders", "alpha", "--replicas", "alpha=2", "--processes", "1"
    )
    refused = run_fleet(argv)
    assert refused.returncode == 2
    assert "argument --replicas" in refused.stderr and "at most 1 spider processes may" in refused.stderr
    refused = run_fleet(fleet_argv(dirs, site.url, "--once", "--spiders", "alpha", HARVEST_CRAWL_WORKERS=2))
    assert refused.returncode == 2 and "use --replicas SPIDER=N" in refused.stderr
    # Without a crawl state there is nothing to share: the replicas run side by side.
    result = run_fleet(
        fleet_argv(
            dirs,
            site.url,
            "--once",
            "--spiders",
            "alpha",
            "--replicas",
            "alpha=2",
            TEST_PAGES=4,
            HARVEST_STATE_ENABLED=False,
        )
    )
    assert result.returncode == 0, result.stdout + result.stderr
    by_name = rows(dirs)
    assert set(by_name) == {"alpha#0", "alpha#1"}
    assert by_name["alpha#0"]["pids"] != by_name["alpha#1"]["pids"]
    assert all(r["state"] == "done" and r["items"] == 4 for r in by_name.values())


def test_children_stop_on_their_own_when_the_supervisor_is_killed(
    site: SpiderSite, dirs: FleetDirs, background
):
    # Pages from 10 on are held: both spiders are mid-crawl when the supervisor dies.
    site.hold_from = 10
    # Both spiders crawl one loopback site: under the shared per-site pace, one spider's held
    # requests would hold every grant of the site and starve the other (pace is tested elsewhere).
    argv = fleet_argv(
        dirs, site.url, "--once", "--spiders", "alpha,beta", TEST_PAGES=100, HARVEST_PACE_ENABLED=False
    )
    fleet = background(argv)
    try:
        fleet.wait_until(
            lambda: all(r["items"] >= 1 for r in status_or_empty(dirs).get("spiders", [{"items": 0}])),
            60,
            "the first items of each spider",
        )
        children = [r["pid"] for r in read_status(dirs.status)["spiders"]]
        fleet.signal(signal.SIGKILL)
        fleet.wait(10)

        def logs(name: str) -> str:
            return "".join(p.read_text() for p in (dirs.data / "logs" / name).glob("*.log"))

        # Each child notices on its own, while its held requests are still in flight.
        wait_for(
            lambda: all("Stopping: the supervisor" in logs(n) for n in ("alpha", "beta")),
            "both children to notice the supervisor is gone",
        )
    finally:
        site.release()
    _wait_gone(children, "orphaned spider processes still running")
    for name in ("alpha", "beta"):
        assert 1 <= len(assert_consistent(dirs, name)) < 100


def _wait_gone(pids: list[int], what: str, guard: float = 60.0) -> None:
    """Wait until none of ``pids`` runs; ``guard`` seconds only catch a hang."""
    deadline = time.monotonic() + guard
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in pids if _alive(pid)]
        time.sleep(0.1)
    assert not alive, f"{what}: {alive}"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False
