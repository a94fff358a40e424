"""Garbage-collector settings for a crawl: fewer young collections, start-up objects frozen.

A crawl allocates and frees container objects (requests, responses, headers, Deferreds) by the
million; with CPython's default threshold (a young collection every 700 net allocations) the
cyclic collector ran thousands of times in a long ``scrapy crawl blogs`` and, with the full
collections that scan every module, function and class loaded at start-up, took a large share of
its CPU (BENCHMARKS.md, "Second round of CPU cuts"). At ``engine_started`` this extension

- raises the young-generation threshold to ``HARVEST_GC_THRESHOLD`` (older generations keep
  their ratios, so cyclic garbage is still collected, just in larger batches), and
- with ``HARVEST_GC_FREEZE``, collects the young generations and then freezes what exists
  (``gc.freeze()``): the start-up objects are never scanned again; what the crawl allocates
  later is.

The previous settings are restored when the engine stops (tests run many crawls in a process).
"""

from __future__ import annotations

import gc
import logging
from typing import TYPE_CHECKING

from scrapy import signals

from harvest.exceptions import ConfigError, NotApplicable

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class GarbageCollectorTuning:
    """Applies ``HARVEST_GC_THRESHOLD`` and ``HARVEST_GC_FREEZE`` while the engine runs."""

    def __init__(self, threshold: int, freeze: bool) -> None:
        if threshold < 0:
            raise ConfigError(
                "HARVEST_GC_THRESHOLD", f"expected 0 (Python's default) or more, got {threshold}"
            )
        self.threshold = threshold
        self.freeze = freeze
        self._saved: tuple[int, ...] | None = None
        self._froze = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Off when ``HARVEST_GC_THRESHOLD`` is 0 and ``HARVEST_GC_FREEZE`` is off."""
        threshold = crawler.settings.getint("HARVEST_GC_THRESHOLD")
        freeze = crawler.settings.getbool("HARVEST_GC_FREEZE")
        if not threshold and not freeze:
            raise NotApplicable("HARVEST_GC_THRESHOLD is 0 and HARVEST_GC_FREEZE is off")
        ext = cls(threshold, freeze)
        crawler.signals.connect(ext.engine_started, signal=signals.engine_started)
        crawler.signals.connect(ext.engine_stopped, signal=signals.engine_stopped)
        return ext

    def engine_started(self) -> None:
        """Tune the collector for the crawl."""
        if self.threshold:
            self._saved = gc.get_threshold()
            gc.set_threshold(self.threshold, *self._saved[1:])
        if self.freeze and gc.get_freeze_count() == 0:
            # The young generations first, so that recent garbage is not frozen (it would never
            # be freed). Not a full collection: at this point it finds almost nothing to free and
            # costs every crawl process's start (BENCHMARKS.md, "Issue 18").
            gc.collect(1)
            gc.freeze()
            self._froze = True
        logger.debug(
            "Garbage collector: threshold %s, %d objects frozen", gc.get_threshold(), gc.get_freeze_count()
        )

    def engine_stopped(self) -> None:
        """Put the collector back as it was."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
        if self._froze:
            gc.unfreeze()
            self._froze = False
