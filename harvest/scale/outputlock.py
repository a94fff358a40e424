"""A lock between a worker writing output and another taking a dead worker's output over.

Workers of one Redis crawl on one machine append to the same output files. When one of them is
given up (frozen past ``HARVEST_REDIS_WORKER_TIMEOUT``), another replays the lines it wrote
without committing, then puts its requests back (:mod:`harvest.scale.coordinator`); the given-up
worker checks its lease before each line it writes (:mod:`harvest.pipelines.output`). A worker
frozen *between* that check and its write wrote its line after the takeover, when the others had
already fetched the page again: the page was stored twice.

So the check and the write happen under a shared lock on the output folder, and the takeover
(replay, then requeue) under an exclusive one, taken without waiting: while a frozen worker sits
between its check and its write, its takeover waits for the next heartbeat; once it writes,
the replay sees the line. ``flock`` locks go with their process: a killed worker holds none.

A worker starting (or joining) the crawl cleans up after a killed one, cutting a last line
without its end and deleting temporary files; that too waits, under the exclusive lock, for any
write in progress: a joining worker cut the line another worker was appending at that moment.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

#: The lock file, in the spider's output folder.
NAME = ".takeover.lock"


class OutputLock:
    """The takeover lock of one spider's output folder (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / NAME
        self._fd: int | None = None

    def _file(self) -> int:
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        return self._fd

    @contextmanager
    def _held(self, mode: int) -> Iterator[None]:
        fd = self._file()
        fcntl.flock(fd, mode)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def writing(self) -> AbstractContextManager[None]:
        """Held while a worker checks its lease and writes (waits only for a running takeover)."""
        return self._held(fcntl.LOCK_SH)

    def alone(self) -> AbstractContextManager[None]:
        """Held while a starting worker cleans up after a killed one.

        A line cut short or a temporary file: it waits until no worker is between its lease
        check and its write, so what it finds half-written is a dead writer's, not a write in
        progress.
        """
        return self._held(fcntl.LOCK_EX)

    @contextmanager
    def taking_over(self) -> Iterator[bool]:
        """Held while a dead worker's output is replayed and its requests given back.

        Yields False, without waiting, when a worker is between its lease check and its write.
        """
        fd = self._file()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Release the file (and any lock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
