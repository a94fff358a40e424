"""The made-up data folder of the report's benchmark: exactly the items asked for, over the days asked for.

``write_sample`` stands in for a fleet's data folder in bench/report.py and the report tests, so
what it claims to have written must be what the files hold, and the same seed the same folder.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest

from harvest.report.health import load_health
from harvest.report.records import load_dataset
from harvest.report.sample import write_sample


def _files(data: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("items", "days"), [(1_000, 7), (997, 3), (40, 1)])
def test_the_folder_holds_the_items_and_days_asked_for(tmp_path: Path, items: int, days: int) -> None:
    data = tmp_path / "data"
    counts = write_sample(data, items, days=days)
    kinds = Counter(
        json.loads(line)["type"] for path in data.glob("*/*.jsonl") for line in path.read_bytes().splitlines()
    )
    assert kinds == counts.lines and counts.total == items
    dataset = load_dataset(data)
    assert dataset.items == items and dataset.unreadable == 0
    seen = sorted({o.day for o in dataset.trending} | {r.day for r in dataset.search})
    last = date.fromisoformat(seen[-1])
    assert seen == [(last - timedelta(days=days - 1 - i)).isoformat() for i in range(days)]
    # One finished round per spider and day, each saying the items its day wrote.
    health = load_health(data)
    assert counts.rounds == len(health.rounds) == 3 * days and health.unfinished_logs == 0
    assert sum(r.get("item_scraped_count") for r in health.rounds) == items
    assert health.status is not None and health.status["state"] == "finished"


def test_the_same_seed_writes_the_same_folder_and_another_seed_another(tmp_path: Path) -> None:
    one = _files_of(tmp_path / "a", 17)
    assert one == _files_of(tmp_path / "b", 17)
    other = _files_of(tmp_path / "c", 18)
    assert one.keys() == other.keys() and one != other


def _files_of(data: Path, seed: int) -> dict[str, bytes]:
    write_sample(data, 300, days=3, seed=seed)
    return _files(data)
