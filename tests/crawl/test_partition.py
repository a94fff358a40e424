"""``scrapy crawl blogs -s HARVEST_CRAWL_WORKERS=2``: one crawl in two processes, end to end.

Against the real Octopress blog of shared/fixtures on a loopback server, with extraction off (so
every HTML page is written as fetched, to ``page.w<k>.jsonl``): each page fetched once and
written once across the two workers, the work split between them; and a ``kill -9`` of one
worker mid-crawl, which the supervisor starts again, loses nothing and duplicates nothing.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from scrapy import Request

from harvest.report.export import committed_offsets
from harvest.report.health import parse_stats_dump
from harvest.state.partition import Partition
from tests import PROJECT_ROOT, get_crawler, read_committed_jsonl, read_jsonl, wait_for
from tests.servers import OCTO_POST, LoopbackServer, hold_posts_after, octo_crawl_command, octo_post_urls

#: Read once by each worker process, as by any process (robots.txt also by the spider itself).
_PER_PROCESS = {"/robots.txt", "/.well-known/tdmrep.json"}
_WORKER_PID = re.compile(r"Started crawl worker (\d+) of 2 \(pid (\d+), (?:forked|started anew)\)")


def _command(tmp_path: Path, base_url: str) -> list[str]:
    return octo_crawl_command(tmp_path, base_url, HARVEST_CRAWL_WORKERS=2)


def _pages(tmp_path: Path) -> dict[int, list[str]]:
    folder = tmp_path / "data" / "blogs"
    return {k: [p["url"] for p in read_jsonl(folder / Partition(k, 2).output_file("page"))] for k in range(2)}


#: The seen sets with (almost) nothing in memory: one recent key, a Bloom filter of 10 bits (it
#: says "maybe" to nearly every key), a queue of 5 requests (the rest spilled): every answer
#: comes from the scratch tables on disk, and the filter's false positives are looked up.
_SEEN_ON_DISK = {
    "HARVEST_DEDUP_RECENT_KEYS": 1,
    "HARVEST_DEDUP_BLOOM_KEYS": 1,
    "HARVEST_FRONTIER_MEMORY_MAX": 5,
}


@pytest.mark.parametrize("seen", [{}, _SEEN_ON_DISK], ids=["default", "seen-sets-on-disk"])
def test_two_workers_fetch_each_page_once_and_write_once(
    octopress: LoopbackServer, tmp_path: Path, seen: dict[str, int]
) -> None:
    result = subprocess.run(
        octo_crawl_command(tmp_path, octopress.base_url, HARVEST_CRAWL_WORKERS=2, **seen),
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr.count("'finish_reason': 'finished'") == 2, result.stderr[-3000:]
    assert "All 2 crawl workers finished" in result.stderr
    # Forked from worker 0 once the config was checked: Scrapy and the spider already imported.
    assert re.search(r"Started crawl worker 1 of 2 \(pid \d+, forked\)", result.stderr)
    pages = _pages(tmp_path)
    assert pages[0] and pages[1], "both workers must have crawled a share"
    fingerprint = get_crawler().request_fingerprinter.fingerprint
    for k, urls in pages.items():
        owners = {Partition(k, 2).owner(fingerprint(Request(u))) for u in urls}
        assert owners == {k}, f"worker {k} wrote pages of another worker's partition"
    written = pages[0] + pages[1]
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)
    fetched = Counter(r.path for r in octopress.requests)
    # Each worker process reads robots.txt (Scrapy's RobotsTxtMiddleware) and the TDM policy
    # once, as any process does; every page is fetched once in total.
    twice = {path: n for path, n in fetched.items() if n > 1 and path not in _PER_PROCESS}
    assert twice == {}, f"fetched more than once: {twice}"
    assert fetched["/robots.txt"] <= 3  # two workers' middleware, and the owner's sitemap lookup
    assert fetched["/.well-known/tdmrep.json"] <= 2
    assert {urlsplit(u).path for u in written} <= set(fetched)
    # Every request handed over was read by its owner once: scheduled, or skipped unread as one
    # the owner had already found itself.
    stats = _all_stats(result.stderr)
    sent = sum(st.get("harvest/handoff/sent", 0) for st in stats)
    read = sum(st.get("harvest/handoff/received", 0) + st.get("harvest/handoff/known", 0) for st in stats)
    assert sent > 0 and read == sent, stats
    if seen:
        # Answered from disk, false positives included, and still each page once (above).
        assert all(st.get("harvest/seen/disk_lookups", 0) > 0 for st in stats), stats
        assert sum(st.get("harvest/seen/disk_misses", 0) for st in stats) > 0, stats
        assert sum(st.get("harvest/frontier/spilled", 0) for st in stats) > 0, stats
    # Exports read the committed offsets of every worker's files (each in its worker's state).
    folder = tmp_path / "data" / "blogs"
    offsets = committed_offsets(tmp_path / "data", "blogs")
    assert offsets is not None
    for k in range(2):
        name = Partition(k, 2).output_file("page")
        assert offsets[name] == (folder / name).stat().st_size


def _all_stats(log: str) -> list[dict[str, Any]]:
    """Every worker's stats dump in ``log`` (each read by ``scrapy report``'s parser)."""
    marker = "Dumping Scrapy stats:"
    return [parse_stats_dump(marker + block) or {} for block in log.split(marker)[1:]]


def _on_cores(count: int, cmd: list[str]) -> list[str]:
    """``cmd`` run on ``count`` of this machine's cores (``taskset``); skips when it has fewer."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < count:
        pytest.skip(f"needs {count} usable cores, this machine gives {len(cores)}")
    return ["taskset", "-c", ",".join(map(str, cores[:count])), *cmd]


