"""``scrapy crawl``: a progress line while it runs and a short summary at the end, for real.

The trending spider against a loopback GitHub serving real Trending pages. A README answer is
held until the crawl's progress line has shown it pending (an event, not a delay). On a terminal
(a pseudo-terminal here) the 40-line stats dump gives way to the summary.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path

from tests import PROJECT_ROOT, read_jsonl
from tests.servers import LoggedRequest, LoopbackServer, Reply
from tests.spiders.test_trending import README_OPENHUMAN, ROBOTS, TEXT, daily_2026

GUARD = 60.0


def _argv(server: LoopbackServer, data: Path, config: Path, interval: float) -> list[str]:
    argv = [sys.executable, "-m", "scrapy", "crawl", "trending", "-a", "developers=false"]
    for key, value in {
        "GITHUB_WEB_URL": server.base_url,
        "GITHUB_RAW_URL": server.base_url,
        "GITHUB_API_URL": f"{server.base_url}/api",
        "HARVEST_DATA_DIR": data,
        "HARVEST_CONFIG_DIR": config,
        "AUTOTHROTTLE_ENABLED": False,
        "DOWNLOAD_DELAY": 0,
        "HARVEST_PROGRESS_INTERVAL": interval,
    }.items():
        argv += ["-s", f"{key}={value}"]
    return argv


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("GITHUB_TOKEN", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _serve(server: LoopbackServer, readme: Reply | object) -> None:
    server.add("/robots.txt", ROBOTS)
    server.add_file("/trending", daily_2026())
    server.add("/tinyhumansai/openhuman/HEAD/README.md", readme)  # type: ignore[arg-type]


def test_progress_while_it_runs_and_a_summary_of_what_went_where(
    server: LoopbackServer, tmp_path: Path
) -> None:
    shown = threading.Event()

    def held_readme(request: LoggedRequest) -> Reply:
        assert shown.wait(GUARD), "no progress line showed the README pending"
        return Reply(body=README_OPENHUMAN, content_type=TEXT)

    _serve(server, held_readme)
    (tmp_path / "config").mkdir()
    data = tmp_path / "data"
    proc = subprocess.Popen(
        _argv(server, data, tmp_path / "config", 0.2),
        cwd=PROJECT_ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: list[str] = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if "Progress:" in line and re.search(r"\b[1-9]\d* pending\b", line):
            shown.set()
    assert proc.wait(GUARD) == 0, "\n".join(lines[-40:])
    progress = [line for line in lines if "Progress:" in line]
    pattern = r"Progress: [\d,]+ pages?, [\d,]+ items?, [1-9]\d* pending, 0 errors, 0 rate-limit waits"
    assert any(re.search(pattern, line) for line in progress), progress
    summary = [line for line in lines if "Crawl of trending ended" in line]
    assert len(summary) == 1
    folder = data / "trending"
    repos, docs = len(read_jsonl(folder / "trending_repo.jsonl")), len(read_jsonl(folder / "document.jsonl"))
    assert (
        "Crawl of trending ended (finished) after" in summary[0]
        and f"wrote {repos + docs} items: {docs} to {folder / 'document.jsonl'}, "
        f"{repos} to {folder / 'trending_repo.jsonl'}; 0 errors"
        in summary[0]
    ), summary[0]
    # Not a terminal: the stats dump is still there for the scripts that read it.
    assert any("Dumping Scrapy stats" in line for line in lines)


def test_on_a_terminal_the_summary_replaces_the_stats_dump(server: LoopbackServer, tmp_path: Path) -> None:
    _serve(server, Reply(body=README_OPENHUMAN, content_type=TEXT))
    (tmp_path / "config").mkdir()
    argv = _argv(server, tmp_path / "data", tmp_path / "config", 10.0)

    def run() -> str:
        leader, follower = pty.openpty()
        proc = subprocess.Popen(argv, cwd=PROJECT_ROOT, env=_env(), stdout=follower, stderr=follower)
        os.close(follower)
        out = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed: the crawl is over
                break
            if not chunk:
                break
            out += chunk
        os.close(leader)
        assert proc.wait(GUARD) == 0, out.decode(errors="replace")[-3000:]
        return out.decode("utf-8", errors="replace")

    first = run()
    assert "Dumping Scrapy stats" not in first and "'item_scraped_count'" not in first
    assert re.search(r"Crawl of trending ended \(finished\) after .*; wrote 12 items: ", first), first[-2000:]
    # The same day again: nothing new, and the summary says why.
    again = run()
    assert re.search(r"wrote no item \(output folder .*\); skipped: 11 already stored", again), again[-2000:]
