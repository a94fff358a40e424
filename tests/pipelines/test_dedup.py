"""DedupPipeline over the real SQLite store: what is dropped, what is stored, across runs."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured

from harvest.pipelines.dedup import DedupPipeline
from tests import read_jsonl
from tests.state.harness import Run, document, make_crawler, response_for, search_repo, trending

TEXT = "Harvest collects articles.\n\nIt stores each one once, and keeps it fresh."


def lines(tmp_path: Path, spider: str = "spider", item_type: str = "document") -> list[dict[str, object]]:
    return read_jsonl(tmp_path / spider / f"{item_type}.jsonl")


def test_a_document_stored_in_an_earlier_run_is_dropped(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT))
    run.close()

    run = Run(tmp_path)
    assert not run.feed(document("https://example.org/a", TEXT))
    assert not run.feed(document("https://example.org/a#comments", TEXT))  # same canonical URL
    run.close()
    assert run.stats["harvest/dedup/url_seen"] == 2
    assert run.drops[0].startswith("document already seen: document|https://example.org/a|")
    assert len(lines(tmp_path)) == 1


def test_same_text_with_other_bytes_under_another_url_is_content_seen(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT))
    run.close()

    run = Run(tmp_path)
    reflowed = "  Harvest collects\r\narticles.\r\n\r\nIt stores each one   once, and keeps it fresh.\n"
    assert not run.feed(document("https://mirror.example.net/copy-of-a", reflowed))
    run.close()
    assert run.stats["harvest/dedup/content_seen"] == 1
    assert "document content already seen" in run.drops[0]
    assert "https://example.org/a" in run.drops[0]  # says where the stored copy is
    assert [d["url"] for d in lines(tmp_path)] == ["https://example.org/a"]


def test_duplicates_within_one_uncommitted_batch_are_dropped(tmp_path: Path) -> None:
    run = Run(tmp_path, HARVEST_STATE_COMMIT_ITEMS=1000)
    assert run.feed(document("https://example.org/a", TEXT))
    assert not run.feed(document("https://example.org/b", TEXT))
    assert run.feed(trending("octo/cat", "2024-05-01T10:00:00Z"))
    assert not run.feed(trending("Octo/Cat", "2024-05-01T18:00:00Z"))
    run.close()
    assert run.stats["harvest/dedup/stored"] == 2
    assert run.stats["harvest/dedup/content_seen"] == 1
    assert run.stats["harvest/dedup/url_seen"] == 1


def test_another_spiders_document_is_not_stored_again(tmp_path: Path) -> None:
    trending_run = Run(tmp_path, "trending")
    assert trending_run.feed(document("https://github.com/octo/cat#readme", TEXT, source="trending"))
    trending_run.close()

    search_run = Run(tmp_path, "github_search")
    assert not search_run.feed(document("https://raw.githubusercontent.com/octo/cat/HEAD/README.md", TEXT))
    search_run.close()
    assert search_run.stats["harvest/dedup/content_seen"] == 1
    assert "(spider trending)" in search_run.drops[0]
    assert lines(tmp_path, "github_search") == []

    # Switched off, each spider keeps its own copy.
    solo = Run(tmp_path, "blogs", HARVEST_DEDUP_CROSS_SPIDER=False)
    assert solo.feed(document("https://blog.example.org/readme-copy", TEXT))
    solo.close()


def test_a_claim_is_visible_before_the_commit(tmp_path: Path) -> None:
    trending_run = Run(tmp_path, "trending", HARVEST_STATE_COMMIT_ITEMS=1000)
    search_run = Run(tmp_path, "github_search", HARVEST_STATE_COMMIT_ITEMS=1000)
    assert trending_run.feed(document("https://github.com/octo/cat#readme", TEXT))
    # Nothing committed yet by trending; the claim is already visible.
    assert not search_run.feed(document("https://raw.githubusercontent.com/octo/cat/HEAD/README.md", TEXT))
    trending_run.close()
    search_run.close()
    assert search_run.stats["harvest/dedup/content_seen"] == 1


RACE_TEXTS = 300


def _race(data_dir: str, spider: str, barrier: Any, result: Any) -> None:
    """One spider's process: wait for the other, then store the same texts as fast as it can."""
    run = Run(Path(data_dir), spider, HARVEST_STATE_COMMIT_ITEMS=7)
    order = range(RACE_TEXTS) if spider == "trending" else reversed(range(RACE_TEXTS))
    barrier.wait(60)
    stored = [n for n in order if run.feed(document(f"https://{spider}.example.org/{n}", f"{TEXT} #{n}"))]
    run.close()
    result.put((spider, stored))


