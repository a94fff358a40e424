"""Reading the outputs: every committed line once, a torn last line skipped, filters as a user gives them.

On the data folder of real ``scrapy crawl`` rounds (tests/report/conftest.py), copied before it is
changed. Expected counts come from the JSON Lines files themselves, read line by line here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from harvest.report.records import load_dataset
from tests.report.conftest import DemoRounds


def _objects(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def _copy(rounds: DemoRounds, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(rounds.data, data, symlinks=True)
    return data


def test_every_line_of_every_spider_is_read_once(demo_rounds: DemoRounds) -> None:
    data = demo_rounds.data
    dataset = load_dataset(data)
    # logs/ and state/ are no spiders; a folder without JSON Lines is none either.
    assert dataset.spiders == ["github_search", "trending"]
    files = sorted(data.glob("*/*.jsonl"))
    assert dataset.lines == {f"{p.parent.name}/{p.name}": len(_objects(p)) for p in files}
    assert len(dataset.trending) == len(_objects(data / "trending" / "trending_repo.jsonl"))
    assert len(dataset.developers) == len(_objects(data / "trending" / "trending_developer.jsonl"))
    assert len(dataset.documents) == len(_objects(data / "trending" / "document.jsonl"))
    assert len(dataset.search) == len(_objects(data / "github_search" / "repo.jsonl"))
    assert dataset.unreadable == 0 and dataset.items == sum(dataset.lines.values())


def test_a_torn_last_line_and_foreign_lines_are_skipped_and_counted(
    demo_rounds: DemoRounds, tmp_path: Path
) -> None:
    data = _copy(demo_rounds, tmp_path)
    path = data / "trending" / "trending_repo.jsonl"
    before = load_dataset(data)
    whole = path.read_bytes()
    last = whole.splitlines()[-1]
    # A crawl killed while appending: half of a line, no newline. Then a file a person added.
    path.write_bytes(whole + last[: len(last) // 2])
    (data / "trending" / "notes.jsonl").write_bytes(b'[1, 2]\n{"type": "something_else"}\n\n')
    after = load_dataset(data)
    assert after.trending == before.trending
    assert after.unreadable == 3
    assert after.lines["trending/trending_repo.jsonl"] == before.lines["trending/trending_repo.jsonl"] + 1


def test_since_and_spider_filter_what_is_kept(demo_rounds: DemoRounds) -> None:
    data = demo_rounds.data
    since = "2026-12-08T00:00:00Z"
    rows = _objects(data / "trending" / "trending_repo.jsonl")
    recent = load_dataset(data, since=since)
    assert len(recent.trending) == sum(1 for r in rows if r["observed_at"] >= since) < len(rows)
    # Lines are counted before the filter: what the files hold.
    assert recent.lines == load_dataset(data).lines
    only = load_dataset(data, spider="github_search")
    assert (
        only.spiders == ["github_search"]
        and not only.trending
        and len(only.search) == len(_objects(data / "github_search" / "repo.jsonl"))
    )
    assert load_dataset(data, spider="nothing").items == 0
