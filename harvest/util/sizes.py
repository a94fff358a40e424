"""The data folder's size, measured in a background thread for ``--max-data-size``.

Walking a folder of millions of files takes seconds of I/O, so the walk runs off the
supervisor's loop, and the pause between walks grows with the time a walk takes (never more
than a tenth of the time spent walking), so the monitor cannot become the fleet's main load.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

logger = logging.getLogger(__name__)

#: A walk may take at most this share of the monitor's time.
_MAX_DUTY = 0.1


def folder_size(root: str | Path) -> int:
    """Total bytes of the regular files under ``root`` (symlinks not followed; races ignored)."""
    total = 0
    stack = [str(root)]
    while stack:
        path = stack.pop()
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                        elif entry.is_file(follow_symlinks=False):
                            total += entry.stat(follow_symlinks=False).st_size
                    except FileNotFoundError:
                        continue  # removed while we walked (a temp file renamed into place)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
    return total


class SizeMonitor(threading.Thread):
    """Measures ``root`` every ``interval`` seconds (or less often if walks are slow)."""

    def __init__(self, root: str | Path, interval: float) -> None:
        super().__init__(name="harvest-size-monitor", daemon=True)
        self.root = Path(root)
        self.interval = interval
        #: Bytes at the last measurement (None until the first one is done).
        self.size: int | None = None
        self._last_walk = 0.0
        self._stop_event = threading.Event()

    def measure(self) -> int:
        """Measure now (also used for the first measurement, before the fleet starts)."""
        started = time.monotonic()
        self.size = folder_size(self.root)
        self._last_walk = time.monotonic() - started
        return self.size

    def run(self) -> None:
        """Measure until stopped (at once, unless a measurement was just taken)."""
        if self.size is None:
            self.measure()
        while not self._stop_event.wait(max(self.interval, self._last_walk / _MAX_DUTY)):
            self.measure()

    def stop(self) -> None:
        """Stop after the current walk."""
        self._stop_event.set()
