"""NearDupPipeline without a crawl: flag, drop, off, the persisted index and catching up after a kill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scrapy.exceptions import DropItem, NotConfigured

from harvest.items import DocumentItem
from harvest.pipelines.neardup import NearDupPipeline
from harvest.pipelines.output import render_markdown
from harvest.state.neardup import NearDupIndex
from harvest.state.partition import Partition
from tests import get_crawler

TEXT = " ".join(f"Parágrafo {i}: o crawler guarda cada artigo uma vez, sem perder nada." for i in range(40))


def _doc(url: str, text: str) -> DocumentItem:
    return DocumentItem(
        url=url,
        title="t",
        path="x.md",
        content_hash=url,
        fetched_at="2026-01-01T00:00:00Z",
        source="blog",
        content=text,
    )


def _pipeline(tmp_path: Path, mode: str = "flag") -> NearDupPipeline:
    pipeline = NearDupPipeline(tmp_path / "state", tmp_path / "blogs", "blogs", mode=mode)
    pipeline.open_spider()
    return pipeline


def test_flag_then_persisted_across_runs(tmp_path: Path) -> None:
    pipeline = _pipeline(tmp_path)
    first = pipeline.process_item(_doc("http://a.example/1", TEXT))
    assert first.near_duplicate_of is None
    pipeline.item_scraped(first)
    copy = pipeline.process_item(_doc("http://b.example/copy", TEXT + " Copiado."))
    assert copy.near_duplicate_of == "http://a.example/1"
    # A new version of the same URL is not a near-duplicate of itself.
    assert pipeline.process_item(_doc("http://a.example/1", TEXT + " Editado.")).near_duplicate_of is None
    other = pipeline.process_item(_doc("http://a.example/2", "Um texto completamente diferente " * 20))
    assert other.near_duplicate_of is None
    pipeline.close_spider()

    again = _pipeline(tmp_path, mode="drop")
    with pytest.raises(DropItem, match="near-duplicate"):
        again.process_item(_doc("http://c.example/3", "Prefácio. " + TEXT))
    again.close_spider()
    index = NearDupIndex.open(tmp_path / "state")
    assert index.size() == 1  # only the original; a dropped or flagged copy is not indexed
    index.close()


def test_lines_written_before_a_kill_are_indexed_on_open(tmp_path: Path) -> None:
    folder = tmp_path / "blogs"
    folder.mkdir()
    lines = []
    for n, text in enumerate([TEXT, "Outro artigo sobre outra coisa, bem diferente. " * 20]):
        md = folder / f"{n}.md"
        md.write_text(render_markdown({"url": f"http://a.example/{n}"}, text), encoding="utf-8")
        lines.append(
            json.dumps(
                {"type": "document", "url": f"http://a.example/{n}", "path": str(md), "content_hash": f"h{n}"}
            )
        )
    # The second line was cut by the kill: not indexed (the output pipeline truncates it).
    (folder / "document.jsonl").write_text(lines[0] + "\n" + lines[1][:30], encoding="utf-8")
    pipeline = _pipeline(tmp_path)
    assert pipeline.index is not None and pipeline.index.size() == 1
    assert pipeline.index.offset("blogs") == len(lines[0]) + 1
    copy = pipeline.process_item(_doc("http://b.example/copy", TEXT + " fim"))
    assert copy.near_duplicate_of == "http://a.example/0"
    pipeline.close_spider()
    assert _pipeline(tmp_path).catch_up() == 0  # idempotent


def test_a_worker_of_a_partitioned_crawl_catches_up_on_its_own_document_file(tmp_path: Path) -> None:
    folder = tmp_path / "blogs"
    folder.mkdir()
    md = folder / "0.md"
    md.write_text(render_markdown({"url": "http://a.example/0"}, TEXT), encoding="utf-8")
    line = json.dumps(
        {"type": "document", "url": "http://a.example/0", "path": str(md), "content_hash": "h0"}
    )
    # Worker 1 of 2 wrote this line before a kill; worker 0's file and the one-process file differ.
    (folder / Partition(1, 2).output_file("document")).write_text(line + "\n", encoding="utf-8")
    worker = NearDupPipeline(tmp_path / "state", folder, "blogs", partition=Partition(1, 2))
    worker.open_spider()
    assert worker.index is not None and worker.index.size() == 1
    assert worker.index.offset("blogs.w1") == len(line) + 1
    assert worker.index.offset("blogs") == 0  # a one-process crawl's progress is its own
    # The other worker shares the index (near-duplicates are found across workers).
    other = NearDupPipeline(tmp_path / "state", folder, "blogs", partition=Partition(0, 2))
    other.open_spider()
    assert other.catch_up() == 0
    assert (
        other.process_item(_doc("http://b.example/copy", TEXT + " fim")).near_duplicate_of
        == "http://a.example/0"
    )
    other.close_spider()
    worker.close_spider()


def test_off_and_bad_mode() -> None:
    with pytest.raises(NotConfigured):
        NearDupPipeline.from_crawler(get_crawler(settings={"HARVEST_NEAR_DUP": "off"}))
    with pytest.raises(ValueError, match="HARVEST_NEAR_DUP"):
        NearDupPipeline(Path("."), Path("."), "x", mode="maybe")


@pytest.mark.redis
def test_redis_index_shared_and_persisted(tmp_path: Path) -> None:
    from tests.scale.redis_server import RedisServer, require_redis_server

    require_redis_server()
    server = RedisServer(tmp_path / "redis").start()
    try:
        first = NearDupPipeline(tmp_path / "unused", tmp_path / "blogs", "blogs", state_url=server.url)
        first.open_spider()
        item = first.process_item(_doc("http://a.example/1", TEXT))
        first.item_scraped(item)
        first.close_spider()
        # Another spider (another machine, same Redis) meets a near copy.
        other = NearDupPipeline(
            tmp_path / "elsewhere", tmp_path / "trending", "trending", state_url=server.url
        )
        other.open_spider()
        assert other.process_item(_doc("http://b.example/2", TEXT + " Copiado.")).near_duplicate_of == (
            "http://a.example/1"
        )
        assert other.index is not None and other.index.size() == 1
        assert other.process_item(_doc("http://a.example/1", TEXT + " Editado.")).near_duplicate_of is None
        other.close_spider()
    finally:
        server.stop()


def test_an_index_failure_stops_the_crawl_instead_of_losing_the_page(tmp_path: Path) -> None:
    """Redis goes away during a lookup while the crawl state (SQLite here) still works: the item
    is not stored and the crawl is abandoned as if killed there, so its request is never counted
    done (the next run fetches the page again) rather than dropped for good."""
    from tests.scale.redis_server import RedisServer, require_redis_server
    from tests.state.harness import Run

    require_redis_server()
    run = Run(tmp_path / "data", "blogs")
    # No engine here to close: without its hook, an abandoned state only stops committing.
    run.state.commits._on_fatal = None
    server = RedisServer(tmp_path / "redis", password="pw-secret").start()
    pipeline = NearDupPipeline(
        tmp_path / "unused", tmp_path / "blogs", "blogs", state_url=server.url, state=run.state
    )
    pipeline.open_spider()
    server.stop()
    with pytest.raises(DropItem, match="not stored"):
        pipeline.process_item(_doc("http://a.example/1", TEXT))
    assert run.state.abandoned == "state_error"
