"""How many processes one crawl runs as: decided once, here, for ``scrapy crawl`` and the fleet.

Both entry points ask :func:`crawl_workers` with what they were given (the number asked for, or
chosen from the machine when ``HARVEST_CRAWL_WORKERS=0``) and whether Scrapy feed exports are
configured; they differ only in how they word a refusal (a usage error of ``scrapy crawl`` or of
``run_all.py``). The rules:

- a data folder keeps the number of workers its state was first built with
  (:func:`harvest.state.partition.resolve_workers`);
- Scrapy's feed exports (``-o``, ``-O``, ``FEEDS``) are files of one process: N workers would
  each write (or truncate) the same file. A number chosen from the machine falls back to one
  process (said once); a number asked for, or recorded by the folder, is refused before anything
  is written.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from harvest.state.partition import record_path, recorded_workers, resolve_workers

if TYPE_CHECKING:
    from pathlib import Path

logger = logging.getLogger(__name__)


class WorkersRefused(ValueError):
    """The crawl cannot run as asked; ``setting`` names what is at fault ("" = the number asked)."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


def crawl_workers(data_dir: str | Path, spider: str, requested: int, *, chosen: bool, feeds: bool) -> int:
    """The number of worker processes ``spider``'s crawl in ``data_dir`` runs as (recorded if >1).

    ``requested``: the number asked for, or chosen from the machine (``chosen``); ``feeds``:
    Scrapy feed exports are configured. Raises :class:`WorkersRefused` naming the setting at fault.
    """
    try:
        recorded = recorded_workers(data_dir, spider)
    except ValueError as exc:  # an unreadable record, named
        raise WorkersRefused("", str(exc)) from None
    if feeds:
        requested = _one_for_feeds(data_dir, spider, recorded, requested, chosen)
    try:
        return resolve_workers(data_dir, spider, requested, chosen=chosen)
    except ValueError as exc:
        raise WorkersRefused("", str(exc)) from None


def _one_for_feeds(
    data_dir: str | Path, spider: str, recorded: int | None, requested: int, chosen: bool
) -> int:
    """1 for a crawl with feed exports; WorkersRefused when it cannot run in one process."""
    if recorded is not None and recorded > 1:
        workers, why = recorded, f"its data folder's number, {record_path(data_dir, spider)}"
    elif requested > 1 and not chosen:
        workers, why = requested, f"HARVEST_CRAWL_WORKERS={requested}"
    else:
        if requested > 1:
            logger.info(
                "Crawling %s in one process, not %d workers: feed exports (-o, -O, FEEDS) are "
                "one process's files",
                spider,
                requested,
            )
        return 1
    raise WorkersRefused(
        "FEEDS",
        f"feed exports (-o, -O, FEEDS) are one process's files, and this crawl of {spider} runs "
        f"as {workers} worker processes ({why}): export its data folder after the crawl "
        "(scrapy export), or crawl into another HARVEST_DATA_DIR with HARVEST_CRAWL_WORKERS=1",
    )
