"""Unit tests of :mod:`harvest.state.partition`: a worker's share of a partitioned crawl, its recorded N."""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.settings import Settings
from scrapy.utils.request import fingerprint

from harvest.config.blogs import BlogsConfig
from harvest.runner.plan import SpiderPlan, spread_cores
from harvest.spiders.base import HarvestSpider
from harvest.spiders.blogs import BlogsSpider
from harvest.spiders.github_search import GithubSearchSpider
from harvest.spiders.trending import TrendingSpider
from harvest.state.partition import WORKER_ENV, Partition, machine_workers, record_path, resolve_workers
from harvest.util.machine import available_memory

# --- from_settings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("workers", "worker", "expected"),
    [
        (None, None, Partition(0, 1)),
        (2, "1", Partition(1, 2)),
        ("3", "0", Partition(0, 3)),
        ("4", " 3 ", Partition(3, 4)),
        # The supervisor itself (no worker index) and a one-worker crawl are no partition.
        (2, None, Partition(0, 1)),
        (2, "", Partition(0, 1)),
        (1, "0", Partition(0, 1)),
        (0, "0", Partition(0, 1)),
    ],
)
def test_from_settings_and_the_workers_environment(
    workers: Any, worker: str | None, expected: Partition, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The index is the supervisor's channel to its worker (its environment), the count a setting.
    if worker is None:
        monkeypatch.delenv(WORKER_ENV, raising=False)
    else:
        monkeypatch.setenv(WORKER_ENV, worker)
    values = {} if workers is None else {"HARVEST_CRAWL_WORKERS": workers}
    assert Partition.from_settings(Settings(values)) == expected


def test_the_index_as_a_setting_is_still_read_for_one_release(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKER_ENV, raising=False)
    settings = Settings({"HARVEST_CRAWL_WORKERS": 2, "HARVEST_CRAWL_WORKER": 0})
    assert Partition.from_settings(settings) == Partition(0, 2)
    settings = Settings({"HARVEST_CRAWL_WORKERS": 3, "HARVEST_CRAWL_WORKER": "2"})
    assert Partition.from_settings(settings) == Partition(2, 3)


@pytest.mark.parametrize("worker", ["2", "5", "-1"])
def test_from_settings_rejects_a_worker_index_out_of_range(
    worker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WORKER_ENV, worker)
    with pytest.raises(ValueError, match=f"HARVEST_CRAWL_WORKER={worker} is not a worker of 2"):
        Partition.from_settings(Settings({"HARVEST_CRAWL_WORKERS": 2}))


def test_from_settings_rejects_a_worker_index_that_is_no_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WORKER_ENV, "one")
    with pytest.raises(ValueError):
        Partition.from_settings(Settings({"HARVEST_CRAWL_WORKERS": 2}))


# --- names -------------------------------------------------------------------------------------


def test_one_worker_keeps_the_plain_names() -> None:
    part = Partition()
    assert not part.active
    assert part.suffix == ""
    assert part.state_name("blogs") == "blogs"
    assert part.output_file("page") == "page.jsonl"


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_worker_suffixes_its_names_with_its_index(index: int) -> None:
    part = Partition(index, 3)
    assert part.active
    assert part.suffix == f".w{index}"
    assert part.state_name("blogs") == f"blogs.w{index}"
    assert part.output_file("page") == f"page.w{index}.jsonl"
    assert part.output_file("post") == f"post.w{index}.jsonl"


