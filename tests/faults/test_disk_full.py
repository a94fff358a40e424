"""A full disk: the crawl stops with a clear error, what it wrote is intact, and a rerun resumes.

The data folder is a tmpfs with a size limit that the test mounts itself (root only; skipped
with the reason otherwise) and unmounts afterwards.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from scrapy.exceptions import DropItem

from harvest.pipelines.output import OutputPipeline
from harvest.util.files import append_line
from harvest.util.jsonlines import replay_lines
from tests import PROJECT_ROOT, read_jsonl, scrapy_crawl, wait_for
from tests.disks import resize_tmpfs
from tests.servers import LoopbackServer, Reply, loopback_server

POSTS = 80


@pytest.fixture
def big_blog() -> Iterator[LoopbackServer]:
    """A blog of POSTS articles of ~20 KB each: far more than fits on the small disk."""
    with loopback_server() as server:
        links = "".join(f'<a href="/posts/{i}">post {i}</a>' for i in range(POSTS))
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
        for i in range(POSTS):
            words = " ".join(f"word{i}x{j}" for j in range(1800))
            server.add(
                f"/posts/{i}",
                Reply(
                    body=f"<html><head><title>Post {i}</title></head><body>"
                    f"<article><h1>Post {i}</h1><p>{words}</p></article>"
                    "</body></html>"
                ),
            )
        yield server


def _crawl(
    server: LoopbackServer, tmp_path: Path, data_dir: Path, **settings: object
) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    site = {"name": "big", "start_urls": [server.base_url + "/"], "article_patterns": ["/posts/"]}
    (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    return scrapy_crawl(
        "blogs",
        settings={
            "HARVEST_CONFIG_DIR": config,
            "HARVEST_DATA_DIR": data_dir,
            "AUTOTHROTTLE_ENABLED": False,
            "HARVEST_BLOGS_EXTRACT_WORKERS": 2,
            "CLOSESPIDER_TIMEOUT": 60,
            **settings,
        },
        timeout=90,
    )


def _intact(data_dir: Path) -> list[dict[str, object]]:
    """Every JSON line parses and names a Markdown file that exists with that URL in it."""
    path = data_dir / "blogs" / "document.jsonl"
    raw = path.read_bytes()
    assert raw == b"" or raw.endswith(b"\n")
    docs = read_jsonl(path)  # raises on a broken line
    for doc in docs:
        md = Path(str(doc["path"])).read_text(encoding="utf-8")
        assert md.startswith("---\n") and f"url: {doc['url']}" in md
    assert not list((data_dir / "blogs").rglob(".tmp-*"))
    return docs


def test_a_full_disk_stops_the_crawl_cleanly_and_a_rerun_completes(
    big_blog: LoopbackServer, small_disk: Path, tmp_path: Path
) -> None:
    data_dir = small_disk / "data"
    first = _crawl(big_blog, tmp_path, data_dir)
    # A clear error, once, naming the cause and the file; the crawl stops on its own.
    assert first.returncode == 1, first.stderr[-3000:]
    assert "'finish_reason': 'disk_full'" in first.stderr
    errors = [line for line in first.stderr.splitlines() if re.search(r"\] (ERROR|CRITICAL): ", line)]
    assert len(errors) == 1, first.stderr[-6000:]
    assert "No space left on device" in errors[0] and str(data_dir) in errors[0]
    assert "Traceback" not in first.stderr, first.stderr[-5000:]
    written = _intact(data_dir)
    assert 0 < len(written) < POSTS

    # Room again: the same command resumes and finishes; nothing is lost, nothing doubled.
    resize_tmpfs(small_disk, "16m")
    second = _crawl(big_blog, tmp_path, data_dir)
    assert second.returncode == 0, second.stderr[-3000:]
    assert "'finish_reason': 'finished'" in second.stderr
    docs = _intact(data_dir)
    urls = [str(d["url"]) for d in docs]
    assert len(urls) == len(set(urls)) == POSTS
    assert docs[: len(written)] == written  # what the first run wrote is kept as it was
    assert len(list((data_dir / "blogs" / "big").glob("*.md"))) == POSTS


def test_a_full_disk_fetches_nothing_more_of_what_waits_for_the_site_s_pace(
    big_blog: LoopbackServer, small_disk: Path, tmp_path: Path
) -> None:
    # The site's pace lets one request a second through; the requests let into the downloader
    # wait their turn there. Once the disk is full the crawl stops as if killed: those would be
    # fetched again by the next run anyway, and the close used to wait for each one's turn,
    # fetching it, a second apart.
    (small_disk / "ballast").write_bytes(b"\0" * (1024 * 1024 - 600 * 1024))  # the state and a few posts
    data_dir = small_disk / "data"
    clock = time.time() - time.monotonic()  # the log's wall clock on the server's arrival times
    run = _crawl(big_blog, tmp_path, data_dir, DOWNLOAD_DELAY=1)
    assert run.returncode == 1 and "'finish_reason': 'disk_full'" in run.stderr, run.stderr[-3000:]
    error = next(line for line in run.stderr.splitlines() if "No space left on device" in line)
    # The log's time has whole seconds: the error was logged before the next second began.
    logged = datetime.strptime(error[:19], "%Y-%m-%d %H:%M:%S").timestamp() + 1
    later = [
        r.path for r in big_blog.requests if r.path.startswith("/posts/") and r.arrived + clock > logged + 1
    ]
    # At most one fetch let through as the disk filled (whichever write met it: a post's, the
    # crawl state's); before, every request let into the downloader (16) was fetched after the
    # error, each at its turn, a second apart. What was fetched and not committed is fetched
    # again by the next run.
    assert len(later) <= 1, later
    assert "Traceback" not in run.stderr


def test_a_line_cut_short_by_a_full_disk_is_removed(small_disk: Path) -> None:
    pipeline = OutputPipeline(small_disk / "data", "github_search")
    pipeline.open_spider()
    stored = 0
    with pytest.raises(DropItem):
        for i in range(1000):  # ~3 MB of lines for a 1 MB disk
            pipeline.process_item({"type": "repo", "repo": f"o/r{i}", "description": "x" * 3000})
            stored += 1
    assert pipeline.write_error is not None and pipeline.write_error.errno == errno.ENOSPC
    # Later items are refused without touching the file.
    size = (small_disk / "data" / "github_search" / "repo.jsonl").stat().st_size
    with pytest.raises(DropItem):
        pipeline.process_item({"type": "repo", "repo": "o/late", "description": "late"})
    pipeline.close_spider()
    raw = (small_disk / "data" / "github_search" / "repo.jsonl").read_bytes()
    assert len(raw) == size and raw.endswith(b"\n")
    assert [json.loads(line)["repo"] for line in raw.splitlines()] == [f"o/r{i}" for i in range(stored)]


_OTHER_WRITER = """
import json, os, sys
from pathlib import Path
from harvest.util.files import append_line
from harvest.util.jsonlines import replay_lines

