"""``scrapy export`` puts every committed row into a folder once, whatever the filters and failures.

A real blog on 127.0.0.1 is crawled in two rounds (six posts, then six more a few seconds later);
a copy of the data folder after round one stands for "before the new rows came". Exports with
and without ``--since`` are run in each order into one folder, as a user runs them
(``python -m scrapy export`` subprocesses), and the folder's parts must hold each post exactly
once. Then the failures: a full disk (the output on a size-limited tmpfs, as
tests/faults/test_disk_full.py mounts it) and a kill at each step of the write (``strace``
injecting SIGKILL at a system call): one ERROR line and exit code 1, nothing left behind, and the
next export completes the folder.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from tests import PROJECT_ROOT, read_jsonl, require, scrapy_crawl
from tests.servers import LoopbackServer, Reply, loopback_server

POSTS = 6
ERROR_RE = re.compile(r"\] (ERROR|CRITICAL): ")


def _post(i: int) -> Reply:
    # ~12 KB of text per post that zstd cannot shrink to nothing: a part larger than a few pages.
    words = " ".join(f"w{(i * 7919 + j * 104729) % 1000003:x}" for j in range(1500))
    return Reply(
        body=f"<html><head><title>Post {i}</title></head><body>"
        f"<article><h1>Post {i}</h1><p>{words}</p></article></body></html>"
    )


def _index(server: LoopbackServer, count: int) -> None:
    links = "".join(f'<a href="/posts/{i}">post {i}</a>' for i in range(count))
    server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
    for i in range(count):
        server.add(f"/posts/{i}", _post(i))


def _crawl(server: LoopbackServer, root: Path) -> None:
    config = root / "config"
    config.mkdir(exist_ok=True)
    site = {"name": "blog", "start_urls": [server.base_url + "/"], "article_patterns": ["/posts/"]}
    (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    result = scrapy_crawl(
        "blogs",
        settings={
            "HARVEST_CONFIG_DIR": config,
            "HARVEST_DATA_DIR": root / "data",
            "AUTOTHROTTLE_ENABLED": False,
            "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
            "CLOSESPIDER_TIMEOUT": 90,
        },
        timeout=120,
    )
    assert result.returncode == 0 and "'finish_reason': 'finished'" in result.stderr, result.stderr[-3000:]


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Data after round one (a copy), data after round two, each round's URLs and the date between."""
    root = tmp_path_factory.mktemp("blog")
    with loopback_server() as server:
        _index(server, POSTS)
        _crawl(server, root)
        shutil.copytree(root / "data", root / "data1")
        first = {str(d["url"]) for d in read_jsonl(root / "data" / "blogs" / "document.jsonl")}
        # Dates have whole seconds: round two starts in a later second than round one ended.
        last = max(str(d["fetched_at"]) for d in read_jsonl(root / "data" / "blogs" / "document.jsonl"))
        while time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) <= last:
            time.sleep(0.1)
        _index(server, 2 * POSTS)
        _crawl(server, root)
    docs = read_jsonl(root / "data" / "blogs" / "document.jsonl")
    second = {str(d["url"]) for d in docs} - first
    assert len(first) == len(second) == POSTS
    since = min(str(d["fetched_at"]) for d in docs if d["url"] in second)
    assert all(str(d["fetched_at"]) < since for d in docs if d["url"] in first)
    return {"data1": root / "data1", "data": root / "data", "first": first, "second": second, "since": since}


