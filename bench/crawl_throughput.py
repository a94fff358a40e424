"""Crawl throughput of `scrapy crawl blogs` against its peers, on a generated site served by nginx.

For each site size (default 2,000 and 50,000 pages; every page links to ten others, see
bench/gen_site.py), one after another against the same nginx (Debian's nginx-light, bound to
127.0.0.1, config in a temp folder, a buffered access log that counts the fetches per URL):

- ``scrapy-bare``: a bare Scrapy CrawlSpider that stores nothing (the framework's ceiling);
- ``handwritten``: ../shared/baselines/handwritten_collector.py (the approach harvest replaces;
  writes every page's raw HTML to a file);
- ``crawlee``: Crawlee's ParselCrawler with in-memory storage (the fastest peer measured here);
- ``harvest-off``: ``scrapy crawl blogs`` with extraction off in its default configuration:
  every page written once (raw HTML), dedup state, persisted frontier, exactly-once across
  kill -9, as one crawl in one worker process per core (``HARVEST_CRAWL_WORKERS=0`` chooses
  from the machine: the URL space split between them, links handed over);
- ``harvest-off-w1``: the same in one process (``-s HARVEST_CRAWL_WORKERS=1``);
- ``harvest-off-w2``: the same in two worker processes, whatever the machine;
- ``harvest-off-x2``: the same with two processes sharing one crawl in Redis (a redis-server
  started here), what ``run_all.py --replicas blogs=2`` runs;
- ``harvest-inline``: extraction (trafilatura) inline in the spider callback;
- ``harvest-pool``: extraction in the worker-process pool (the default).

Printed per run: pages fetched, output lines (harvest: with the number of distinct URLs),
server-side fetches (and the most fetches of one URL), pages/s (process wall clock, start-up
included, to 10 ms), CPU ms per page (the process tree: crawler plus extraction workers), peak
RSS (sum over the process tree, sampled every 0.1 s), ratio to bare Scrapy; then harvest-off
against the hand-written collector and Crawlee with the issue-9 targets (>= 1.1x, >= 1.0x pages/s, peak RSS
below Crawlee's), and the issue-18 targets: harvest in its default configuration (harvest-off)
>= 1.3x both peers in pages/s; one worker's peak RSS (harvest-off-w1) below Crawlee's, the
default workers' at most 2x Crawlee's; with extraction on (harvest-pool), pages/s >= 0.9 x the two-core
limit (cores / the run's CPU seconds per page). Every contender gets the same concurrency (16
requests, 16 per host) and no throttling. ``--repeat N`` runs the contenders N times in a row
(the targets must hold in each); the end prints each issue-18 ratio per size and run, held or
missed. ``--sizes`` is ``--pages``.

Memory (issue 36): peak RSS of the process tree and of its largest process (a worker), and the
tree's RSS when 10%, 50% and 100% of the site's pages were fetched (nginx's access log, read as
it grows); with harvest-off at several sizes, the end compares its largest size with its
smallest: peak RSS (tree and worker) <= 1.25x, pages/s >= 0.9x, CPU per page within 10%. Each
contender has ``--limit`` seconds per size (default: the larger of 600 and pages / 5); one that
does not finish in it is stopped and said so, its figures left out of the comparisons
(``--limit-for NAME=SECONDS`` sets one contender's).

Sites are generated once under ``--sites`` and kept: ~17 KB of disk a page, so the
1,000,000-page site is ~17 GB (its generation takes a while). A size whose site is not there yet
and does not fit in the free disk space is skipped, and said so.

``--quick``: the regression guard, 2,000 pages, bare Scrapy and harvest-off-w1 only, printing
harvest's ratio (one process against one) to bare Scrapy (pages/s and CPU per page) in about a minute.

``--render N`` also runs the rendered-page benchmark: N JavaScript pages through Chromium
(``render: true``), pages/s, and the tree's PSS when 50 and when N pages were stored.

usage: python bench/crawl_throughput.py [--quick] [--sizes 10000 200000 1000000] [--repeat 3]
           [--only scrapy-bare,handwritten,crawlee,harvest-off,...] [--render 300] [--limit S]
           [--limit-for handwritten=900]
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_site import generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HANDWRITTEN = Path(os.environ.get("HARVEST_BASELINES", ROOT.parent / "shared" / "baselines")) / (
    "handwritten_collector.py"
)
CONCURRENCY = 16
CONTENDERS = (
    "scrapy-bare",
    "handwritten",
    "crawlee",
    "harvest-off",
    "harvest-off-w1",
    "harvest-off-w2",
    "harvest-off-x2",
    "harvest-inline",
    "harvest-pool",
)
#: What the issue compares (the default): harvest's best configuration and its three peers.
DEFAULT_CONTENDERS = ("scrapy-bare", "handwritten", "crawlee", "harvest-off", "harvest-off-w1")
#: Issue 9's targets for harvest-off: pages/s ratios to these peers, and peak RSS below Crawlee's.
TARGETS = {"handwritten": 1.1, "crawlee": 1.0}
#: Issue 18's: the best harvest configuration's pages/s ratio to each peer, in every run and size.
TARGETS_18 = {"handwritten": 1.3, "crawlee": 1.3}
#: Issue 18's: pages/s with extraction on, as a share of what the cores can do at its CPU per page.
EXTRACTION_SHARE = 0.9
_STAT_RE = re.compile(r"'([\w/.-]+)': (\d+)")
#: Disk a generated page takes (its ~12 KB of HTML in 4 KB blocks, and its directory entry; the
#: 1,000,000-page site measured 16.0 GiB), for --sizes.
SITE_BYTES_PER_PAGE = 17_500
#: Issue 36's targets: the largest size against the smallest, for harvest-off.
MEMORY_GROWTH_MAX = 1.25
RATE_KEPT_MIN = 0.9
CPU_PER_PAGE_DRIFT = 0.10


@dataclass
class Run:
    name: str
    pages: int
    wall: float
    cpu: float
    peak_mb: float
    returncode: int
    items: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    #: Peak RSS of the tree's largest process (a worker; the whole tree for one process).
    peak_worker_mb: float = 0.0
    #: Peak RSS of each process of the tree of at least 20 MB (harvest's workers), largest first.
    peaks_mb: list[float] = field(default_factory=list)
    #: The tree's RSS when this share (%) of the site's pages had been fetched.
    rss_at: dict[int, float] = field(default_factory=dict)
    #: False when the contender was stopped at its time limit.
    finished: bool = True

    @property
    def rate(self) -> float:
        return self.pages / self.wall if self.wall else 0.0

    @property
    def cpu_per_page_ms(self) -> float:
        return 1000 * self.cpu / self.pages if self.pages else 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Nginx:
    """nginx serving ``root`` on 127.0.0.1:<free port>, all its files in a temp folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="harvest-bench-nginx-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self._served = 0
        self._served_offset = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def served(self) -> int:
        """Requests logged since the last :meth:`fetches` (nginx writes its buffer every 5 s)."""
        try:
            with (self.dir / "access.log").open("rb") as fh:
                fh.seek(self._served_offset)
                chunk = fh.read()
        except FileNotFoundError:
            return self._served
        self._served_offset += len(chunk)
        self._served += chunk.count(b"\n")
        return self._served

    def __enter__(self) -> Nginx:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        temp = {k: self.dir / k for k in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        for path in temp.values():
            path.mkdir()
        user = "user root;" if os.geteuid() == 0 else ""
        conf = self.dir / "nginx.conf"
        conf.write_text(f"""
{user}
worker_processes 1;
daemon off;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  log_format fetches '$request_uri';
  access_log {self.dir}/access.log fetches buffer=256k flush=5s;
  sendfile on;
  keepalive_requests 1000000;
  client_body_temp_path {temp["body"]};
  proxy_temp_path {temp["proxy"]};
  fastcgi_temp_path {temp["fastcgi"]};
  uwsgi_temp_path {temp["uwsgi"]};
  scgi_temp_path {temp["scgi"]};
  types {{ text/html html; text/css css; application/xml xml; application/javascript js; }}
  default_type application/octet-stream;
  server {{ listen 127.0.0.1:{self.port}; root {self.root}; }}
}}
""")
        self.proc = subprocess.Popen([binary, "-c", str(conf), "-p", str(self.dir)])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not start; see {self.dir}/error.log")

    def fetches(self) -> dict[str, int]:
        """Requests per URL path since the last call (the access log is rotated, nginx reopens it)."""
        log = self.dir / "access.log"
        taken = self.dir / f"access-{time.monotonic_ns()}.log"
        if not log.exists() or self.proc is None:
            return {}
        log.rename(taken)
        self._served = self._served_offset = 0
        self.proc.send_signal(signal.SIGUSR1)  # flush the buffer and reopen the log
        deadline = time.monotonic() + 10
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        counts: dict[str, int] = {}
        with taken.open("rb") as fh:
            for line in fh:
                path = line.strip().decode("latin-1")
                counts[path] = counts.get(path, 0) + 1
        taken.unlink()
        return counts

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def _tree_memory(proc: psutil.Process, pss: bool) -> tuple[float, float, dict[int, float]]:
    """(the tree's memory, its largest process's, each process's by pid) in MB."""
    total = largest = 0.0
    each: dict[int, float] = {}
    for p in [proc, *proc.children(recursive=True)]:
        try:
            mem = p.memory_full_info().pss if pss else p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        total += mem
        largest = max(largest, mem)
        each[p.pid] = mem / 2**20
    return total / 2**20, largest / 2**20, each


def _children(proc: psutil.Process) -> list[psutil.Process]:
    try:
        return list(proc.children(recursive=True))
    except psutil.NoSuchProcess:
        return []


def measure(
    cmd: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float,
    pss: bool = False,
    on_sample: Any = None,
) -> tuple[int, str, str, float, float, float]:
    """Run ``cmd``; return (returncode, stdout, stderr, wall s, tree CPU s, peak tree memory MB).

    ``on_sample(seconds, tree MB, largest process MB, {pid: MB})`` is called at every memory sample.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        popen = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        proc = psutil.Process(popen.pid)
        peak = 0.0
        status = 0
        rusage = None
        next_sample = start
        while True:
            pid, status, rusage = os.wait4(popen.pid, os.WNOHANG)
            if pid:
                break
            now = time.monotonic()
            if now >= next_sample:
                # Memory every 0.1 s (PSS, which reads every mapping: 0.5 s); the exit is watched
                # every 10 ms, so a 3-second crawl's wall time is not rounded up to a sample.
                next_sample = now + (0.5 if pss else 0.1)
                try:
                    mem, largest, each = _tree_memory(proc, pss)
                except psutil.NoSuchProcess:
                    mem, largest, each = 0.0, 0.0, {}
                peak = max(peak, mem)
                if on_sample is not None:
                    on_sample(now - start, mem, largest, each)
            if now - start > timeout:
                # The whole tree: a contender's own children (the hand-written collector's
                # worker) would otherwise go on fetching after it, orphaned.
                for child in _children(proc):
                    with contextlib.suppress(psutil.NoSuchProcess):
                        child.kill()
                popen.kill()
            time.sleep(0.01)
        wall = time.monotonic() - start
        popen.returncode = os.waitstatus_to_exitcode(status)
        # wait4's usage covers the process and every descendant it waited for (the workers).
        cpu = rusage.ru_utime + rusage.ru_stime if rusage else 0.0
        out.seek(0)
        err.seek(0)
        return (
            popen.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            wall,
            cpu,
            peak,
        )


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    env.pop("GITHUB_TOKEN", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def _stats(log: str) -> dict[str, int]:
    start = log.rfind("Dumping Scrapy stats")
    return {k: int(v) for k, v in _STAT_RE.findall(log[start:])} if start >= 0 else {}


def _all_stats(log: str) -> list[dict[str, int]]:
    """Every stats dump of a log (one per worker process of a partitioned crawl)."""
    parts = log.split("Dumping Scrapy stats")[1:]
    return [{k: int(v) for k, v in _STAT_RE.findall(part.split("Spider closed")[0])} for part in parts]


class Redis:
    """A redis-server on 127.0.0.1:<free port>, no persistence, for the replicas contender."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="harvest-bench-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def __enter__(self) -> Redis:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def _page_lines(data: Path) -> tuple[int, int]:
    """(lines, distinct URLs) of harvest's page.jsonl (page.w<k>.jsonl of every worker)."""
    urls: set[str] = set()
    lines = 0
    for path in sorted((data / "blogs").glob("page*.jsonl")):
        with path.open("rb") as fh:
            for line in fh:
                lines += 1
                urls.add(json.loads(line)["url"])
    return lines, len(urls)


#: Seconds of samples a share's RSS is the largest of (see _Watch.recent).
_WINDOW = 6.0


class _Watch:
    """Memory samples of one run: the largest process's peak, the tree's RSS at 10/50/100%."""

    MARKS = (10, 50, 100)

    def __init__(self, nginx: Nginx | None, pages: int) -> None:
        self.nginx = nginx
        self.pages = pages
        self.peak_worker = 0.0
        #: Peak RSS of each process of the tree (a worker's, for harvest), by pid.
        self.peaks: dict[int, float] = {}
        self.rss_at: dict[int, float] = {}
        #: The tree's RSS at the last sample with the crawl still running.
        self.last = 0.0
        #: (seconds, tree MB) of the last _WINDOW seconds: nginx writes its log every 5 s, so a
        #: share is counted up to 5 s late, when a worker may have finished already.
        self.recent: deque[tuple[float, float]] = deque()

    def __call__(self, seconds: float, tree_mb: float, largest_mb: float, each: dict[int, float]) -> None:
        self.peak_worker = max(self.peak_worker, largest_mb)
        for pid, mb in each.items():
            self.peaks[pid] = max(self.peaks.get(pid, 0.0), mb)
        if tree_mb:
            self.last = tree_mb
            self.recent.append((seconds, tree_mb))
        while self.recent and self.recent[0][0] < seconds - _WINDOW:
            self.recent.popleft()
        if self.nginx is None or len(self.rss_at) == len(self.MARKS):
            return
        served = self.nginx.served()
        for mark in self.MARKS:
            if mark not in self.rss_at and served >= self.pages * mark / 100:
                self.rss_at[mark] = max((mb for _, mb in self.recent), default=tree_mb)


def default_limit(pages: int) -> float:
    """Seconds a contender has for a site of ``pages`` pages (--limit overrides it)."""
    return max(600.0, pages / 5)


def run_contender(
    name: str,
    url: str,
    work: Path,
    pages: int,
    tag: str = "",
    *,
    nginx: Nginx | None = None,
    limit: float | None = None,
) -> Run:
    """Run one contender with its memory watched; stopped after ``limit`` seconds."""
    timeout = default_limit(pages) if limit is None else limit
    watch = _Watch(nginx, pages)
    run = _run_contender(name, url, work, pages, tag, timeout, watch)
    run.peak_worker_mb = watch.peak_worker
    # Processes of at least 20 MB (a worker; not the shell or a helper started by it), largest first.
    run.peaks_mb = sorted((mb for mb in watch.peaks.values() if mb >= 20), reverse=True)
    run.rss_at = watch.rss_at
    run.finished = run.wall < timeout
    if run.finished and 100 not in run.rss_at and watch.last:
        # nginx writes its log every 5 s: the crawl ended before its last lines were counted.
        run.rss_at[100] = watch.last
    if not run.finished:
        print(f"{name}: did not finish within its limit of {timeout:.0f} s (stopped)", flush=True)
    return run


def _run_contender(
    name: str, url: str, work: Path, pages: int, tag: str, timeout: float, watch: _Watch
) -> Run:
    start_url = f"{url}/index.html"
    common = [
        "-s",
        f"CONCURRENT_REQUESTS={CONCURRENCY}",
        "-s",
        f"CONCURRENT_REQUESTS_PER_DOMAIN={CONCURRENCY}",
        "-s",
        "LOG_LEVEL=INFO",
        "-s",
        "TELNETCONSOLE_ENABLED=False",
        "-s",
        "REMOTE_CONTROL_ENABLED=False",
        "-s",
        "AUTOTHROTTLE_ENABLED=False",
    ]
    out_dir = work / f"{name}{tag}"
    out_dir.mkdir(parents=True, exist_ok=True)
    if name == "scrapy-bare":
        cmd = [
            sys.executable,
            "-m",
            "scrapy",
            "runspider",
            str(ROOT / "bench" / "bare_crawlspider.py"),
            "-a",
            f"start={start_url}",
            *common,
        ]
        rc, out, err, wall, cpu, peak = measure(
            cmd, cwd=out_dir, env=_env(), timeout=timeout, on_sample=watch
        )
        return Run(name, _stats(err).get("bench/pages", 0), wall, cpu, peak, rc)
    if name == "handwritten":
        cmd = [sys.executable, str(HANDWRITTEN), "--start", start_url, "--out", str(out_dir / "out")]
        rc, out, err, wall, cpu, peak = measure(
            cmd, cwd=out_dir, env=_env(), timeout=timeout, on_sample=watch
        )
        got = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        written = sum(1 for _ in (out_dir / "out").rglob("*.md"))
        return Run(name, int(got.get("pages", 0)), wall, cpu, peak, rc, items=written)
    if name == "crawlee":
        cmd = [
            sys.executable,
            str(ROOT / "bench" / "crawlee_peer.py"),
            start_url,
            "--concurrency",
            str(CONCURRENCY),
        ]
        rc, out, err, wall, cpu, peak = measure(
            cmd, cwd=out_dir, env=_env(), timeout=timeout, on_sample=watch
        )
        got = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        return Run(name, int(got.get("pages", 0)), wall, cpu, peak, rc)
    mode = name.removeprefix("harvest-").removesuffix("-x2").removesuffix("-w2").removesuffix("-w1")
    data = out_dir / "data"
    cmd = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "blogs",
        "-a",
        f"url={start_url}",
        *common,
        "-s",
        f"HARVEST_DATA_DIR={data}",
        "-s",
        f"HARVEST_BLOGS_EXTRACTION={mode}",
        # Throughput, not limits: the site is larger than the default per-site page budget.
        "-s",
        "HARVEST_SAFETY_MAX_PAGES=0",
        "-s",
        "HARVEST_SAFETY_MAX_DEPTH=0",
    ]
    if name.endswith(("-w1", "-w2")):
        cmd += ["-s", f"HARVEST_CRAWL_WORKERS={name[-1]}"]
    if name.endswith("-x2"):
        # Two processes of one spider sharing the crawl in Redis (run_all.py --replicas blogs=2
        # does the same): a shell starts both, so the process tree is measured as one.
        with Redis() as redis_server:
            logs = [out_dir / f"log-{i}.txt" for i in range(2)]
            shared = ["-s", f"HARVEST_STATE_URL={redis_server.url}", "-s", "MAX_IDLE_TIME_BEFORE_CLOSE=2"]
            script = " & ".join(
                shlex.join(
                    [
                        *cmd,
                        *shared,
                        "-s",
                        f"LOG_FILE={log}",
                    ]
                )
                for log in logs
            )
            rc, out, err, wall, cpu, peak = measure(
                ["bash", "-c", f"{script} & wait"], cwd=ROOT, env=_env(), timeout=timeout, on_sample=watch
            )
        texts = [log.read_text(encoding="utf-8", errors="replace") for log in logs if log.exists()]
        err = "".join(texts)
        per_process = [_stats(text) for text in texts]
    else:
        rc, out, err, wall, cpu, peak = measure(cmd, cwd=ROOT, env=_env(), timeout=timeout, on_sample=watch)
        per_process = _all_stats(err)
    fetched = sum(st.get("harvest/blogs/article_pages", 0) for st in per_process) + sum(
        st.get("harvest/blogs/listing_pages", 0) for st in per_process
    )
    if rc != 0:
        print(err[-3000:], file=sys.stderr)
    if mode == "off":
        lines, distinct = _page_lines(data)
    else:
        lines, distinct = sum(st.get("item_scraped_count", 0) for st in per_process), 0
    finished = err.count("'finish_reason': 'finished'")
    return Run(
        name,
        fetched,
        wall,
        cpu,
        peak,
        rc,
        items=lines,
        extra={"distinct_urls": distinct, "finished": f"{finished}/{len(per_process)}"},
    )


