"""The garbage-collector extension: tuned while the engine runs, restored after, on in crawls."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured

from harvest.plumbing.gctuning import GarbageCollectorTuning
from tests import get_crawler, scrapy_crawl
from tests.servers import Reply, loopback_server


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    gc.unfreeze()


def test_tuned_while_the_engine_runs_and_restored_after() -> None:
    gc.set_threshold(700, 10, 10)
    crawler = get_crawler()
    threshold = crawler.settings.getint("HARVEST_GC_THRESHOLD")
    assert threshold > 700  # the project's default raises it
    ext = GarbageCollectorTuning.from_crawler(crawler)
    ext.engine_started()
    assert gc.get_threshold() == (threshold, 10, 10)  # older generations keep their ratios
    assert gc.get_freeze_count() > 1000  # modules, classes, functions loaded so far
    gc.collect()
    assert gc.get_freeze_count() > 1000, "a collection must not thaw the frozen objects"
    ext.engine_stopped()
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_threshold_only() -> None:
    settings = {"HARVEST_GC_FREEZE": False, "HARVEST_GC_THRESHOLD": 4321}
    ext = GarbageCollectorTuning.from_crawler(get_crawler(settings=settings))
    ext.engine_started()
    assert gc.get_threshold()[0] == 4321 and gc.get_freeze_count() == 0
    ext.engine_stopped()


def test_off_when_both_are_off() -> None:
    with pytest.raises(NotConfigured):
        GarbageCollectorTuning.from_crawler(
            get_crawler(settings={"HARVEST_GC_THRESHOLD": 0, "HARVEST_GC_FREEZE": False})
        )


def test_a_real_crawl_runs_with_it(tmp_path: Path) -> None:
    with loopback_server() as server:
        server.add("/", Reply(body="<html><body><p>index</p></body></html>"))
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_DATA_DIR": tmp_path,
                "LOG_LEVEL": "DEBUG",
                "HARVEST_BLOGS_EXTRACTION": "off",
                "HARVEST_GC_THRESHOLD": 12345,
            },
            args={"url": server.base_url + "/"},
        )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "harvest.plumbing.gctuning.GarbageCollectorTuning" in result.stderr  # "Enabled extensions"
    assert "Garbage collector: threshold (12345, " in result.stderr  # from the setting