@pytest.mark.parametrize(
    ("part", "filename", "expected"),
    [
        (Partition(1, 2), "page.w1.jsonl", True),
        (Partition(1, 2), "post.w1.jsonl", True),
        (Partition(1, 2), "page.w0.jsonl", False),
        (Partition(1, 2), "page.jsonl", False),
        (Partition(1, 2), "page.w1.json", False),
        (Partition(1, 2), "page.w1.jsonl.tmp", False),
        (Partition(0, 2), "page.w0.jsonl", True),
        (Partition(0, 2), "page.w1.jsonl", False),
        # Worker 1 of 12 does not take worker 11's files, nor worker 11 worker 1's.
        (Partition(1, 12), "page.w11.jsonl", False),
        (Partition(11, 12), "page.w1.jsonl", False),
        (Partition(11, 12), "page.w11.jsonl", True),
        # Another worker's suffix in front of this one's is not this worker's file.
        (Partition(1, 2), "page.w0.w1.jsonl", False),
        (Partition(), "page.jsonl", True),
        (Partition(), "post.jsonl", True),
        (Partition(), "page.w0.jsonl", False),
        (Partition(), "page.w1.jsonl", False),
        (Partition(), "page.json", False),
    ],
)
def test_writes_only_its_own_files(part: Partition, filename: str, expected: bool) -> None:
    assert part.writes(filename) is expected


def test_writes_its_own_output_files() -> None:
    for part in (Partition(), Partition(0, 2), Partition(1, 2), Partition(7, 8)):
        assert part.writes(part.output_file("page"))
        others = [Partition(i, part.count) for i in range(part.count) if i != part.index]
        assert not any(other.writes(part.output_file("page")) for other in others)


# --- owner / owns ------------------------------------------------------------------------------


def _fingerprints(count: int) -> list[bytes]:
    return [fingerprint(Request(f"https://example.com/blog/{i}/post-{i * 7}.html")) for i in range(count)]


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_every_fingerprint_is_owned_by_exactly_one_worker(count: int) -> None:
    workers = [Partition(i, count) for i in range(count)] if count > 1 else [Partition()]
    for fp in _fingerprints(200):
        owners = [part.index for part in workers if part.owns(fp)]
        assert len(owners) == 1
        assert owners == [workers[0].owner(fp)]
        assert 0 <= owners[0] < count


def test_the_owner_is_the_same_for_every_worker_and_every_call() -> None:
    fps = _fingerprints(100)
    first = [Partition(0, 4).owner(fp) for fp in fps]
    assert first == [Partition(3, 4).owner(fp) for fp in fps]
    assert first == [Partition(0, 4).owner(fp) for fp in _fingerprints(100)]


def test_one_worker_owns_everything() -> None:
    part = Partition()
    assert all(part.owns(fp) for fp in _fingerprints(100))
    assert all(part.owner(fp) == 0 for fp in _fingerprints(100))


def test_two_workers_split_the_urls_roughly_evenly() -> None:
    fps = _fingerprints(1000)
    owned = [sum(Partition(i, 2).owns(fp) for fp in fps) for i in range(2)]
    assert sum(owned) == 1000
    assert all(400 <= n <= 600 for n in owned), owned


def test_the_owner_is_decided_by_the_first_eight_bytes() -> None:
    part = Partition(0, 3)
    head = (10).to_bytes(8, "big")
    assert part.owner(head + b"\x00" * 12) == 10 % 3
    assert part.owner(head + b"\xff" * 12) == 10 % 3


# --- resolve_workers ---------------------------------------------------------------------------


def _record(data_dir: Path, spider: str = "blogs") -> Any:
    return json.loads(record_path(data_dir, spider).read_text(encoding="utf-8"))


def test_record_path(tmp_path: Path) -> None:
    assert record_path(tmp_path, "blogs") == tmp_path / "state" / "blogs.workers.json"
    assert record_path(str(tmp_path), "blogs") == tmp_path / "state" / "blogs.workers.json"


def test_a_fresh_folder_takes_the_number_asked_and_records_it(tmp_path: Path) -> None:
    assert resolve_workers(tmp_path, "blogs", 3) == 3
    assert _record(tmp_path) == {"workers": 3}
    # Nothing but the record is left in state/ (no temporary file).
    assert [p.name for p in (tmp_path / "state").iterdir()] == ["blogs.workers.json"]