def print_table(pages: int, runs: list[Run]) -> None:
    bare = next((r for r in runs if r.name == "scrapy-bare"), None)
    print(f"\n## {pages:,}-page site (concurrency {CONCURRENCY}, nginx on 127.0.0.1)\n")
    print(
        "| contender | pages | output | server fetches (max/URL) | wall s | pages/s | CPU ms/page "
        "| peak RSS MB | vs bare Scrapy |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        ratio = f"{r.rate / bare.rate:.2f}x" if bare and bare.rate else "-"
        distinct = r.extra.get("distinct_urls")
        output = f"{r.items:,}" + (f" ({distinct:,} URLs)" if distinct else "")
        fetches = f"{r.extra.get('fetches', 0):,} ({r.extra.get('max_fetches', 0)})"
        print(
            f"| {r.name} | {r.pages:,} | {output} | {fetches} | {r.wall:.1f} | {r.rate:.1f} "
            f"| {r.cpu_per_page_ms:.2f} | {r.peak_mb:.0f} | {ratio} |"
        )
    by = {r.name: r for r in runs}
    if "harvest-pool" in by and "harvest-inline" in by and by["harvest-inline"].rate:
        pool_vs_inline = by["harvest-pool"].rate / by["harvest-inline"].rate
        print(f"\nharvest-pool / harvest-inline: {pool_vs_inline:.2f}x pages/s")
    print_targets(runs)


def print_guard(runs: list[Run]) -> None:
    """The regression guard: one harvest process against bare Scrapy (``--quick``)."""
    by = {r.name: r for r in runs}
    bare = by.get("scrapy-bare")
    one = by.get("harvest-off-w1")
    if bare is not None and bare.rate and one is not None and one.rate and one.cpu_per_page_ms:
        print(
            f"harvest-off-w1 / scrapy-bare: {one.rate / bare.rate:.2f}x pages/s, "
            f"{bare.cpu_per_page_ms / one.cpu_per_page_ms:.2f}x less CPU per page "
            "(regression guard, one process against one: compare with BENCHMARKS.md)"
        )


def print_targets(runs: list[Run]) -> bool | None:
    """harvest-off against its peers with the issue-9 targets; None when a side is missing."""
    print_guard(runs)
    by = {r.name: r for r in runs}
    harvest = by.get("harvest-off")
    if harvest is None or not harvest.rate:
        return None
    verdicts = []
    for peer, target in TARGETS.items():
        if peer in by and by[peer].rate:
            ratio = harvest.rate / by[peer].rate
            ok = ratio >= target
            verdicts.append(ok)
            verdict = "ok" if ok else "MISSED"
            print(
                f"harvest-off / {peer}: {ratio:.2f}x pages/s (target >= {target}x: {verdict}); "
                f"CPU per page {harvest.cpu_per_page_ms:.2f} vs {by[peer].cpu_per_page_ms:.2f} ms"
            )
    # Issue 9's memory target is one crawl process's (the default was one then).
    single = by.get("harvest-off-w1", harvest)
    if "crawlee" in by:
        ok = single.peak_mb < by["crawlee"].peak_mb
        verdicts.append(ok)
        print(
            f"peak RSS {single.name} {single.peak_mb:.0f} MB vs crawlee {by['crawlee'].peak_mb:.0f} MB "
            f"(target below: {'ok' if ok else 'MISSED'})"
        )
    return all(verdicts) if verdicts else None


def targets_18(runs: list[Run]) -> dict[str, tuple[float, str, bool]]:
    """Issue 18's figures of one run of one size: label -> (value, target, held)."""
    by = {r.name: r for r in runs if r.rate}
    found: dict[str, tuple[float, str, bool]] = {}
    best = by.get("harvest-off")
    if best is not None:
        for peer, target in TARGETS_18.items():
            if peer in by:
                ratio = best.rate / by[peer].rate
                found[f"{best.name} / {peer} pages/s"] = (ratio, f">= {target}x", ratio >= target)
    crawlee = by.get("crawlee")
    if crawlee is not None and crawlee.peak_mb:
        if "harvest-off-w1" in by:
            share = by["harvest-off-w1"].peak_mb / crawlee.peak_mb
            found["harvest-off-w1 (1 worker) / crawlee peak RSS"] = (share, "< 1.0x", share < 1.0)
        if "harvest-off" in by:
            share = by["harvest-off"].peak_mb / crawlee.peak_mb
            found["harvest-off (default workers) / crawlee peak RSS"] = (share, "<= 2.0x", share <= 2.0)
    pool = by.get("harvest-pool")
    cores = os.cpu_count() or 1
    if pool is not None and pool.cpu:
        # The cores' limit at this run's CPU per page: cores / (CPU seconds per page).
        share = pool.rate * (pool.cpu / pool.pages) / cores
        found[f"harvest-pool pages/s / {cores}-core limit"] = (
            share,
            f">= {EXTRACTION_SHARE}x",
            share >= EXTRACTION_SHARE,
        )
    for label, (value, wanted, held) in found.items():
        print(f"issue 18: {label}: {value:.2f}x (target {wanted}: {'held' if held else 'MISSED'})")
    return found


def print_summary(summary: dict[int, list[dict[str, tuple[float, str, bool]]]]) -> None:
    """Each issue-18 figure per size, over the runs: values, and in how many runs it held."""
    if not any(run for runs in summary.values() for run in runs):
        return  # no issue-18 figure in these runs (--quick)
    print("\n## Issue 18 targets per size\n")
    print("| size | figure | target | runs | held |")
    print("|---:|---|---|---|---:|")
    for pages, runs in summary.items():
        labels = dict.fromkeys(label for run in runs for label in run)
        for label in labels:
            got = [run[label] for run in runs if label in run]
            values = ", ".join(f"{figure[0]:.2f}x" for figure in got)
            held = sum(1 for figure in got if figure[2])
            print(f"| {pages:,} | {label} | {got[0][1]} | {values} | {held} of {len(got)} |")


def render_bench(url: str, work: Path, n: int) -> dict[str, Any]:
    from harvest.browser.install import find_browser

    if find_browser() is None:
        print("\n(render benchmark skipped: no Chromium found)")
        return {}
    data = work / "render" / "data"
    jsonl = data / "blogs" / "document.jsonl"
    samples: list[tuple[float, int, float]] = []

    def sample(t: float, mem: float, largest: float, each: dict[int, float]) -> None:
        try:
            with jsonl.open("rb") as fh:
                stored = sum(1 for _ in fh)
        except FileNotFoundError:
            stored = 0
        samples.append((t, stored, mem))

    cmd = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "blogs",
        "-a",
        f"url={url}/js/index.html",
        "-a",
        "render=true",
        "-s",
        f"HARVEST_DATA_DIR={data}",
        "-s",
        "AUTOTHROTTLE_ENABLED=False",
        "-s",
        "LOG_LEVEL=INFO",
        "-s",
        f"CONCURRENT_REQUESTS={CONCURRENCY}",
        "-s",
        f"CONCURRENT_REQUESTS_PER_DOMAIN={CONCURRENCY}",
        "-s",
        "HARVEST_SAFETY_MAX_DEPTH=0",
        "-s",
        "CLOSESPIDER_TIMEOUT=900",
    ]
    rc, out, err, wall, cpu, peak = measure(
        cmd, cwd=ROOT, env=_env(), timeout=1200, pss=True, on_sample=sample
    )
    stats = _stats(err)
    stored = stats.get("item_scraped_count", 0)

    def mem_near(k: int) -> float:
        # Peak of the samples taken while pages k-25..k were being stored (the browser still up).
        window = [m for _, stored_, m in samples if k - 25 <= stored_ <= k and m]
        return max(window) if window else 0.0

    first = next((t for t, s, _ in samples if s >= 1), 0.0)
    last = next((t for t, s, _ in samples if s >= stored), wall)
    result: dict[str, float | None] = {
        "pages": stored,
        "wall_s": round(wall, 1),
        "returncode": rc,
        "pages_per_s": round(stored / wall, 2) if wall else 0,
        "pages_per_s_after_first": round((stored - 1) / (last - first), 2) if last > first else 0,
        "cpu_s_per_page": round(cpu / stored, 3) if stored else 0,
        "pss_mb_near_50": round(mem_near(50)),
        f"pss_mb_near_{n}": round(mem_near(n)),
        "peak_pss_mb": round(peak),
    }
    result["growth_50_to_end"] = round(mem_near(n) / mem_near(50), 2) if mem_near(50) else None
    print(f"\n## Rendered pages ({n} JavaScript pages, Chromium, render: true)\n")
    print(json.dumps(result, indent=1))
    return result