def test_spiders_running_at_the_same_time_do_not_both_store_a_text(tmp_path: Path) -> None:
    """Two processes started together race for the same texts: each is stored by exactly one."""
    ctx = multiprocessing.get_context("spawn")
    barrier, result = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_race, args=(str(tmp_path), name, barrier, result))
             for name in ("trending", "github_search")]  # fmt: skip
    for proc in procs:
        proc.start()
    stored = dict(result.get(timeout=120) for _ in procs)
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    both = set(stored["trending"]) & set(stored["github_search"])
    assert not both, f"stored by both spiders: {sorted(both)[:5]}"
    assert set(stored["trending"]) | set(stored["github_search"]) == set(range(RACE_TEXTS))
    assert len(lines(tmp_path, "trending")) + len(lines(tmp_path, "github_search")) == RACE_TEXTS


def test_a_changed_document_is_stored_again_and_an_unchanged_one_is_not(tmp_path: Path) -> None:
    url = "https://example.org/guide"
    run = Run(tmp_path)
    assert run.feed(document(url, "Version one of the guide."))
    run.close()
    run = Run(tmp_path)
    assert not run.feed(document(url, "Version one of the guide."))  # revisit, unchanged
    assert run.feed(document(url, "Version two of the guide, with a new section."))  # changed
    run.close()
    assert [d["content_hash"] for d in lines(tmp_path)] == [
        document(url, "Version one of the guide.").content_hash,
        document(url, "Version two of the guide, with a new section.").content_hash,
    ]
    md = Path(str(lines(tmp_path)[-1]["path"])).read_text(encoding="utf-8")
    assert "Version two" in md


def test_trending_and_search_natural_keys(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(trending("octo/cat", "2024-05-01T10:00:00Z"))
    assert run.feed(trending("octo/cat", "2024-05-01T10:00:00Z", since="weekly"))
    assert run.feed(trending("octo/cat", "2024-05-01T10:00:00Z", language="python"))
    assert run.feed(search_repo("octo/cat", "topic:crawler", "2024-05-01T10:00:00Z"))
    assert run.feed(search_repo("octo/cat", "topic:scrapy", "2024-05-01T10:00:00Z"))
    run.close()

    run = Run(tmp_path)
    assert not run.feed(trending("octo/cat", "2024-05-01T23:59:59Z"))  # same UTC day
    assert run.feed(trending("octo/cat", "2024-05-02T00:00:01Z"))  # a new day, a new observation
    assert not run.feed(search_repo("OCTO/cat", "topic:crawler", "2024-05-01T12:00:00Z"))
    assert run.feed(search_repo("octo/cat", "topic:crawler", "2024-05-02T12:00:00Z"))
    run.close()
    assert run.drops[0] == "trending_repo already seen: trending_repo|octo/cat|daily|||2024-05-01"
    assert len(lines(tmp_path, item_type="trending_repo")) == 4
    assert len(lines(tmp_path, item_type="repo")) == 3


def test_harvest_dedup_false_lets_items_through(tmp_path: Path) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT))
    bypass = response_for("https://example.org/feed", harvest_dedup=False)
    assert run.feed(document("https://example.org/a", TEXT), response=bypass)
    run.close()
    assert run.stats["harvest/dedup/bypassed"] == 1
    assert len(lines(tmp_path)) == 2


@pytest.mark.parametrize("how", ["argument", "setting"])
def test_reset_starts_clean_and_keeps_the_old_state(tmp_path: Path, how: str) -> None:
    run = Run(tmp_path)
    assert run.feed(document("https://example.org/a", TEXT))
    run.close()

    run = Run(tmp_path, reset=True) if how == "argument" else Run(tmp_path, HARVEST_DEDUP_RESET=True)
    assert run.feed(document("https://example.org/a", TEXT))
    run.close()
    assert len(lines(tmp_path)) == 2
    assert len(list((tmp_path / "state").glob("spider.reset-*"))) == 1


def test_not_configured_without_state(tmp_path: Path) -> None:
    with pytest.raises(NotConfigured, match="HARVEST_STATE_ENABLED"):
        DedupPipeline.from_crawler(make_crawler(tmp_path, HARVEST_STATE_ENABLED=False))
