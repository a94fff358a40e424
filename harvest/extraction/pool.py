"""A pool of extraction worker processes fed by the crawl's own event loop.

Workers are ``python -m harvest.extraction.worker`` processes (:mod:`harvest.extraction.worker`)
spoken to over their stdin/stdout pipes. A message either way is what
:meth:`multiprocessing.connection.Connection.send_bytes` writes (a 4-byte signed big-endian
length, or -1 and an 8-byte length past 2 GiB, then the bytes): the worker uses ``Connection``
itself; this side reads and writes the same frames with asyncio streams, because
``Connection`` only blocks. Its ``send_bytes`` waits for room in the pipe, which with a page
queued behind the one being extracted stalls the whole crawl for that extraction (0.8 s
measured for a 2.3 MB page, ``bench/extraction_pool.py --compare``), and using it from threads
hands every message over through the GIL the busy crawl holds (BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import struct
import sys
from collections import deque
from typing import Any

from harvest.extraction.result import Extracted
from harvest.parsers.article import extract_article

logger = logging.getLogger(__name__)

#: Pages handed to each worker at once: one being extracted and the next ones waiting in its pipe,
#: so a worker does not idle while the crawl process is busy or waits on a commit's fsync. Past
#: it callbacks wait and Scrapy stops fetching (bounded memory). Why 4: BENCHMARKS.md (issue 18).
DEPTH = 4
#: A worker is replaced after this many pages, so a leak in a parser cannot grow for ever; a new
#: worker costs trafilatura's imports (figures: BENCHMARKS.md).
MAX_TASKS_PER_CHILD = 10_000

#: The worker's module, run with ``python -m``.
WORKER_MODULE = "harvest.extraction.worker"
#: ``multiprocessing.connection``'s headers: a signed 32-bit length, or -1 then 64 bits.
_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")
_SHORT_MAX = 0x7FFFFFFF


class WorkerCrashed(Exception):
    """An extraction worker exited while pages were in flight."""


def frame(data: bytes) -> bytes:
    """``data`` framed as ``multiprocessing.connection.Connection.send_bytes`` frames it."""
    if len(data) > _SHORT_MAX:
        return _SHORT.pack(-1) + _LONG.pack(len(data)) + data
    return _SHORT.pack(len(data)) + data


async def read_frame(stream: asyncio.StreamReader) -> bytes:
    """The next message ``Connection.send_bytes`` wrote to ``stream`` (IncompleteReadError at end)."""
    (size,) = _SHORT.unpack(await stream.readexactly(_SHORT.size))
    if size == -1:
        (size,) = _LONG.unpack(await stream.readexactly(_LONG.size))
    return await stream.readexactly(size)


def worker_env() -> dict[str, str]:
    """The environment of a worker: this one, with ``PYTHONPATH`` set to this process's path.

    The worker imports harvest from where this process did: under scrapyd that is the deployed
    egg, which only this process's ``sys.path`` names (like multiprocessing's spawn).
    """
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


class _Worker:
    """One worker process and the pages it has in flight."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.inflight: deque[asyncio.Future[Any]] = deque()
        self.done = 0
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            while True:
                payload = await read_frame(self.proc.stdout)
                future = self.inflight.popleft()
                self.done += 1
                if not future.done():
                    future.set_result(pickle.loads(payload))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            while self.inflight:
                future = self.inflight.popleft()
                if not future.done():
                    future.set_exception(WorkerCrashed(f"extraction worker {self.proc.pid} exited"))

    async def submit(self, html: str, url: str) -> Any:
        assert self.proc.stdin is not None
        data = frame(pickle.dumps((html, url), protocol=pickle.HIGHEST_PROTOCOL))
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inflight.append(future)
        try:
            self.proc.stdin.write(data)
            await self.proc.stdin.drain()
        except (ConnectionError, RuntimeError) as exc:
            raise WorkerCrashed(f"extraction worker {self.proc.pid} is gone: {exc}") from None
        return await future

    def worn(self, max_tasks: int) -> bool:
        """Whether the worker was given ``max_tasks`` pages (0: no limit)."""
        return bool(max_tasks) and self.done + len(self.inflight) >= max_tasks

    def close(self) -> None:
        """End of input: the worker finishes what it has and exits."""
        if self.proc.stdin is not None and not self.proc.stdin.is_closing():
            self.proc.stdin.close()


