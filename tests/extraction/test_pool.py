"""The extraction pool on real pages (the Octopress blog of shared/fixtures): the workers' results
equal the parser run inline; a worker killed with SIGKILL mid-task is counted as a crash, its pages
are extracted inline, it is replaced and the pool goes on; workers are recycled after
``max_tasks_per_child`` pages; closing leaves no process behind, and a worker whose crawler
dies without closing the pool exits on its own."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from harvest.extraction import ExtractionPool, WorkerCrashed
from harvest.extraction.pool import worker_env
from harvest.extraction.result import Extracted
from harvest.fingerprints import content_hash
from harvest.parsers.article import Article, extract_article
from tests import PROJECT_ROOT, require, shared_fixture

OCTO = ("blogs", "octopress-1up4developers-github-io", "site")
BASE = "http://1up4dev.org/"


def octo_pages(count: int) -> list[tuple[str, str]]:
    """(url, html) of the first ``count`` posts of the Octopress blog."""
    root = shared_fixture(*OCTO)
    paths = sorted(root.glob("20*/*/*/index.html"))[:count]
    require(len(paths) == count, f"{root}: expected {count} posts, found {len(paths)}")
    return [(f"{BASE}{p.parent.relative_to(root).as_posix()}/", p.read_text(encoding="utf-8")) for p in paths]


def gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie nobody reaped yet counts as exited)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def wait_gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def articles(results: Iterable[Extracted | None]) -> list[Article | None]:
    """The articles of the pool's results."""
    return [r.article if r is not None else None for r in results]


def test_pool_results_equal_the_parser_inline() -> None:
    pages = octo_pages(12)
    expected = [extract_article(html, url) for url, html in pages]
    assert all(isinstance(a, Article) for a in expected)

    async def run() -> tuple[list[Extracted | None], list[Extracted | None], int]:
        pool = ExtractionPool("pool", workers=2, depth=2, max_tasks_per_child=0)
        inline = ExtractionPool("inline", workers=2, depth=2, max_tasks_per_child=0)
        try:
            pooled = await asyncio.gather(*(pool.extract(html, url) for url, html in pages))
            by_inline = [await inline.extract(html, url) for url, html in pages]
            assert inline.worker_pids() == {}  # inline mode starts no process
            assert len(pool.worker_pids()) == 2
            return pooled, by_inline, pool.crashes
        finally:
            await pool.close()
            await inline.close()

    pooled, by_inline, crashes = asyncio.run(run())
    assert articles(pooled) == expected
    assert articles(by_inline) == expected
    assert crashes == 0
    # A worker sends the content hash the spider would compute; the language only when asked.
    for extracted in pooled:
        assert extracted is not None
        assert extracted.content_hash == content_hash(extracted.article.markdown)
        assert not extracted.language_detected and extracted.language is None
    # Inline, the pipelines compute both (the spider and the language pipeline, as before).
    assert all(e is not None and e.content_hash is None and not e.language_detected for e in by_inline)


def test_workers_detect_the_language_the_language_pipeline_would() -> None:
    """With language detection on, each article comes back with the language of its text."""
    from harvest.parsers.language import detect_language

    pages = octo_pages(6)  # Portuguese posts under an English theme, and English ones

    async def run() -> list[Extracted | None]:
        pool = ExtractionPool("pool", workers=1, depth=2, max_tasks_per_child=0, language=True)
        try:
            return list(await asyncio.gather(*(pool.extract(html, url) for url, html in pages)))
        finally:
            await pool.close()

    found = set()
    for extracted in asyncio.run(run()):
        assert extracted is not None and extracted.language_detected
        guess = detect_language(extracted.article.markdown)
        assert guess is not None
        assert (extracted.language, extracted.language_score) == (guess.language, guess.score)
        found.add(extracted.language)
    assert found, "no language detected"


def test_workers_compute_the_signature_the_near_duplicate_pipeline_would() -> None:
    """With near-duplicate detection on, each article comes back with its MinHash signature."""
    from harvest.parsers.neardup import signature, to_bytes

    pages = octo_pages(6)

    async def run() -> list[Article | None]:
        pool = ExtractionPool("pool", workers=1, depth=2, max_tasks_per_child=0, signatures=True)
        try:
            return articles(await asyncio.gather(*(pool.extract(html, url) for url, html in pages)))
        finally:
            await pool.close()

    for article in asyncio.run(run()):
        assert article is not None and article.minhash is not None
        sig = signature(article.markdown)
        assert sig is not None
        assert article.minhash == to_bytes(sig)


