"""Reading the JSON Lines outputs from a byte offset, as their writers leave them.

The output pipeline appends one JSON object per line; a line without its newline is a write in
progress (or cut short by a kill). :func:`replay_lines` is the one reader of "the complete lines
past an offset": the output pipeline reconciling the crawl state on open, the near-duplicate
index catching up, a Redis worker replaying a dead worker's output, and ``scrapy export``
reading up to the committed offset.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def replay_lines(
    path: Path,
    start: int,
    record: Callable[[dict[str, Any]], object],
    end: int | None = None,
    *,
    bad_line: Callable[[int], object] | None = None,
    checkpoint: Callable[[int], object] | None = None,
    checkpoint_every: int = 0,
) -> tuple[int, int]:
    """Feed every complete JSON object line of ``path`` from byte ``start`` to ``record``.

    Stops at a last line without its newline (a write in progress: read-only and safe while other
    processes append) and, with ``end``, before a line that would pass that offset. Blank lines
    and lines that are not JSON objects are skipped; ``bad_line`` is called with the offset after
    each one that is not JSON at all. With ``checkpoint`` and ``checkpoint_every``,
    ``checkpoint`` is called with the offset after the last line fed once every
    ``checkpoint_every`` lines fed (a caller that must not hold them all, such as a state rebuilt
    from a large file, commits there). Returns
    (lines fed, offset after the last complete line read).
    """
    count = 0
    pos = start
    with path.open("rb") as fh:
        fh.seek(start)
        for line in fh:
            if (end is not None and pos + len(line) > end) or not line.endswith(b"\n"):
                break
            pos += len(line)
            if line.isspace():
                # A line a full disk cut short in a file other processes append to, blanked in
                # place (harvest.util.files.append_line): nothing was lost there.
                continue
            try:
                data = json.loads(line)
            except ValueError:
                if bad_line is not None:
                    bad_line(pos)
                continue
            if isinstance(data, dict):
                record(data)
                count += 1
                if checkpoint is not None and checkpoint_every and count % checkpoint_every == 0:
                    checkpoint(pos)
    return count, pos
