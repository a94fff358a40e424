"""A bench-only Scrapy extension: tracemalloc snapshots of a crawl process at page counts.

Loaded by bench/memory_growth.py into every crawl worker (never by harvest's settings). It
starts tracemalloc when the spider opens and, when the process has received the page counts
named in ``HARVEST_BENCH_MEMTRACE`` (e.g. ``10000,50000,200000``), writes
``<HARVEST_BENCH_MEMTRACE_OUT>/w<k>-<pages>.json``: RSS, traced bytes, the top allocation sites
(file:line, size and count) and live objects per type, which memory_growth.py diffs.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import psutil
from scrapy import signals
from scrapy.exceptions import NotConfigured

TOP = 60


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _native() -> dict[str, float]:
    """What tracemalloc does not see (MB): SQLite's allocations and glibc malloc's heap."""
    found: dict[str, float] = {}
    try:
        import _sqlite3

        lib = ctypes.CDLL(_sqlite3.__file__)
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        found["sqlite_mb"] = lib.sqlite3_memory_used() / 2**20
    except (OSError, AttributeError):
        pass
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        info = libc.mallinfo2()
        found["malloc_used_mb"] = (info.uordblks + info.hblkhd) / 2**20
        found["malloc_free_mb"] = info.fordblks / 2**20
    except (OSError, AttributeError):
        pass
    return found


class MemoryTrace:
    def __init__(self, crawler: Any, marks: list[int], out: Path) -> None:
        self.crawler = crawler
        self.marks = sorted(marks)
        self.out = out
        self.pages = 0
        self.worker = os.environ.get("HARVEST_CRAWL_WORKER") or "0"

    @classmethod
    def from_crawler(cls, crawler: Any) -> MemoryTrace:
        marks = [int(x) for x in os.environ.get("HARVEST_BENCH_MEMTRACE", "").split(",") if x.strip()]
        if not marks:
            raise NotConfigured("HARVEST_BENCH_MEMTRACE not set")
        ext = cls(crawler, marks, Path(os.environ["HARVEST_BENCH_MEMTRACE_OUT"]))
        crawler.signals.connect(ext.opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.received, signal=signals.response_received)
        return ext

    def opened(self, spider: Any) -> None:
        if os.environ.get("HARVEST_BENCH_MEMTRACE_OFF") != "1" and not tracemalloc.is_tracing():
            tracemalloc.start(1)
        self.snapshot(0)

    def received(self, response: Any, request: Any, spider: Any) -> None:
        self.pages += 1
        if self.marks and self.pages >= self.marks[0]:
            self.snapshot(self.marks.pop(0))

    def snapshot(self, mark: int) -> None:
        started = time.monotonic()
        gc.collect()
        record: dict[str, Any] = {
            "worker": self.worker,
            "pages": self.pages,
            "mark": mark,
            "rss_mb": psutil.Process().memory_info().rss / 2**20,
            **_native(),
        }
        if tracemalloc.is_tracing():
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")]
            )
            stats = snap.statistics("lineno")
            record["traced_mb"] = sum(s.size for s in stats) / 2**20
            record["sites"] = {
                f"{s.traceback[0].filename}:{s.traceback[0].lineno}": [s.size, s.count] for s in stats[:2000]
            }
        types = Counter(type(o).__name__ for o in gc.get_objects())
        record["types"] = dict(types.most_common(300))
        record["seconds"] = round(time.monotonic() - started, 2)
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"w{self.worker}-{mark}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
