"""A full disk under a two-worker crawl: the hand-off spool fails cleanly, nothing is lost.

``scrapy crawl blogs -s HARVEST_CRAWL_WORKERS=2`` (extraction off: each page written as fetched)
on a 1 MB tmpfs the test mounts (root only: skipped with the reason otherwise). The site's
sitemap lists long URLs: the worker that reads it hands half of them to the other through its
spool at once, so the spool is what fills the disk first. Each worker says once why it stopped,
naming the file, with no traceback (a spool write that failed was a "Spider error processing"
traceback per page); no spool is left with a half-written line. With room again the same
command finishes, and every page is written exactly once.

Also :class:`harvest.crawl.handoff.HandoffSpool` alone on the small disk: a failed send is cut back
to the last whole line, said once, and refused after; a status that cannot be written leaves
no temporary file.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from harvest.crawl.handoff import HandoffSpool
from harvest.state.partition import Partition
from tests import PROJECT_ROOT, read_jsonl
from tests.disks import resize_tmpfs
from tests.servers import LoopbackServer, Reply, loopback_server, octo_crawl_command

#: Pages listed by the sitemap; their URLs are padded so that the hand-off of the other worker's
#: half, written to the spool at once as the sitemap is read, outgrows the 1 MB disk by itself
#: (600 requests of ~2.1 KB), before the pages are fetched; the URLs stay under Scrapy's
#: URLLENGTH_LIMIT (2,083). With ~1.3 KB URLs the spool filled the disk only together with the
#: page lines, and under load the page lines met the full disk first.
PAGES = 1200
PAD = "p" * 1950


@pytest.fixture
def long_urls() -> Iterator[LoopbackServer]:
    """A site whose sitemap lists PAGES small pages at long URLs."""
    with loopback_server() as server:
        paths = [f"/posts/{i}?pad={PAD}" for i in range(PAGES)]
        locs = "".join(f"<url><loc>{server.base_url}{path}</loc></url>" for path in paths)
        server.add(
            "/sitemap.xml",
            Reply(
                body=f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                f"{locs}</urlset>",
                content_type="application/xml",
            ),
        )
        server.add("/", Reply(body="<html><body><p>home</p></body></html>"))
        for i, path in enumerate(paths):
            server.add(
                path,
                Reply(body=f"<html><head><title>Post {i}</title></head><body><p>post {i}</p></body></html>"),
            )
        yield server


def _command(tmp_path: Path, server: LoopbackServer, data_dir: Path) -> list[str]:
    cmd = octo_crawl_command(
        tmp_path,
        server.base_url,
        HARVEST_DATA_DIR=data_dir,
        HARVEST_CRAWL_WORKERS=2,
        # Commits at close only: what fills the disk is the spool, written as links are found.
        HARVEST_STATE_COMMIT_ITEMS=100000,
        HARVEST_STATE_COMMIT_REQUESTS=100000,
        HARVEST_STATE_COMMIT_SECONDS=0,
        CLOSESPIDER_TIMEOUT=120,
    )
    config = tmp_path / "config" / "blogs.yaml"
    config.write_text(
        f"sites:\n  - name: long\n    start_urls: ['{server.base_url}/']\n"
        f"    sitemaps: ['{server.base_url}/sitemap.xml']\n",
        encoding="utf-8",
    )
    return cmd


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)


def _whole_lines(folder: Path) -> None:
    for spool in folder.glob("*.spool"):
        raw = spool.read_bytes()
        assert raw == b"" or raw.endswith(b"\n"), f"{spool} ends in a half-written request"
    assert not list(folder.glob(".*.tmp")), "a temporary status file was left behind"


def _written(data_dir: Path) -> list[str]:
    folder = data_dir / "blogs"
    return [str(p["url"]) for k in range(2) for p in read_jsonl(folder / Partition(k, 2).output_file("page"))]


def test_a_full_disk_under_two_workers_stops_cleanly_and_a_rerun_loses_nothing(
    long_urls: LoopbackServer, small_disk: Path, tmp_path: Path
) -> None:
    data_dir = small_disk / "data"
    cmd = _command(tmp_path, long_urls, data_dir)
    first = _run(cmd)
    log = first.stderr
    assert first.returncode == 1, log[-4000:]
    assert "Traceback" not in log and "Spider error processing" not in log, log[-6000:]
    assert "'finish_reason': 'disk_full'" in log, log[-4000:]
    errors = [line for line in log.splitlines() if re.search(r"\] (ERROR|CRITICAL): ", line)]
    # The supervisor's summary is no second error: each worker said why in its own line.
    assert not [line for line in errors if "[harvest.crawl.workers]" in line], "\n".join(errors)
    said = errors
    # Once per worker that met the full disk, naming the file it could not write.
    assert 1 <= len(said) <= 2, "\n".join(errors)
    for line in said:
        assert "No space left on device" in line and str(data_dir) in line, line
    spool_error = [line for line in said if ".handoff/" in line and ".spool" in line]
    assert spool_error, f"the spool was not what filled the disk: {said}"
    _whole_lines(data_dir / "state" / "blogs.handoff")
    before = _written(data_dir)
    assert len(before) < PAGES

    # Room again: the same command resumes and finishes; each page written once.
    resize_tmpfs(small_disk, "64m")
    second = _run(cmd)
    assert second.returncode == 0, second.stderr[-4000:]
    assert "Traceback" not in second.stderr, second.stderr[-4000:]
    written = _written(data_dir)
    assert len(written) == len(set(written)), "a page was written twice"
    expected = {f"{long_urls.base_url}/posts/{i}?pad={PAD}" for i in range(PAGES)}
    assert expected <= set(written)
    assert set(before) <= set(written)
    _whole_lines(data_dir / "state" / "blogs.handoff")


def test_a_spool_that_fills_the_disk_is_cut_to_whole_lines_and_said_once(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = small_disk / "state" / "blogs.handoff"
    spool = HandoffSpool(folder, Partition(0, 2), run="r1")
    spool.open()
    blob = b"x" * 3000  # ~4 KB a line: a few hundred fill the 1 MB disk
    sent = 0
    with caplog.at_level(logging.ERROR, logger="harvest.crawl.handoff"):
        while spool.send(1, blob, bytes(20)):
            sent += 1
            assert sent < 1000, "the disk never filled"
        assert not spool.send(1, blob, bytes(20))  # refused after, without writing
        assert not spool.write_status(True, {1: 0})
        spool.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert f"Cannot write {spool.path(0, 1)}: No space left on device" in errors[0]
    raw = spool.path(0, 1).read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == sent
    assert not list(folder.glob(".*.tmp"))
    # What was sent before is read whole by the other worker.
    reader = HandoffSpool(folder, Partition(1, 2), run="r1")
    handed, end = reader.read(0, 0)
    assert len(handed) == sent and end == len(raw)
    assert {h.blob for h in handed} == {blob}


def test_a_status_that_cannot_be_written_leaves_no_temporary_file(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = small_disk / "state" / "blogs.handoff"
    spool = HandoffSpool(folder, Partition(0, 2), run="r1")
    spool.open()
    _fill(small_disk)
    with caplog.at_level(logging.ERROR, logger="harvest.crawl.handoff"):
        assert not spool.write_status(False, {1: 123})
    assert [f.name for f in folder.iterdir()] == []
    assert "No space left on device" in caplog.records[-1].getMessage()


def _fill(disk: Path) -> None:
    """Leave no byte free on ``disk``."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        with pytest.raises(OSError):
            while True:
                os.write(fd, b"\0" * 65536)
    finally:
        os.close(fd)


