"""Scrapy's in-memory stats collector, minus a per-call compatibility shim.

Scrapy 2.14+ routes every attribute lookup on a stats collector through ``__getattribute__``
to warn about the deprecated ``spider`` argument of its methods: ~2.2 us per ``inc_value``
against ~0.15 us without, and a crawl makes about 35 such calls per page (about 2% of the CPU of
``scrapy crawl blogs`` with extraction off; BENCHMARKS.md, issue 9). harvest never passes
``spider``; code that does still works (the methods accept it), it is only not warned about.
"""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class StatsCollector(MemoryStatsCollector):
    """``MemoryStatsCollector`` with plain attribute lookup (see the module docstring)."""

    __getattribute__ = object.__getattribute__