def _inline(html: str, url: str) -> Extracted | None:
    article = extract_article(html, url)
    return Extracted(article) if article is not None else None


class ExtractionPool:
    """Runs ``extract_article`` inline or in worker processes, with a bound on pages in flight.

    ``mode`` is ``"pool"`` or ``"inline"``. Workers are spoken to over pipes by the crawl's own
    event loop: no helper threads competing with the crawl for the GIL (with
    ``concurrent.futures`` the hand-offs waited on it and the workers sat idle half the time),
    and a worker sees end-of-input and exits when the crawler dies, even by ``kill -9``. Each
    worker holds ``depth`` pages (one being extracted, the next already in its pipe); further
    callers wait, their responses stay in Scrapy's scraper slot, and past
    ``SCRAPER_SLOT_MAX_ACTIVE_SIZE`` Scrapy stops downloading: memory stays bounded. A worker is
    replaced after ``max_tasks_per_child`` pages (a leaking parser cannot grow for ever) or when
    it dies (its pages are then extracted inline). Workers start on first use.
    """

    def __init__(
        self,
        mode: str,
        workers: int,
        depth: int,
        max_tasks_per_child: int,
        *,
        signatures: bool = False,
        language: bool = False,
        nice: int = 0,
    ) -> None:
        self.mode = mode
        #: Workers also compute each article's MinHash signature (near-duplicate detection is on).
        self.signatures = signatures
        #: Workers also detect each article's language (language detection is on).
        self.language = language
        #: Niceness the workers add to their own (the crawl process that feeds them comes first).
        self.nice = min(19, max(0, nice))
        self.size = max(1, workers or (os.cpu_count() or 1))
        self.depth = max(1, depth)
        self.max_tasks_per_child = max_tasks_per_child
        self._workers: list[_Worker] = []
        self._retired: list[_Worker] = []
        self._slots: asyncio.Semaphore | None = None
        self._starting: asyncio.Lock | None = None
        self.crashes = 0

    def worker_pids(self) -> dict[int, int]:
        """Process id -> pages in flight, of the workers pages are given to now."""
        return {w.proc.pid: len(w.inflight) for w in self._workers}

    async def _spawn(self) -> _Worker:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            WORKER_MODULE,
            *(["--signatures"] if self.signatures else []),
            *(["--language"] if self.language else []),
            *(["--nice", str(self.nice)] if self.nice else []),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=worker_env(),
        )
        return _Worker(proc)

    async def _pick(self) -> _Worker:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            for worker in list(self._workers):
                if worker.reader.done() or worker.worn(self.max_tasks_per_child):
                    worker.close()  # it answers what it holds, then exits
                    self._retired.append(worker)
                    self._workers.remove(worker)
            while len(self._workers) < self.size:
                self._workers.append(await self._spawn())
        return min(self._workers, key=lambda w: len(w.inflight))

    async def extract(self, html: str, url: str) -> Extracted | None:
        """The article of ``html``; waits for room in a worker first when all are busy.

        From a worker it comes with its content hash and language (:class:`Extracted`); inline,
        the article alone (the crawl's pipelines compute the rest).
        """
        if self.mode != "pool":
            return _inline(html, url)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size * self.depth)
        async with self._slots:
            try:
                status, value = await (await self._pick()).submit(html, url)
            except WorkerCrashed:
                self.crashes += 1
                logger.error("An extraction worker died; extracting %s inline", url, exc_info=True)
                return _inline(html, url)
        if status != "ok":
            raise RuntimeError(value)
        return Extracted.from_fields(value) if value is not None else None

    async def close(self, timeout: float = 10.0) -> None:
        """Close the workers' input and wait for them to exit (killed after ``timeout``)."""
        workers, self._workers = [*self._workers, *self._retired], []
        self._retired = []
        for worker in workers:
            worker.close()
        for worker in workers:
            try:
                await asyncio.wait_for(worker.proc.wait(), timeout)
            except asyncio.TimeoutError:
                logger.warning("Extraction worker %s did not exit; killing it", worker.proc.pid)
                worker.proc.kill()
                await worker.proc.wait()
            await worker.reader
