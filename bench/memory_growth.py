"""Where a crawl's memory grows with the pages it crawls: tracemalloc snapshots per worker, diffed.

Runs ``scrapy crawl blogs`` (extraction off, the default workers: ``--workers``) against the
generated benchmark site (bench/gen_site.py, served by nginx on 127.0.0.1 as in
bench/crawl_throughput.py) with bench/memtrace.py loaded in every worker. Each worker writes a
snapshot (RSS, tracemalloc's allocation sites, live objects per type) when it has received the
``--marks`` page counts (default 10,000 / 50,000 / 200,000 pages per worker); once every
worker wrote its last one the crawl is stopped (kill -9: the data folder is a temp one) and the
top growers between consecutive marks are printed, in bytes and bytes per page.

tracemalloc slows the crawl about twofold and adds its own memory: the figures are which
allocation sites grow and how fast, not the crawl's RSS (bench/crawl_throughput.py gives that).
``--no-trace`` takes the snapshots with RSS and object counts only.

The site needs ``workers x last mark`` pages and more (the default, 1,000,000 pages, is ~17 GB
of files, generated once under --sites).

usage: python bench/memory_growth.py [--marks 10000 50000 200000] [--workers 2] [--pages 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crawl_throughput import CONCURRENCY, ROOT, Nginx, _env  # noqa: E402
from gen_site import generate  # noqa: E402

TOP = 15


def _extensions() -> str:
    """harvest's EXTENSIONS plus the tracer (a -s value replaces the whole dict)."""
    sys.path.insert(0, str(ROOT))
    from harvest import settings

    extensions = dict(settings.EXTENSIONS)
    extensions["memtrace.MemoryTrace"] = 0
    return json.dumps(extensions)


def _kill_tree(pid: int) -> None:
    try:
        proc = psutil.Process(pid)
        procs = [proc, *proc.children(recursive=True)]
    except psutil.NoSuchProcess:
        return
    for p in procs:
        try:
            p.send_signal(signal.SIGKILL)
        except psutil.NoSuchProcess:
            continue


def crawl(url: str, work: Path, marks: list[int], workers: int, trace: bool, limit: float) -> Path:
    out = work / "snapshots"
    env = _env()
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{ROOT / 'bench'}"
    env["HARVEST_BENCH_MEMTRACE"] = ",".join(str(m) for m in marks)
    env["HARVEST_BENCH_MEMTRACE_OUT"] = str(out)
    if not trace:
        env["HARVEST_BENCH_MEMTRACE_OFF"] = "1"
    cmd = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "blogs",
        "-a",
        f"url={url}/index.html",
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
        "-s",
        f"HARVEST_DATA_DIR={work / 'data'}",
        "-s",
        "HARVEST_BLOGS_EXTRACTION=off",
        "-s",
        "HARVEST_SAFETY_MAX_PAGES=0",
        "-s",
        "HARVEST_SAFETY_MAX_DEPTH=0",
        "-s",
        f"HARVEST_CRAWL_WORKERS={workers}",
        "-s",
        f"EXTENSIONS={_extensions()}",
        "-s",
        f"LOG_FILE={work / 'crawl.log'}",
    ]
    last = [out / f"w{k if workers > 1 else 0}-{marks[-1]}.json" for k in range(workers)]
    start = time.monotonic()
    popen = subprocess.Popen(cmd, cwd=ROOT, env=env)
    try:
        while popen.poll() is None:
            if all(p.exists() for p in last):
                break
            if time.monotonic() - start > limit:
                print(f"time limit ({limit:.0f} s) reached before every worker's last mark", flush=True)
                break
            time.sleep(1)
    finally:
        _kill_tree(popen.pid)
        popen.wait()
    print(f"crawl stopped after {time.monotonic() - start:.0f} s", flush=True)
    return out


def _mb(size: float) -> str:
    return f"{size / 2**20:+.1f} MB"


def report(out: Path) -> None:
    snaps: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(out.glob("w*-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        snaps.setdefault(record["worker"], []).append(record)
    for worker, records in sorted(snaps.items()):
        records.sort(key=lambda r: r["pages"])
        print(f"\n## worker {worker}\n")
        print("| pages | RSS MB | traced MB | SQLite MB | malloc in use MB | malloc free MB |")
        print("|---:|---:|---:|---:|---:|---:|")
        for r in records:
            native = " | ".join(
                f"{r[k]:.1f}" if k in r else "-" for k in ("sqlite_mb", "malloc_used_mb", "malloc_free_mb")
            )
            print(f"| {r['pages']:,} | {r['rss_mb']:.0f} | {r.get('traced_mb', 0):.1f} | {native} |")
        for before, after in zip(records, records[1:], strict=False):
            if not before["mark"]:
                continue  # growth from the start includes start-up; diff between marks
            pages = after["pages"] - before["pages"]
            print(f"\n### {before['pages']:,} -> {after['pages']:,} pages ({pages:,} more)\n")
            print(
                f"RSS {after['rss_mb'] - before['rss_mb']:+.1f} MB "
                f"({(after['rss_mb'] - before['rss_mb']) * 2**20 / pages:.0f} B/page), traced "
                f"{after.get('traced_mb', 0) - before.get('traced_mb', 0):+.1f} MB"
            )
            if "sites" in after:
                sites = set(after["sites"]) | set(before.get("sites", {}))
                growth = sorted(
                    (
                        (after["sites"].get(s, [0, 0])[0] - before["sites"].get(s, [0, 0])[0], s)
                        for s in sites
                    ),
                    reverse=True,
                )
                print("\n| allocation site | growth | B/page | blocks after |")
                print("|---|---:|---:|---:|")
                for size, site in growth[:TOP]:
                    short = site.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
                    blocks = after["sites"].get(site, [0, 0])[1]
                    print(f"| {short} | {_mb(size)} | {size / pages:.1f} | {blocks:,} |")
            types = sorted(
                ((n - before["types"].get(t, 0), t) for t, n in after["types"].items()), reverse=True
            )
            print("\nobjects (gc-tracked) grown: " + ", ".join(f"{t} {n:+,}" for n, t in types[:8]))


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marks", type=int, nargs="+", default=[10_000, 50_000, 200_000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pages", type=int, default=0, help="site size (default: 1,000,000, or enough)")
    parser.add_argument("--no-trace", action="store_true", help="RSS and object counts only")
    parser.add_argument("--limit", type=float, default=3600, help="seconds before the crawl is stopped")
    parser.add_argument("--sites", type=Path, default=Path(tempfile.gettempdir()) / "harvest-bench-sites")
    parser.add_argument("--keep", type=Path, help="copy the snapshots here")
    args = parser.parse_args()
    marks = sorted(args.marks)
    pages = args.pages or max(1_000_000, int(marks[-1] * args.workers * 1.2))
    site = generate(args.sites / f"site-{pages}", pages)
    work = Path(tempfile.mkdtemp(prefix="harvest-memgrowth-"))
    try:
        with Nginx(site) as nginx:
            out = crawl(nginx.url, work, marks, args.workers, not args.no_trace, args.limit)
        report(out)
        if args.keep:
            shutil.copytree(out, args.keep, dirs_exist_ok=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
