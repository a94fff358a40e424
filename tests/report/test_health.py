"""Crawl health from real ``scrapy crawl`` rounds: what a user without the fleet reads, and why.

A plain ``scrapy crawl`` leaves a round record under ``logs/<spider>/`` (tests/report/conftest.py
runs four). The section must count those rounds and their items; when the crawl left no record (a
crawl killed before it closed, a log cut short) it must say why the rounds table is empty rather
than show nothing.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from harvest.report.crawling import health_section
from harvest.report.health import load_health
from tests.report.conftest import DAYS, DemoRounds


def _lines(folder: Path) -> int:
    lines = (line for path in folder.glob("*.jsonl") for line in path.read_bytes().splitlines())
    return sum(1 for line in lines if line.strip())


def _bytes(folder: Path) -> int:
    return sum(os.path.getsize(Path(d) / f) for d, _, files in os.walk(folder) for f in files)


def test_each_scrapy_crawl_is_a_round_with_the_items_it_stored(demo_rounds: DemoRounds) -> None:
    data = demo_rounds.data
    health = load_health(data)
    by_spider = {s: [r for r in health.rounds if r.spider == s] for s in ("trending", "github_search")}
    assert len(by_spider["trending"]) == len(DAYS) and len(by_spider["github_search"]) == 1
    assert health.unfinished_logs == 0 and health.status is None  # no fleet ran
    assert all(r.finish_reason == "finished" for r in health.rounds)
    # What the rounds say they stored is what the outputs hold.
    for spider, rounds in by_spider.items():
        assert sum(r.get("item_scraped_count") for r in rounds) == _lines(data / spider)
    # State sizes are the folders' bytes on disk.
    for name, size in health.state_sizes.items():
        assert size == _bytes(data / "state" / name) > 0
    section = health_section(health)
    facts = {f.key: f.value for f in section.facts}
    assert facts["health_rounds"] == len(health.rounds) and facts["health_unfinished"] == 0
    table = next(f for f in section.figures if f.id == "health-rounds")
    assert len(table.table.rows) == len(health.rounds) and not table.note
    assert "scrapy crawl" in section.intro


def test_one_spiders_health_keeps_its_state_and_the_shared_folders(demo_rounds: DemoRounds) -> None:
    health = load_health(demo_rounds.data, spider="github_search")
    assert {r.spider for r in health.rounds} == {"github_search"}
    assert "github_search" in health.state_sizes and "trending" not in health.state_sizes
    assert set(health.state_sizes) <= {"github_search", "_shared", "_github"}


def test_without_a_round_record_the_section_says_where_rounds_come_from(
    demo_rounds: DemoRounds, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(demo_rounds.data, data, symlinks=True)
    shutil.rmtree(data / "logs")  # as after crawls killed before they closed
    health = load_health(data)
    assert health.rounds == [] and health.state_sizes
    section = health_section(health)
    assert not section.empty  # the state is there: the section is shown, and says why it has no round
    rounds = next(f for f in section.figures if f.id == "health-rounds")
    assert rounds.table.rows == [] and "logs/<spider>/" in rounds.note and "round record" in rounds.note
    # A fleet child's log cut short (no stats dump) and a torn round record: counted as unfinished.
    (data / "logs" / "trending").mkdir(parents=True)
    (data / "logs" / "trending" / "20261209T070000-1.log").write_text(
        "2026-12-09 07:00:01 [scrapy.core.engine] INFO: Spider opened\n", encoding="utf-8"
    )
    record = next((demo_rounds.data / "logs" / "trending").glob("*.stats.json")).read_text(encoding="utf-8")
    json.loads(record)
    (data / "logs" / "trending" / "20261209T080000-crawl-1.stats.json").write_text(
        record[: len(record) // 2], encoding="utf-8"
    )
    facts = {f.key: f.value for f in health_section(load_health(data)).facts}
    assert facts["health_unfinished"] == 2 and facts["health_rounds"] == 0


def test_an_empty_data_folder_says_nothing_has_crawled(tmp_path: Path) -> None:
    section = health_section(load_health(tmp_path / "none"))
    assert section.empty and "nothing has crawled yet" in section.empty and not section.facts