path, stop = Path(sys.argv[1]), Path(sys.argv[2])
fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
print("ready", flush=True)
written, i = [], 0
while not stop.exists():
    try:
        append_line(fd, json.dumps({"by": "other", "i": i}).encode() + b"\\n", path, shared=True)
        written.append(i)
    except OSError:
        pass
    i += 1
print(json.dumps(written))
"""


def _grown(path: Path, size: int) -> bool:
    return path.stat().st_size != size


def test_a_line_cut_short_in_a_shared_file_never_takes_another_writers_lines(small_disk: Path) -> None:
    # Workers of one Redis crawl on one machine append to the same file. Here another process
    # appends small lines without pause while this one appends large lines into a disk that
    # fills up again and again: each large line is cut short, and taking its part back must
    # not cut the other process's lines, whenever they were appended.
    path = small_disk / "page.jsonl"
    path.touch()
    ballast = []
    for k in range(12):
        chunk = small_disk / f"ballast-{k}"
        chunk.write_bytes(b"\0" * 32768)
        ballast.append(chunk)
    while True:  # the rest of the disk full: every round starts from a full disk
        try:
            (small_disk / f"fill-{len(ballast)}").write_bytes(b"\0" * 4096)
            ballast.append(small_disk / f"fill-{len(ballast)}")
        except OSError:
            break
    stop = small_disk.parent / "stop"
    other = subprocess.Popen(
        [sys.executable, "-c", _OTHER_WRITER, str(path), str(stop)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=PROJECT_ROOT,
    )
    assert other.stdout is not None and other.stdout.readline() == "ready\n"
    mine: list[int] = []
    cut_short = 0
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        for k in range(12):
            size = path.stat().st_size
            ballast[k].unlink()
            # The other process writes into the room first (polled often: it fills it fast).
            wait_for(functools.partial(_grown, path, size), "the other writer's line", poll=0.001)
            for i in range(k * 100, k * 100 + 100):
                line = json.dumps({"by": "me", "i": i, "text": "x" * 20000}).encode() + b"\n"
                try:
                    append_line(fd, line, path, shared=True)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    cut_short += 1
                    break
                mine.append(i)
    finally:
        os.close(fd)
        stop.touch()
        out, _ = other.communicate(timeout=60)
    theirs = json.loads(out.splitlines()[-1])
    assert cut_short == 12 and mine and theirs
    # The fragments are blank lines, which harvest's readers (exports, replays) skip silently.
    records: list[dict[str, object]] = []
    bad: list[int] = []
    replay_lines(path, 0, records.append, bad_line=bad.append)
    assert not bad and sum(1 for line in path.read_bytes().splitlines() if line.isspace()) >= cut_short
    assert [r["i"] for r in records if r["by"] == "me"] == mine
    assert [r["i"] for r in records if r["by"] == "other"] == theirs
