"""SIGINT and SIGTERM for the fleet's loop: noted by a tiny handler, read by the loop, waking it.

The handler only appends the signal (a handler must stay tiny); a wake-up fd makes the loop's
``wait`` return at once, so a Ctrl-C is handled within the same tick.
"""

from __future__ import annotations

import os
import signal
from typing import Any


class SignalWatch:
    """Signals received since the loop last looked, and the fd that wakes the loop."""

    def __init__(self) -> None:
        self._signals: list[int] = []
        self.wakeup_fd: int | None = None
        self._wakeup_w: int | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        """Handle SIGINT and SIGTERM and open the wake-up pipe."""
        for signum in (signal.SIGINT, signal.SIGTERM):
            self._previous[signum] = signal.signal(signum, self._on_signal)
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self.wakeup_fd, self._wakeup_w = r, w
        self._previous[-1] = signal.set_wakeup_fd(w)

    def restore(self) -> None:
        """Give the process its previous handlers back and close the pipe."""
        if -1 in self._previous:
            signal.set_wakeup_fd(self._previous.pop(-1))
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous = {}
        for fd in (self.wakeup_fd, self._wakeup_w):
            if fd is not None:
                os.close(fd)
        self.wakeup_fd = self._wakeup_w = None

    def drain_wakeup(self) -> None:
        """Empty the wake-up pipe (after ``wait`` returned it ready)."""
        if self.wakeup_fd is not None:
            try:
                os.read(self.wakeup_fd, 512)
            except BlockingIOError:
                pass

    def pending(self) -> list[int]:
        """The signals received since the last call, oldest first."""
        taken, self._signals = self._signals, []
        return taken

    def _on_signal(self, signum: int, frame: Any) -> None:
        self._signals.append(signum)  # handled in the loop: a signal handler must stay tiny
