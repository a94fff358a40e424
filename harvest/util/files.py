"""Files written so a crash never leaves half of one: atomic replaces, fsyncs, cut partial lines."""

from __future__ import annotations

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
