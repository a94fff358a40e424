"""Size-limited file systems for the full-disk tests: a tmpfs the test mounts (root only)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def mount_tmpfs(path: Path, size: str) -> None:
    """Mount a tmpfs of ``size`` (``1m``) at ``path``; skip the test with the reason if it cannot."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(path)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a size-limited tmpfs here (needs root): {done.stderr.strip()}")


def resize_tmpfs(path: Path, size: str) -> None:
    """Give the tmpfs at ``path`` a new size (room again after a full disk)."""
    subprocess.run(["mount", "-o", f"remount,size={size}", str(path)], check=True, capture_output=True)


def unmount(path: Path) -> None:
    """Unmount ``path``, lazily if it is still busy."""
    if subprocess.run(["umount", str(path)], capture_output=True).returncode != 0:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)