def main() -> None:
    # SIGTERM unwinds like Ctrl-C, so nginx and the temp folders are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pages",
        "--sizes",
        type=int,
        nargs="+",
        default=[2000, 50000],
        help="site sizes; each site is generated once under --sites, ~17 KB of disk a page (the "
        "1,000,000-page site is ~17 GB and takes many minutes to write); a size the disk cannot hold "
        "(twice the site, for the crawls' output) is skipped and said so",
    )
    parser.add_argument("--only", default=",".join(DEFAULT_CONTENDERS), help="comma-separated contenders")
    parser.add_argument("--repeat", type=int, default=1, help="run the contenders this many times in a row")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="regression guard: 2,000 pages, bare Scrapy and harvest-off-w1, their ratio",
    )
    parser.add_argument("--render", type=int, default=0, help="also render this many JS pages (e.g. 300)")
    parser.add_argument(
        "--sites",
        type=Path,
        default=Path(tempfile.gettempdir()) / "harvest-bench-sites",
        help="where generated sites are kept between runs",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--limit",
        type=float,
        help="seconds each contender has per size (default: the larger of 600 and pages / 5)",
    )
    parser.add_argument(
        "--limit-for",
        action="append",
        default=[],
        metavar="NAME=SECONDS",
        help="one contender's limit per size instead (e.g. handwritten=900: it rewrites its JSON "
        "seen-file every 50 pages, so a million pages would take it days)",
    )
    args = parser.parse_args()
    if args.quick:
        args.pages, args.only = [2000], "scrapy-bare,harvest-off-w1"
    contenders = [c for c in args.only.split(",") if c]
    limits: dict[str, float] = {}
    for spec in args.limit_for:
        name, _, seconds = spec.partition("=")
        try:
            limits[name] = float(seconds)
        except ValueError:
            parser.error(f"--limit-for {spec}: expected NAME=SECONDS")
    unknown = (set(contenders) | set(limits)) - set(CONTENDERS)
    if unknown:
        parser.error(f"unknown contenders: {', '.join(sorted(unknown))}")
    # harvest is installed in editable mode here, and with PYTHONDONTWRITEBYTECODE set (as on
    # this machine) every crawl process would compile harvest's source again (~0.1 s each),
    # which an installed harvest, like the peers' packages, never does.
    compileall.compile_dir(str(ROOT / "harvest"), quiet=1)
    print(
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)",
        flush=True,
    )
    report: dict[str, Any] = {"cpus": os.cpu_count(), "concurrency": CONCURRENCY, "sizes": {}}
    verdicts: list[bool | None] = []
    summary: dict[int, list[dict[str, tuple[float, str, bool]]]] = {}
    by_size: dict[int, list[Run]] = {}
    for pages in args.pages:
        if not site_fits(args.sites, pages):
            continue
        site = generate(
            args.sites / f"site-{pages}", pages, js_pages=args.render if pages == args.pages[0] else 0
        )
        work = Path(tempfile.mkdtemp(prefix="harvest-bench-"))
        try:
            with Nginx(site) as nginx:
                for attempt in range(1, args.repeat + 1):
                    runs = []
                    nginx.fetches()
                    for name in contenders:
                        tag = f"-{attempt}"
                        limit = limits.get(name, args.limit)
                        run = run_contender(name, nginx.url, work, pages, tag, nginx=nginx, limit=limit)
                        counts = nginx.fetches()
                        run.extra["fetches"] = sum(counts.values())
                        run.extra["max_fetches"] = max(counts.values(), default=0)
                        run.extra["refetched"] = sorted(u for u, n in counts.items() if n > 1)[:5]
                        run.extra["load_before"] = os.getloadavg()[0]
                        shutil.rmtree(work / f"{name}{tag}", ignore_errors=True)
                        print(
                            f"{name}: {run.pages} pages in {run.wall:.1f}s ({run.rate:.1f}/s), "
                            f"cpu {run.cpu:.1f}s, peak {run.peak_mb:.0f} MB, output {run.items}, "
                            f"fetches {run.extra['fetches']} (max {run.extra['max_fetches']} per URL), "
                            f"rc {run.returncode}, load {run.extra['load_before']:.2f}; "
                            f"fetched more than once: {', '.join(run.extra['refetched']) or 'none'}",
                            flush=True,
                        )
                        runs.append(run)
                    if args.repeat > 1:
                        print(f"\n### run {attempt} of {args.repeat}")
                    print_table(pages, runs)
                    print_memory(pages, runs)
                    by_size.setdefault(pages, []).extend(runs)
                    verdicts.append(_verdict(runs))
                    summary.setdefault(pages, []).append(targets_18(runs))
                    report["sizes"].setdefault(pages, []).append(
                        [asdict(r) | {"pages_per_s": round(r.rate, 1)} for r in runs]
                    )
                if args.render and pages == args.pages[0]:
                    report["render"] = render_bench(nginx.url, work, args.render)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print_summary(summary)
    print_growth(by_size)
    judged = [v for v in verdicts if v is not None]
    if judged:
        print(f"\nissue-9 targets held in {sum(judged)} of {len(judged)} runs")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


