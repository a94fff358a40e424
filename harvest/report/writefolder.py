"""A folder that one command writes at a time: ``scrapy export``'s dataset, ``scrapy report``'s page.

Both write through temporary files renamed into place, so a reader never sees half a file. What
that leaves to handle is the writer that does not finish: a full disk (the write fails: the
temporary file is removed and :class:`WriteError` names the file, which the commands turn into
one ERROR line and exit code 1) and a kill (nothing runs to remove the temporary file: the next
writer of the folder does, under the folder's lock, so it never removes another live writer's).
"""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from harvest.exceptions import HarvestError
from harvest.state.commits import is_disk_full
from harvest.util.files import TEMP_PREFIX

logger = logging.getLogger(__name__)

__all__ = ["TEMP_PREFIX", "FolderBusy", "WriteError", "WriteFolder", "writing"]


class WriteError(HarvestError):
    """A file of the folder could not be written (the disk is full, the folder is read-only...)."""

    def __init__(self, path: Path, cause: OSError) -> None:
        self.path = path
        self.cause = cause
        self.disk_full = is_disk_full(cause)
        reason = "no space left on device" if self.disk_full else (cause.strerror or str(cause))
        super().__init__(f"Cannot write {path}: {reason}")


class FolderBusy(HarvestError):
    """Another process holds the folder's lock (an export into the same folder is running)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        super().__init__(f"{folder} is being written by another process; run again once it has ended")


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an ``OSError`` of the block into a :class:`WriteError` naming ``path``.

    Parquet's writer and a ``write()`` that hits a full disk raise errors without a file name.
    """
    try:
        yield
    except OSError as exc:
        raise WriteError(path, exc) from exc


class WriteFolder:
    """``with WriteFolder(folder, stale):`` holds the folder's lock and first removes ``stale`` files.

    ``stale`` are glob patterns, relative to the folder, of the temporary files a killed writer
    leaves. ``wait``: wait for another writer to end (a report takes seconds) rather than refuse
    with :class:`FolderBusy` (an export can take minutes). The lock is ``flock`` on the folder
    itself: it goes with its process, so a killed writer holds none, and it leaves no file behind.
    """

    def __init__(self, folder: Path, stale: tuple[str, ...] = (f"{TEMP_PREFIX}*",), *, wait: bool) -> None:
        self.folder = folder
        self.stale = stale
        self.wait = wait
        self._fd: int | None = None

    def __enter__(self) -> WriteFolder:
        with writing(self.folder):
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            raise FolderBusy(self.folder) from None
        self._fd = fd
        try:
            self.remove_stale()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def remove_stale(self) -> int:
        """Remove what a killed writer left (see the class); returns how many files."""
        stale = {p for pattern in self.stale for p in self.folder.glob(pattern) if p.is_file()}
        for path in sorted(stale):
            path.unlink(missing_ok=True)
        if stale:
            logger.info(
                "Removed %d temporary files left by an interrupted run in %s", len(stale), self.folder
            )
        return len(stale)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None
