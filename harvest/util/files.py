"""Files written so a crash never leaves half of one: atomic replaces, fsyncs, cut partial lines."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: Prefix of temporary files; leftovers of a killed run are removed on open.
TEMP_PREFIX = ".tmp-"


def fsync_path(path: Path) -> None:
    """Make a file's data, or a folder's entries (new or renamed files), durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` through a temp file and rename: never a half-written file.

    ``durable=False`` skips the fsync of the file's data: for a caller that fsyncs it itself
    before it relies on it (the output pipeline does, for all of a commit's documents at once).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def truncate_partial_tail(path: Path) -> int:
    """Cut a trailing line without its newline (a write cut short); return the bytes removed."""
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("r+b") as fh:
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return 0
        pos = size
        chunk = 1 << 16
        while pos > 0:
            start = max(0, pos - chunk)
            fh.seek(start)
            cut = fh.read(pos - start).rfind(b"\n")
            if cut >= 0:
                keep = start + cut + 1
                break
            pos = start
        else:
            keep = 0
        fh.truncate(keep)
        fh.flush()
        os.fsync(fh.fileno())
    return size - keep