def site_fits(sites: Path, pages: int) -> bool:
    """Whether the site of ``pages`` pages is generated or fits on the disk (said when not)."""
    marker = sites / f"site-{pages}" / ".complete"
    if marker.exists():
        return True
    sites.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(sites).free
    needed = pages * SITE_BYTES_PER_PAGE
    # Room for the crawls' output beside it (harvest writes each page's HTML once more).
    if 2 * needed > free:
        print(
            f"\n{pages:,}-page site skipped: it needs ~{needed / 1e9:.1f} GB under {sites} and as much "
            f"again for the crawls' output; {free / 1e9:.1f} GB are free",
            flush=True,
        )
        return False
    return True


def print_memory(pages: int, runs: list[Run]) -> None:
    """Issue 36's memory table of one size: peaks and the tree's RSS as the crawl went on."""
    print(f"\n### Memory, {pages:,}-page site\n")
    print(
        "| contender | finished | peak RSS tree MB | peak RSS largest process MB "
        "| peak RSS per process MB | RSS at 10% | at 50% | at 100% |"
    )
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for r in runs:
        at = [f"{r.rss_at[m]:.0f}" if m in r.rss_at else "-" for m in _Watch.MARKS]
        done = "yes" if r.finished else "no (time limit)"
        each = " / ".join(f"{mb:.0f}" for mb in r.peaks_mb) or "-"
        print(f"| {r.name} | {done} | {r.peak_mb:.0f} | {r.peak_worker_mb:.0f} | {each} | {' | '.join(at)} |")


