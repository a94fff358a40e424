"""Scale-out benchmark: 1, 2 and 3 processes of ``blogs`` sharing one crawl in Redis.

A generated blog (``--articles`` posts, a home page linking every index page, index pages of 10
posts, each post linking two others) is served on 127.0.0.1 by a threaded server that sleeps
``--delay`` seconds per answer, so the crawl is I/O-bound as real crawling is. For each process
count, a fresh Redis database and data folder; the crawl window is the server's first to last
request (process start-up and the idle close are reported apart). Then Redis memory per seen
URL: ``INFO memory`` before and after the crawl, and for 100,000 fingerprints in the
duplicate filter and the fetch-time hash, compared with scrapy-redis's own hex fingerprints.

    python bench/scale_out.py [--articles 600] [--delay 0.25] [--processes 1,2,3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harvest.state.redis import _FLOAT, RedisKeys  # noqa: E402
from harvest.util.loopback import LoopbackServer, Reply  # noqa: E402

logger = logging.getLogger(__name__)

WORDS = (
    "crawler frontier redis queue worker scale throughput latency politeness article "
    "markdown extraction dedup fingerprint heartbeat shard machine process network"
).split()


def article_html(i: int, articles: int) -> str:
    text = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(60))
    paragraphs = "".join(f"<p>Paragraph {p} of post {i}: {text}.</p>" for p in range(6))
    others = ((i * 13 + 1) % articles, (i * 31 + 7) % articles)
    links = "".join(f'<a href="{post_path(j)}">post {j}</a> ' for j in others)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Post {i}</title>"
        f"<meta property='og:type' content='article'></head><body><article><h1>Post {i}</h1>"
        f"{paragraphs}</article><nav>{links}</nav></body></html>"
    )


def post_path(i: int) -> str:
    return f"/2024/{i % 12 + 1:02d}/post-{i}/"


class DelayedSite(LoopbackServer):
    """A generated blog on 127.0.0.1 that answers after ``delay`` seconds, logging request times."""

    def __init__(self, articles: int, delay: float) -> None:
        super().__init__(delay=delay, name="delayed-site")
        self.articles = articles
        pages = (articles + 9) // 10
        index = "".join(f'<a href="/page/{k}/">page {k}</a> ' for k in range(1, pages + 1))
        self.add("/", Reply(body=f"<html><body>{index}</body></html>"))
        for k in range(1, pages + 1):
            listed = range((k - 1) * 10, min(k * 10, articles))
            links = "".join(f'<a href="{post_path(i)}">post {i}</a> ' for i in listed)
            self.add(f"/page/{k}/", Reply(body=f"<html><body><h1>Page {k}</h1>{links}</body></html>"))
        for i in range(articles):
            self.add(post_path(i), Reply(body=article_html(i, articles)))

    @property
    def times(self) -> list[float]:
        """Arrival time (``time.monotonic()``) of each request since the last ``clear()``."""
        with self._lock:
            return [r.arrived for r in self.requests]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    flags = ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir)]
    proc = subprocess.Popen([binary, *flags, "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            return proc, port
        except redis.ConnectionError:
            time.sleep(0.05)
    sys.exit("redis-server did not start")


def run(site: DelayedSite, url: str, processes: int, workdir: Path) -> dict[str, Any]:
    client = redis.Redis.from_url(url)
    client.flushdb()
    site.clear()
    config = workdir / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "blogs.yaml").write_text(f"sites:\n  - name: bench\n    start_urls: ['{site.base_url}/']\n")
    data = workdir / f"data-{processes}"
    settings = {
        "HARVEST_STATE_URL": url,
        "HARVEST_DATA_DIR": data,
        "HARVEST_CONFIG_DIR": config,
        "AUTOTHROTTLE_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        "MAX_IDLE_TIME_BEFORE_CLOSE": 2,
        "LOG_LEVEL": "INFO",
    }
    used_before = int(client.info("memory")["used_memory"])
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    procs = []
    for i in range(processes):
        cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs"]
        for key, value in {**settings, "LOG_FILE": workdir / f"log-{processes}-{i}.txt"}.items():
            cmd += ["-s", f"{key}={value}"]
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
        procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env))
    # Memory while the round's duplicate filter still exists (the last worker out drops it).
    peak_used, seen = used_before, 0
    while any(p.poll() is None for p in procs):
        try:
            peak_used = max(peak_used, int(client.info("memory")["used_memory"]))
            seen = max(seen, int(client.scard(RedisKeys("blogs").dupefilter)))
        except redis.RedisError:
            pass
        time.sleep(0.2)
    wall = time.monotonic() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    codes = [p.returncode for p in procs]
    docs = (
        [json.loads(line) for line in (data / "blogs" / "document.jsonl").read_text().splitlines()]
        if (data / "blogs" / "document.jsonl").exists()
        else []
    )
    window = site.times[-1] - site.times[0] if len(site.times) > 1 else float("nan")
    used_after = int(client.info("memory")["used_memory"])
    post_hits = [site.hits[post_path(i)] for i in range(site.articles)]
    return {
        "processes": processes,
        "codes": codes,
        "requests": len(site.times),
        "window": window,
        "wall": wall,
        "first_request": site.times[0] - started if site.times else float("nan"),
        "documents": len(docs),
        "unique_documents": len({d["url"] for d in docs}),
        "posts_fetched_once": sum(1 for n in post_hits if n == 1),
        "posts_refetched": sum(1 for n in post_hits if n > 1),
        "cpu": cpu,
        "seen_urls": seen,
        "max_active": site.peak_in_flight,
        "peak_used": peak_used - used_before,
        "kept_used": used_after - used_before,
    }


def _fp(i: int) -> bytes:
    return hashlib.sha1(b"%d" % i).digest()  # noqa: S324 - a fingerprint, as Scrapy's


def memory_per_entry(url: str, entries: int) -> dict[str, float]:
    """Bytes per entry of the structures that grow per seen URL, measured with INFO memory."""
    client = redis.Redis.from_url(url)
    client.flushdb()
    results = {}
    # Each case names the command and the member it stores for entry i (bytes or hex text).
    cases: dict[str, Callable[[int], tuple[str, bytes | str]]] = {
        "dupefilter, 20-byte fingerprints (harvest)": lambda i: ("sadd", _fp(i)),
        "dupefilter, 40-char hex (stock scrapy-redis)": lambda i: ("sadd", _fp(i).hex()),
        "fetched: fingerprint -> last fetch (harvest)": lambda i: ("hset", _fp(i)),
    }
    for name, make in cases.items():
        client.flushdb()
        before = int(client.info("memory")["used_memory"])
        pipe = client.pipeline(transaction=False)
        for i in range(entries):
            op, member = make(i)
            if op == "sadd":
                pipe.sadd("bench:key", member)
            else:
                pipe.hset("bench:key", member, _FLOAT.pack(time.time()))
            if i % 10_000 == 9_999:
                pipe.execute()
        pipe.execute()
        results[name] = (int(client.info("memory")["used_memory"]) - before) / entries
    client.flushdb()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=600)
    parser.add_argument("--delay", type=float, default=0.25, help="seconds the server waits per answer")
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--entries", type=int, default=100_000, help="entries for the memory measurement")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="harvest-scale-bench-"))
    redis_proc, port = start_redis(workdir)
    url = f"redis://127.0.0.1:{port}/0"
    site = DelayedSite(args.articles, args.delay).start()
    try:
        pages = (args.articles + 9) // 10 + 1
        print(
            f"site: {args.articles} posts + {pages} index pages, {args.delay * 1000:.0f} ms per answer; "
            f"CPUs: {os.cpu_count()}; default politeness per process"
        )
        rows = [run(site, url, n, workdir) for n in (int(x) for x in args.processes.split(","))]
        base = rows[0]["requests"] / rows[0]["window"]
        print(
            "\n| processes | exit codes | requests | posts stored (unique) | posts fetched once / more "
            "| crawl window s | pages/s | speed-up | most requests in flight | wall s (first request at) "
            "| crawler CPU s | seen URLs | Redis peak / kept bytes |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            rate = r["requests"] / r["window"]
            print(
                f"| {r['processes']} | {r['codes']} | {r['requests']} "
                f"| {r['documents']} ({r['unique_documents']}) "
                f"| {r['posts_fetched_once']} / {r['posts_refetched']} | {r['window']:.1f} | {rate:.1f} "
                f"| {rate / base:.2f}x | {r['max_active']} | {r['wall']:.1f} ({r['first_request']:.1f}) "
                f"| {r['cpu']:.1f} "
                f"| {r['seen_urls']} "
                f"| {r['peak_used']:,} / {r['kept_used']:,} |"
            )
        print(f"\nRedis memory per entry ({args.entries:,} entries, INFO used_memory delta):")
        for name, per in memory_per_entry(url, args.entries).items():
            print(f"- {name}: {per:.1f} bytes")
    finally:
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
        site.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
