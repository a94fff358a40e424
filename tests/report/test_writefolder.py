"""One writer per folder: a live writer's lock refuses (or waits for) another, a killed one's leftovers go.

The other writer is a real process holding the folder (``python -c``), killed with SIGKILL as a
crash would; its temporary file stays behind until the next writer of the folder removes it.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harvest.report.writefolder import TEMP_PREFIX, FolderBusy, WriteError, WriteFolder, writing
from harvest.util.files import atomic_write_text
from tests import PROJECT_ROOT

_HOLDER = """
import sys
from pathlib import Path
from harvest.report.writefolder import TEMP_PREFIX, WriteFolder
folder = Path(sys.argv[1])
with WriteFolder(folder, wait=False):
    (folder / (TEMP_PREFIX + "half-written")).write_text("half")
    print("holding", flush=True)
    sys.stdin.read()
    (folder / "written-by-holder").write_text("last")
"""


def _hold(folder: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(folder)],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "holding"
    return child


def test_a_live_writer_refuses_another_and_a_killed_ones_leftovers_are_removed(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    child = _hold(folder)
    try:
        with pytest.raises(FolderBusy, match=str(folder)), WriteFolder(folder, wait=False):
            pass
        # The live writer's temporary file is not touched by the refused one.
        assert (folder / f"{TEMP_PREFIX}half-written").is_file()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    (folder / "index.html").write_text("kept")
    with WriteFolder(folder, wait=False) as writer:
        assert sorted(p.name for p in folder.iterdir()) == ["index.html"]
        assert writer.remove_stale() == 0
    assert (folder / "index.html").read_text() == "kept"


def test_a_waiting_writer_gets_the_folder_once_the_other_ends(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    child = _hold(folder)
    assert child.stdin is not None
    child.stdin.close()  # the holder reads to the end of its input, then releases the folder
    with WriteFolder(folder, wait=True):
        # Entered only after the holder's last write; the temporary file it left is gone.
        assert sorted(p.name for p in folder.iterdir()) == ["written-by-holder"]
        atomic_write_text(folder / "index.html", "new")
    assert child.wait(timeout=60) == 0


def test_a_failed_write_names_the_file_and_says_when_the_disk_is_full(tmp_path: Path) -> None:
    path = tmp_path / "out" / "index.html"
    with pytest.raises(WriteError) as full, writing(path):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert full.value.disk_full and str(full.value) == f"Cannot write {path}: no space left on device"
    with pytest.raises(WriteError) as denied, writing(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    assert not denied.value.disk_full and str(path) in str(denied.value)
    assert os.strerror(errno.EACCES) in str(denied.value)


def test_a_folder_that_cannot_be_made_is_a_write_error_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(WriteError, match=str(blocker / "out")), WriteFolder(blocker / "out", wait=False):
        pass
