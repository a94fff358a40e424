"""Article extraction through ``harvest.extraction.ExtractionPool`` on the real fixture pages.

Pages: every ``index.html`` of the Octopress blog in shared/fixtures (160 pages of 10-160 KB:
posts, tags, archives; ``HARVEST_SHARED_FIXTURES`` as for the tests), cycled to ``--docs``
documents and all submitted at once, as the blogs spider's callbacks do (the pool's own bound,
workers x depth, holds the rest). Workers are started and warmed with one page each before the
clock starts. Prints docs/s inline (``extract_article`` in this process) and through the pool
(its transport: asyncio pipes carrying ``multiprocessing.connection`` frames), the median of
``--repeat`` runs.

``--compare`` also runs the pool with its parent side on ``multiprocessing.connection.Connection``
itself (the worker is the same), two ways: results read in an ``add_reader`` callback and pages
written with the blocking ``send_bytes`` (pipes enlarged to 1 MiB), or both done in threads. For
each transport it prints docs/s (``--busy MS``: with a task hogging the event loop in slices of
MS milliseconds, as a busy crawl does) and the longest event-loop stall while two 2.4 MB pages
(the page cap is 5 MB) go to one worker.

    python bench/extraction_pool.py [--docs 480] [--workers 0] [--depth 2] [--repeat 3]
                                    [--compare] [--busy MS] [--max-seconds 120]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pickle
import statistics
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harvest.extraction import ExtractionPool, WorkerCrashed  # noqa: E402
from harvest.extraction.pool import WORKER_MODULE, _Worker, worker_env  # noqa: E402
from harvest.parsers.article import extract_article  # noqa: E402
from tests import SHARED_FIXTURES  # noqa: E402

BLOG = SHARED_FIXTURES / "blogs" / "octopress-1up4developers-github-io" / "site"
BASE = "http://1up4dev.org/"
_F_SETPIPE_SZ = 1031  # Linux


def fixture_pages() -> list[tuple[str, str]]:
    if not BLOG.is_dir():
        sys.exit(f"{BLOG} not found: set HARVEST_SHARED_FIXTURES to the shared fixtures folder")
    return [
        (BASE + p.parent.relative_to(BLOG).as_posix() + "/", p.read_text(encoding="utf-8"))
        for p in sorted(BLOG.rglob("index.html"))
    ]


def big_page(pages: list[tuple[str, str]]) -> str:
    """One ~2.4 MB article: the bodies of 40 posts, four times over."""
    bodies = [html.split("<body", 1)[1].split(">", 1)[1].rsplit("</body>", 1)[0] for _, html in pages[:40]]
    return "<html><body>" + "".join(bodies) * 4 + "</body></html>"


# --- the alternatives measured by --compare: Connection on the pool's side too ----------------
class _ConnectionWorker(_Worker):
    """A worker spoken to through ``Connection`` objects (the worker process is the same)."""

    def __init__(self, proc: asyncio.subprocess.Process, send: Connection, recv: Connection) -> None:
        self.proc = proc
        self.send, self.recv = send, recv
        self.inflight: deque[asyncio.Future[Any]] = deque()
        self.done = 0
        self.loop = asyncio.get_running_loop()
        self.eof = asyncio.Event()
        self.start()
        self.reader = asyncio.ensure_future(self._until_eof())

    def start(self) -> None:
        raise NotImplementedError

    def deliver(self, payload: bytes) -> None:
        self.done += 1
        future = self.inflight.popleft()
        if not future.done():
            future.set_result(pickle.loads(payload))

    async def _until_eof(self) -> None:
        await self.eof.wait()
        while self.inflight:
            future = self.inflight.popleft()
            if not future.done():
                future.set_exception(WorkerCrashed(f"worker {self.proc.pid} exited"))

    async def send_page(self, data: bytes) -> None:
        raise NotImplementedError

    async def submit(self, html: str, url: str) -> Any:
        future: asyncio.Future[Any] = self.loop.create_future()
        self.inflight.append(future)
        await self.send_page(pickle.dumps((html, url), protocol=pickle.HIGHEST_PROTOCOL))
        return await future

    def close(self) -> None:
        if not self.send.closed:
            self.send.close()


class ReaderCallbackWorker(_ConnectionWorker):
    """``recv_bytes`` in an ``add_reader`` callback, ``send_bytes`` on the loop (it blocks)."""

    def start(self) -> None:
        self.loop.add_reader(self.recv.fileno(), self._readable)

    def _readable(self) -> None:
        try:
            while self.recv.poll(0):
                self.deliver(self.recv.recv_bytes())
        except (EOFError, OSError):
            self.loop.remove_reader(self.recv.fileno())
            self.eof.set()

    async def send_page(self, data: bytes) -> None:
        self.send.send_bytes(data)


class ThreadWorker(_ConnectionWorker):
    """``recv_bytes`` in a reader thread, ``send_bytes`` in the loop's default executor."""

    def start(self) -> None:
        self.sending = asyncio.Lock()
        threading.Thread(target=self._receive, daemon=True).start()

    def _receive(self) -> None:
        try:
            while True:
                self.loop.call_soon_threadsafe(self.deliver, self.recv.recv_bytes())
        except (EOFError, OSError):
            self.loop.call_soon_threadsafe(self.eof.set)

    async def send_page(self, data: bytes) -> None:
        async with self.sending:
            await self.loop.run_in_executor(None, self.send.send_bytes, data)


