"""Crash test: a real ``scrapy crawl`` is SIGKILLed again and again, restarted, and its final
output must equal a clean run's: no item missing, none twice, no partial line, state readable.

The site (served on 127.0.0.1 by this test) has listing pages chained by "next" links, one
``repo`` item per row, an article per row (a document), a deeper article behind every second
article (reachable only through the frontier once its parent is stored, since stored documents
are not fetched again), and articles whose text duplicates another's with different bytes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from harvest.fingerprints import normalize_text
from harvest.state.sqlite import SqliteStateStore
from tests import PROJECT_ROOT, random_seed, read_jsonl
from tests.servers import LoggedRequest, LoopbackServer, Reply

PAGES, PER_PAGE = 6, 10
#: article -> article whose text it repeats (with other whitespace and line endings)
DUPLICATE_OF = {7: 3, 13: 3, 22: 20}
DELAY = 0.02
OBSERVED_AT = "2024-01-01T00:00:00Z"


def article_text(n: int) -> list[str]:
    src = DUPLICATE_OF.get(n, n)
    paras = [
        f"Article number {src} is about topic {src * 7 % 13}, explained at some length.",
        f"The second paragraph of article {src} adds a detail or two.",
    ]
    if n != src:
        paras = [p.replace(" ", "  \r\n ") for p in paras]
    return paras


def serve_site(server: LoopbackServer) -> None:
    def handler(request: LoggedRequest) -> Reply:
        time.sleep(DELAY)
        parts = request.path.strip("/").split("/")
        if len(parts) != 2 or not parts[1].isdigit():
            return Reply(404, "not found", content_type="text/plain")
        kind, n = parts[0], int(parts[1])
        if kind == "list" and 1 <= n <= PAGES:
            rows = "".join(
                f'<li class="row" data-n="{i}"><a href="/a/{i}">article {i}</a></li>'
                for i in range((n - 1) * PER_PAGE + 1, n * PER_PAGE + 1)
            )
            nxt = f'<a class="next" href="/list/{n + 1}">next</a>' if n < PAGES else ""
            return Reply(body=f"<html><body><ul>{rows}</ul>{nxt}</body></html>")
        if kind in ("a", "deep"):
            num = n if kind == "a" else 1000 + n
            paras = "".join(f"<p>{p}</p>" for p in article_text(num))
            deep = f'<a class="deep" href="/deep/{n}">deeper</a>' if kind == "a" and n % 2 == 0 else ""
            page = f"<html><body><h1>Article {num}</h1><article>{paras}</article>{deep}</body></html>"
            return Reply(body=page)
        return Reply(404, "not found", content_type="text/plain")

    server.resolve = handler  # type: ignore[method-assign]


def crawl_cmd(server: LoopbackServer, data_dir: Path) -> list[str]:
    settings = {
        "SPIDER_MODULES": "tests.spiders_for_tests",
        "HARVEST_DATA_DIR": str(data_dir),
        "ROBOTSTXT_OBEY": "False",
        "AUTOTHROTTLE_ENABLED": "False",
        "CONCURRENT_REQUESTS": "4",
        # Frequent commit points, so kills land before, between and inside them.
        "HARVEST_STATE_COMMIT_ITEMS": "3",
        "HARVEST_STATE_COMMIT_SECONDS": "0.2",
        "CLOSESPIDER_TIMEOUT": "60",
        "LOG_LEVEL": "INFO",
    }
    cmd = [sys.executable, "-m", "scrapy", "crawl", "crashsite"]
    for k, v in settings.items():
        cmd += ["-s", f"{k}={v}"]
    return cmd + ["-a", f"base_url={server.base_url}", "-a", f"observed_at={OBSERVED_AT}"]


def count_lines(spider_dir: Path) -> int:
    total = 0
    for path in spider_dir.glob("*.jsonl"):
        with path.open("rb") as fh:
            total += fh.read().count(b"\n")
    return total


def run(server: LoopbackServer, data_dir: Path, log: Path, kill_at: int | None) -> bool:
    """One crawl; SIGKILL it once the outputs hold ``kill_at`` lines. True if it was killed."""
    spider_dir = data_dir / "crashsite"
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
    with log.open("ab") as fh:
        proc = subprocess.Popen(crawl_cmd(server, data_dir), cwd=PROJECT_ROOT, stdout=fh, stderr=fh, env=env)
        deadline = time.monotonic() + 90
        try:
            while proc.poll() is None:
                if kill_at is not None and count_lines(spider_dir) >= kill_at:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(10)
                    return True
                if time.monotonic() > deadline:
                    raise AssertionError(f"crawl did not finish in 90 s; see {log}")
                time.sleep(0.003)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    assert proc.returncode == 0, f"crawl exited with {proc.returncode}; see {log}"
    return False


def outputs(data_dir: Path) -> dict[str, Any]:
    """What a user gets: repo keys, documents by content hash, Markdown bodies; all counted."""
    spider_dir = data_dir / "crashsite"
    for path in spider_dir.glob("*.jsonl"):
        raw = path.read_bytes()
        assert raw.endswith(b"\n") or not raw, f"{path} ends with a partial line"
        for line in raw.splitlines():
            json.loads(line)  # every line is complete JSON
    repos = Counter((r["repo"], r["query"], r["observed_at"]) for r in read_jsonl(spider_dir / "repo.jsonl"))
    docs = read_jsonl(spider_dir / "document.jsonl")
    by_hash = Counter(d["content_hash"] for d in docs)
    bodies = {}
    for d in docs:
        text = Path(d["path"]).read_text(encoding="utf-8")
        assert text.startswith("---\n"), d["path"]
        bodies[d["content_hash"]] = normalize_text(text.split("---\n", 2)[2])
    return {"repos": repos, "docs": docs, "by_hash": by_hash, "bodies": bodies}


def url_group(url: str) -> str:
    """Articles that share a text form one group: either URL may be the stored one."""
    kind, n = url.rsplit("/", 2)[-2:]
    num = int(n)
    return f"{kind}/{DUPLICATE_OF.get(num, num)}"


def test_kill_9_and_restart_equals_clean_run(server: LoopbackServer, tmp_path: Path) -> None:
    serve_site(server)
    clean_dir, crash_dir = tmp_path / "clean", tmp_path / "crash"
    run(server, clean_dir, tmp_path / "clean.log", None)
    clean = outputs(clean_dir)
    clean_doc_fetches = sum(1 for p in server.paths_requested() if p.startswith(("/a/", "/deep/")))
    total = sum(clean["repos"].values()) + len(clean["docs"])
    assert total == PAGES * PER_PAGE * 2 + PAGES * PER_PAGE // 2 - len(DUPLICATE_OF)

    seed = random_seed()
    rng = random.Random(seed)
    # Kill points by number of output lines: right at the first line, then spread to the end.
    points = sorted({1, *rng.sample(range(2, total), 6)})
    kills, last_run_start = 0, 0
    for point in points:
        if count_lines(crash_dir / "crashsite") >= point:
            continue
        last_run_start = len(server.requests)
        kills += run(server, crash_dir, tmp_path / "crash.log", point)
    last_run_start = len(server.requests)
    assert not run(server, crash_dir, tmp_path / "crash.log", None)
    last_run_doc_fetches = sum(
        1 for p in server.paths_requested()[last_run_start:] if p.startswith(("/a/", "/deep/"))
    )
    crashed = outputs(crash_dir)

    where = f"(seed {seed}, kill points {points}, logs in {tmp_path})"
    assert kills >= 4, f"too few runs were killed mid-crawl {where}"
    assert max(crashed["repos"].values()) == 1, f"a repo item was written twice {where}"
    assert set(crashed["repos"]) == set(clean["repos"]), f"repo items missing {where}"
    assert max(crashed["by_hash"].values()) == 1, f"a document was written twice {where}"
    assert set(crashed["by_hash"]) == set(clean["by_hash"]), f"documents missing {where}"
    assert crashed["bodies"] == clean["bodies"], f"a Markdown file differs {where}"
    clean_groups = {d["content_hash"]: url_group(d["url"]) for d in clean["docs"]}
    assert {d["content_hash"]: url_group(d["url"]) for d in crashed["docs"]} == clean_groups
    # Resumed, not restarted: the last run did not fetch every document again.
    assert last_run_doc_fetches < clean_doc_fetches, where

    store = SqliteStateStore.open(crash_dir / "state", "crashsite", readonly=True)
    try:
        assert store.integrity_errors() == []
        assert store.frontier_size() == 0
        assert set(store.output_offsets()) == {"repo.jsonl", "document.jsonl"}
        sizes = {p.name: p.stat().st_size for p in (crash_dir / "crashsite").glob("*.jsonl")}
        assert store.output_offsets() == sizes
    finally:
        store.close()