def print_growth(by_size: dict[int, list[Run]]) -> None:
    """harvest-off's largest finished size against its smallest: issue 36's targets."""
    runs = sorted(
        ((pages, r) for pages, rs in by_size.items() for r in rs if r.name == "harvest-off" and r.finished),
        key=lambda pr: pr[0],
    )
    if len(runs) < 2 or runs[0][0] == runs[-1][0]:
        return
    (small, a), (large, b) = runs[0], runs[-1]
    print(f"\n## Issue 36: harvest-off at {large:,} pages against {small:,}\n")
    tree, worker = b.peak_mb / a.peak_mb, b.peak_worker_mb / a.peak_worker_mb
    rate, cpu = b.rate / a.rate, b.cpu_per_page_ms / a.cpu_per_page_ms
    figures = [
        ("peak RSS, process tree", tree, f"<= {MEMORY_GROWTH_MAX}x", tree <= MEMORY_GROWTH_MAX),
        ("peak RSS, largest worker", worker, f"<= {MEMORY_GROWTH_MAX}x", worker <= MEMORY_GROWTH_MAX),
        ("pages/s", rate, f">= {RATE_KEPT_MIN}x", rate >= RATE_KEPT_MIN),
        ("CPU per page", cpu, f"within {CPU_PER_PAGE_DRIFT:.0%}", abs(cpu - 1) <= CPU_PER_PAGE_DRIFT),
    ]
    for label, value, target, ok in figures:
        print(f"issue 36: {label}: {value:.2f}x (target {target}: {'held' if ok else 'MISSED'})")


def _verdict(runs: list[Run]) -> bool | None:
    by = {r.name: r for r in runs}
    harvest = by.get("harvest-off")
    if harvest is None or not all(p in by for p in (*TARGETS, "crawlee")):
        return None
    rates_ok = all(harvest.rate >= t * by[p].rate for p, t in TARGETS.items())
    return rates_ok and by.get("harvest-off-w1", harvest).peak_mb < by["crawlee"].peak_mb


if __name__ == "__main__":
    main()
