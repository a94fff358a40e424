"""A full disk: the crawl stops with a clear error, what it wrote is intact, and a rerun resumes.

The data folder is a tmpfs with a size limit that the test mounts itself (root only; skipped
with the reason otherwise) and unmounts afterwards.
"""

from __future__ import annotations

import errno
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from scrapy.exceptions import DropItem

from harvest.pipelines.output import OutputPipeline
from tests import read_jsonl, scrapy_crawl
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


def _crawl(server: LoopbackServer, tmp_path: Path, data_dir: Path) -> subprocess.CompletedProcess[str]:
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