def test_later_runs_keep_the_recorded_number(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert resolve_workers(tmp_path, "blogs", 2) == 2
    with caplog.at_level(logging.INFO, logger="harvest.state.partition"):
        assert resolve_workers(tmp_path, "blogs", 4) == 2
        assert resolve_workers(tmp_path, "blogs", 1) == 2
        assert resolve_workers(tmp_path, "blogs", 2) == 2
    assert _record(tmp_path) == {"workers": 2}
    kept = [r.getMessage() for r in caplog.records if "keeps 2 crawl worker(s)" in r.getMessage()]
    assert len(kept) == 2  # the runs asking for 4 and for 1, not the one asking for 2
    assert "HARVEST_CRAWL_WORKERS=4;" in kept[0]


def test_the_record_is_per_spider(tmp_path: Path) -> None:
    assert resolve_workers(tmp_path, "blogs", 2) == 2
    assert resolve_workers(tmp_path, "github", 3) == 3
    assert resolve_workers(tmp_path, "blogs", 3) == 2
    assert resolve_workers(tmp_path, "github", 2) == 3


def test_one_process_asked_is_not_recorded(tmp_path: Path) -> None:
    assert resolve_workers(tmp_path, "blogs", 1) == 1
    assert resolve_workers(tmp_path, "blogs", 0) == 1
    assert not record_path(tmp_path, "blogs").exists()
    # ... so a later partitioned run on a folder without any state still takes its number.
    assert resolve_workers(tmp_path, "blogs", 2) == 2


def test_a_one_process_state_keeps_one_worker(tmp_path: Path) -> None:
    (tmp_path / "state" / "blogs").mkdir(parents=True)
    assert resolve_workers(tmp_path, "blogs", 4) == 1
    assert not record_path(tmp_path, "blogs").exists()
    # Another spider's one-process state does not hold this one.
    assert resolve_workers(tmp_path, "github", 4) == 4


def test_a_record_wins_over_a_one_process_state(tmp_path: Path) -> None:
    assert resolve_workers(tmp_path, "blogs", 2) == 2
    (tmp_path / "state" / "blogs").mkdir()
    assert resolve_workers(tmp_path, "blogs", 3) == 2


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "{}",
        '{"workers": "two"}',
        "[2]",
        '"2"',
        '{"workers": null}',
        '{"workers": 0}',
        '{"workers": -2}',
        '{"workers": 2.7}',
        '{"workers": true}',
    ],
)
def test_an_unreadable_record_names_its_file(tmp_path: Path, text: str) -> None:
    path = record_path(tmp_path, "blogs")
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(str(path))) as info:
        resolve_workers(tmp_path, "blogs", 2)
    assert "unreadable record of the number of workers" in str(info.value)
    assert path.read_text(encoding="utf-8") == text  # left as it was, for the user to look at


# --- the workers chosen from the machine (HARVEST_CRAWL_WORKERS=0, the default) ---------------


def test_the_default_chooses_from_the_machine() -> None:
    from harvest import settings as defaults

    assert defaults.HARVEST_CRAWL_WORKERS == 0


def test_machine_workers_are_the_usable_cores() -> None:
    cores = sorted(os.sched_getaffinity(0))
    assert machine_workers(1) == len(cores)
    try:
        os.sched_setaffinity(0, cores[:1])  # what `taskset -c 0` gives a crawl
        assert machine_workers(1) == 1
    finally:
        os.sched_setaffinity(0, cores)


def test_machine_workers_keep_enough_requests_in_flight_each() -> None:
    cores = len(os.sched_getaffinity(0))
    # CONCURRENT_REQUESTS shared out: each worker keeps at least MIN_IN_FLIGHT (4) in flight.
    assert machine_workers(1, 7) == 1
    assert machine_workers(1, 8) == min(cores, 2)
    assert machine_workers(1, 4 * cores) == cores
    assert machine_workers(1, 1000 * cores) == cores
    assert machine_workers(1, 0) == 1