def test_the_default_crawls_as_one_worker_per_core(octopress: LoopbackServer, tmp_path: Path) -> None:
    """``scrapy crawl blogs`` with extraction off and nothing else said: both cores."""
    command = octo_crawl_command(tmp_path, octopress.base_url)
    assert not any(arg.startswith("HARVEST_CRAWL_WORKERS") for arg in command)
    result = subprocess.run(
        _on_cores(2, command), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Crawling blogs as 2 worker processes, one per core" in result.stderr
    assert "All 2 crawl workers finished" in result.stderr
    pages = _pages(tmp_path)
    assert pages[0] and pages[1], "both workers must have crawled a share"
    written = pages[0] + pages[1]
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)
    assert json.loads((tmp_path / "data" / "state" / "blogs.workers.json").read_text()) == {"workers": 2}
    # The next run on more cores keeps the folder's number (its seen sets are split in two).
    again = subprocess.run(
        _on_cores(1, command), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr[-3000:]
    assert "blogs keeps 2 crawl worker(s)" in again.stderr and "1 chosen from the machine" in again.stderr
    assert "All 2 crawl workers finished" in again.stderr
    assert _pages(tmp_path) == pages, "nothing new to write: every page was seen"


def test_the_default_on_one_core_crawls_in_one_process(octopress: LoopbackServer, tmp_path: Path) -> None:
    result = subprocess.run(
        _on_cores(1, octo_crawl_command(tmp_path, octopress.base_url)),
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Started crawl worker" not in result.stderr and "Crawling blogs as" not in result.stderr
    folder = tmp_path / "data" / "blogs"
    assert sorted(p.name for p in folder.glob("page*.jsonl")) == ["page.jsonl"]
    assert not (tmp_path / "data" / "state" / "blogs.workers.json").exists()


def test_the_default_with_the_extraction_pool_crawls_in_one_process(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    """The pool's workers already use the cores: one crawl process feeds them."""
    command = octo_crawl_command(tmp_path, octopress.base_url, HARVEST_BLOGS_EXTRACTION="pool")
    result = subprocess.run(
        _on_cores(2, command), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Started crawl worker" not in result.stderr and "Crawling blogs as" not in result.stderr
    assert result.stderr.count("'finish_reason': 'finished'") == 1
    assert not (tmp_path / "data" / "state" / "blogs.workers.json").exists()


def test_feed_exports_keep_the_default_crawl_in_one_process(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    """``-O file``: Scrapy's feed export is one process's file, so the default crawls in one."""
    feed = tmp_path / "pages.jsonl"
    command = [*octo_crawl_command(tmp_path, octopress.base_url), "-O", str(feed)]
    result = subprocess.run(
        _on_cores(2, command), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Crawling blogs in one process, not 2 workers: feed exports" in result.stderr
    assert "Started crawl worker" not in result.stderr
    exported = [p["url"] for p in read_jsonl(feed)]
    assert len(exported) == len(set(exported)), "a page was exported twice"
    assert octo_post_urls(octopress.base_url) <= set(exported)


def test_feed_exports_with_workers_asked_for_are_refused_before_anything_is_written(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    feed = tmp_path / "pages.jsonl"
    command = [*_command(tmp_path, octopress.base_url), "-o", str(feed)]
    result = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr[-3000:]
    assert "feed exports (-o, -O, FEEDS) are one process's files" in result.stderr
    assert "HARVEST_CRAWL_WORKERS=2" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "data").exists() and not feed.exists()
    assert octopress.requests == []


def test_a_config_error_is_said_once_before_any_worker_exists(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    command = _command(tmp_path, octopress.base_url)
    config = tmp_path / "config" / "blogs.yaml"
    config.write_text(
        yaml.safe_dump(
            {"sites": [{"name": "octo", "start_urls": [octopress.base_url + "/"], "concurency": 2}]}
        ),
        encoding="utf-8",
    )
    result = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr[-3000:]
    assert result.stderr.count("concurency") == 1, result.stderr[-3000:]
    assert str(config) in result.stderr
    assert "Started crawl worker" not in result.stderr
    assert not (tmp_path / "data").exists(), "nothing is written before the config is checked"
    assert octopress.requests == []


def test_a_folder_crawled_by_one_process_keeps_one_and_says_so(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    first = subprocess.run(
        octo_crawl_command(tmp_path, octopress.base_url, CLOSESPIDER_PAGECOUNT=5, HARVEST_CRAWL_WORKERS=1),
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert first.returncode == 0, first.stderr[-3000:]
    # Said before Scrapy's log handlers exist (the number is settled before any worker starts),
    # and still in the crawl's log.
    result = subprocess.run(
        _command(tmp_path, octopress.base_url), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "blogs keeps 1 crawl worker(s)" in result.stderr
    assert "(HARVEST_CRAWL_WORKERS=2;" in result.stderr
    assert "Started crawl worker" not in result.stderr
    assert result.stderr.count("'finish_reason': 'finished'") == 1
    folder = tmp_path / "data" / "blogs"
    assert sorted(p.name for p in folder.glob("page*.jsonl")) == ["page.jsonl"]
    written = [p["url"] for p in read_jsonl(folder / "page.jsonl")]
    assert len(written) == len(set(written))
    assert octo_post_urls(octopress.base_url) <= set(written)


_HOST = """
import os, sys
from scrapy.cmdline import execute

sys.argv = ["host", *sys.argv[1:]]
print("host is", os.getpid(), flush=True)
try:
    execute()
finally:
    print("host clean-up in", os.getpid(), flush=True)
"""


def test_a_host_running_the_command_cleans_up_once(octopress: LoopbackServer, tmp_path: Path) -> None:
    """scrapyd's runner calls Scrapy's ``execute()`` inside its own ``try``/``finally`` (it removes
    a temporary egg there). The forked worker is a copy of that process: it must end without
    running the host's clean-up, which is worker 0's, once."""
    command = _command(tmp_path, octopress.base_url)
    args = command[command.index("crawl") :]
    result = subprocess.run(
        [sys.executable, "-c", _HOST, *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.stderr.count("'finish_reason': 'finished'") == 2, result.stderr[-3000:]
    assert re.search(r"Started crawl worker 1 of 2 \(pid \d+, forked\)", result.stderr)
    host = re.findall(r"host is (\d+)", result.stdout)
    assert len(host) == 1
    assert re.findall(r"host clean-up in (\d+)", result.stdout) == host
    assert result.returncode == 0, result.stderr[-3000:]
    written = _pages(tmp_path)[0] + _pages(tmp_path)[1]
    assert len(written) == len(set(written))
    assert octo_post_urls(octopress.base_url) <= set(written)


def test_a_worker_killed_mid_crawl_is_restarted_and_nothing_is_lost_or_written_twice(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    log = tmp_path / "supervisor.log"
    w1 = tmp_path / "data" / "blogs" / Partition(1, 2).output_file("page")
    with log.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            _command(tmp_path, octopress.base_url), cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=err
        )
        try:
            # The kill must land mid-crawl however fast this machine is: after 40 posts the server
            # holds every further post until the kill (an event, not a delay).
            with hold_posts_after(octopress, 40):
                wait_for(
                    lambda: len(read_committed_jsonl(w1)) >= 5 or proc.poll() is not None,
                    "worker 1 has written 5 pages",
                    guard=120,
                )
                assert proc.poll() is None, "the crawl ended before the kill"
                pids = dict(_WORKER_PID.findall(log.read_text(encoding="utf-8")))
                os.kill(int(pids["1"]), signal.SIGKILL)
                wait_for(
                    lambda: "Crawl worker 1 ended with signal SIGKILL" in log.read_text(encoding="utf-8"),
                    "the supervisor saw the kill",
                    guard=60,
                )
            assert proc.wait(timeout=300) == 0, log.read_text(encoding="utf-8")[-3000:]
        finally:
            if proc.poll() is None:
                proc.kill()
    text = log.read_text(encoding="utf-8")
    assert "starting it again (restart 1 of 5)" in text
    # Worker 0 runs its crawl by then: the dead worker is started anew, not forked.
    assert re.search(r"Started crawl worker 1 of 2 \(pid \d+, started anew\)", text)
    assert text.count("'finish_reason': 'finished'") == 2, text[-3000:]
    pages = _pages(tmp_path)
    written = pages[0] + pages[1]
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)
    posts = [u for u in written if OCTO_POST.search(urlsplit(u).path)]
    assert len(posts) == len(octo_post_urls(octopress.base_url)) == 109


def _interrupted_then_resumed(
    octopress: LoopbackServer, tmp_path: Path, signum: int, *, group: bool = False
) -> tuple[str, str]:
    """Send ``signum`` to the ``scrapy crawl`` process (worker 0) mid-crawl, then run again.

    ``group``: to its whole process group, as a terminal's Ctrl-C does.
    """
    log = tmp_path / "first.log"
    w0 = tmp_path / "data" / "blogs" / Partition(0, 2).output_file("page")
    with log.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            _command(tmp_path, octopress.base_url),
            cwd=PROJECT_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,  # as a shell's job: the test is not in its group
        )
        try:
            with hold_posts_after(octopress, 40):
                wait_for(
                    lambda: len(read_committed_jsonl(w0)) >= 5 or proc.poll() is not None,
                    "worker 0 has written 5 pages",
                    guard=120,
                )
                assert proc.poll() is None, "the crawl ended before the signal"
                pids = dict(_WORKER_PID.findall(log.read_text(encoding="utf-8")))
                worker1 = int(pids["1"])
                if group:
                    os.killpg(proc.pid, signum)
                else:
                    proc.send_signal(signum)
            # The held posts are answered now (a clean close waits for its downloads). Worker 1
            # closes too: told by worker 0, or on its own once worker 0 is gone.
            wait_for(lambda: _gone(worker1), "worker 1 has exited", guard=120)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    first = log.read_text(encoding="utf-8")
    again = subprocess.run(
        _command(tmp_path, octopress.base_url), cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr[-3000:]
    pages = _pages(tmp_path)
    written = pages[0] + pages[1]
    assert len(written) == len(set(written)), "a page was written twice"
    posts = [u for u in written if OCTO_POST.search(urlsplit(u).path)]
    assert len(posts) == len(octo_post_urls(octopress.base_url)) == 109
    return first, again.stderr


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"


def test_a_kill_of_worker_0_closes_the_others_cleanly_and_the_next_run_resumes(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    """Worker 0 is the ``scrapy crawl`` process itself: nothing restarts it when it is killed."""
    first, _ = _interrupted_then_resumed(octopress, tmp_path, signal.SIGKILL)
    assert "worker 0 (pid" in first and "is gone; closing" in first
    assert "'finish_reason': 'crawl_worker_lost'" in first


def test_sigterm_to_the_crawl_stops_every_worker_cleanly(octopress: LoopbackServer, tmp_path: Path) -> None:
    """``kill <pid>`` (scrapyd's cancel, a service manager) reaches worker 0 only: it stops the rest."""
    first, _ = _interrupted_then_resumed(octopress, tmp_path, signal.SIGTERM)
    assert first.count("'finish_reason': 'shutdown'") == 2, first[-3000:]


def test_ctrl_c_at_a_terminal_stops_every_worker_cleanly(octopress: LoopbackServer, tmp_path: Path) -> None:
    """SIGINT to the crawl's process group: worker 0 gets it and passes it on once; a worker that
    got it twice would force an unclean shutdown and the crawl would end badly."""
    first, _ = _interrupted_then_resumed(octopress, tmp_path, signal.SIGINT, group=True)
    assert first.count("'finish_reason': 'shutdown'") == 2, first[-3000:]
    assert "unclean shutdown" not in first
    assert "ended badly" not in first


def test_a_worker_that_fails_stops_the_crawl_instead_of_leaving_it_waiting(
    octopress: LoopbackServer, tmp_path: Path
) -> None:
    """Worker 1 cannot open its state (a file where its folder goes) and exits with 1: its share
    is nobody else's, so worker 0, waiting for it to be idle, waited for ever. Now the others stop
    cleanly, the crawl exits with 1, and once the cause is gone the next run finishes."""
    command = _command(tmp_path, octopress.base_url)
    blocker = tmp_path / "data" / "state" / "blogs.w1"
    blocker.parent.mkdir(parents=True)
    blocker.write_text("not a folder\n")
    # A crawl of this blog takes seconds: the timeout only catches the hang.
    first = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 1, first.stderr[-3000:]
    assert "Crawl worker 1 ended with exit code 1; stopping the others" in first.stderr
    assert "'finish_reason': 'crawl_worker_failed'" in first.stderr, first.stderr[-3000:]

    blocker.unlink()
    second = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-3000:]
    written = [url for urls in _pages(tmp_path).values() for url in urls]
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)


@pytest.mark.parametrize("replicas", ["--replicas", "default"])
def test_the_fleet_runs_replicas_on_the_embedded_state_as_the_workers_of_one_crawl(
    octopress: LoopbackServer, tmp_path: Path, replicas: str
) -> None:
    """``python run_all.py --replicas blogs=2``: the same split, supervised by the fleet; and
    ``python run_all.py --spiders blogs`` on two cores, which gives both to the one spider."""
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    site = {"name": "octo", "start_urls": [octopress.base_url + "/"]}
    (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    data = tmp_path / "data"
    argv = [sys.executable, "run_all.py", "--once", "--spiders", "blogs", "--data-dir", str(data)]
    argv = argv + ["--replicas", "blogs=2"] if replicas == "--replicas" else _on_cores(2, argv)
    for key, value in {
        "HARVEST_CONFIG_DIR": config_dir,
        "HARVEST_BLOGS_EXTRACTION": "off",
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
    }.items():
        argv += ["-s", f"{key}={value}"]
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    result = subprocess.run(argv, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    chosen = "Crawling blogs as 2 worker processes on the cores the fleet leaves free"
    assert (chosen in result.stderr) is (replicas == "default"), result.stderr[-2000:]
    status = json.loads((data / "fleet" / "status.json").read_text(encoding="utf-8"))
    rows = {row["name"]: row for row in status["spiders"]}
    assert set(rows) == {"blogs#0", "blogs#1"} and rows["blogs#0"]["pids"] != rows["blogs#1"]["pids"]
    pages = _pages(tmp_path)
    assert pages[0] and pages[1], "both workers must have crawled a share"
    written = pages[0] + pages[1]
    assert len(written) == len(set(written)), "a page was written twice"
    assert octo_post_urls(octopress.base_url) <= set(written)
    assert sum(row["items"] for row in rows.values()) == len(written) == status["items_total"]
    fetched = Counter(r.path for r in octopress.requests)
    twice = {path: n for path, n in fetched.items() if n > 1 and path not in _PER_PROCESS}
    assert twice == {}, f"fetched more than once: {twice}"