def test_a_worker_killed_mid_task_is_a_crash_and_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    pages = octo_pages(8)
    expected = [extract_article(html, url) for url, html in pages]

    async def run() -> None:
        pool = ExtractionPool("pool", workers=1, depth=4, max_tasks_per_child=0)
        try:
            assert articles([await pool.extract(pages[0][1], pages[0][0])]) == expected[:1]
            [victim] = pool.worker_pids()
            tasks = [asyncio.ensure_future(pool.extract(html, url)) for url, html in pages[:4]]
            while pool.worker_pids()[victim] < 4:  # all four sent, none answered yet
                await asyncio.sleep(0.001)
            os.kill(victim, signal.SIGKILL)
            # The pages it held are extracted inline instead: nothing is lost.
            assert articles(await asyncio.gather(*tasks)) == expected[:4]
            assert pool.crashes >= 1
            # A fresh worker takes the next pages, without crashes.
            crashes = pool.crashes
            assert (
                articles(await asyncio.gather(*(pool.extract(html, url) for url, html in pages[4:])))
                == expected[4:]
            )
            assert pool.crashes == crashes
            [replacement] = pool.worker_pids()
            assert replacement != victim
        finally:
            await pool.close()
        assert gone(victim) and gone(replacement)

    with caplog.at_level(logging.ERROR, logger="harvest.extraction.pool"):
        asyncio.run(run())
    died = "An extraction worker died; extracting"
    crashed = [r for r in caplog.records if r.getMessage().startswith(died)]
    assert crashed, caplog.text
    assert all(r.exc_info and r.exc_info[0] is WorkerCrashed for r in crashed)
    # Only the pages the killed worker held were extracted inline.
    assert {r.args[0] for r in crashed if isinstance(r.args, tuple)} <= {url for url, _ in pages[:4]}


def test_workers_are_recycled_after_max_tasks() -> None:
    pages = octo_pages(7)
    expected = [extract_article(html, url) for url, html in pages]

    async def run() -> tuple[list[int], list[Article | None]]:
        pool = ExtractionPool("pool", workers=1, depth=1, max_tasks_per_child=2)
        served_by: list[int] = []
        results = []
        try:
            for url, html in pages:
                results.extend(articles([await pool.extract(html, url)]))
                [pid] = pool.worker_pids()
                served_by.append(pid)
            assert pool.crashes == 0
        finally:
            await pool.close()
        return served_by, results

    served_by, results = asyncio.run(run())
    assert results == expected
    # Two pages per worker, then a new process: 7 pages, 4 workers.
    first, second, third, fourth = dict.fromkeys(served_by)
    assert served_by == [first, first, second, second, third, third, fourth]
    assert all(gone(pid) for pid in served_by)


def test_close_leaves_no_child_process() -> None:
    pages = octo_pages(6)

    async def run() -> set[int]:
        pool = ExtractionPool("pool", workers=2, depth=2, max_tasks_per_child=2)
        seen: set[int] = set()
        try:
            for i in range(0, len(pages), 2):
                await asyncio.gather(*(pool.extract(html, url) for url, html in pages[i : i + 2]))
                seen |= set(pool.worker_pids())
        finally:
            await pool.close()
        assert pool.worker_pids() == {}
        return seen

    seen = asyncio.run(run())
    assert len(seen) >= 3  # recycled workers included
    assert [pid for pid in seen if not gone(pid)] == []
    children = Path(f"/proc/self/task/{os.getpid()}/children")
    if children.exists():
        assert {int(p) for p in children.read_text().split()} & seen == set()


def test_workers_exit_when_their_crawler_dies_without_closing_the_pool(tmp_path: Path) -> None:
    """A crawler killed with ``kill -9`` never closes the pool: its workers see end of input."""
    url, html = octo_pages(1)[0]
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    script = (
        "import asyncio, os, sys\n"
        "from harvest.extraction import ExtractionPool\n"
        "async def main():\n"
        "    pool = ExtractionPool('pool', workers=2, depth=1, max_tasks_per_child=0)\n"
        f"    await pool.extract(open({str(page)!r}, encoding='utf-8').read(), {url!r})\n"
        "    print(*pool.worker_pids(), flush=True)\n"
        "    os.kill(os.getpid(), 9)\n"
        "asyncio.run(main())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == -signal.SIGKILL, result.stderr
    pids = [int(p) for p in result.stdout.split()]
    assert len(pids) == 2
    assert [pid for pid in pids if not wait_gone(pid)] == []


def test_workers_import_harvest_from_the_crawlers_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under scrapyd harvest comes from an egg only the crawler's sys.path names."""
    monkeypatch.setattr(sys, "path", ["/srv/eggs/harvest-1.0.egg", "", *sys.path])
    env = worker_env()
    assert env["PYTHONPATH"].split(os.pathsep) == [p for p in sys.path if p]
    assert env["PYTHONPATH"].startswith("/srv/eggs/harvest-1.0.egg" + os.pathsep)


def test_workers_run_below_the_crawl_process_that_feeds_them() -> None:
    """``HARVEST_BLOGS_EXTRACT_NICE``: a worker preempting the crawl process left every worker
    waiting for pages (BENCHMARKS.md); each worker adds the niceness to its own, as set."""
    [(url, html)] = octo_pages(1)
    own = os.getpriority(os.PRIO_PROCESS, 0)

    async def run(nice: int) -> list[int]:
        pool = ExtractionPool("pool", workers=2, depth=1, max_tasks_per_child=0, nice=nice)
        try:
            await asyncio.gather(pool.extract(html, url), pool.extract(html, url))
            return [os.getpriority(os.PRIO_PROCESS, pid) for pid in pool.worker_pids()]
        finally:
            await pool.close()

    assert asyncio.run(run(10)) == [min(19, own + 10)] * 2
    assert asyncio.run(run(0)) == [own] * 2