def test_machine_workers_are_as_many_as_memory_holds() -> None:
    memory = available_memory()
    assert memory is not None
    # A budget per process larger than half the available memory leaves room for one.
    assert machine_workers(memory // (1024 * 1024) // 2 + 1) == 1
    assert machine_workers(memory // (1024 * 1024) * 2) == 1


def _blogs(*sites: dict[str, Any]) -> BlogsConfig:
    return BlogsConfig.model_validate({"sites": list(sites)})


_SITE = {"name": "octo", "start_urls": ["http://127.0.0.1:1/"]}


@pytest.mark.parametrize(("extraction", "expected"), [("off", True), ("inline", True), ("pool", False)])
def test_a_blogs_crawl_is_cpu_bound_unless_the_extraction_pool_uses_the_cores(
    extraction: str, expected: bool
) -> None:
    settings = Settings({"HARVEST_BLOGS_EXTRACTION": extraction})
    assert BlogsSpider.cpu_bound(settings, _blogs(_SITE)) is expected


def test_a_blogs_crawl_that_renders_a_site_is_not_partitioned() -> None:
    # Each crawl process would start a browser of its own.
    settings = Settings({"HARVEST_BLOGS_EXTRACTION": "off"})
    config = _blogs(_SITE, {"name": "app", "start_urls": ["http://127.0.0.1:2/"], "render": True})
    assert not BlogsSpider.cpu_bound(settings, config)


@pytest.mark.parametrize("spidercls", [TrendingSpider, GithubSearchSpider])
def test_the_github_spiders_wait_on_rate_limits_not_on_their_cpu(spidercls: type[HarvestSpider]) -> None:
    settings = Settings({"HARVEST_BLOGS_EXTRACTION": "off"})
    assert not spidercls.cpu_bound(settings, spidercls.config_model())


def _plan(*spiders: tuple[str, bool, int]) -> list[SpiderPlan]:
    return [SpiderPlan(name, None, replicas, cpu_bound=cpu) for name, cpu, replicas in spiders]


@pytest.mark.parametrize(
    ("plan", "cores", "fixed", "expected"),
    [
        # The fleet's one CPU-bound spider alone takes every core.
        (_plan(("blogs", True, 1)), 2, set(), {"blogs": 2}),
        (_plan(("blogs", True, 1)), 1, set(), {"blogs": 1}),
        # Three spiders on two cores: none free.
        (
            _plan(("blogs", True, 1), ("trending", False, 1), ("github_search", False, 1)),
            2,
            set(),
            {"blogs": 1, "trending": 1, "github_search": 1},
        ),
        # What the rate-limited spiders leave free goes to the CPU-bound one.
        (_plan(("blogs", True, 1), ("trending", False, 1)), 4, set(), {"blogs": 3, "trending": 1}),
        # --replicas is kept as given, and counts against the cores.
        (_plan(("blogs", True, 2), ("trending", False, 1)), 8, {"blogs"}, {"blogs": 2, "trending": 1}),
        (_plan(("blogs", True, 1), ("trending", False, 3)), 6, {"trending"}, {"blogs": 3, "trending": 3}),
        # Two CPU-bound spiders share the free cores, the first one the remainder.
        (_plan(("a", True, 1), ("b", True, 1)), 5, set(), {"a": 3, "b": 2}),
    ],
)
def test_the_fleet_spreads_free_cores_over_its_cpu_bound_spiders(
    plan: list[SpiderPlan], cores: int, fixed: set[str], expected: dict[str, int]
) -> None:
    assert spread_cores(plan, cores, fixed) == expected


def test_the_fleet_gives_a_spider_no_more_workers_than_its_concurrency_keeps_busy() -> None:
    plan = _plan(("blogs", True, 1), ("trending", False, 1))
    assert spread_cores(plan, 32, set(), most=4) == {"blogs": 4, "trending": 1}
