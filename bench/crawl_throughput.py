"""Crawl throughput of `scrapy crawl blogs` against its peers, on a generated site served by nginx.

For each site size (default 2,000 and 50,000 pages; every page links to ten others, see
bench/gen_site.py), one after another against the same nginx (Debian's nginx-light, bound to
127.0.0.1, config in a temp folder, access log off):

- ``scrapy-bare``: a bare Scrapy CrawlSpider that stores nothing (the framework's ceiling);
- ``handwritten``: ../shared/baselines/handwritten_collector.py (the approach harvest replaces);
- ``crawlee``: Crawlee's ParselCrawler with in-memory storage (the fastest peer measured here);
- ``harvest-off``: ``scrapy crawl blogs`` with extraction off (crawl, dedup state, frontier);
- ``harvest-inline``: extraction (trafilatura) inline in the spider callback;
- ``harvest-pool``: extraction in the worker-process pool (the default).

Printed per run: pages fetched, pages/s (process wall clock, start-up included), CPU seconds per
page (the process tree: the crawler plus its extraction workers), peak RSS (sum over the process
tree, sampled every 0.5 s), and ratios to the bare CrawlSpider; and harvest-pool / harvest-inline.
Every contender gets the same concurrency (16 requests, 16 per host) and no throttling.

``--render N`` also runs the rendered-page benchmark: N JavaScript pages through Chromium
(``render: true``), pages/s, and the tree's PSS when 50 and when N pages were stored.

usage: python bench/crawl_throughput.py [--pages 2000 50000] [--only harvest-pool,...] [--render 300]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
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
CONTENDERS = ("scrapy-bare", "handwritten", "crawlee", "harvest-off", "harvest-inline", "harvest-pool")
_STAT_RE = re.compile(r"'([\w/.-]+)': (\d+)")


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

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

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
  access_log off;
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

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def _tree_memory(proc: psutil.Process, pss: bool) -> float:
    total = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_full_info().pss if pss else p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total / 2**20


def measure(
    cmd: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float,
    pss: bool = False,
    on_sample: Any = None,
) -> tuple[int, str, str, float, float, float]:
    """Run ``cmd``; return (returncode, stdout, stderr, wall s, tree CPU s, peak tree memory MB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        popen = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        proc = psutil.Process(popen.pid)
        peak = 0.0
        status = 0
        rusage = None
        while True:
            pid, status, rusage = os.wait4(popen.pid, os.WNOHANG)
            if pid:
                break
            try:
                mem = _tree_memory(proc, pss)
            except psutil.NoSuchProcess:
                mem = 0.0
            peak = max(peak, mem)
            if on_sample is not None:
                on_sample(time.monotonic() - start, mem)
            if time.monotonic() - start > timeout:
                popen.kill()
            time.sleep(0.5)
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
    env["PYTHONPATH"] = str(ROOT)
    return env


def _stats(log: str) -> dict[str, int]:
    start = log.rfind("Dumping Scrapy stats")
    return {k: int(v) for k, v in _STAT_RE.findall(log[start:])} if start >= 0 else {}


def run_contender(name: str, url: str, work: Path, pages: int) -> Run:
    timeout = max(600.0, pages / 5)
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
    out_dir = work / name
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
        rc, out, err, wall, cpu, peak = measure(cmd, cwd=out_dir, env=_env(), timeout=timeout)
        return Run(name, _stats(err).get("bench/pages", 0), wall, cpu, peak, rc)
    if name == "handwritten":
        cmd = [sys.executable, str(HANDWRITTEN), "--start", start_url, "--out", str(out_dir / "out")]
        rc, out, err, wall, cpu, peak = measure(cmd, cwd=out_dir, env=_env(), timeout=timeout)
        got = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        return Run(name, int(got.get("pages", 0)), wall, cpu, peak, rc)
    if name == "crawlee":
        cmd = [
            sys.executable,
            str(ROOT / "bench" / "crawlee_peer.py"),
            start_url,
            "--concurrency",
            str(CONCURRENCY),
        ]
        rc, out, err, wall, cpu, peak = measure(cmd, cwd=out_dir, env=_env(), timeout=timeout)
        got = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        return Run(name, int(got.get("pages", 0)), wall, cpu, peak, rc)
    mode = name.removeprefix("harvest-")
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
        f"HARVEST_DATA_DIR={out_dir / 'data'}",
        "-s",
        f"HARVEST_BLOGS_EXTRACTION={mode}",
        # Throughput, not limits: the site is larger than the default per-site page budget.
        "-s",
        "HARVEST_SAFETY_MAX_PAGES=0",
        "-s",
        "HARVEST_SAFETY_MAX_DEPTH=0",
    ]
    rc, out, err, wall, cpu, peak = measure(cmd, cwd=ROOT, env=_env(), timeout=timeout)
    stats = _stats(err)
    fetched = stats.get("harvest/blogs/article_pages", 0) + stats.get("harvest/blogs/listing_pages", 0)
    if rc != 0:
        print(err[-3000:], file=sys.stderr)
    return Run(
        name,
        fetched,
        wall,
        cpu,
        peak,
        rc,
        items=stats.get("item_scraped_count", 0),
        extra={"finish": "finished" if "'finish_reason': 'finished'" in err else "?"},
    )