class ConnectionPool(ExtractionPool):
    worker_class: type[_ConnectionWorker] = ReaderCallbackWorker

    async def _spawn(self) -> _Worker:
        to_worker, to_pool = os.pipe(), os.pipe()
        for _, write_fd in (to_worker, to_pool):
            try:
                fcntl.fcntl(write_fd, _F_SETPIPE_SZ, 1 << 20)
            except OSError:
                pass
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", WORKER_MODULE, stdin=to_worker[0], stdout=to_pool[1], env=worker_env()
        )
        os.close(to_worker[0])
        os.close(to_pool[1])
        send = Connection(to_worker[1], readable=False)
        return self.worker_class(proc, send, Connection(to_pool[0], writable=False))


class ThreadPool(ConnectionPool):
    worker_class = ThreadWorker


TRANSPORTS: dict[str, type[ExtractionPool]] = {
    "asyncio pipes + Connection frames (harvest)": ExtractionPool,
    "Connection, add_reader + blocking send_bytes": ConnectionPool,
    "Connection, reader thread + send_bytes in executor": ThreadPool,
}


# --- measurements -----------------------------------------------------------------------------
async def _with_loop_probe(busy_ms: float, work: Callable[[], Awaitable[Any]]) -> tuple[Any, float]:
    """``work()``'s result and the longest stall of the event loop meanwhile (ms)."""
    stop = False
    stall = 0.0

    async def probe() -> None:
        nonlocal stall
        while not stop:
            started = time.perf_counter()
            await asyncio.sleep(0.001)
            stall = max(stall, time.perf_counter() - started - 0.001 - busy_ms / 1000)

    async def hog() -> None:
        while not stop:
            end = time.perf_counter() + busy_ms / 1000
            while time.perf_counter() < end:
                pass
            await asyncio.sleep(0)

    tasks = [asyncio.ensure_future(probe())] + ([asyncio.ensure_future(hog())] if busy_ms else [])
    try:
        return await work(), stall * 1000
    finally:
        stop = True
        await asyncio.gather(*tasks)


async def pool_rate(
    pool_class: type[ExtractionPool],
    pages: list[tuple[str, str]],
    docs: list[tuple[str, str]],
    args: argparse.Namespace,
) -> float:
    pool = pool_class("pool", args.workers, args.depth, 0)
    try:
        await asyncio.gather(*(pool.extract(pages[i][1], pages[i][0]) for i in range(pool.size)))
        done = 0

        async def one(url: str, html: str) -> None:
            nonlocal done
            await pool.extract(html, url)
            done += 1

        async def all_docs() -> None:
            # A transport starved by the busy loop would take hours: stop it at --max-seconds.
            tasks = [asyncio.ensure_future(one(url, html)) for url, html in docs]
            _, pending = await asyncio.wait(tasks, timeout=args.max_seconds)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        started = time.perf_counter()
        await _with_loop_probe(args.busy, all_docs)
        elapsed = time.perf_counter() - started
        assert pool.crashes == 0
        return done / elapsed
    finally:
        await pool.close()


async def big_page_stall(pool_class: type[ExtractionPool], page: str) -> float:
    pool = pool_class("pool", 1, 2, 0)
    try:
        await pool.extract("<html><body><p>warm</p></body></html>", BASE)

        async def two() -> None:
            first = asyncio.ensure_future(pool.extract(page, BASE + "big/1/"))
            await asyncio.sleep(0.05)  # the first is being extracted when the second is sent
            await asyncio.gather(first, pool.extract(page, BASE + "big/2/"))

        _, stall = await _with_loop_probe(0, two)
        return stall
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=480)
    parser.add_argument("--workers", type=int, default=0, help="0 = one per CPU, as the spider")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--busy", type=float, default=0.0, metavar="MS")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="a pool run stops there")
    args = parser.parse_args()
    pages = fixture_pages()
    sizes = sorted(len(html.encode()) for _, html in pages)
    print(
        f"{len(pages)} fixture pages, {sizes[0] // 1024}-{sizes[-1] // 1024} KB (median "
        f"{statistics.median(sizes) / 1024:.0f}); {args.docs} docs a run, median of {args.repeat}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    docs = [pages[i % len(pages)] for i in range(args.docs)]
    inline = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        for url, html in docs:
            extract_article(html, url)
        inline.append(len(docs) / (time.perf_counter() - started))
    print(f"inline (extract_article in this process): {statistics.median(inline):7.1f} docs/s")
    transports = TRANSPORTS if args.compare else dict(list(TRANSPORTS.items())[:1])
    busy = f", loop busy in {args.busy:g} ms slices" if args.busy else ""
    for name, pool_class in transports.items():
        rates = [asyncio.run(pool_rate(pool_class, pages, docs, args)) for _ in range(args.repeat)]
        runs = ", ".join(f"{r:.1f}" for r in rates)
        print(f"pool, {name}{busy}: {statistics.median(rates):7.1f} docs/s  (runs: {runs})")
    if args.compare:
        page = big_page(pages)
        for name, pool_class in transports.items():
            stall = asyncio.run(big_page_stall(pool_class, page))
            print(f"longest loop stall, two {len(page) / 2**20:.1f} MB pages, {name}: {stall:7.1f} ms")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