@pytest.mark.parametrize("command", ["crawl", "fleet"])
def test_a_two_worker_crawl_started_on_a_full_disk_says_so_in_one_line(
    long_urls: LoopbackServer, small_disk: Path, tmp_path: Path, command: str
) -> None:
    """The number of workers is recorded before any worker starts: that write met the full disk
    with a traceback. Now one line names the record, exit 1, nothing started, no temporary file."""
    data_dir = small_disk / "data"
    data_dir.mkdir()
    _fill(small_disk)
    cmd = _command(tmp_path, long_urls, data_dir)
    if command == "fleet":
        # The same -s settings but the data folder and workers, which the fleet's flags give.
        start = cmd.index("blogs") + 1
        values = [
            v
            for v in cmd[start + 1 :: 2]
            if not v.startswith(("HARVEST_DATA_DIR=", "HARVEST_CRAWL_WORKERS="))
        ]
        settings = [arg for value in values for arg in ("-s", value)]
        cmd = [cmd[0], "run_all.py", "--once", "--no-live", "--spiders", "blogs", "--replicas", "blogs=2"]
        cmd += ["--data-dir", str(data_dir), *settings]
    result = _run(cmd)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    errors = [line for line in out.splitlines() if "error:" in line.lower()]
    record = data_dir / "state" / "blogs.workers.json"
    assert errors == [
        f"{'scrapy crawl' if command == 'crawl' else 'run_all.py'}: error: cannot write {record}: "
        "No space left on device"
    ], out[-3000:]
    assert long_urls.requests == []
    assert sorted(p.name for p in data_dir.rglob("*")) == ["state"]
