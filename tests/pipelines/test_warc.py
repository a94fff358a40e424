"""WARC archive of a blogs crawl killed with kill -9 half-way, then resumed.

Every WARC is read back with warcio's ArchiveIterator: every response record's id names exactly
one stored document, every document names a record that exists, digests verify, nothing twice.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import yaml
from warcio.archiveiterator import ArchiveIterator

from harvest.items import DocumentItem
from harvest.middlewares.warc import ITEM_ATTR, WarcCapture
from harvest.pipelines.warc import WarcPipeline
from tests import PROJECT_ROOT, read_committed_jsonl, wait_for
from tests.servers import LoopbackServer, hold_posts_after, octo_post_urls
from tests.spiders.test_blogs import assert_finished, crawl

WARC_SETTINGS = {"HARVEST_WARC_ENABLED": True, "HARVEST_WARC_MAX_SIZE": 400_000}


def test_killed_crawl_warc_records_match_items_once(octopress: LoopbackServer, tmp_path: Path) -> None:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    site = {"name": "octo", "start_urls": [octopress.base_url + "/"]}
    (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
    data = tmp_path / "data"
    jsonl = data / "blogs" / "document.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs"]
    for key, value in {
        "HARVEST_CONFIG_DIR": config_dir,
        "HARVEST_DATA_DIR": data,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
        "HARVEST_STATE_COMMIT_ITEMS": 7,
        "CLOSESPIDER_TIMEOUT": 60,
        "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
        **WARC_SETTINGS,
    }.items():
        cmd += ["-s", f"{key}={value}"]
    # The kill must land half-way: after 40 posts the server holds every further post until then.
    with hold_posts_after(octopress, 40):
        proc = subprocess.Popen(cmd, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            written = lambda: len(read_committed_jsonl(jsonl)) >= 25 or proc.poll() is not None  # noqa: E731
            wait_for(written, "25 lines written", guard=120)
            assert proc.poll() is None, "the crawl ended before 25 lines were written"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert len(read_committed_jsonl(jsonl)) < 109, "the crawl must be killed half-way"
    result, docs, stats = crawl(tmp_path, [site], settings=WARC_SETTINGS)
    assert_finished(result)
    assert " WARNING" not in result.stderr, result.stderr[-3000:]
    assert {d["url"] for d in docs} == octo_post_urls(octopress.base_url)
    assert len(docs) == 109

    files = sorted((data / "blogs" / "warc").glob("*.warc.gz"))
    assert len(files) > 1, "rotated at HARVEST_WARC_MAX_SIZE"
    assert all(re.fullmatch(r"blogs-\d{8}T\d{6}Z-\d{5}\.warc\.gz", f.name) for f in files)
    responses: dict[str, tuple[str, str]] = {}
    concurrent: list[str] = []
    for path in files:
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh, check_digests="raise"):
                record_id = record.rec_headers.get_header("WARC-Record-ID")
                if record.rec_type == "response":
                    assert record_id not in responses
                    assert record.http_headers.get_statuscode() == "200"
                    assert record.rec_headers.get_header("WARC-Payload-Digest", "").startswith("sha1:")
                    body = record.content_stream().read()
                    assert b"<html" in body.lower()
                    responses[record_id] = (
                        str(path.relative_to(data)),
                        record.rec_headers.get_header("WARC-Target-URI"),
                    )
                elif record.rec_type == "request":
                    concurrent.append(record.rec_headers.get_header("WARC-Concurrent-To"))
        # Each file is a sequence of whole gzip members.
        assert gzip.decompress(path.read_bytes())
    named = Counter(d["warc_record_id"] for d in docs)
    assert set(named) == set(responses), "every record names an item and every item a record"
    assert set(named.values()) == {1}
    assert sorted(concurrent) == sorted(responses)
    for doc in docs:
        assert responses[doc["warc_record_id"]] == (doc["warc_file"], doc["url"])


def _capture(n: int) -> WarcCapture:
    return WarcCapture(
        url=f"http://blog.example/p{n}/",
        method="GET",
        request_headers=[("Accept", "text/html")],
        request_body=b"",
        status=200,
        protocol="HTTP/1.1",
        response_headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        body=gzip.compress(f"<html><body>post {n}</body></html>".encode()),
    )


def test_reconcile_cuts_records_no_line_names_and_a_torn_tail(tmp_path: Path) -> None:
    pipeline = WarcPipeline(tmp_path, "blogs", max_size=1 << 20)
    pipeline.open_spider()
    items = []
    for n in range(3):
        item = DocumentItem(
            url=f"http://blog.example/p{n}/",
            title=None,
            path="x.md",
            content_hash=str(n),
            fetched_at="2026-01-01T00:00:00Z",
            source="blog",
        )
        setattr(item, ITEM_ATTR, _capture(n))
        items.append(pipeline.process_item(item))
    pipeline.close_spider()
    [warc] = (tmp_path / "blogs" / "warc").glob("*.warc.gz")
    # The kill: the third item's line was never written, and half a fourth record was.
    lines = [json.dumps({"type": "document", "warc_record_id": i.warc_record_id}) for i in items[:2]]
    (tmp_path / "blogs" / "document.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with warc.open("ab") as fh:
        fh.write(warc.read_bytes()[:300])
    WarcPipeline(tmp_path, "blogs").reconcile({})
    with warc.open("rb") as fh:
        records = [
            (r.rec_type, r.rec_headers.get_header("WARC-Record-ID"), r.raw_stream.read())
            for r in ArchiveIterator(fh, check_digests="raise")
        ]
    responses = [(rid, body) for kind, rid, body in records if kind == "response"]
    assert [rid for rid, _ in responses] == [i.warc_record_id for i in items[:2]]
    # The body as received: still gzip-encoded, as the server sent it.
    assert gzip.decompress(responses[0][1]) == b"<html><body>post 0</body></html>"
    assert len(records) == 4