def print_table(pages: int, runs: list[Run]) -> None:
    bare = next((r for r in runs if r.name == "scrapy-bare"), None)
    print(f"\n## {pages:,}-page site (concurrency {CONCURRENCY}, nginx on 127.0.0.1)\n")
    print("| contender | pages | items | wall s | pages/s | CPU ms/page | peak RSS MB | vs bare Scrapy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        ratio = f"{r.rate / bare.rate:.2f}x" if bare and bare.rate else "-"
        print(
            f"| {r.name} | {r.pages:,} | {r.items:,} | {r.wall:.1f} | {r.rate:.1f} | {r.cpu_per_page_ms:.2f} "
            f"| {r.peak_mb:.0f} | {ratio} |"
        )
    by = {r.name: r for r in runs}
    if "harvest-pool" in by and "harvest-inline" in by and by["harvest-inline"].rate:
        ratio = by["harvest-pool"].rate / by["harvest-inline"].rate
        print(f"\nharvest-pool / harvest-inline: {ratio:.2f}x pages/s")
    if "harvest-pool" in by and "crawlee" in by and by["crawlee"].rate:
        print(f"harvest-pool / crawlee: {by['harvest-pool'].rate / by['crawlee'].rate:.2f}x pages/s")


def render_bench(url: str, work: Path, n: int) -> dict[str, Any]:
    from harvest.browser import find_browser

    if find_browser() is None:
        print("\n(render benchmark skipped: no Chromium found)")
        return {}
    data = work / "render" / "data"
    jsonl = data / "blogs" / "document.jsonl"
    samples: list[tuple[float, int, float]] = []

    def sample(t: float, mem: float) -> None:
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
    result = {
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
    parser.add_argument("--pages", type=int, nargs="+", default=[2000, 50000])
    parser.add_argument("--only", default=",".join(CONTENDERS), help="comma-separated contenders")
    parser.add_argument("--render", type=int, default=0, help="also render this many JS pages (e.g. 300)")
    parser.add_argument(
        "--sites",
        type=Path,
        default=Path(tempfile.gettempdir()) / "harvest-bench-sites",
        help="where generated sites are kept between runs",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    contenders = [c for c in args.only.split(",") if c]
    unknown = set(contenders) - set(CONTENDERS)
    if unknown:
        parser.error(f"unknown contenders: {', '.join(sorted(unknown))}")
    report: dict[str, Any] = {"cpus": os.cpu_count(), "concurrency": CONCURRENCY, "sizes": {}}
    for pages in args.pages:
        site = generate(
            args.sites / f"site-{pages}", pages, js_pages=args.render if pages == args.pages[0] else 0
        )
        work = Path(tempfile.mkdtemp(prefix="harvest-bench-"))
        try:
            with Nginx(site) as nginx:
                runs = []
                for name in contenders:
                    run = run_contender(name, nginx.url, work, pages)
                    print(
                        f"{name}: {run.pages} pages in {run.wall:.1f}s ({run.rate:.1f}/s), "
                        f"cpu {run.cpu:.1f}s, peak {run.peak_mb:.0f} MB, rc {run.returncode}",
                        flush=True,
                    )
                    runs.append(run)
                print_table(pages, runs)
                report["sizes"][pages] = [asdict(r) | {"pages_per_s": round(r.rate, 1)} for r in runs]
                if args.render and pages == args.pages[0]:
                    report["render"] = render_bench(nginx.url, work, args.render)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
