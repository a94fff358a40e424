"""``scrapy crawl blogs`` rendering pages that never end: the browser's memory is bounded by harvest.

A ``render: true`` site (tests/hostileserver.py) holds good articles beside an endless HTML
document, an article whose script body never ends, one whose worker fetches a body without end
and one whose script allocates without end, all rendered at once by real Chromium. The byte
bound (``HARVEST_BROWSER_MAX_PAGE_BYTES``, harvest/browser/meter.py) stops the first three and
the heap bound (``HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB``) crashes the last one's renderer; each
fails in one line, counted, not retried, and the good pages are stored. A thread samples the
proportional set size (PSS) of the crawl's Chromium processes meanwhile: the peak is asserted
under a bound derived from the two settings.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests import read_jsonl, scrapy_crawl, skip_or_fail
from tests.hostileserver import HostileServer

MB = 1024 * 1024
#: Small bounds, so that the test is quick; the peak asserted below is derived from them.
MAX_PAGE_BYTES = 4 * MB
MAX_HEAP_MB = 64
PAGES = 4
#: Longer than any bound takes to trip: a page ending at the timeout was not stopped by a bound.
NAVIGATION_TIMEOUT = 60.0
GOOD = [f"/f/good/g{i}" for i in range(3)]
TOO_LARGE = ["/f/endless-chunked/html", "/f/endless-script/script", "/f/endless-worker/worker"]
CRASHING = ["/f/endless-alloc/alloc"]
HOSTILE = [*TOO_LARGE, *CRASHING]
_STAT_RE = re.compile(r"'([a-z_]+/[^']*|finish_reason)': ([^,\n}]+)")


@dataclass
class ChromiumMemory:
    """Samples the summed PSS of Chromium processes descending from this test process."""

    peak: int = 0
    samples: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self._stop.wait(0.1):
            total = sum(_pss(pid) for pid in _chromium_descendants(os.getpid()))
            self.samples += 1
            self.peak = max(self.peak, total)

    def stop(self) -> None:
        self._stop.set()


def _chromium_descendants(root: int) -> list[int]:
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text(encoding="ascii", errors="replace")
            commands[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found = []
    for pid, command in commands.items():
        if b"chrom" not in command.rsplit(b"/", 1)[-1]:
            continue
        ancestor = parents.get(pid)
        while ancestor and ancestor != root:
            ancestor = parents.get(ancestor)
        if ancestor == root:
            found.append(pid)
    return found


def _pss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text(encoding="ascii").splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@dataclass
class Crawl:
    stderr: str
    returncode: int
    docs: dict[str, dict[str, Any]]
    stats: dict[str, Any]
    server: HostileServer
    memory: ChromiumMemory

    def log_lines(self, path: str, level: str = "WARNING") -> list[str]:
        order = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
        levels = "|".join(order[order.index(level) :])
        url = self.server.url(path)
        return [
            line
            for line in self.stderr.splitlines()
            if re.search(rf"\] ({levels}): ", line) and re.search(re.escape(url) + r"(?![\w?=/.&-])", line)
        ]


def _stats(stderr: str) -> dict[str, Any]:
    dump = stderr[stderr.rfind("Dumping Scrapy stats") :]
    out: dict[str, Any] = {}
    for key, value in _STAT_RE.findall(dump):
        value = value.strip()
        out[key] = int(value) if value.isdigit() else value.strip("'")
    return out


def rendered_crawl(tmp: Path, settings: dict[str, Any], hostile: list[str] = HOSTILE) -> Crawl:
    """One ``scrapy crawl blogs`` of a rendered site holding GOOD and ``hostile``, memory sampled."""
    if not Path("/proc/self/smaps_rollup").exists():
        skip_or_fail("no /proc/<pid>/smaps_rollup to measure the browser's memory (Linux 4.14+)")
    server = HostileServer(index_links=[*GOOD, *hostile])
    with server:
        site = {"name": "app", "start_urls": [server.url("/")], "article_patterns": ["/f/"], "render": True}
        config = tmp / "config"
        config.mkdir()
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
        memory = ChromiumMemory()
        sampler = threading.Thread(target=memory.run, daemon=True)
        sampler.start()
        try:
            result = scrapy_crawl(
                "blogs",
                settings={
                    "HARVEST_CONFIG_DIR": config,
                    "HARVEST_DATA_DIR": tmp / "data",
                    "AUTOTHROTTLE_ENABLED": False,
                    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
                    "HARVEST_BROWSER_PAGES": PAGES,
                    "HARVEST_BROWSER_NAVIGATION_TIMEOUT": NAVIGATION_TIMEOUT,
                    "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
                    "CLOSESPIDER_TIMEOUT": 400,
                    **settings,
                },
                timeout=600,
            )
        finally:
            memory.stop()
            sampler.join()
        (tmp / "crawl.log").write_text(result.stderr, encoding="utf-8")  # for a failing test's reader
        docs = {urlsplit(d["url"]).path: d for d in read_jsonl(tmp / "data" / "blogs" / "document.jsonl")}
        return Crawl(result.stderr, result.returncode, docs, _stats(result.stderr), server, memory)


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawl]:
    from harvest.browser.install import find_browser

    if find_browser() is None:
        skip_or_fail("no Chromium found (apt-get install chromium, or playwright install chromium)")
    yield rendered_crawl(
        tmp_path_factory.mktemp("rendered-hostile"),
        {"HARVEST_BROWSER_MAX_PAGE_BYTES": MAX_PAGE_BYTES, "HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB": MAX_HEAP_MB},
    )


pytestmark = [pytest.mark.playwright, pytest.mark.timeout(700)]


def test_the_crawl_finishes_and_stores_the_good_pages(crawl: Crawl) -> None:
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    assert crawl.stats["finish_reason"] == "finished", crawl.stderr[-3000:]
    assert "Traceback" not in crawl.stderr, crawl.stderr[-5000:]
    for path in GOOD:
        assert path in crawl.docs, (path, crawl.stderr[-3000:])
        assert Path(crawl.docs[path]["path"]).exists()
    for path in HOSTILE:
        assert path not in crawl.docs, path


@pytest.mark.parametrize("path", TOO_LARGE)
def test_a_page_past_the_byte_bound_fails_in_one_line(crawl: Crawl, path: str) -> None:
    lines = crawl.log_lines(path)
    assert len(lines) == 1, crawl.log_lines(path, "DEBUG")
    assert f"more than {MAX_PAGE_BYTES} bytes" in lines[0], lines[0]
    assert "HARVEST_BROWSER_MAX_PAGE_BYTES" in lines[0], lines[0]
    # Not retried, by scrapy-playwright (a closed page) or by RetryMiddleware.
    assert crawl.server.count(path) == 1


def test_pages_past_the_byte_bound_are_counted(crawl: Crawl) -> None:
    assert crawl.stats["harvest/browser/page_too_large"] == len(TOO_LARGE), crawl.stats
    assert crawl.stats["harvest/blogs/failed/PageTooLarge"] == len(TOO_LARGE), crawl.stats


@pytest.mark.parametrize("path", TOO_LARGE)
def test_the_server_stops_being_read_soon_after_the_bound(crawl: Crawl, path: str) -> None:
    # What the server got into the socket: the bound, what arrived while the page was being
    # closed (a worker's bytes reach the meter through two sessions), and the loopback buffers;
    # not NAVIGATION_TIMEOUT seconds at loopback speed (GBs: BENCHMARKS.md, "Rendered pages").
    body = {"/f/endless-script/script": "/f/endless-js/script.js"}.get(path, path)
    body = {"/f/endless-worker/worker": "/f/endless-chunked/worker.js-w"}.get(path, body)
    assert crawl.server.sent(body) < 256 * MB, crawl.server.sent(body)


@pytest.mark.parametrize("path", CRASHING)
def test_a_script_past_the_heap_bound_crashes_its_page_in_one_line(crawl: Crawl, path: str) -> None:
    lines = crawl.log_lines(path)
    assert len(lines) == 1, crawl.log_lines(path, "DEBUG")
    assert "PageCrashed" in lines[0] and "HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB" in lines[0], lines[0]
    assert crawl.server.count(path) == 1
    assert crawl.stats["harvest/browser/page_crashed"] == len(CRASHING), crawl.stats


def test_a_crashed_page_frees_its_slot_once(crawl: Crawl) -> None:
    # scrapy-playwright releases a page's slot on "crash" and again on "close": the slots
    # would grow past HARVEST_BROWSER_PAGES with every crash.
    assert crawl.stats["playwright/page_count/max_concurrent"] <= PAGES, crawl.stats


def test_the_browser_memory_is_bounded_by_the_settings(crawl: Crawl) -> None:
    # Every hostile page was open at once (PAGES of them). Per page: the bytes it may receive,
    # held as a DOM or script source several times their size, and the script heap; for the
    # browser: its own processes and the good pages (a few hundred MB). Without the bounds each
    # hostile page grows for NAVIGATION_TIMEOUT seconds: GBs (BENCHMARKS.md, "Rendered pages").
    assert crawl.memory.samples > 0
    per_page = 40 * MAX_PAGE_BYTES + 2 * MAX_HEAP_MB * MB
    bound = 1024 * MB + PAGES * per_page
    print(f"Chromium peak PSS {crawl.memory.peak / MB:.0f} MB (bound {bound / MB:.0f} MB)")
    assert 0 < crawl.memory.peak < bound, f"{crawl.memory.peak / MB:.0f} MB"
