"""Files written so a crash never leaves half of one: atomic replaces, fsyncs, cut partial lines."""

from __future__ import annotations

import errno
import os
from pathlib import Path

#: Prefix of temporary files; leftovers of a killed run are removed on open.
TEMP_PREFIX = ".tmp-"
#: Random temporary names tried before giving up (as ``tempfile``'s ``TMP_MAX``).
_TEMP_ATTEMPTS = 100


def fsync_path(path: Path) -> None:
    """Make a file's data, or a folder's entries (new or renamed files), durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def current_umask() -> int:
    """The process's umask, read without changing it where Linux shows it (else set and restored)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def as_umask_says(fd: int) -> None:
    """Give a file ``tempfile.mkstemp`` made (always 0600) the mode ``open()`` would have given it.

    A renamed temporary file kept 0600 whatever the umask: a report or export a web server or
    another user was meant to read was readable by its owner only.
    """
    os.fchmod(fd, 0o666 & ~current_umask())


def _create_temp(folder: Path) -> tuple[int, Path]:
    """A new, empty temporary file in ``folder`` (created with it if missing), open for writing.

    Created as ``open()`` creates a file (mode 0666 less the umask, or the folder's default ACL),
    not as ``tempfile.mkstemp`` does (0600, then a ``chmod`` after reading the umask from /proc):
    the same mode, without mkstemp's name generator, the umask read and the ``chmod``: about 40%
    less CPU per file, and the crawl process writes one Markdown file per page (BENCHMARKS.md,
    issue 34).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    for _ in range(_TEMP_ATTEMPTS):
        tmp = folder / f"{TEMP_PREFIX}{os.urandom(6).hex()}"
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
        except FileNotFoundError:
            # The folder is new: made once, not checked before every file.
            folder.mkdir(parents=True, exist_ok=True)
            return os.open(tmp, flags, 0o666), tmp
    raise FileExistsError(f"no free temporary name in {folder}")


def atomic_write_text(path: Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` through a temp file and rename: never a half-written file.

    ``durable=False`` skips the fsync of the file's data: for a caller that fsyncs it itself
    before it relies on it (the output pipeline does, for all of a commit's documents at once).
    """
    fd, tmp = _create_temp(path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def append_line(fd: int, line: bytes, path: Path, *, shared: bool = False) -> None:
    """Append ``line`` (ending in a newline) to ``fd``, opened ``O_APPEND``, whole or not at all.

    Appends are atomic on a local file: writers of one file never interleave within a write.
    A write cut short (a full disk) is followed by one for the rest, which raises the real error
    (no space, quota...); the parts written are then taken back before it is raised: cut off
    when this process is the file's only writer; with ``shared`` (other processes append to the
    same file) overwritten in place by spaces and a newline, a blank line every reader skips,
    since cutting the file back would cut the lines another writer may have appended after them
    meanwhile. Each part's place is where its write put it (the descriptor's offset after an
    append), never a size read before. A line whose parts another writer's line came between
    (room found again at that moment) is blanked and appended again.
    """
    view = memoryview(line)
    parts: list[tuple[int, int]] = []
    done = 0
    try:
        while done < len(line):
            count = os.write(fd, view[done:])
            if count == 0:  # never for a file; here so the loop ends whatever the file system
                raise OSError(errno.EIO, f"nothing written to {path}")
            end = os.lseek(fd, 0, os.SEEK_CUR)
            parts.append((end - count, end))
            done += count
    except OSError:
        if parts:
            _take_back(fd, path, parts, shared=shared)
        raise
    if all(parts[i][1] == parts[i + 1][0] for i in range(len(parts) - 1)):
        return
    _take_back(fd, path, parts, shared=True)
    append_line(fd, line, path, shared=True)


def _take_back(fd: int, path: Path, parts: list[tuple[int, int]], *, shared: bool) -> None:
    """Remove the byte ranges ``parts`` an append wrote (see :func:`append_line`)."""
    if not shared:
        os.ftruncate(fd, parts[0][0])
        return
    # A descriptor without O_APPEND: with it, Linux's pwrite appends whatever the offset.
    blank = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        for start, end in parts:
            os.pwrite(blank, b" " * (end - start - 1) + b"\n", start)
    finally:
        os.close(blank)


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