def scrapy_export(
    data: Path, *args: str, strace: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", "export", *args, "-s", f"HARVEST_DATA_DIR={data}"]
    return subprocess.run(
        [*(strace or []), *cmd], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )


def _exported(data: Path, out: Path, *args: str) -> int:
    """Export and return how many documents that export said it wrote."""
    result = scrapy_export(data, "blogs", "--output", str(out), *args)
    assert result.returncode == 0, result.stderr[-3000:]
    assert not [line for line in result.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    if "no new rows" in result.stdout:
        return 0
    found = re.search(r"Exported ([\d,]+) document", result.stdout)
    assert found, result.stdout
    return int(found.group(1).replace(",", ""))


def _urls(out: Path) -> list[str]:
    """Every row's URL across the folder's parts (a URL twice means a row exported twice)."""
    if not (out / "document").is_dir():
        return []
    return [str(u) for u in pd.read_parquet(out / "document")["url"]]


def _assert_once(out: Path, rounds: dict[str, Any]) -> None:
    urls = _urls(out)
    assert sorted(urls) == sorted(rounds["first"] | rounds["second"])  # each once: none lost, none twice
    assert f"| document | {2 * POSTS} |" in (out / "README.md").read_text(encoding="utf-8")
    assert not [p for p in out.rglob("*") if p.name.startswith(".tmp-") or p.name.endswith(".tmp")]


def test_filtered_then_unfiltered(rounds: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "dataset"
    # The case: a --since that keeps nothing, then a plain export into the same folder.
    assert _exported(rounds["data"], out, "--since", "2100-01-01") == 0
    assert _exported(rounds["data"], out) == 2 * POSTS
    _assert_once(out, rounds)
    # A --since that keeps round two only, then a plain export: round one follows.
    out2 = tmp_path / "dataset2"
    assert _exported(rounds["data"], out2, "--since", rounds["since"]) == POSTS
    assert set(_urls(out2)) == rounds["second"]
    assert _exported(rounds["data"], out2) == POSTS
    assert _exported(rounds["data"], out2) == 0
    _assert_once(out2, rounds)


def test_unfiltered_then_filtered(rounds: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "dataset"
    assert _exported(rounds["data1"], out) == POSTS  # before round two
    assert _exported(rounds["data"], out, "--since", rounds["since"]) == POSTS
    assert _exported(rounds["data"], out, "--since", "2000-01-01") == 0
    assert _exported(rounds["data"], out) == 0
    _assert_once(out, rounds)


def test_two_different_filters(rounds: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "dataset"
    assert _exported(rounds["data1"], out, "--since", "2100-01-01") == 0
    assert _exported(rounds["data"], out, "--since", rounds["since"]) == POSTS  # round two
    assert _exported(rounds["data"], out, "--since", "2100-01-01") == 0
    assert _exported(rounds["data"], out, "--since", "2000-01-01") == POSTS  # round one, left out before
    assert _exported(rounds["data"], out) == 0
    _assert_once(out, rounds)


def test_one_spider_filtered_then_all(rounds: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "dataset"
    assert _exported(rounds["data"], out, "--since", rounds["since"]) == POSTS
    every = scrapy_export(rounds["data"], "all", "--output", str(out))
    assert every.returncode == 0 and f"Exported {POSTS} document" in every.stdout, every.stderr[-3000:]
    _assert_once(out, rounds)


# --- failures -----------------------------------------------------------------------------


def fill(mount: Path, room: int = 8192) -> Path:
    """Fill the file system at ``mount`` but for ``room`` bytes; returns the filler (delete it: room)."""
    filler = mount / "filler"
    with filler.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError:
            pass
    with filler.open("r+b") as fh:
        fh.truncate(max(0, filler.stat().st_size - room))
    return filler


def _leftovers(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.name.startswith(".") and p.is_file())


def test_a_full_disk_fails_the_export_cleanly_and_the_next_one_completes(
    rounds: dict[str, Any], small_disk: Path
) -> None:
    out = small_disk / "dataset"
    filler = fill(small_disk)
    for fmt in ("parquet", "jsonl"):
        folder = out / fmt
        result = scrapy_export(rounds["data"], "blogs", "--output", str(folder), "--format", fmt)
        assert result.returncode == 1, result.stderr[-3000:]
        assert "Traceback" not in result.stderr, result.stderr[-5000:]
        errors = [line for line in result.stderr.splitlines() if ERROR_RE.search(line)]
        assert len(errors) == 1, result.stderr[-3000:]
        assert f"Cannot write {folder / 'document' / 'part-00000'}.{fmt}: no space left" in errors[0]
        assert _leftovers(folder) == []  # no temporary part, no state: as if never run
        assert not list(folder.rglob("part-*"))
    filler.unlink()
    assert _exported(rounds["data"], out / "parquet") == 2 * POSTS
    _assert_once(out / "parquet", rounds)


def strace_kill(kill_at: str) -> list[str]:
    """The command line prefix that kills a command at a system call (strace fault injection)."""
    require(shutil.which("strace"), "strace is not installed (apt-get install strace)")
    syscall = kill_at.split(":")[0]
    return ["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={syscall}", "-e", f"inject={kill_at}"]


@pytest.mark.parametrize(
    ("kill_at", "left"),
    [
        # In the part's write (after its data, before its rename): a temporary part.
        ("fsync:signal=KILL", [".tmp-"]),
        # Between the part's rename and the state's: a part the state does not know, and the
        # state's temporary file.
        ("rename:signal=KILL:when=2", ["part-00001.parquet", ".tmp-"]),
    ],
)
def test_a_killed_export_leaves_nothing_the_next_one_keeps(
    rounds: dict[str, Any], tmp_path: Path, kill_at: str, left: list[str]
) -> None:
    out = tmp_path / "dataset"
    assert _exported(rounds["data1"], out) == POSTS
    killed = scrapy_export(rounds["data"], "blogs", "--output", str(out), strace=strace_kill(kill_at))
    assert killed.returncode == 137 or killed.returncode < 0, killed.stderr[-3000:]
    names = [p.name for p in out.rglob("*") if p.is_file()]
    for prefix in left:  # what the kill left, as the issue found it
        assert any(name.startswith(prefix) for name in names), names
    state = json.loads((out / ".harvest-export.json").read_text(encoding="utf-8"))
    assert state["parts"] == {"document": 1}  # the killed export recorded nothing
    assert _exported(rounds["data"], out) == POSTS
    parts = sorted(p.name for p in (out / "document").iterdir())
    assert parts == ["part-00000.parquet", "part-00001.parquet"]
    _assert_once(out, rounds)


def test_an_export_into_a_folder_another_export_writes_is_refused(
    rounds: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "dataset"
    out.mkdir()
    fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # what a running export holds
        busy = scrapy_export(rounds["data"], "blogs", "--output", str(out))
    finally:
        os.close(fd)
    assert busy.returncode == 2, busy.stderr[-3000:]
    assert f"{out} is being written by another process" in busy.stderr
    assert "Traceback" not in busy.stderr and list(out.iterdir()) == []
    assert _exported(rounds["data"], out) == 2 * POSTS
